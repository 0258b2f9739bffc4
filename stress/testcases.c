// SPDX-License-Identifier: MIT
/* The workloads, by name, and what their loops share. */
#include "stress.h"

#include <stdlib.h>
#include <string.h>

extern const struct stress_workload stress_pcp_alloc1, stress_buddy_split1,
	stress_cross_free1, stress_drain1, stress_ktorture1, stress_page_fault1, stress_brk1,
	stress_mmap1, stress_tlb_flush2;

const struct stress_workload *const stress_workloads[] = {
	&stress_pcp_alloc1,
	&stress_buddy_split1,
	&stress_cross_free1,
	&stress_drain1,
	&stress_ktorture1,
	&stress_page_fault1,
	&stress_brk1,
	&stress_mmap1,
	&stress_tlb_flush2,
	NULL,
};

const struct stress_workload *stress_workload_lookup(const char *name)
{
	int i;

	for (i = 0; stress_workloads[i]; i++)
		if (!strcmp(stress_workloads[i]->name, name))
			return stress_workloads[i];
	return NULL;
}

void *stress_task_calloc(size_t n, size_t size)
{
	size_t bytes = (n * size + STRESS_CACHELINE - 1) & ~(size_t)(STRESS_CACHELINE - 1);
	void *p = aligned_alloc(STRESS_CACHELINE, bytes);

	if (p)
		memset(p, 0, bytes);
	return p;
}

struct page *stress_alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	if (unlikely(!page)) {
		drain_all_pages(NULL);
		page = alloc_pages(gfp, order);
	}
	return page;
}

void stress_touch(struct page *page, unsigned int order)
{
	unsigned char *p = page_address(page);
	unsigned long i;

	for (i = 0; i < 1UL << order; i++)
		p[i * MODEL_PAGE_SIZE] = (unsigned char)i;
}

unsigned long stress_alloc_free_batch(struct page **pages, unsigned long n, unsigned int order)
{
	unsigned long i, got;

	for (got = 0; got < n; got++) {
		pages[got] = stress_alloc_pages(GFP_HIGHUSER_MOVABLE, order);
		if (unlikely(!pages[got]))
			break;
		stress_touch(pages[got], order);
	}
	for (i = 0; i < got; i++)
		__free_pages(pages[i], order);
	return got;
}

struct prefault {
	unsigned long n;
	unsigned int order;
};

static void prefault_fn(struct stress_run *r, void *arg)
{
	const struct prefault *pf = arg;
	unsigned long i;

	for (i = 0; i < r->ntasks; i++) {
		r->runner.cpu = r->tasks[i].task.cpu;
		stress_alloc_free_batch(r->tasks[i].priv, pf->n, pf->order);
	}
}

int stress_prefault(struct stress_run *r, unsigned long n, unsigned int order)
{
	struct prefault pf = { n, order };

	return stress_as_runner(r, prefault_fn, &pf);
}

// SPDX-License-Identifier: MIT
/* The workloads, by name, and what their loops share. */
#include "stress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_stress);

static const struct stress_workload *workloads[STRESS_MAX_WORKLOADS];
static int nworkloads;
static pthread_once_t workloads_once = PTHREAD_ONCE_INIT;

static int cmp_workload(const void *a, const void *b)
{
	return strcmp(((const struct stress_workload *)a)->name,
		      ((const struct stress_workload *)b)->name);
}

static const char *workload_name(const void *e)
{
	return ((const struct stress_workload *)e)->name;
}

/* by name: --list's order, and a name is a workload once */
static const struct registry workloads_registry = {
	.what = "stress workload", .limit = "STRESS_MAX_WORKLOADS in stress/stress.h",
	REGISTRY_BOUNDS(mmfuzz_stress), .cap = STRESS_MAX_WORKLOADS,
	.key = cmp_workload, .name = workload_name,
};

static void workloads_build(void)
{
	nworkloads = (int)registry_collect(&workloads_registry, (const void **)workloads);
}

int stress_workloads_count(void)
{
	pthread_once(&workloads_once, workloads_build);
	return nworkloads;
}

const struct stress_workload *stress_workload_by_index(int i)
{
	return i >= 0 && i < stress_workloads_count() ? workloads[i] : NULL;
}

const struct stress_workload *stress_workload_lookup(const char *name)
{
	return registry_lookup(&workloads_registry, (const void *const *)workloads,
			       (size_t)stress_workloads_count(), name);
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

// SPDX-License-Identifier: MIT
/*
 * pcp_alloc1: the page allocator's part of will-it-scale's page_fault1.
 * Each task "faults in" a region of order-0 movable pages, touching each,
 * then "unmaps" it, freeing them in order.  The allocations drain this
 * CPU's pcp list and refill it from the buddy with rmqueue_bulk; the frees
 * fill it past pcp->high and free_pcppages_bulk sends pages back under
 * zone->lock: the path seed 000's patch is about.  One op is one page
 * allocated and freed.
 */
#include "stress.h"

#include <stdlib.h>

/* pages per region: a little over pcp->high, so each region passes
 * through the buddy once in each direction, as a large mapping does */
#define PCP_ALLOC1_PAGES	(getenv("PA1") ? atoi(getenv("PA1")) : 512)

static int pcp_alloc1_prepare(struct stress_run *r, unsigned long tasks)
{
	unsigned long i;

	for (i = 0; i < tasks; i++) {
		r->tasks[i].priv = calloc(PCP_ALLOC1_PAGES, sizeof(struct page *));
		if (!r->tasks[i].priv)
			return -1;
	}
	return 0;
}

static void pcp_alloc1_testcase(struct stress_task *t)
{
	struct page **pages = t->priv;

	while (stress_continue(t))
		stress_count(t, stress_alloc_free_batch(pages, PCP_ALLOC1_PAGES, 0));
}

static void pcp_alloc1_cleanup(struct stress_run *r)
{
	unsigned long i;

	for (i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].priv);
		r->tasks[i].priv = NULL;
	}
}

const struct stress_workload stress_pcp_alloc1 = {
	.name = "pcp_alloc1",
	.description = "Order-0 page allocate and free through the per-CPU lists",
	.prepare = pcp_alloc1_prepare,
	.testcase = pcp_alloc1_testcase,
	.cleanup = pcp_alloc1_cleanup,
};

// SPDX-License-Identifier: MIT
/*
 * pcp_alloc1: the page allocator's part of will-it-scale's page_fault1.
 * Each task "faults in" a region of order-0 movable pages, touching each,
 * then "unmaps" it, freeing them in order.  The pages come from and go back
 * to this CPU's pcp list; when a region outgrows the list, the allocations
 * refill it from the buddy with rmqueue_bulk and the frees push it past
 * pcp->high, so free_pcppages_bulk sends pages back under zone->lock: the
 * path seed 000's patch is about.  One op is one page allocated and freed.
 *
 * The runner faults each task's region in once before the start, task after
 * task on the task's CPU (stress_prefault), so each CPU's list holds one
 * run of pfns: left to the start race, the two CPUs' first refills
 * interleave, and the 2-task figure depended on how (model.pcp_page_runs).
 */
#include "stress.h"

#include <stdlib.h>

/*
 * Pages per region: 1 MB of 4 KB pages.  Below pcp->high - pcp->batch (378
 * and 63 by default) a region lives on this CPU's pcp list once the list
 * has filled: the fast path alone, which is what the per-CPU lists are for.
 * With seed 000's 4.16 sizes (--pcp-high 186 --pcp-batch 31) it overflows
 * the list, and every region sends pages through rmqueue_bulk and
 * free_pcppages_bulk, as page_fault1's 128 MB mappings do.
 */
#define PCP_ALLOC1_PAGES	256

static int pcp_alloc1_prepare(struct stress_run *r, unsigned long tasks)
{
	unsigned long i;

	for (i = 0; i < tasks; i++) {
		r->tasks[i].priv = stress_task_calloc(PCP_ALLOC1_PAGES, sizeof(struct page *));
		if (!r->tasks[i].priv)
			return -1;
	}
	return stress_prefault(r, PCP_ALLOC1_PAGES, 0);
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

static const struct stress_workload stress_pcp_alloc1 = {
	.name = "pcp_alloc1",
	.description = "Order-0 page allocate and free through the per-CPU lists",
	.prepare = pcp_alloc1_prepare,
	.testcase = pcp_alloc1_testcase,
	.cleanup = pcp_alloc1_cleanup,
};
STRESS_WORKLOAD(stress_pcp_alloc1);

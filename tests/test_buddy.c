// SPDX-License-Identifier: MIT
/*
 * The buddy allocator and the per-CPU lists, one scenario at a time, run
 * sequentially on one real-mode task with every checker on.
 */
#include <setjmp.h>
#include <string.h>

#include "check/check.h"
#include "mm/internal.h"
#include "prog/handle.h"
#include "prog/ops_pagealloc.h"
#include "tap.h"

static struct task me;
static jmp_buf jb;

static struct world *boot(int high, int batch)
{
	struct mm_config cfg;
	struct world *w;

	config_default(&cfg);
	config_set(&cfg, &ck_cpus, 1);
	config_set(&cfg, &ck_max_order, 3);
	config_set(&cfg, &ck_pageblock_order, 2);
	config_set(&cfg, &ck_zone_pages, 32);
	config_set(&cfg, &ck_pcp_high, high);
	config_set(&cfg, &ck_pcp_batch, batch);
	config_set(&cfg, &ck_stat_threshold, 4);
	if (world_create(&cfg, &w))
		return NULL;
	shadow_run_begin(w, 1);
	check_run_begin(w);
	memset(&me, 0, sizeof(me));
	me.exit_jb = &jb;
	current_task = &me;
	violation_reset();
	return w;
}

static unsigned long nr_free(struct world *w, int order)
{
	return zone_by_idx(w, 0)->free_area[order].nr_free;
}

static bool free_area_is(struct world *w, unsigned long o0, unsigned long o1, unsigned long o2,
			 unsigned long o3)
{
	return nr_free(w, 0) == o0 && nr_free(w, 1) == o1 && nr_free(w, 2) == o2 &&
	       nr_free(w, 3) == o3;
}

static bool on_free_list(struct world *w, unsigned long pfn, int order)
{
	struct page *page = pfn_to_page(pfn);

	(void)w;
	return PageBuddy(page) && buddy_order(page) == (unsigned int)order;
}

/* The checks at quiescence, with @held as what the program holds. */
static void quiesce(struct world *w, struct page **held, const int *orders, int n)
{
	int i;

	/* the executor's table holds them, the shadow observes it */
	shadow_table_set(&page_table);
	shadow_run_begin(w, 1);
	handle_run_begin();
	for (i = 0; i < n; i++)
		handle_set(i, i, &hk_page, held[i], (unsigned long)orders[i]);
	check_quiescent(w, "test");
	handle_run_end();
	shadow_run_end();
	shadow_table_set(NULL);
}

int main(void)
{
	struct world *w;
	struct page *p[8];
	int orders[8];

	tap_plan(25);
	if (setjmp(jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/*
	 * Split.  With pcp high 0 and batch 1 the per-CPU lists pass every
	 * page straight through, so the buddy state shows.
	 *
	 *   pfn  0       8       16      24      32
	 *        [   3   ][   3   ][   3   ][   3   ]   four free order-3 blocks
	 *
	 * alloc_pages(order 0) takes block 0 and splits it:
	 *        [a|0|1 |  2   ][   3   ][   3   ][   3   ]
	 *         0 1 2  4
	 */
	w = boot(0, 1);
	ok(w != NULL, "a zone of 32 pages in four order-3 blocks");
	ok(free_area_is(w, 0, 0, 0, 4), "boot: nr_free 0/0/0/4");
	p[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ok(p[0] && page_to_pfn(p[0]) == 0, "order-0 allocation returns pfn 0");
	ok(free_area_is(w, 1, 1, 1, 3), "split leaves one free block of orders 0, 1 and 2");
	ok(on_free_list(w, 1, 0) && on_free_list(w, 2, 1) && on_free_list(w, 4, 2),
	   "the halves are pfn 1 (order 0), 2 (order 1), 4 (order 2)");
	orders[0] = 0;
	quiesce(w, p, orders, 1);
	ok(1, "quiescent invariants hold with one page out");

	/*
	 * Merge.  Freeing pfn 0 finds its buddy pfn 1 free, then 2-3, then 4-7:
	 * block 0 is whole again.
	 */
	__free_pages(p[0], 0);
	ok(free_area_is(w, 0, 0, 0, 4), "freeing pfn 0 merges back to four order-3 blocks");
	ok(on_free_list(w, 0, 3), "pfn 0 heads an order-3 block");

	/*
	 * A merge stops at an allocated buddy:
	 *        [x|y|  1 |  2   ]...   x = pfn 0, y = pfn 1
	 * freeing x leaves [x] at order 0 (y still out); freeing y merges all.
	 */
	p[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	p[1] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ok(page_to_pfn(p[1]) == 1, "the second order-0 page is pfn 1, pfn 0's buddy");
	__free_pages(p[0], 0);
	ok(on_free_list(w, 0, 0) && free_area_is(w, 1, 1, 1, 3),
	   "pfn 0 stays at order 0 while its buddy is allocated");
	__free_pages(p[1], 0);
	ok(free_area_is(w, 0, 0, 0, 4), "freeing the buddy merges up to order 3");

	/*
	 * Higher orders split from the top:
	 *        [  2   |  2   ][ ...
	 * an order-2 allocation takes pfn 0-3 and leaves 4-7 free at order 2.
	 */
	p[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 2);
	ok(page_to_pfn(p[0]) == 0 && free_area_is(w, 0, 0, 1, 3), "order 2: pfn 0-3 out, 4-7 free");
	__free_pages(p[0], 2);
	ok(free_area_is(w, 0, 0, 0, 4), "and back");
	ok(zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 32,
	   "NR_FREE_PAGES (snapshot) counts all 32 pages");
	world_destroy(w);

	/*
	 * PCP refill, free and drain: high 6, batch 2.  An order-0 allocation
	 * refills the list with batch pages (rmqueue_bulk) and takes one.
	 */
	w = boot(6, 2);
	p[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count == 1, "refill of 2, one taken: pcp count 1");
	ok(mm_stat_sum(MM_PCP_REFILL) == 1, "one rmqueue_bulk refill");
	p[1] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count == 0 && mm_stat_sum(MM_PCP_REFILL) == 1,
	   "the second comes from the list without a refill");
	__free_pages(p[0], 0);
	__free_pages(p[1], 0);
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count == 2, "frees go to the pcp list: count 2");
	ok(zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 30,
	   "pages on a pcp list are not free for vmstat: NR_FREE_PAGES 30");
	/* fill up to high: the free that reaches high frees a batch back */
	{
		int i;

		for (i = 0; i < 6; i++)
			p[i] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
		for (i = 0; i < 6; i++)
			__free_pages(p[i], 0);
	}
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count < 6 && mm_stat_sum(MM_PCP_BULK_FREE) >= 1,
	   "reaching high (6) bulk-frees: count %d, %lu bulk frees",
	   zone_by_idx(w, 0)->per_cpu_pageset[0].count, mm_stat_sum(MM_PCP_BULK_FREE));
	preempt_disable();
	drain_local_pages(NULL);
	preempt_enable();
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count == 0, "drain_local_pages empties the list");
	ok(free_area_is(w, 0, 0, 0, 4), "and the buddy is whole again");
	refresh_cpu_vm_stats(false);
	check_final(w);
	ok(1, "the end checks hold after a full drain and fold");
	world_destroy(w);

	/* zone_pcp_disable: high 0, batch 1, drained; enable restores them */
	w = boot(6, 2);
	p[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	__free_pages(p[0], 0);
	zone_pcp_disable(zone_by_idx(w, 0));
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].count == 0 &&
	   zone_by_idx(w, 0)->per_cpu_pageset[0].high == 0 && zone_pcp_disabled(zone_by_idx(w, 0)),
	   "zone_pcp_disable drains and sets high 0");
	zone_pcp_enable(zone_by_idx(w, 0));
	ok(zone_by_idx(w, 0)->per_cpu_pageset[0].high == 6 &&
	   zone_by_idx(w, 0)->per_cpu_pageset[0].batch == 2,
	   "zone_pcp_enable restores high 6, batch 2");
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

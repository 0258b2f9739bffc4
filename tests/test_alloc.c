// SPDX-License-Identifier: MIT
/*
 * The allocation entry: ALLOC_NOFRAGMENT sending an unmovable allocation
 * to DMA32 rather than polluting Normal, and its retry without the flag
 * when every zone is fragmented; PGALLOC counted per zone; the slow path's
 * reserves and where it stops (no reclaim, no OOM killer); __GFP_ZERO.
 */
#include "mm_world.h"
#include "tap.h"

/* one pageblock per max-order block: 8 pages */
static void small_blocks(struct mm_config *cfg)
{
	config_set(cfg, &ck_zone_pages, 64);		/* min 2, low 2, high 3 */
	config_set(cfg, &ck_max_order, 3);
	config_set(cfg, &ck_pageblock_order, 3);
	config_set(cfg, &ck_pcp_high, 0);		/* pages pass straight through the pcps */
	config_set(cfg, &ck_pcp_batch, 1);
}

static void two_small_zones(struct mm_config *cfg)
{
	small_blocks(cfg);
	config_set(cfg, &ck_zones, 2);
}

static void pass_through(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 0);		/* 256 pages: min 8, low 10, high 12 */
	config_set(cfg, &ck_pcp_batch, 1);
}

static void two_cpus(struct mm_config *cfg)
{
	pass_through(cfg);
	config_set(cfg, &ck_cpus, 2);
}

/* fold before every allocation, so the watermarks read exact counters */
static struct page *alloc_folded(struct world *w, gfp_t gfp, unsigned int order)
{
	mm_fold(w);
	return alloc_pages(gfp, order);
}

static unsigned long free_pages_now(struct world *w)
{
	return zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES);
}

int main(void)
{
	static struct page *held[300];
	struct page *p, *q, *first;
	struct world *w;
	unsigned long base = 0;
	int n, i;

	tap_plan(27);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/*
	 * ALLOC_NOFRAGMENT.  Two zones of 64 pages, a pageblock per order-3
	 * block.  Normal is fragmented: one movable page out of its first
	 * block, the seven others taken whole.
	 *
	 *   DMA32   0 [   free  ][   free  ] ... [   free  ] 63
	 *   Normal 64 [x|0|1 |2 ][  taken  ] ... [  taken  ] 127
	 *
	 * An unmovable page: in Normal only a fallback to part of a movable
	 * pageblock would do, which ALLOC_NOFRAGMENT forbids, so the zonelist
	 * goes on to DMA32, which gives a whole pageblock.
	 */
	w = mm_test_boot(two_small_zones);
	held[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	for (i = 1; i < 8; i++)
		held[i] = alloc_pages(GFP_HIGHUSER_MOVABLE, 3);
	ok(page_to_pfn(held[0]) == 64 && page_to_pfn(held[7]) >= 64 &&
	   mm_nr_free(w, 1, 3) == 0 && mm_is_free_block(68, 2),
	   "Normal: pfn 64 out, blocks 72-127 taken, pfn 65-71 free below pageblock order");
	p = alloc_pages(GFP_KERNEL, 0);
	ok(p && page_to_pfn(p) < 64 && mm_pb_type(page_to_pfn(p)) == MIGRATE_UNMOVABLE,
	   "an unmovable page comes from DMA32 (pfn %lu), whose pageblock it claims",
	   p ? page_to_pfn(p) : 0);
	ok(mm_pb_type(64) == MIGRATE_MOVABLE && mm_stat_sum(MM_NOFRAGMENT_RETRY) == 0,
	   "Normal's movable pageblock is not polluted, no retry needed");
	ok(sum_vm_event(PGALLOC_NORMAL) == 57 && sum_vm_event(PGALLOC_DMA32) == 1 &&
	   sum_vm_event(PGALLOC) == 58,
	   "PGALLOC per zone: 57 pages from Normal, 1 from DMA32, 58 in all");
	/*
	 * Now DMA32 has nothing either: its other pageblocks taken whole,
	 * the unmovable one filled.  No zone can give an unmovable page
	 * without fragmenting, so get_page_from_freelist passes again
	 * without ALLOC_NOFRAGMENT, and Normal, first in the zonelist, gives
	 * up part of its movable pageblock.
	 */
	for (i = 8; i < 15; i++)
		held[i] = alloc_pages(GFP_HIGHUSER_MOVABLE, 3);
	for (i = 15; i < 22; i++)
		held[i] = alloc_pages(GFP_KERNEL, 0);
	ok(mm_nr_free(w, 0, 3) == 0 && page_to_pfn(held[21]) < 8 &&
	   zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 0,
	   "DMA32 taken: 7 movable pageblocks, the unmovable one full");
	q = alloc_pages(GFP_KERNEL, 0);
	ok(q && page_to_pfn(q) >= 64 && page_to_pfn(q) < 72 &&
	   mm_stat_sum(MM_NOFRAGMENT_RETRY) == 1,
	   "the retry without ALLOC_NOFRAGMENT takes pfn %lu from Normal's movable pageblock",
	   q ? page_to_pfn(q) : 0);
	__free_pages(q, 0);
	for (i = 15; i < 22; i++)
		__free_pages(held[i], 0);
	for (i = 8; i < 15; i++)
		__free_pages(held[i], 3);
	__free_pages(p, 0);
	for (i = 1; i < 8; i++)
		__free_pages(held[i], 3);
	__free_pages(held[0], 0);
	world_destroy(w);

	/*
	 * One zone (Normal, with ALLOC_NOFRAGMENT on one node) fragmented
	 * the same way: the first pass finds no zone, get_page_from_freelist
	 * retries without the flag and falls back to the movable pageblock.
	 */
	w = mm_test_boot(small_blocks);
	held[0] = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	for (i = 1; i < 8; i++)
		held[i] = alloc_pages(GFP_HIGHUSER_MOVABLE, 3);
	p = alloc_pages(GFP_KERNEL, 0);
	ok(p && page_to_pfn(p) < 8 && mm_stat_sum(MM_NOFRAGMENT_RETRY) == 1,
	   "one zone: a retry without ALLOC_NOFRAGMENT takes pfn %lu from the fragmented block",
	   p ? page_to_pfn(p) : 0);
	ok(mm_pb_type(0) == MIGRATE_UNMOVABLE,
	   "7 of its 8 pages free: the fallback claims the pageblock for unmovable");
	__free_pages(p, 0);
	for (i = 1; i < 8; i++)
		__free_pages(held[i], 3);
	__free_pages(held[0], 0);
	world_destroy(w);

	/*
	 * The slow path on a 256-page zone (min 8): GFP_KERNEL stops at the
	 * min watermark, reclaims nothing, gets to where the OOM killer would
	 * run, and fails with a warning.
	 */
	w = mm_test_boot(pass_through);
	for (n = 0; (held[n] = alloc_folded(w, GFP_KERNEL, 0)); n++)
		;
	ok(free_pages_now(w) == 8, "GFP_KERNEL: %d pages, the zone left at its min (8)", n);
	ok(mm_stat_sum(MM_SLOWPATH) >= 1 && mm_stat_sum(MM_KSWAPD_WAKE) >= 1 &&
	   mm_stat_sum(MM_DIRECT_RECLAIM) == 1 && mm_stat_sum(MM_RECLAIM_RETRY) == 0 &&
	   mm_stat_sum(MM_OOM) == 1 && mm_stat_sum(MM_WARN_ALLOC) == 1 &&
	   mm_stat_sum(MM_ALLOC_FAIL) == 1,
	   "the failure: kswapd woken, one reclaim without progress, no retry, the OOM point "
	   "reached, one warning");
	for (; (held[n] = alloc_folded(w, GFP_ATOMIC, 0)); n++)
		;
	ok(free_pages_now(w) == 3 && mm_stat_sum(MM_DIRECT_RECLAIM) == 1 &&
	   mm_stat_sum(MM_OOM) == 1 && mm_stat_sum(MM_WARN_ALLOC) == 2,
	   "GFP_ATOMIC goes on to 3/8 of the min (3), never reclaims, warns once more");
	ok(!alloc_folded(w, GFP_ATOMIC | __GFP_NOWARN, 0) && mm_stat_sum(MM_WARN_ALLOC) == 2,
	   "__GFP_NOWARN: the failure is not reported");
	held[n] = alloc_folded(w, GFP_KERNEL | __GFP_MEMALLOC, 0);
	ok(held[n] && page_is_pfmemalloc(held[n]) && free_pages_now(w) == 2,
	   "__GFP_MEMALLOC: ALLOC_NO_WATERMARKS gives a page at 3, marked pfmemalloc");
	n++;
	held[n] = alloc_folded(w, GFP_KERNEL | __GFP_NOFAIL, 0);
	ok(held[n] && page_is_pfmemalloc(held[n]) && mm_stat_sum(MM_NOFAIL_STOP) == 0,
	   "__GFP_NOFAIL: the OOM path's ALLOC_NO_WATERMARKS try gives one at 2");
	n++;
	while ((held[n] = alloc_folded(w, GFP_KERNEL | __GFP_NOFAIL, 0)))
		n++;
	ok(free_pages_now(w) == 0 && mm_stat_sum(MM_NOFAIL_STOP) == 1,
	   "an empty zone: __GFP_NOFAIL fails where the kernel would retry for ever (counted)");
	ok(!page_is_pfmemalloc(held[0]), "a page from above the watermarks is not pfmemalloc");
	while (n)
		__free_pages(held[--n], 0);
	world_destroy(w);

	/* An OOM victim may take half of the min reserve. */
	w = mm_test_boot(pass_through);
	mark_oom_victim(current);
	for (n = 0; (held[n] = alloc_folded(w, GFP_KERNEL, 0)); n++)
		;
	ok(free_pages_now(w) == 4, "an OOM victim's GFP_KERNEL: down to half the min (4)");
	while (n)
		__free_pages(held[--n], 0);
	world_destroy(w);

	/*
	 * The counter refuses, the snapshot would allow: cpu1 freed 8 pages
	 * into its differential.  should_reclaim_retry() reads the snapshot
	 * and retries, MAX_RECLAIM_RETRIES times, then the OOM path fails.
	 */
	w = mm_test_boot(two_cpus);
	for (n = 0; (held[n] = alloc_folded(w, GFP_KERNEL, 0)); n++)
		;
	mm_test_task.cpu = 1;
	for (i = 0; i < 8; i++)
		__free_pages(held[--n], 0);
	mm_test_task.cpu = 0;
	base = mm_stat_sum(MM_RECLAIM_RETRY);
	ok(zone_page_state(zone_by_idx(w, 0), NR_FREE_PAGES) == 8 && free_pages_now(w) == 16,
	   "counter 8, snapshot 16 (cpu1's +8 not folded)");
	ok(!alloc_pages(GFP_KERNEL, 0) && mm_stat_sum(MM_RECLAIM_RETRY) - base == 16,
	   "GFP_KERNEL retries 16 times on the snapshot's word, then fails");
	mm_fold(w);
	ok((held[n] = alloc_pages(GFP_KERNEL, 0)) != NULL, "once folded, the counter agrees: a page");
	n++;
	while (n)
		__free_pages(held[--n], 0);
	world_destroy(w);

	/* Costly orders do not retry; __GFP_NORETRY does not either. */
	w = mm_test_boot(pass_through);
	for (n = 0; (held[n] = alloc_folded(w, GFP_KERNEL, 0)); n++)
		;
	ok(!alloc_folded(w, GFP_KERNEL, 4) && mm_stat_sum(MM_OOM) == 1,
	   "an order-4 (costly) allocation gives up before the OOM point");
	ok(!alloc_folded(w, GFP_KERNEL | __GFP_NORETRY, 0) && mm_stat_sum(MM_OOM) == 1,
	   "__GFP_NORETRY gives up before the OOM point");
	while (n)
		__free_pages(held[--n], 0);
	world_destroy(w);

	/* __GFP_ZERO: the pcp list gives the last freed page back first. */
	w = mm_test_boot(NULL);
	first = alloc_pages(GFP_KERNEL, 0);
	memset(page_address(first), 0xa5, MODEL_PAGE_SIZE);
	__free_pages(first, 0);
	p = alloc_pages(GFP_KERNEL, 0);
	ok(p == first, "the page comes back from the pcp list");
#if !MMFUZZ_ASAN
	ok(((unsigned char *)page_address(p))[7] == 0xa5,
	   "without __GFP_ZERO it holds what its last owner wrote");
#else
	ok(1, "without __GFP_ZERO: (not read under ASan: the memory was poisoned while free)");
#endif
	__free_pages(p, 0);
	p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	ok(p == first && ((unsigned char *)page_address(p))[7] == 0 &&
	   ((unsigned char *)page_address(p))[MODEL_PAGE_SIZE - 1] == 0,
	   "with __GFP_ZERO it is zeroed");
	__free_pages(p, 0);
	p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	for (i = 0; i < 4 * MODEL_PAGE_SIZE && ((unsigned char *)page_address(p))[i] == 0; i++)
		;
	ok(i == 4 * MODEL_PAGE_SIZE, "an order-2 __GFP_ZERO allocation: all four pages zeroed");
	__free_pages(p, 2);
	world_drain(w);
	check_final(w);
	ok(1, "the end checks hold");
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

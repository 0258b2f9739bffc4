// SPDX-License-Identifier: MIT
/*
 * The allocation slow path (Linux 6.6 mm/page_alloc.c): __alloc_pages_slowpath,
 * where __alloc_pages goes when the fast path (alloc_pages.c) fails: the alloc
 * flags set up precisely, kswapd woken, direct reclaim and its retries
 * (should_reclaim_retry), the OOM path and the __GFP_NOFAIL fallbacks.
 *
 * Where the slow path stops.  There is no LRU, no compaction (yet) and
 * no OOM killer in the model, so:
 *  - direct reclaim gets back only frees already in flight: it waits for
 *    the RCU callbacks queued (reclaim_throttle below, MM_RECLAIM_RCU_WAIT)
 *    and then, having made progress, drains the pcp lists and retries as
 *    6.6 does; with none queued it reclaims nothing (MM_DIRECT_RECLAIM): no
 *    progress, and so, as in 6.6, no drain and no highatomic unreserve;
 *  - direct compaction would run where the comments say; it is skipped;
 *  - should_reclaim_retry() retries while a zone would pass its min
 *    watermark with what it has (nothing is reclaimable), at most
 *    MAX_RECLAIM_RETRIES times, then gives up a highatomic pageblock before
 *    the OOM path, as 6.6 does;
 *  - __alloc_pages_may_oom() tries the high watermark once more and counts
 *    MM_OOM where out_of_memory() would choose a victim: none is chosen;
 *  - a __GFP_NOFAIL allocation gets the kernel's last tries
 *    (ALLOC_NO_WATERMARKS, then ALLOC_MIN_RESERVE) and then fails, counted
 *    MM_NOFAIL_STOP, where the kernel would loop until memory is freed.
 * So an allocation the kernel would retry after reclaim fails here.
 *
 * Lock order: none taken here; the fast path it retries takes its own, and
 * direct reclaim drains the pcp lists (drain_all_pages) with theirs.
 */
#include "internal.h"
#include "oracle.h"

#include "../kernel/rcupdate.h"

#define MAX_RECLAIM_RETRIES	16

static void warn_alloc(gfp_t gfp_mask, unsigned int order)
{
	(void)order;
	/* the model counts the "page allocation failure" it would print */
	if (!(gfp_mask & __GFP_NOWARN))
		mm_stat_inc(MM_WARN_ALLOC);
}

/* There are no cpusets: one pass is what two would find. */
static inline struct page *__alloc_pages_cpuset_fallback(gfp_t gfp_mask, unsigned int order,
							 unsigned int alloc_flags,
							 const struct alloc_context *ac)
{
	return get_page_from_freelist(gfp_mask, order, (int)(alloc_flags | ALLOC_CPUSET), ac);
}

static struct page *__alloc_pages_may_oom(gfp_t gfp_mask, unsigned int order,
					  const struct alloc_context *ac,
					  unsigned long *did_some_progress)
{
	struct page *page;

	*did_some_progress = 0;
	/*
	 * Go through the zonelist yet one more time, keep very high watermark
	 * here, this is only to catch a parallel oom killing, we must fail if
	 * we're still under heavy pressure.  (No oom_lock: nothing to
	 * serialise without an OOM killer.)
	 */
	page = get_page_from_freelist((gfp_mask | __GFP_HARDWALL) & ~__GFP_DIRECT_RECLAIM, order,
				      ALLOC_WMARK_HIGH | ALLOC_CPUSET, ac);
	if (page)
		return page;
	/* The OOM killer will not help higher order allocs */
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NULL;
	/* The OOM killer may not free memory on a specific node. */
	if (gfp_mask & __GFP_RETRY_MAYFAIL)
		return NULL;
	/* The OOM killer does not needlessly kill tasks for lowmem */
	if (ac->highest_zoneidx < ZONE_NORMAL)
		return NULL;

	/* Exhausted what can be done so it's blame time: out_of_memory()
	 * would choose a victim here; the model has none to choose. */
	mm_stat_inc(MM_OOM);
	if (gfp_mask & __GFP_NOFAIL) {
		*did_some_progress = 1;
		/* Help non-failing allocations by giving them access to
		 * memory reserves */
		page = __alloc_pages_cpuset_fallback(gfp_mask, order, ALLOC_NO_WATERMARKS, ac);
	}
	return page;
}

/*
 * reclaim_throttle(pgdat, VMSCAN_THROTTLE_NOPROGRESS) (6.6 mm/vmscan.c,
 * from consider_reclaim_throttle when shrink_zones freed nothing): the
 * kernel sleeps a jiffy, and what runs meanwhile gives memory back; the
 * frees behind a grace period among it: rcu_do_batch invokes the callbacks
 * (and a CPU with qhimark of them forces quiescent states).  On a machine
 * of gigabytes what waits for a grace period is a rounding error beside
 * the free memory; in the model's small zones it is not (stress
 * page_fault1 with two processes: some 10000 of 18432 pages in page tables
 * and table batches behind liburcu's callback thread, which shares a core
 * with a task).  So the model's throttle waits for exactly the frees a
 * sleep lets through, and no longer: the callbacks queued when it began
 * (rcu_barrier).  It returns how many ran: the kernel's nr_reclaimed
 * counts pages, the model counts callbacks (each of the TLB layer's frees
 * at least its batch page), which only says progress or none.  Direct
 * reclaim may sleep (__GFP_DIRECT_RECLAIM; 6.6's might_alloc), so the
 * wait's own might_sleep check holds the caller to it.
 */
static unsigned long reclaim_throttle(void)
{
	unsigned long pending = rcu_cbs_pending();

	if (!pending)
		return 0;
	mm_stat_inc(MM_RECLAIM_RCU_WAIT);
	rcu_barrier();
	return pending;
}

/*
 * Direct reclaim (try_to_free_pages): the model has no LRU and no
 * shrinkers; what it can get back is memory on its way to the allocator
 * already (reclaim_throttle).
 */
static unsigned long __perform_reclaim(gfp_t gfp_mask, unsigned int order,
				       const struct alloc_context *ac)
{
	unsigned long progress;

	(void)gfp_mask;
	(void)order;
	(void)ac;
	sched_point("cond_resched");
	progress = reclaim_throttle();
	if (!progress)
		mm_stat_inc(MM_DIRECT_RECLAIM);
	return progress;
}

/*
 * The really slow allocator path where we enter direct reclaim.  Only a
 * reclaim that made progress drains the pcp lists and unreserves a
 * highatomic pageblock: in the model, one that waited for RCU callbacks
 * (which freed onto the pcp list of the CPU they ran on).
 */
static struct page *__alloc_pages_direct_reclaim(gfp_t gfp_mask, unsigned int order,
						 unsigned int alloc_flags,
						 const struct alloc_context *ac,
						 unsigned long *did_some_progress)
{
	struct page *page = NULL;
	bool drained = false;

	*did_some_progress = __perform_reclaim(gfp_mask, order, ac);
	if (unlikely(!(*did_some_progress)))
		return NULL;
retry:
	page = get_page_from_freelist(gfp_mask, order, (int)alloc_flags, ac);
	/*
	 * If an allocation failed after direct reclaim, it could be because
	 * pages are pinned on the per-cpu lists or in high alloc reserves.
	 * Shrink them and try again
	 */
	if (!page && !drained) {
		unreserve_highatomic_pageblock(ac, false);
		drain_all_pages(NULL);
		drained = true;
		goto retry;
	}
	return page;
}

static void wake_all_kswapds(unsigned int order, gfp_t gfp_mask,
			     const struct alloc_context *ac)
{
	(void)order;
	(void)gfp_mask;
	(void)ac;
	mm_stat_inc(MM_KSWAPD_WAKE);	/* no kswapd in the model */
}

/*
 * Checks whether it makes sense to retry the reclaim to make a forward
 * progress for the given allocation request.  We give up when we either
 * have tried MAX_RECLAIM_RETRIES in a row without success, or when we
 * couldn't even meet the watermark if we reclaimed all remaining pages on
 * the LRU lists (there are none in the model).
 */
static bool should_reclaim_retry(gfp_t gfp_mask, unsigned int order,
				 const struct alloc_context *ac, unsigned int alloc_flags,
				 bool did_some_progress, int *no_progress_loops)
{
	struct zone *zone;
	struct zoneref *z;
	bool ret = false;

	(void)gfp_mask;
	/* Costly allocations might have made a progress but this doesn't
	 * mean their order will become available due to high fragmentation
	 * so always increment the no progress counter for them */
	if (did_some_progress && order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		(*no_progress_loops)++;

	/* Before OOM, exhaust highatomic_reserve */
	if (*no_progress_loops > MAX_RECLAIM_RETRIES)
		return unreserve_highatomic_pageblock(ac, true);

	for_next_zone_zonelist(zone, z, ac) {
		unsigned long min_wmark = min_wmark_pages(zone);
		/* zone_reclaimable_pages() is 0: no LRU */
		long available = (long)zone_page_state_snapshot(zone, NR_FREE_PAGES);

		HOOK(pagealloc, read_snapshot, zone, available, "should_reclaim_retry");

		/* Would the allocation succeed if we reclaimed all
		 * reclaimable pages? */
		if (__zone_watermark_ok(zone, order, min_wmark, (int)ac->highest_zoneidx,
					alloc_flags, available)) {
			ret = true;
			break;
		}
	}
	sched_point("cond_resched");
	if (ret)
		mm_stat_inc(MM_RECLAIM_RETRY);
	return ret;
}

struct page *__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order,
				    struct alloc_context *ac)
{
	bool can_direct_reclaim = gfp_mask & __GFP_DIRECT_RECLAIM;
	const bool costly_order = order > PAGE_ALLOC_COSTLY_ORDER;
	unsigned long did_some_progress = 0;
	unsigned int alloc_flags, reserve_flags;
	int no_progress_loops = 0;
	struct page *page;

	mm_stat_inc(MM_SLOWPATH);
	/*
	 * The fast path uses conservative alloc_flags to succeed only until
	 * kswapd needs to be woken up, and to avoid the cost of setting up
	 * alloc_flags precisely.  So we do that now.
	 */
	alloc_flags = gfp_to_alloc_flags(gfp_mask, order);
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);

	/* The adjusted alloc_flags might result in immediate success, so try
	 * that first */
	page = get_page_from_freelist(gfp_mask, order, (int)alloc_flags, ac);
	if (page)
		goto got_pg;

	/*
	 * (Costly orders and unmovable high orders would try direct
	 * compaction here before reclaim: no compaction layer yet.)
	 */
retry:
	/* Ensure kswapd doesn't accidentally go to sleep as long as we loop */
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(order, gfp_mask, ac);

	reserve_flags = __gfp_pfmemalloc_flags(gfp_mask);
	if (reserve_flags)
		alloc_flags = gfp_to_alloc_flags_cma(gfp_mask, reserve_flags) |
			      (alloc_flags & ALLOC_KSWAPD);

	/* Attempt with potentially adjusted zonelist and alloc_flags */
	page = get_page_from_freelist(gfp_mask, order, (int)alloc_flags, ac);
	if (page)
		goto got_pg;

	/* Caller is not willing to reclaim, we can't balance anything */
	if (!can_direct_reclaim)
		goto nopage;

	/* Try direct reclaim and then allocating */
	page = __alloc_pages_direct_reclaim(gfp_mask, order, alloc_flags, ac, &did_some_progress);
	if (page)
		goto got_pg;

	/* (Try direct compaction and then allocating: no compaction yet) */

	/* Do not loop if specifically requested */
	if (gfp_mask & __GFP_NORETRY)
		goto nopage;

	/* Do not retry costly high order allocations unless they are
	 * __GFP_RETRY_MAYFAIL */
	if (costly_order && !(gfp_mask & __GFP_RETRY_MAYFAIL))
		goto nopage;

	if (should_reclaim_retry(gfp_mask, order, ac, alloc_flags, did_some_progress > 0,
				 &no_progress_loops))
		goto retry;

	/* (should_compact_retry only after a reclaim that made progress) */

	/* Reclaim has failed us, start killing things */
	page = __alloc_pages_may_oom(gfp_mask, order, ac, &did_some_progress);
	if (page)
		goto got_pg;

	/* Avoid allocations with no watermarks from looping endlessly */
	if (tsk_is_oom_victim(current) &&
	    ((alloc_flags & ALLOC_OOM) || (gfp_mask & __GFP_NOMEMALLOC)))
		goto nopage;

	/* Retry as long as the OOM killer is making progress: without an OOM
	 * killer only __GFP_NOFAIL gets here, and would retry for ever */
	if (did_some_progress) {
		mm_stat_inc(MM_NOFAIL_STOP);
		goto fail;
	}

nopage:
	/* Make sure that __GFP_NOFAIL request doesn't leak out and make sure
	 * we always retry */
	if (gfp_mask & __GFP_NOFAIL) {
		/* All existing users of the __GFP_NOFAIL are blockable (6.6
		 * warns about any other) */
		if (!can_direct_reclaim)
			goto fail;
		/* Help non-failing allocations by giving some access to memory
		 * reserves normally used for high priority non-blocking
		 * allocations but do not use ALLOC_NO_WATERMARKS */
		page = __alloc_pages_cpuset_fallback(gfp_mask, order, ALLOC_MIN_RESERVE, ac);
		if (page)
			goto got_pg;
		/* the kernel: cond_resched(); goto retry; */
		mm_stat_inc(MM_NOFAIL_STOP);
	}
fail:
	warn_alloc(gfp_mask, order);
got_pg:
	return page;
}

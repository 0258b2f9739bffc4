// SPDX-License-Identifier: MIT
/*
 * The allocation entry (Linux 6.6 mm/page_alloc.c): __alloc_pages, its
 * fast path over the zonelist (get_page_from_freelist) with the watermark
 * checks, the lowmem reserves and ALLOC_NOFRAGMENT, the alloc flags a gfp
 * gives (gfp_to_alloc_flags, __gfp_pfmemalloc_flags), and the slow path as
 * far as the model has it.
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
 * Lock order: none taken here; rmqueue takes pcp->lock -> zone->lock.
 * NR_FREE_PAGES, free_area[].nr_free, the free lists' emptiness and
 * nr_reserved_highatomic are read without zone->lock (atomic_long_read,
 * READ_ONCE): the watermark checks are racy by design, and an allocation
 * may take a page a racing one left just below a watermark.
 */
#include "internal.h"
#include "oracle.h"

#include "../kernel/rcupdate.h"

#define MAX_RECLAIM_RETRIES	16

/* ---- the lowmem reserves ---- */

/*
 * results with 256, 32 in the lowmem_reserve sysctl:
 *	1G machine -> (16M dma, 800M-16M normal, 1G-800M high)
 *	NORMAL allocation will leave 784M/256 of ram reserved in the ZONE_DMA
 */
int sysctl_lowmem_reserve_ratio[MAX_NR_ZONES] = {
	[ZONE_DMA32] = 256,
	[ZONE_NORMAL] = 32,
};

/*
 * A lower zone keeps, from allocations that could have used a higher zone,
 * the managed pages of the zones above it divided by its ratio.
 */
void setup_per_zone_lowmem_reserve(void)
{
	struct pglist_data *pgdat;
	int i, j;

	for_each_online_pgdat(pgdat) {
		for (i = 0; i < MAX_NR_ZONES; i++) {
			struct zone *zone = &pgdat->node_zones[i];
			int ratio = sysctl_lowmem_reserve_ratio[i];
			bool clear = !ratio || !zone_managed_pages(zone);
			unsigned long managed_pages = 0;

			for (j = 0; j < MAX_NR_ZONES; j++)
				zone->lowmem_reserve[j] = 0;
			for (j = i + 1; j < MAX_NR_ZONES; j++) {
				struct zone *upper_zone = &pgdat->node_zones[j];

				managed_pages += zone_managed_pages(upper_zone);
				zone->lowmem_reserve[j] =
					clear ? 0 : (long)(managed_pages / (unsigned long)ratio);
			}
		}
	}
}

/* The page allocator's boot state outside the memmap and the free lists. */
void page_alloc_boot_state(struct world *w)
{
	refresh_zone_stat_thresholds();
	setup_per_zone_lowmem_reserve();
	pa_world(w)->oom_victims = 0;
}

/* ---- the OOM killer's mark ---- */

/*
 * There is no OOM killer: a task is a victim only when someone (a test, a
 * future operation) marks it, as out_of_memory() would.
 */
void mark_oom_victim(struct task *tsk)
{
	__atomic_fetch_or(&mm_pa->oom_victims, 1UL << tsk->id, __ATOMIC_RELAXED);
}

bool tsk_is_oom_victim(const struct task *tsk)
{
	return __atomic_load_n(&mm_pa->oom_victims, __ATOMIC_RELAXED) & (1UL << tsk->id);
}

/* ---- watermarks ---- */

static inline long __zone_watermark_unusable_free(struct zone *z, unsigned int order,
						  unsigned int alloc_flags)
{
	long unusable_free = (1L << order) - 1;

	/*
	 * If the caller does not have rights to reserves below the min
	 * watermark then subtract the high-atomic reserves.  This will
	 * over-estimate the size of the atomic reserve but it avoids a search.
	 */
	/* racy (plain in 6.6), but not a yield point: read between the free
	 * pages and the watermark oracle, which must be one step (oracle.h) */
	if (likely(!(alloc_flags & ALLOC_RESERVES)))
		unusable_free += (long)__READ_ONCE(z->nr_reserved_highatomic);
	return unusable_free;
}

/*
 * Return true if free base pages are above 'mark'.  For high-order checks
 * it will return true of the order-0 watermark is reached and there is at
 * least one free page of a suitable size.  Checking now avoids taking the
 * zone lock to check in the allocation paths if no pages are free.
 */
bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
			 int highest_zoneidx, unsigned int alloc_flags, long free_pages)
{
	long min = (long)mark, unusable, read = free_pages;
	int o, mt;

	/* free_pages may go negative - that's OK */
	unusable = __zone_watermark_unusable_free(z, order, alloc_flags);
	free_pages -= unusable;

	if (unlikely(alloc_flags & ALLOC_RESERVES)) {
		/* __GFP_HIGH allows access to 50% of the min reserve as well
		 * as OOM. */
		if (alloc_flags & ALLOC_MIN_RESERVE) {
			min -= min / 2;
			/*
			 * Non-blocking allocations (e.g. GFP_ATOMIC) can access
			 * more reserves than just __GFP_HIGH.  Other
			 * non-blocking allocations requests such as GFP_NOWAIT
			 * or (GFP_KERNEL & ~__GFP_DIRECT_RECLAIM) do not get
			 * access to the min reserve.
			 */
			if (alloc_flags & ALLOC_NON_BLOCK)
				min -= min / 4;
		}
		/* OOM victims can try even harder than the normal reserve
		 * users: they are about to exit and free memory. */
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
	}

	/*
	 * Check watermarks for an order-0 allocation request.  If these are
	 * not met, then a high-order request also cannot go ahead even if a
	 * suitable page happened to be free.
	 */
	/* what the read value is decided on: more than this passes */
	HOOK(pagealloc, read_watermark, z, read, unusable + min + z->lowmem_reserve[highest_zoneidx]);
	HOOK(pagealloc, state_watermark, z, read, order);
	if (free_pages <= min + z->lowmem_reserve[highest_zoneidx])
		return false;

	/* If this is an order-0 request then the watermark is fine */
	if (!order)
		return true;

	/* For a high-order request, check at least one suitable page is free
	 * (without zone->lock: plain racy reads in 6.6, marked here; nr_free's
	 * is the yield point, the lists' are read with it, since the writer
	 * changes both with no yield point between) */
	for (o = (int)order; o <= MAX_ORDER; o++) {
		struct free_area *area = &z->free_area[o];

		if (!data_race(area->nr_free))
			continue;
		for (mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (!__data_race(free_area_empty(area, mt)))
				return true;
		if ((alloc_flags & (ALLOC_HIGHATOMIC | ALLOC_OOM)) &&
		    !__data_race(free_area_empty(area, MIGRATE_HIGHATOMIC)))
			return true;
	}
	return false;
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
				   (long)zone_page_state(z, NR_FREE_PAGES));
}

static inline bool zone_watermark_fast(struct zone *z, unsigned int order, unsigned long mark,
				       int highest_zoneidx, unsigned int alloc_flags)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);

	/* Fast check for order-0 only.  If this fails then the reserves need
	 * to be calculated. */
	if (!order) {
		long usable_free = free_pages;
		long reserved = __zone_watermark_unusable_free(z, 0, alloc_flags);

		/* reserved may over estimate high-atomic reserves. */
		usable_free -= min(usable_free, reserved);
		if (usable_free > (long)mark + z->lowmem_reserve[highest_zoneidx]) {
			HOOK(pagealloc, read_watermark, z, free_pages,
			     min(free_pages, reserved) + (long)mark +
			     z->lowmem_reserve[highest_zoneidx]);
			HOOK(pagealloc, state_watermark, z, free_pages, 0);
			return true;
		}
	}
	/* (no watermark boost: the boosted-min retry of 6.6 never applies) */
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags, free_pages);
}

/*
 * For callers that must not be fooled by the per-CPU drift (kswapd,
 * compaction): below percpu_drift_mark the per-CPU differentials may hide
 * more than the gap between the low and min watermarks, so read the
 * snapshot that folds them in.
 */
bool zone_watermark_ok_safe(struct zone *z, unsigned int order, unsigned long mark,
			    int highest_zoneidx)
{
	long free_pages = (long)zone_page_state(z, NR_FREE_PAGES);
	long plain = free_pages;

	/* a plain read in 6.6; refresh_zone_stat_thresholds (cpu dead) writes
	 * it with other tasks running: relaxed, no yield point */
	if (__READ_ONCE(z->percpu_drift_mark) &&
	    free_pages < (long)__READ_ONCE(z->percpu_drift_mark))
		free_pages = (long)zone_page_state_snapshot(z, NR_FREE_PAGES);
	HOOK(pagealloc, read_watermark_safe, z, plain, free_pages);
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, 0, free_pages);
}

/* ---- alloc flags ---- */

/*
 * The restriction on ZONE_DMA32 as being a suitable zone to use to avoid
 * fragmentation is subtle: it only makes sense to spread allocations to
 * avoid fragmentation between the Normal and DMA32 zones.  On one node the
 * kernel assumes DMA32 is populated if Normal is (x86-64), so a one-zone
 * world's Normal gets ALLOC_NOFRAGMENT too; on several nodes only a Normal
 * with a populated DMA32 below it does.
 */
unsigned int alloc_flags_nofragment(struct zone *zone, gfp_t gfp_mask)
{
	/* __GFP_KSWAPD_RECLAIM is assumed to be the same as ALLOC_KSWAPD to
	 * save a branch. */
	unsigned int alloc_flags = gfp_mask & __GFP_KSWAPD_RECLAIM;

	BUILD_BUG_ON(__GFP_KSWAPD_RECLAIM != ALLOC_KSWAPD);
	if (!zone || zone_idx(zone) != ZONE_NORMAL)
		return alloc_flags;
	/*
	 * If ZONE_DMA32 exists, assume it is the one after ZONE_NORMAL and
	 * the pointer is within zone->zone_pgdat->node_zones[].  Also assume
	 * on UMA that if Normal is populated then so is DMA32.
	 */
	BUILD_BUG_ON(ZONE_NORMAL - ZONE_DMA32 != 1);
	if (nr_online_nodes > 1 && !populated_zone(--zone))
		return alloc_flags;
	return alloc_flags | ALLOC_NOFRAGMENT;
}

/* No CMA in the model: nothing to add. */
static inline unsigned int gfp_to_alloc_flags_cma(gfp_t gfp_mask, unsigned int alloc_flags)
{
	(void)gfp_mask;
	return alloc_flags;
}

static inline bool in_interrupt(void)
{
	return current->irq_ctx;
}

unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN | ALLOC_CPUSET;

	/* __GFP_HIGH is assumed to be the same as ALLOC_MIN_RESERVE and
	 * __GFP_KSWAPD_RECLAIM the same as ALLOC_KSWAPD to save two branches. */
	BUILD_BUG_ON(__GFP_HIGH != ALLOC_MIN_RESERVE);
	BUILD_BUG_ON(__GFP_KSWAPD_RECLAIM != ALLOC_KSWAPD);

	/*
	 * The caller may dip into page reserves a bit more if the caller
	 * cannot run direct reclaim, or if the caller has realtime scheduling
	 * policy or is asking for __GFP_HIGH memory.  GFP_ATOMIC requests will
	 * set both ALLOC_NON_BLOCK and ALLOC_MIN_RESERVE(__GFP_HIGH).
	 */
	alloc_flags |= gfp_mask & (__GFP_HIGH | __GFP_KSWAPD_RECLAIM);

	if (!(gfp_mask & __GFP_DIRECT_RECLAIM)) {
		/* Not worth trying to allocate harder for __GFP_NOMEMALLOC even
		 * if it can't schedule. */
		if (!(gfp_mask & __GFP_NOMEMALLOC)) {
			alloc_flags |= ALLOC_NON_BLOCK;
			/* 6.6; later kernels add "&& ALLOC_MIN_RESERVE": only
			 * __GFP_HIGH ones reserve highatomic pageblocks */
			if (order > 0)
				alloc_flags |= ALLOC_HIGHATOMIC;
		}
		/* Ignore cpuset mems for non-blocking __GFP_HIGH (probably
		 * GFP_ATOMIC) rather than fail. */
		if (alloc_flags & ALLOC_MIN_RESERVE)
			alloc_flags &= ~ALLOC_CPUSET;
	}
	/* (no realtime tasks in the model: no ALLOC_MIN_RESERVE for them) */
	return gfp_to_alloc_flags_cma(gfp_mask, alloc_flags);
}

static bool oom_reserves_allowed(const struct task *tsk)
{
	return tsk_is_oom_victim(tsk);
}

/*
 * Distinguish requests which really need access to full memory reserves
 * from oom victims which can live with a portion of it.  (No task runs
 * with PF_MEMALLOC in the model: there is no reclaim to be inside of.)
 */
unsigned int __gfp_pfmemalloc_flags(gfp_t gfp_mask)
{
	if (unlikely(gfp_mask & __GFP_NOMEMALLOC))
		return 0;
	if (gfp_mask & __GFP_MEMALLOC)
		return ALLOC_NO_WATERMARKS;
	if (!in_interrupt() && oom_reserves_allowed(current))
		return ALLOC_OOM;
	return 0;
}

/* ---- the zonelist walk ---- */

/* Allocate a page from the given zone: the pcp lists for the orders they
 * keep, else the buddy. */
static struct page *rmqueue(struct zone *preferred_zone, struct zone *zone, unsigned int order,
			    gfp_t gfp_flags, unsigned int alloc_flags, int migratetype)
{
	struct page *page;

	/* (6.6 warns about __GFP_NOFAIL above order 1; a program may ask) */
	(void)gfp_flags;
	if (likely(pcp_allowed_order(order))) {
		page = rmqueue_pcplist(preferred_zone, zone, order, migratetype, alloc_flags);
		if (likely(page))
			return page;
	}
	return rmqueue_buddy(preferred_zone, zone, order, alloc_flags, migratetype);
}

DEFINE_HOOKS(pagealloc_ext);

/*
 * CONFIG_DEFERRED_STRUCT_PAGE_INIT: while the deferred_pages static key is
 * on, a zone that fails may grow (the layer above answers false once the
 * key is off, or when it is not in the build).
 */
static inline bool _deferred_grow_zone(struct zone *zone, unsigned int order)
{
	return HOOK_ATTACHED(pagealloc_ext, deferred_grow_zone) &&
	       pagealloc_ext_hooks.deferred_grow_zone(zone, order);
}

/* get_page_from_freelist goes through the zonelist trying to allocate a page. */
static struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order, int alloc_flags,
					   const struct alloc_context *ac)
{
	struct zone *zone;
	struct zoneref *z;
	bool no_fallback;

retry:
	no_fallback = alloc_flags & ALLOC_NOFRAGMENT;
	for_next_zone_zonelist(zone, z, ac) {
		unsigned long mark;
		struct page *page;

		if (no_fallback && nr_online_nodes > 1 && zone != ac->preferred_zoneref->zone) {
			int local_nid;

			/*
			 * If moving to a remote node, retry but allow
			 * fragmenting fallbacks.  Locality is more important
			 * than fragmentation avoidance.
			 */
			local_nid = zone_to_nid(ac->preferred_zoneref->zone);
			if (zone_to_nid(zone) != local_nid) {
				alloc_flags &= ~ALLOC_NOFRAGMENT;
				goto retry;
			}
		}
		mark = wmark_pages(zone, alloc_flags & ALLOC_WMARK_MASK);

		if (!zone_watermark_fast(zone, order, mark, (int)ac->highest_zoneidx,
					 (unsigned int)alloc_flags)) {
			/*
			 * Watermark failed for this zone, but see if we can
			 * grow this zone if it contains deferred pages.
			 */
			if (_deferred_grow_zone(zone, order))
				goto try_this_zone;
			/* Checked here to keep the fast path fast */
			BUILD_BUG_ON(ALLOC_NO_WATERMARKS < NR_WMARK);
			if (alloc_flags & ALLOC_NO_WATERMARKS)
				goto try_this_zone;
			/* (no node reclaim) */
			continue;
		}
try_this_zone:
		page = rmqueue(ac->preferred_zoneref->zone, zone, order, gfp_mask,
			       (unsigned int)alloc_flags, ac->migratetype);
		if (page) {
			prep_new_page(page, order, gfp_mask, (unsigned int)alloc_flags);
			/* If this is a high-order atomic allocation then check
			 * if the pageblock should be reserved for the future */
			if (unlikely(alloc_flags & ALLOC_HIGHATOMIC))
				reserve_highatomic_pageblock(page, zone);
			return page;
		} else {
			/* Try again if zone has deferred pages */
			if (_deferred_grow_zone(zone, order))
				goto try_this_zone;
		}
	}

	/*
	 * It's possible on a UMA machine to get through all zones that are
	 * fragmented.  If avoiding fragmentation, reset and try again.
	 */
	if (no_fallback) {
		alloc_flags &= ~ALLOC_NOFRAGMENT;
		mm_stat_inc(MM_NOFRAGMENT_RETRY);
		goto retry;
	}
	return NULL;
}

/* ---- the slow path ---- */

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

static struct page *__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order,
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

static inline void prepare_alloc_pages(gfp_t gfp_mask, unsigned int order,
				       struct alloc_context *ac)
{
	(void)order;
	ac->highest_zoneidx = gfp_zone(gfp_mask);
	ac->migratetype = gfp_migratetype(gfp_mask);
	ac->zonelist = &NODE_DATA(numa_node_id())->node_zonelists[ZONELIST_FALLBACK];
	/*
	 * The preferred zone is used for statistics but crucially it is
	 * also used as the starting point for the zonelist iterator.
	 */
	ac->preferred_zoneref = first_zones_zonelist(ac->zonelist, ac->highest_zoneidx);
}

/* This is the 'heart' of the zoned buddy allocator. */
static struct page *__alloc_pages(gfp_t gfp, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_LOW;
	struct alloc_context ac;
	struct page *page;

	/* There are several places where we assume that the order value is
	 * sane so bail out early if the request is out of bound. */
	if ((int)order > MAX_ORDER)
		return NULL;
	prepare_alloc_pages(gfp, order, &ac);

	/* Forbid the first pass from falling back to types that fragment
	 * memory until all local zones are considered. */
	alloc_flags |= alloc_flags_nofragment(ac.preferred_zoneref->zone, gfp);

	/* First allocation attempt */
	page = get_page_from_freelist(gfp, order, (int)alloc_flags, &ac);
	if (likely(page))
		return page;
	return __alloc_pages_slowpath(gfp, order, &ac);
}

struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	struct page *page = __alloc_pages(gfp_mask, order);

	if (!page)
		mm_stat_inc(MM_ALLOC_FAIL);
	return page;
}

/* (6.6 also prepares order > 1 folios for the rmap's deferred split list:
 * no rmap in the model) */
struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	return (struct folio *)alloc_pages(gfp | __GFP_COMP, order);
}

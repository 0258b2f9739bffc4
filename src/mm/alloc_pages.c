// SPDX-License-Identifier: MIT
/*
 * The allocation entry (Linux 6.6 mm/page_alloc.c): __alloc_pages, its
 * fast path over the zonelist (get_page_from_freelist) with the watermark
 * checks, the lowmem reserves and ALLOC_NOFRAGMENT, and the alloc flags a gfp
 * gives (gfp_to_alloc_flags, __gfp_pfmemalloc_flags).  The slow path it
 * falls back to, reclaim and the OOM path, is page_alloc_slowpath.c.
 *
 * Lock order: none taken here; rmqueue takes pcp->lock -> zone->lock.
 * NR_FREE_PAGES, free_area[].nr_free, the free lists' emptiness and
 * nr_reserved_highatomic are read without zone->lock (atomic_long_read,
 * READ_ONCE): the watermark checks are racy by design, and an allocation
 * may take a page a racing one left just below a watermark.
 */
#include "internal.h"
#include "oracle.h"

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
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order, int alloc_flags,
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

/* SPDX-License-Identifier: MIT */
/*
 * The model's public interface: what the executor (prog/), the checkers
 * (check/), the stress workloads and the tests call.  Kernel names and
 * signatures where the kernel has them.
 */
#ifndef MMFUZZ_MM_MM_H
#define MMFUZZ_MM_MM_H

#include "gfp.h"
#include "mmzone.h"
#include "page-flags.h"
#include "page_alloc_hooks.h"
#include "page_ref.h"

/* ---- folios (include/linux/mm.h) ---- */

/* The allocation order of a folio: 0 for a single page. */
static inline unsigned int folio_order(const struct folio *folio)
{
	if (!folio_test_large(folio))
		return 0;
	return (unsigned int)(folio->_flags_1 & 0xff);
}

/* The number of pages in a folio. */
static inline long folio_nr_pages(const struct folio *folio)
{
	if (!folio_test_large(folio))
		return 1;
	return folio->_folio_nr_pages;
}

static inline unsigned long folio_pfn(const struct folio *folio)
{
	return page_to_pfn(&folio->page);
}

#define folio_zone(folio)	page_zone(&(folio)->page)

static inline void *folio_address(const struct folio *folio)
{
	return page_address(&folio->page);
}

/* ---- the world (src/world/world.h, layers in their own files) ---- */

/* The keys of the page allocator (mm_init.c); the machine's, ck_cpus, is
 * the world's. */
extern struct config_key ck_zones, ck_max_order, ck_pageblock_order,
	ck_zone_pages, ck_pcp_high, ck_pcp_batch, ck_stat_threshold, ck_variant, ck_drain,
	ck_nodes, ck_pcp_batch_scale_max;

const char *pcp_bulk_variant_name(int v);
int pcp_bulk_variant_lookup(const char *name);

/* ---- the page allocator (page_alloc.c, page_alloc_pcp.c) ---- */

/*
 * alloc_pages: __alloc_pages() on the one node.  NULL when the fast path,
 * then the slow path as far as the model has it, found nothing (see
 * page_alloc_slowpath.c for where the slow path stops).
 */
struct page *alloc_pages(gfp_t gfp_mask, unsigned int order);
/* alloc_pages(gfp | __GFP_COMP): a folio */
struct folio *folio_alloc(gfp_t gfp, unsigned int order);
/*
 * Drop the caller's reference on a block of 2^order pages; the last one
 * frees it.  When another reference remains on a non-compound block, the
 * pages after the first are freed now and the first when its last
 * reference goes (put_page).
 */
void __free_pages(struct page *page, unsigned int order);
void drain_local_pages(struct zone *zone);
void drain_zone_pages(struct zone *zone, struct per_cpu_pages *pcp);
void drain_all_pages(struct zone *zone);
void __drain_all_pages(struct zone *zone, bool force_all_cpus);
void zone_pcp_disable(struct zone *zone);
/* kswapd's pass (vmscan.c): ZONE_RECLAIM_ACTIVE on zones 0..highest_zoneidx meanwhile */
void balance_pgdat(pg_data_t *pgdat, int order, int highest_zoneidx);
void zone_pcp_enable(struct zone *zone);
/* percpu_pagelist_high_fraction-style update of every CPU's high and batch */
void zone_pcp_set_high_batch(struct zone *zone, int high, int batch);
bool zone_pcp_disabled(const struct zone *zone);
/* CPU hotplug (6.6 zone_pcp_update): re-apply high and batch */
void zone_pcp_update(struct zone *zone, int cpu_online);

/* ---- watermarks (alloc_pages.c) ---- */

static inline unsigned long wmark_pages(const struct zone *z, enum zone_watermarks i)
{
	/* no watermark boosting in the model; read without zone->lock, which
	 * __setup_per_zone_wmarks writes them under (deferred init's
	 * page_alloc_init_late): relaxed, not a yield point */
	return __READ_ONCE(z->_watermark[i]);
}
#define min_wmark_pages(z)	wmark_pages((z), WMARK_MIN)
#define low_wmark_pages(z)	wmark_pages((z), WMARK_LOW)
#define high_wmark_pages(z)	wmark_pages((z), WMARK_HIGH)

/*
 * Free pages above @mark (the min reserve cut by @alloc_flags' rights, the
 * lowmem reserve of @highest_zoneidx added), and for order > 0 a free
 * block of the order.  Racy, as the kernel's: NR_FREE_PAGES and nr_free
 * are read without zone->lock.
 */
bool __zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
			 int highest_zoneidx, unsigned int alloc_flags, long free_pages);
bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags);
/* The same, with the per-CPU drift folded in below percpu_drift_mark. */
bool zone_watermark_ok_safe(struct zone *z, unsigned int order, unsigned long mark,
			    int highest_zoneidx);
/* lowmem_reserve_ratio, as the sysctl sets it, and the reserves it gives */
extern int sysctl_lowmem_reserve_ratio[MAX_NR_ZONES];
void setup_per_zone_lowmem_reserve(void);

/* ---- the OOM killer's mark (there is no OOM killer in the model) ---- */

/* A task the OOM killer chose may dig deeper into the reserves (ALLOC_OOM). */
void mark_oom_victim(struct task *tsk);
bool tsk_is_oom_victim(const struct task *tsk);

/* ---- vmstat (vmstat.c) ---- */

unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item);
unsigned long zone_page_state_snapshot(struct zone *zone, enum zone_stat_item item);
unsigned long global_zone_page_state(enum zone_stat_item item);
int refresh_cpu_vm_stats(bool do_pagesets);
/* Every CPU's count of @item (PGALLOC: of every PGALLOC_* zone item). */
unsigned long sum_vm_event(enum vm_event_item item);
void refresh_zone_stat_thresholds(void);
extern const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS];

/* counters the stress mode prints (enum with a comment per line) */
enum mm_stat_item {
	MM_PCP_REFILL,		/* rmqueue_bulk calls refilling a pcp list */
	MM_PCP_BULK_FREE,	/* free_pcppages_bulk calls */
	MM_PCP_DRAIN,		/* drain_pages_zone calls that found pages */
	MM_PCP_ALLOC_FALLBACK,	/* allocations that fell back to the buddy (trylock failed) */
	MM_PCP_FREE_FALLBACK,	/* frees that went to the buddy (trylock failed) */
	MM_BUDDY_SPLIT,		/* expand() halvings */
	MM_BUDDY_MERGE,		/* __free_one_page merges */
	MM_FALLBACK_STEAL,	/* __rmqueue_fallback calls that found a block */
	MM_ALLOC_FAIL,		/* alloc_pages returning NULL */
	MM_NOFRAGMENT_RETRY,	/* get_page_from_freelist passes again without ALLOC_NOFRAGMENT */
	MM_SLOWPATH,		/* __alloc_pages_slowpath calls */
	MM_KSWAPD_WAKE,		/* wake_all_kswapds calls (no kswapd runs) */
	MM_DIRECT_RECLAIM,	/* direct reclaims with nothing to reclaim: no progress */
	MM_RECLAIM_RETRY,	/* should_reclaim_retry said try again */
	MM_OOM,			/* slow paths that got where the OOM killer would run (none) */
	MM_NOFAIL_STOP,		/* __GFP_NOFAIL failures: the kernel would retry for ever */
	MM_WARN_ALLOC,		/* failures warn_alloc would report (no __GFP_NOWARN) */
	MM_HIGHATOMIC_RESERVE,	/* pageblocks reserve_highatomic_pageblock made HIGHATOMIC */
	MM_HIGHATOMIC_UNRESERVE,	/* free blocks unreserve_highatomic_pageblock moved back */
	MM_RECLAIM_RCU_WAIT,	/* direct reclaims that waited for queued RCU callbacks */
	NR_MM_STAT_ITEMS
};
extern const char *const mm_stat_names[NR_MM_STAT_ITEMS];
/* Per-CPU, updated with preemption off; summed by mm_stat_sum(). */
void mm_stat_inc(enum mm_stat_item item);
unsigned long mm_stat_sum(enum mm_stat_item item);
void mm_stat_reset(void);

#endif /* MMFUZZ_MM_MM_H */

/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's hooks (kernel/hooks.h says the form): where the
 * model lets the harness look.  mm.h includes this; the checkers fill the
 * members at attach (src/check/pagealloc_read.c: the racy reads and
 * I-PCP-2; src/check/shadow.c: page_moved).
 */
#ifndef MMFUZZ_MM_PAGE_ALLOC_HOOKS_H
#define MMFUZZ_MM_PAGE_ALLOC_HOOKS_H

#include <stdbool.h>

#include "../kernel/hooks.h"

struct page;
struct zone;
struct per_cpu_pages;

struct pagealloc_hooks {
	/*
	 * Racy reads the kernel decides on (oracle.h says the rule: the hook
	 * follows the read with no yield point between).
	 * read_watermark: __zone_watermark_ok's free pages @read of @zone;
	 *   the order-0 check passes on more than @needed;
	 * read_vmstat: NR_FREE_PAGES as /proc/vmstat shows it;
	 * read_drain_pcp: drain_pages_zone's pcp->count before the lock;
	 * read_drain_all_pcp: __drain_all_pages' pcp->count emptiness check;
	 * read_pcp_high_batch: nr_pcp_high's pcp->batch under
	 *   ZONE_RECLAIM_ACTIVE (@zidx the zone's index for the last three);
	 * read_watermark_safe: zone_watermark_ok_safe read @plain with
	 *   zone_page_state() and decides on @used (the snapshot below
	 *   percpu_drift_mark);
	 * read_snapshot: a zone_page_state_snapshot() of NR_FREE_PAGES a
	 *   decision rests on (should_reclaim_retry's available estimate).
	 */
	void (*read_watermark)(const struct zone *zone, long read, long needed);
	void (*read_vmstat)(const struct zone *zone, long read);
	void (*read_drain_pcp)(const struct per_cpu_pages *pcp, long read, int zidx);
	void (*read_drain_all_pcp)(const struct per_cpu_pages *pcp, long read, int zidx);
	void (*read_pcp_high_batch)(const struct per_cpu_pages *pcp, long read, int zidx);
	void (*read_watermark_safe)(const struct zone *zone, long plain, long used);
	void (*read_snapshot)(const struct zone *zone, long read, const char *site);

	/*
	 * zone_pcp_disable() of the task running begins (before it takes
	 * pcp_batch_high_lock) and returns (everything drained, the lock
	 * held); zone_pcp_enable() returned (the lock given back).
	 */
	void (*pcp_disable_begin)(const struct zone *zone);
	void (*pcp_disable_done)(const struct zone *zone);
	void (*pcp_enable_done)(const struct zone *zone);

	/*
	 * A block a user holds has moved: migration copied it to @to and
	 * will free @from.  Whoever tracks the users' blocks follows it;
	 * every migration path calls this.
	 */
	void (*page_moved)(struct page *from, struct page *to);

	/*
	 * __free_pages_core's 2^@order pages at @page reached the free lists
	 * (zone->lock held): memblock's or deferred init's pages are the
	 * buddy allocator's from here on.
	 */
	void (*core_freed)(const struct page *page, unsigned int order);

	/*
	 * A page-flag accessor, page_zone, compound_head, PageTail or
	 * PageBuddy called at @site (the caller's __func__) found @page
	 * uninitialised: page_init_poison's pattern in its flags word
	 * (mmdebug.h's PF_POISONED_CHECK).  The hook reports and does not
	 * return; if it returns, the model's VM_BUG_ON_PGFLAGS does.
	 */
	void (*page_poisoned)(const struct page *page, const char *site);

	/*
	 * State as coverage (src/check/state.c buckets what these see into
	 * features for the fuzzer; attached by the fuzz builds only).
	 * state_watermark: a watermark check of @order read @free_pages of
	 *   @zone (free pages against each watermark, who holds zone->lock);
	 * state_pcp: a free to @pcp made its count what it is against @high
	 *   (@refill: a refill from the buddy instead, against batch);
	 * state_highatomic: @zone's nr_reserved_highatomic changed;
	 * state_read: a racy read of @pcp (drain_pages_zone: @site 0,
	 *   __drain_all_pages: 1; who holds pcp->lock, a refill in flight).
	 */
	void (*state_watermark)(const struct zone *zone, long free_pages, unsigned int order);
	void (*state_pcp)(const struct per_cpu_pages *pcp, int high, bool refill);
	void (*state_highatomic)(const struct zone *zone);
	void (*state_read)(const struct per_cpu_pages *pcp, int site);
};
DECLARE_HOOKS(pagealloc);

/*
 * The page allocator's calls up into a layer of the model above it, in the
 * hooks' form so that it does not know the layer by name.  Unlike the
 * hooks above these are the model's own code: they change state, take
 * locks and yield.  The layer fills them once, at start (a constructor);
 * NULL when the build has no such layer.
 * deferred_grow_zone: get_page_from_freelist's
 *   deferred_pages_enabled() && _deferred_grow_zone(zone, order) (6.6
 *   page_alloc.c 3134-3137, 3188-3191): true, try the zone again.
 */
struct pagealloc_ext_hooks {
	bool (*deferred_grow_zone)(struct zone *zone, unsigned int order);
};
DECLARE_HOOKS(pagealloc_ext);

#endif /* MMFUZZ_MM_PAGE_ALLOC_HOOKS_H */

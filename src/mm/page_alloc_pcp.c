// SPDX-License-Identifier: MIT
/*
 * Per-CPU page lists (Linux 6.6 mm/page_alloc.c): pcp->lock taken by trylock
 * with a fallback to the buddy allocator, refill with rmqueue_bulk, free
 * with free_pcppages_bulk (three historical variants), local and remote
 * drains, zone_pcp_disable/enable and high/batch updates.
 *
 * Lock order: pcp_batch_high_lock -> pcpu_drain_mutex -> pcp->lock -> zone->lock.
 * pcp->lock protects pcp->lists and pcp->count; pcp->count is also read
 * without it (drain_all_pages' racy emptiness check, plain in 6.6, marked
 * data_race() here: a yield point), so it is written with __WRITE_ONCE
 * (relaxed for TSan; no yield point: the writer holds the lock).
 * pcp->high and pcp->batch are changed under pcp_batch_high_lock with
 * WRITE_ONCE and read with READ_ONCE under pcp->lock or none: every one of
 * those accesses is a yield point, so a reader can see them torn.
 */
#include "internal.h"
#include "oracle.h"

#include <string.h>

#include "../kernel/cpu.h"

/*
 * Locking a pcp is a lookup followed by a spinlock: pin the task to its CPU
 * (preempt_disable) for both, so a migration cannot make it lock the wrong
 * pcp.  spin_trylock may fail due to a parallel drain or IRQ reentrancy.
 */
#define pcp_spin_trylock(ptr) ({						\
	struct per_cpu_pages *__pcp;						\
	preempt_disable();							\
	__pcp = this_cpu_ptr(ptr);						\
	if (!spin_trylock(&__pcp->lock)) {					\
		preempt_enable();						\
		__pcp = NULL;							\
	}									\
	__pcp; })

#define pcp_spin_lock(ptr) ({							\
	struct per_cpu_pages *__pcp;						\
	preempt_disable();							\
	__pcp = this_cpu_ptr(ptr);						\
	spin_lock(&__pcp->lock);						\
	__pcp; })

#define pcp_spin_unlock(pcp) do {						\
	spin_unlock(&pcp->lock);						\
	preempt_enable();							\
} while (0)

/* pcp->count += delta, under pcp->lock */
static inline void pcp_count_add(struct per_cpu_pages *pcp, int delta)
{
	__WRITE_ONCE(pcp->count, pcp->count + delta);
}

void per_cpu_pages_init(struct per_cpu_pages *pcp, struct per_cpu_zonestat *pzstats, int cpu,
			int high, int batch)
{
	int pindex;

	memset(pcp, 0, sizeof(*pcp));
	memset(pzstats, 0, sizeof(*pzstats));
	spin_lock_init_named(&pcp->lock, "pcp->lock", cpu);
	for (pindex = 0; pindex < NR_PCP_LISTS; pindex++)
		INIT_LIST_HEAD(&pcp->lists[pindex]);
	pcp->high = high;
	pcp->batch = batch;
	pcp->free_factor = 0;
}

/* ---- free_pcppages_bulk and its history ---- */

/* 6.6: one pass under zone->lock, round-robin over the lists from pindex. */
static void free_pcppages_bulk_single_pass(struct zone *zone, int count,
					   struct per_cpu_pages *pcp, int pindex)
{
	unsigned long flags;
	struct page *page;
	/* free_count_before_list: the batch accounted at once, before its
	 * blocks are listed (2.6.35's order, 72853e2 put it after) */
	fpi_t fpi = bug_on(BUG_FREE_COUNT_BEFORE_LIST) ? FPI_BATCH_ACCOUNTED : FPI_NONE;

	/* Ensure requested pindex is drained first. */
	pindex = pindex - 1;
	spin_lock_irqsave(&zone->lock, flags);
	if (fpi & FPI_BATCH_ACCOUNTED)
		__mod_zone_page_state(zone, NR_FREE_PAGES, count);
	while (count > 0) {
		struct list_head *list;
		int nr_pages, order;

		/* Remove pages from lists in a round-robin fashion. */
		do {
			if (++pindex > NR_PCP_LISTS - 1)
				pindex = 0;
			list = &pcp->lists[pindex];
			loop_point("find_list");
		} while (list_empty(list));

		order = pindex_to_order((unsigned int)pindex);
		nr_pages = 1 << order;
		do {
			int mt;

			page = list_last_entry(list, struct page, pcp_list);
			mt = get_pcppage_migratetype(page);
			/* must delete to avoid corrupting pcp list */
			list_del(&page->pcp_list);
			/* ... and a last block larger than what is left of it
			 * (the high-order pcp lists) topped up before it goes */
			if ((fpi & FPI_BATCH_ACCOUNTED) && nr_pages > count)
				__mod_zone_page_state(zone, NR_FREE_PAGES, nr_pages - count);
			count -= nr_pages;
			pcp_count_add(pcp, -nr_pages);
			VM_BUG_ON_PAGE(is_migrate_isolate(mt), page);
			__free_one_page(page, page_to_pfn(page), zone, (unsigned int)order, mt, fpi);
			sched_point("page");
		} while (count > 0 && !list_empty(list));
	}
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * The round-robin pick of 4.16: batch_free grows with every empty list met,
 * so fuller lists give up more pages.  Returns the list to take from next.
 */
static struct list_head *pick_list_rr(struct per_cpu_pages *pcp, int *pindex, int *batch_free,
				      int count)
{
	struct list_head *list;

	do {
		(*batch_free)++;
		if (++*pindex > NR_PCP_LISTS - 1)
			*pindex = 0;
		list = &pcp->lists[*pindex];
		loop_point("find_list");
	} while (list_empty(list));
	/* This is the only non-empty list. Free them all. */
	if (*batch_free == NR_PCP_LISTS)
		*batch_free = count;
	return list;
}

/* 4.16: the same round-robin, picking and freeing under zone->lock. */
static void free_pcppages_bulk_locked_rr(struct zone *zone, int count,
					 struct per_cpu_pages *pcp, int pindex)
{
	unsigned long flags;
	int batch_free = 0;

	pindex = pindex - 1;
	spin_lock_irqsave(&zone->lock, flags);
	while (count > 0) {
		struct list_head *list = pick_list_rr(pcp, &pindex, &batch_free, count);
		int order = pindex_to_order((unsigned int)pindex), nr_pages = 1 << order;

		do {
			struct page *page = list_last_entry(list, struct page, pcp_list);
			int mt = get_pcppage_migratetype(page);

			list_del(&page->pcp_list);
			count -= nr_pages;
			pcp_count_add(pcp, -nr_pages);
			__free_one_page(page, page_to_pfn(page), zone, (unsigned int)order, mt,
					FPI_NONE);
			sched_point("page");
		} while (count > 0 && --batch_free && !list_empty(list));
	}
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * 4.17 (0a5f4e5b4562, seed 000): pick the pages onto a local list first,
 * outside zone->lock, then free them under it.  The pcp is protected by the
 * caller's pcp->lock; with pcp_pick_unlocked the pick runs with only IRQs
 * off, as if the lists were still this CPU's alone.
 */
static void free_pcppages_bulk_pick_outside(struct zone *zone, int count,
					    struct per_cpu_pages *pcp, int pindex)
{
	struct list_head head = LIST_HEAD_INIT(head);
	bool unlocked = bug_on(BUG_PCP_PICK_UNLOCKED);
	unsigned long flags, irqflags = 0;
	int batch_free = 0;
	struct page *page, *tmp;

	pindex = pindex - 1;
	if (unlocked) {
		local_irq_save(irqflags);
		spin_unlock(&pcp->lock);
	}
	while (count > 0) {
		struct list_head *list = pick_list_rr(pcp, &pindex, &batch_free, count);
		int order = pindex_to_order((unsigned int)pindex), nr_pages = 1 << order;

		do {
			page = list_last_entry(list, struct page, pcp_list);
			sched_point("pick");
			/* must delete to avoid corrupting pcp list */
			list_del(&page->pcp_list);
			count -= nr_pages;
			pcp_count_add(pcp, -nr_pages);
			page->private = (unsigned long)order;	/* for the free pass */
			list_add_tail(&page->pcp_list, &head);
		} while (count > 0 && --batch_free && !list_empty(list));
	}
	if (unlocked) {
		spin_lock(&pcp->lock);
		local_irq_restore(irqflags);
	}

	spin_lock_irqsave(&zone->lock, flags);
	/* after __free_one_page the entry's links point elsewhere: _safe */
	list_for_each_entry_safe(page, tmp, &head, pcp_list) {
		int mt = get_pcppage_migratetype(page);
		unsigned int order = (unsigned int)page->private;

		page->private = 0;
		__free_one_page(page, page_to_pfn(page), zone, order, mt, FPI_NONE);
		sched_point("page");
	}
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * Frees @count pages from the pcp lists, starting with list @pindex.
 * Caller holds pcp->lock.
 */
static void free_pcppages_bulk(struct zone *zone, int count, struct per_cpu_pages *pcp,
			       int pindex)
{
	lockdep_assert_held(&pcp->lock);
	mm_stat_inc(MM_PCP_BULK_FREE);
	/* Ensure proper count is passed which otherwise would stuck in the
	 * while (list_empty(list)) loop. */
	count = min(pcp->count, count);
	if (count <= 0)
		return;
	if (bug_on(BUG_PCP_PICK_UNLOCKED) || mm_pa->cfg.variant == PCP_BULK_PICK_OUTSIDE)
		free_pcppages_bulk_pick_outside(zone, count, pcp, pindex);
	else if (mm_pa->cfg.variant == PCP_BULK_LOCKED_RR)
		free_pcppages_bulk_locked_rr(zone, count, pcp, pindex);
	else
		free_pcppages_bulk_single_pass(zone, count, pcp, pindex);
}

/* ---- drains ---- */

/*
 * Drain pcplists of the indicated processor and zone.  6.6 looks at the
 * count before taking the lock, and a refill that has taken its pages from
 * the buddy but not yet counted them is skipped (zone_pcp_disable can then
 * leave pages behind).  6.6.45 (drain: locked_count; 66eca1021a42 with
 * 52166607ecc9's batching) reads the count under the lock and frees at
 * most batch << CONFIG_PCP_BATCH_SCALE_MAX pages per hold, dropping and
 * retaking pcp->lock between batches.
 */
static void drain_pages_zone(unsigned int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
	int count;

	if (mm_pa->cfg.drain == DRAIN_LOCKED_COUNT) {
		do {
			spin_lock(&pcp->lock);
			count = pcp->count;
			if (count) {
				/* pcp->batch: WRITE_ONCE'd under pcp_batch_high_lock;
				 * one read, the model's min() evaluates twice */
				int batch = READ_ONCE(pcp->batch);
				int to_drain = min(count,
					batch << CONFIG_PCP_BATCH_SCALE_MAX);

				mm_stat_inc(MM_PCP_DRAIN);
				free_pcppages_bulk(zone, to_drain, pcp, 0);
				count -= to_drain;
			}
			spin_unlock(&pcp->lock);
		} while (count);
		return;
	}
	count = data_race(pcp->count);
	HOOK(pagealloc, read_drain_pcp, pcp, count, zone->idx);
	HOOK(pagealloc, state_read, pcp, 0);
	if (count) {
		spin_lock(&pcp->lock);
		mm_stat_inc(MM_PCP_DRAIN);
		free_pcppages_bulk(zone, pcp->count, pcp, 0);
		spin_unlock(&pcp->lock);
	}
}

static void drain_pages(unsigned int cpu)
{
	struct zone *zone;

	for_each_populated_zone(zone)
		drain_pages_zone(cpu, zone);
}

/*
 * Called from the vmstat counter updater to drain pagesets of this
 * currently executing processor (6.6, CONFIG_NUMA): up to a batch, the
 * count read before the lock and clamped again under it.
 */
void drain_zone_pages(struct zone *zone, struct per_cpu_pages *pcp)
{
	int to_drain, batch, count;

	batch = READ_ONCE(pcp->batch);
	/* one read: the model's min() evaluates its arguments twice, the
	 * kernel's once, and each READ_ONCE is a yield point */
	count = READ_ONCE(pcp->count);
	to_drain = min(count, batch);
	if (to_drain > 0) {
		spin_lock(&pcp->lock);
		free_pcppages_bulk(zone, to_drain, pcp, 0);
		spin_unlock(&pcp->lock);
	}
}

/* Spill all of this CPU's per-cpu pages back into the buddy allocator.
 * Caller has preemption off. */
void drain_local_pages(struct zone *zone)
{
	int cpu = smp_processor_id();

	if (zone)
		drain_pages_zone((unsigned int)cpu, zone);
	else
		drain_pages((unsigned int)cpu);
}

/*
 * drain_all_pages() only drains CPUs whose pcplists look non-empty.  "The
 * check for non-emptiness can however race with a free to pcplist that has
 * not yet increased the pcp->count from 0 to 1. Callers that need the
 * guarantee that every CPU has drained can disable the optimizing racy
 * check."
 */
void __drain_all_pages(struct zone *zone, bool force_all_cpus)
{
	unsigned long cpus_with_pcps = 0;
	int cpu;

	/* Do not drain if one is already in progress unless it's specific to
	 * a zone. */
	if (unlikely(!mutex_trylock_site(&pa_world(mm_world)->pcpu_drain_mutex,
					       "&mm_world->pcpu_drain_mutex"))) {
		if (!zone)
			return;
		mutex_lock_site(&pa_world(mm_world)->pcpu_drain_mutex, "&mm_world->pcpu_drain_mutex");
	}
	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++) {
		bool has_pcps = false;

		if (force_all_cpus) {
			has_pcps = true;
		} else if (zone) {
			struct per_cpu_pages *pcp = per_cpu_ptr(zone->per_cpu_pageset, cpu);
			int count = data_race(pcp->count);

			HOOK(pagealloc, read_drain_all_pcp, pcp, count, zone->idx);
			HOOK(pagealloc, state_read, pcp, 1);
			has_pcps = count != 0;
		} else {
			struct zone *z;

			for_each_populated_zone(z) {
				struct per_cpu_pages *pcp = per_cpu_ptr(z->per_cpu_pageset, cpu);
				int count = data_race(pcp->count);

				HOOK(pagealloc, read_drain_all_pcp, pcp, count, z->idx);
				HOOK(pagealloc, state_read, pcp, 1);
				if ((has_pcps = count != 0))
					break;
			}
		}
		if (has_pcps)
			cpus_with_pcps |= 1UL << cpu;
	}
	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++) {
		if (!(cpus_with_pcps & (1UL << cpu)))
			continue;
		if (zone)
			drain_pages_zone((unsigned int)cpu, zone);
		else
			drain_pages((unsigned int)cpu);
	}
	mutex_unlock_site(&pa_world(mm_world)->pcpu_drain_mutex, "&mm_world->pcpu_drain_mutex");
}

void drain_all_pages(struct zone *zone)
{
	__drain_all_pages(zone, false);
}

/* ---- allocation ---- */

/* Remove page from the per-cpu list, caller must protect the list */
static struct page *__rmqueue_pcplist(struct zone *zone, unsigned int order, int migratetype,
				      unsigned int alloc_flags, struct per_cpu_pages *pcp,
				      struct list_head *list)
{
	struct page *page;

	lockdep_assert_held(&pcp->lock);
	if (list_empty(list)) {
		int batch = READ_ONCE(pcp->batch), alloced;

		/* Scale batch relative to order if batch implies free pages
		 * can be stored on the PCP. */
		if (batch > 1)
			batch = max(batch >> order, 2);
		__WRITE_ONCE(pcp->refilling, batch);
		HOOK(pagealloc, state_pcp, pcp, batch, true);
		alloced = rmqueue_bulk(zone, order, (unsigned long)batch, list, migratetype,
				       alloc_flags);
		mm_stat_inc(MM_PCP_REFILL);
		pcp_count_add(pcp, (bug_on(BUG_REFILL_COUNTS_BATCH) ? batch : alloced) << order);
		__WRITE_ONCE(pcp->refilling, 0);
		if (unlikely(list_empty(list)))
			return NULL;
	}
	page = list_first_entry(list, struct page, pcp_list);
	list_del(&page->pcp_list);
	pcp_count_add(pcp, -(1 << order));
	return page;
}

/* Lock and remove page from the per-cpu list */
struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone, unsigned int order,
			     int migratetype, unsigned int alloc_flags)
{
	struct per_cpu_pages *pcp;
	struct list_head *list;
	struct page *page;

	(void)preferred_zone;
	pcp = pcp_spin_trylock(zone->per_cpu_pageset);
	if (!pcp) {
		mm_stat_inc(MM_PCP_ALLOC_FALLBACK);
		return NULL;
	}
	/* On allocation, reduce the number of pages that are batch freed. */
	pcp->free_factor >>= 1;
	list = &pcp->lists[order_to_pindex(migratetype, (int)order)];
	page = __rmqueue_pcplist(zone, order, migratetype, alloc_flags, pcp, list);
	pcp_spin_unlock(pcp);
	if (page)
		__count_zid_vm_events(PGALLOC, page_zonenum(page), 1 << order);
	return page;
}

/* ---- free ---- */

static int nr_pcp_free(struct per_cpu_pages *pcp, int high, bool free_high)
{
	int min_nr_free, max_nr_free, batch = READ_ONCE(pcp->batch);

	/* Free everything if batch freeing high-order pages. */
	if (unlikely(free_high))
		return pcp->count;
	/* Check for PCP disabled or boot pageset */
	if (unlikely(high < batch) && !bug_on(BUG_PCP_FREE_BOOT_PAGESET))
		return 1;
	/* Leave at least pcp->batch pages on the list */
	min_nr_free = batch;
	max_nr_free = high - batch;
	/* Double the pages freed each time there is subsequent freeing of
	 * pages without any allocation. */
	batch <<= pcp->free_factor;
	if (batch < max_nr_free)
		pcp->free_factor++;
	return clamp(batch, min_nr_free, max_nr_free);
}


static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone, bool free_high)
{
	int high = READ_ONCE(pcp->high), batch;

	if (unlikely(!high || free_high))
		return 0;

	if (!test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags))
		return high;

	/*
	 * If reclaim is active, limit the number of pages that can be
	 * stored on pcp lists (one read of batch: the model's min()
	 * evaluates twice)
	 */
	batch = READ_ONCE(pcp->batch);
	HOOK(pagealloc, read_pcp_high_batch, pcp, batch, zone->idx);
	return min(batch << 2, high);
}

/* Caller holds pcp->lock. */
static void free_unref_page_commit(struct zone *zone, struct per_cpu_pages *pcp,
				   struct page *page, int migratetype, unsigned int order)
{
	int high, pindex;
	bool free_high;

	lockdep_assert_held(&pcp->lock);
	__count_vm_events(PGFREE, 1 << order);
	pindex = (int)order_to_pindex(migratetype, (int)order);
	list_add(&page->pcp_list, &pcp->lists[pindex]);
	pcp_count_add(pcp, 1 << order);
	/* High-order pages on the PCP fragment memory: limit them when the
	 * PCP frees heavily without allocating. */
	free_high = pcp->free_factor && order && order <= PAGE_ALLOC_COSTLY_ORDER;
	high = nr_pcp_high(pcp, zone, free_high);
	HOOK(pagealloc, state_pcp, pcp, high, false);
	if (pcp->count >= high)
		free_pcppages_bulk(zone, nr_pcp_free(pcp, high, free_high), pcp, pindex);
}

/*
 * pcp_free_nolock: the pre-6.0 belief that preemption off makes this CPU's
 * pcp private.  A remote drain under pcp->lock says otherwise.  A free that
 * reaches high still takes the lock for its bulk free: the bug is only the
 * window between the list_add and the count.
 */
static bool free_unref_page_nolock(struct zone *zone, struct page *page, int migratetype,
				   unsigned int order)
{
	struct per_cpu_pages *pcp;

	preempt_disable();
	pcp = this_cpu_ptr(zone->per_cpu_pageset);
	if (READ_ONCE(pcp->count) + (1 << order) >= nr_pcp_high(pcp, zone, false)) {
		preempt_enable();
		return false;
	}
	__count_vm_events(PGFREE, 1 << order);
	list_add(&page->pcp_list, &pcp->lists[order_to_pindex(migratetype, (int)order)]);
	sched_point("pcp_add");
	pcp_count_add(pcp, 1 << order);
	preempt_enable();
	return true;
}

static bool free_unref_page_prepare(struct page *page, unsigned long pfn, unsigned int order)
{
	if (!free_pages_prepare(page, order))
		return false;
	set_pcppage_migratetype(page, get_pfnblock_migratetype(page, pfn));
	return true;
}

/* Free a pcp page */
void free_unref_page(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	struct per_cpu_pages *pcp;
	struct zone *zone;
	int migratetype, pcpmigratetype;

	if (!free_unref_page_prepare(page, pfn, order))
		return;
	/* HIGHATOMIC and CMA go on the movable list; ISOLATE bypasses the pcp */
	migratetype = pcpmigratetype = get_pcppage_migratetype(page);
	if (unlikely(migratetype >= MIGRATE_PCPTYPES)) {
		if (unlikely(is_migrate_isolate(migratetype))) {
			free_one_page(page_zone(page), page, pfn, order, migratetype, FPI_NONE);
			return;
		}
		pcpmigratetype = MIGRATE_MOVABLE;
	}
	zone = page_zone(page);
	if (bug_on(BUG_PCP_FREE_NOLOCK) &&
	    free_unref_page_nolock(zone, page, pcpmigratetype, order))
		return;
	if (bug_on(BUG_PCP_LOCK_IRQ))
		pcp = pcp_spin_lock(zone->per_cpu_pageset);
	else
		pcp = pcp_spin_trylock(zone->per_cpu_pageset);
	if (pcp) {
		/* the count follows its list outside the lock (a free that
		 * reaches high bulk-frees as usual) */
		if (bug_on(BUG_PCP_COUNT_APART) &&
		    pcp->count + (1 << order) < nr_pcp_high(pcp, zone, false)) {
			__count_vm_events(PGFREE, 1 << order);
			list_add(&page->pcp_list,
				 &pcp->lists[order_to_pindex(pcpmigratetype, (int)order)]);
			pcp_spin_unlock(pcp);
			pcp_count_add(pcp, 1 << order);
			return;
		}
		free_unref_page_commit(zone, pcp, page, pcpmigratetype, order);
		pcp_spin_unlock(pcp);
	} else {
		mm_stat_inc(MM_PCP_FREE_FALLBACK);
		if (bug_on(BUG_FREE_ONE_PAGE_NOLOCK))
			__free_one_page(page, pfn, zone, order, migratetype, FPI_NONE);
		else
			free_one_page(zone, page, pfn, order, migratetype, FPI_NONE);
	}
}

/*
 * Free a list of 0-order pages (6.6: release_pages' batch, so the TLB
 * gather's free).  One pcp->lock hold covers the pages of one zone, at most
 * SWAP_CLUSTER_MAX of them; a different zone, or the count reached, drops
 * the lock and takes the next zone's (locked_zone).  No bug switch here: the
 * pcp variants are free_unref_page's.
 */
void free_unref_page_list(struct list_head *list)
{
	struct page *page, *next;
	struct per_cpu_pages *pcp = NULL;
	struct zone *locked_zone = NULL;
	int batch_count = 0;
	int migratetype;

	/* Prepare pages for freeing */
	list_for_each_entry_safe(page, next, list, lru) {
		unsigned long pfn = page_to_pfn(page);

		if (!free_unref_page_prepare(page, pfn, 0)) {
			list_del(&page->lru);
			continue;
		}
		/* Free isolated pages directly to the allocator, see comment
		 * in free_unref_page. */
		migratetype = get_pcppage_migratetype(page);
		if (unlikely(is_migrate_isolate(migratetype))) {
			list_del(&page->lru);
			free_one_page(page_zone(page), page, pfn, 0, migratetype, FPI_NONE);
			continue;
		}
	}

	list_for_each_entry_safe(page, next, list, lru) {
		struct zone *zone = page_zone(page);

		list_del(&page->lru);
		migratetype = get_pcppage_migratetype(page);

		/*
		 * Either different zone requiring a different pcp lock or
		 * excessive lock hold times when freeing a large list of
		 * pages.
		 */
		if (zone != locked_zone || batch_count == (int)SWAP_CLUSTER_MAX) {
			if (pcp)
				pcp_spin_unlock(pcp);
			batch_count = 0;
			/* trylock is necessary as pages may be getting freed
			 * from IRQ or SoftIRQ context after an IO completion. */
			pcp = pcp_spin_trylock(zone->per_cpu_pageset);
			if (unlikely(!pcp)) {
				mm_stat_inc(MM_PCP_FREE_FALLBACK);
				free_one_page(zone, page, page_to_pfn(page), 0, migratetype,
					      FPI_NONE);
				locked_zone = NULL;
				continue;
			}
			locked_zone = zone;
		}
		/* Non-isolated types over MIGRATE_PCPTYPES get added to the
		 * MIGRATE_MOVABLE pcp list. */
		if (unlikely(migratetype >= MIGRATE_PCPTYPES))
			migratetype = MIGRATE_MOVABLE;
		free_unref_page_commit(zone, pcp, page, migratetype, 0);
		batch_count++;
	}
	if (pcp)
		pcp_spin_unlock(pcp);
}

/* ---- high and batch ---- */

static void pageset_update(struct per_cpu_pages *pcp, unsigned long high, unsigned long batch)
{
	WRITE_ONCE(pcp->batch, (int)batch);
	WRITE_ONCE(pcp->high, (int)high);
}

/* Caller holds pcp_batch_high_lock. */
static void __zone_set_pageset_high_and_batch(struct zone *zone, unsigned long high,
					      unsigned long batch)
{
	int cpu;

	lockdep_assert_held(&pa_world(mm_world)->pcp_batch_high_lock);
	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++) {
		pageset_update(per_cpu_ptr(zone->per_cpu_pageset, cpu), high, batch);
		sched_point("pageset_update");
	}
}

/*
 * Empty every pcp of the zone and keep it empty until zone_pcp_enable():
 * "A concurrent page freeing ... will either finish before the drain ...
 * or observe the new high limit and skip the pcplist."
 */
void zone_pcp_disable(struct zone *zone)
{
	HOOK(pagealloc, pcp_disable_begin, zone);
	mutex_lock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
	__zone_set_pageset_high_and_batch(zone, 0, 1);
	__drain_all_pages(zone, true);
	/* the model's bookkeeping for the checkers: not a kernel access */
	__WRITE_ONCE(zone->pcp_disabled, true);
	HOOK(pagealloc, pcp_disable_done, zone);
}

void zone_pcp_enable(struct zone *zone)
{
	__WRITE_ONCE(zone->pcp_disabled, false);
	__zone_set_pageset_high_and_batch(zone, (unsigned long)zone->pageset_high,
					  (unsigned long)zone->pageset_batch);
	mutex_unlock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
	HOOK(pagealloc, pcp_enable_done, zone);
}

/* Between zone_pcp_disable() and zone_pcp_enable(): the pcps stay empty. */
bool zone_pcp_disabled(const struct zone *zone)
{
	return __READ_ONCE(zone->pcp_disabled);
}

/* Like the percpu_pagelist_high_fraction sysctl: new high/batch for every CPU. */
void zone_pcp_set_high_batch(struct zone *zone, int high, int batch)
{
	mutex_lock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
	zone->pageset_high = high;
	zone->pageset_batch = max(1, batch);
	__zone_set_pageset_high_and_batch(zone, (unsigned long)zone->pageset_high,
					  (unsigned long)zone->pageset_batch);
	mutex_unlock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
}

/* ---- CPU hotplug ---- */

/*
 * The zone's pcp high and batch for the CPUs online: 6.6 recomputes them
 * from the zone's size and the online CPUs (zone_highsize); the model's
 * come from the config, so the update re-applies them, under the same
 * lock.
 */
void zone_pcp_update(struct zone *zone, int cpu_online)
{
	(void)cpu_online;
	mutex_lock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
	__zone_set_pageset_high_and_batch(zone, (unsigned long)zone->pageset_high,
					  (unsigned long)zone->pageset_batch);
	mutex_unlock_site(&pa_world(mm_world)->pcp_batch_high_lock, "&mm_world->pcp_batch_high_lock");
}

/* CPUHP_PAGE_ALLOC: the dead CPU's pcps back to the buddy, its events and
 * vmstat differentials folded. */
static int page_alloc_cpu_dead(unsigned int cpu)
{
	struct zone *zone;

	drain_pages(cpu);
	vm_events_fold_cpu((int)cpu);
	cpu_vm_stats_fold((int)cpu);
	for_each_populated_zone(zone)
		zone_pcp_update(zone, 0);
	return 0;
}

static int page_alloc_cpu_online(unsigned int cpu)
{
	struct zone *zone;

	(void)cpu;
	for_each_populated_zone(zone)
		zone_pcp_update(zone, 1);
	return 0;
}

__attribute__((constructor)) static void page_alloc_init_cpuhp(void)
{
	cpuhp_setup_state_nocalls(CPUHP_PAGE_ALLOC, "mm/page_alloc:pcp", page_alloc_cpu_online,
				  page_alloc_cpu_dead);
}

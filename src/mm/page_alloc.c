// SPDX-License-Identifier: MIT
/*
 * The buddy allocator: free lists per order and migratetype, splitting
 * (expand), merging (__free_one_page), migratetype fallback and stealing,
 * the highatomic reserve, and a page's way in and out: prep_new_page
 * (compound pages, __GFP_ZERO) and the free path down from __free_pages
 * (Linux 6.6 mm/page_alloc.c).  The per-CPU page lists are in
 * page_alloc_pcp.c, the allocation entry with the watermarks in
 * alloc_pages.c, the slow path in page_alloc_slowpath.c.
 *
 * Lock order: pcp->lock -> zone->lock.  Every function named __xxx below
 * runs with zone->lock held and says so with lockdep_assert_held().
 * zone->lock protects the free lists, nr_free and nr_reserved_highatomic;
 * the watermark checks read them without it, as does
 * reserve_highatomic_pageblock before taking it (READ_ONCE, data_race(): a
 * yield point each), so they are written with __WRITE_ONCE: relaxed for
 * TSan, no yield point, the writer holds the lock.  So are the pageblock
 * migratetypes (a cmpxchg in the kernel, under zone->lock), which the free
 * path reads racily (READ_ONCE).
 *
 * Left out of the model: CMA, page reporting, shuffling, guard pages,
 * watermark boosting, memory isolation (the type exists), NUMA.
 */
#include "internal.h"

/* ---- free lists ---- */

/* Used for pages not on another list */
static inline void add_to_free_list(struct page *page, struct zone *zone,
				    unsigned int order, int migratetype)
{
	struct free_area *area = &zone->free_area[order];

	list_add(&page->buddy_list, &area->free_list[migratetype]);
	__WRITE_ONCE(area->nr_free, area->nr_free + 1);
	area->gen++;
	__WRITE_ONCE(zone->free_pages_exact, zone->free_pages_exact + (1L << order));
}

/* Used for pages not on another list */
static inline void add_to_free_list_tail(struct page *page, struct zone *zone,
					 unsigned int order, int migratetype)
{
	struct free_area *area = &zone->free_area[order];

	list_add_tail(&page->buddy_list, &area->free_list[migratetype]);
	__WRITE_ONCE(area->nr_free, area->nr_free + 1);
	area->gen++;
	__WRITE_ONCE(zone->free_pages_exact, zone->free_pages_exact + (1L << order));
}

/* Used for pages which are on another list: move them to the tail. */
static inline void move_to_free_list(struct page *page, struct zone *zone,
				     unsigned int order, int migratetype)
{
	struct free_area *area = &zone->free_area[order];

	world_touch_pfn(page_to_pfn(page));
	list_move_tail(&page->buddy_list, &area->free_list[migratetype]);
	area->gen++;
}

static inline void del_page_from_free_list(struct page *page, struct zone *zone,
					   unsigned int order)
{
	world_touch_pfn(page_to_pfn(page));
	list_del(&page->buddy_list);
	__ClearPageBuddy(page);
	page->private = 0;
	__WRITE_ONCE(zone->free_area[order].nr_free, zone->free_area[order].nr_free - 1);
	zone->free_area[order].gen++;
	__WRITE_ONCE(zone->free_pages_exact, zone->free_pages_exact - (1L << order));
}

/*
 * The model's own bookkeeping for the racy-read oracles (oracle.h):
 * zone->free_inflight is how far 6.6's order lets NR_FREE_PAGES run ahead
 * of the free lists while the holder of zone->lock is at that point of its
 * update.  A free accounts its block before listing it (__free_one_page:
 * "__mod_zone_freepage_state(zone, 1 << order, migratetype);" at entry)
 * and takes each buddy it merges off the lists on the way ("else
 * del_page_from_free_list(buddy, zone, order);"): the block in hand, of
 * its merged order, is counted free and on no list until
 * add_to_free_list at done_merging.  An allocation takes a block off the
 * lists (__rmqueue_smallest: "del_page_from_free_list(page, zone,
 * current_order); expand(...)"), expand() lists the halves it splits off
 * ("add_to_free_list(&page[size], zone, high, migratetype);") and the
 * caller accounts what is left once it is out of the buddy (rmqueue_buddy:
 * "__mod_zone_freepage_state(zone, -(1 << order), ..."; rmqueue_bulk after
 * its loop: "__mod_zone_page_state(zone, NR_FREE_PAGES, -(i << order));").
 * Credited before the step that opens the gap, debited after the one that
 * closes it (the counter's update may yield inside, the list helpers do
 * not), so a reader at any yield point finds the gap within it.
 */
static inline void free_inflight_add(struct zone *zone, long nr_pages)
{
	__WRITE_ONCE(zone->free_inflight, zone->free_inflight + nr_pages);
}

static inline struct page *get_page_from_free_area(struct free_area *area, int migratetype)
{
	return list_first_entry_or_null(&area->free_list[migratetype], struct page, buddy_list);
}

void set_pageblock_migratetype(struct page *page, int migratetype)
{
	struct zone *zone = page_zone(page);
	unsigned long pfn = page_to_pfn(page);
	unsigned long block = (pfn - zone->zone_start_pfn) >> pageblock_order;

	world_touch_pfn(pfn);
	__WRITE_ONCE(zone->pageblock_mt[block], (unsigned char)migratetype);
}

static void change_pageblock_range(struct page *pageblock_page, int start_order,
				   int migratetype)
{
	int nr_pageblocks = 1 << (start_order - pageblock_order);

	while (nr_pageblocks--) {
		set_pageblock_migratetype(pageblock_page, migratetype);
		pageblock_page += pageblock_nr_pages;
	}
}

/* The buddy of a free block, if it is free with the same order. */
static inline struct page *find_buddy_page_pfn(struct page *page, unsigned long pfn,
					       unsigned int order, unsigned long *buddy_pfn)
{
	unsigned long __buddy_pfn = pfn ^ (1UL << order);
	struct page *buddy;

	/* set even when the buddy is not free: buddy_merge_likely uses it */
	if (buddy_pfn)
		*buddy_pfn = __buddy_pfn;
	if (!zone_spans_pfn(page_zone_id_zone(page), __buddy_pfn))
		return NULL;
	buddy = pfn_to_page(__buddy_pfn);
	if (PageBuddy(buddy) && buddy_order(buddy) == order)
		return buddy;
	return NULL;
}

/*
 * If this is not the largest possible page, check if the buddy of the
 * next-highest order is free: then the page goes to the tail of the list,
 * more likely to be merged as a higher order page.
 */
static inline bool buddy_merge_likely(unsigned long pfn, unsigned long buddy_pfn,
				      struct page *page, unsigned int order)
{
	unsigned long higher_page_pfn;
	struct page *higher_page;

	if ((int)order >= MAX_ORDER - 1)
		return false;
	higher_page_pfn = buddy_pfn & pfn;
	higher_page = pfn_to_page(higher_page_pfn);
	(void)page;
	return find_buddy_page_pfn(higher_page, higher_page_pfn, order + 1, NULL) != NULL;
}

/*
 * Freeing function for a buddy system allocator: merge the freed block with
 * its free buddy as long as there is one, then put the result on a list.
 * Caller holds zone->lock.
 */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone,
		     unsigned int order, int migratetype, fpi_t fpi_flags)
{
	unsigned long buddy_pfn = 0, combined_pfn;
	struct page *buddy;
	bool to_tail;

	lockdep_assert_held(&zone->lock);
	VM_BUG_ON(migratetype == -1);
	/* the block in hand (the model has no isolated blocks, which 6.6
	 * never counts free) */
	free_inflight_add(zone, 1L << order);
	/* free_count_before_list: free_pcppages_bulk accounted the batch */
	if (likely(!is_migrate_isolate(migratetype)) && !(fpi_flags & FPI_BATCH_ACCOUNTED))
		__mod_zone_freepage_state(zone, 1 << order, migratetype);
	VM_BUG_ON_PAGE(pfn & ((1UL << order) - 1), page);
	VM_BUG_ON_PAGE(!zone_spans_pfn(zone, pfn), page);
	VM_BUG_ON_PAGE(PageBuddy(page), page);

	while ((int)order < MAX_ORDER) {
		buddy = find_buddy_page_pfn(page, pfn, order, &buddy_pfn);
		if (!buddy)
			goto done_merging;

		if (unlikely((int)order >= pageblock_order)) {
			/*
			 * Prevent merges between pageblocks without fallbacks and
			 * normal ones: isolation would miscount free pages.
			 */
			int buddy_mt = get_pfnblock_migratetype(buddy, buddy_pfn);

			if (migratetype != buddy_mt &&
			    (!migratetype_is_mergeable(migratetype) ||
			     !migratetype_is_mergeable(buddy_mt)))
				goto done_merging;
		}
		free_inflight_add(zone, 1L << order);	/* the buddy joins it */
		del_page_from_free_list(buddy, zone, order);
		mm_stat_inc(MM_BUDDY_MERGE);
		combined_pfn = buddy_pfn & pfn;
		page = pfn_to_page(combined_pfn);
		pfn = combined_pfn;
		order++;
	}

done_merging:
	set_buddy_order(page, order);
	if (fpi_flags & FPI_TO_TAIL)
		to_tail = true;
	else
		to_tail = buddy_merge_likely(pfn, buddy_pfn, page, order);
	if (to_tail)
		add_to_free_list_tail(page, zone, order, migratetype);
	else
		add_to_free_list(page, zone, order, migratetype);
	free_inflight_add(zone, -(1L << order));
}

/*
 * Split a block of order @high taken off the lists down to @low, putting
 * the upper halves back.  Caller holds zone->lock.
 */
static inline void expand(struct zone *zone, struct page *page, int low, int high,
			  int migratetype)
{
	unsigned long size = 1UL << high;

	lockdep_assert_held(&zone->lock);
	while (high > low) {
		high--;
		size >>= 1;
		VM_BUG_ON_PAGE(!zone_spans_pfn(zone, page_to_pfn(&page[size])), &page[size]);
		add_to_free_list(&page[size], zone, (unsigned int)high, migratetype);
		free_inflight_add(zone, -(long)size);
		set_buddy_order(&page[size], (unsigned int)high);
		mm_stat_inc(MM_BUDDY_SPLIT);
	}
}

/*
 * Go through the free lists for the given migratetype and remove the
 * smallest available page.  Caller holds zone->lock.
 */
static struct page *__rmqueue_smallest(struct zone *zone, unsigned int order, int migratetype)
{
	unsigned int current_order;
	struct free_area *area;
	struct page *page;

	lockdep_assert_held(&zone->lock);
	for (current_order = order; (int)current_order <= MAX_ORDER; ++current_order) {
		area = &zone->free_area[current_order];
		page = get_page_from_free_area(area, migratetype);
		if (!page)
			continue;
		free_inflight_add(zone, 1L << current_order);
		del_page_from_free_list(page, zone, current_order);
		expand(zone, page, (int)order, (int)current_order, migratetype);
		set_pcppage_migratetype(page, migratetype);
		return page;
	}
	return NULL;
}

/* The order lists are fallen back to when a type's free lists run dry. */
static const int fallbacks[MIGRATE_TYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE]   = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE]     = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/*
 * Move the free pages in [start_pfn, end_pfn] to the tail of the requested
 * type's lists; count the allocated movable pages seen on the way.
 */
static int move_freepages(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn,
			  int migratetype, int *num_movable)
{
	unsigned long pfn;
	int pages_moved = 0;

	for (pfn = start_pfn; pfn <= end_pfn;) {
		struct page *page = pfn_to_page(pfn);
		unsigned int order;

		if (!PageBuddy(page)) {
			/* the model's stand-in for PageLRU || __PageMovable */
			if (num_movable && page_ref_count(page) > 0 &&
			    get_pcppage_migratetype(page) == MIGRATE_MOVABLE)
				(*num_movable)++;
			pfn++;
			continue;
		}
		VM_BUG_ON_PAGE(page_zone(page) != zone, page);
		order = buddy_order(page);
		move_to_free_list(page, zone, order, migratetype);
		pfn += 1UL << order;
		pages_moved += 1 << order;
	}
	return pages_moved;
}

/* Caller holds zone->lock. */
static int move_freepages_block(struct zone *zone, struct page *page, int migratetype,
				int *num_movable)
{
	unsigned long start_pfn, end_pfn, pfn;

	lockdep_assert_held(&zone->lock);
	if (num_movable)
		*num_movable = 0;
	pfn = page_to_pfn(page);
	start_pfn = pageblock_start_pfn(pfn);
	end_pfn = start_pfn + pageblock_nr_pages - 1;
	if (!zone_spans_pfn(zone, start_pfn))
		start_pfn = pfn;
	if (!zone_spans_pfn(zone, end_pfn))
		return 0;
	return move_freepages(zone, start_pfn, end_pfn, migratetype, num_movable);
}

static bool can_steal_fallback(unsigned int order, int start_mt)
{
	if ((int)order >= pageblock_order)
		return true;
	return (int)order >= pageblock_order / 2 || start_mt == MIGRATE_RECLAIMABLE ||
	       start_mt == MIGRATE_UNMOVABLE;
}

/*
 * Steal the whole block when the order is large enough; otherwise move the
 * block's free pages to our type and claim the block if at least half of it
 * is free or compatible.
 */
static void steal_suitable_fallback(struct zone *zone, struct page *page, int start_type,
				    bool whole_block)
{
	unsigned int current_order = buddy_order(page);
	int free_pages, movable_pages, alike_pages;
	int old_block_type = get_pageblock_migratetype(page);

	if (is_migrate_highatomic(old_block_type))
		goto single_page;
	if ((int)current_order >= pageblock_order) {
		change_pageblock_range(page, (int)current_order, start_type);
		goto single_page;
	}
	if (!whole_block)
		goto single_page;
	free_pages = move_freepages_block(zone, page, start_type, &movable_pages);
	if (!free_pages)
		goto single_page;
	if (start_type == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (old_block_type == MIGRATE_MOVABLE)
		alike_pages = (int)pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;
	if (free_pages + alike_pages >= (1 << (pageblock_order - 1)))
		set_pageblock_migratetype(page, start_type);
	return;

single_page:
	move_to_free_list(page, zone, current_order, start_type);
}

static int find_suitable_fallback(struct free_area *area, unsigned int order,
				  int migratetype, bool *can_steal)
{
	int i, fallback_mt;

	if (area->nr_free == 0)
		return -1;
	*can_steal = false;
	for (i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		fallback_mt = fallbacks[migratetype][i];
		if (free_area_empty(area, fallback_mt))
			continue;
		if (can_steal_fallback(order, migratetype))
			*can_steal = true;
		return fallback_mt;
	}
	return -1;
}

/*
 * Find the largest free block of another type and put it (maybe with the
 * rest of its pageblock) on our type's list.  Caller holds zone->lock.
 */
static bool __rmqueue_fallback(struct zone *zone, int order, int start_migratetype,
			       unsigned int alloc_flags)
{
	struct free_area *area;
	int current_order, min_order = order, fallback_mt;
	struct page *page;
	bool can_steal;

	if (order < pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		min_order = pageblock_order;
	for (current_order = MAX_ORDER; current_order >= min_order; --current_order) {
		area = &zone->free_area[current_order];
		fallback_mt = find_suitable_fallback(area, (unsigned int)current_order,
						     start_migratetype, &can_steal);
		if (fallback_mt == -1)
			continue;
		/* movable and can't steal the block: split the smallest instead */
		if (!can_steal && start_migratetype == MIGRATE_MOVABLE && current_order > order)
			goto find_smallest;
		goto do_steal;
	}
	return false;

find_smallest:
	for (current_order = order; current_order <= MAX_ORDER; current_order++) {
		area = &zone->free_area[current_order];
		fallback_mt = find_suitable_fallback(area, (unsigned int)current_order,
						     start_migratetype, &can_steal);
		if (fallback_mt != -1)
			break;
	}
	VM_BUG_ON(current_order > MAX_ORDER);

do_steal:
	page = get_page_from_free_area(area, fallback_mt);
	steal_suitable_fallback(zone, page, start_migratetype, can_steal);
	mm_stat_inc(MM_FALLBACK_STEAL);
	return true;
}

/* Remove an element from the buddy allocator.  Caller holds zone->lock. */
static struct page *__rmqueue(struct zone *zone, unsigned int order, int migratetype,
			      unsigned int alloc_flags)
{
	struct page *page;

	lockdep_assert_held(&zone->lock);
retry:
	page = __rmqueue_smallest(zone, order, migratetype);
	if (unlikely(!page) && __rmqueue_fallback(zone, (int)order, migratetype, alloc_flags))
		goto retry;
	return page;
}

/*
 * Obtain @count blocks from the buddy allocator under a single hold of
 * zone->lock and add them to @list.  Returns the number added.
 */
int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
		 struct list_head *list, int migratetype, unsigned int alloc_flags)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&zone->lock, flags);
	if (bug_on(BUG_FREE_COUNT_BEFORE_TAKE))
		__mod_zone_page_state(zone, NR_FREE_PAGES, -(long)(count << order));
	for (i = 0; i < (int)count; ++i) {
		struct page *page = __rmqueue(zone, order, migratetype, alloc_flags);

		if (unlikely(page == NULL))
			break;
		/* split pages come in physical order: keep it on the list */
		list_add_tail(&page->pcp_list, list);
		sched_point("rmqueue_bulk");
	}
	if (bug_on(BUG_FREE_COUNT_AFTER_UNLOCK)) {
		/* where 6.6 accounts: the bookkeeping stays the holder's */
		free_inflight_add(zone, -(long)(i << order));
		spin_unlock_irqrestore(&zone->lock, flags);
		mod_zone_page_state(zone, NR_FREE_PAGES, -(i << order));
		return i;
	}
	if (bug_on(BUG_FREE_COUNT_BEFORE_TAKE))
		__mod_zone_page_state(zone, NR_FREE_PAGES, (long)((count - (unsigned long)i) << order));
	else
		__mod_zone_page_state(zone, NR_FREE_PAGES, -(i << order));
	free_inflight_add(zone, -(long)(i << order));
	spin_unlock_irqrestore(&zone->lock, flags);
	return i;
}

struct page *rmqueue_buddy(struct zone *preferred_zone, struct zone *zone, unsigned int order,
			   unsigned int alloc_flags, int migratetype)
{
	struct page *page = NULL;
	unsigned long flags;

	(void)preferred_zone;
	spin_lock_irqsave(&zone->lock, flags);
	if (alloc_flags & ALLOC_HIGHATOMIC)
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (!page) {
		page = __rmqueue(zone, order, migratetype, alloc_flags);
		/*
		 * If the allocation fails, allow OOM handling access to
		 * HIGHATOMIC reserves as failing now is worse than failing a
		 * high-order atomic allocation in the future.
		 */
		if (!page && (alloc_flags & ALLOC_OOM))
			page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
		if (!page) {
			spin_unlock_irqrestore(&zone->lock, flags);
			return NULL;
		}
	}
	__mod_zone_freepage_state(zone, -(1 << order), get_pcppage_migratetype(page));
	free_inflight_add(zone, -(1L << order));
	spin_unlock_irqrestore(&zone->lock, flags);
	__count_zid_vm_events(PGALLOC, page_zonenum(page), 1 << order);
	return page;
}

/* ---- the highatomic reserve ---- */

/*
 * Reserve the pageblock of a high-order atomic allocation for exclusive use
 * of high-order atomic allocations: "Limit the number reserved to 1
 * pageblock or roughly 1% of a zone.  Check is race-prone but harmless."
 * (6.6's limit; 6.8 made it ALIGN(managed / 100, pageblock_nr_pages).)
 */
void reserve_highatomic_pageblock(struct page *page, struct zone *zone)
{
	unsigned long max_managed, flags;
	int mt;

	max_managed = (zone_managed_pages(zone) / 100) + pageblock_nr_pages;
	if (READ_ONCE(zone->nr_reserved_highatomic) >= max_managed)
		return;

	spin_lock_irqsave(&zone->lock, flags);
	/* Recheck the nr_reserved_highatomic limit under the lock */
	if (zone->nr_reserved_highatomic >= max_managed)
		goto out_unlock;

	/* Yoink! */
	mt = get_pageblock_migratetype(page);
	/* Only reserve normal pageblocks (i.e., they can merge with others) */
	if (migratetype_is_mergeable(mt)) {
		__WRITE_ONCE(zone->nr_reserved_highatomic,
			     zone->nr_reserved_highatomic + pageblock_nr_pages);
		HOOK(pagealloc, state_highatomic, zone);
		set_pageblock_migratetype(page, MIGRATE_HIGHATOMIC);
		move_freepages_block(zone, page, MIGRATE_HIGHATOMIC, NULL);
		mm_stat_inc(MM_HIGHATOMIC_RESERVE);
	}
out_unlock:
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * Used when an allocation is about to fail under memory pressure: give a
 * highatomic pageblock back to @ac's migratetype ("failed atomic
 * allocations should be easier to recover from than an OOM").  With @force
 * even the last pageblock goes.  True when free pages were moved.
 */
bool unreserve_highatomic_pageblock(const struct alloc_context *ac, bool force)
{
	struct zone *zone;
	struct zoneref *z;
	unsigned long flags;
	int order, ret;

	for_next_zone_zonelist(zone, z, ac) {
		/* Preserve at least one pageblock unless memory pressure is
		 * really high. */
		if (!force && READ_ONCE(zone->nr_reserved_highatomic) <= pageblock_nr_pages)
			continue;

		spin_lock_irqsave(&zone->lock, flags);
		for (order = 0; order <= MAX_ORDER; order++) {
			struct free_area *area = &zone->free_area[order];
			struct page *page = get_page_from_free_area(area, MIGRATE_HIGHATOMIC);

			if (!page)
				continue;
			/*
			 * In page freeing path, migratetype change is racy so
			 * we can counter several free pages in a pageblock in
			 * this loop although we changed the pageblock type
			 * from highatomic to ac->migratetype.  So we should
			 * adjust the count once.
			 */
			if (is_migrate_highatomic(get_pageblock_migratetype(page))) {
				/* watch for underflows */
				__WRITE_ONCE(zone->nr_reserved_highatomic,
					     zone->nr_reserved_highatomic -
					     min(pageblock_nr_pages, zone->nr_reserved_highatomic));
				HOOK(pagealloc, state_highatomic, zone);
			}
			/*
			 * Convert to ac->migratetype and avoid the normal
			 * pageblock stealing heuristics.  (6.6 retypes the
			 * first pageblock only, even when the free block spans
			 * more: see check/highatomic.c.)
			 */
			set_pageblock_migratetype(page, ac->migratetype);
			ret = move_freepages_block(zone, page, ac->migratetype, NULL);
			if (ret) {
				mm_stat_inc(MM_HIGHATOMIC_UNRESERVE);
				spin_unlock_irqrestore(&zone->lock, flags);
				return true;
			}
		}
		spin_unlock_irqrestore(&zone->lock, flags);
	}
	return false;
}

void free_one_page(struct zone *zone, struct page *page, unsigned long pfn, unsigned int order,
		   int migratetype, fpi_t fpi_flags)
{
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	if (unlikely(is_migrate_isolate(migratetype)))
		migratetype = get_pfnblock_migratetype(page, pfn);
	__free_one_page(page, pfn, zone, order, migratetype, fpi_flags);
	if (fpi_flags & FPI_MEMINIT)
		HOOK(pagealloc, core_freed, page, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

static void __free_pages_ok(struct page *page, unsigned int order, fpi_t fpi_flags)
{
	unsigned long pfn = page_to_pfn(page);
	int migratetype;

	if (!free_pages_prepare(page, order))
		return;
	/* read outside the lock to keep the hold time short */
	migratetype = get_pfnblock_migratetype(page, pfn);
	free_one_page(page_zone(page), page, pfn, order, migratetype, fpi_flags);
	__count_vm_events(PGFREE, 1 << order);
}

/*
 * 6.6 page_alloc.c __free_pages_core: pages memblock or deferred init hand
 * to the buddy allocator.  __init_single_page() set the refcount of all
 * pages to 1 ("allocated"/"not free"): set it to 0, add them to
 * managed_pages (atomically: deferred init's helpers free into one zone
 * side by side), and free them to the tail, bypassing the pcp.
 */
void __free_pages_core(struct page *page, unsigned int order)
{
	unsigned int nr_pages = 1u << order, loop;
	struct zone *zone = page_zone(page);
	struct page *p = page;

	for (loop = 0; loop < nr_pages; loop++, p++) {
		__ClearPageReserved(p);
		set_page_count(p, 0);
	}
	if (bug_on(BUG_MANAGED_PAGES_NONATOMIC)) {
		/* the bug: a read, then a write of the sum */
		long v = atomic_long_read(&zone->managed_pages);

		atomic_long_set(&zone->managed_pages, v + (long)nr_pages);
	} else {
		atomic_long_add((long)nr_pages, &zone->managed_pages);
	}
	/* Bypass PCP and place fresh pages right to the tail */
	__free_pages_ok(page, order, FPI_TO_TAIL | FPI_MEMINIT);
}

/* ---- freeing ---- */

void free_the_page(struct page *page, unsigned int order)
{
	if (pcp_allowed_order(order))		/* Via pcp? */
		free_unref_page(page, order);
	else
		__free_pages_ok(page, order, FPI_NONE);
}

/*
 * Drop a reference.  A compound page (or an order-0 one) is freed when the
 * last reference goes.  A non-compound high-order page whose first page is
 * still referenced by someone else (a speculative get_page_unless_zero, say)
 * has its other pages freed now, in decreasing halves; the first page goes
 * when its last reference does (put_page frees it as an order-0 page).
 */
void __free_pages(struct page *page, unsigned int order)
{
	/* get PageHead before we drop reference */
	bool head = PageHead(page);

	if (put_page_testzero(page))
		free_the_page(page, order);
	else if (!head)
		while (order-- > 0)
			free_the_page(page + (1 << order), order);
}

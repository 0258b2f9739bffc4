// SPDX-License-Identifier: MIT
/*
 * The page allocator's checkers: I-BUD-1..3 and I-HA (highatomic.c) under
 * zone->lock, I-PCP-1 under
 * pcp->lock, I-VM-1 after each op, and at quiescence and the end I-BUD-1..4,
 * I-PCP-1..2, I-VM-1..2; the owner sources of I-CONS for the buddy lists
 * and the pcp lists; and the I-PCP-2 excuse for 6.6's drain race.  Every
 * checker reads the whole structure it guards and recounts it against its
 * counters; none changes the model.
 */
#include "check.h"
#include "pagealloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../mm/internal.h"
#include "highatomic.h"

#define fail cfail_set

static const char *const mt_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate",
};

/*
 * What the walk of the free lists at quiescence saw, for the checkers that
 * run after it in the same check pass (I-CONS's buddy intervals, I-BUD-4's
 * count): the lists are walked once per pass, not three times.
 */
static struct {
	unsigned long pass;		/* check_pass it is from; 0: none */
	long free_pages[MAX_ZONES_PER_ZONELIST];	/* by zone->idx, ISOLATE excluded */
	struct walk_list {
		struct owner_block *iv;
		size_t n, cap;
	} buddy, pcp;
} walk;

static void walk_add(struct walk_list *l, unsigned long pfn, int order, int who)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 512;
		l->iv = realloc(l->iv, l->cap * sizeof(*l->iv));
		if (!l->iv)
			abort();
	}
	l->iv[l->n].pfn = (uint32_t)pfn;
	l->iv[l->n].order = (uint16_t)order;
	l->iv[l->n].who = (uint16_t)who;
	l->n++;
}

/* ---- zone->lock: I-BUD-1, I-BUD-2, I-BUD-3 ---- */

/*
 * What the validator last vouched for, per zone and order: the order's
 * list generation (bumped by every free-list helper) and its nr_free.  At a
 * zone->lock acquisition an order whose lists nobody touched through the
 * helpers and whose count did not move since is not walked again; at
 * quiescence every order is (a write that bypassed the helpers shows there,
 * and to I-CONS).
 */
static struct {
	bool valid;
	unsigned long gen[NR_PAGE_ORDERS], nr_free[NR_PAGE_ORDERS];
} seen[MAX_ZONES_PER_ZONELIST];	/* by zone->idx */

static bool order_unchanged(const struct zone *zone, int o)
{
	return seen[zone->idx].valid && zone->free_area[o].gen == seen[zone->idx].gen[o] &&
	       zone->free_area[o].nr_free == seen[zone->idx].nr_free[o];
}

/*
 * I-BUD-1..3 over the free lists.  With @record, what the walk saw goes to
 * the pass cache (walk); with @changed_only, the orders whose lists did not
 * change since they were last found valid are left out.
 *
 * One walk serves the three: I-BUD-3 looks at each page's buddy as the walk
 * reaches it, and keeps the first unmerged pair of each order, not
 * reported until the walk has found every list well formed (I-BUD-1,
 * I-BUD-2).  The loop after the walk then reports, over the orders I-BUD-3
 * applies to, the first pair a second walk for I-BUD-3 met: the same
 * failure as a walk for I-BUD-1..2 followed by one for I-BUD-3, since both
 * visit (order, type, list position) in the same order.  That loop asks
 * highatomic_reserved_this_run() at each order as the second walk did:
 * it reads mm_stat_sum(), model code the fuzz builds instrument, so how
 * often a checker calls it is coverage libFuzzer sees (asked once per
 * walk, the engine took other paths: pcp_free_nolock found in 2 of 6 60-s
 * bench-bugs runs, 6 of 6 before; asked as before, a seed's campaign
 * follows the same path execution for execution).  The lists are read
 * once, not twice: at quiescence most of a walk is its empty heads.
 */
static void zone_free_lists_valid(struct zone *zone, const char *site, struct cfail *f,
				  bool record, bool changed_only)
{
	struct world *w = zone->w;
	unsigned long start = zone->zone_start_pfn, end = start + zone->spanned_pages;
	unsigned long pair_pfn[NR_PAGE_ORDERS], pair_bpfn[NR_PAGE_ORDERS];
	bool pair[NR_PAGE_ORDERS] = { false };
	long free_pages = 0;
	int o, mt;

	for (o = 0; o <= pa_world(w)->max_order; o++) {
		struct free_area *area = &zone->free_area[o];
		unsigned long n = 0;
		unsigned int nonempty = 0;

		if (changed_only && order_unchanged(zone, o))
			continue;
		/* most lists are empty: find the others first, in a loop that
		 * reads each head and nothing else; the walk visits those in
		 * the same (type, position) order */
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			nonempty |= (unsigned int)(area->free_list[mt].next != &area->free_list[mt]) << mt;
		for (; nonempty; nonempty &= nonempty - 1) {
			struct list_head *head, *pos;

			mt = __builtin_ctz(nonempty);
			head = &area->free_list[mt];

			for (pos = head->next; pos != head; pos = pos->next) {
				struct page *page = list_entry(pos, struct page, buddy_list);
				unsigned long pfn = page_to_pfn(page), bpfn;
				struct page *buddy;

				if (++n > zone->spanned_pages) {
					fail(f, "I-BUD-2", site, "%s order-%d %s free list does not end",
					     zone->name, o, mt_names[mt]);
					return;
				}
				if (pfn < start || pfn >= end) {
					fail(f, "I-BUD-1", site,
					     "pfn %lu on %s's order-%d free list is outside the zone",
					     pfn, zone->name, o);
					return;
				}
				if (!PageBuddy(page) || buddy_order(page) != (unsigned int)o) {
					fail(f, "I-BUD-1", site,
					     "pfn %lu on the order-%d %s free list is %s order %u",
					     pfn, o, mt_names[mt],
					     PageBuddy(page) ? "a free block of" : "not free, private",
					     buddy_order(page));
					return;
				}
				if (pfn & ((1UL << o) - 1)) {
					fail(f, "I-BUD-1", site,
					     "pfn %lu on the order-%d free list is not aligned", pfn, o);
					return;
				}
				if (record) {
					walk_add(&walk.buddy, pfn, o, o);
					if (mt != MIGRATE_ISOLATE)
						free_pages += 1L << o;
				}
				/* I-BUD-3: the first pair of the order, below max order */
				if (pair[o] || o >= pa_world(w)->max_order)
					continue;
				bpfn = pfn ^ (1UL << o);
				if (bpfn < start || bpfn >= end)
					continue;
				buddy = pfn_to_page(bpfn);
				if (!PageBuddy(buddy) || buddy_order(buddy) != (unsigned int)o)
					continue;
				if (o >= pa_world(w)->pb_order) {
					int a = get_pfnblock_migratetype(page, pfn);
					int b = get_pfnblock_migratetype(buddy, bpfn);

					if (a != b && (!migratetype_is_mergeable(a) ||
						       !migratetype_is_mergeable(b)))
						continue;
				}
				pair[o] = true;
				pair_pfn[o] = pfn;
				pair_bpfn[o] = bpfn;
			}
		}
		if (n != area->nr_free) {
			fail(f, "I-BUD-2", site, "%s free_area[%d].nr_free is %lu but its lists hold %lu",
			     zone->name, o, area->nr_free, n);
			return;
		}
	}
	if (record)
		walk.free_pages[zone->idx] = free_pages;
	/* I-BUD-3: no two free buddies of one order left unmerged (a pair
	 * becomes one only when one of them is added: its order changed;
	 * from pageblock order up, only while no pageblock was highatomic) */
	for (o = 0; o < (highatomic_reserved_this_run() ? pa_world(w)->pb_order
							: pa_world(w)->max_order) && !f->hit;
	     o++)
		if (pair[o])
			fail(f, "I-BUD-3", site,
			     "free buddies pfn %lu and %lu of order %d were not merged",
			     pair_pfn[o] < pair_bpfn[o] ? pair_pfn[o] : pair_bpfn[o],
			     pair_pfn[o] < pair_bpfn[o] ? pair_bpfn[o] : pair_pfn[o], o);
	if (f->hit)
		return;
	for (o = 0; o <= pa_world(w)->max_order; o++) {
		seen[zone->idx].gen[o] = zone->free_area[o].gen;
		seen[zone->idx].nr_free[o] = zone->free_area[o].nr_free;
	}
	seen[zone->idx].valid = true;
}

/*
 * The under-lock validators read only what the lock they run under
 * protects, so their reads are ordinary accesses under that lock: TSan sees
 * them, and a write made without the lock races with them.
 */
static void zone_lock_validate(void *arg, const char *site)
{
	struct cfail f;
	char msg[256];

	cfail_init(&f);
	zone_free_lists_valid(arg, site, &f, false, true);
	if (!f.hit && !highatomic_zone_valid(arg, msg, sizeof(msg)))
		fail(&f, "I-HA", site, "%s", msg);
	if (f.hit)
		sched_violation(f.checker, f.site, "%s", f.msg);
}

/* ---- pcp->lock: I-PCP-1 ---- */

static void pcp_lists_valid(struct zone *zone, int cpu, const char *site, struct cfail *f,
			    bool record)
{
	struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
	unsigned long start = zone->zone_start_pfn, end = start + zone->spanned_pages;
	long sum = 0, n = 0;
	int pindex, count = READ_ONCE(pcp->count);
	unsigned int nonempty = 0;

	_Static_assert(NR_PCP_LISTS <= 32, "a bit per pcp list");
	/* most lists are empty most of the time: find the others first, in a
	 * loop that reads each head and nothing else */
	for (pindex = 0; pindex < NR_PCP_LISTS; pindex++)
		nonempty |= (unsigned int)(pcp->lists[pindex].next != &pcp->lists[pindex]) << pindex;
	for (; nonempty; nonempty &= nonempty - 1) {
		struct list_head *head, *pos;
		int order;

		pindex = __builtin_ctz(nonempty);
		head = &pcp->lists[pindex];
		order = pindex_to_order((unsigned int)pindex);
		for (pos = head->next; pos != head; pos = pos->next) {
			struct page *page = list_entry(pos, struct page, pcp_list);
			unsigned long pfn = page_to_pfn(page);

			if (++n > (long)zone->spanned_pages) {
				fail(f, "I-PCP-1", site, "cpu%d pcp list %d does not end", cpu, pindex);
				return;
			}
			if (pfn < start || pfn >= end) {
				fail(f, "I-PCP-1", site, "pfn %lu on cpu%d's %s pcp list is outside it",
				     pfn, cpu, zone->name);
				return;
			}
			/* the unchecked test: a page on a pcp list came
			 * from the buddy, initialised (PF_POISONED_CHECK's
			 * compare at every page of every pcp walk was a
			 * quarter of its cost in bench-icount) */
			if (PageType(page, PG_buddy)) {
				fail(f, "I-PCP-1", site,
				     "pfn %lu is on cpu%d's pcp list and in the buddy lists", pfn, cpu);
				return;
			}
			sum += 1L << order;
			if (record)
				walk_add(&walk.pcp, pfn, order, cpu);
		}
	}
	if (count < 0 || count != sum)
		fail(f, "I-PCP-1", site, "cpu%d %s pcp->count is %d but its lists hold %ld pages",
		     cpu, zone->name, count, sum);
}

static void pcp_lock_validate(void *arg, const char *site)
{
	struct per_cpu_pages *pcp = arg;
	struct world *w = mm_world;
	struct zone *zone;
	struct cfail f;

	cfail_init(&f);
	for_each_populated_zone(zone) {
		if (pcp >= zone->per_cpu_pageset && pcp < zone->per_cpu_pageset + w->cfg.ncpus)
			pcp_lists_valid(zone, (int)(pcp - zone->per_cpu_pageset), site, &f, false);
	}
	if (f.hit)
		sched_violation(f.checker, f.site, "%s", f.msg);
}

static void pagealloc_attach(struct world *w)
{
	struct zone *zone;
	int cpu;

	for_each_populated_zone(zone) {
		zone->lock.validate = zone_lock_validate;
		zone->lock.validate_arg = zone;
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
			zone->per_cpu_pageset[cpu].lock.validate = pcp_lock_validate;
			zone->per_cpu_pageset[cpu].lock.validate_arg = &zone->per_cpu_pageset[cpu];
		}
	}
}

/* ---- vmstat: I-VM-1, I-VM-2, I-BUD-4 ---- */

static void vm_diffs_valid(struct world *w, int cpu, const char *site, struct cfail *f)
{
	struct zone *zone;
	int i;

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *p = &zone->per_cpu_zonestats[cpu];

		if (f->hit)
			break;

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			int d = READ_ONCE(p->vm_stat_diff[i]), t = READ_ONCE(p->stat_threshold);

			if (d > t || d < -t) {
				fail(f, "I-VM-1", site, "cpu%d %s %s differential %d exceeds threshold %d",
				     cpu, zone->name, zone_stat_names[i], d, t);
				break;
			}
		}
	}
}

static void pagealloc_after_op(struct world *w, int cpu, struct cfail *f)
{
	vm_diffs_valid(w, cpu, "op-end", f);
}

/* Free pages the buddy lists hold, ISOLATE excluded (what NR_FREE counts). */
static long zone_free_pages_counted(struct zone *zone)
{
	long sum = 0;
	int o, mt;

	for (o = 0; o <= pa_world(zone->w)->max_order; o++)
		for (mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct list_head *head = &zone->free_area[o].free_list[mt], *pos;

			if (mt == MIGRATE_ISOLATE)
				continue;
			for (pos = head->next; pos != head; pos = pos->next)
				sum += 1L << o;
		}
	return sum;
}

static void vmstat_exact(struct world *w, const char *site, bool folded, struct cfail *f)
{
	long global = atomic_long_read(&pa_world(w)->vm_zone_stat[NR_FREE_PAGES]), zsum = 0;
	struct zone *zone;
	int cpu;

	for_each_populated_zone(zone) {
		long counter = atomic_long_read(&zone->vm_stat[NR_FREE_PAGES]), diffs = 0;
		long exact = walk.pass == check_pass ? walk.free_pages[zone->idx]
						     : zone_free_pages_counted(zone);
		long bound = (long)w->cfg.ncpus * pa_world(w)->cfg.stat_threshold;

		if (f->hit)
			break;
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
			diffs += READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[NR_FREE_PAGES]);
		zsum += counter;
		if (counter + diffs != exact)
			fail(f, "I-BUD-4", site,
			     "%s NR_FREE_PAGES is %ld (+%ld in per-cpu diffs) but the free lists hold %ld",
			     zone->name, counter, diffs, exact);
		else if (labs(counter - exact) > bound)
			fail(f, "I-VM-2", site, "%s NR_FREE_PAGES %ld drifts %ld from %ld, over %ld",
			     zone->name, counter, labs(counter - exact), exact, bound);
		else if (folded && diffs)
			fail(f, "I-VM-1", site, "%s differentials not folded after a refresh: %ld",
			     zone->name, diffs);
	}
	if (!f->hit && folded && global != zsum)
		fail(f, "I-BUD-4", site, "global NR_FREE_PAGES %ld != %ld summed over the zones",
		     global, zsum);
}

/* ---- owners: the buddy lists and the pcp lists (I-CONS) ---- */

static void buddy_collect(struct world *w, struct owner_sink *s)
{
	struct zone *zone;
	int o, mt;

	if (walk.pass == check_pass) {
		owner_add_blocks(s, walk.buddy.iv, walk.buddy.n);
		return;
	}
	for_each_populated_zone(zone)
		for (o = 0; o <= pa_world(w)->max_order; o++)
			for (mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct list_head *head = &zone->free_area[o].free_list[mt], *p;

				for (p = head->next; p != head; p = p->next)
					owner_add(s, page_to_pfn(list_entry(p, struct page, buddy_list)),
						  1UL << o, (unsigned int)o);
			}
}

static void buddy_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "the buddy lists (order %u)", who);
}

static const struct owner_source buddy_owner = {
	.name = "buddy", .collect = buddy_collect, .describe = buddy_describe,
};
OWNER_SOURCE(buddy_owner);

static void pcp_collect(struct world *w, struct owner_sink *s)
{
	struct zone *zone;
	int cpu, pindex;

	if (walk.pass == check_pass) {
		owner_add_blocks(s, walk.pcp.iv, walk.pcp.n);
		return;
	}
	for_each_populated_zone(zone)
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
			struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

			for (pindex = 0; pindex < NR_PCP_LISTS; pindex++) {
				struct list_head *head = &pcp->lists[pindex], *p;
				int order = pindex_to_order((unsigned int)pindex);

				for (p = head->next; p != head; p = p->next)
					owner_add(s, page_to_pfn(list_entry(p, struct page, pcp_list)),
						  1UL << order, (unsigned int)cpu);
			}
		}
}

static void pcp_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "cpu%u's pcp list", who);
}

static const struct owner_source pcp_owner = {
	.name = "pcp", .collect = pcp_collect, .describe = pcp_describe,
};
OWNER_SOURCE(pcp_owner);

/* The struct pages boot left uninitialised, and holes and reserved ranges:
 * src/check/deferred.c's owner sources. */

static void pcps_valid(struct world *w, const char *site, bool must_be_empty,
		       unsigned int pcp2_zones, struct cfail *f)
{
	struct zone *zone;
	int cpu;

	for_each_populated_zone(zone) {
		bool disabled = zone_pcp_disabled(zone) && (pcp2_zones & (1u << zone->idx));

		if (f->hit)
			break;

		for (cpu = 0; cpu < w->cfg.ncpus && !f->hit; cpu++) {
			int count = READ_ONCE(zone->per_cpu_pageset[cpu].count);

			pcp_lists_valid(zone, cpu, site, f, true);
			if (f->hit)
				break;
			if ((must_be_empty || disabled) && count)
				fail(f, must_be_empty ? "I-PCP-1" : "I-PCP-2", site,
				     "cpu%d %s pcp holds %d pages %s", cpu, zone->name, count,
				     must_be_empty ? "after the final drain"
						   : "while zone_pcp_disable() is in force");
		}
	}
}

/* ---- the registered checkers ---- */

static void pagealloc_run_begin(struct world *w)
{
	(void)w;
	memset(seen, 0, sizeof(seen));
}

/* Structure first: the free lists, the pcps, the differentials. */
static void pagealloc_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct zone *zone;
	int cpu;

	walk.buddy.n = walk.pcp.n = 0;
	walk.pass = 0;
	for_each_populated_zone(zone)
		if (!f->hit)
			zone_free_lists_valid(zone, where, f, true, false);
	if (!f->hit)
		pcps_valid(w, where, false, pcp2_zones(), f);
	walk.pass = f->hit ? 0 : check_pass;
	for (cpu = 0; cpu < w->cfg.ncpus && !f->hit; cpu++)
		vm_diffs_valid(w, cpu, where, f);
}

static void pagealloc_end(struct world *w, struct cfail *f)
{
	struct zone *zone;

	walk.buddy.n = walk.pcp.n = 0;
	walk.pass = 0;
	for_each_populated_zone(zone)
		if (!f->hit)
			zone_free_lists_valid(zone, "end", f, true, false);
	if (!f->hit)
		pcps_valid(w, "end", true, 0, f);
	walk.pass = f->hit ? 0 : check_pass;
}

static const struct checker pagealloc_checker = {
	.name = "I-BUD-1..3 I-PCP-1..2 I-VM-1", .layer = "pagealloc", .prio = 10,
	.attach = pagealloc_attach, .run_begin = pagealloc_run_begin,
	.after_op = pagealloc_after_op, .quiescent = pagealloc_quiescent, .end = pagealloc_end,
};
CHECKER(pagealloc_checker);

/* The counters, once I-CONS has vouched for the pages they count. */
static void vmstat_quiescent(struct world *w, const char *where, struct cfail *f)
{
	vmstat_exact(w, where, false, f);
}

/*
 * What the free lists must hold once everything was given back: each free
 * memblock range of the zone that the buddy allocator was handed (below the
 * node's first_deferred_pfn: past it the memmap is still deferred's) cut
 * into its largest aligned pieces, at most order @limit.  Holes and
 * reserved ranges are never free (6.6: their struct pages are
 * PageReserved, init_unavailable_range and memmap_init_reserved_pages),
 * so page_is_buddy() never lets a block merge across them: a block of
 * order o merges with its buddy exactly when the two halves of the order
 * o + 1 block are free memory, and the pieces are unique whatever the
 * order of the frees.  @want[o] counts the pieces of order o.
 */
static void cut_run(unsigned long s, unsigned long e, int limit, unsigned long *want)
{
	while (s < e) {
		int o = s ? __builtin_ctzl(s) : limit;

		if (o > limit)
			o = limit;
		while ((1UL << o) > e - s)
			o--;
		want[o]++;
		s += 1UL << o;
	}
}

static void zone_merged_pieces(struct world *w, struct zone *zone, int limit,
			       unsigned long *want)
{
	const struct memblock *mb = &pa_world(w)->memblock;
	unsigned long start = zone->zone_start_pfn, end = start + zone->spanned_pages;
	unsigned long fdp = READ_ONCE(zone->zone_pgdat->first_deferred_pfn);
	unsigned long i = 0, spfn, epfn, run_s = 0, run_e = 0;

	if (fdp < end)
		end = fdp > start ? fdp : start;
	memset(want, 0, sizeof(*want) * (pa_world(w)->max_order + 1));
	if (!mb->memory.cnt) {	/* no table: the zone is one free range */
		cut_run(start, end, limit, want);
		return;
	}
	while (memblock_next_free_range(mb, start, end, &i, &spfn, &epfn)) {
		if (spfn != run_e) {	/* adjacent ranges are one run */
			cut_run(run_s, run_e, limit, want);
			run_s = spfn;
		}
		run_e = epfn;
	}
	cut_run(run_s, run_e, limit, want);
}

static void vmstat_end(struct world *w, struct cfail *f)
{
	struct zone *zone;

	vmstat_exact(w, "end", true, f);
	/* everything given back: every zone's free memory merged back into
	 * its largest pieces (holes and reserved ranges split them), at every
	 * order, or, once a pageblock was highatomic (pageblocks of different
	 * types need not merge), at every order below pageblock order */
	for_each_populated_zone(zone) {
		unsigned long want[NR_PAGE_ORDERS];
		bool ha;
		int o, limit;

		if (f->hit || shadow_live_count())
			break;
		ha = highatomic_reserved_this_run();
		limit = ha ? pa_world(w)->pb_order : pa_world(w)->max_order;
		zone_merged_pieces(w, zone, limit, want);
		for (o = 0; o < (ha ? limit : limit + 1) && !f->hit; o++)
			if (zone->free_area[o].nr_free != want[o])
				fail(f, "I-BUD-3", "end",
				     "%s has %lu free order-%d blocks after everything was "
				     "freed, not %lu%s", zone->name, zone->free_area[o].nr_free,
				     o, want[o], ha ? " (inside pageblocks)" : "");
	}
}

static const struct checker vmstat_checker = {
	.name = "I-BUD-4 I-VM-1..2", .layer = "pagealloc", .prio = 30,
	.quiescent = vmstat_quiescent, .end = vmstat_end,
};
CHECKER(vmstat_checker);

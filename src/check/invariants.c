// SPDX-License-Identifier: MIT
/*
 * The invariants of the buddy, pcp and vmstat layer (see check.h for when
 * each is checked).  Every checker reads the whole structure it guards and
 * recounts it against its counters; none changes the model.
 *
 * Checkers run on whatever fiber is current and read state other fibers
 * wrote: their reads are hidden from TSan, and a failure is reported only
 * after the hiding ends.
 */
#include "check.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../mm/internal.h"

struct cfail {
	bool hit;
	const char *checker;
	const char *site;
	char msg[640];
};

__attribute__((format(printf, 4, 5)))
static void fail(struct cfail *f, const char *checker, const char *site, const char *fmt, ...)
{
	va_list ap;

	if (f->hit)
		return;
	f->hit = true;
	f->checker = checker;
	f->site = site;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

static void report(struct cfail *f)
{
	tsan_ignore_end();
	if (f->hit)
		sched_violation(f->checker, f->site, "%s", f->msg);
}

static const char *const mt_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate",
};

/* ---- zone->lock: I-BUD-1, I-BUD-2, I-BUD-3 ---- */

static void zone_free_lists_valid(struct zone *zone, const char *site, struct cfail *f)
{
	struct world *w = zone->w;
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;
	int o, mt;

	for (o = 0; o <= w->max_order && !f->hit; o++) {
		struct free_area *area = &zone->free_area[o];
		unsigned long n = 0;

		for (mt = 0; mt < MIGRATE_TYPES && !f->hit; mt++) {
			struct list_head *head = &area->free_list[mt], *pos;

			for (pos = head->next; pos != head; pos = pos->next) {
				struct page *page = list_entry(pos, struct page, buddy_list);
				unsigned long pfn = page_to_pfn(page);

				if (++n > zone->spanned_pages) {
					fail(f, "I-BUD-2", site, "%s order-%d %s free list does not end",
					     zone->name, o, mt_names[mt]);
					break;
				}
				if (pfn < zone->zone_start_pfn || pfn >= end)
					fail(f, "I-BUD-1", site,
					     "pfn %lu on %s's order-%d free list is outside the zone",
					     pfn, zone->name, o);
				else if (!PageBuddy(page) || buddy_order(page) != (unsigned int)o)
					fail(f, "I-BUD-1", site,
					     "pfn %lu on the order-%d %s free list is %s order %u",
					     pfn, o, mt_names[mt],
					     PageBuddy(page) ? "a free block of" : "not free, private",
					     buddy_order(page));
				else if (pfn & ((1UL << o) - 1))
					fail(f, "I-BUD-1", site,
					     "pfn %lu on the order-%d free list is not aligned", pfn, o);
				if (f->hit)
					break;
			}
		}
		if (!f->hit && n != area->nr_free)
			fail(f, "I-BUD-2", site, "%s free_area[%d].nr_free is %lu but its lists hold %lu",
			     zone->name, o, area->nr_free, n);
	}
	if (f->hit)
		return;

	/* I-BUD-3: no two free buddies of one order left unmerged */
	for (o = 0; o < w->max_order && !f->hit; o++) {
		for (mt = 0; mt < MIGRATE_TYPES && !f->hit; mt++) {
			struct list_head *head = &zone->free_area[o].free_list[mt], *pos;

			for (pos = head->next; pos != head; pos = pos->next) {
				struct page *page = list_entry(pos, struct page, buddy_list);
				unsigned long pfn = page_to_pfn(page), bpfn = pfn ^ (1UL << o);
				struct page *buddy;

				if (bpfn < zone->zone_start_pfn || bpfn >= end)
					continue;
				buddy = pfn_to_page(bpfn);
				if (!PageBuddy(buddy) || buddy_order(buddy) != (unsigned int)o)
					continue;
				if (o >= w->pb_order) {
					int a = get_pfnblock_migratetype(page, pfn);
					int b = get_pfnblock_migratetype(buddy, bpfn);

					if (a != b && (!migratetype_is_mergeable(a) ||
						       !migratetype_is_mergeable(b)))
						continue;
				}
				fail(f, "I-BUD-3", site,
				     "free buddies pfn %lu and %lu of order %d were not merged",
				     pfn < bpfn ? pfn : bpfn, pfn < bpfn ? bpfn : pfn, o);
				break;
			}
		}
	}
}

/*
 * The under-lock validators read only what the lock they run under
 * protects, so their reads are ordinary accesses under that lock: TSan sees
 * them, and a write made without the lock races with them.
 */
static void zone_lock_validate(void *arg, const char *site)
{
	struct cfail f = { 0 };

	zone_free_lists_valid(arg, site, &f);
	if (f.hit)
		sched_violation(f.checker, f.site, "%s", f.msg);
}

/* ---- pcp->lock: I-PCP-1 ---- */

static void pcp_lists_valid(struct zone *zone, int cpu, const char *site, struct cfail *f)
{
	struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
	long sum = 0, n = 0;
	int pindex, count = READ_ONCE(pcp->count);

	for (pindex = 0; pindex < NR_PCP_LISTS && !f->hit; pindex++) {
		struct list_head *head = &pcp->lists[pindex], *pos;
		int order = pindex_to_order((unsigned int)pindex);

		for (pos = head->next; pos != head; pos = pos->next) {
			struct page *page = list_entry(pos, struct page, pcp_list);
			unsigned long pfn = page_to_pfn(page);

			if (++n > (long)zone->spanned_pages) {
				fail(f, "I-PCP-1", site, "cpu%d pcp list %d does not end", cpu, pindex);
				break;
			}
			if (!zone_spans_pfn(zone, pfn)) {
				fail(f, "I-PCP-1", site, "pfn %lu on cpu%d's %s pcp list is outside it",
				     pfn, cpu, zone->name);
				break;
			}
			if (PageBuddy(page)) {
				fail(f, "I-PCP-1", site,
				     "pfn %lu is on cpu%d's pcp list and in the buddy lists", pfn, cpu);
				break;
			}
			sum += 1L << order;
		}
	}
	if (!f->hit && (count < 0 || count != sum))
		fail(f, "I-PCP-1", site, "cpu%d %s pcp->count is %d but its lists hold %ld pages",
		     cpu, zone->name, count, sum);
}

static void pcp_lock_validate(void *arg, const char *site)
{
	struct per_cpu_pages *pcp = arg;
	struct world *w = mm_world;
	struct cfail f = { 0 };
	int z;

	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

		if (pcp >= zone->per_cpu_pageset && pcp < zone->per_cpu_pageset + w->cfg.ncpus)
			pcp_lists_valid(zone, (int)(pcp - zone->per_cpu_pageset), site, &f);
	}
	if (f.hit)
		sched_violation(f.checker, f.site, "%s", f.msg);
}

void check_attach(struct world *w)
{
	int z, cpu;

	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

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
	int z, i;

	for (z = 0; z < w->nr_zones && !f->hit; z++) {
		struct per_cpu_zonestat *p = &w->zones[z].per_cpu_zonestats[cpu];

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			int d = READ_ONCE(p->vm_stat_diff[i]), t = READ_ONCE(p->stat_threshold);

			if (d > t || d < -t) {
				fail(f, "I-VM-1", site, "cpu%d %s %s differential %d exceeds threshold %d",
				     cpu, w->zones[z].name, zone_stat_names[i], d, t);
				break;
			}
		}
	}
}

void check_after_op(struct world *w, int cpu)
{
	struct cfail f = { 0 };

	tsan_ignore_begin();
	vm_diffs_valid(w, cpu, "op-end", &f);
	report(&f);
}

/* Free pages the buddy lists hold, ISOLATE excluded (what NR_FREE counts). */
static long zone_free_pages_counted(struct zone *zone)
{
	long sum = 0;
	int o, mt;

	for (o = 0; o <= zone->w->max_order; o++)
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
	long global = atomic_long_read(&w->vm_zone_stat[NR_FREE_PAGES]), zsum = 0;
	int z, cpu;

	for (z = 0; z < w->nr_zones && !f->hit; z++) {
		struct zone *zone = &w->zones[z];
		long counter = atomic_long_read(&zone->vm_stat[NR_FREE_PAGES]), diffs = 0;
		long exact = zone_free_pages_counted(zone);
		long bound = (long)w->cfg.ncpus * w->cfg.stat_threshold;

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

/* ---- the owner of every page: I-CONS ---- */

/*
 * Every page is owned by exactly one of: a free block in the buddy lists, a
 * block on a pcp list, a block the program holds.  The owners are collected
 * as pfn intervals and sorted; the intervals must tile the zones with no
 * gap (a lost page) and no overlap (a page owned twice).  O(blocks log
 * blocks), not O(pages): a quiescent check costs what the state holds.
 */
enum { SH_BUDDY, SH_PCP, SH_ALLOC };

struct owner_iv {
	unsigned long start, len;
	unsigned int kind, who;		/* order, cpu or handle */
};

static struct owner_iv *ivs;
static size_t niv, capiv;

static void iv_add(unsigned long start, unsigned long len, unsigned int kind, unsigned int who)
{
	if (niv == capiv) {
		capiv = capiv ? capiv * 2 : 1024;
		ivs = realloc(ivs, capiv * sizeof(*ivs));
		if (!ivs)
			abort();
	}
	ivs[niv].start = start;
	ivs[niv].len = len;
	ivs[niv].kind = kind;
	ivs[niv].who = who;
	niv++;
}

static int cmp_iv(const void *a, const void *b)
{
	const struct owner_iv *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const char *iv_name(const struct owner_iv *iv, char *buf, size_t n)
{
	switch (iv->kind) {
	case SH_BUDDY:
		snprintf(buf, n, "the buddy lists (order %u)", iv->who);
		break;
	case SH_PCP:
		snprintf(buf, n, "cpu%u's pcp list", iv->who);
		break;
	default:
		snprintf(buf, n, "handle h%u", iv->who);
	}
	return buf;
}

static void conservation(struct world *w, const struct check_alloc *a, int n, const char *site,
			 struct cfail *f)
{
	unsigned long pos = 0;
	size_t k;
	int z, o, mt, cpu, i;
	char x[64], y[64];

	niv = 0;
	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

		for (o = 0; o <= w->max_order; o++)
			for (mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct list_head *head = &zone->free_area[o].free_list[mt], *p;

				for (p = head->next; p != head; p = p->next)
					iv_add(page_to_pfn(list_entry(p, struct page, buddy_list)),
					       1UL << o, SH_BUDDY, (unsigned int)o);
			}
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
			struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];
			int pindex;

			for (pindex = 0; pindex < NR_PCP_LISTS; pindex++) {
				struct list_head *head = &pcp->lists[pindex], *p;
				int order = pindex_to_order((unsigned int)pindex);

				for (p = head->next; p != head; p = p->next)
					iv_add(page_to_pfn(list_entry(p, struct page, pcp_list)),
					       1UL << order, SH_PCP, (unsigned int)cpu);
			}
		}
	}
	for (i = 0; i < n; i++)
		iv_add(a[i].pfn, 1UL << a[i].order, SH_ALLOC, (unsigned int)a[i].handle);
	qsort(ivs, niv, sizeof(*ivs), cmp_iv);
	for (k = 0; k < niv && !f->hit; k++) {
		if (ivs[k].start < pos)
			fail(f, "I-CONS", site, "pfn %lu is owned twice: by %s and by %s", ivs[k].start,
			     iv_name(&ivs[k - 1], x, sizeof(x)), iv_name(&ivs[k], y, sizeof(y)));
		else if (ivs[k].start > pos)
			fail(f, "I-CONS", site,
			     "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
			     "(%s lost %lu pages)", pos, w->zones[pos / w->cfg.zone_pages].name,
			     ivs[k].start - pos);
		pos = ivs[k].start + ivs[k].len;
	}
	if (!f->hit && pos != w->nr_pages)
		fail(f, "I-CONS", site,
		     "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
		     "(%lu pages lost at the end)", pos, w->nr_pages - pos);
}

static void pcps_valid(struct world *w, const char *site, bool must_be_empty,
		       unsigned int pcp2_zones, struct cfail *f)
{
	int z, cpu;

	for (z = 0; z < w->nr_zones && !f->hit; z++) {
		struct zone *zone = &w->zones[z];
		bool disabled = zone_pcp_disabled(zone) && (pcp2_zones & (1u << z));

		for (cpu = 0; cpu < w->cfg.ncpus && !f->hit; cpu++) {
			int count = READ_ONCE(zone->per_cpu_pageset[cpu].count);

			pcp_lists_valid(zone, cpu, site, f);
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

void check_pcp_disabled(struct world *w, struct zone *zone)
{
	struct cfail f = { 0 };
	int cpu;

	tsan_ignore_begin();
	for (cpu = 0; cpu < w->cfg.ncpus && !f.hit; cpu++) {
		struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

		if (!spin_is_locked(&pcp->lock) && READ_ONCE(pcp->count))
			fail(&f, "I-PCP-2", "zone_pcp_disable",
			     "cpu%d %s pcp holds %d pages after zone_pcp_disable() drained it", cpu,
			     zone->name, READ_ONCE(pcp->count));
	}
	report(&f);
}

void check_quiescent(struct world *w, const struct check_alloc *a, int n, const char *where,
		     unsigned int pcp2_zones)
{
	struct cfail f = { 0 };
	int z, cpu;

	tsan_ignore_begin();
	for (z = 0; z < w->nr_zones && !f.hit; z++)
		zone_free_lists_valid(&w->zones[z], where, &f);
	if (!f.hit)
		pcps_valid(w, where, false, pcp2_zones, &f);
	for (cpu = 0; cpu < w->cfg.ncpus && !f.hit; cpu++)
		vm_diffs_valid(w, cpu, where, &f);
	if (!f.hit)
		conservation(w, a, n, where, &f);
	if (!f.hit)
		vmstat_exact(w, where, false, &f);
	report(&f);
}

void check_final(struct world *w, const struct check_alloc *a, int n)
{
	struct cfail f = { 0 };
	int z;

	tsan_ignore_begin();
	for (z = 0; z < w->nr_zones && !f.hit; z++)
		zone_free_lists_valid(&w->zones[z], "end", &f);
	if (!f.hit)
		pcps_valid(w, "end", true, 0, &f);
	if (!f.hit)
		conservation(w, a, n, "end", &f);
	if (!f.hit)
		vmstat_exact(w, "end", true, &f);
	/* nothing allocated: every zone merged back into max-order blocks */
	for (z = 0; z < w->nr_zones && !f.hit && n == 0; z++) {
		struct zone *zone = &w->zones[z];
		unsigned long want = zone->spanned_pages >> w->max_order;

		if (zone->free_area[w->max_order].nr_free != want)
			fail(&f, "I-BUD-3", "end",
			     "%s has %lu free max-order blocks after everything was freed, not %lu",
			     zone->name, zone->free_area[w->max_order].nr_free, want);
	}
	report(&f);
}

// SPDX-License-Identifier: MIT
/*
 * I-HA, the accounting of the highatomic reserve (see highatomic.h).
 *
 * Why at least one pageblock per MIGRATE_HIGHATOMIC pageblock and not
 * exactly: in 6.6 a reservation and an unreservation each change the
 * count and one pageblock's type together, under zone->lock, but a free
 * block larger than a pageblock is retyped by its first pageblock alone.
 * Two highatomic pageblocks that are buddies merge into one highatomic
 * free block; unreserve_highatomic_pageblock() retypes only its first
 * pageblock and moves the whole block to the allocation's free list; when
 * a later allocation falls back to that block, steal_suitable_fallback()
 * sees the first pageblock's type (not highatomic) and
 * change_pageblock_range() retypes both, the second without giving its
 * pages back to the count.  The count then stays above the pageblocks it
 * counts until the next unreservation (6.10's "fix highatomic typing in
 * multi-block buddies" made it exact).  tests/test_highatomic.c draws it.
 * The count never falls below its pageblocks: every path that makes a
 * pageblock highatomic adds to it, and unreserve takes from it only for a
 * pageblock that still is.
 *
 * Reads only what zone->lock protects (the count, the pageblock types);
 * changes nothing.
 */
#include "highatomic.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

#include "../mm/internal.h"

bool highatomic_zone_valid(struct zone *zone, char *msg, size_t n)
{
	struct world *w = zone->w;
	unsigned long nr = zone->nr_reserved_highatomic, pb = pa_world(w)->pb_nr_pages;
	unsigned long nblocks = zone->spanned_pages >> pa_world(w)->pb_order, i, ha = 0;
	/* 6.6 reserves while the count is below this, one pageblock at a time */
	unsigned long max_managed = zone_managed_pages(zone) / 100 + pb;

	/* under zone->lock, but deferred init retypes the pageblocks it is
	 * about to free without it (6.6 deferred_free_range): hidden from TSan */
	tsan_ignore_begin();
	if (memchr(zone->pageblock_mt, MIGRATE_HIGHATOMIC, nblocks))
		for (i = 0; i < nblocks; i++)
			ha += is_migrate_highatomic(zone->pageblock_mt[i]);
	tsan_ignore_end();
	if (nr % pb) {
		snprintf(msg, n, "%s nr_reserved_highatomic %lu is not a multiple of a pageblock (%lu)",
			 zone->name, nr, pb);
		return false;
	}
	if (nr >= max_managed + pb) {
		snprintf(msg, n, "%s nr_reserved_highatomic %lu is over the limit: 6.6 reserves "
			 "a pageblock while under %lu, so never reaches %lu", zone->name, nr,
			 max_managed, max_managed + pb);
		return false;
	}
	if (nr < ha * pb) {
		snprintf(msg, n, "%s nr_reserved_highatomic %lu but %lu pageblocks of %lu pages are "
			 "MIGRATE_HIGHATOMIC", zone->name, nr, ha, pb);
		return false;
	}
	return true;
}

void check_highatomic(struct world *w, const char *site)
{
	char msg[256];
	struct zone *zone;
	bool ok = true;

	(void)w;	/* mm_world's zones */
	tsan_ignore_begin();
	for_each_populated_zone(zone)
		if (ok)
			ok = highatomic_zone_valid(zone, msg, sizeof(msg));
	tsan_ignore_end();
	if (!ok)
		sched_violation("I-HA", site, "%s", msg);
}

bool highatomic_reserved_this_run(void)
{
	return mm_stat_sum(MM_HIGHATOMIC_RESERVE) != 0;
}

/* At quiescence and the end too (zone->lock's validator, pagealloc.c,
 * checks it at every acquisition when validators are on). */
static void highatomic_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct zone *zone;
	char msg[256];

	(void)w;	/* mm_world's zones */
	for_each_populated_zone(zone)
		if (!f->hit && !highatomic_zone_valid(zone, msg, sizeof(msg)))
			cfail_set(f, "I-HA", where, "%s", msg);
}

static void highatomic_end(struct world *w, struct cfail *f)
{
	highatomic_quiescent(w, "end", f);
}

static const struct checker highatomic_checker = {
	.name = "I-HA", .layer = "pagealloc", .prio = 15,
	.quiescent = highatomic_quiescent, .end = highatomic_end,
};
CHECKER(highatomic_checker);

/* SPDX-License-Identifier: MIT */
/*
 * I-HA, the highatomic reserve's accounting (reference/kernel-mm.md
 * section 2), as Linux 6.6 keeps it:
 *
 *   zone->nr_reserved_highatomic is a multiple of pageblock_nr_pages,
 *   at least pageblock_nr_pages for every MIGRATE_HIGHATOMIC pageblock,
 *   and below 6.6's limit plus one pageblock (it never underflows).
 *
 * Held whenever zone->lock is taken (reserve and unreserve change the
 * count and the pageblock types together under it).  Why "at least" and
 * not "equal": see highatomic.c.
 */
#ifndef MMFUZZ_CHECK_HIGHATOMIC_H
#define MMFUZZ_CHECK_HIGHATOMIC_H

#include <stdbool.h>
#include <stddef.h>

#include "../mm/mm.h"

/* True when I-HA holds for @zone; else false and the reason in @msg.
 * Reads what zone->lock protects and nothing else; reports nothing. */
bool highatomic_zone_valid(struct zone *zone, char *msg, size_t n);

/* Every zone, from any fiber: a violation "I-HA@site".  (Registered as a
 * checker at quiescence and the end; check/pagealloc.c also runs it in
 * zone->lock's validator.) */
void check_highatomic(struct world *w, const char *site);

/*
 * Whether a pageblock was made MIGRATE_HIGHATOMIC in this run.  Until the
 * next reset, I-BUD-3 then holds only below pageblock_order and a zone
 * need not merge back into max-order blocks at the end: a highatomic
 * pageblock does not merge with its buddy, and 6.6 retypes free blocks
 * (unreserve_highatomic_pageblock, a free through a stale pcp migratetype)
 * without merging them.
 */
bool highatomic_reserved_this_run(void);

#endif /* MMFUZZ_CHECK_HIGHATOMIC_H */

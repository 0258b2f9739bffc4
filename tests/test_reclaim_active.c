// SPDX-License-Identifier: MIT
/*
 * nr_pcp_high's reclaim-active branch (6.6): while kswapd's balance_pgdat
 * has the zone ZONE_RECLAIM_ACTIVE, a free keeps at most batch << 2 pages
 * on the pcp; its racy read of pcp->batch is checked (I-READ@nr_pcp_high):
 * the zone's batch unless pcp_batch_high_lock is held.
 *
 *   pcp_high 32, pcp_batch 2, one CPU: 12 order-0 pages allocated, then
 *   freed onto cpu0's pcp with the flag set (high 8) and without (high 32).
 */
#include "mm_world.h"
#include "tap.h"

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 32);
	config_set(cfg, &ck_pcp_batch, 2);
}

/* The most cpu0's pcp held while 12 pages were freed onto it. */
static int fill(struct zone *zone)
{
	static struct page *held[12];
	int i, most = 0;

	for (i = 0; i < 12; i++)
		held[i] = alloc_pages(GFP_KERNEL, 0);
	mm_drain(zone->w);
	for (i = 0; i < 12; i++) {
		__free_pages(held[i], 0);
		most = max(most, zone->per_cpu_pageset[0].count);
	}
	return most;
}

int main(void)
{
	struct world *w;
	struct zone *zone;
	unsigned long bulk;
	int most;

	tap_plan(4);
	w = mm_test_boot(tune);
	zone = zone_by_idx(w, 0);
	if (setjmp(mm_test_jb)) {
		ok(!strcmp(g_violation.signature, "I-READ@nr_pcp_high"),
		   "pcp->batch 3 behind the zone's back: %s (%s)", g_violation.signature,
		   g_violation.msg);
		return tap_done();
	}
	most = fill(zone);
	ok(most == 12 && !test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags),
	   "no reclaim: the pcp holds all 12 (%d)", most);
	mm_drain(w);
	set_bit(ZONE_RECLAIM_ACTIVE, &zone->flags);
	bulk = mm_stat_sum(MM_PCP_BULK_FREE);
	most = fill(zone);
	ok(most == 8 - 1 && mm_stat_sum(MM_PCP_BULK_FREE) > bulk,
	   "ZONE_RECLAIM_ACTIVE: high min(batch << 2, 32) = 8, a bulk free at 8 (most held %d)",
	   most);
	mm_drain(w);
	balance_pgdat(zone->zone_pgdat, 0, zone_idx(zone));
	ok(!test_bit(ZONE_RECLAIM_ACTIVE, &zone->flags), "balance_pgdat clears the flag it set");
	/* a batch nobody set through pcp_batch_high_lock */
	set_bit(ZONE_RECLAIM_ACTIVE, &zone->flags);
	__WRITE_ONCE(zone->per_cpu_pageset[0].batch, 3);
	fill(zone);
	ok(0, "pcp->batch 3 behind the zone's back: no violation");
	return tap_done();
}

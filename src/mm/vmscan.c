// SPDX-License-Identifier: MIT
/*
 * Reclaim as the page allocator sees it (Linux 6.6 mm/vmscan.c): kswapd's
 * balance_pgdat() marks the zones it balances ZONE_RECLAIM_ACTIVE for the
 * length of its pass, and a free to a pcp of such a zone keeps at most
 * batch * 4 pages there (nr_pcp_high), so that what is freed during
 * reclaim reaches the buddy lists.  Only kswapd sets the flag in 6.6;
 * direct reclaim does not.
 *
 * The page allocator's model has no LRU and no kswapd thread: the
 * balance_pgdat operation is one pass of it on the calling task, with
 * its reclaim (kswapd_shrink_node, the priority loop) one point.  The TLB
 * layer's reclaim_page is shrink_folio_list's unmap of one page, and sets
 * no zone flag, as in 6.6.
 */
#include "internal.h"

static int managed_zone(struct zone *zone)
{
	return atomic_long_read(&zone->managed_pages) > 0;
}

/* Page allocator PCP high watermark is lowered if reclaim is active. */
static void update_reclaim_active(pg_data_t *pgdat, int highest_zoneidx, bool active)
{
	int i;
	struct zone *zone;

	for (i = 0; i <= highest_zoneidx; i++) {
		zone = pgdat->node_zones + i;

		if (!managed_zone(zone))
			continue;

		if (active)
			set_bit(ZONE_RECLAIM_ACTIVE, &zone->flags);
		else
			clear_bit(ZONE_RECLAIM_ACTIVE, &zone->flags);
	}
}

static void set_reclaim_active(pg_data_t *pgdat, int highest_zoneidx)
{
	update_reclaim_active(pgdat, highest_zoneidx, true);
}

static void clear_reclaim_active(pg_data_t *pgdat, int highest_zoneidx)
{
	update_reclaim_active(pgdat, highest_zoneidx, false);
}

void balance_pgdat(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	(void)order;
	set_reclaim_active(pgdat, highest_zoneidx);
	/* the priority loop: kswapd_shrink_node() on the eligible zones */
	sched_point("kswapd_shrink_node");
	clear_reclaim_active(pgdat, highest_zoneidx);
}

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
 * its reclaim (kswapd_shrink_node, the priority loop) one point, taken
 * only when pgdat_balanced() finds no eligible zone above its high
 * watermark by zone_watermark_ok_safe (the drift-proof check).  The TLB
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

/*
 * Returns true if there is an eligible zone balanced for the request order
 * and highest_zoneidx (6.6 mm/vmscan.c:pgdat_balanced; no memory tiering,
 * so the mark is the high watermark).  kswapd must not be fooled by the
 * per-CPU drift: zone_watermark_ok_safe.
 */
static bool pgdat_balanced(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	int i;
	unsigned long mark = -1UL;
	struct zone *zone;

	/* Check watermarks bottom-up as lower zones are more likely to meet
	 * watermarks. */
	for (i = 0; i <= highest_zoneidx; i++) {
		zone = pgdat->node_zones + i;

		if (!managed_zone(zone))
			continue;

		mark = high_wmark_pages(zone);
		if (zone_watermark_ok_safe(zone, (unsigned int)order, mark, highest_zoneidx))
			return true;
	}

	/* If a node has no managed zone within highest_zoneidx, it does not
	 * need balancing by definition. */
	if (mark == -1UL)
		return true;

	return false;
}

/*
 * One pass of 6.6's loop: a balanced node goes out at once ("if
 * (!nr_boost_reclaim && balanced) goto out;"; no boosting in the model),
 * an unbalanced one reclaims.
 */
void balance_pgdat(pg_data_t *pgdat, int order, int highest_zoneidx)
{
	set_reclaim_active(pgdat, highest_zoneidx);
	if (!pgdat_balanced(pgdat, order, highest_zoneidx))
		/* the priority loop: kswapd_shrink_node() on the eligible zones */
		sched_point("kswapd_shrink_node");
	clear_reclaim_active(pgdat, highest_zoneidx);
}

// SPDX-License-Identifier: MIT
/*
 * The page allocator's state features (state.h): its state_* hooks
 * (mm/page_alloc_hooks.h) bucketed where its bugs live: free pages against
 * the watermarks, a pcp's count against batch and high at a free and at a
 * refill, the highatomic reserve, a drain's racy read.  Keys 1..5.
 */
#include "state.h"

#include "../kernel/hooks.h"
#include "../mm/internal.h"

#define LOAD(x) STATE_LOAD(x)

static struct state_feature sf_wmark, sf_pcp_free, sf_pcp_refill, sf_highatomic, sf_read;

/*
 * Free pages against each watermark (0: at or below min ... 3: above
 * high), by zone and order-0 or not, with whoever holds zone->lock and a
 * vmstat fold in flight: a reader deciding while an update is under way.
 */
static __sched_notsan void wmark_state(const struct zone *zone, long free, unsigned int order)
{
	unsigned b = 0;
	int i;

	for (i = WMARK_MIN; i <= WMARK_HIGH; i++)
		b += free > (long)LOAD(zone->_watermark[i]);
	state_feature(&sf_wmark, (unsigned long)zone->idx << 5 | b << 3 | (order != 0) << 2 |
		      state_held_by_other(&zone->lock) << 1 |
		      (LOAD(zone->free_fold_inflight) != 0));
}

/*
 * A pcp's count against its batch and high (0: empty, 1: below batch,
 * 2: below high, 3: at high, 4: above it), with high below batch (the
 * boot pageset, a disable's 0) and the free factor.
 */
static unsigned pcp_bucket(int count, int high, int batch)
{
	if (count <= 0)
		return 0;
	if (count < batch)
		return 1;
	if (count < high)
		return 2;
	return count == high ? 3 : 4;
}

static __sched_notsan void pcp_state(const struct per_cpu_pages *pcp, int high, bool refill)
{
	int count = LOAD(pcp->count), batch = LOAD(pcp->batch);

	if (refill)	/* @high is the blocks the refill takes */
		state_feature(&sf_pcp_refill, pcp_bucket(count, LOAD(pcp->high), batch) << 3 |
			      state_cap((unsigned long)(high > 0 ? high : 0), 7));
	else
		state_feature(&sf_pcp_free, pcp_bucket(count, high, batch) << 2 |
			      (high < batch) << 1 | (LOAD(pcp->free_factor) != 0));
}

/* nr_reserved_highatomic in pageblocks, and whether it is at its limit
 * (1% of the zone plus a block: reserve_highatomic_pageblock's) */
static __sched_notsan void highatomic_state(const struct zone *zone)
{
	unsigned long blocks = LOAD(zone->nr_reserved_highatomic) / pageblock_nr_pages;
	unsigned long max = LOAD(zone->managed_pages.counter) / 100 + pageblock_nr_pages;

	state_feature(&sf_highatomic, (unsigned long)zone->idx << 4 | state_cap(blocks, 7) << 1 |
		      (LOAD(zone->nr_reserved_highatomic) >= max));
}

/* A drain's racy read of pcp->count: who holds pcp->lock, a refill in
 * flight, what it read */
static __sched_notsan void read_state(const struct per_cpu_pages *pcp, int site)
{
	state_feature(&sf_read, (unsigned long)site << 3 | state_held_by_other(&pcp->lock) << 2 |
		      (LOAD(pcp->refilling) != 0) << 1 | (LOAD(pcp->count) != 0));
}

/* state_pcp serves two features (pcp count at a free, pcp refill): both
 * attach and detach it, all features are attached and detached together */
static void wmark_attach(void)
{
	pagealloc_hooks.state_watermark = wmark_state;
}

static void wmark_detach(void)
{
	pagealloc_hooks.state_watermark = NULL;
}

static void pcp_attach(void)
{
	pagealloc_hooks.state_pcp = pcp_state;
}

static void pcp_detach(void)
{
	pagealloc_hooks.state_pcp = NULL;
}

static void highatomic_attach(void)
{
	pagealloc_hooks.state_highatomic = highatomic_state;
}

static void highatomic_detach(void)
{
	pagealloc_hooks.state_highatomic = NULL;
}

static void read_attach(void)
{
	pagealloc_hooks.state_read = read_state;
}

static void read_detach(void)
{
	pagealloc_hooks.state_read = NULL;
}

static struct state_feature sf_wmark = {
	.name = "watermarks", .key = 1, .attach = wmark_attach, .detach = wmark_detach,
};
STATE_FEATURE(sf_wmark);
static struct state_feature sf_pcp_free = {
	.name = "pcp count at a free", .key = 2, .attach = pcp_attach, .detach = pcp_detach,
};
STATE_FEATURE(sf_pcp_free);
static struct state_feature sf_pcp_refill = {
	.name = "pcp refill", .key = 3, .attach = pcp_attach, .detach = pcp_detach,
};
STATE_FEATURE(sf_pcp_refill);
static struct state_feature sf_highatomic = {
	.name = "highatomic reserve", .key = 4,
	.attach = highatomic_attach, .detach = highatomic_detach,
};
STATE_FEATURE(sf_highatomic);
static struct state_feature sf_read = {
	.name = "racy drain read", .key = 5, .attach = read_attach, .detach = read_detach,
};
STATE_FEATURE(sf_read);

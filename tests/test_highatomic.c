// SPDX-License-Identifier: MIT
/*
 * The highatomic reserve: a high-order atomic allocation in the slow path
 * reserves its pageblock, 6.6's limit (1% of the zone plus a pageblock),
 * who may use the reserve, the slow path giving it back before the OOM
 * point, the checker I-HA catching a wrong count, and 6.6's over-count
 * when a free block of two highatomic pageblocks is unreserved and then
 * stolen whole.
 *
 * A 256-page zone of 8-page pageblocks (max order 5): min 8, low 10, and
 * a reservation limit of 256/100 + 8 = 10, so two pageblocks at most.
 */
#include "check/highatomic.h"
#include "mm_world.h"
#include "tap.h"

static void pass_through(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 0);		/* pages pass straight through the pcps */
	config_set(cfg, &ck_pcp_batch, 1);
}

static void three_cpus(struct mm_config *cfg)
{
	pass_through(cfg);
	config_set(cfg, &ck_cpus, 3);
}

static struct page *held[300];
static int n;

/* GFP_KERNEL order-0 pages, vmstat folded before each, until one fails:
 * the zone is left at its min watermark, 8 free pages. */
static void fill(struct world *w)
{
	for (n = 0;; n++) {
		mm_fold(w);
		if (!(held[n] = alloc_pages(GFP_KERNEL, 0)))
			break;
	}
}

/* give back the held page at @pfn */
static void free_pfn(unsigned long pfn)
{
	int i;

	for (i = 0; i < n; i++)
		if (held[i] && page_to_pfn(held[i]) == pfn) {
			__free_pages(held[i], 0);
			held[i] = NULL;
			return;
		}
}

static void free_all(void)
{
	while (n)
		if (held[--n])
			__free_pages(held[n], 0);
}

static int ha_pageblocks(struct zone *zone)
{
	unsigned long i, k = 0;

	for (i = 0; i < zone->spanned_pages >> pageblock_order; i++)
		k += zone->pageblock_mt[i] == MIGRATE_HIGHATOMIC;
	return (int)k;
}

/* The signature check_highatomic() reports, or NULL. */
static const char *check_signature(struct world *w)
{
	static jmp_buf jb;
	jmp_buf *saved = mm_test_task.exit_jb;
	const char *sig = NULL;

	violation_reset();
	mm_test_task.exit_jb = &jb;
	if (!setjmp(jb))
		check_highatomic(w, "test");
	else
		sig = g_violation.signature;
	mm_test_task.exit_jb = saved;
	return sig;
}

static bool iha_ok(struct zone *zone)
{
	char msg[256];

	return highatomic_zone_valid(zone, msg, sizeof(msg));
}

int main(void)
{
	struct alloc_context ac = { 0 };
	struct world *w;
	struct zone *z;
	struct page *p, *q;
	unsigned long pfn, base;
	const char *sig;
	char msg[256];

	tap_plan(26);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/*
	 * The zone filled down to its min: 248 pages out, the last
	 * pageblock (248-255) free as one order-3 block.  A GFP_ATOMIC
	 * order-1 allocation fails the fast path (the low watermark), gets
	 * ALLOC_HIGHATOMIC in the slow path, and reserves its pageblock:
	 *
	 *   248 [a a|1 1|2 2 2 2]   a: the page, 1 and 2: free, now on the
	 *                           HIGHATOMIC lists
	 */
	w = mm_test_boot(pass_through);
	z = zone_by_idx(w, 0);
	fill(w);
	ok(n == 248 && mm_is_free_block(248, 3), "filled: 248 pages out, pfn 248-255 free");
	ok(!highatomic_reserved_this_run(), "nothing reserved yet");
	mm_fold(w);
	p = alloc_pages(GFP_ATOMIC, 1);
	pfn = p ? page_to_pfn(p) : 0;
	ok(p && pfn >= 248 && mm_pb_type(248) == MIGRATE_HIGHATOMIC &&
	   z->nr_reserved_highatomic == 8 && mm_stat_sum(MM_HIGHATOMIC_RESERVE) == 1,
	   "GFP_ATOMIC order 1 (pfn %lu) reserves pageblock 248: nr_reserved_highatomic 8", pfn);
	ok(!free_area_empty(&z->free_area[1], MIGRATE_HIGHATOMIC) &&
	   !free_area_empty(&z->free_area[2], MIGRATE_HIGHATOMIC) &&
	   free_area_empty(&z->free_area[2], MIGRATE_UNMOVABLE),
	   "the pageblock's free blocks moved to the HIGHATOMIC lists");
	ok(highatomic_reserved_this_run() && iha_ok(z), "I-HA holds: 8 pages, one pageblock");

	/* The reserve is kept from everyone but high-order atomics. */
	mm_fold(w);
	ok(!alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0),
	   "GFP_KERNEL: 6 free, but the 8 reserved are not counted: no page");
	ok(!alloc_pages(GFP_ATOMIC, 0),
	   "GFP_ATOMIC order 0 passes the watermark but no free list it may use has a page");
	q = alloc_pages(GFP_ATOMIC, 1);
	ok(q && page_to_pfn(q) >= 248 && z->nr_reserved_highatomic == 8,
	   "GFP_ATOMIC order 1: rmqueue_buddy takes pfn %lu from the HIGHATOMIC lists; the "
	   "pageblock is reserved already", q ? page_to_pfn(q) : 0);
	__free_pages(q, 1);
	__free_pages(p, 1);
	ok(mm_is_free_block(248, 3) && !free_area_empty(&z->free_area[3], MIGRATE_HIGHATOMIC),
	   "freed, the pageblock merges back on the HIGHATOMIC list");

	/* 6.6's limit: reserve while under 256/100 + 8 = 10 pages. */
	reserve_highatomic_pageblock(pfn_to_page(0), z);
	ok(z->nr_reserved_highatomic == 16 && mm_pb_type(0) == MIGRATE_HIGHATOMIC,
	   "a second pageblock (8 < 10): 16 reserved");
	reserve_highatomic_pageblock(pfn_to_page(8), z);
	ok(z->nr_reserved_highatomic == 16 && mm_pb_type(8) != MIGRATE_HIGHATOMIC &&
	   ha_pageblocks(z) == 2, "a third is refused (16 >= 10)");
	ok(iha_ok(z), "I-HA holds: 16 pages, two pageblocks");

	/* I-HA catches a count short of its pageblocks. */
	z->nr_reserved_highatomic = 8;
	sig = check_signature(w);
	ok(sig && !strcmp(sig, "I-HA@test"), "a count short of its pageblocks: %s (%s)",
	   sig ? sig : "not caught", g_violation.msg);
	z->nr_reserved_highatomic = 12;
	ok(!highatomic_zone_valid(z, msg, sizeof(msg)) && strstr(msg, "not a multiple"),
	   "a count that is not whole pageblocks: %s", msg);
	z->nr_reserved_highatomic = -8UL;
	ok(!highatomic_zone_valid(z, msg, sizeof(msg)) && strstr(msg, "over the limit"),
	   "an underflow reads as over the limit: %s", msg);
	z->nr_reserved_highatomic = 16;

	/* unreserve: the last pageblock stays unless forced */
	ac.zonelist = &z->zone_pgdat->node_zonelists[ZONELIST_FALLBACK];
	ac.preferred_zoneref = first_zones_zonelist(ac.zonelist, ZONE_NORMAL);
	ac.migratetype = MIGRATE_MOVABLE;
	ac.highest_zoneidx = ZONE_NORMAL;
	ok(unreserve_highatomic_pageblock(&ac, false) && z->nr_reserved_highatomic == 8,
	   "unreserve gives one pageblock back, 8 left");
	ok(!unreserve_highatomic_pageblock(&ac, false) && z->nr_reserved_highatomic == 8,
	   "but not the last one unless forced");
	free_all();
	world_destroy(w);
	w = mm_test_boot(three_cpus);
	ok(!highatomic_reserved_this_run(), "a new world: nothing reserved this run");
	world_destroy(w);

	/*
	 * The slow path gives the reserve back before the OOM point: the
	 * zone at its min with pageblock 248 reserved (6 free pages on its
	 * HIGHATOMIC lists), cpu1 and cpu2 each free 8 pages into their
	 * differentials.  GFP_KERNEL: the counter (6, less the 8 reserved)
	 * refuses, the snapshot (22 - 8) would allow, so it retries 16 times,
	 * then unreserves the pageblock for its own migratetype, and fails.
	 */
	w = mm_test_boot(three_cpus);
	z = zone_by_idx(w, 0);
	fill(w);
	mm_fold(w);
	p = alloc_pages(GFP_ATOMIC, 1);
	mm_fold(w);
	mm_test_task.cpu = 1;
	for (base = 0; base < 8; base++)
		free_pfn(base);
	mm_test_task.cpu = 2;
	for (base = 8; base < 16; base++)
		free_pfn(base);
	mm_test_task.cpu = 0;
	base = mm_stat_sum(MM_RECLAIM_RETRY);
	ok(z->nr_reserved_highatomic == 8 && zone_page_state(z, NR_FREE_PAGES) == 6 &&
	   zone_page_state_snapshot(z, NR_FREE_PAGES) == 22,
	   "reserved 8, counter 6, snapshot 22");
	ok(!alloc_pages(GFP_KERNEL, 0) && mm_stat_sum(MM_RECLAIM_RETRY) - base == 16 &&
	   mm_stat_sum(MM_HIGHATOMIC_UNRESERVE) == 1,
	   "GFP_KERNEL: 16 retries, one unreservation, then no page");
	ok(z->nr_reserved_highatomic == 0 && mm_pb_type(248) == MIGRATE_UNMOVABLE &&
	   free_area_empty(&z->free_area[2], MIGRATE_HIGHATOMIC),
	   "the pageblock is unmovable again, its free pages on the unmovable lists");
	__free_pages(p, 1);
	free_all();
	world_destroy(w);

	/*
	 * 6.6's over-count.  Pageblocks 240 and 248 are buddies; both are
	 * reserved, then wholly freed, and merge into one HIGHATOMIC block:
	 *
	 *   240 [ HA 240-247 | HA 248-255 ]  order 4, on the HIGHATOMIC list
	 *
	 * unreserve takes 8 off the count and retypes the first pageblock
	 * only, moving the whole block to the movable list.  An unmovable
	 * allocation then falls back to it and steal_suitable_fallback()
	 * sees the first pageblock's type and retypes both: the count keeps
	 * 8 pages for a pageblock that is no longer highatomic.
	 */
	w = mm_test_boot(pass_through);
	z = zone_by_idx(w, 0);
	fill(w);
	reserve_highatomic_pageblock(pfn_to_page(240), z);
	reserve_highatomic_pageblock(pfn_to_page(248), z);
	for (pfn = 240; pfn < 248; pfn++)
		free_pfn(pfn);
	ok(z->nr_reserved_highatomic == 16 && mm_is_free_block(240, 4) &&
	   !free_area_empty(&z->free_area[4], MIGRATE_HIGHATOMIC),
	   "two highatomic pageblocks merged: one order-4 block at 240");
	ac.zonelist = &z->zone_pgdat->node_zonelists[ZONELIST_FALLBACK];
	ac.preferred_zoneref = first_zones_zonelist(ac.zonelist, ZONE_NORMAL);
	ac.migratetype = MIGRATE_MOVABLE;
	ok(unreserve_highatomic_pageblock(&ac, true) && z->nr_reserved_highatomic == 8 &&
	   mm_pb_type(240) == MIGRATE_MOVABLE && mm_pb_type(248) == MIGRATE_HIGHATOMIC &&
	   iha_ok(z), "unreserved: 8 left, pageblock 248 still highatomic; I-HA exact");
	mm_fold(w);
	p = alloc_pages(GFP_ATOMIC, 0);
	ok(p && page_to_pfn(p) == 240 && mm_pb_type(248) == MIGRATE_UNMOVABLE,
	   "an unmovable page steals the whole order-4 block: both pageblocks unmovable");
	ok(z->nr_reserved_highatomic == 8 && ha_pageblocks(z) == 0,
	   "6.6 counts 8 reserved pages with no highatomic pageblock left");
	ok(iha_ok(z), "I-HA allows it: at least, not exactly, a pageblock per highatomic pageblock");
	__free_pages(p, 0);
	free_all();
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

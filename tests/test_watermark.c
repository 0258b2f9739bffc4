// SPDX-License-Identifier: MIT
/*
 * The watermark checks: how much of the min reserve each ALLOC_* right
 * opens, the highatomic reserve kept from everyone else, the lowmem
 * reserve a lower zone keeps from allocations that could have gone higher,
 * and zone_watermark_ok_safe() reading the per-CPU drift below
 * percpu_drift_mark.
 */
#include "mm/oracle.h"
#include "mm_world.h"
#include "tap.h"

/* These scenarios hand __zone_watermark_ok made-up free counts and set the
 * counters by hand: the racy-read oracle (I-READ), which compares a read of
 * NR_FREE_PAGES with the free lists, is off for them. */
static struct world *boot(void (*tune)(struct mm_config *))
{
	struct world *w = mm_test_boot(tune);

	pagealloc_hooks.read_watermark = NULL;
	return w;
}

static void big_zone(struct mm_config *cfg)
{
	config_set(cfg, &ck_zone_pages, 1024);		/* min 32, low 40, high 48 */
	config_set(cfg, &ck_max_order, 5);
	config_set(cfg, &ck_pageblock_order, 3);
}

static void two_zones(struct mm_config *cfg)
{
	config_set(cfg, &ck_zones, 2);		/* min 8, low 10, high 12 each */
	config_set(cfg, &ck_pcp_high, 0);		/* pages pass straight through the pcps */
	config_set(cfg, &ck_pcp_batch, 1);
}

static void two_cpus(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, 2);			/* threshold 8: drift up to 16 */
	config_set(cfg, &ck_pcp_high, 0);
	config_set(cfg, &ck_pcp_batch, 1);
}

/* Order-0 GFP_KERNEL allocations, vmstat folded before each, until one fails. */
static int alloc_all(struct world *w, struct page **held, int max)
{
	int n = 0;

	for (;;) {
		mm_fold(w);
		if (n == max || !(held[n] = alloc_pages(GFP_KERNEL, 0)))
			return n;
		n++;
	}
}

int main(void)
{
	static struct page *held[1024];
	struct world *w;
	struct zone *z;
	long counter, snap;
	int n, i;

	tap_plan(19);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/*
	 * The min reserve of a 1024-page zone is 32 pages.  An order-0
	 * allocation passes when more than (what is left of) it is free:
	 *
	 *   no rights                       32
	 *   ALLOC_MIN_RESERVE (__GFP_HIGH)  16      half of it
	 *   ... | ALLOC_NON_BLOCK (ATOMIC)  12      and a quarter of the rest
	 *   ... | ALLOC_OOM                  6      and half of that
	 *   ALLOC_NON_BLOCK alone (NOWAIT)  32      no access to the reserve
	 */
	w = boot(big_zone);
	z = zone_by_idx(w, 0);
	ok(min_wmark_pages(z) == 32, "a 1024-page zone, min watermark 32");
	ok(__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, 0, 33) &&
	   !__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, 0, 32),
	   "no rights: 33 free passes, 32 does not");
	ok(__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_MIN_RESERVE, 17) &&
	   !__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_MIN_RESERVE, 16),
	   "ALLOC_MIN_RESERVE: the line is at 16");
	ok(__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK, 13) &&
	   !__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK, 12),
	   "GFP_ATOMIC's ALLOC_MIN_RESERVE|ALLOC_NON_BLOCK: at 12 (62.5%% of the reserve open)");
	ok(__zone_watermark_ok(z, 0, 32, ZONE_NORMAL,
			       ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK | ALLOC_OOM, 7) &&
	   !__zone_watermark_ok(z, 0, 32, ZONE_NORMAL,
				ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK | ALLOC_OOM, 6),
	   "an OOM victim's GFP_ATOMIC: at 6");
	ok(!__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_NON_BLOCK, 32) &&
	   __zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_NON_BLOCK, 33),
	   "GFP_NOWAIT's ALLOC_NON_BLOCK alone opens nothing");
	ok(!__zone_watermark_ok(z, 2, 32, ZONE_NORMAL, 0, 35) &&
	   __zone_watermark_ok(z, 2, 32, ZONE_NORMAL, 0, 36),
	   "order 2 counts 3 of its own pages as unusable: 36 free passes, 35 does not");

	/* A highatomic reserve is kept from those without rights to reserves. */
	WRITE_ONCE(z->nr_reserved_highatomic, 8);
	ok(!__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, 0, 40) &&
	   __zone_watermark_ok(z, 0, 32, ZONE_NORMAL, 0, 41),
	   "8 pages reserved highatomic are not free for a plain allocation: 41 passes, 40 not");
	ok(__zone_watermark_ok(z, 0, 32, ZONE_NORMAL, ALLOC_MIN_RESERVE, 17),
	   "an allocation with rights to reserves counts them: ALLOC_MIN_RESERVE at 17 passes");
	WRITE_ONCE(z->nr_reserved_highatomic, 0);
	world_destroy(w);

	/*
	 * The lowmem reserve: DMA32 keeps, from allocations that could use
	 * Normal, Normal's managed pages / lowmem_reserve_ratio[DMA32].
	 *
	 *   DMA32  [ 256 pages: keeps min 8 + 256/8 = 32 ]
	 *   Normal [ 256 pages: keeps min 8 ]
	 *
	 * GFP_KERNEL order-0 allocations until one fails take Normal down
	 * to its min and DMA32 down to min + reserve.
	 */
	sysctl_lowmem_reserve_ratio[ZONE_DMA32] = 8;
	w = boot(two_zones);
	ok(zone_by_idx(w, 0)->lowmem_reserve[ZONE_NORMAL] == 32 &&
	   zone_by_idx(w, 1)->lowmem_reserve[ZONE_NORMAL] == 0,
	   "ratio 8: DMA32 reserves 32 pages against Normal's allocations, Normal none");
	n = alloc_all(w, held, 1024);
	ok(zone_page_state_snapshot(zone_by_idx(w, 1), NR_FREE_PAGES) == 8 &&
	   zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 40,
	   "%d pages: Normal left at its min (8), DMA32 at min + reserve (40)", n);
	for (i = 0; i < n; i++)
		__free_pages(held[i], 0);
	world_destroy(w);
	sysctl_lowmem_reserve_ratio[ZONE_DMA32] = 256;
	w = boot(two_zones);
	ok(zone_by_idx(w, 0)->lowmem_reserve[ZONE_NORMAL] == 1,
	   "the kernel's ratio 256: a 256-page Normal leaves DMA32 a reserve of 1 page");
	n = alloc_all(w, held, 1024);
	ok(zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 9,
	   "%d pages: DMA32 left at min + 1 (9)", n);
	for (i = 0; i < n; i++)
		__free_pages(held[i], 0);
	world_destroy(w);

	/*
	 * zone_watermark_ok_safe: 2 CPUs with a vmstat threshold of 8 may
	 * hide 16 pages, more than low - min (2), so percpu_drift_mark is
	 * high + 16 = 28.  Below it the safe check folds the per-CPU
	 * differentials in; the plain check reads the stale counter.
	 */
	w = boot(two_cpus);
	z = zone_by_idx(w, 0);
	ok(z->percpu_drift_mark == 28, "2 CPUs, threshold 8: percpu_drift_mark is high + 16 = 28");
	n = 0;
	while (zone_page_state_snapshot(z, NR_FREE_PAGES) > 27)
		held[n++] = alloc_pages(GFP_KERNEL, 0);
	mm_fold(w);
	/* cpu1 frees 7 pages: +7 in its differential, the counter unchanged */
	mm_test_task.cpu = 1;
	for (i = 0; i < 7; i++)
		__free_pages(held[--n], 0);
	mm_test_task.cpu = 0;
	counter = (long)zone_page_state(z, NR_FREE_PAGES);
	snap = (long)zone_page_state_snapshot(z, NR_FREE_PAGES);
	ok(counter == 27 && snap == 34 && z->per_cpu_zonestats[1].vm_stat_diff[NR_FREE_PAGES] == 7,
	   "below the drift mark: counter %ld, 7 more in cpu1's differential (snapshot %ld)",
	   counter, snap);
	ok(!zone_watermark_ok(z, 0, 30, ZONE_NORMAL, 0) && zone_watermark_ok_safe(z, 0, 30, ZONE_NORMAL),
	   "mark 30: zone_watermark_ok refuses on the counter, zone_watermark_ok_safe passes on the snapshot");
	/* above the drift mark the safe check trusts the counter too */
	mm_fold(w);
	held[n++] = alloc_pages(GFP_KERNEL, 0);	/* fold, then 34 -> 33 */
	mm_fold(w);
	mm_test_task.cpu = 1;
	for (i = 0; i < 7; i++)
		__free_pages(held[--n], 0);
	mm_test_task.cpu = 0;
	counter = (long)zone_page_state(z, NR_FREE_PAGES);
	ok(counter == 33 && zone_page_state_snapshot(z, NR_FREE_PAGES) == 40,
	   "above the drift mark: counter %ld, snapshot 40", counter);
	ok(!zone_watermark_ok_safe(z, 0, 35, ZONE_NORMAL),
	   "mark 35: zone_watermark_ok_safe reads the counter above the drift mark and refuses");
	mm_fold(w);
	ok(zone_watermark_ok(z, 0, 35, ZONE_NORMAL, 0), "after a fold the counter says 40: passes");
	while (n)
		__free_pages(held[--n], 0);
	world_drain(w);
	check_final(w);
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * drain_pages_zone as 6.6.45 has it (drain: locked_count): the count read
 * under pcp->lock, at most pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX pages
 * freed per hold of the lock, the lock dropped and retaken until the pcp
 * is empty; 6.6.0's (racy_count) frees everything in one hold.
 *
 *   pcp_high 64, pcp_batch 2: 24 order-0 pages freed onto cpu0's pcp
 *   (plus what the refills left there), then drain_local_pages().
 */
#include "mm_world.h"
#include "tap.h"

static long scale_max, drain_kind;

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 64);
	config_set(cfg, &ck_pcp_batch, 2);
	config_set(cfg, &ck_drain, drain_kind);
	config_set(cfg, &ck_pcp_batch_scale_max, scale_max);
}

/* The pcp->lock holds a drain of a pcp holding @count pages takes. */
static void drain_once(long kind, long s, const char *what)
{
	static struct page *held[24];
	unsigned long before;
	struct world *w;
	int i, count, want;

	drain_kind = kind;
	scale_max = s;
	w = mm_test_boot(tune);
	if (setjmp(mm_test_jb)) {
		ok(0, "%s: violation %s: %s", what, g_violation.signature, g_violation.msg);
		return;
	}
	for (i = 0; i < 24; i++)
		held[i] = alloc_pages(GFP_KERNEL, 0);
	for (i = 0; i < 24; i++)
		__free_pages(held[i], 0);
	count = zone_by_idx(w, 0)->per_cpu_pageset[0].count;
	want = kind == DRAIN_RACY_COUNT ? 1 : (count + (2 << s) - 1) / (2 << s);
	before = mm_stat_sum(MM_PCP_DRAIN);
	preempt_disable();
	drain_local_pages(zone_by_idx(w, 0));
	preempt_enable();
	ok(count >= 24 && (long)(mm_stat_sum(MM_PCP_DRAIN) - before) == want &&
	   zone_by_idx(w, 0)->per_cpu_pageset[0].count == 0,
	   "%s: %d pages drained in %lu holds of pcp->lock (want %d), the pcp empty", what,
	   count, mm_stat_sum(MM_PCP_DRAIN) - before, want);
	world_drain(w);
	check_final(w);
	world_destroy(w);
	current_task = NULL;
}

int main(void)
{
	const struct config_key *k = &ck_pcp_batch_scale_max;

	tap_plan(5);
	ok(k->lo == 0 && k->hi == 6 && k->def == 5,
	   "pcp_batch_scale_max: Kconfig's range 0..6, default 5");
	drain_once(DRAIN_RACY_COUNT, 5, "6.6.0 (racy_count)");
	drain_once(DRAIN_LOCKED_COUNT, 5, "6.6.45, scale max 5: batch << 5 = 64 > count");
	drain_once(DRAIN_LOCKED_COUNT, 0, "6.6.45, scale max 0: 2 pages a hold");
	drain_once(DRAIN_LOCKED_COUNT, 2, "6.6.45, scale max 2: 8 pages a hold");
	return tap_done();
}

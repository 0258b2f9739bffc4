// SPDX-License-Identifier: MIT
/*
 * 6.6's batch free, the TLB gather's: release_pages() drops a reference on
 * each page and frees those whose last one went as one list;
 * free_unref_page_list() holds pcp->lock for a run of up to
 * SWAP_CLUSTER_MAX pages of one zone, then drops and retakes it.
 *
 *   pcp_high 256 (no bulk free on the way), pcp_batch 4: 40 order-0 pages,
 *   8 of them with a second reference, released in one call; then the 8.
 */
#include "mm_world.h"
#include "tap.h"

#define NR 40

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 256);
	config_set(cfg, &ck_pcp_batch, 4);
}

int main(void)
{
	static struct page *pages[NR];
	struct per_cpu_pages *pcp;
	unsigned long holds;
	struct world *w;
	int i, count;

	tap_plan(4);
	lock_stat_enabled = true;
	w = mm_test_boot(tune);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	pcp = &zone_by_idx(w, 0)->per_cpu_pageset[0];
	for (i = 0; i < NR; i++)
		pages[i] = alloc_pages(GFP_KERNEL, 0);
	for (i = 0; i < 8; i++)
		get_page(pages[i]);
	count = pcp->count;
	holds = pcp->lock.st.acquired;
	release_pages(pages, NR);
	ok(pcp->count == count + NR - 8,
	   "release_pages: the %d pages whose last reference went are on the pcp (%d -> %d)",
	   NR - 8, count, pcp->count);
	ok(pcp->lock.st.acquired - holds == 1,
	   "free_unref_page_list: %d pages (SWAP_CLUSTER_MAX) in one hold of pcp->lock (%lu)",
	   NR - 8, pcp->lock.st.acquired - holds);
	for (i = 0; i < 8; i++)
		pages[i + 8] = alloc_pages(GFP_KERNEL, 0);
	count = pcp->count;
	holds = pcp->lock.st.acquired;
	release_pages(pages, 16);
	ok(pcp->count == count + 16, "the 8 held and 8 new pages freed (%d -> %d)", count,
	   pcp->count);
	for (i = 0; i < NR; i++)
		pages[i] = alloc_pages(GFP_KERNEL, 0);
	holds = pcp->lock.st.acquired;
	release_pages(pages, NR);
	ok(pcp->lock.st.acquired - holds == 2,
	   "%d pages: the lock dropped and retaken after SWAP_CLUSTER_MAX (%lu holds)", NR,
	   pcp->lock.st.acquired - holds);
	world_drain(w);
	check_final(w);
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

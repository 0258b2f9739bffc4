// SPDX-License-Identifier: MIT
/*
 * Nodes: a two-node world boots with the kernel's topology (NODE_DATA,
 * the iterators, page_to_nid, cpu_to_node), its zonelists are
 * build_zonelists' (local node first, zones high to low, then the other
 * node), an allocation takes the local node until its watermark stops it
 * and then the remote one, and every checker passes over both nodes, and
 * catches a counter broken on the second; a node's struct pages past its
 * first_deferred_pfn stay uninitialised, unused and owned.
 */
#include <errno.h>
#include <limits.h>

#include "mm_world.h"
#include "tap.h"
#if MMFUZZ_ASAN
#include <sanitizer/asan_interface.h>
#endif

/*
 * Two CPUs, two nodes, one zone each, 64 pages, one pageblock per order-3
 * block; pages pass straight through the pcps.
 *
 *   node 0  Normal   0 [ 8 blocks of 8 ]  63    cpu0
 *   node 1  Normal  64 [ 8 blocks of 8 ] 127    cpu1
 */
static void two_nodes(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, 2);
	config_set(cfg, &ck_nodes, 2);
	config_set(cfg, &ck_zone_pages, 64);		/* min 2, low 2, high 3 */
	config_set(cfg, &ck_max_order, 3);
	config_set(cfg, &ck_pageblock_order, 3);
	config_set(cfg, &ck_pcp_high, 0);
	config_set(cfg, &ck_pcp_batch, 1);
}

/* node 0: DMA32 0-63, Normal 64-127; node 1: Normal 128-191 */
static void two_nodes_two_zones(struct mm_config *cfg)
{
	two_nodes(cfg);
	config_set(cfg, &ck_zones, 2);
}

/* The zonelist of @nid as "zone-idx zone-idx ...". */
static const char *zonelist_str(int nid)
{
	static char buf[64];
	struct zoneref *z;
	size_t len = 0;

	buf[0] = 0;
	for (z = NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs; z->zone; z++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d", len ? " " : "",
					z->zone->idx);
	return buf;
}

#define is_str(a, b, name) ({						\
	const char *__a = (a), *__b = (b);					\
	int __r = ok(!strcmp(__a, __b), "%s: %s", name, __a);			\
	if (!__r)								\
		diag("  expected %s", __b);					\
	__r; })

/* Order-3 movable blocks from @cpu, folded first, until none comes; the
 * node of each in @nid[]. */
static int take_blocks(struct world *w, int cpu, struct page **held, int *nid, int max)
{
	int n = 0;

	mm_test_task.cpu = cpu;
	while (n < max) {
		mm_fold(w);
		held[n] = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, 3);
		if (!held[n])
			break;
		nid[n] = page_to_nid(held[n]);
		n++;
	}
	return n;
}

/* The first index from which every block is on @remote, or -1 if one on
 * @remote comes before one that is not. */
static int switch_point(const int *nid, int n, int remote)
{
	int i, first = n;

	for (i = 0; i < n; i++)
		if (nid[i] == remote && first == n)
			first = i;
		else if (nid[i] != remote && first < n)
			return -1;
	return first;
}

static void final_check(void *w)
{
	check_final(w);
}

/* check_final()'s signature, or NULL: a violation comes back here. */
static const char *final_signature(struct world *w)
{
	return mm_violation_of(final_check, w);
}

int main(void)
{
	static struct page *held[32];
	struct pglist_data *pgdat;
	struct zone *zone;
	struct world *w;
	int nid[32], n, i, k, pgdats = 0, zones = 0;
	const char *sig;
	bool idx_ok = true;

	tap_plan(24);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	w = mm_test_boot(two_nodes);
	ok(w && nr_online_nodes == 2 && pa_world(w)->nr_pages == 128, "two nodes, 128 pages");
	for_each_online_pgdat(pgdat)
		pgdats++;
	for_each_populated_zone(zone)
		idx_ok &= zone->idx == zones++;
	ok(pgdats == 2 && zones == 2 && idx_ok,
	   "for_each_online_pgdat: 2 nodes; for_each_populated_zone: 2 zones, in idx order");
	ok(NODE_DATA(0)->node_start_pfn == 0 && NODE_DATA(0)->node_spanned_pages == 64 &&
	   NODE_DATA(1)->node_start_pfn == 64 && NODE_DATA(1)->node_spanned_pages == 64 &&
	   NODE_DATA(0)->first_deferred_pfn == ULONG_MAX &&
	   NODE_DATA(1)->first_deferred_pfn == ULONG_MAX,
	   "node spans 0-63 and 64-127, nothing deferred");
	ok(page_to_nid(pfn_to_page(63)) == 0 && page_to_nid(pfn_to_page(64)) == 1 &&
	   page_pgdat(pfn_to_page(127)) == NODE_DATA(1) &&
	   page_zone(pfn_to_page(64)) == &NODE_DATA(1)->node_zones[ZONE_NORMAL] &&
	   zone_to_nid(zone_by_idx(w, 1)) == 1 && zone_idx(zone_by_idx(w, 1)) == ZONE_NORMAL &&
	   !populated_zone(&NODE_DATA(1)->node_zones[ZONE_DMA32]),
	   "page_to_nid, page_pgdat, page_zone by range; node 1's DMA32 not populated");
	ok(cpu_to_node(0) == 0 && cpu_to_node(1) == 1 &&
	   cpumask_test_cpu(1, cpumask_of_node(1)) && !cpumask_test_cpu(0, cpumask_of_node(1)),
	   "cpu0 on node 0, cpu1 on node 1 (cpumask_of_node)");
	is_str(zonelist_str(0), "0 1", "node 0's zonelist: its Normal, then node 1's");
	is_str(zonelist_str(1), "1 0", "node 1's zonelist: its Normal, then node 0's");

	/* cpu0 takes node 0 down to its watermark, then node 1 */
	n = take_blocks(w, 0, held, nid, 32);
	k = switch_point(nid, n, 1);
	ok(n == 14 && k == 7,
	   "from cpu0: %d blocks, node 0's first (%d of them), then node 1's", n, k);
	ok(zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES) == 8 &&
	   zone_page_state_snapshot(zone_by_idx(w, 1), NR_FREE_PAGES) == 8,
	   "each node keeps its last block: order 3 would breach the low watermark");
	for (i = n - 1; i >= 0; i--)
		__free_pages(held[i], 3);
	/* and cpu1 node 1's, then node 0's */
	n = take_blocks(w, 1, held, nid, 32);
	k = switch_point(nid, n, 0);
	ok(n == 14 && k == 7, "from cpu1: %d blocks, node 1's first (%d), then node 0's", n, k);
	for (i = n - 1; i >= 0; i--)
		__free_pages(held[i], 3);
	mm_test_task.cpu = 0;
	world_drain(w);
	sig = final_signature(w);
	ok(!sig, "every checker passes on both nodes (%s)", sig ? g_violation.msg : "clean");

	/* a free page counted twice on node 1 only: I-BUD-4 names its zone */
	atomic_long_add(1, &zone_by_idx(w, 1)->vm_stat[NR_FREE_PAGES]);
	sig = final_signature(w);
	ok(sig && !strcmp(sig, "I-BUD-4@end") && strstr(g_violation.msg, "Node 1 Normal"),
	   "a counter broken on node 1 is caught: %s (%s)", sig ? sig : "not caught",
	   g_violation.msg);
	atomic_long_add(-1, &zone_by_idx(w, 1)->vm_stat[NR_FREE_PAGES]);

	/*
	 * Deferred struct pages: node 1's from pfn 96 left to a layer above.
	 *   node 1  Normal  64 [ 4 blocks, free ][ 96-127 uninitialised ] 127
	 */
	ok(pagealloc_defer_memmap(w, 1, 97) == -EINVAL &&
	   pagealloc_defer_memmap(w, 1, 32) == -EINVAL &&
	   pagealloc_defer_memmap(w, 2, 96) == -EINVAL && pagealloc_defer_memmap(w, 1, 96) == 0,
	   "first_deferred_pfn: a max-order boundary inside the node, or refused");
	world_reset(w);
	shadow_run_begin(w, 1);
	check_run_begin(w);
	zone = zone_by_idx(w, 1);
	ok(NODE_DATA(1)->first_deferred_pfn == 96 && NODE_DATA(0)->first_deferred_pfn == ULONG_MAX &&
	   zone_managed_pages(zone) == 32 && zone_page_state_snapshot(zone, NR_FREE_PAGES) == 32 &&
	   mm_nr_free(w, 1, 3) == 4 && mm_nr_free(w, 0, 3) == 8,
	   "booted with node 1 deferred at 96: 32 pages managed and free there, node 0 whole");
#if !MMFUZZ_ASAN
	ok(pfn_to_page(100)->flags == ~0UL && pfn_to_page(127)->private == ~0UL,
	   "struct pages past it hold the poison pattern");
#else
	ok(__asan_address_is_poisoned(pfn_to_page(100)) &&
	   __asan_address_is_poisoned(&pfn_to_page(127)->memcg_data) &&
	   !__asan_address_is_poisoned(&pfn_to_page(95)->memcg_data),
	   "struct pages past it are poisoned for ASan, those before are not");
#endif
	n = take_blocks(w, 1, held, nid, 32);
	for (i = 0, k = 0; i < n; i++)
		k += page_to_pfn(held[i]) >= 96;
	ok(n == 10 && switch_point(nid, n, 0) == 3 && !k,
	   "from cpu1: node 1's 3 initialised blocks, then node 0's 7; none past 96 (%d blocks)", n);
	for (i = n - 1; i >= 0; i--)
		__free_pages(held[i], 3);
	mm_test_task.cpu = 0;
	world_drain(w);
	sig = final_signature(w);
	ok(!sig, "every checker passes, the uninitialised pfns owned (%s)",
	   sig ? g_violation.msg : "clean");
	ok(pagealloc_defer_memmap(w, 1, ULONG_MAX) == 0, "deferral off again");
	world_reset(w);
	shadow_run_begin(w, 1);
	check_run_begin(w);
	ok(NODE_DATA(1)->first_deferred_pfn == ULONG_MAX && zone_managed_pages(zone) == 64 &&
	   mm_nr_free(w, 1, 3) == 8 && page_ref_count(pfn_to_page(100)) == 0 &&
	   !pfn_to_page(100)->flags && (sig = final_signature(w)) == NULL,
	   "the next boot initialises node 1 whole again, and the checkers pass");
	world_destroy(w);

	/*
	 * Two zones: node 0 has DMA32 below its Normal, node 1 a Normal.
	 *   node 0 zonelist: N0 Normal (1), N0 DMA32 (0), N1 Normal (2)
	 *   node 1 zonelist: N1 Normal (2), N0 Normal (1), N0 DMA32 (0)
	 */
	w = mm_test_boot(two_nodes_two_zones);
	ok(w && pa_world(w)->nr_pages == 192 && pa_world(w)->nr_zones == 3 &&
	   NODE_DATA(1)->node_start_pfn == 128 &&
	   NODE_DATA(0)->nr_zones == 2 && NODE_DATA(1)->nr_zones == 1,
	   "two zones: node 0 has DMA32 and Normal, node 1 a Normal: 192 pages");
	is_str(zonelist_str(0), "1 0 2", "node 0's zonelist: Normal, DMA32, then node 1's Normal");
	is_str(zonelist_str(1), "2 1 0", "node 1's zonelist: its Normal, then node 0's high to low");
	/* ALLOC_NOFRAGMENT only where DMA32 is populated below Normal (6.6) */
	ok(alloc_flags_nofragment(zone_by_idx(w, 1), 0) == ALLOC_NOFRAGMENT &&
	   alloc_flags_nofragment(zone_by_idx(w, 2), 0) == 0,
	   "ALLOC_NOFRAGMENT for node 0's Normal, not for node 1's (no DMA32 below it)");
	mm_test_task.cpu = 1;
	n = take_blocks(w, 1, held, nid, 32);
	mm_test_task.cpu = 0;
	ok(n == 21 && switch_point(nid, n, 0) == 7 &&
	   page_zone(held[7]) == zone_by_idx(w, 1) && page_zone(held[14]) == zone_by_idx(w, 0),
	   "from cpu1: node 1's 7 blocks, then node 0's Normal, then its DMA32 (%d blocks)", n);
	for (i = n - 1; i >= 0; i--)
		__free_pages(held[i], 3);
	world_drain(w);
	check_final(w);
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

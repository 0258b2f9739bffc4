// SPDX-License-Identifier: MIT
/*
 * The page allocator's layer of the world (Linux's mm/mm_init.c in small):
 * its config keys, the memmap and "physical" memory, the zones with their
 * free areas, pcps and counters, the state right after boot, and the reset
 * back to it.
 *
 * After boot every zone is a run of free max-order blocks, each head on the
 * MOVABLE free list in pfn order (around memblock's holes and reserved
 * ranges, smaller aligned blocks: memblock.h; those pages PageReserved with
 * a reference), every pageblock MOVABLE, all memory
 * poisoned, every struct page as __init_single_page() and
 * __free_pages_core() leave it (no reference, _mapcount -1).  A block's struct pages leave that state only after the block
 * was taken off a free list, moved, or had its pageblock retyped; those
 * paths mark it dirty (world_touch_pfn), and the reset rewrites only dirty
 * blocks, so an execution pays for the memory it touched, not for the size
 * of the memmap.
 */
#include "internal.h"
#include "memmap_pool.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- config keys (binary places 1..14; fixed forever) ---- */

static const char *const variant_names[NR_PCP_BULK_VARIANTS] = {
	[PCP_BULK_SINGLE_PASS] = "single_pass",
	[PCP_BULK_PICK_OUTSIDE] = "pick_outside",
	[PCP_BULK_LOCKED_RR] = "locked_rr",
};

static void range_pb_order(const struct mm_config *c, long *lo, long *hi, long *unit)
{
	*hi = config_get(c, &ck_max_order);
}

/*
 * Whole max-order blocks, at most 1024 of them and 65536 pages: the
 * checkers walk every free block at every quiescence, and a zone of tens of
 * thousands of order-1 blocks would only make executions slow (the stress
 * machine: 32 blocks of order 10).
 */
#define ZONE_MAX_BLOCKS 1024
bool config_big_zones;
static void range_zone_pages(const struct mm_config *c, long *lo, long *hi, long *unit)
{
	*unit = 1L << config_get(c, &ck_max_order);
	*lo = *unit;
	/* a stress workload that boots a machine of realistic size (config.h) */
	if (config_big_zones)
		*hi = ZONE_MAX_BLOCKS * *unit;
	*hi = min(*hi, ZONE_MAX_BLOCKS * *unit) / *unit * *unit;
}

struct config_key ck_zones = {
	.name = "zones", .layer = "pagealloc",
	.desc = "zones (DMA32 and Normal when 2; allocations prefer Normal)",
	.lo = 1, .hi = MODEL_MAX_ZONES, .def = 1, .bin_off = 1, .bin_len = 1, .shrink = true,
};
struct config_key ck_max_order = {
	.name = "max_order", .layer = "pagealloc",
	.desc = "largest buddy order (6.4+ MAX_ORDER: the largest order, inclusive)",
	.lo = 1, .hi = MODEL_MAX_ORDER, .def = 5, .bin_off = 2, .bin_len = 1,
};
struct config_key ck_pageblock_order = {
	.name = "pageblock_order", .layer = "pagealloc",
	.desc = "pageblock_order, at most max_order",
	.lo = 1, .hi = MODEL_MAX_ORDER, .def = 3, .bin_off = 3, .bin_len = 1,
	.range = range_pb_order,
};
struct config_key ck_zone_pages = {
	.name = "zone_pages", .layer = "pagealloc",
	.desc = "pages per zone: whole max-order blocks, at most 1024 of them and 65536 pages",
	.lo = 2, .hi = 65536, .def = 256, .fuzz_n = 64, .bin_off = 4, .bin_len = 3,
	.shrink = true,
	.range = range_zone_pages,
};
struct config_key ck_pcp_high = {
	.name = "pcp_high", .layer = "pagealloc",
	.desc = "pcp->high of every CPU at boot",
	.lo = 0, .hi = 4096, .def = 12, .fuzz_n = 256, .bin_off = 7, .bin_len = 3, .tune = true,
};
struct config_key ck_pcp_batch = {
	.name = "pcp_batch", .layer = "pagealloc",
	.desc = "pcp->batch of every CPU at boot",
	.lo = 1, .hi = 1024, .def = 4, .fuzz_n = 64, .bin_off = 10, .bin_len = 3, .tune = true,
};
struct config_key ck_stat_threshold = {
	.name = "stat_threshold", .layer = "pagealloc",
	.desc = "vmstat per-CPU threshold",
	.lo = 1, .hi = 125, .def = 8, .bin_off = 13, .bin_len = 1, .tune = true,
	.shrink = true,	/* a lower threshold folds sooner: fewer ops reach a fold */
};
struct config_key ck_variant = {
	.name = "variant", .layer = "pagealloc",
	.desc = "free_pcppages_bulk: single_pass (6.6), pick_outside (4.17), locked_rr (4.16)",
	.lo = 0, .hi = NR_PCP_BULK_VARIANTS - 1, .def = PCP_BULK_SINGLE_PASS,
	.names = variant_names, .bin_off = 14, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_zones);
CONFIG_KEY(ck_max_order);
CONFIG_KEY(ck_pageblock_order);
CONFIG_KEY(ck_zone_pages);
CONFIG_KEY(ck_pcp_high);
CONFIG_KEY(ck_pcp_batch);
CONFIG_KEY(ck_stat_threshold);
CONFIG_KEY(ck_variant);

static const char *const drain_variant_names[NR_DRAIN_VARIANTS] = {
	[DRAIN_RACY_COUNT] = "racy_count",
	[DRAIN_LOCKED_COUNT] = "locked_count",
};
struct config_key ck_drain = {
	.name = "drain", .layer = "pagealloc",
	.desc = "drain_pages_zone: racy_count (6.6: pcp->count read before the lock) or "
		"locked_count (the later fix: read under it)",
	.lo = 0, .hi = NR_DRAIN_VARIANTS - 1, .def = DRAIN_RACY_COUNT,
	.names = drain_variant_names, .bin_off = 15, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_drain);
/* mm/Kconfig PCP_BATCH_SCALE_MAX (6.6.45): int, range 0 6, default 5 */
struct config_key ck_pcp_batch_scale_max = {
	.name = "pcp_batch_scale_max", .layer = "pagealloc",
	.desc = "CONFIG_PCP_BATCH_SCALE_MAX: drain_pages_zone (drain: locked_count) frees "
		"at most batch << this many pages per pcp->lock hold",
	.lo = 0, .hi = 6, .def = 5, .bin_off = 26, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_pcp_batch_scale_max);

/* at most one node per CPU: cpu_to_node() spreads the CPUs in runs */
static void range_nodes(const struct mm_config *c, long *lo, long *hi, long *unit)
{
	*hi = min(*hi, config_get(c, &ck_cpus));
}

struct config_key ck_nodes = {
	.name = "nodes", .layer = "pagealloc",
	.desc = "nodes (pglist_data; 1: the non-NUMA kernel's contig_page_data); at most cpus, "
		"CPUs spread in runs (cpu c on node c * nodes / cpus); node 0 has the zones, "
		"the others Normal only",
	.lo = 1, .hi = MAX_NUMNODES, .def = 1, .bin_off = 25, .bin_len = 1, .shrink = true,
	.range = range_nodes,
	.range_why = "at most one node per CPU: cpus >= nodes",
};
CONFIG_KEY(ck_nodes);

const char *pcp_bulk_variant_name(int v)
{
	return v >= 0 && v < NR_PCP_BULK_VARIANTS ? variant_names[v] : "?";
}

int pcp_bulk_variant_lookup(const char *name)
{
	return (int)config_enum_lookup(&ck_variant, name);
}

DEFINE_HOOKS(pagealloc);

/* ---- dirty blocks ---- */

void world_touch_pfn(unsigned long pfn)
{
	struct pagealloc_world *pa = mm_pa;
	unsigned long block = pfn >> pa->max_order;

	/* the block's zone->lock is held; the list is shared by the zones */
	if (!pa->dirty[block]) {
		pa->dirty[block] = 1;
		pa->dirty_list[__atomic_fetch_add(&pa->nr_dirty, 1, __ATOMIC_RELAXED)] = block;
	}
}

/* ---- boot ---- */

/*
 * A struct page as memmap_init_range() leaves it: zeroed, one reference
 * (not free yet), not mapped (page_type -1, no type), its lru empty.  The
 * model's zone and node live in the memmap's layout, not in page->flags.
 */
void __init_single_page(struct page *page, unsigned long pfn, unsigned long zone, int nid)
{
	(void)pfn;
	(void)zone;
	(void)nid;
	memset(page, 0, sizeof(*page));
	init_page_count(page);
	page_mapcount_reset(page);
	INIT_LIST_HEAD(&page->lru);
}

/*
 * The boot state of @nr_pages struct pages from @start_pfn: each as
 * __init_single_page() leaves it, then as __free_pages_core() hands it to
 * the buddy allocator (no reference), before zone_boot_free_lists() puts
 * the max-order heads on the free lists.
 */
void memmap_init_boot(struct world *w, unsigned long start_pfn, unsigned long nr_pages)
{
	struct pagealloc_world *pa = pa_world(w);
	const struct memblock *mb = &pa->memblock;
	/* no hole and no reserved page in the span's zone pfns: none to look
	 * up (a pfn past the zones, the zero page's, is looked up) */
	unsigned long zend = min(start_pfn + nr_pages, pa->nr_pages);
	bool all_free = (!mb->memory.cnt && !mb->reserved.cnt) || zend <= start_pfn ||
			memblock_free_pages_in(mb, start_pfn, zend) == zend - start_pfn;
	/* [start_pfn, free_end): free, no lookup (a run's reset: every page) */
	unsigned long pfn, free_end = all_free ? zend : start_pfn;
	struct page *memmap = pa->memmap;

	for (pfn = start_pfn; pfn < free_end; pfn++) {
		__init_single_page(&memmap[pfn], pfn, 0, 0);	/* the zone: the memmap's layout */
		set_page_count(&memmap[pfn], 0);		/* __free_pages_core() */
	}
	for (; pfn < start_pfn + nr_pages; pfn++) {
		struct page *page = &memmap[pfn];

		__init_single_page(page, pfn, 0, 0);
		if (memblock_pfn_unavailable(mb, pfn))
			page->flags |= 1UL << PG_reserved;	/* init_unavailable_range,
								 * reserve_bootmem_region */
		else
			set_page_count(page, 0);
	}
}

/* No hole or reserved page in [from, end) (an empty table has none). */
static bool memblock_all_free(const struct memblock *mb, unsigned long from, unsigned long end)
{
	return !mb->memory.cnt || memblock_free_pages_in(mb, from, end) == end - from;
}

/* The struct pages of @nid's holes and reserved ranges from @from on, in
 * their boot state (PageReserved) over a poisoned memmap: 6.6 initialises
 * them at boot whether or not they lie past first_deferred_pfn. */
static void memmap_init_unavailable(struct world *w, unsigned long from, unsigned long end)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long i = 0, spfn, epfn, pfn = from;

	/* no holes, nothing reserved: every pfn free (a hole at a node's end
	 * leaves as many ranges as nodes: count the pages, not the ranges) */
	if (memblock_all_free(&pa->memblock, from, end))
		return;
	for (;;) {
		bool more = memblock_next_free_range(&pa->memblock, from, end, &i, &spfn, &epfn);

		if (!more)
			spfn = epfn = end;
		for (; pfn < spfn; pfn++) {
			san_unpoison(&pa->memmap[pfn], sizeof(struct page));
			memmap_init_boot(w, pfn, 1);
		}
		pfn = epfn;
		if (!more)
			break;
	}
}
/*
 * The struct pages past a node's first_deferred_pfn: uninitialised, as
 * memmap_alloc() leaves the memmap before memmap_init_range() reaches it.
 * They hold the kernel's page_init_poison() pattern (PAGE_POISON_PATTERN,
 * -1l: every page-flag accessor's PF_POISONED_CHECK reports a read, in
 * every build, mmdebug.h) and are poisoned for ASan: nothing in the page
 * allocator may read them (a max-order block never straddles
 * first_deferred_pfn, so no buddy lookup reaches past it); deferred init,
 * a layer above, unpoisons what it initialises.
 */
static void memmap_poison_deferred(struct pagealloc_world *pa, unsigned long pfn,
				   unsigned long nr)
{
	san_unpoison(&pa->memmap[pfn], nr * sizeof(struct page));
	page_init_poison(&pa->memmap[pfn], nr * sizeof(struct page));
	san_poison(&pa->memmap[pfn], nr * sizeof(struct page));
}

/* Whether some node of @pa has its memmap past first_deferred_pfn poisoned */
static bool memmap_poisoned(const struct pagealloc_world *pa)
{
	int nid;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		if (pa->deferred_poisoned[nid] != ULONG_MAX)
			return true;
	return false;
}

int pagealloc_defer_memmap(struct world *w, int nid, unsigned long pfn)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pglist_data *pgdat = &pa->node_data[nid];

	if (nid < 0 || nid >= pa->nodes_online ||
	    (pfn != ULONG_MAX && (pfn < pgdat->node_start_pfn ||
				  pfn >= pgdat->node_start_pfn + pgdat->node_spanned_pages ||
				  pfn & ((1UL << pa->max_order) - 1))))
		return -EINVAL;
	pa->deferred_boot_pfn[nid] = pfn;
	return 0;
}

/* Each node's first_deferred_pfn, and its memmap's state past it (and
 * page_init_poisoned, the count of worlds whose memmap holds the pattern). */
static void nodes_boot_deferred(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	bool was = memmap_poisoned(pa);
	int nid;

	for (nid = 0; nid < pa->nodes_online; nid++) {	/* @w need not be mm_world */
		struct pglist_data *pgdat = &pa->node_data[nid];
		unsigned long want = pa->deferred_boot_pfn[pgdat->node_id];
		unsigned long *have = &pa->deferred_poisoned[pgdat->node_id];
		unsigned long end = pgdat->node_start_pfn + pgdat->node_spanned_pages;

		if (*have != want) {
			if (*have != ULONG_MAX) {
				san_unpoison(&pa->memmap[*have], (end - *have) * sizeof(struct page));
				memmap_init_boot(w, *have, end - *have);
			}
			if (want != ULONG_MAX) {
				memmap_poison_deferred(pa, want, end - want);
				memmap_init_unavailable(w, want, end);
			}
			*have = want;
		}
		pgdat->first_deferred_pfn = want;
	}
	/* outside any run: the checks read it with no lock */
	page_init_poisoned += (int)memmap_poisoned(pa) - (int)was;
}

/* The pages of @zone that boot initialises: those below first_deferred_pfn. */
static unsigned long zone_boot_pages(const struct zone *zone)
{
	unsigned long deferred = zone->zone_pgdat->first_deferred_pfn;

	if (deferred <= zone->zone_start_pfn)
		return 0;
	return min(deferred - zone->zone_start_pfn, zone->spanned_pages);
}

/*
 * memblock_free_all() at boot (6.6 memblock.c __free_pages_memory ->
 * memblock_free_pages -> __free_pages_core): every free range below
 * first_deferred_pfn in the largest aligned pieces up to MAX_ORDER, each
 * added to managed_pages and put on the tail of its MOVABLE list.  Boot is
 * single-threaded and runs outside any task (before smp_init in 6.6), so
 * the piece goes on the list as __free_one_page would put it, with no
 * lock: greedy aligned pieces of disjoint ranges never have a free buddy
 * (two buddies side by side would have been one larger piece), so there is
 * nothing to merge.  Returns the pages freed.
 */
static unsigned long zone_boot_free_lists(struct world *w, struct zone *zone)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long end = zone->zone_start_pfn + zone_boot_pages(zone);
	unsigned long i = 0, spfn, epfn, freed = 0;
	int o, mt;

	for (o = 0; o <= MODEL_MAX_ORDER; o++) {
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
		zone->free_area[o].nr_free = 0;
		zone->free_area[o].gen++;
	}
	while (memblock_next_free_range(&pa->memblock, zone->zone_start_pfn, end, &i, &spfn, &epfn)) {
		while (spfn < epfn) {
			unsigned int order = spfn ? (unsigned int)__builtin_ctzl(spfn) : (unsigned int)pa->max_order;
			struct page *page = &pa->memmap[spfn];

			if (order > (unsigned int)pa->max_order)
				order = (unsigned int)pa->max_order;
			while (spfn + (1UL << order) > epfn)
				order--;
			/* __free_pages_core: the count was set to 0 by
			 * memmap_init_boot; managed_pages earned */
			atomic_long_add(1L << order, &zone->managed_pages);
			set_buddy_order(page, order);
			list_add_tail(&page->buddy_list, &zone->free_area[order].free_list[MIGRATE_MOVABLE]);
			zone->free_area[order].nr_free++;
			freed += 1UL << order;
			spfn += 1UL << order;
		}
	}
	zone->free_pages_exact = (long)freed;
	zone->free_fold_inflight = 0;
	zone->free_inflight = 0;
	return freed;
}

/* Everything but the memmap: free lists, locks, pcps, counters. */
static void pagealloc_boot(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pglist_data *pgdat;
	struct zone *zone;
	unsigned long freed;
	int cpu, i;

	for_each_online_pgdat(pgdat)
		spin_lock_init_named(&pgdat->node_size_lock, "node_size_lock", pgdat->node_id);
	nodes_boot_deferred(w);
	memmap_init_unavailable(w, 0, pa->nr_pages);
	mutex_init_named(&pa->pcp_batch_high_lock, "pcp_batch_high_lock");
	mutex_init_named(&pa->pcpu_drain_mutex, "pcpu_drain_mutex");
	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		atomic_long_set_site(&pa->vm_zone_stat[i], 0, "&w->vm_zone_stat[i]");
	memset(pa->vm_events, 0, sizeof(*pa->vm_events) * (size_t)w->cfg.ncpus);
	memset(mm_stat_percpu, 0, sizeof(*mm_stat_percpu) * (size_t)w->cfg.ncpus);
	for_each_populated_zone(zone) {
		spin_lock_init_named(&zone->lock, "zone->lock", zone->idx);
		zone->pageset_high = pa->cfg.pcp_high;
		zone->pageset_batch = pa->cfg.pcp_batch;
		zone->pcp_disabled = false;
		zone->flags = 0;
		zone->nr_reserved_highatomic = 0;
		/* managed: the pages handed to the buddy allocator, earned by
		 * zone_boot_free_lists (deferred init's __free_pages_core adds
		 * the rest) */
		atomic_long_set(&zone->managed_pages, 0);
		freed = zone_boot_free_lists(w, zone);
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
			per_cpu_pages_init(&zone->per_cpu_pageset[cpu], &zone->per_cpu_zonestats[cpu],
					   cpu, pa->cfg.pcp_high, pa->cfg.pcp_batch);
		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			atomic_long_set(&zone->vm_stat[i], 0);
		atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], (long)freed);
		atomic_long_set_site(&pa->vm_zone_stat[NR_FREE_PAGES],
				     atomic_long_read_site(&pa->vm_zone_stat[NR_FREE_PAGES],
							   "&w->vm_zone_stat[NR_FREE_PAGES]") +
				     (long)freed,
				     "&w->vm_zone_stat[NR_FREE_PAGES]");
	}
	page_alloc_boot_state(w);
}

/* The tune keys: the pcps take pageset_high/batch at boot, the rest is
 * read where it is used. */
static void pagealloc_tune(struct world *w, const struct mm_config *c)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pagealloc_config *cfg = &pa->cfg;

	cfg->pcp_high = (int)config_get(c, &ck_pcp_high);
	cfg->pcp_batch = (int)config_get(c, &ck_pcp_batch);
	cfg->stat_threshold = (int)config_get(c, &ck_stat_threshold);
	cfg->variant = (int)config_get(c, &ck_variant);
	cfg->drain = (int)config_get(c, &ck_drain);
	cfg->pcp_batch_scale_max = (int)config_get(c, &ck_pcp_batch_scale_max);
}

/*
 * build_zonerefs_node(): the node's populated zones, from the highest type
 * down, from @nr on; the new count.
 */
static int build_zonerefs_node(struct pglist_data *pgdat, struct zoneref *zonerefs, int nr)
{
	int zone_type = MAX_NR_ZONES;

	do {
		struct zone *zone = pgdat->node_zones + --zone_type;

		if (populated_zone(zone)) {
			zonerefs[nr].zone = zone;
			zonerefs[nr].zone_idx = zone_type;
			nr++;
		}
	} while (zone_type);
	return nr;
}

/*
 * build_zonelists(): the node's own zones first, then the other nodes' in
 * the order find_next_best_node() gives them: by node_distance() (the
 * model's nodes are all REMOTE_DISTANCE apart), and among equals the nodes
 * above this one first (6.6 penalises "nodes under us").  With two nodes:
 * local, then remote.
 */
static void build_all_zonelists(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	int nid, i, nnodes = pa->nodes_online;

	for (nid = 0; nid < nnodes; nid++) {
		struct zoneref *zonerefs = pa->node_data[nid].node_zonelists[ZONELIST_FALLBACK]._zonerefs;
		int nr = 0;

		for (i = 0; i < nnodes; i++)
			nr = build_zonerefs_node(&pa->node_data[(nid + i) % nnodes], zonerefs, nr);
		zonerefs[nr].zone = NULL;
		zonerefs[nr].zone_idx = 0;
	}
}

/* page_zone() of @w, which need not be mm_world (destroy) */
static struct zone *pfn_zone(struct world *w, unsigned long pfn)
{
	struct pagealloc_world *pa = pa_world(w);
	int z = 0;

	while (z < pa->nr_zones - 1 &&
	       pfn - zone_by_idx(w, z)->zone_start_pfn >= zone_by_idx(w, z)->spanned_pages)
		z++;
	return zone_by_idx(w, z);
}

static const char *const zone_names[MAX_NUMNODES + 1][MAX_NR_ZONES] = {
	{ "DMA32", "Normal" },		/* one node: the names 6.6 prints */
	{ "Node 0 DMA32", "Node 0 Normal" },
	{ "Node 1 DMA32", "Node 1 Normal" },
};

/*
 * The nodes and their zones, pfn after pfn: node 0 has the `zones` zones
 * (DMA32 below Normal, as DMA32 lies below 4G), every other node a Normal
 * zone; each zone has zone_pages pages.  CPUs go to nodes in runs.
 */
static int nodes_create(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pagealloc_config *cfg = &pa->cfg;
	unsigned long pfn = 0;
	int nid, t, cpu, nz = 0;

	pa->nodes_online = cfg->nnodes;
	memblock_init(&pa->memblock);
	for (nid = 0; nid < MAX_NUMNODES; nid++)
		pa->deferred_boot_pfn[nid] = pa->deferred_poisoned[nid] = ULONG_MAX;
	for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
		pa->cpu_node[cpu] = (unsigned char)(cpu * cfg->nnodes / w->cfg.ncpus);
	for (nid = 0; nid < cfg->nnodes; nid++) {
		struct pglist_data *pgdat = &pa->node_data[nid];
		int lowest = nid ? ZONE_NORMAL : MAX_NR_ZONES - cfg->nzones;

		pgdat->node_id = nid;
		pgdat->node_start_pfn = pfn;
		pgdat->first_deferred_pfn = ULONG_MAX;
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
			if (pa->cpu_node[cpu] == nid)
				__cpumask_set_cpu(cpu, &pgdat->node_cpus);
		for (t = 0; t < MAX_NR_ZONES; t++) {
			struct zone *zone = &pgdat->node_zones[t];

			zone->w = w;
			zone->zone_pgdat = pgdat;
			zone->zone_start_pfn = pfn;
			zone->name = zone_names[cfg->nnodes > 1 ? nid + 1 : 0][t];
			if (t < lowest)
				continue;
			zone->idx = nz;
			pa->zone_order[nz] = zone;
			pa->nr_zones = ++nz;	/* what destroy frees */
			zone->spanned_pages = zone->present_pages = cfg->zone_pages;
			pfn += cfg->zone_pages;
			pgdat->nr_zones++;
			/* set by boot (per_cpu_pages_init) and here */
			zone->per_cpu_pageset =
				world_malloc((size_t)w->cfg.ncpus, sizeof(struct per_cpu_pages));
			zone->per_cpu_zonestats =
				world_malloc((size_t)w->cfg.ncpus, sizeof(struct per_cpu_zonestat));
			zone->pageblock_mt = world_malloc(cfg->zone_pages >> cfg->pb_order, 1);
			if (!zone->per_cpu_pageset || !zone->per_cpu_zonestats || !zone->pageblock_mt)
				return -ENOMEM;
			memset(zone->pageblock_mt, MIGRATE_MOVABLE, cfg->zone_pages >> cfg->pb_order);
			/* min watermark ~1/32 of the zone, low and high +25% and +50% */
			zone->_watermark[WMARK_MIN] = cfg->zone_pages / 32;
			zone->_watermark[WMARK_LOW] = zone->_watermark[WMARK_MIN] * 5 / 4;
			zone->_watermark[WMARK_HIGH] = zone->_watermark[WMARK_MIN] * 3 / 2;
		}
		pgdat->node_spanned_pages = pgdat->node_present_pages = pfn - pgdat->node_start_pfn;
		if (memblock_add_node(&pa->memblock, pgdat->node_start_pfn,
				      pgdat->node_spanned_pages, nid))
			return -ENOMEM;
	}
	build_all_zonelists(w);
	return 0;
}

static struct world_layer pagealloc_layer;

static int pagealloc_create(struct world *w, const struct mm_config *c)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pagealloc_config *cfg = &pa->cfg;
	unsigned long nblocks;
	size_t memsz;

	/* pa_world(): the lowest order, the first layer (mmzone.h) */
	if (pagealloc_layer.id != PAGEALLOC_LAYER_ID) {
		fprintf(stderr, "mmfuzz: the page allocator is world layer %d, not %d\n",
			pagealloc_layer.id, PAGEALLOC_LAYER_ID);
		abort();
	}
	cfg->nnodes = (int)config_get(c, &ck_nodes);
	cfg->nzones = (int)config_get(c, &ck_zones);
	cfg->zone_pages = (unsigned long)config_get(c, &ck_zone_pages);
	cfg->max_order = (int)config_get(c, &ck_max_order);
	cfg->pb_order = (int)config_get(c, &ck_pageblock_order);
	pagealloc_tune(w, c);
	pa->max_order = cfg->max_order;
	pa->pb_order = cfg->pb_order;
	pa->pb_nr_pages = 1UL << cfg->pb_order;
	pa->nr_pages = cfg->zone_pages * (unsigned long)(cfg->nzones + cfg->nnodes - 1);
	nblocks = pa->nr_pages >> cfg->max_order;
	/* the zones' pages and the kernel image's zero page past them */
	memsz = world_nr_pfns(pa) * MODEL_PAGE_SIZE;
	if (wmem_fresh || !pool_take(w, world_nr_pfns(pa))) {
		/* every struct page is written by memmap_init_boot below */
		pa->memmap = world_malloc(world_nr_pfns(pa), sizeof(struct page));
		pa->mem = mmap(NULL, memsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pa->mem_cap = world_nr_pfns(pa);
		if (pa->memmap) {
			memmap_init_boot(w, 0, world_nr_pfns(pa));
			pa->memmap_boot = world_nr_pfns(pa);
		}
		if (pa->mem != MAP_FAILED)
			san_poison(pa->mem, memsz);
	}
	pa->dirty = world_calloc(nblocks, 1);		/* zero after a reset */
	pa->dirty_list = world_malloc(nblocks, sizeof(*pa->dirty_list));	/* up to nr_dirty */
	pa->vm_events = world_malloc((size_t)w->cfg.ncpus, sizeof(*pa->vm_events));	/* boot */
	if (!mm_stat_percpu)
		mm_stat_percpu = world_calloc(MAX_CPUS, sizeof(*mm_stat_percpu));
	if (!pa->memmap || pa->mem == MAP_FAILED || !pa->dirty || !pa->dirty_list || !pa->vm_events ||
	    !mm_stat_percpu)
		return -ENOMEM;
	return nodes_create(w);
}

static void pagealloc_reset(struct world *w);

static void pagealloc_destroy(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	bool reset = false;
	int z;

	if (pa->memmap && pa->mem && pa->mem != MAP_FAILED && pa->dirty_list && pa->dirty) {
		pagealloc_reset(w);	/* dirty[] back to zero */
		/* a deferred memmap back to the boot state the pool keeps */
		for (z = 0; z < MAX_NUMNODES; z++)
			pa->deferred_boot_pfn[z] = ULONG_MAX;
		nodes_boot_deferred(w);
		/* holes and reserved pages back to the free boot state */
		if (!memblock_all_free(&pa->memblock, 0, pa->nr_pages)) {
			struct memblock old = pa->memblock;

			unsigned long pfn;

			memblock_init(&pa->memblock);
			for (pfn = 0; pfn < pa->nr_pages; pfn++)
				if (memblock_pfn_unavailable(&old, pfn))
					memmap_init_boot(w, pfn, 1);
			/* and the heads of the boot's pieces between them
			 * (zone_boot_free_lists), which no run touched: off
			 * max-order boundaries, they are not the ones
			 * pool_take rewrites, and a world without the hole
			 * would find them PageBuddy inside its blocks */
			boot_piece_heads_reset(w, &old);
		}
		pool_give(w);
		reset = true;
	}
	for (z = 0; z < pa->nr_zones; z++) {
		world_free(zone_by_idx(w, z)->per_cpu_pageset);
		world_free(zone_by_idx(w, z)->per_cpu_zonestats);
		world_free(zone_by_idx(w, z)->pageblock_mt);
	}
	if (pa->mem && pa->mem != MAP_FAILED) {
		san_unpoison(pa->mem, pa->mem_cap * MODEL_PAGE_SIZE);
		munmap(pa->mem, pa->mem_cap * MODEL_PAGE_SIZE);
	}
	world_free(pa->memmap);
	if (reset)
		world_free_zeroed(pa->dirty);
	else
		world_free(pa->dirty);
	world_free(pa->dirty_list);
	world_free(pa->vm_events);
}

/* Rewrite the touched max-order blocks: struct pages, pageblocks, poison. */
static void pagealloc_reset(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long i, blk = 1UL << pa->max_order;

	for (i = 0; i < pa->nr_dirty; i++) {
		unsigned long block = pa->dirty_list[i], pfn = block << pa->max_order;
		struct zone *zone = pfn_zone(w, pfn);
		unsigned long pb = (pfn - zone->zone_start_pfn) >> pa->pb_order;

		if (pfn >= pa->deferred_poisoned[zone_to_nid(zone)]) {
			memmap_poison_deferred(pa, pfn, blk);	/* deferred init wrote it */
			memmap_init_unavailable(w, pfn, pfn + blk);
		} else {
			memmap_init_boot(w, pfn, blk);
		}
		memset(&zone->pageblock_mt[pb], MIGRATE_MOVABLE,
		       blk >> pa->pb_order ? blk >> pa->pb_order : 1);
		san_poison(pa->mem + pfn * MODEL_PAGE_SIZE, blk * MODEL_PAGE_SIZE);
		pa->dirty[block] = 0;
	}
	pa->nr_dirty = 0;
}

/* The end of a run: every pcp drained, every CPU's differentials folded. */
static void pagealloc_drain(struct world *w)
{
	struct task *t = current;
	int cpu, home = t->cpu;

	__drain_all_pages(NULL, true);
	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		t->cpu = cpu;
		refresh_cpu_vm_stats(false);
	}
	t->cpu = home;
}

/*
 * What one operation may take without progress: a drain of every pcp of
 * every zone (high + batch pages each) and a sweep of every zone, a step
 * a page.
 */
static uint64_t pagealloc_max_op_steps(const struct mm_config *c)
{
	/* node 0's zones, and a Normal zone on every other node */
	uint64_t zones = (uint64_t)(config_get(c, &ck_zones) + config_get(c, &ck_nodes) - 1);

	return zones * (uint64_t)config_get(c, &ck_cpus) *
	       (uint64_t)(config_get(c, &ck_pcp_high) + config_get(c, &ck_pcp_batch)) +
	       zones * (uint64_t)config_get(c, &ck_zone_pages);
}

static struct world_layer pagealloc_layer = {
	.name = "pagealloc",
	.order = 0,
	.state_size = sizeof(struct pagealloc_world),
	.create = pagealloc_create,
	.boot = pagealloc_boot,
	.reset = pagealloc_reset,
	.tune = pagealloc_tune,
	.drain = pagealloc_drain,
	.destroy = pagealloc_destroy,
	.max_op_steps = pagealloc_max_op_steps,
	.stat_size = sizeof(struct pagealloc_stat),
	.stat_snap = pagealloc_stat_snap,
	.stat_print = pagealloc_stat_print,
};
WORLD_LAYER(pagealloc_layer);

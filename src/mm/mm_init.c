// SPDX-License-Identifier: MIT
/*
 * The page allocator's layer of the world (Linux's mm/mm_init.c in small):
 * its config keys, the memmap and "physical" memory, the zones with their
 * free areas, pcps and counters, the state right after boot, and the reset
 * back to it.
 *
 * After boot every zone is a run of free max-order blocks, each head on the
 * MOVABLE free list in pfn order, every pageblock MOVABLE, all memory
 * poisoned, every struct page as __init_single_page() and
 * __free_pages_core() leave it (no reference, _mapcount -1).  A block's struct pages leave that state only after the block
 * was taken off a free list, moved, or had its pageblock retyped; those
 * paths mark it dirty (world_touch_pfn), and the reset rewrites only dirty
 * blocks, so an execution pays for the memory it touched, not for the size
 * of the memmap.
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
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
static void range_zone_pages(const struct mm_config *c, long *lo, long *hi, long *unit)
{
	*unit = 1L << config_get(c, &ck_max_order);
	*lo = *unit;
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
	.lo = 0, .hi = 6, .def = 5, .bin_off = 25, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_pcp_batch_scale_max);

const char *pcp_bulk_variant_name(int v)
{
	return v >= 0 && v < NR_PCP_BULK_VARIANTS ? variant_names[v] : "?";
}

int pcp_bulk_variant_lookup(const char *name)
{
	return (int)config_enum_lookup(&ck_variant, name);
}

void (*page_moved_hook)(struct page *from, struct page *to);

/* ---- dirty blocks ---- */

void world_touch_pfn(unsigned long pfn)
{
	struct world *w = mm_world;
	unsigned long block = pfn >> w->max_order;

	/* the block's zone->lock is held; the list is shared by the zones */
	if (!w->dirty[block]) {
		w->dirty[block] = 1;
		w->dirty_list[__atomic_fetch_add(&w->nr_dirty, 1, __ATOMIC_RELAXED)] = block;
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
	unsigned long pfn;

	for (pfn = start_pfn; pfn < start_pfn + nr_pages; pfn++) {
		struct page *page = &w->memmap[pfn];

		__init_single_page(page, pfn, pfn / w->cfg.zone_pages, 0);
		set_page_count(page, 0);	/* __free_pages_core() */
	}
}

/* Put every max-order block back on its zone's MOVABLE list, in pfn order. */
static void zone_boot_free_lists(struct world *w, struct zone *zone)
{
	unsigned long pfn, end = zone->zone_start_pfn + zone->spanned_pages;
	int o, mt;

	for (o = 0; o <= MODEL_MAX_ORDER; o++) {
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
		zone->free_area[o].nr_free = 0;
		zone->free_area[o].gen++;
	}
	for (pfn = zone->zone_start_pfn; pfn < end; pfn += 1UL << w->max_order) {
		struct page *page = &w->memmap[pfn];

		set_buddy_order(page, (unsigned int)w->max_order);
		list_add_tail(&page->buddy_list, &zone->free_area[w->max_order].free_list[MIGRATE_MOVABLE]);
		zone->free_area[w->max_order].nr_free++;
	}
	zone->free_pages_exact = (long)zone->spanned_pages;
	zone->free_fold_inflight = 0;
}

/* Everything but the memmap: free lists, locks, pcps, counters. */
static void pagealloc_boot(struct world *w)
{
	int z, cpu, i;

	for (z = 0; z < w->nr_zones; z++)
		zone_boot_free_lists(w, &w->zones[z]);
	mutex_init_named(&w->pcp_batch_high_lock, "pcp_batch_high_lock");
	mutex_init_named(&w->pcpu_drain_mutex, "pcpu_drain_mutex");
	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		atomic_long_set(&w->vm_zone_stat[i], 0);
	memset(w->vm_events, 0, sizeof(*w->vm_events) * (size_t)w->cfg.ncpus);
	memset(mm_stat_percpu, 0, sizeof(*mm_stat_percpu) * (size_t)w->cfg.ncpus);
	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

		spin_lock_init_named(&zone->lock, "zone->lock", z);
		zone->pageset_high = w->cfg.pcp_high;
		zone->pageset_batch = w->cfg.pcp_batch;
		zone->pcp_disabled = false;
		zone->flags = 0;
		zone->nr_reserved_highatomic = 0;
		atomic_long_set(&zone->managed_pages, (long)zone->spanned_pages);
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
			per_cpu_pages_init(&zone->per_cpu_pageset[cpu], &zone->per_cpu_zonestats[cpu],
					   cpu, w->cfg.pcp_high, w->cfg.pcp_batch);
		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
			atomic_long_set(&zone->vm_stat[i], 0);
		atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], (long)zone->spanned_pages);
		atomic_long_set(&w->vm_zone_stat[NR_FREE_PAGES],
				atomic_long_read(&w->vm_zone_stat[NR_FREE_PAGES]) +
				(long)zone->spanned_pages);
	}
	page_alloc_boot_state(w);
}

/*
 * The memmap and the "physical" memory of destroyed worlds, kept for the
 * next world: a fuzzing campaign creates a world whenever an input brings a
 * configuration the world cache does not hold, and faulting in and zeroing a
 * fresh memmap every time cost a tenth of all executions.  A kept memmap is
 * in the boot state (memmap_init_boot) up to boot_pages, zero beyond, but
 * for the heads of the max-order blocks of the world that had it (a reset
 * leaves nothing else), and its memory is all poisoned.
 */
#define POOL_SLOTS 4
static struct pool_buf {
	struct page *memmap;
	unsigned char *mem;
	unsigned long cap;		/* pages */
	unsigned long boot_pages;	/* leading pages in the boot state */
	unsigned long nr_pages;		/* of the world that had it */
	int max_order;
} pool[POOL_SLOTS];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* A kept buffer of at least @nr pages, its first @nr struct pages in the
 * boot state; false if none. */
static bool pool_take(struct world *w, unsigned long nr)
{
	struct pool_buf *best = NULL;
	unsigned long pfn;
	int i;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS; i++)
		if (pool[i].memmap && pool[i].cap >= nr && (!best || pool[i].cap < best->cap))
			best = &pool[i];
	if (best) {
		w->memmap = best->memmap;
		w->mem = best->mem;
		w->mem_cap = best->cap;
		for (pfn = 0; pfn < best->nr_pages; pfn += 1UL << best->max_order)
			memmap_init_boot(w, pfn, 1);
		w->memmap_boot = max(best->boot_pages, nr);
		if (nr > best->boot_pages)
			memmap_init_boot(w, best->boot_pages, nr - best->boot_pages);
		memset(best, 0, sizeof(*best));
	}
	pthread_mutex_unlock(&pool_lock);
	return best != NULL;
}

/* Keep @w's buffers (reset: nothing but the block heads left) in an empty
 * slot, or in place of a smaller one; else they are freed with @w. */
static void pool_give(struct world *w)
{
	struct pool_buf *slot = NULL;
	int i;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS && (!slot || slot->memmap); i++)
		if (!slot || !pool[i].memmap || pool[i].cap < slot->cap)
			slot = &pool[i];
	if (slot->memmap && slot->cap < w->mem_cap) {
		san_unpoison(slot->mem, slot->cap * MODEL_PAGE_SIZE);
		munmap(slot->mem, slot->cap * MODEL_PAGE_SIZE);
		world_free(slot->memmap);
		slot->memmap = NULL;
	}
	if (!slot->memmap) {
		slot->memmap = w->memmap;
		slot->mem = w->mem;
		slot->cap = w->mem_cap;
		slot->boot_pages = w->memmap_boot;
		slot->nr_pages = w->nr_pages;
		slot->max_order = w->max_order;
		w->memmap = NULL;
		w->mem = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
}

/* The tune keys: the pcps take pageset_high/batch at boot, the rest is
 * read where it is used. */
static void pagealloc_tune(struct world *w, const struct mm_config *c)
{
	struct machine_config *cfg = &w->cfg;

	cfg->pcp_high = (int)config_get(c, &ck_pcp_high);
	cfg->pcp_batch = (int)config_get(c, &ck_pcp_batch);
	cfg->stat_threshold = (int)config_get(c, &ck_stat_threshold);
	cfg->variant = (int)config_get(c, &ck_variant);
	cfg->drain = (int)config_get(c, &ck_drain);
	cfg->pcp_batch_scale_max = (int)config_get(c, &ck_pcp_batch_scale_max);
}

static int pagealloc_create(struct world *w, const struct mm_config *c)
{
	struct machine_config *cfg = &w->cfg;
	unsigned long nblocks;
	size_t memsz;
	int z;

	cfg->nzones = (int)config_get(c, &ck_zones);
	cfg->zone_pages = (unsigned long)config_get(c, &ck_zone_pages);
	cfg->max_order = (int)config_get(c, &ck_max_order);
	cfg->pb_order = (int)config_get(c, &ck_pageblock_order);
	pagealloc_tune(w, c);
	w->max_order = cfg->max_order;
	w->pb_order = cfg->pb_order;
	w->pb_nr_pages = 1UL << cfg->pb_order;
	w->nr_zones = cfg->nzones;
	w->nr_pages = cfg->zone_pages * (unsigned long)cfg->nzones;
	nblocks = w->nr_pages >> cfg->max_order;
	memsz = w->nr_pages * MODEL_PAGE_SIZE;
	if (wmem_fresh || !pool_take(w, w->nr_pages)) {
		/* every struct page is written by memmap_init_boot below */
		w->memmap = world_malloc(w->nr_pages, sizeof(struct page));
		w->mem = mmap(NULL, memsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		w->mem_cap = w->nr_pages;
		if (w->memmap) {
			memmap_init_boot(w, 0, w->nr_pages);
			w->memmap_boot = w->nr_pages;
		}
		if (w->mem != MAP_FAILED)
			san_poison(w->mem, memsz);
	}
	w->dirty = world_calloc(nblocks, 1);		/* zero after a reset */
	w->dirty_list = world_malloc(nblocks, sizeof(*w->dirty_list));	/* up to nr_dirty */
	w->vm_events = world_malloc((size_t)cfg->ncpus, sizeof(*w->vm_events));	/* boot */
	if (!mm_stat_percpu)
		mm_stat_percpu = world_calloc(MAX_CPUS, sizeof(*mm_stat_percpu));
	if (!w->memmap || w->mem == MAP_FAILED || !w->dirty || !w->dirty_list || !w->vm_events ||
	    !mm_stat_percpu)
		return -ENOMEM;
	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

		zone->w = w;
		zone->idx = z;
		zone->name = w->nr_zones == 1 || z == 1 ? "Normal" : "DMA32";
		zone->zone_start_pfn = (unsigned long)z * cfg->zone_pages;
		zone->spanned_pages = cfg->zone_pages;
		/* set by boot (per_cpu_pages_init) and here */
		zone->per_cpu_pageset = world_malloc((size_t)cfg->ncpus, sizeof(struct per_cpu_pages));
		zone->per_cpu_zonestats =
			world_malloc((size_t)cfg->ncpus, sizeof(struct per_cpu_zonestat));
		zone->pageblock_mt = world_malloc(cfg->zone_pages >> cfg->pb_order, 1);
		if (!zone->per_cpu_pageset || !zone->per_cpu_zonestats || !zone->pageblock_mt)
			return -ENOMEM;
		memset(zone->pageblock_mt, MIGRATE_MOVABLE, cfg->zone_pages >> cfg->pb_order);
		/* min watermark ~1/32 of the zone, low and high +25% and +50% */
		zone->_watermark[WMARK_MIN] = cfg->zone_pages / 32;
		zone->_watermark[WMARK_LOW] = zone->_watermark[WMARK_MIN] * 5 / 4;
		zone->_watermark[WMARK_HIGH] = zone->_watermark[WMARK_MIN] * 3 / 2;
	}
	return 0;
}

static void pagealloc_reset(struct world *w);

static void pagealloc_destroy(struct world *w)
{
	bool reset = false;
	int z;

	if (w->memmap && w->mem && w->mem != MAP_FAILED && w->dirty_list && w->dirty) {
		pagealloc_reset(w);	/* dirty[] back to zero */
		pool_give(w);
		reset = true;
	}
	for (z = 0; z < MODEL_MAX_ZONES; z++) {
		world_free(w->zones[z].per_cpu_pageset);
		world_free(w->zones[z].per_cpu_zonestats);
		world_free(w->zones[z].pageblock_mt);
	}
	if (w->mem && w->mem != MAP_FAILED) {
		san_unpoison(w->mem, w->mem_cap * MODEL_PAGE_SIZE);
		munmap(w->mem, w->mem_cap * MODEL_PAGE_SIZE);
	}
	world_free(w->memmap);
	if (reset)
		world_free_zeroed(w->dirty);
	else
		world_free(w->dirty);
	world_free(w->dirty_list);
	world_free(w->vm_events);
}

/* Rewrite the touched max-order blocks: struct pages, pageblocks, poison. */
static void pagealloc_reset(struct world *w)
{
	unsigned long i, blk = 1UL << w->max_order;

	for (i = 0; i < w->nr_dirty; i++) {
		unsigned long block = w->dirty_list[i], pfn = block << w->max_order;
		struct zone *zone = &w->zones[pfn / w->cfg.zone_pages];
		unsigned long pb = (pfn - zone->zone_start_pfn) >> w->pb_order;

		memmap_init_boot(w, pfn, blk);
		memset(&zone->pageblock_mt[pb], MIGRATE_MOVABLE,
		       blk >> w->pb_order ? blk >> w->pb_order : 1);
		san_poison(w->mem + pfn * MODEL_PAGE_SIZE, blk * MODEL_PAGE_SIZE);
		w->dirty[block] = 0;
	}
	w->nr_dirty = 0;
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

static struct world_layer pagealloc_layer = {
	.name = "pagealloc",
	.order = 0,
	.create = pagealloc_create,
	.boot = pagealloc_boot,
	.reset = pagealloc_reset,
	.tune = pagealloc_tune,
	.drain = pagealloc_drain,
	.destroy = pagealloc_destroy,
};
WORLD_LAYER(pagealloc_layer);

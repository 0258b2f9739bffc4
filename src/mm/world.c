// SPDX-License-Identifier: MIT
/*
 * A world: one simulated machine (its memmap, "physical" memory, zones,
 * per-CPU pagesets and counters) built from a small config, and its reset
 * back to the state right after boot.
 *
 * After boot every zone is a run of free max-order blocks, each head on the
 * MOVABLE free list in pfn order, every pageblock MOVABLE, all memory
 * poisoned.  A block's struct pages leave that state only after the block
 * was taken off a free list, moved, or had its pageblock retyped; those
 * paths mark it dirty (world_touch_pfn), and world_reset() rewrites only
 * dirty blocks, so an execution pays for the memory it touched, not for the
 * size of the memmap.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct world *mm_world;

static const char *const variant_names[NR_PCP_BULK_VARIANTS] = {
	[PCP_BULK_SINGLE_PASS] = "single_pass",
	[PCP_BULK_PICK_OUTSIDE] = "pick_outside",
	[PCP_BULK_LOCKED_RR] = "locked_rr",
};

const char *pcp_bulk_variant_name(int v)
{
	return v >= 0 && v < NR_PCP_BULK_VARIANTS ? variant_names[v] : "?";
}

int pcp_bulk_variant_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_PCP_BULK_VARIANTS; i++)
		if (!strcmp(variant_names[i], name))
			return i;
	return -1;
}

void mm_config_default(struct mm_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ncpus = 2;
	cfg->nzones = 1;
	cfg->zone_pages = 256;
	cfg->max_order = 5;
	cfg->pb_order = 3;
	cfg->pcp_high = 12;
	cfg->pcp_batch = 4;
	cfg->stat_threshold = 8;
	cfg->variant = PCP_BULK_SINGLE_PASS;
}

const char *mm_config_check(const struct mm_config *cfg)
{
	if (cfg->ncpus < 1 || cfg->ncpus > MAX_CPUS)
		return "cpus must be between 1 and 8";
	if (cfg->nzones < 1 || cfg->nzones > MODEL_MAX_ZONES)
		return "zones must be 1 or 2";
	if (cfg->max_order < 1 || cfg->max_order > MODEL_MAX_ORDER)
		return "max_order must be between 1 and 10";
	if (cfg->pb_order < 1 || cfg->pb_order > cfg->max_order)
		return "pageblock_order must be between 1 and max_order";
	if (cfg->zone_pages < (1UL << cfg->max_order) || cfg->zone_pages > 65536 ||
	    cfg->zone_pages % (1UL << cfg->max_order))
		return "zone_pages must be a multiple of 2^max_order, at most 65536";
	if (cfg->pcp_high < 0 || cfg->pcp_high > 4096)
		return "pcp_high must be between 0 and 4096";
	if (cfg->pcp_batch < 1 || cfg->pcp_batch > 1024)
		return "pcp_batch must be between 1 and 1024";
	if (cfg->stat_threshold < 1 || cfg->stat_threshold > 125)
		return "stat_threshold must be between 1 and 125";
	if (cfg->variant < 0 || cfg->variant >= NR_PCP_BULK_VARIANTS)
		return "unknown free_pcppages_bulk variant";
	return NULL;
}

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

/* Put every max-order block back on its zone's MOVABLE list, in pfn order. */
static void zone_boot_free_lists(struct world *w, struct zone *zone)
{
	unsigned long pfn, end = zone->zone_start_pfn + zone->spanned_pages;
	int o, mt;

	for (o = 0; o < NR_PAGE_ORDERS; o++) {
		for (mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
		zone->free_area[o].nr_free = 0;
	}
	for (pfn = zone->zone_start_pfn; pfn < end; pfn += 1UL << w->max_order) {
		struct page *page = &w->memmap[pfn];

		page->page_type = PG_buddy;
		page->private = (unsigned long)w->max_order;
		list_add_tail(&page->buddy_list, &zone->free_area[w->max_order].free_list[MIGRATE_MOVABLE]);
		zone->free_area[w->max_order].nr_free++;
	}
}

/* Everything but the memmap and the free lists: locks, pcps, counters. */
static void world_boot_state(struct world *w)
{
	int z, cpu, i;

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
	refresh_zone_stat_thresholds();
}

/* Zeroed and aligned to a pair of lines: the per-CPU arrays (each element
 * its own pair, see ____percpu_aligned), the memmap (a page a line) and
 * the world (its zones padded as the kernel's). */
static void *calloc_lines(size_t n, size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, PERCPU_SLOT_BYTES, n * size))
		return NULL;
	memset(p, 0, n * size);
	return p;
}

int world_create(const struct mm_config *cfg, struct world **out)
{
	struct world *w;
	unsigned long nblocks, pfn;
	size_t memsz;
	int z;

	if (mm_config_check(cfg))
		return -EINVAL;
	w = calloc_lines(1, sizeof(*w));	/* struct zone is line-aligned */
	if (!w)
		return -ENOMEM;
	w->cfg = *cfg;
	w->max_order = cfg->max_order;
	w->pb_order = cfg->pb_order;
	w->pb_nr_pages = 1UL << cfg->pb_order;
	w->nr_zones = cfg->nzones;
	w->nr_pages = cfg->zone_pages * (unsigned long)cfg->nzones;
	nblocks = w->nr_pages >> cfg->max_order;
	w->memmap = calloc_lines(w->nr_pages, sizeof(struct page));
	memsz = w->nr_pages * MODEL_PAGE_SIZE;
	w->mem = mmap(NULL, memsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->dirty = calloc(nblocks, 1);
	w->dirty_list = calloc(nblocks, sizeof(*w->dirty_list));
	w->vm_events = calloc_lines((size_t)cfg->ncpus, sizeof(*w->vm_events));
	if (!mm_stat_percpu)
		mm_stat_percpu = calloc_lines(MAX_CPUS, sizeof(*mm_stat_percpu));
	if (!w->memmap || w->mem == MAP_FAILED || !w->dirty || !w->dirty_list || !w->vm_events ||
	    !mm_stat_percpu)
		goto out_free;
	for (z = 0; z < w->nr_zones; z++) {
		struct zone *zone = &w->zones[z];

		zone->w = w;
		zone->idx = z;
		zone->name = w->nr_zones == 1 || z == 1 ? "Normal" : "DMA32";
		zone->zone_start_pfn = (unsigned long)z * cfg->zone_pages;
		zone->spanned_pages = cfg->zone_pages;
		zone->per_cpu_pageset = calloc_lines((size_t)cfg->ncpus, sizeof(struct per_cpu_pages));
		zone->per_cpu_zonestats =
			calloc_lines((size_t)cfg->ncpus, sizeof(struct per_cpu_zonestat));
		zone->pageblock_mt = malloc(cfg->zone_pages >> cfg->pb_order);
		if (!zone->per_cpu_pageset || !zone->per_cpu_zonestats || !zone->pageblock_mt)
			goto out_free;
		memset(zone->pageblock_mt, MIGRATE_MOVABLE, cfg->zone_pages >> cfg->pb_order);
		/* min watermark ~1/32 of the zone, low and high +25% and +50% */
		zone->_watermark[WMARK_MIN] = cfg->zone_pages / 32;
		zone->_watermark[WMARK_LOW] = zone->_watermark[WMARK_MIN] * 5 / 4;
		zone->_watermark[WMARK_HIGH] = zone->_watermark[WMARK_MIN] * 3 / 2;
	}
	for (pfn = 0; pfn < w->nr_pages; pfn++)
		w->memmap[pfn]._refcount = 0;
	san_poison(w->mem, memsz);
	mm_world = w;
	for (z = 0; z < w->nr_zones; z++)
		zone_boot_free_lists(w, &w->zones[z]);
	world_boot_state(w);
	*out = w;
	return 0;

out_free:
	world_destroy(w);
	return -ENOMEM;
}

void world_destroy(struct world *w)
{
	int z;

	if (!w)
		return;
	for (z = 0; z < MODEL_MAX_ZONES; z++) {
		free(w->zones[z].per_cpu_pageset);
		free(w->zones[z].per_cpu_zonestats);
		free(w->zones[z].pageblock_mt);
	}
	if (w->mem && w->mem != MAP_FAILED) {
		san_unpoison(w->mem, w->nr_pages * MODEL_PAGE_SIZE);
		munmap(w->mem, w->nr_pages * MODEL_PAGE_SIZE);
	}
	free(w->memmap);
	free(w->dirty);
	free(w->dirty_list);
	free(w->vm_events);
	if (mm_world == w)
		mm_world = NULL;
	free(w);
}

void world_reset(struct world *w)
{
	unsigned long i, blk = 1UL << w->max_order;
	int z;

	mm_world = w;
	for (i = 0; i < w->nr_dirty; i++) {
		unsigned long block = w->dirty_list[i], pfn = block << w->max_order;
		struct zone *zone = &w->zones[pfn / w->cfg.zone_pages];
		unsigned long pb = (pfn - zone->zone_start_pfn) >> w->pb_order;

		memset(&w->memmap[pfn], 0, blk * sizeof(struct page));
		memset(&zone->pageblock_mt[pb], MIGRATE_MOVABLE,
		       blk >> w->pb_order ? blk >> w->pb_order : 1);
		san_poison(w->mem + pfn * MODEL_PAGE_SIZE, blk * MODEL_PAGE_SIZE);
		w->dirty[block] = 0;
	}
	w->nr_dirty = 0;
	for (z = 0; z < w->nr_zones; z++)
		zone_boot_free_lists(w, &w->zones[z]);
	world_boot_state(w);
}

int world_get(struct world_cache *c, const struct mm_config *cfg, struct world **out)
{
	int i, victim = 0;

	c->tick++;
	for (i = 0; i < WORLD_CACHE_SLOTS; i++) {
		if (c->slot[i].w && !memcmp(&c->slot[i].cfg, cfg, sizeof(*cfg))) {
			world_reset(c->slot[i].w);
			c->slot[i].used = c->tick;
			*out = c->slot[i].w;
			return 0;
		}
		if (!c->slot[i].w || (c->slot[victim].w && c->slot[i].used < c->slot[victim].used))
			victim = i;
	}
	world_destroy(c->slot[victim].w);
	c->slot[victim].w = NULL;
	if (world_create(cfg, &c->slot[victim].w))
		return -1;
	c->slot[victim].cfg = *cfg;
	c->slot[victim].used = c->tick;
	*out = c->slot[victim].w;
	return 0;
}

void world_cache_destroy(struct world_cache *c)
{
	int i;

	for (i = 0; i < WORLD_CACHE_SLOTS; i++) {
		world_destroy(c->slot[i].w);
		c->slot[i].w = NULL;
	}
}

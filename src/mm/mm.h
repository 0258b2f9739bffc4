/* SPDX-License-Identifier: MIT */
/*
 * The model's public interface: what the executor (prog/), the checkers
 * (check/), the stress workloads and the tests call.  Kernel names and
 * signatures where the kernel has them.
 */
#ifndef MMFUZZ_MM_MM_H
#define MMFUZZ_MM_MM_H

#include "mmzone.h"

typedef unsigned int gfp_t;

#define __GFP_MOVABLE		0x01u
#define __GFP_RECLAIMABLE	0x02u
#define __GFP_HIGH		0x04u	/* atomic: may dip below the min watermark */
#define GFP_KERNEL		0x00u
#define GFP_ATOMIC		(__GFP_HIGH)
#define GFP_HIGHUSER_MOVABLE	(__GFP_MOVABLE)

static inline int gfp_migratetype(gfp_t gfp)
{
	if (gfp & __GFP_MOVABLE)
		return MIGRATE_MOVABLE;
	if (gfp & __GFP_RECLAIMABLE)
		return MIGRATE_RECLAIMABLE;
	return MIGRATE_UNMOVABLE;
}

static inline gfp_t migratetype_gfp(int mt)
{
	return mt == MIGRATE_MOVABLE ? __GFP_MOVABLE :
	       mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : GFP_KERNEL;
}

/* ---- the world (world.c, layers in their own files) ---- */

/* The keys of the machine and of the page allocator (world.c, mm_init.c). */
extern struct config_key ck_cpus, ck_zones, ck_max_order, ck_pageblock_order,
	ck_zone_pages, ck_pcp_high, ck_pcp_batch, ck_stat_threshold, ck_variant;

/* A world for @cfg (config_check must pass), in its boot state. */
int world_create(const struct mm_config *cfg, struct world **out);
void world_destroy(struct world *w);
/* Back to the state right after boot, paying only for what was touched. */
void world_reset(struct world *w);
/* The end of a run, on the caller's task: every layer gives back what it
 * caches (later layers first). */
void world_drain(struct world *w);
void *world_layer_state(struct world *w, const struct world_layer *l);

/*
 * Worlds kept by configuration: a fuzzing campaign alternates between a few
 * configurations, and building a world costs more than resetting one.
 * world_get returns a world for @cfg in its boot state (a cached one reset,
 * or a new one in place of the least recently used) and makes it mm_world.
 */
#define WORLD_CACHE_SLOTS 8
struct world_cache {
	struct {
		struct world *w;
		struct mm_config cfg;
		unsigned long used;
	} slot[WORLD_CACHE_SLOTS];
	unsigned long tick;
};
int world_get(struct world_cache *c, const struct mm_config *cfg, struct world **out);
void world_cache_destroy(struct world_cache *c);
const char *pcp_bulk_variant_name(int v);
int pcp_bulk_variant_lookup(const char *name);

/* ---- the page allocator (page_alloc.c, page_alloc_pcp.c) ---- */

struct page *alloc_pages(gfp_t gfp_mask, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
void drain_local_pages(struct zone *zone);
void drain_zone_pages(struct zone *zone, struct per_cpu_pages *pcp);
void drain_all_pages(struct zone *zone);
void __drain_all_pages(struct zone *zone, bool force_all_cpus);
void zone_pcp_disable(struct zone *zone);
void zone_pcp_enable(struct zone *zone);
/* percpu_pagelist_high_fraction-style update of every CPU's high and batch */
void zone_pcp_set_high_batch(struct zone *zone, int high, int batch);
bool zone_pcp_disabled(const struct zone *zone);
/* CPU hotplug (6.6 zone_pcp_update): re-apply high and batch */
void zone_pcp_update(struct zone *zone, int cpu_online);

/*
 * A block a user holds has moved: migration copied it to @to and will free
 * @from.  Whoever tracks the users' blocks follows it (check/shadow.c sets
 * the hook for the program's handles); every migration path calls this.
 */
extern void (*page_moved_hook)(struct page *from, struct page *to);
static inline void page_moved(struct page *from, struct page *to)
{
	if (page_moved_hook)
		page_moved_hook(from, to);
}

/* ---- vmstat (vmstat.c) ---- */

unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item);
unsigned long zone_page_state_snapshot(struct zone *zone, enum zone_stat_item item);
unsigned long global_zone_page_state(enum zone_stat_item item);
int refresh_cpu_vm_stats(bool do_pagesets);
unsigned long sum_vm_event(enum vm_event_item item);
void refresh_zone_stat_thresholds(void);
extern const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS];

/* counters the stress mode prints (enum with a comment per line) */
enum mm_stat_item {
	MM_PCP_REFILL,		/* rmqueue_bulk calls refilling a pcp list */
	MM_PCP_BULK_FREE,	/* free_pcppages_bulk calls */
	MM_PCP_DRAIN,		/* drain_pages_zone calls that found pages */
	MM_PCP_ALLOC_FALLBACK,	/* allocations that fell back to the buddy (trylock failed) */
	MM_PCP_FREE_FALLBACK,	/* frees that went to the buddy (trylock failed) */
	MM_BUDDY_SPLIT,		/* expand() halvings */
	MM_BUDDY_MERGE,		/* __free_one_page merges */
	MM_FALLBACK_STEAL,	/* __rmqueue_fallback calls that found a block */
	MM_ALLOC_FAIL,		/* alloc_pages returning NULL */
	NR_MM_STAT_ITEMS
};
extern const char *const mm_stat_names[NR_MM_STAT_ITEMS];
/* Per-CPU, updated with preemption off; summed by mm_stat_sum(). */
void mm_stat_inc(enum mm_stat_item item);
unsigned long mm_stat_sum(enum mm_stat_item item);
void mm_stat_reset(void);

#endif /* MMFUZZ_MM_MM_H */

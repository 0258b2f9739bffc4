/* SPDX-License-Identifier: MIT */
/*
 * The model's struct page, zones, free areas, per-CPU page lists and vmstat
 * counters: Linux 6.6 include/linux/mmzone.h, mm_types.h and vmstat.h cut
 * down to what the allocator uses.  Sizes that are compile-time constants
 * in the kernel (MAX_ORDER, pageblock_order) come from the world's config
 * here, so arrays are sized for their largest values.
 *
 * Locks (as in the kernel):
 *   zone->lock          free_area[] lists and nr_free, pageblock types of
 *                       free pages, the buddy state of struct page
 *   pcp->lock           pcp->lists[] and pcp->count (count is also read
 *                       racily by drain_all_pages)
 *   pcp_batch_high_lock updaters of pcp->high/batch (readers use READ_ONCE)
 *   pcpu_drain_mutex    serialises __drain_all_pages
 *   IRQs/preemption off the per-CPU vm_stat_diff of this CPU
 * Lock order: pcp_batch_high_lock -> pcpu_drain_mutex -> pcp->lock -> zone->lock
 */
#ifndef MMFUZZ_MM_MMZONE_H
#define MMFUZZ_MM_MMZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "../kernel/atomic.h"
#include "../kernel/compiler.h"
#include "../kernel/list.h"
#include "../kernel/spinlock.h"
#include "config.h"
#include "layer.h"

#define MODEL_MAX_ORDER		10	/* largest max_order a world may use */
#define NR_PAGE_ORDERS		(MODEL_MAX_ORDER + 1)
#define MODEL_MAX_ZONES		2
#define MODEL_PAGE_SIZE		64	/* bytes of "memory" behind each page */
#define PAGE_ALLOC_COSTLY_ORDER	3

enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES,		/* the number of types on the pcp lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_ISOLATE,		/* can't allocate from here */
	MIGRATE_TYPES
};

#define migratetype_is_mergeable(mt)	((mt) < MIGRATE_PCPTYPES)
#define is_migrate_isolate(mt)		((mt) == MIGRATE_ISOLATE)
#define is_migrate_highatomic(mt)	((mt) == MIGRATE_HIGHATOMIC)

/* pcp lists: one per (order <= COSTLY, pcp type), plus one THP list */
#define NR_LOWORDER_PCP_LISTS	(MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1))
#define NR_PCP_THP		1
#define NR_PCP_LISTS		(NR_LOWORDER_PCP_LISTS + NR_PCP_THP)

enum zone_stat_item {
	NR_FREE_PAGES,
	NR_FREE_CMA_PAGES,		/* no CMA in the model: stays 0 */
	NR_VM_ZONE_STAT_ITEMS
};

enum vm_event_item {
	PGALLOC,
	PGFREE,
	NR_VM_EVENT_ITEMS
};

/* struct page flags the model uses */
enum pageflags {
	PG_reserved,			/* not yet handed to the allocator */
};

/* page_type, as in 6.6: changed only under zone->lock */
#define PG_buddy	0x00000080u

/*
 * The fields the model uses, in the kernel's order, and its size: 64 bytes,
 * one cache line each in a line-aligned memmap.  Smaller, the struct pages
 * of two CPUs' pages would share lines where their runs of pfns meet, and
 * the stress mode would measure false sharing the kernel does not have.
 * (Not ____cacheline_aligned: container_of on a list head that is not in a
 * struct page, as list_for_each_entry_safe's last step does, would then
 * make a misaligned pointer.)
 */
struct page {
	unsigned long flags;
	union {
		struct list_head lru;
		struct list_head buddy_list;
		struct list_head pcp_list;
	};
	void *mapping;			/* unused: the model has no page cache */
	unsigned long index;		/* pcp migratetype cache (6.6) */
	unsigned long private;		/* buddy order of a free block */
	unsigned int page_type;		/* the _mapcount union in the kernel */
	int _refcount;			/* atomic_t in the kernel */
	unsigned long memcg_data;	/* unused: no memcg */
};
_Static_assert(sizeof(struct page) == SMP_CACHE_BYTES, "struct page is one cache line");

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free;		/* blocks of this order, all types */
	/* the model's, not the kernel's: bumped by every list helper below
	 * (under zone->lock), so the checker at the next acquisition walks
	 * only the orders whose lists changed */
	unsigned long gen;
};

/*
 * The per-CPU structures are ____percpu_aligned (two cache lines), as each
 * CPU's copy lives in its own per-CPU area in the kernel: packed side by
 * side in one array, or a line apart, neighbouring CPUs would share lines
 * or pairs of lines, and the stress mode would measure false sharing the
 * kernel does not have.
 */
struct per_cpu_pages {
	spinlock_t lock;		/* Protects lists field */
	int count;			/* number of pages in the list */
	int high;			/* high watermark, emptying needed */
	int batch;			/* chunk size for buddy add/remove */
	short free_factor;		/* batch scaling factor during free */
	struct list_head lists[NR_PCP_LISTS];
} ____percpu_aligned;

struct per_cpu_zonestat {
	signed char vm_stat_diff[NR_VM_ZONE_STAT_ITEMS];
	signed char stat_threshold;
} ____percpu_aligned;

/* include/linux/vmstat.h: this CPU's event counters */
struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
} ____percpu_aligned;

enum zone_watermarks { WMARK_MIN, WMARK_LOW, WMARK_HIGH, NR_WMARK };

struct world;

struct zone {
	/* read-mostly */
	unsigned long _watermark[NR_WMARK];
	struct per_cpu_pages *per_cpu_pageset;		/* [ncpus] */
	struct per_cpu_zonestat *per_cpu_zonestats;	/* [ncpus] */
	int pageset_high;
	int pageset_batch;
	bool pcp_disabled;		/* zone_pcp_disable() in force */
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	atomic_long_t managed_pages;
	unsigned long percpu_drift_mark;
	unsigned long nr_reserved_highatomic;
	unsigned char *pageblock_mt;	/* migratetype of each pageblock */
	const char *name;
	int idx;
	struct world *w;

	/*
	 * Write-intensive fields used from the page allocator, on lines of
	 * their own as the kernel's CACHELINE_PADDING(_pad1_) puts them:
	 * beside the read-mostly fields above, every acquisition would take
	 * from every other CPU the line they read on each allocation.
	 */
	/* Primarily protects free_area */
	spinlock_t lock ____cacheline_aligned;
	struct free_area free_area[NR_PAGE_ORDERS];

	/* Zone statistics (CACHELINE_PADDING(_pad3_)): changed by atomics
	 * outside zone->lock, off the lock's and the free lists' lines */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;
} ____cacheline_aligned;

/*
 * The simulated machine's size, as the page allocator reads it: every array
 * is allocated from these.  Filled from the config table's keys (the keys
 * are in world.c and mm_init.c) when the world is created.
 */
struct machine_config {
	int ncpus;			/* 1..MAX_CPUS */
	int nzones;			/* 1..MODEL_MAX_ZONES */
	unsigned long zone_pages;	/* pages per zone, multiple of 2^max_order */
	int max_order;			/* largest buddy order (6.4+ MAX_ORDER) */
	int pb_order;			/* pageblock_order, <= max_order */
	int pcp_high;
	int pcp_batch;
	int stat_threshold;		/* vmstat per-CPU threshold, 1..125 */
	int variant;			/* enum pcp_bulk_variant */
};

/* free_pcppages_bulk as it was before, with and after seed 000's patch */
enum pcp_bulk_variant {
	PCP_BULK_SINGLE_PASS,		/* 6.6: pick and free in one pass under zone->lock */
	PCP_BULK_PICK_OUTSIDE,		/* 4.17 0a5f4e5b4562: pick first, free under the lock */
	PCP_BULK_LOCKED_RR,		/* 4.16: batch_free round-robin under zone->lock */
	NR_PCP_BULK_VARIANTS
};

struct world {
	struct mm_config config;	/* the keys it was built from */
	struct machine_config cfg;
	void *layer_state[MAX_LAYERS];	/* world_layer_state() */
	int nr_layers_created;
	int max_order;
	int pb_order;
	unsigned long pb_nr_pages;
	unsigned long nr_pages;		/* all zones */
	struct page *memmap;
	unsigned char *mem;		/* MODEL_PAGE_SIZE bytes per page */
	unsigned long mem_cap;		/* pages memmap and mem have room for */
	struct zone zones[MODEL_MAX_ZONES];
	int nr_zones;

	struct vm_event_state *vm_events;	/* [ncpus], per-CPU */
	struct mutex pcp_batch_high_lock;
	struct mutex pcpu_drain_mutex;
	/* a global of its own in the kernel (__cacheline_aligned_in_smp):
	 * not on the line of vm_events, read on every event */
	atomic_long_t vm_zone_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;

	/* max-order blocks touched since the last reset (see world.c) */
	unsigned char *dirty ____cacheline_aligned;
	unsigned long *dirty_list;
	unsigned long nr_dirty;
};

/* The world the model runs in: like the kernel's globals. */
extern struct world *mm_world;

#define MAX_ORDER		(mm_world->max_order)
#define pageblock_order		(mm_world->pb_order)
#define pageblock_nr_pages	(mm_world->pb_nr_pages)

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mm_world->memmap);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return &mm_world->memmap[pfn];
}

static inline struct zone *page_zone(const struct page *page)
{
	return &mm_world->zones[page_to_pfn(page) / mm_world->cfg.zone_pages];
}

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return pfn >= zone->zone_start_pfn && pfn < zone->zone_start_pfn + zone->spanned_pages;
}

static inline void *page_address(const struct page *page)
{
	return mm_world->mem + page_to_pfn(page) * MODEL_PAGE_SIZE;
}

static inline bool PageBuddy(const struct page *page)
{
	return page->page_type & PG_buddy;
}

static inline unsigned long zone_managed_pages(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

static inline unsigned long pageblock_start_pfn(unsigned long pfn)
{
	return pfn & ~(pageblock_nr_pages - 1);
}

static inline int get_pfnblock_migratetype(const struct page *page, unsigned long pfn)
{
	const struct zone *zone = page_zone(page);

	return READ_ONCE(zone->pageblock_mt[(pfn - zone->zone_start_pfn) >> pageblock_order]);
}

#define get_pageblock_migratetype(page) get_pfnblock_migratetype(page, page_to_pfn(page))

static inline bool free_area_empty(struct free_area *area, int migratetype)
{
	return list_empty(&area->free_list[migratetype]);
}

static inline unsigned int order_to_pindex(int migratetype, int order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER)
		return NR_LOWORDER_PCP_LISTS;
	return (unsigned int)(MIGRATE_PCPTYPES * order + migratetype);
}

static inline int pindex_to_order(unsigned int pindex)
{
	if (pindex == NR_LOWORDER_PCP_LISTS)
		return pageblock_order;
	return (int)(pindex / MIGRATE_PCPTYPES);
}

static inline bool pcp_allowed_order(unsigned int order)
{
	return order <= PAGE_ALLOC_COSTLY_ORDER || (int)order == pageblock_order;
}

#endif /* MMFUZZ_MM_MMZONE_H */

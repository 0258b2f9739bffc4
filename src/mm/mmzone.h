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
 *                       free pages, the buddy state of struct page,
 *                       nr_reserved_highatomic (also read without it, with
 *                       READ_ONCE: the watermark check and
 *                       reserve_highatomic_pageblock's first test)
 *   pcp->lock           pcp->lists[] and pcp->count (count is also read
 *                       racily by drain_all_pages, data_race())
 *   pcp_batch_high_lock updaters of pcp->high/batch (readers use READ_ONCE)
 *   pcpu_drain_mutex    serialises __drain_all_pages
 *   IRQs/preemption off the per-CPU vm_stat_diff of this CPU
 *   node_size_lock      a node's spans and first_deferred_pfn (pglist_data)
 * Lock order: pcp_batch_high_lock -> pcpu_drain_mutex -> pcp->lock -> zone->lock;
 *             node_size_lock -> zone->lock
 */
#ifndef MMFUZZ_MM_MMZONE_H
#define MMFUZZ_MM_MMZONE_H

#include <stdbool.h>
#include <stdint.h>

#include "../kernel/atomic.h"
#include "../kernel/bitops.h"
#include "../kernel/compiler.h"
#include "../kernel/cpumask.h"
#include "../kernel/list.h"
#include "../kernel/spinlock.h"
#include "../world/world.h"
#include "memblock.h"
#include "mmdebug.h"

/* world memory is aligned for the layers' ____percpu_aligned structures */
_Static_assert(WORLD_MEM_ALIGN % PERCPU_SLOT_BYTES == 0, "WORLD_MEM_ALIGN: a multiple of PERCPU_SLOT_BYTES");

/*
 * MAX_ORDER is the largest buddy order, inclusive (6.4+).  6.6 sizes its
 * arrays MAX_ORDER + 1 (6.8 calls that NR_PAGE_ORDERS); the model's
 * MAX_ORDER is the world's, so arrays are MODEL_MAX_ORDER + 1.
 */
#define MODEL_MAX_ORDER		10	/* largest max_order a world may use */
/* 6.8's name for MAX_ORDER + 1, kept for the checkers' arrays */
#define NR_PAGE_ORDERS		(MODEL_MAX_ORDER + 1)
#define MODEL_MAX_ZONES		2	/* zones of one node */
#define MODEL_MAX_NODES		2
#define MAX_NUMNODES		MODEL_MAX_NODES
/* the zones of every node: what a zonelist and the world's zone order hold */
#define MAX_ZONES_PER_ZONELIST	(MAX_NUMNODES * MODEL_MAX_ZONES)
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

/*
 * The zone types the model has: a one-zone world's zone is Normal, a
 * two-zone world's are DMA32 and Normal (zone_idx() maps a world's zones).
 */
enum zone_type {
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES
};
_Static_assert(MAX_NR_ZONES == MODEL_MAX_ZONES, "a world has at most one zone of each type");

enum zone_stat_item {
	NR_FREE_PAGES,
	NR_FREE_CMA_PAGES,		/* no CMA in the model: stays 0 */
	NR_VM_ZONE_STAT_ITEMS
};

/*
 * include/linux/vm_event_item.h: FOR_ALL_ZONES(PGALLOC) is one counter per
 * zone type, counted by __count_zid_vm_events() where 6.6 counts it.
 */
enum vm_event_item {
	PGALLOC_DMA32,
	PGALLOC_NORMAL,
	PGFREE,
	NR_VM_EVENT_ITEMS,
	/* not an event: sum_vm_event(PGALLOC) sums PGALLOC_* over the zones,
	 * what /proc/vmstat's pgalloc_* lines add up to */
	PGALLOC = NR_VM_EVENT_ITEMS
};

/*
 * struct page flags the model uses, at 6.6's bit numbers (include/linux/
 * page-flags.h): the first tail page's flags word holds a compound page's
 * order in its low byte, as the kernel's does, and that must not read as
 * PG_head.  The other bits below NR_PAGEFLAGS are the kernel's flags the
 * model does not have; they stay clear.
 */
enum pageflags {
	PG_head = 6,			/* the head page of a compound page */
	PG_reserved = 14,		/* not handed to the allocator */
	NR_PAGEFLAGS = 22
};

/*
 * page_type shares a union with _mapcount, initialised to -1, so the sense
 * of its bits is inverted: __SetPageBuddy *clears* PG_buddy.  The high bits
 * and the low 7 are reserved so that a page_mapcount() that under- or
 * overflows is not mistaken for a type.  Changed only under zone->lock.
 */
#define PAGE_TYPE_BASE		0xf0000000u
#define PAGE_MAPCOUNT_RESERVE	-128
#define PG_buddy		0x00000080u

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
		struct {	/* Tail pages of compound page */
			unsigned long compound_head;	/* Bit zero is set */
		};
	};
	void *mapping;			/* TAIL_MAPPING on tails; no page cache */
	unsigned long index;		/* pcp migratetype cache (6.6) */
	unsigned long private;		/* buddy order of a free block */
	union {		/* This union is 4 bytes in size. */
		atomic_t _mapcount;	/* -1: not mapped (no page tables yet) */
		unsigned int page_type;	/* PG_buddy, inverted (see above) */
	};
	/* Usage count. *DO NOT USE DIRECTLY*. See page_ref.h */
	atomic_t _refcount;
	unsigned long memcg_data;	/* unused: no memcg */
};
_Static_assert(sizeof(struct page) == SMP_CACHE_BYTES, "struct page is one cache line");

#define TAIL_MAPPING	((void *)0x400)	/* POISON_POINTER_DELTA is 0 */

/*
 * A folio is a physically, virtually and logically contiguous set of bytes:
 * a power-of-two sized, naturally aligned order-0 page or the head of a
 * compound page.  As in 6.6 it overlays the head page and the first two
 * tail pages (the second only exists from order 2).
 */
struct folio {
	union {
		struct {
			unsigned long flags;
			union {
				struct list_head lru;
			};
			void *mapping;
			unsigned long index;
			void *private;
			atomic_t _mapcount;
			atomic_t _refcount;
			unsigned long memcg_data;
		};
		struct page page;
	};
	union {
		struct {
			unsigned long _flags_1;		/* low byte: the order */
			unsigned long _head_1;
			unsigned long _folio_avail;
			atomic_t _entire_mapcount;
			atomic_t _nr_pages_mapped;
			atomic_t _pincount;
			unsigned int _folio_nr_pages;
		};
		struct page __page_1;
	};
	union {
		struct {
			unsigned long _flags_2a;
			unsigned long _head_2a;
			struct list_head _deferred_list;
		};
		struct page __page_2;
	};
};

#define FOLIO_MATCH(pg, fl)						\
	_Static_assert(offsetof(struct page, pg) == offsetof(struct folio, fl), #fl)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(mapping, mapping);
FOLIO_MATCH(index, index);
FOLIO_MATCH(private, private);
FOLIO_MATCH(_mapcount, _mapcount);
FOLIO_MATCH(_refcount, _refcount);
FOLIO_MATCH(memcg_data, memcg_data);
#undef FOLIO_MATCH
#define FOLIO_MATCH(pg, fl)						\
	_Static_assert(offsetof(struct folio, fl) ==			\
		       offsetof(struct page, pg) + sizeof(struct page), #fl)
FOLIO_MATCH(flags, _flags_1);
FOLIO_MATCH(compound_head, _head_1);
#undef FOLIO_MATCH
#define FOLIO_MATCH(pg, fl)						\
	_Static_assert(offsetof(struct folio, fl) ==			\
		       offsetof(struct page, pg) + 2 * sizeof(struct page), #fl)
FOLIO_MATCH(flags, _flags_2a);
FOLIO_MATCH(compound_head, _head_2a);
#undef FOLIO_MATCH

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
	int refilling;			/* the model's own (oracle.h): the blocks a
					 * refill asks for, from its read of
					 * pcp->batch until it counts them */
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
struct pglist_data;

struct zone {
	/* read-mostly */
	unsigned long _watermark[NR_WMARK];
	/*
	 * We don't know if the memory that we're going to allocate will be
	 * freeable or/and it will be released eventually, so to avoid totally
	 * wasting several GB of ram we must reserve some of the lower zone
	 * memory (otherwise we risk to run OOM on the lower zones despite
	 * there being tons of freeable ram on the higher zones).
	 * Indexed by the allocation's highest zone type.
	 */
	long lowmem_reserve[MAX_NR_ZONES];
	struct per_cpu_pages *per_cpu_pageset;		/* [ncpus] */
	struct per_cpu_zonestat *per_cpu_zonestats;	/* [ncpus] */
	int pageset_high;
	int pageset_batch;
	bool pcp_disabled;		/* zone_pcp_disable() in force */
	struct pglist_data *zone_pgdat;
	unsigned long flags;		/* enum zone_flags: set_bit, clear_bit, test_bit */
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long present_pages;	/* spanned_pages: no holes; 0: not populated */
	atomic_long_t managed_pages;
	unsigned long percpu_drift_mark;
	/* pages in MIGRATE_HIGHATOMIC pageblocks: zone->lock, READ_ONCE */
	unsigned long nr_reserved_highatomic;
	unsigned char *pageblock_mt;	/* migratetype of each pageblock */
	const char *name;
	/* the model's: the zone's place in the world's zone order (node by
	 * node, each node's zones in pfn order: for_each_populated_zone),
	 * which a program's zone=N names */
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
	struct free_area free_area[MODEL_MAX_ORDER + 1];

	/* the model's own (oracle.h): the pages on the free lists, kept by
	 * the list helpers under zone->lock, what the oracles compare with */
	long free_pages_exact;
	/* the model's own (oracle.h): NR_FREE_PAGES a vmstat fold has taken
	 * from a CPU's differential and not yet added to the counter */
	long free_fold_inflight;
	/* the model's own (oracle.h): the pages the zone->lock holder has
	 * off the free lists while NR_FREE_PAGES still, or already, counts
	 * them free, as far as 6.6's order lets it (page_alloc.c,
	 * free_inflight_add) */
	long free_inflight;

	/* Zone statistics (CACHELINE_PADDING(_pad3_)): changed by atomics
	 * outside zone->lock, off the lock's and the free lists' lines */
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;
} ____cacheline_aligned;

/*
 * include/linux/mmzone.h's zonelist: the zones an allocation may use, in
 * the order it tries them (build_zonelists), NULL-terminated.
 */
struct zoneref {
	struct zone *zone;		/* Pointer to actual zone */
	int zone_idx;			/* zone_idx(zoneref->zone) */
};

struct zonelist {
	struct zoneref _zonerefs[MAX_ZONES_PER_ZONELIST + 1];
};

enum {
	ZONELIST_FALLBACK,		/* zonelist with fallback */
	MAX_ZONELISTS			/* (no __GFP_THISNODE list: no NUMA policies) */
};

/*
 * A node: include/linux/mmzone.h's pglist_data.  A non-NUMA kernel has one,
 * contig_page_data; the model has `nodes` of them (config key), each with
 * its zones indexed by zone type (node_zones[ZONE_NORMAL]), an unpopulated
 * zone having no pages.  The node's pages are one pfn range.
 *
 * Locks:
 *   node_size_lock  (pgdat_resize_lock, a spinlock with IRQs saved) the
 *                   node's and its zones' spans and first_deferred_pfn;
 *                   nests above zone->lock (6.6 mmzone.h)
 * The model keeps no node counters (NR_VM_NODE_STAT_ITEMS: the LRU and
 * NR_ISOLATED_* come with reclaim and compaction).
 */
typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[MAX_ZONELISTS];
	int nr_zones;			/* number of populated zones in this node */
	unsigned long node_start_pfn;
	unsigned long node_present_pages; /* total number of physical pages */
	unsigned long node_spanned_pages; /* total size of physical page range */
	int node_id;
	spinlock_t node_size_lock;
	/* the first pfn whose struct page boot left uninitialised (deferred
	 * init), or ULONG_MAX: all initialised (the model's default) */
	unsigned long first_deferred_pfn;
	struct cpumask node_cpus;	/* cpumask_of_node() */
} pg_data_t;

/*
 * The simulated machine's size, as the page allocator reads it: every array
 * is allocated from these and the machine's CPUs (struct world).  Filled from
 * the config table's keys (in mm_init.c) when the world is created.
 */
struct pagealloc_config {
	int nnodes;			/* 1..MAX_NUMNODES, at most ncpus */
	int nzones;			/* 1..MODEL_MAX_ZONES (node 0's; others: Normal) */
	unsigned long zone_pages;	/* pages per zone, multiple of 2^max_order */
	int max_order;			/* largest buddy order (6.4+ MAX_ORDER) */
	int pb_order;			/* pageblock_order, <= max_order */
	int pcp_high;
	int pcp_batch;
	int stat_threshold;		/* vmstat per-CPU threshold, 1..125 */
	int variant;			/* enum pcp_bulk_variant */
	int drain;			/* enum drain_variant */
	int pcp_batch_scale_max;	/* CONFIG_PCP_BATCH_SCALE_MAX, 0..6 */
};

/* zone->flags (6.6 has ZONE_BOOSTED_WATERMARK too: no boosting in the model) */
enum zone_flags {
	ZONE_RECLAIM_ACTIVE = 1,	/* kswapd may be scanning the zone */
};

/* drain_pages_zone's look at pcp->count: 6.6's, and the later fix */
enum drain_variant {
	DRAIN_RACY_COUNT,		/* 6.6: READ_ONCE(pcp->count) before pcp->lock */
	DRAIN_LOCKED_COUNT,		/* 6.6.45: under pcp->lock, batch << SCALE_MAX at a time */
	NR_DRAIN_VARIANTS
};

/* free_pcppages_bulk as it was before, with and after seed 000's patch */
enum pcp_bulk_variant {
	PCP_BULK_SINGLE_PASS,		/* 6.6: pick and free in one pass under zone->lock */
	PCP_BULK_PICK_OUTSIDE,		/* 4.17 0a5f4e5b4562: pick first, free under the lock */
	PCP_BULK_LOCKED_RR,		/* 4.16: batch_free round-robin under zone->lock */
	NR_PCP_BULK_VARIANTS
};

/*
 * The page allocator's state in a world (its layer's, world_layer_state):
 * what the kernel keeps in globals (node_data[], mem_map, vm_event_states,
 * vm_zone_stat, pcp_batch_high_lock, pcpu_drain_mutex).  The
 * page allocator is layer 0, the lowest order (every later layer allocates
 * from it), so its state is the world's first: pa_world().
 */
struct pagealloc_world {
	struct pagealloc_config cfg;
	int max_order;
	int pb_order;
	unsigned long pb_nr_pages;
	unsigned long nr_pages;		/* all zones */
	struct page *memmap;
	unsigned char *mem;		/* MODEL_PAGE_SIZE bytes per page */
	unsigned long mem_cap;		/* pages memmap and mem have room for */
	unsigned long memmap_boot;	/* leading struct pages in the boot state
					 * (for the memmap pool, mm_init.c) */
	struct pglist_data node_data[MAX_NUMNODES];	/* NODE_DATA() */
	int nodes_online;		/* nr_online_nodes */
	/* the populated zones in the world's zone order (= pfn order); only
	 * the iterators, page_zone() and zone_by_idx() read it */
	struct zone *zone_order[MAX_ZONES_PER_ZONELIST];
	int nr_zones;			/* populated zones, all nodes */
	unsigned char cpu_node[MAX_CPUS];	/* cpu_to_node() */
	/* each node's first_deferred_pfn at boot (pagealloc_defer_memmap;
	 * ULONG_MAX: none), and where its memmap is poisoned from now */
	unsigned long deferred_boot_pfn[MAX_NUMNODES];
	unsigned long deferred_poisoned[MAX_NUMNODES];
	/* the nodes' memory, holes and reserved ranges (memblock.h): boot
	 * frees the free ranges; holes and reserved pages stay PageReserved */
	struct memblock memblock;

	struct vm_event_state *vm_events;	/* [ncpus], per-CPU */
	unsigned long oom_victims;	/* task ids marked by mark_oom_victim() */

	/*
	 * Their yield sites keep the names they had as struct world's fields,
	 * which the corpus's schedules name: "zone_pcp_enable:mutex_unlock(
	 * mm_world->pcp_batch_high_lock)", "zone_page_state_add:atomic(
	 * mm_world->vm_zone_stat[item])" (the _site forms of kernel/atomic.h
	 * and spinlock.h name them so).
	 */
	struct mutex pcp_batch_high_lock;
	struct mutex pcpu_drain_mutex;
	/* a global of its own in the kernel (__cacheline_aligned_in_smp):
	 * not on the line of vm_events, read on every event */
	atomic_long_t vm_zone_stat[NR_VM_ZONE_STAT_ITEMS] ____cacheline_aligned;

	/* max-order blocks touched since the last reset (mm_init.c) */
	unsigned char *dirty ____cacheline_aligned;
	unsigned long *dirty_list;
	unsigned long nr_dirty;
};

#define PAGEALLOC_LAYER_ID	0	/* mm_init.c checks it */

static inline struct pagealloc_world *pa_world(const struct world *w)
{
	return (struct pagealloc_world *)w->layer_state[PAGEALLOC_LAYER_ID];
}

/* The page allocator of the world the model runs in. */
#define mm_pa			pa_world(mm_world)

#define MAX_ORDER		(mm_pa->max_order)
#define pageblock_order		(mm_pa->pb_order)
#define pageblock_nr_pages	(mm_pa->pb_nr_pages)
/* mm/Kconfig's int, the pcp_batch_scale_max key */
#define CONFIG_PCP_BATCH_SCALE_MAX	(mm_pa->cfg.pcp_batch_scale_max)

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mm_pa->memmap);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return &mm_pa->memmap[pfn];
}

/*
 * The world's pfns are the zones' nr_pages and, past them, one page of the
 * kernel image: x86's empty_zero_page (head_64.S), the zero page memory.c
 * maps.  It is PageReserved, in no zone, never in the buddy; mm_init.c
 * gives it memory and a struct page beside the zones', memory.c's
 * zero_page_boot() sets it up.
 */
#define empty_zero_pfn(pa)	((pa)->nr_pages)
#define world_nr_pfns(pa)	((pa)->nr_pages + 1)

/*
 * The zone of a page: as the kernel's zone bits in page->flags would answer
 * (set from the zone whose range holds the pfn), by a lookup of the ranges.
 * 6.6 reads them through page_to_nid's PF_POISONED_CHECK: so does the
 * model, of a word it otherwise does not read.  page_to_nid, page_pgdat
 * and page_zonenum are page_zone's, and report their caller's site.
 */
static inline struct zone *page_zone_at(const struct page *page, const char *site)
{
	unsigned long pfn = page_to_pfn(page);
	struct zone *const *z = mm_pa->zone_order;
	struct zone *const *last = z + mm_pa->nr_zones - 1;

	if (site)
		PF_POISONED_CHECK(page, site);
	while (z < last && pfn - (*z)->zone_start_pfn >= (*z)->spanned_pages)
		z++;
	return *z;
}
#define page_zone(page)		page_zone_at((page), __func__)
/* The lookup page_is_buddy's page_zone_id() makes in 6.6, unchecked there:
 * the buddy walk's zone of the page in hand, a free block's */
#define page_zone_id_zone(page)	page_zone_at((page), NULL)

#define NODE_DATA(nid)		(&mm_pa->node_data[(nid)])
#define nr_online_nodes		(mm_pa->nodes_online)
#define for_each_online_node(nid)						\
	for ((nid) = 0; (nid) < nr_online_nodes; (nid)++)

/* for_each_online_pgdat: the kernel's first/next_online_pgdat */
static inline struct pglist_data *first_online_pgdat(void)
{
	return NODE_DATA(0);
}

static inline struct pglist_data *next_online_pgdat(struct pglist_data *pgdat)
{
	int nid = pgdat->node_id + 1;

	return nid < nr_online_nodes ? NODE_DATA(nid) : NULL;
}

#define for_each_online_pgdat(pgdat)						\
	for ((pgdat) = first_online_pgdat(); (pgdat); (pgdat) = next_online_pgdat(pgdat))

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

/* next_zone(): the next zone of the node, then the next node's first */
static inline struct zone *next_zone(struct zone *zone)
{
	struct pglist_data *pgdat = zone->zone_pgdat;

	if (zone < pgdat->node_zones + MAX_NR_ZONES - 1)
		return zone + 1;
	pgdat = next_online_pgdat(pgdat);
	return pgdat ? pgdat->node_zones : NULL;
}

#define for_each_zone(zone)							\
	for ((zone) = (first_online_pgdat())->node_zones; (zone); (zone) = next_zone(zone))

#define for_each_populated_zone(zone)						\
	for_each_zone(zone)							\
		if (!populated_zone(zone))					\
			; /* do nothing */					\
		else

/* The zone a program's zone=N names: the Nth of for_each_populated_zone. */
static inline struct zone *zone_by_idx(const struct world *w, int idx)
{
	return pa_world(w)->zone_order[idx];
}

/* The zone's type (6.6: its index in its node's node_zones[]). */
static inline enum zone_type zone_idx(const struct zone *zone)
{
	return (enum zone_type)(zone - zone->zone_pgdat->node_zones);
}

static inline int zone_to_nid(const struct zone *zone)
{
	return zone->zone_pgdat->node_id;
}

#define page_to_nid(page)	zone_to_nid(page_zone(page))
#define page_pgdat(page)	(page_zone(page)->zone_pgdat)

/* include/linux/topology.h: the node of a CPU, and a node's CPUs */
static inline int cpu_to_node(int cpu)
{
	return mm_pa->cpu_node[cpu];
}

#define cpumask_of_node(nid)	(&NODE_DATA(nid)->node_cpus)

/* numa_node_id(): raw_cpu_read(numa_node), no preemption check */
#define numa_node_id()		cpu_to_node(raw_smp_processor_id())

/* include/linux/memory_hotplug.h: the node's span and first_deferred_pfn */
#define pgdat_resize_lock(pgdat, flags)	spin_lock_irqsave(&(pgdat)->node_size_lock, (flags))
#define pgdat_resize_unlock(pgdat, flags)					\
	spin_unlock_irqrestore(&(pgdat)->node_size_lock, (flags))

#define page_zonenum(page)	zone_idx(page_zone(page))

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return pfn >= zone->zone_start_pfn && pfn < zone->zone_start_pfn + zone->spanned_pages;
}

static inline void *page_address(const struct page *page)
{
	return mm_pa->mem + page_to_pfn(page) * MODEL_PAGE_SIZE;
}

static inline unsigned long zone_managed_pages(struct zone *zone)
{
	return (unsigned long)atomic_long_read(&zone->managed_pages);
}

static inline unsigned long pageblock_start_pfn(unsigned long pfn)
{
	return pfn & ~(pageblock_nr_pages - 1);
}

/* "This races, without locks, with set_pfnblock_flags_mask()": READ_ONCE */
static inline int get_pfnblock_migratetype(const struct page *page, unsigned long pfn)
{
	const struct zone *zone = page_zone(page);
	unsigned long block = (pfn - zone->zone_start_pfn) >> pageblock_order;

	return READ_ONCE(zone->pageblock_mt[block]);
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

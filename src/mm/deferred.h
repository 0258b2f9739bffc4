/* SPDX-License-Identifier: MIT */
/*
 * Deferred struct-page init (CONFIG_DEFERRED_STRUCT_PAGE_INIT of Linux
 * 6.6.0: mm/mm_init.c 666-698 defer_init, 1963-2325 deferred_init_memmap
 * and deferred_grow_zone, 2375-2417 page_alloc_init_late; mm/page_alloc.c
 * deferred_pages and _deferred_grow_zone).  The model's init lives in
 * src/mm/deferred_init.c (mm_init.c is near 800 lines), the memblock-like
 * range table in src/mm/memblock.c, the checkers in src/check/deferred.c.
 *
 * Boot (this layer's create and boot): memblock holds each node's memory
 * with holes (memblock_remove) and reserved ranges (memblock_reserve);
 * with the deferred_init key on, defer_init() picks each node's
 * first_deferred_pfn after PAGES_PER_SECTION present pages of the node's
 * highest zone, on a section boundary, and the page allocator's boot
 * leaves the free struct pages from there on uninitialised (poisoned).
 * Holes and reserved pages are initialised as PageReserved at boot even
 * past it (6.6's init_unavailable_range and memmap_init_reserved_pages).
 * The deferred_pages static key is on until page_alloc_init_late.
 *
 * Locks (6.6):
 *   pgdat_resize_lock   first_deferred_pfn (read racily by
 *                       deferred_grow_zone first, compared under it);
 *                       nests above zone->lock
 *   zone->lock          taken by every __free_pages_core's free
 *   ps->lock, padata_works_lock   padata (src/kernel/padata.h)
 * Lock order: node_size_lock -> zone->lock (pgdat_resize_lock: deferred_grow_zone frees
 * under the resize lock; deferred_init_memmap frees without it).
 */
#ifndef MMFUZZ_MM_DEFERRED_H
#define MMFUZZ_MM_DEFERRED_H

#include <stdbool.h>
#include <stdint.h>

#include "../kernel/atomic.h"
#include "../kernel/completion.h"
#include "../kernel/hooks.h"
#include "../kernel/padata.h"
#include "../world/config.h"
#include "mmzone.h"

struct fsched;

/* ---- bug switches (src/mm/deferred_bugs.c; bits fixed forever) ---- */
enum {
	/* BUG_PADATA_CHUNK_OVERLAP 32, BUG_PADATA_CHUNK_GAP 33: padata.h (they
	 * bite in kernel/padata.c); BUG_MANAGED_PAGES_NONATOMIC 35: internal.h
	 * (it bites in __free_pages_core); all registered in deferred_bugs.c */
	BUG_MAXORDER_FREE_BEFORE_INIT = 34,	/* free a MAX_ORDER block, then init */
};

/* ---- config keys (binary places 80..95; fixed forever) ---- */

/* deferred_page_init_max_threads(): 6.6's generic __weak 1, or x86's
 * (and after seed 002 every architecture's) node CPU count */
enum deferred_threads_variant {
	DEFERRED_THREADS_ONE,
	DEFERRED_THREADS_NODE_CPUS,
	NR_DEFERRED_THREADS_VARIANTS
};

extern struct config_key ck_deferred_init;	/* 80: boot with init pending */
extern struct config_key ck_section_order;	/* 81: log2(PAGES_PER_SECTION / MAX_ORDER_NR_PAGES) */
extern struct config_key ck_memblock_holes;	/* 82..83: a hole per node (byte n: node n) */
extern struct config_key ck_memblock_reserved;	/* 84..85: a reserved range per node */
extern struct config_key ck_deferred_min_chunk;	/* 86: padata min_chunk, in sections */
extern struct config_key ck_deferred_threads;	/* 87: one | node_cpus */

/*
 * A hole or reserved spec byte of a node: 0 is none; else bits 0..4 the
 * place (in 32nds of the node's last zone, plus (place & 3) pages, so
 * ranges start off MAX_ORDER boundaries) and bits 5..7 the length
 * (3 * len + 1 pages, len 0..7), clipped to the zone.
 */
void memblock_spec_range(unsigned char spec, unsigned long zone_start, unsigned long zone_pages,
			 unsigned long *start, unsigned long *end);

/* ---- per-world state ---- */

/*
 * What deferred init did on one node, for tests, stress and checkers (the
 * model writes it, nothing in the model reads it).
 */
struct deferred_node_stat {
	unsigned long first_deferred_pfn_boot;	/* defer_init's choice, ULONG_MAX none */
	unsigned long pages_deferred;	/* free pfns past it at boot */
	unsigned long pages_initialised;	/* by deferred_init_memmap's chunks */
	unsigned long pages_grown;	/* by deferred_grow_zone */
	unsigned long nr_grows;		/* deferred_grow_zone calls that grew */
	unsigned long nr_grows_irq;	/* ... from interrupt context */
	unsigned long nr_jobs;		/* padata jobs: free ranges */
	int max_threads;		/* deferred_page_init_max_threads() */
	int nworks;			/* padata works, all jobs (the caller included) */
	int nworks_fini;
	uint64_t ns;			/* deferred_init_memmap's time (CLOCK_MONOTONIC) */
	bool done;			/* pgdat_init_report_one_done ran for it */
};

struct deferred_world {
	int enabled;			/* ck_deferred_init */
	unsigned long pages_per_section;	/* PAGES_PER_SECTION */
	int min_chunk_sections;
	int threads_variant;		/* enum deferred_threads_variant */
	unsigned char holes[MAX_NUMNODES], reserved[MAX_NUMNODES];

	/* 6.6: DEFINE_STATIC_KEY_TRUE(deferred_pages) (page_alloc.c) */
	int deferred_pages;
	/* 6.6: pgdat_init_n_undone, pgdat_init_all_done_comp (mm_init.c) */
	atomic_t pgdat_init_n_undone;
	struct completion pgdat_init_all_done_comp;
	bool init_started;		/* page_alloc_init_late's kthreads are out */
	bool init_done;			/* page_alloc_init_late's wait returned */
	struct padata_pool padata;	/* padata_free_works */

	struct deferred_node_stat stat[MAX_NUMNODES];
	/* the zones' watermarks as created (zone order), put back by
	 * page_alloc_init_late (init_per_zone_wmark_min's part) */
	unsigned long watermark[MAX_ZONES_PER_ZONELIST][NR_WMARK];
};

/*
 * The layer's hooks (kernel/hooks.h's form; src/check/deferred.c fills
 * them): they read, change nothing, never yield.
 * init_pages: deferred_init_pages is about to initialise [pfn, pfn + nr);
 * free_range: deferred_free_range is about to free [pfn, pfn + nr) through
 *   __free_pages_core (before it touches a struct page);
 * chunk: padata ran deferred_init_memmap_chunk on [start, end);
 * job_begin, job_done: deferred_init_memmap's padata job [start, start +
 *   size) of @zone, and what padata computed (@ps);
 * first_deferred_pfn_set: @pgdat's first_deferred_pfn goes @old -> @new,
 *   under pgdat_resize_lock;
 * node_done: deferred_init_memmap of @pgdat is about to report done;
 * init_late_done: page_alloc_init_late turned the static key off;
 * state_grow, state_chunk: for state as coverage (the form of
 *   src/check/pagealloc_features.c; no feature fills them yet): deferred_grow_zone
 *   of @zone ended in @outcome (enum deferred_grow_outcome); a chunk
 *   [start, end) of a job ran.
 */
enum deferred_grow_outcome {
	GROW_NOT_LAST_ZONE,		/* only the last zone may have deferred pages */
	GROW_RACED,			/* first_deferred_pfn changed while it waited */
	GROW_GREW,			/* whole sections initialised and freed */
	GROW_EMPTIED,			/* nothing left: ULONG_MAX, "retry only once" */
	GROW_TAKEN,			/* init had taken it: false */
	GROW_NOTHING,			/* a range, but no page grown */
};
struct deferred_hooks {
	void (*init_pages)(unsigned long pfn, unsigned long nr);
	void (*free_range)(unsigned long pfn, unsigned long nr);
	void (*chunk)(const struct zone *zone, unsigned long start, unsigned long end);
	void (*job_begin)(const struct zone *zone, unsigned long start, unsigned long size);
	void (*job_done)(const struct zone *zone, unsigned long start, unsigned long size,
			 const struct padata_stat *ps);
	void (*first_deferred_pfn_set)(const pg_data_t *pgdat, unsigned long old, unsigned long new);
	void (*node_done)(const pg_data_t *pgdat);
	void (*init_late_done)(void);
	void (*state_grow)(const struct zone *zone, int outcome);
	void (*state_chunk)(const struct zone *zone, unsigned long start, unsigned long end,
			    unsigned long section);
};
DECLARE_HOOKS(deferred);

/* The layer's state in @w, NULL when the layer is not in the world. */
struct deferred_world *deferred_world(const struct world *w);

/* ---- the API the operations and the stress workload call ---- */

/* The world booted before page_alloc_init_late (deferred_init on, whether
 * or not a zone was large enough to defer pages); false once
 * page_alloc_init_late is done. */
bool deferred_init_pending(const struct world *w);

/* 6.6 page_alloc.c: static_branch_unlikely(&deferred_pages) */
bool deferred_pages_enabled(void);

/*
 * page_alloc_init_late's count of nodes to wait for (pgdat_init_n_undone),
 * once a boot: 0 when this caller claimed the init (it must then run
 * deferred_init_memmap for every online node, on whatever threads: the
 * stress workload), -EBUSY when someone already had.
 */
int deferred_init_claim(void);

/*
 * page_alloc_init_late's first half: start one kthread pgdatinit%d per
 * node with memory, bound to the node's CPUs, each running
 * deferred_init_memmap (from a running task or a run hook of @fs).
 * Once per boot; the second call does nothing.  0, or -EAGAIN when no
 * kthread slot was left (the node's init then runs in the caller).
 */
int deferred_init_start(struct fsched *fs);

/*
 * page_alloc_init_late's second half: wait_for_completion of every node
 * (starting the kthreads first if nobody did), then turn the static key
 * off.  From a task.
 */
void deferred_init_wait(void);

/* page_alloc_init_late() as 6.6 has it: start, wait, key off. */
void page_alloc_init_late(void);

/*
 * deferred_init_memmap(pgdat) run by the caller (the stress workload
 * times it on real threads, after deferred_init_claim: padata helpers
 * there are what the pool gives, none outside a fiber run today);
 * returns 0.  pgdatinit's body.
 */
int deferred_init_memmap(pg_data_t *pgdat);

/* 6.6 mm_init.c: grow @zone by whole sections until 2^@order pages are
 * met; true if it grew (or someone else did meanwhile). */
bool deferred_grow_zone(struct zone *zone, unsigned int order);

/* What happened on node @nid so far. */
void deferred_node_stat_get(const struct world *w, int nid, struct deferred_node_stat *st);

#endif /* MMFUZZ_MM_DEFERRED_H */

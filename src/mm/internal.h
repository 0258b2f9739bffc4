/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of src/mm, like the kernel's mm/internal.h. */
#ifndef MMFUZZ_MM_INTERNAL_H
#define MMFUZZ_MM_INTERNAL_H

#include "../bugs/bugs.h"
#include "../kernel/bug.h"
#include "../kernel/percpu.h"
#include "mm.h"

/* The page allocator's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_PCP_PICK_UNLOCKED = 0,             /* seed 000 */
	BUG_PCP_FREE_NOLOCK = 1,               /* missing lock on a pcp path */
	BUG_FREE_ONE_PAGE_NOLOCK = 2,          /* missing lock on a buddy path */
	BUG_VMSTAT_LOST_UPDATE = 3,            /* lost update on a free-page counter */
	BUG_PCP_COUNT_APART = 4,               /* counter updated apart from its list */
	BUG_PCP_LOCK_IRQ = 5,                  /* spin_lock where IRQ reentrancy needs trylock */
	BUG_PCP_FREE_BOOT_PAGESET = 10,        /* a check for an edge of the kernel's ranges removed */
	BUG_REFILL_COUNTS_BATCH = 11,          /* a count of what was asked, not what was got */
	BUG_FREE_COUNT_AFTER_UNLOCK = 12,      /* a counter moved out of its lock: transiently wrong */
	BUG_FREE_COUNT_BEFORE_TAKE = 40,       /* a counter updated before its list, under the lock */
	BUG_FREE_COUNT_BEFORE_LIST = 46,       /* a batch accounted before its blocks are listed */
	BUG_MANAGED_PAGES_NONATOMIC = 35,      /* deferred init's (deferred_bugs.c): __free_pages_core */
};

/* The page allocator's stat snapshot (page_alloc_stat.c, layer.h). */
struct pagealloc_stat {
	unsigned long mm[NR_MM_STAT_ITEMS];
	unsigned long pgalloc, pgfree;
	unsigned long zone_acquired, zone_contended, zone_trylock_failed;
	uint64_t zone_hold_cycles;
	unsigned long pcp_acquired, pcp_contended, pcp_trylock_failed;
	unsigned long pcp_pages, pcp_runs;	/* on the pcp lists now; runs of pfns */
};
void pagealloc_stat_snap(struct world *w, void *snap);
void pagealloc_stat_print(FILE *out, const void *a, const void *b,
			  const struct layer_stat_span *span);
/* The pages on the pcp lists, and the runs of consecutive pfns of one CPU's. */
void pcp_layout(struct world *w, unsigned long *pages, unsigned long *runs);

/* Free Page Internal flags */
typedef int fpi_t;
#define FPI_NONE	0
#define FPI_TO_TAIL	(1 << 1)
/* the model's: __free_pages_core's free (HOOK(pagealloc, core_freed) under zone->lock) */
#define FPI_MEMINIT	(1 << 7)
/* the model's: free_count_before_list's free_pcppages_bulk accounted the
 * block with its batch, __free_one_page does not again */
#define FPI_BATCH_ACCOUNTED	(1 << 8)

/* The ALLOC_WMARK bits are used as an index to zone->watermark */
#define ALLOC_WMARK_MIN		WMARK_MIN
#define ALLOC_WMARK_LOW		WMARK_LOW
#define ALLOC_WMARK_HIGH	WMARK_HIGH
#define ALLOC_NO_WATERMARKS	0x04 /* don't check watermarks at all */

/* Mask to get the watermark bits */
#define ALLOC_WMARK_MASK	(ALLOC_NO_WATERMARKS - 1)

#define ALLOC_OOM		0x08 /* an OOM victim: a further half of the reserve */
#define ALLOC_NON_BLOCK		0x10 /* Caller cannot block. Allow access
				      * to 25% of the min watermark or
				      * 62.5% if __GFP_HIGH is set. */
#define ALLOC_MIN_RESERVE	0x20 /* __GFP_HIGH set. Allow access to 50%
				      * of the min watermark. */
#define ALLOC_CPUSET		0x40 /* check for correct cpuset: no cpusets here */
#define ALLOC_CMA		0x80 /* allow allocations from CMA areas: no CMA */
#define ALLOC_NOFRAGMENT	0x100 /* avoid mixing pageblock types */
#define ALLOC_HIGHATOMIC	0x200 /* Allows access to MIGRATE_HIGHATOMIC */
#define ALLOC_KSWAPD		0x800 /* allow waking of kswapd, __GFP_KSWAPD_RECLAIM set */

/* Flags that allow allocations below the min watermark. */
#define ALLOC_RESERVES (ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_HIGHATOMIC | ALLOC_OOM)

/*
 * Structure for holding the mostly immutable allocation parameters passed
 * between functions involved in allocations, including the alloc_pages*
 * family of functions.  The zonelist is the local node's (numa_node_id()):
 * its zones from the highest type down, then the other nodes' by distance
 * (build_zonelists); no nodemask, no cpusets.
 */
struct alloc_context {
	struct zonelist *zonelist;
	/*
	 * The first zone of the zonelist the allocation may use: the zone
	 * the fast path and the fallbacks weigh the others against, as in
	 * 6.6 ("the first usable zone ... not necessarily the local node").
	 */
	struct zoneref *preferred_zoneref;
	int migratetype;
	enum zone_type highest_zoneidx;
};

/* The zonerefs from @z on whose zone type is at most @highest_zoneidx. */
static inline struct zoneref *next_zones_zonelist(struct zoneref *z,
						  enum zone_type highest_zoneidx)
{
	while (z->zone && z->zone_idx > (int)highest_zoneidx)
		z++;
	return z;
}

static inline struct zoneref *first_zones_zonelist(struct zonelist *zonelist,
						   enum zone_type highest_zoneidx)
{
	return next_zones_zonelist(zonelist->_zonerefs, highest_zoneidx);
}

/* The zonelist walk: from the preferred zone to the last usable one. */
#define for_next_zone_zonelist(zone, z, ac)					\
	for ((z) = (ac)->preferred_zoneref; ((zone) = (z)->zone) != NULL;	\
	     (z) = next_zones_zonelist((z) + 1, (ac)->highest_zoneidx))

static inline unsigned int buddy_order(const struct page *page)
{
	return (unsigned int)page->private;
}

static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

/* Plain in the kernel: the page is ours, or on a list whose lock we hold
 * (move_freepages peeks at allocated pages: relaxed, not a yield point). */
static inline int get_pcppage_migratetype(const struct page *page)
{
	return (int)__READ_ONCE(page->index);
}

static inline void set_pcppage_migratetype(struct page *page, int migratetype)
{
	__WRITE_ONCE(page->index, (unsigned long)migratetype);
}

/* mm_init.c: remember that a max-order block's pages left their boot state */
void world_touch_pfn(unsigned long pfn);
void set_pageblock_migratetype(struct page *page, int migratetype);

/* mm_init.c */
/*
 * Leave @nid's struct pages from @pfn on (a max-order block boundary in the
 * node; ULONG_MAX: none) uninitialised at the next boot, with
 * first_deferred_pfn = @pfn: what deferred init's layer asks from its
 * create.  0 or -EINVAL.
 */
int pagealloc_defer_memmap(struct world *w, int nid, unsigned long pfn);
void __init_single_page(struct page *page, unsigned long pfn, unsigned long zone, int nid);
/* The boot state of @nr_pages struct pages from @start_pfn of @w's memmap
 * (free, before they reach the free lists) */
void memmap_init_boot(struct world *w, unsigned long start_pfn, unsigned long nr_pages);

/* alloc_pages.c: vmstat thresholds, lowmem reserves, no OOM victims (boot) */
void page_alloc_boot_state(struct world *w);
/* alloc_pages.c: static in the kernel, here for the tests */
unsigned int gfp_to_alloc_flags(gfp_t gfp_mask, unsigned int order);
unsigned int __gfp_pfmemalloc_flags(gfp_t gfp_mask);
unsigned int alloc_flags_nofragment(struct zone *zone, gfp_t gfp_mask);
/* alloc_pages.c and page_alloc_slowpath.c: static in the kernel's one file */
struct page *get_page_from_freelist(gfp_t gfp_mask, unsigned int order, int alloc_flags,
				    const struct alloc_context *ac);
struct page *__alloc_pages_slowpath(gfp_t gfp_mask, unsigned int order,
				    struct alloc_context *ac);

/* No CMA in the model: nothing to add. */
static inline unsigned int gfp_to_alloc_flags_cma(gfp_t gfp_mask, unsigned int alloc_flags)
{
	(void)gfp_mask;
	return alloc_flags;
}

/* page_alloc.c: the buddy allocator, called from the pcp code */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone,
		     unsigned int order, int migratetype, fpi_t fpi_flags);
void free_one_page(struct zone *zone, struct page *page, unsigned long pfn,
		   unsigned int order, int migratetype, fpi_t fpi_flags);
int rmqueue_bulk(struct zone *zone, unsigned int order, unsigned long count,
		 struct list_head *list, int migratetype, unsigned int alloc_flags);
struct page *rmqueue_buddy(struct zone *preferred_zone, struct zone *zone,
			   unsigned int order, unsigned int alloc_flags, int migratetype);
bool free_pages_prepare(struct page *page, unsigned int order);
void post_alloc_hook(struct page *page, unsigned int order, gfp_t gfp_flags);
void prep_new_page(struct page *page, unsigned int order, gfp_t gfp_flags,
		   unsigned int alloc_flags);
void prep_compound_page(struct page *page, unsigned int order);
void free_the_page(struct page *page, unsigned int order);
/* 6.6: memblock and deferred init hand pages to the buddy allocator */
void __free_pages_core(struct page *page, unsigned int order);
void reserve_highatomic_pageblock(struct page *page, struct zone *zone);
bool unreserve_highatomic_pageblock(const struct alloc_context *ac, bool force);

/* include/linux/swap.h: pages one lock hold covers (lruvec, pcp) */
#define SWAP_CLUSTER_MAX 32UL

/* page_alloc_pcp.c */
struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone,
			     unsigned int order, int migratetype, unsigned int alloc_flags);
void free_unref_page(struct page *page, unsigned int order);
void free_unref_page_list(struct list_head *list);

/* swap.c, swap_state.c: the TLB gather's batch free */
void release_pages(struct page **pages, int nr);
void free_pages_and_swap_cache(struct page **pages, int nr);
void per_cpu_pages_init(struct per_cpu_pages *pcp, struct per_cpu_zonestat *pzstats,
			int cpu, int high, int batch);

/* vmstat.c */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void __count_vm_events(enum vm_event_item item, long delta);
/* FOR_ALL_ZONES items: @item##_NORMAL is the Normal zone's */
#define __count_zid_vm_events(item, zid, delta) \
	__count_vm_events((enum vm_event_item)(item##_NORMAL - ZONE_NORMAL + (zid)), (delta))
void cpu_vm_stats_fold(int cpu);
void vm_events_fold_cpu(int cpu);

static inline void __mod_zone_freepage_state(struct zone *zone, int nr_pages, int migratetype)
{
	__mod_zone_page_state(zone, NR_FREE_PAGES, nr_pages);
	(void)migratetype;	/* no CMA */
}

struct mm_stat_cpu {
	unsigned long item[NR_MM_STAT_ITEMS];
} ____percpu_aligned;
extern struct mm_stat_cpu *mm_stat_percpu;

#endif /* MMFUZZ_MM_INTERNAL_H */

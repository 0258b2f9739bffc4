/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of src/mm, like the kernel's mm/internal.h. */
#ifndef MMFUZZ_MM_INTERNAL_H
#define MMFUZZ_MM_INTERNAL_H

#include "../bugs/bugs.h"
#include "../kernel/bug.h"
#include "../kernel/percpu.h"
#include "mm.h"

/* Free Page Internal flags */
typedef int fpi_t;
#define FPI_NONE	0
#define FPI_TO_TAIL	(1 << 1)

#define ALLOC_WMARK_MIN		0x00
#define ALLOC_WMARK_LOW		0x01
#define ALLOC_WMARK_MASK	0x03
#define ALLOC_HIGH		0x20
#define ALLOC_NOFRAGMENT	0x100

static inline void __SetPageBuddy(struct page *page)
{
	page->page_type |= PG_buddy;
}

static inline void __ClearPageBuddy(struct page *page)
{
	page->page_type &= ~PG_buddy;
}

static inline int page_ref_count(const struct page *page)
{
	return __atomic_load_n(&page->_refcount, __ATOMIC_RELAXED);
}

static inline void set_page_count(struct page *page, int v)
{
	__atomic_store_n(&page->_refcount, v, __ATOMIC_RELAXED);
}

/* put_page_testzero() without the yield of an atomic: the page is ours */
static inline bool page_ref_dec_and_test(struct page *page)
{
	return __atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL) == 0;
}

static inline unsigned int buddy_order(const struct page *page)
{
	return (unsigned int)page->private;
}

static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static inline int get_pcppage_migratetype(const struct page *page)
{
	return (int)READ_ONCE(page->index);
}

static inline void set_pcppage_migratetype(struct page *page, int migratetype)
{
	WRITE_ONCE(page->index, (unsigned long)migratetype);
}

/* mm_init.c: remember that a max-order block's pages left their boot state */
void world_touch_pfn(unsigned long pfn);
/* world.c: zeroed, aligned to a pair of lines (____percpu_aligned) */
void *calloc_lines(size_t n, size_t size);
void set_pageblock_migratetype(struct page *page, int migratetype);

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
void post_alloc_hook(struct page *page, unsigned int order);

/* page_alloc_pcp.c */
struct page *rmqueue_pcplist(struct zone *preferred_zone, struct zone *zone,
			     unsigned int order, int migratetype, unsigned int alloc_flags);
void free_unref_page(struct page *page, unsigned int order);
void per_cpu_pages_init(struct per_cpu_pages *pcp, struct per_cpu_zonestat *pzstats,
			int cpu, int high, int batch);

/* vmstat.c */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta);
void __count_vm_events(enum vm_event_item item, long delta);
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

/* SPDX-License-Identifier: MIT */
/*
 * Page flags, page types and compound pages: Linux 6.6
 * include/linux/page-flags.h cut down to the flags the model has.
 *
 * page->flags of an allocated page belong to whoever holds it; of a free
 * page to zone->lock or the pcp->lock of its list.  page_type (PageBuddy)
 * changes only under zone->lock.  A compound page's head and tails are
 * written by prep_compound_page() before the allocation returns and by
 * free_pages_prepare() after the last reference is gone: never shared, so
 * their accesses are the __ and raw_ forms, not yield points.
 */
#ifndef MMFUZZ_MM_PAGE_FLAGS_H
#define MMFUZZ_MM_PAGE_FLAGS_H

#include "../kernel/bug.h"
#include "mmzone.h"

/* Flags checked when a page is freed: whoever freed it forgot to clear. */
#define PAGE_FLAGS_CHECK_AT_FREE	(1UL << PG_reserved)
/* Flags checked when a page is prepped for return by the page allocator,
 * cleared when it is freed. */
#define PAGE_FLAGS_CHECK_AT_PREP	((1UL << NR_PAGEFLAGS) - 1)
/* Flags stored in the second page of a compound page: the order */
#define PAGE_FLAGS_SECOND		0xffUL

static inline bool PageReserved(const struct page *page)
{
	return page->flags & (1UL << PG_reserved);
}

/* ---- compound pages ---- */

static inline unsigned long _compound_head(const struct page *page)
{
	unsigned long head = __READ_ONCE(page->compound_head);

	if (unlikely(head & 1))
		return head - 1;
	return (unsigned long)page;	/* no HugeTLB vmemmap: no fake heads */
}

#define compound_head(page)	((__typeof__(page))_compound_head(page))

/* The folio a page belongs to: its compound head, or itself. */
#define page_folio(p)		(_Generic((p),				\
	const struct page *:	(const struct folio *)_compound_head(p), \
	struct page *:		(struct folio *)_compound_head(p)))

#define folio_page(folio, n)	(&(folio)->page + (n))

static inline bool PageTail(const struct page *page)
{
	return __READ_ONCE(page->compound_head) & 1;
}

static inline bool PageHead(const struct page *page)
{
	return page->flags & (1UL << PG_head);
}

static inline void __SetPageHead(struct page *page)
{
	page->flags |= 1UL << PG_head;
}

static inline void ClearPageHead(struct page *page)
{
	page->flags &= ~(1UL << PG_head);
}

static inline bool PageCompound(const struct page *page)
{
	return PageHead(page) || PageTail(page);
}

static inline bool folio_test_head(const struct folio *folio)
{
	return PageHead(&folio->page);
}

/* A folio of more than one page: a compound page's head. */
static inline bool folio_test_large(const struct folio *folio)
{
	return folio_test_head(folio);
}

static inline void set_compound_head(struct page *page, struct page *head)
{
	__WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

static inline void clear_compound_head(struct page *page)
{
	__WRITE_ONCE(page->compound_head, 0UL);
}

/* The order of a compound page, 0 for any other page (mm.h in 6.6). */
static inline unsigned int compound_order(const struct page *page)
{
	const struct folio *folio = (const struct folio *)page;

	if (!PageHead(page))
		return 0;
	return (unsigned int)(folio->_flags_1 & 0xff);
}

/*
 * The low bits of page->mapping: PAGE_MAPPING_ANON marks an anonymous page,
 * whose ->mapping is its anon_vma (the address space layer's, mm_types.h);
 * free_pages_prepare() clears such a ->mapping, as 6.6's does.
 */
#define PAGE_MAPPING_ANON	0x1UL
#define PAGE_MAPPING_MOVABLE	0x2UL
#define PAGE_MAPPING_FLAGS	(PAGE_MAPPING_ANON | PAGE_MAPPING_MOVABLE)

static inline bool PageMappingFlags(const struct page *page)
{
	return ((unsigned long)page->mapping & PAGE_MAPPING_FLAGS) != 0;
}

/* ---- page types: the inverted bits of page_type ---- */

/* Read racily: page_is_buddy() asks it of a buddy page whatever its state,
 * and an allocated page's owner may be mapping it (_mapcount, the same
 * word, is an atomic) meanwhile. */
#define PageType(page, flag)						\
	((READ_ONCE((page)->page_type) & (PAGE_TYPE_BASE | (flag))) == PAGE_TYPE_BASE)

static inline bool page_type_has_type(unsigned int page_type)
{
	return (int)page_type < PAGE_MAPCOUNT_RESERVE;
}

static inline bool page_has_type(const struct page *page)
{
	return page_type_has_type(page->page_type);
}

static inline bool PageBuddy(const struct page *page)
{
	return PageType(page, PG_buddy);
}

static inline void __SetPageBuddy(struct page *page)
{
	VM_BUG_ON_PAGE(!PageType(page, 0), page);
	page->page_type &= ~PG_buddy;
}

static inline void __ClearPageBuddy(struct page *page)
{
	VM_BUG_ON_PAGE(!PageBuddy(page), page);
	page->page_type |= PG_buddy;
}

/* _mapcount back to "not mapped", which also clears every page type */
static inline void page_mapcount_reset(struct page *page)
{
	raw_atomic_set(&page->_mapcount, -1);
}

/*
 * A page allocated with ALLOC_NO_WATERMARKS is marked, so its user can tell
 * it came from the reserves: bit 1 of lru.next, which the allocated page
 * does not otherwise use (and bit 0, PageTail, stays clear).
 */
static inline bool page_is_pfmemalloc(const struct page *page)
{
	return (uintptr_t)page->lru.next & (1UL << 1);
}

static inline void set_page_pfmemalloc(struct page *page)
{
	page->lru.next = (struct list_head *)(1UL << 1);
}

static inline void clear_page_pfmemalloc(struct page *page)
{
	page->lru.next = NULL;
}

#endif /* MMFUZZ_MM_PAGE_FLAGS_H */

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
 *
 * Every accessor of page->flags, compound_head, PageTail and PageBuddy
 * checks for an uninitialised struct page (mmdebug.h's PF_POISONED_CHECK,
 * 6.6's CONFIG_DEBUG_VM_PGFLAGS): each is a macro over an _at() function
 * that takes the caller's __func__, the report's site.
 */
#ifndef MMFUZZ_MM_PAGE_FLAGS_H
#define MMFUZZ_MM_PAGE_FLAGS_H

#include "../kernel/bug.h"
#include "mmdebug.h"
#include "mmzone.h"

/* Flags checked when a page is freed: whoever freed it forgot to clear. */
#define PAGE_FLAGS_CHECK_AT_FREE	(1UL << PG_reserved)
/* Flags checked when a page is prepped for return by the page allocator,
 * cleared when it is freed. */
#define PAGE_FLAGS_CHECK_AT_PREP	((1UL << NR_PAGEFLAGS) - 1)
/* Flags stored in the second page of a compound page: the order */
#define PAGE_FLAGS_SECOND		0xffUL

static inline bool PageReserved_at(const struct page *page, const char *site)
{
	return pf_test_flags(page, site, page->flags, 1UL << PG_reserved);
}
#define PageReserved(page)	PageReserved_at((page), __func__)

/* __free_pages_core's: the page is the buddy allocator's from here on */
static inline void __ClearPageReserved_at(struct page *page, const char *site)
{
	page->flags = pf_flags(page, site) & ~(1UL << PG_reserved);
}
#define __ClearPageReserved(page)	__ClearPageReserved_at((page), __func__)

/* ---- compound pages ---- */

/* (an uninitialised struct page's compound_head is all ones: a tail of
 * a wild head; the check stops it first) */
static inline unsigned long compound_head_at(const struct page *page, const char *site)
{
	unsigned long head;

	PF_POISONED_ASAN(page, site);
	head = __READ_ONCE(page->compound_head);
	if (unlikely(head & 1)) {
		PF_POISONED_CHECK(page, site);
		return head - 1;
	}
	return (unsigned long)page;	/* no HugeTLB vmemmap: no fake heads */
}

#define _compound_head(page)	compound_head_at((page), __func__)
#define compound_head(page)	((__typeof__(page))_compound_head(page))

/* The folio a page belongs to: its compound head, or itself. */
#define page_folio(p)		(_Generic((p),				\
	const struct page *:	(const struct folio *)_compound_head(p), \
	struct page *:		(struct folio *)_compound_head(p)))

#define folio_page(folio, n)	(&(folio)->page + (n))

static inline bool PageTail_at(const struct page *page, const char *site)
{
	PF_POISONED_ASAN(page, site);
	if (!(__READ_ONCE(page->compound_head) & 1))
		return false;
	PF_POISONED_CHECK(page, site);
	return true;
}
#define PageTail(page)		PageTail_at((page), __func__)

static inline bool PageHead_at(const struct page *page, const char *site)
{
	return pf_test_flags(page, site, page->flags, 1UL << PG_head);
}
#define PageHead(page)		PageHead_at((page), __func__)

static inline void __SetPageHead_at(struct page *page, const char *site)
{
	page->flags = pf_flags(page, site) | 1UL << PG_head;
}
#define __SetPageHead(page)	__SetPageHead_at((page), __func__)

static inline void ClearPageHead_at(struct page *page, const char *site)
{
	page->flags = pf_flags(page, site) & ~(1UL << PG_head);
}
#define ClearPageHead(page)	ClearPageHead_at((page), __func__)

static inline bool PageCompound_at(const struct page *page, const char *site)
{
	return pf_test_flags(page, site, page->flags, 1UL << PG_head) ||
	       PageTail_at(page, site);
}
#define PageCompound(page)	PageCompound_at((page), __func__)

#define folio_test_head(folio)	PageHead(&(folio)->page)

/* A folio of more than one page: a compound page's head. */
#define folio_test_large(folio)	folio_test_head(folio)

static inline void set_compound_head(struct page *page, struct page *head)
{
	__WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

static inline void clear_compound_head(struct page *page)
{
	__WRITE_ONCE(page->compound_head, 0UL);
}

/* The order of a compound page, 0 for any other page (mm.h in 6.6). */
static inline unsigned int compound_order_at(const struct page *page, const char *site)
{
	const struct folio *folio = (const struct folio *)page;

	if (!PageHead_at(page, site))
		return 0;
	return (unsigned int)(folio->_flags_1 & 0xff);
}
#define compound_order(page)	compound_order_at((page), __func__)

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
 * word, is an atomic) meanwhile.  A page's own state: a relaxed atomic for
 * TSan, no yield point (compiler.h), or every buddy walk would be a
 * schedule's worth of them. */
#define PageType(page, flag)						\
	((__READ_ONCE((page)->page_type) & (PAGE_TYPE_BASE | (flag))) == PAGE_TYPE_BASE)

static inline bool page_type_has_type(unsigned int page_type)
{
	return (int)page_type < PAGE_MAPCOUNT_RESERVE;
}

static inline bool page_has_type(const struct page *page)
{
	return page_type_has_type(page->page_type);
}

/* (page_type: 6.6 has no PF_POISONED_CHECK here; a poisoned page_type
 * reads as no type, and a buddy walk into uninitialised memmap would see
 * "not free" where an ASan build reports) */
static inline bool PageBuddy_at(const struct page *page, const char *site)
{
	PF_POISONED_ASAN(page, site);
	if (PageType(page, PG_buddy))
		return true;
	PF_POISONED_CHECK(page, site);
	return false;
}
#define PageBuddy(page)		PageBuddy_at((page), __func__)

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

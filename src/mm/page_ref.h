/* SPDX-License-Identifier: MIT */
/*
 * Page reference counts: Linux 6.6 include/linux/page_ref.h and the
 * get_page/put_page family of mm.h.  The page equivalent of
 * src/kernel/atomic.h: every read-modify-write of page->_refcount is a
 * yield point (atomic, or cmpxchg for each try of the add-unless loop)
 * named after the function that calls it, e.g.
 * "__free_pages:atomic(page->_refcount)"; plain reads and sets are not
 * (raw_atomic_read/set: a page's count is read and set by its owner, and a
 * speculative reference is a read-modify-write).
 * Returning operations are fully ordered, as the kernel's are.
 *
 * No lock: _refcount is an atomic_t.  A reference may be taken
 * speculatively on a page its taker does not own (folio_try_get,
 * get_page_unless_zero: they fail on a free page, refcount 0); every
 * other operation needs a reference already held.
 */
#ifndef MMFUZZ_MM_PAGE_REF_H
#define MMFUZZ_MM_PAGE_REF_H

#include "page-flags.h"

static inline int page_ref_count(const struct page *page)
{
	return raw_atomic_read(&page->_refcount);
}

static inline int folio_ref_count(const struct folio *folio)
{
	return page_ref_count(&folio->page);
}

/* The references of the folio a page belongs to. */
#define page_count(page)	folio_ref_count(page_folio(page))

static inline void set_page_count(struct page *page, int v)
{
	raw_atomic_set(&page->_refcount, v);
}

/* Setup the page count before being freed into the page allocator for the
 * first time (boot or memory hotplug). */
static inline void init_page_count(struct page *page)
{
	set_page_count(page, 1);
}

/* ---- the operations, each a yield point at its caller's site ---- */

static inline int __page_ref_add_return(struct page *page, int nr, const struct yield_site *s)
{
	yield_point(s);
	return __atomic_add_fetch(&page->_refcount.counter, nr, __ATOMIC_SEQ_CST);
}

static inline void __page_ref_add(struct page *page, int nr, const struct yield_site *s)
{
	yield_point(s);
	__atomic_fetch_add(&page->_refcount.counter, nr, __ATOMIC_RELAXED);
}

/* atomic_add_unless(): add @nr unless the count is @u; each try yields. */
static inline bool __page_ref_add_unless(struct page *page, int nr, int u,
					 const struct yield_site *s)
{
	int c = page_ref_count(page);

	do {
		if (unlikely(c == u))
			return false;
		yield_point(s);
	} while (!__atomic_compare_exchange_n(&page->_refcount.counter, &c, c + nr, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}

#define __PAGE_REF_SITE		YIELD_SITE(YP_ATOMIC, "page->_refcount")
#define __FOLIO_REF_SITE	YIELD_SITE(YP_ATOMIC, "folio->_refcount")

#define page_ref_add(page, nr)		__page_ref_add((page), (nr), __PAGE_REF_SITE)
#define page_ref_sub(page, nr)		__page_ref_add((page), -(nr), __PAGE_REF_SITE)
#define page_ref_inc(page)		__page_ref_add((page), 1, __PAGE_REF_SITE)
#define page_ref_dec(page)		__page_ref_add((page), -1, __PAGE_REF_SITE)
#define page_ref_inc_return(page)	__page_ref_add_return((page), 1, __PAGE_REF_SITE)
#define page_ref_dec_return(page)	__page_ref_add_return((page), -1, __PAGE_REF_SITE)
#define page_ref_sub_and_test(page, nr)	(__page_ref_add_return((page), -(nr), __PAGE_REF_SITE) == 0)
#define page_ref_dec_and_test(page)	(__page_ref_add_return((page), -1, __PAGE_REF_SITE) == 0)
#define page_ref_add_unless(page, nr, u)					\
	__page_ref_add_unless((page), (nr), (u), YIELD_SITE(YP_CMPXCHG, "page->_refcount"))

#define folio_ref_inc(folio)		__page_ref_add(&(folio)->page, 1, __FOLIO_REF_SITE)
#define folio_ref_add(folio, nr)	__page_ref_add(&(folio)->page, (nr), __FOLIO_REF_SITE)
#define folio_ref_dec_and_test(folio)	(__page_ref_add_return(&(folio)->page, -1, __FOLIO_REF_SITE) == 0)
#define folio_ref_add_unless(folio, nr, u)					\
	__page_ref_add_unless(&(folio)->page, (nr), (u),				\
			      YIELD_SITE(YP_CMPXCHG, "folio->_refcount"))

/* A reference on a page its caller does not hold yet: fails on a free page. */
#define get_page_unless_zero(page)	page_ref_add_unless((page), 1, 0)
#define folio_try_get(folio)		folio_ref_add_unless((folio), 1, 0)

/* Turn a free page into an allocated one (post_alloc_hook, split_page). */
static inline void set_page_refcounted(struct page *page)
{
	VM_BUG_ON_PAGE(PageTail(page), page);
	VM_BUG_ON_PAGE(page_ref_count(page), page);
	set_page_count(page, 1);
}

/* A reference taken on a page with none (or about to overflow) is a bug. */
static inline bool folio_ref_zero_or_close_to_overflow(const struct folio *folio)
{
	return (unsigned int)folio_ref_count(folio) + 127u <= 127u;
}

static inline void __folio_get(struct folio *folio, const struct yield_site *s)
{
	VM_BUG_ON_PAGE(folio_ref_zero_or_close_to_overflow(folio), &folio->page);
	__page_ref_add(&folio->page, 1, s);
}

#define folio_get(folio)	__folio_get((folio), __FOLIO_REF_SITE)
/* A reference on the page's folio: the caller holds one already. */
#define get_page(page)		__folio_get(page_folio(page), __PAGE_REF_SITE)

/* Drop a reference; true when it was the last one. */
static inline bool __put_page_testzero(struct page *page, const struct yield_site *s)
{
	VM_BUG_ON_PAGE(page_ref_count(page) == 0, page);
	return __page_ref_add_return(page, -1, s) == 0;
}

#define put_page_testzero(page)		__put_page_testzero((page), __PAGE_REF_SITE)
#define folio_put_testzero(folio)	__put_page_testzero(&(folio)->page, __FOLIO_REF_SITE)

/* swap.c: free a folio whose last reference is gone */
void __folio_put(struct folio *folio);

static inline void __folio_put_ref(struct folio *folio, const struct yield_site *s)
{
	if (__put_page_testzero(&folio->page, s))
		__folio_put(folio);
}

/* Drop a reference on a folio; the last one frees it. */
#define folio_put(folio)	__folio_put_ref((folio), __FOLIO_REF_SITE)
/* Drop a reference on the page's folio; the last one frees it. */
#define put_page(page)		__folio_put_ref(page_folio(page), __PAGE_REF_SITE)

#endif /* MMFUZZ_MM_PAGE_REF_H */

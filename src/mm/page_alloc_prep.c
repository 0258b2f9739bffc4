// SPDX-License-Identifier: MIT
/*
 * A page on its way out of the allocator and back (Linux 6.6
 * mm/page_alloc.c): the checks that a page leaving or entering is in the
 * state it must be in, the reference and memory of a new page
 * (post_alloc_hook, __GFP_ZERO), compound pages (prep_compound_page and
 * their tails on the way back), and the KASAN-style poisoning of free
 * memory.
 *
 * No lock: a page here is owned by the task allocating or freeing it (off
 * every list, refcount 0 on the way out, 1 from set_page_refcounted on):
 * its counts are read and set with raw_atomic_*, not yield points.
 */
#include "internal.h"

#include <string.h>

/*
 * A free or a newly allocated page must look untouched: not mapped (and
 * no page type), no mapping, no references, no flags left over.  The
 * kernel checks this with CONFIG_DEBUG_VM or init_on_alloc/free and leaks
 * the page as a "Bad page state"; the model always checks, and a bad page
 * is a violation.
 */
static const char *page_bad_reason(const struct page *page, unsigned long flags, const char *fn)
{
	const char *bad_reason = NULL;
	unsigned long page_flags;

	/* ASan's query before the first read */
	if (MMFUZZ_ASAN && unlikely(page_init_poisoned) && __pf_asan_poisoned(page))
		page_poisoned_bug(page, fn);

	if (unlikely(raw_atomic_read(&page->_mapcount) != -1))
		bad_reason = "nonzero mapcount";
	if (unlikely(page->mapping != NULL))
		bad_reason = "non-NULL mapping";
	if (unlikely(page_ref_count(page) != 0))
		bad_reason = "nonzero _refcount";
	page_flags = page->flags;
	if (unlikely(page_flags & flags)) {
		/* an uninitialised struct page has every flag set: that first */
		if (page_flags == (unsigned long)PAGE_POISON_PATTERN)
			page_poisoned_bug(page, fn);
		bad_reason = flags == PAGE_FLAGS_CHECK_AT_PREP ?
			     "PAGE_FLAGS_CHECK_AT_PREP flag(s) set" :
			     "PAGE_FLAGS_CHECK_AT_FREE flag(s) set";
	}
	if (unlikely(page->memcg_data))
		bad_reason = "page still charged to cgroup";
	return bad_reason;
}

static void bad_page(const struct page *page, const char *reason, const char *fn)
{
	sched_violation("bad_page", fn, "Bad page state pfn %lu: %s (refcount %d, mapcount %d)",
			page_to_pfn(page), reason, page_ref_count(page),
			raw_atomic_read(&page->_mapcount));
}

static inline void free_page_is_bad(const struct page *page)
{
	const char *reason = page_bad_reason(page, PAGE_FLAGS_CHECK_AT_FREE, "free_pages_prepare");

	if (unlikely(reason))
		bad_page(page, reason, "free_pages_prepare");
}

/* A tail of a compound page being freed: it must point at its head. */
static void free_tail_page_prepare(struct page *head_page, struct page *page)
{
	const struct folio *folio = (const struct folio *)head_page;

	switch (page - head_page) {
	case 1:
		/* the first tail page: these may be in place of ->mapping */
		if (unlikely(raw_atomic_read(&folio->_entire_mapcount) + 1))
			bad_page(page, "nonzero entire_mapcount", __func__);
		if (unlikely(raw_atomic_read(&folio->_nr_pages_mapped)))
			bad_page(page, "nonzero nr_pages_mapped", __func__);
		if (unlikely(raw_atomic_read(&folio->_pincount)))
			bad_page(page, "nonzero pincount", __func__);
		break;
	case 2:
		/* the second tail page: deferred_list overlaps ->mapping */
		break;
	default:
		if (page->mapping != TAIL_MAPPING)
			bad_page(page, "corrupted mapping in tail page", __func__);
		break;
	}
	if (unlikely(!PageTail(page)))
		bad_page(page, "PageTail not set", __func__);
	if (unlikely(compound_head(page) != head_page))
		bad_page(page, "compound_head not consistent", __func__);
	page->mapping = NULL;
	clear_compound_head(page);
}

/* The checks and the KASAN-style poisoning of a page being freed. */
bool free_pages_prepare(struct page *page, unsigned int order)
{
	unsigned long nr = 1UL << order;

	VM_BUG_ON_PAGE(PageTail(page), page);
	VM_BUG_ON_PAGE(PageBuddy(page), page);
	/* Check tail pages before head page information is cleared */
	if (unlikely(order)) {
		bool compound = PageCompound(page);
		unsigned long i;

		VM_BUG_ON_PAGE(compound && compound_order(page) != order, page);
		if (compound)
			page[1].flags = pf_flags(&page[1], __func__) & ~PAGE_FLAGS_SECOND;
		for (i = 1; i < nr; i++) {
			if (compound)
				free_tail_page_prepare(page, page + i);
			free_page_is_bad(page + i);
			page[i].flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
		}
	}
	/* an anonymous page keeps its anon_vma in ->mapping until here */
	if (PageMappingFlags(page))
		page->mapping = NULL;
	free_page_is_bad(page);
	page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
	san_poison(page_address(page), nr * MODEL_PAGE_SIZE);
	return true;
}

static void check_new_page(const struct page *page)
{
	const char *reason = page_bad_reason(page, PAGE_FLAGS_CHECK_AT_PREP, "check_new_pages");

	if (unlikely(reason))
		bad_page(page, reason, "check_new_pages");
}

void post_alloc_hook(struct page *page, unsigned int order, gfp_t gfp_flags)
{
	unsigned long nr = 1UL << order;

	VM_BUG_ON_PAGE(PageBuddy(page), page);
	page->private = 0;
	set_page_refcounted(page);
	san_unpoison(page_address(page), nr * MODEL_PAGE_SIZE);
	/* init_on_alloc is off: only __GFP_ZERO clears the memory */
	if (gfp_flags & __GFP_ZERO)
		memset(page_address(page), 0, nr * MODEL_PAGE_SIZE);
}

static void prep_compound_head(struct page *page, unsigned int order)
{
	struct folio *folio = (struct folio *)page;

	/* folio_set_order() */
	folio->_flags_1 = (folio->_flags_1 & ~0xffUL) | order;
	folio->_folio_nr_pages = 1U << order;
	raw_atomic_set(&folio->_entire_mapcount, -1);
	raw_atomic_set(&folio->_nr_pages_mapped, 0);
	raw_atomic_set(&folio->_pincount, 0);
}

static void prep_compound_tail(struct page *head, int tail_idx)
{
	struct page *p = head + tail_idx;

	p->mapping = TAIL_MAPPING;
	set_compound_head(p, head);
	p->private = 0;
}

/*
 * Higher-order pages are called "compound pages": the first is the head
 * page (PG_head); the others are tail pages, whose compound_head points at
 * the head with bit 0 set.  The first tail page holds the order.
 */
void prep_compound_page(struct page *page, unsigned int order)
{
	int i, nr_pages = 1 << order;

	__SetPageHead(page);
	for (i = 1; i < nr_pages; i++)
		prep_compound_tail(page, i);
	prep_compound_head(page, order);
}

/*
 * What every page leaving the allocator goes through.  (The kernel checks
 * the new pages in rmqueue and takes another when one is bad; here a bad
 * page is a violation.)
 */
void prep_new_page(struct page *page, unsigned int order, gfp_t gfp_flags,
		   unsigned int alloc_flags)
{
	unsigned long i;

	for (i = 0; i < 1UL << order; i++)
		check_new_page(page + i);
	post_alloc_hook(page, order, gfp_flags);
	if (order && (gfp_flags & __GFP_COMP))
		prep_compound_page(page, order);
	/*
	 * page is set pfmemalloc when ALLOC_NO_WATERMARKS was necessary to
	 * allocate the page.  The caller should avoid the page being used for
	 * !PFMEMALLOC purposes.
	 */
	if (alloc_flags & ALLOC_NO_WATERMARKS)
		set_page_pfmemalloc(page);
	else
		clear_page_pfmemalloc(page);
}

// SPDX-License-Identifier: MIT
/*
 * The last reference on a folio (Linux 6.6 mm/swap.c __folio_put and
 * mm/page_alloc.c destroy_large_folio): back to the page allocator, a
 * large folio at its order, a single page through the pcp lists.  No LRU,
 * no memcg, no hugetlb in the model, so nothing else to release first.
 *
 * No lock: the caller dropped the last reference, the folio is its own.
 *
 * release_pages(): the batch form, for the TLB gather's free.  6.6 holds
 * the lruvec lock across runs of folios, dropped every SWAP_CLUSTER_MAX;
 * the model has no LRU, so the folios whose last reference goes here are
 * only collected and freed as one list (free_unref_page_list: one pcp->lock
 * hold per zone run of up to SWAP_CLUSTER_MAX pages).
 */
#include "internal.h"

static void destroy_large_folio(struct folio *folio)
{
	free_the_page(&folio->page, folio_order(folio));
}

void __folio_put(struct folio *folio)
{
	if (unlikely(folio_test_large(folio)))
		destroy_large_folio(folio);
	else
		free_unref_page(&folio->page, 0);
}

/* 6.6's __folio_put_large: no hugetlb in the model */
static void __folio_put_large(struct folio *folio)
{
	destroy_large_folio(folio);
}

/**
 * release_pages - batched put_page()
 * @pages: the pages to release (6.6's release_pages_arg: the model's
 *         gather holds plain page pointers, no encoded bits)
 * @nr: number of pages
 *
 * Decrement the reference count on all the pages in @pages.  If it fell to
 * zero, remove the page from the LRU (none in the model) and free it.
 */
void release_pages(struct page **pages, int nr)
{
	struct list_head pages_to_free = LIST_HEAD_INIT(pages_to_free);	/* LIST_HEAD() */
	int i;

	for (i = 0; i < nr; i++) {
		/* Turn any of the argument types into a folio */
		struct folio *folio = page_folio(pages[i]);

		if (!folio_put_testzero(folio))
			continue;
		if (folio_test_large(folio)) {
			__folio_put_large(folio);
			continue;
		}
		list_add(&folio->lru, &pages_to_free);
	}
	free_unref_page_list(&pages_to_free);
}

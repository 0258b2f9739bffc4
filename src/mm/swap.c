// SPDX-License-Identifier: MIT
/*
 * The last reference on a folio (Linux 6.6 mm/swap.c __folio_put and
 * mm/page_alloc.c destroy_large_folio): back to the page allocator, a
 * large folio at its order, a single page through the pcp lists.  No LRU,
 * no memcg, no hugetlb in the model, so nothing else to release first.
 *
 * No lock: the caller dropped the last reference, the folio is its own.
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

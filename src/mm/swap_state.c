// SPDX-License-Identifier: MIT
/*
 * Linux 6.6 mm/swap_state.c's free_pages_and_swap_cache(): the TLB
 * gather's free.  No swap cache and no LRU in the model, so neither
 * lru_add_drain() nor free_swap_cache() has anything to do: what is left is
 * release_pages().
 */
#include "internal.h"

/*
 * Passed an array of pages, drop them all from swapcache and then release
 * them.  They are removed from the LRU and freed if this is their last use.
 */
void free_pages_and_swap_cache(struct page **pages, int nr)
{
	release_pages(pages, nr);
}

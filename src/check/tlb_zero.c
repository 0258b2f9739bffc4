// SPDX-License-Identifier: MIT
/*
 * I-ZERO at quiescence (tlb.c checks the zero page's PTEs, the accesses
 * through it and its release where they happen): the kernel image's zero
 * page, past the zones, as zero_page_boot made it.
 */
#include "tlb_check.h"

#define fail cfail_set

/* I-ZERO: the zero page as boot made it: reserved, its one reference
 * (gup's may come and go, none is held at quiescence), no rmap, zero. */
void zero_page_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct pagealloc_world *pa = pa_world(w);
	const struct page *page = &pa->memmap[empty_zero_pfn(pa)];
	const unsigned long *word =
		(const unsigned long *)(pa->mem + empty_zero_pfn(pa) * MODEL_PAGE_SIZE);
	size_t k;

	if (!PageReserved(page) || page_ref_count(page) != 1 || page_mapcount(page))
		fail(f, "I-ZERO", where, "the zero page's struct page: flags %#lx, refcount %d, "
		     "mapcount %d (reserved, 1 and 0 from boot, whatever maps it)", page->flags,
		     page_ref_count(page), page_mapcount(page));
	for (k = 0; k < MODEL_PAGE_SIZE / sizeof(*word) && !f->hit; k++)
		if (__atomic_load_n(&word[k], __ATOMIC_RELAXED))
			fail(f, "I-ZERO", where, "the zero page holds %#lx at word %zu: something "
			     "wrote through a mapping of it", word[k], k);
}


// SPDX-License-Identifier: MIT
/*
 * The memmap pool (split out of mm_init.c, which creates and destroys the
 * page allocator's world): pool_take, pool_give, and what a destroy puts
 * back before it gives.
 */
#include "internal.h"
#include "memmap_pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * The memmap and the "physical" memory of destroyed worlds, kept for the
 * next world: a fuzzing campaign creates a world whenever an input brings a
 * configuration the world cache does not hold, and faulting in and zeroing a
 * fresh memmap every time cost a tenth of all executions.  A kept memmap is
 * in the boot state (memmap_init_boot) up to boot_pages, zero beyond, but
 * for the heads of the max-order blocks of the world that had it (a reset
 * leaves nothing else), and its memory is all poisoned.
 */
#define POOL_SLOTS 4
static struct pool_buf {
	struct page *memmap;
	unsigned char *mem;
	unsigned long cap;		/* pages */
	unsigned long boot_pages;	/* leading pages in the boot state */
	unsigned long nr_pages;		/* of the world that had it */
	int max_order;
} pool[POOL_SLOTS];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

/* A kept buffer of at least @nr pages, its first @nr struct pages in the
 * boot state; false if none. */
bool pool_take(struct world *w, unsigned long nr)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pool_buf *best = NULL;
	unsigned long pfn;
	int i;

	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS; i++)
		if (pool[i].memmap && pool[i].cap >= nr && (!best || pool[i].cap < best->cap))
			best = &pool[i];
	if (best) {
		pa->memmap = best->memmap;
		pa->mem = best->mem;
		pa->mem_cap = best->cap;
		for (pfn = 0; pfn < best->nr_pages; pfn += 1UL << best->max_order)
			memmap_init_boot(w, pfn, 1);
		pa->memmap_boot = max(best->boot_pages, nr);
		if (nr > best->boot_pages)
			memmap_init_boot(w, best->boot_pages, nr - best->boot_pages);
		memset(best, 0, sizeof(*best));
	}
	pthread_mutex_unlock(&pool_lock);
	return best != NULL;
}

/* Keep @w's buffers (reset: nothing but the block heads left) in an empty
 * slot, or in place of a smaller one; else they are freed with @w. */
/*
 * What the pool promises pool_take (wmem_verify_zero, the tests): every
 * struct page in the boot state memmap_init_boot leaves, but the max-order
 * heads, which pool_take rewrites.  A page left PageBuddy off a max-order
 * boundary (a boot piece's head next to a hole) would be handed out by a
 * world that has no hole there: bad_page, mapcount -129.
 */
static void pool_memmap_verify(const struct pagealloc_world *pa)
{
	unsigned long pfn;

	for (pfn = 0; pfn < pa->nr_pages; pfn++) {
		const struct page *page = &pa->memmap[pfn];

		if (!(pfn & ((1UL << pa->max_order) - 1)))
			continue;
		if (page->flags || page_ref_count(page) || page->page_type != (unsigned int)-1) {
			fprintf(stderr, "mmfuzz: pool: pfn %lu's struct page is not in its boot "
				"state (flags %#lx, count %d, type %#x)\n", pfn, page->flags,
				page_ref_count(page), page->page_type);
			abort();
		}
	}
}

void pool_give(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	struct pool_buf *slot = NULL;
	int i;

	if (wmem_verify_zero)
		pool_memmap_verify(pa);
	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < POOL_SLOTS && (!slot || slot->memmap); i++)
		if (!slot || !pool[i].memmap || pool[i].cap < slot->cap)
			slot = &pool[i];
	if (slot->memmap && slot->cap < pa->mem_cap) {
		san_unpoison(slot->mem, slot->cap * MODEL_PAGE_SIZE);
		munmap(slot->mem, slot->cap * MODEL_PAGE_SIZE);
		world_free(slot->memmap);
		slot->memmap = NULL;
	}
	if (!slot->memmap) {
		slot->memmap = pa->memmap;
		slot->mem = pa->mem;
		slot->cap = pa->mem_cap;
		slot->boot_pages = pa->memmap_boot;
		slot->nr_pages = pa->nr_pages;
		slot->max_order = pa->max_order;
		pa->memmap = NULL;
		pa->mem = NULL;
	}
	pthread_mutex_unlock(&pool_lock);
}

/*
 * The pieces zone_boot_free_lists cut @mb's free ranges into, each zone's
 * (a superset of what boot freed: past first_deferred_pfn the memmap was
 * rewritten whole), heads back in the pool's boot state.
 */
void boot_piece_heads_reset(struct world *w, const struct memblock *mb)
{
	struct pagealloc_world *pa = pa_world(w);
	int z;

	for (z = 0; z < pa->nr_zones; z++) {
		struct zone *zone = zone_by_idx(w, z);
		unsigned long i = 0, spfn, epfn;

		while (memblock_next_free_range(mb, zone->zone_start_pfn,
						zone->zone_start_pfn + zone->spanned_pages, &i,
						&spfn, &epfn)) {
			while (spfn < epfn) {
				unsigned int order = spfn ? (unsigned int)__builtin_ctzl(spfn)
							  : (unsigned int)pa->max_order;

				if (order > (unsigned int)pa->max_order)
					order = (unsigned int)pa->max_order;
				while (spfn + (1UL << order) > epfn)
					order--;
				memmap_init_boot(w, spfn, 1);
				spfn += 1UL << order;
			}
		}
	}
}


/* SPDX-License-Identifier: MIT */
/*
 * The pool of destroyed worlds' memmaps and memory (memmap_pool.c), split
 * out of mm_init.c: what pagealloc_create takes and pagealloc_destroy gives.
 */
#ifndef MMFUZZ_MM_MEMMAP_POOL_H
#define MMFUZZ_MM_MEMMAP_POOL_H

#include <stdbool.h>

struct world;
struct memblock;

/* A kept buffer of at least @nr pages into @w's page allocator, its first
 * @nr struct pages in the boot state; false if none. */
bool pool_take(struct world *w, unsigned long nr);
/* @w's memmap and memory to the pool (the memmap in the boot state). */
void pool_give(struct world *w);
/* The heads of the boot's pieces of @mb's free ranges back in the boot
 * state (a destroy, when @mb had holes or reserved ranges). */
void boot_piece_heads_reset(struct world *w, const struct memblock *mb);

#endif /* MMFUZZ_MM_MEMMAP_POOL_H */

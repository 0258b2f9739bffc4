/* SPDX-License-Identifier: MIT */
/*
 * A memblock-like table (6.6 include/linux/memblock.h, mm/memblock.c in
 * small): each node's memory ranges (memblock.memory, with holes where
 * memblock_remove took pages out) and the reserved ranges inside them
 * (memblock.reserved).  The free ranges are memory minus reserved, in pfn
 * order; boot frees them to the buddy allocator (memblock_free_all) and
 * deferred init walks them (for_each_free_mem_pfn_range_in_zone).  The
 * model counts in pfns, not physical addresses.  Written only while a
 * world is created, single-threaded (6.6: __init, before smp_init), read
 * afterwards without a lock.
 */
#ifndef MMFUZZ_MM_MEMBLOCK_H
#define MMFUZZ_MM_MEMBLOCK_H

#include <stdbool.h>

#define INIT_MEMBLOCK_REGIONS	16	/* the model's: a few ranges a node */

struct memblock_region {
	unsigned long base;		/* pfn */
	unsigned long size;		/* pages */
	int nid;
};

struct memblock_type {
	int cnt;
	struct memblock_region regions[INIT_MEMBLOCK_REGIONS];
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
	/* memory minus reserved, sorted and merged (memblock_build_free) */
	struct memblock_type free;
};

void memblock_init(struct memblock *mb);
/* 0, or -ENOSPC when the table is full */
int memblock_add_node(struct memblock *mb, unsigned long base, unsigned long size, int nid);
int memblock_remove(struct memblock *mb, unsigned long base, unsigned long size);
int memblock_reserve(struct memblock *mb, unsigned long base, unsigned long size);
/* Recompute the free ranges after a change. */
void memblock_build_free(struct memblock *mb);
/* @pfn is in a free range (memory, not reserved) */
bool memblock_pfn_free(const struct memblock *mb, unsigned long pfn);
/* @pfn is a hole or reserved (an empty table: nothing is) */
bool memblock_pfn_unavailable(const struct memblock *mb, unsigned long pfn);
/* @pfn is memory (not a hole) */
bool memblock_pfn_present(const struct memblock *mb, unsigned long pfn);
/* Pages of [start, end) that are memory / free. */
unsigned long memblock_present_pages(const struct memblock *mb, unsigned long start,
				     unsigned long end);
unsigned long memblock_free_pages_in(const struct memblock *mb, unsigned long start,
				     unsigned long end);

/*
 * The free ranges clipped to [start, end), from *@i on: the next non-empty
 * one in *@spfn, *@epfn and true, *@i past it; false at the end.
 * (6.6: __next_mem_pfn_range_in_zone.)
 */
bool memblock_next_free_range(const struct memblock *mb, unsigned long start,
			      unsigned long end, unsigned long *i, unsigned long *spfn,
			      unsigned long *epfn);

#endif /* MMFUZZ_MM_MEMBLOCK_H */

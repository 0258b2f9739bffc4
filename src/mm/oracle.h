/* SPDX-License-Identifier: MIT */
/*
 * Racy reads the kernel decides on.  Where the model reads a counter or a
 * list state without the lock that protects it and decides on the value
 * (a watermark check on NR_FREE_PAGES, a drain's look at pcp->count), it
 * names the read with a hook of its layer right after it (kernel/hooks.h:
 * HOOK(pagealloc, read_watermark, zone, read, needed)); the checkers attach
 * a function to each (src/check/pagealloc_read.c) that compares what was
 * read with the exact value at that step and the tolerance the kernel's
 * design allows: I-READ@SITE.  A later layer declares its racy reads the
 * same way, as read_* members of its own hooks struct.
 *
 * The oracle compares the value read with the exact one at its own step, so
 * a read it checks and its hook are one step: no yield point may fall
 * between them.  Where a racy read is a yield point (kernel/compiler.h, the
 * point comes before the access) that holds when the hook follows the
 * read; the reads a checked value is put together from after the first one
 * (a snapshot's per-CPU diffs, the watermark's highatomic reserve) are the
 * __ forms.  So an oracle judges only where its hook does run at the
 * read's step (hook_at_read_step(), sched/sched.h): not among the stress
 * runner's concurrent threads.
 *
 * The model keeps the exact values the oracles compare with beside the
 * kernel's fields, marked as the model's own: zone->free_pages_exact (the
 * pages on the free lists, kept by the list helpers), zone->free_inflight
 * (how far 6.6's order lets NR_FREE_PAGES run ahead of the lists at the
 * step the zone->lock holder is at, kept beside 6.6's code in
 * page_alloc.c: free_inflight_add), zone->free_fold_inflight (a vmstat
 * fold between its xchg and its add) and pcp->refilling (a refill between
 * taking pages from the buddy and counting them).
 */
#ifndef MMFUZZ_MM_ORACLE_H
#define MMFUZZ_MM_ORACLE_H

#include "../kernel/compiler.h"
#include "page_alloc_hooks.h"	/* the page allocator's read_* hooks */

#endif /* MMFUZZ_MM_ORACLE_H */

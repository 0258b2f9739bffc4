/* SPDX-License-Identifier: MIT */
/*
 * Racy reads the kernel decides on.  Where the model reads a counter or a
 * list state without the lock that protects it and decides on the value
 * (a watermark check on NR_FREE_PAGES, a drain's look at pcp->count), it
 * names the read with READ_ORACLE right after it; the checkers hook a
 * function on each site (src/check/pagealloc_read.c) that compares what was
 * read with the exact value at that step and the tolerance the kernel's
 * design allows: I-READ@SITE.  A later layer declares its racy reads the
 * same way.
 *
 * The oracle compares the value read with the exact one at its own step, so
 * a read it checks and READ_ORACLE are one step: no yield point may fall
 * between them.  Where a racy read is a yield point (kernel/compiler.h, the
 * point comes before the access) that holds when READ_ORACLE follows the
 * read; the reads a checked value is put together from after the first one
 * (a snapshot's per-CPU diffs, the watermark's highatomic reserve) are the
 * __ forms.
 *
 * The model keeps the exact values the oracles compare with beside the
 * kernel's fields, marked as the model's own: zone->free_pages_exact (the
 * pages on the free lists, kept by the list helpers) and pcp->refilling (a
 * refill between taking pages from the buddy and counting them).
 */
#ifndef MMFUZZ_MM_ORACLE_H
#define MMFUZZ_MM_ORACLE_H

#include "../kernel/compiler.h"

struct read_oracle {
	const char *name;		/* the site: "__zone_watermark_ok" */
	/* @obj: what was read (a zone, a pcp); @aux: the site's context */
	void (*check)(const struct read_oracle *o, const void *obj, long value, long aux);
};

#define READ_ORACLE(o, obj, value, aux) do {					\
	if (__builtin_expect((o)->check != NULL, 0))				\
		(o)->check((o), (obj), (long)(value), (long)(aux));		\
} while (0)

/*
 * The page allocator's sites.
 * ro_watermark: __zone_watermark_ok's free pages (obj the zone, aux the
 *   free pages the order-0 check needs: more than aux passes);
 * ro_drain_pcp: drain_pages_zone's pcp->count before the lock (obj the
 *   pcp, aux the zone index);
 * ro_drain_all_pcp: __drain_all_pages' pcp->count emptiness check (obj
 *   the pcp, aux the zone index);
 * ro_vmstat_show: NR_FREE_PAGES as /proc/vmstat shows it (obj the zone);
 * ro_pcp_high_batch: nr_pcp_high's pcp->batch under ZONE_RECLAIM_ACTIVE
 *   (obj the pcp, aux the zone index).
 */
extern struct read_oracle ro_watermark, ro_drain_pcp, ro_drain_all_pcp, ro_vmstat_show,
	ro_pcp_high_batch;

#endif /* MMFUZZ_MM_ORACLE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Checkers: the invariants of reference/kernel-mm.md section 2 for the page
 * allocator layer, each checked when it must hold.
 *
 *   at every zone->lock acquisition   I-BUD-1, I-BUD-2, I-BUD-3
 *   at every pcp->lock acquisition    I-PCP-1
 *   after each operation              I-VM-1 (this CPU's differentials)
 *   at quiescence (no op in flight)   I-CONS (shadow owner of every page),
 *                                     I-BUD-4 exact, I-VM-1, I-VM-2, I-PCP-1,
 *                                     I-PCP-2 (pcps empty while disabled)
 *   at the end, after a full drain    all of the above, plus every pcp empty,
 *   and fold                          folded NR_FREE_PAGES == free pages,
 *                                     global == sum of zones, zone fully merged
 *
 * Checkers read the model and never change it.  A failure is a violation
 * with signature "CHECKER@SITE".
 */
#ifndef MMFUZZ_CHECK_CHECK_H
#define MMFUZZ_CHECK_CHECK_H

#include <stdio.h>

#include "../mm/mm.h"
#include "../sched/sched.h"

/* A block the program holds: the checkers' view of "allocated". */
struct check_alloc {
	unsigned long pfn;
	unsigned int order;
	int handle;
};

/* Hook the under-lock validators to the world's locks (after each reset). */
void check_attach(struct world *w);
/* this CPU's vmstat differentials are within the threshold */
void check_after_op(struct world *w, int cpu);
/* zone_pcp_disable() just returned: every pcp of the zone not locked is empty */
void check_pcp_disabled(struct world *w, struct zone *zone);
/*
 * @pcp2_zones: the zones I-PCP-2 holds for.  In 6.6 an allocation that
 * refills with the old batch while zone_pcp_disable() drains can leave
 * pages behind (drain_pages_zone's racy count check skips a pcp whose
 * refill has not yet raised pcp->count), so the executor leaves out zones
 * whose disable raced an allocation.
 */
void check_quiescent(struct world *w, const struct check_alloc *a, int n, const char *where,
		     unsigned int pcp2_zones);
/* After every page was freed, every pcp drained and every CPU folded. */
void check_final(struct world *w, const struct check_alloc *a, int n);

/* The report of a violation: signature, where, recent trace of each task,
 * and the program (text) it came from. */
typedef const char *(*op_name_fn)(int task, int op, void *arg);
void report_write(FILE *f, const struct violation *v, const struct fsched *fs,
		  op_name_fn op_name, void *arg, const char *program_text);

#endif /* MMFUZZ_CHECK_CHECK_H */

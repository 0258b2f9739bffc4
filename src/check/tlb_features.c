// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's state feature (state.h): the live gathers on an
 * mm (tlb_flush_pending) at a gather's start or at its nested check,
 * fullmm or not (tlb_hooks.state_gather, mm/mm_types.h).  Key 6.
 */
#include "state.h"

#include "../mm/tlb.h"

static struct state_feature sf_gather;

static __sched_notsan void gather_state(const struct mmu_gather *tlb, bool finish)
{
	int pending = STATE_LOAD(tlb->mm->tlb_flush_pending.counter);

	state_feature(&sf_gather, state_cap((unsigned long)(pending > 0 ? pending : 0), 7) << 2 |
		      finish << 1 | tlb->fullmm);
}

static void gather_attach(void)
{
	tlb_hooks.state_gather = gather_state;
}

static void gather_detach(void)
{
	tlb_hooks.state_gather = NULL;
}

static struct state_feature sf_gather = {
	.name = "live gathers", .key = 6, .attach = gather_attach, .detach = gather_detach,
};
STATE_FEATURE(sf_gather);

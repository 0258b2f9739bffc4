// SPDX-License-Identifier: MIT
/*
 * State as coverage (the IJON idea): the model's hooks at the places where
 * allocator bugs live (their state_* members: mm/page_alloc_hooks.h,
 * mm/mm_types.h's tlb_hooks, kernel/hooks.h) see the state there, and this
 * file folds it into a small bucket, a (key, bucket) feature the engine
 * counts beside the edges and the interleavings (sched/ilv_state.c).  A
 * program that brings a zone below its min watermark for the first time,
 * or a pcp above its high, or three gathers live on one mm, is progress to
 * the engine even when it took no new branch.
 *
 * Only the fuzz harness attaches these (check_state_attach, unless
 * MMFUZZ_STATE=0); nothing here changes the model or yields: every read is
 * a relaxed load, never the model's READ_ONCE, so a run's steps and trace
 * are the same with the features or without.
 */
#include "check.h"

#include "../kernel/cpumask.h"
#include "../kernel/hooks.h"
#include "../kernel/percpu_counter.h"
#include "../mm/internal.h"
#include "../mm/tlb.h"
#include "../sched/ilv.h"
#include "../sched/san.h"

/* Not TSan-instrumented, as the scheduler's peeks at the model are not
 * (sched/san.h): the fibers of a TSan build share one host thread, and a
 * look at the model's state is no access of the model's */
#define LOAD(x) sched_peek(x)

/* how often each annotation fired (the tests ask: check_state_hits) */
static unsigned long hits[STATE_NR_KEYS];

static __sched_notsan void feature(unsigned key, unsigned long bucket)
{
	hits[key]++;	/* the fibers of one thread */
	ilv_state(key, bucket);
}

unsigned long check_state_hits(unsigned key)
{
	return key < STATE_NR_KEYS ? hits[key] : 0;
}

/* Another task holds @l: an update of what it protects is in flight. */
static __sched_notsan unsigned held_by_other(const spinlock_t *l)
{
	struct task *owner = LOAD(l->sl.owner);

	return owner && owner != current_task;
}

static unsigned cap(unsigned long v, unsigned long max)
{
	return (unsigned)(v < max ? v : max);
}

/*
 * Free pages against each watermark (0: at or below min ... 3: above
 * high), by zone and order-0 or not, with whoever holds zone->lock and a
 * vmstat fold in flight: a reader deciding while an update is under way.
 */
static __sched_notsan void wmark_state(const struct zone *zone, long free, unsigned int order)
{
	unsigned b = 0;
	int i;

	for (i = WMARK_MIN; i <= WMARK_HIGH; i++)
		b += free > (long)LOAD(zone->_watermark[i]);
	feature(STATE_WMARK, (unsigned long)zone->idx << 5 | b << 3 | (order != 0) << 2 |
		held_by_other(&zone->lock) << 1 | (LOAD(zone->free_fold_inflight) != 0));
}

/*
 * A pcp's count against its batch and high (0: empty, 1: below batch,
 * 2: below high, 3: at high, 4: above it), with high below batch (the
 * boot pageset, a disable's 0) and the free factor.
 */
static unsigned pcp_bucket(int count, int high, int batch)
{
	if (count <= 0)
		return 0;
	if (count < batch)
		return 1;
	if (count < high)
		return 2;
	return count == high ? 3 : 4;
}

static __sched_notsan void pcp_state(const struct per_cpu_pages *pcp, int high, bool refill)
{
	int count = LOAD(pcp->count), batch = LOAD(pcp->batch);

	if (refill)	/* @high is the blocks the refill takes */
		feature(STATE_PCP_REFILL, pcp_bucket(count, LOAD(pcp->high), batch) << 3 |
			cap((unsigned long)(high > 0 ? high : 0), 7));
	else
		feature(STATE_PCP_FREE, pcp_bucket(count, high, batch) << 2 | (high < batch) << 1 |
			(LOAD(pcp->free_factor) != 0));
}

/* nr_reserved_highatomic in pageblocks, and whether it is at its limit
 * (1% of the zone plus a block: reserve_highatomic_pageblock's) */
static __sched_notsan void highatomic_state(const struct zone *zone)
{
	unsigned long blocks = LOAD(zone->nr_reserved_highatomic) / pageblock_nr_pages;
	unsigned long max = LOAD(zone->managed_pages.counter) / 100 + pageblock_nr_pages;

	feature(STATE_HIGHATOMIC, (unsigned long)zone->idx << 4 | cap(blocks, 7) << 1 |
		(LOAD(zone->nr_reserved_highatomic) >= max));
}

/* A drain's racy read of pcp->count: who holds pcp->lock, a refill in
 * flight, what it read */
static __sched_notsan void read_state(const struct per_cpu_pages *pcp, int site)
{
	feature(STATE_READ, (unsigned long)site << 3 | held_by_other(&pcp->lock) << 2 |
		(LOAD(pcp->refilling) != 0) << 1 | (LOAD(pcp->count) != 0));
}

/* The live gathers on the mm (tlb_flush_pending), at a gather's start or
 * at the nested check, fullmm or not */
static __sched_notsan void gather_state(const struct mmu_gather *tlb, bool finish)
{
	int pending = LOAD(tlb->mm->tlb_flush_pending.counter);

	feature(STATE_GATHER, cap((unsigned long)(pending > 0 ? pending : 0), 7) << 2 |
		finish << 1 | tlb->fullmm);
}

/* A hotplug callback: which state, which way, how many CPUs online */
static __sched_notsan void cpuhp_state(unsigned int cpu, int state, bool bringup)
{
	(void)cpu;
	feature(STATE_CPUHP, (unsigned long)state << 5 | bringup << 4 |
		cap((unsigned long)__builtin_popcountl(LOAD(__cpu_online_mask.bits)), 15));
}

/* A percpu counter's per-CPU count against its batch, in quarters, signed */
static __sched_notsan void pcpu_state(const struct percpu_counter *fbc, long long count, int batch)
{
	unsigned long q = batch > 0 ? (unsigned long)((count < 0 ? -count : count) * 4 / batch) : 0;

	(void)fbc;
	feature(STATE_PCPU, cap(q, 5) << 1 | (count < 0));
}

void check_state_attach(void)
{
	pagealloc_hooks.state_watermark = wmark_state;
	pagealloc_hooks.state_pcp = pcp_state;
	pagealloc_hooks.state_highatomic = highatomic_state;
	pagealloc_hooks.state_read = read_state;
	tlb_hooks.state_gather = gather_state;
	kernel_hooks.state_cpuhp = cpuhp_state;
	kernel_hooks.state_pcpu = pcpu_state;
}

void check_state_detach(void)
{
	pagealloc_hooks.state_watermark = NULL;
	pagealloc_hooks.state_pcp = NULL;
	pagealloc_hooks.state_highatomic = NULL;
	pagealloc_hooks.state_read = NULL;
	tlb_hooks.state_gather = NULL;
	kernel_hooks.state_cpuhp = NULL;
	kernel_hooks.state_pcpu = NULL;
}

// SPDX-License-Identifier: MIT
/*
 * The page allocator's racy reads, checked where the model decides on them
 * (mm/oracle.h, through the page allocator's hooks: mm/page_alloc_hooks.h),
 * and I-PCP-2 with the one excuse 6.6 has.
 *
 * I-READ@__zone_watermark_ok  The free pages a watermark check reads are,
 *     whoever holds zone->lock, what zone_page_state() or
 *     zone_page_state_snapshot() returns at that moment (off the exact
 *     count by the drift outstanding, not a fixed cpus x threshold); and
 *     what vmstat accounts is the free lists, or while another task holds
 *     zone->lock at least them and at most them plus what that task has in
 *     hand (6.6 accounts a free before listing it and an allocation after
 *     unlisting it, one block at a time, rmqueue_bulk's batch at its end:
 *     docs/checkers.md, "Excuses and their citations").  The report
 *     says whether the order-0 check would have gone the other way on the
 *     exact value.
 * I-READ@vmstat_show  The same for NR_FREE_PAGES as /proc/vmstat reads it
 *     (the read_counters operation).
 * I-READ@zone_watermark_ok_safe, I-READ@should_reclaim_retry  The readers
 *     that exist to be exact are: below percpu_drift_mark kswapd's check
 *     (pgdat_balanced) decides on zone_page_state_snapshot() at that
 *     moment, above it on the counter it read; the reclaim retry's
 *     available estimate is the snapshot at that moment.
 * I-READ@drain_pages_zone, I-READ@__drain_all_pages  The pcp->count a
 *     drain reads before the lock is what the lists hold, unless pcp->lock
 *     is held by another task (a refill or a free in flight).  A drain that
 *     skips a pcp holding pages with nobody in the middle of updating it is
 *     a count that went wrong outside its lock.
 * I-READ@nr_pcp_high  The pcp->batch a free reads to clamp pcp->high while
 *     the zone is ZONE_RECLAIM_ACTIVE (batch << 2) is the zone's batch,
 *     unless pcp_batch_high_lock is held (an update or a disable in
 *     flight, which writes batch before high: a torn pair 6.6 tolerates,
 *     "Any new users of pcp->batch and pcp->high should ensure they can
 *     cope with those fields changing asynchronously").
 * I-PCP-2  After zone_pcp_disable() every pcp of the zone is empty, and
 *     stays so while the disable holds.  6.6 misses one window: its
 *     drain_pages_zone reads pcp->count before the lock, and a refill that
 *     read pcp->batch before the disable set it to 1 and has not yet counted
 *     what it takes from the buddy (pcp->refilling: its blocks) is skipped,
 *     its pages left behind.  That is known-6.6@drain_pages_zone:
 *     not a violation unless --report-known (check_report_known), counted
 *     (check_known_count), and the disable it happened in is excused.  With
 *     drain=locked_count (the later fix) it cannot happen and I-PCP-2 is
 *     exact.
 */
#include "check.h"
#include "pagealloc.h"

#include <stdlib.h>
#include <string.h>

#include "../mm/internal.h"
#include "../mm/oracle.h"

bool check_report_known;
static unsigned long known_count;

unsigned long check_known_count(void)
{
	return __atomic_load_n(&known_count, __ATOMIC_RELAXED);
}

/*
 * The executor's fibers share this bookkeeping without happens-before:
 * relaxed atomics, as for the rest of the harness's state.
 */
static struct {
	int disabling[MAX_TASKS];	/* zone + 1 a task's zone_pcp_disable drains */
	bool known[MAX_TASKS];		/* ... and its drain met the known race */
	/* the task + 1 whose disable of the zone is excused, else 0 */
	int excused_by[MAX_ZONES_PER_ZONELIST];	/* by zone->idx */
} pcp2;

/* Another task holds @l: an update of what it protects is in flight. */
static bool held_by_other(const spinlock_t *l)
{
	struct task *owner = __atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED);

	return owner && owner != current_task;
}

static long pcp_list_pages(const struct per_cpu_pages *pcp)
{
	long sum = 0;
	int pindex;

	for (pindex = 0; pindex < NR_PCP_LISTS; pindex++) {
		const struct list_head *head = &pcp->lists[pindex], *pos;
		int order = pindex_to_order((unsigned int)pindex);

		for (pos = head->next; pos != head; pos = pos->next)
			sum += 1L << order;
	}
	return sum;
}

static int pcp_cpu(const struct zone *zone, const struct per_cpu_pages *pcp)
{
	return (int)(pcp - zone->per_cpu_pageset);
}

/*
 * A lockless read of NR_FREE_PAGES (@read) against the counters and the
 * free lists at the step it was made (the hook runs in the read's step,
 * oracle.h).  Whoever holds zone->lock, the value read is what one of
 * 6.6's two readers returns at that moment, and nothing else:
 * zone_page_state() (include/linux/vmstat.h: zone->vm_stat, clamped to 0
 * "#ifdef CONFIG_SMP ... if (x < 0) x = 0") or zone_page_state_snapshot()
 * (the same plus every CPU's vm_stat_diff, clamped likewise).  So its
 * distance from the exact count is the drift actually outstanding (the
 * differentials and a fold in flight: refresh_cpu_vm_stats'
 * this_cpu_xchg before its atomic_long_add), never a fixed cpus x
 * threshold.  And when nobody holds zone->lock, what vmstat accounts (the
 * counter, the differentials, a fold in flight) is the free lists: every
 * NR_FREE_PAGES update of 6.6 is made under zone->lock
 * (__mod_zone_freepage_state's callers, rmqueue_bulk's and
 * free_pcppages_bulk's __mod_zone_page_state), so only a holder's update
 * can be in flight (docs/checkers.md, "Excuses and their citations"),
 * and then only as far as 6.6's order lets it run ahead of the lists at
 * the point the holder is at: zone->free_inflight (page_alloc.c,
 * free_inflight_add, cites each step).
 * @needed >= 0: the watermark an order-0 check needs more than (the
 * decision taken on it); < 0: a read that decides nothing in the model
 * (/proc/vmstat).
 */
/* The per-CPU differentials of NR_FREE_PAGES outstanding at this step */
static long free_diffs(const struct zone *zone)
{
	long diffs = 0;
	int cpu;

	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++)
		diffs += __READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[NR_FREE_PAGES]);
	return diffs;
}

static void free_pages_read(const char *site, const struct zone *zone, long read, long needed)
{
	struct cfail f;
	char decision[160] = "";
	long exact, counter, diffs, fold, acct, hand, plain, snap;
	struct task *holder;
	bool held, ok;

	if (!hook_at_read_step())
		return;
	cfail_init(&f);
	tsan_ignore_begin();
	holder = __atomic_load_n(&zone->lock.sl.owner, __ATOMIC_RELAXED);
	held = holder && holder != current_task;
	exact = zone->free_pages_exact;
	counter = __READ_ONCE(zone->vm_stat[NR_FREE_PAGES].counter);
	fold = __READ_ONCE(zone->free_fold_inflight);
	hand = __READ_ONCE(zone->free_inflight);
	diffs = free_diffs(zone);
	acct = counter + diffs + fold;
	plain = counter < 0 ? 0 : counter;
	snap = counter + diffs < 0 ? 0 : counter + diffs;
	/*
	 * Another task holds zone->lock: 6.6 accounts a free before it
	 * lists it ("__mod_zone_freepage_state(zone, 1 << order,
	 * migratetype);" at __free_one_page's entry) and an allocation
	 * after it unlists it (rmqueue_buddy's __mod_zone_freepage_state
	 * after __rmqueue; rmqueue_bulk's "-(i << order)" after its loop),
	 * so the holder's update in flight leaves the accounting above the
	 * lists, never below, and above them by no more than the block in
	 * hand or the blocks taken (@hand; a fold of __mod_zone_page_state
	 * in flight is in free_fold_inflight).
	 */
	ok = held ? acct >= exact && acct <= exact + hand : acct == exact;
	if ((read == plain || read == snap) && ok)
		goto out;	/* the message below is for a failure only */
	if (needed >= 0)
		snprintf(decision, sizeof(decision),
			 "; its order-0 check needs more than %ld: %s on the value read, %s on "
			 "the exact one", needed, read > needed ? "passed" : "failed",
			 exact > needed ? "passes" : "fails");
	if (read != plain && read != snap)
		cfail_set(&f, "I-READ", site,
			  "%s: %s read %ld free pages where zone_page_state() returns %ld and "
			  "zone_page_state_snapshot() %ld at that moment (the free lists hold "
			  "%ld)%s", zone->name, needed >= 0 ? "the watermark check" : "vmstat",
			  read, plain, snap, exact, decision);
	else if (held && acct < exact)
		cfail_set(&f, "I-READ", site,
			  "%s: %s read %ld free pages; NR_FREE_PAGES and the per-CPU "
			  "differentials account for %ld, the free lists hold %ld: below them while "
			  "task %d holds zone->lock (6.6 accounts a free before listing it and an "
			  "allocation after unlisting it)%s", zone->name,
			  needed >= 0 ? "the watermark check" : "vmstat", read, acct, exact,
			  holder->id, decision);
	else if (held)
		cfail_set(&f, "I-READ", site,
			  "%s: %s read %ld free pages; NR_FREE_PAGES and the per-CPU "
			  "differentials account for %ld, the free lists hold %ld: above them by %ld "
			  "while task %d, holding zone->lock, has %ld in hand (6.6 accounts a free "
			  "block just before listing it and an allocation once its blocks are off "
			  "the lists, so the accounting runs ahead only by the block being freed or "
			  "the blocks taken)%s", zone->name,
			  needed >= 0 ? "the watermark check" : "vmstat", read, acct, exact,
			  acct - exact, holder->id, hand, decision);
	else
		cfail_set(&f, "I-READ", site,
			  "%s: %s read %ld free pages; NR_FREE_PAGES and the per-CPU "
			  "differentials account for %ld, the free lists hold %ld, and nobody is "
			  "updating them%s", zone->name, needed >= 0 ? "the watermark check" : "vmstat",
			  read, acct, exact, decision);
out:
	cfail_report(&f);
}

static void watermark_read(const struct zone *zone, long read, long needed)
{
	free_pages_read("__zone_watermark_ok", zone, read, needed);
}

/* /proc/vmstat's NR_FREE_PAGES (read_counters): nothing decided on it in
 * the model, but a user's tools do */
static void vmstat_read(const struct zone *zone, long read)
{
	free_pages_read("vmstat_show", zone, read, -1);
}

/*
 * A reader that needs the exact accounting (zone_page_state_snapshot(),
 * include/linux/vmstat.h: the counter plus every CPU's vm_stat_diff,
 * clamped to 0) read @read in this step: it is that value, nothing else.
 */
static void snapshot_read(const struct zone *zone, long read, const char *site)
{
	struct cfail f;
	long x;

	if (!hook_at_read_step())
		return;
	cfail_init(&f);
	tsan_ignore_begin();
	x = __READ_ONCE(zone->vm_stat[NR_FREE_PAGES].counter) + free_diffs(zone);
	if (x < 0)
		x = 0;
	if (read != x)
		cfail_set(&f, "I-READ", site,
			  "%s: decided on %ld free pages where zone_page_state_snapshot() returns %ld "
			  "at that moment (NR_FREE_PAGES %ld)", zone->name, read, x,
			  __READ_ONCE(zone->vm_stat[NR_FREE_PAGES].counter));
	cfail_report(&f);
}

/*
 * zone_watermark_ok_safe (mm/page_alloc.c, 6.6): "if (z->percpu_drift_mark
 * && free_pages < z->percpu_drift_mark) free_pages =
 * zone_page_state_snapshot(z, NR_FREE_PAGES);".  Below the mark the value
 * decided on is the snapshot at that moment; above it the counter read
 * (@plain), which the watermark check's own oracle holds to what
 * zone_page_state() returned.
 */
static void watermark_safe_read(const struct zone *zone, long plain, long used)
{
	unsigned long mark = __READ_ONCE(zone->percpu_drift_mark);

	if (mark && plain < (long)mark)
		snapshot_read(zone, used, "zone_watermark_ok_safe");
	else if (used != plain) {
		struct cfail f;

		cfail_init(&f);
		tsan_ignore_begin();
		cfail_set(&f, "I-READ", "zone_watermark_ok_safe",
			  "%s: zone_page_state() read %ld, at or above percpu_drift_mark %lu (or "
			  "none), but the check decided on %ld", zone->name, plain, mark, used);
		cfail_report(&f);
	}
}

/* A drain's racy look at pcp->count: the count its lists hold, or an
 * update in flight; in a disable's drain, 6.6's known window. */
static void drain_read(const char *site, const struct per_cpu_pages *pcp, long read, int zidx)
{
	const struct zone *zone = zone_by_idx(mm_world, zidx);
	struct task *t = current_task;
	struct cfail f;
	long exact;

	if (!hook_at_read_step())
		return;
	cfail_init(&f);
	tsan_ignore_begin();
	exact = pcp_list_pages(pcp);
	if (held_by_other(&pcp->lock)) {
		/*
		 * 6.6's window: a refill that read pcp->batch before the
		 * disable set it to 1, and has not counted what it takes
		 * (taken from the buddy yet or not): this drain skips the
		 * pcp and the refill leaves all but one block on it.  A
		 * refill of one block leaves nothing.
		 */
		int blocks = __READ_ONCE(pcp->refilling);

		if (!read && blocks > 1 && t && t->id < MAX_TASKS &&
		    __atomic_load_n(&pcp2.disabling[t->id], __ATOMIC_RELAXED) == zidx + 1) {
			__atomic_store_n(&pcp2.known[t->id], true, __ATOMIC_RELAXED);
			__atomic_fetch_add(&known_count, 1, __ATOMIC_RELAXED);
			if (check_report_known)
				cfail_set(&f, "known-6.6", "drain_pages_zone",
					  "cpu%d %s pcp: zone_pcp_disable's drain read pcp->count 0 "
					  "while a refill of %d blocks is in flight, %ld pages on its "
					  "list so far (6.6's race; the later fix reads the count "
					  "under pcp->lock: drain: locked_count)", pcp_cpu(zone, pcp),
					  zone->name, blocks, exact);
		}
		goto out;
	}
	if (read != exact)
		cfail_set(&f, "I-READ", site,
			  "cpu%d %s pcp: the drain read pcp->count %ld where its lists hold %ld "
			  "and nobody holds pcp->lock%s", pcp_cpu(zone, pcp), zone->name, read, exact,
			  !read && exact ? ": it skips a pcp that holds pages" : "");
out:
	cfail_report(&f);
}

static void drain_pcp_read(const struct per_cpu_pages *pcp, long read, int zidx)
{
	drain_read("drain_pages_zone", pcp, read, zidx);
}

static void drain_all_pcp_read(const struct per_cpu_pages *pcp, long read, int zidx)
{
	drain_read("__drain_all_pages", pcp, read, zidx);
}

/* nr_pcp_high's batch under ZONE_RECLAIM_ACTIVE: the zone's, or an update
 * in flight */
static void high_batch_read(const struct per_cpu_pages *pcp, long read, int zidx)
{
	const struct zone *zone = zone_by_idx(mm_world, zidx);
	long want;
	struct cfail f;

	if (!hook_at_read_step())
		return;
	cfail_init(&f);
	tsan_ignore_begin();
	if (__atomic_load_n(&pa_world(mm_world)->pcp_batch_high_lock.sl.owner, __ATOMIC_RELAXED))
		goto out;
	want = zone->pageset_batch;
	if (read != want)
		cfail_set(&f, "I-READ", "nr_pcp_high",
			  "cpu%d %s pcp: a free under ZONE_RECLAIM_ACTIVE read pcp->batch %ld where "
			  "the zone's is %ld and nobody holds pcp_batch_high_lock: high clamped to "
			  "%ld, not %ld", pcp_cpu(zone, pcp), zone->name, read, want,
			  min(read << 2, (long)__READ_ONCE(pcp->high)),
			  min(want << 2, (long)__READ_ONCE(pcp->high)));
out:
	cfail_report(&f);
}

/* ---- I-PCP-2 ---- */

/* The task running a disable or an enable: a program's (a test may call
 * them from no task, which I-PCP-2 does not follow) */
static int pcp2_task(void)
{
	struct task *t = current_task;

	return t && t->id >= 0 && t->id < MAX_TASKS ? t->id : -1;
}

/* zone_pcp_disable() of the task running begins */
static void pcp2_disable_begin(const struct zone *zone)
{
	int task = pcp2_task();

	if (task < 0)
		return;
	__atomic_store_n(&pcp2.known[task], false, __ATOMIC_RELAXED);
	__atomic_store_n(&pcp2.disabling[task], zone->idx + 1, __ATOMIC_RELAXED);
}

/* zone_pcp_disable() just returned: every pcp of the zone not locked is
 * empty, unless its drain met the known race. */
static void pcp2_disable_done(const struct zone *zone)
{
	const struct world *w = mm_world;
	int z = zone->idx, task = pcp2_task();
	struct cfail f;
	int cpu;

	if (task < 0)
		return;
	cfail_init(&f);
	__atomic_store_n(&pcp2.disabling[task], 0, __ATOMIC_RELAXED);
	if (__atomic_load_n(&pcp2.known[task], __ATOMIC_RELAXED)) {
		__atomic_store_n(&pcp2.excused_by[z], task + 1, __ATOMIC_RELAXED);
		return;
	}
	tsan_ignore_begin();
	for (cpu = 0; cpu < w->cfg.ncpus && !f.hit; cpu++) {
		struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

		if (!spin_is_locked(&pcp->lock) && __READ_ONCE(pcp->count))
			cfail_set(&f, "I-PCP-2", "zone_pcp_disable",
				  "cpu%d %s pcp holds %d pages after zone_pcp_disable() drained it",
				  cpu, zone->name, __READ_ONCE(pcp->count));
	}
	cfail_report(&f);
}

/*
 * zone_pcp_enable() of a task's disable: the excuse goes only with the
 * disable that earned it, never the next disabler's (whose mutex_lock may
 * have run to the end before this returned).
 */
static void pcp2_enable_done(const struct zone *zone)
{
	int z = zone->idx, task = pcp2_task();

	if (task >= 0 && __atomic_load_n(&pcp2.excused_by[z], __ATOMIC_RELAXED) == task + 1)
		__atomic_store_n(&pcp2.excused_by[z], 0, __ATOMIC_RELAXED);
}

unsigned int pcp2_zones(void)
{
	unsigned int mask = ~0u;
	int z;

	for (z = 0; z < MAX_ZONES_PER_ZONELIST; z++)
		if (__atomic_load_n(&pcp2.excused_by[z], __ATOMIC_RELAXED))
			mask &= ~(1u << z);
	return mask;
}

/* ---- registration ---- */

static void read_attach(struct world *w)
{
	(void)w;
	pagealloc_hooks.read_watermark = watermark_read;
	pagealloc_hooks.read_vmstat = vmstat_read;
	pagealloc_hooks.read_drain_pcp = drain_pcp_read;
	pagealloc_hooks.read_drain_all_pcp = drain_all_pcp_read;
	pagealloc_hooks.pcp_disable_begin = pcp2_disable_begin;
	pagealloc_hooks.pcp_disable_done = pcp2_disable_done;
	pagealloc_hooks.pcp_enable_done = pcp2_enable_done;
	pagealloc_hooks.read_pcp_high_batch = high_batch_read;
	pagealloc_hooks.read_watermark_safe = watermark_safe_read;
	pagealloc_hooks.read_snapshot = snapshot_read;
}

/*
 * At quiescence nobody holds zone->lock and no update is in flight: the
 * holder's bookkeeping (zone->free_inflight, page_alloc.c) is back to 0,
 * or a credit or debit of it is missing and the upper bound above is off
 * from then on.
 */
static void read_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct zone *zone;

	(void)w;
	for_each_populated_zone(zone)
		if (!f->hit && __READ_ONCE(zone->free_inflight))
			cfail_set(f, "I-READ", where,
				  "%s: the model's free_inflight is %ld with nobody in an update "
				  "under zone->lock: a step of page_alloc.c's bookkeeping of "
				  "6.6's order is missing", zone->name,
				  __READ_ONCE(zone->free_inflight));
}

static void read_run_begin(struct world *w)
{
	(void)w;
	memset(&pcp2, 0, sizeof(pcp2));
}

static const struct checker read_checker = {
	.name = "I-READ I-PCP-2", .layer = "pagealloc", .prio = 15,
	.attach = read_attach, .run_begin = read_run_begin, .quiescent = read_quiescent,
};
CHECKER(read_checker);

// SPDX-License-Identifier: MIT
/*
 * vmstat: per-CPU differentials folded into zone and global counters when
 * they pass a threshold (Linux 6.6 mm/vmstat.c).
 *
 * vm_stat_diff is this CPU's: it is changed with IRQs off (under zone->lock,
 * irqsave) or by this_cpu_xchg in the refresh.  Other CPUs read it racily
 * (zone_page_state_snapshot, plain in 6.6, __data_race() here: annotated,
 * and in one step with the counter's read, the yield point before it, as the
 * watermark oracle needs).  This CPU's own accesses are __this_cpu_read/write
 * in the kernel, __READ_ONCE/__WRITE_ONCE here (relaxed for TSan, no yield
 * point), with one exception: a store made with IRQs on (a caller's
 * mistake) is WRITE_ONCE, a yield point where an interrupt on this CPU can
 * come in between the load and the store and lose its update, as in the
 * kernel.  With IRQs off only other CPUs' tasks could run there, and they
 * cannot change this CPU's diff: no point, no step.
 * zone->vm_stat and vm_zone_stat are atomic_long_t, updated without a lock:
 * every atomic_long_read of them is a yield point.
 */
#include "internal.h"
#include "oracle.h"

#include <stdlib.h>

#include "../kernel/cpu.h"

const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS] = {
	[NR_FREE_PAGES] = "nr_free_pages",
	[NR_FREE_CMA_PAGES] = "nr_free_cma",
};

const char *const mm_stat_names[NR_MM_STAT_ITEMS] = {
	[MM_PCP_REFILL] = "pcp_refill",
	[MM_PCP_BULK_FREE] = "pcp_bulk_free",
	[MM_PCP_DRAIN] = "pcp_drain",
	[MM_PCP_ALLOC_FALLBACK] = "pcp_alloc_trylock_fallback",
	[MM_PCP_FREE_FALLBACK] = "pcp_free_trylock_fallback",
	[MM_BUDDY_SPLIT] = "buddy_split",
	[MM_BUDDY_MERGE] = "buddy_merge",
	[MM_FALLBACK_STEAL] = "fallback_steal",
	[MM_ALLOC_FAIL] = "alloc_fail",
	[MM_NOFRAGMENT_RETRY] = "nofragment_retry",
	[MM_SLOWPATH] = "alloc_slowpath",
	[MM_KSWAPD_WAKE] = "kswapd_wake",
	[MM_DIRECT_RECLAIM] = "direct_reclaim_no_progress",
	[MM_RECLAIM_RETRY] = "reclaim_retry",
	[MM_OOM] = "oom_no_killer",
	[MM_NOFAIL_STOP] = "nofail_stop",
	[MM_WARN_ALLOC] = "warn_alloc",
	[MM_HIGHATOMIC_RESERVE] = "highatomic_reserve",
	[MM_HIGHATOMIC_UNRESERVE] = "highatomic_unreserve",
	[MM_RECLAIM_RCU_WAIT] = "reclaim_rcu_wait",
};

struct mm_stat_cpu *mm_stat_percpu;

/* Statistics only: a relaxed load and store on this CPU's slot. */
void mm_stat_inc(enum mm_stat_item item)
{
	unsigned long *p = &mm_stat_percpu[current_task->cpu].item[item];

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

unsigned long mm_stat_sum(enum mm_stat_item item)
{
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++)
		sum += __atomic_load_n(&mm_stat_percpu[cpu].item[item], __ATOMIC_RELAXED);
	return sum;
}

void mm_stat_reset(void)
{
	int cpu, i;

	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++)
		for (i = 0; i < NR_MM_STAT_ITEMS; i++)
			__atomic_store_n(&mm_stat_percpu[cpu].item[i], 0, __ATOMIC_RELAXED);
}

void __count_vm_events(enum vm_event_item item, long delta)
{
	unsigned long *p = &mm_pa->vm_events[current_task->cpu].event[item];

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + (unsigned long)delta,
			 __ATOMIC_RELAXED);
}

unsigned long sum_vm_event(enum vm_event_item item)
{
	unsigned long sum = 0;
	int cpu;

	if (item == PGALLOC)
		return sum_vm_event(PGALLOC_DMA32) + sum_vm_event(PGALLOC_NORMAL);
	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++)
		sum += __atomic_load_n(&mm_pa->vm_events[cpu].event[item], __ATOMIC_RELAXED);
	return sum;
}

/*
 * The model's own bookkeeping for the racy-read oracles (oracle.h): free
 * pages a fold has taken out of a differential and not yet added to
 * zone->vm_stat.  Several folds may be in flight at once (the vmstat worker
 * on two CPUs, a dead CPU's fold): a sum, never a slot.
 */
static void fold_inflight(struct zone *zone, long v)
{
	__atomic_fetch_add(&zone->free_fold_inflight, v, __ATOMIC_RELAXED);
}

/*
 * The one place a differential reaches the shared counters.  With
 * vmstat_lost_update the zone counter is an atomic_long_read and an
 * atomic_long_set, as if atomic_long_add had been open-coded: nothing but
 * the two racy accesses (each a yield point) lets another task in between.
 */
static void zone_page_state_add(long x, struct zone *zone, enum zone_stat_item item,
				long twice)
{
	if (bug_on(BUG_VMSTAT_LOST_UPDATE)) {
		long v = atomic_long_read(&zone->vm_stat[item]);

		atomic_long_set(&zone->vm_stat[item], v + x);
	} else {
		atomic_long_add(x, &zone->vm_stat[item]);
	}
	/* in the step of the add: @twice, the differential not yet zeroed,
	 * is counted in the zone counter too until the caller zeroes it */
	if (item == NR_FREE_PAGES)
		fold_inflight(zone, -twice);
	atomic_long_add_site(x, &pa_world(mm_world)->vm_zone_stat[item],
			     "&mm_world->vm_zone_stat[item]");
}

/* IRQs on, outside interrupt context: an interrupt may come in here. */
static inline bool irqs_on_here(void)
{
	const struct task *t = current;

	return !t->irq_depth && !t->irq_active;
}

/*
 * For use when we know that interrupts are disabled, or when we know that
 * preemption is disabled and that particular counter cannot be updated from
 * interrupt context.
 */
void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	struct per_cpu_zonestat *pcp = this_cpu_ptr(zone->per_cpu_zonestats);
	long x, t, fold = 0;

	x = delta + __READ_ONCE(pcp->vm_stat_diff[item]);
	t = __READ_ONCE(pcp->stat_threshold);
	if (unlikely(labs(x) > t)) {
		/* the old differential is in the zone counter before it is
		 * zeroed: a reader in between counts it twice (oracle.h's
		 * bookkeeping says so, as for refresh_cpu_vm_stats' fold) */
		zone_page_state_add(x, zone, item, x - delta);
		fold = x - delta;
		x = 0;
	}
	if (unlikely(irqs_on_here()))
		WRITE_ONCE(pcp->vm_stat_diff[item], (signed char)x);
	else
		__WRITE_ONCE(pcp->vm_stat_diff[item], (signed char)x);
	if (fold && item == NR_FREE_PAGES)
		fold_inflight(zone, fold);
}

/* Use interrupt disable to serialize counter updates. */
void mod_zone_page_state(struct zone *zone, enum zone_stat_item item, long delta)
{
	unsigned long flags;

	local_irq_save(flags);
	__mod_zone_page_state(zone, item, delta);
	local_irq_restore(flags);
}

/*
 * this_cpu_xchg: on x86 a cmpxchg loop without the lock prefix, atomic
 * against this CPU's interrupts only.  Each try is a yield point.
 */
static signed char this_cpu_xchg_s8(signed char *p, signed char v)
{
	signed char old;

	do {
		old = __READ_ONCE(*p);
		yield_point(YIELD_SITE(YP_CMPXCHG, "pzstats->vm_stat_diff[i]"));
	} while (!__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return old;
}


/*
 * Fold this CPU's differentials into the zone and global counters
 * (the vmstat worker, and /proc/sys/vm/stat_refresh on every CPU).
 */
int refresh_cpu_vm_stats(bool do_pagesets)
{
	long global_zone_diff[NR_VM_ZONE_STAT_ITEMS] = { 0 };
	struct zone *zone;
	int i, changes = 0;

	(void)do_pagesets;	/* no NUMA remote pagesets in the model */
	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *pzstats;

		preempt_disable();
		pzstats = this_cpu_ptr(zone->per_cpu_zonestats);
		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			long v = this_cpu_xchg_s8(&pzstats->vm_stat_diff[i], 0);

			if (i == NR_FREE_PAGES)
				fold_inflight(zone, v);
			if (v) {
				if (bug_on(BUG_VMSTAT_LOST_UPDATE)) {
					long old = atomic_long_read(&zone->vm_stat[i]);

					atomic_long_set(&zone->vm_stat[i], old + v);
				} else {
					atomic_long_add(v, &zone->vm_stat[i]);
				}
				global_zone_diff[i] += v;
			}
			if (i == NR_FREE_PAGES)
				fold_inflight(zone, -v);
		}
		preempt_enable();
	}
	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (global_zone_diff[i]) {
			atomic_long_add_site(global_zone_diff[i], &pa_world(mm_world)->vm_zone_stat[i],
					     "&mm_world->vm_zone_stat[i]");
			changes++;
		}
	return changes;
}

/* The kernel clamps negatives to 0 on SMP: per-CPU diffs may lag. */
unsigned long zone_page_state(struct zone *zone, enum zone_stat_item item)
{
	long x = atomic_long_read(&zone->vm_stat[item]);

	return x < 0 ? 0 : (unsigned long)x;
}

unsigned long zone_page_state_snapshot(struct zone *zone, enum zone_stat_item item)
{
	long x = atomic_long_read(&zone->vm_stat[item]);
	int cpu;

	for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++) {
		struct per_cpu_zonestat *pzstats = per_cpu_ptr(zone->per_cpu_zonestats, cpu);

		/* plain racy reads in 6.6; one step with the counter's read,
		 * as a watermark oracle needs (oracle.h) */
		x += __data_race(pzstats->vm_stat_diff[item]);
	}
	return x < 0 ? 0 : (unsigned long)x;
}

unsigned long global_zone_page_state(enum zone_stat_item item)
{
	long x = atomic_long_read_site(&pa_world(mm_world)->vm_zone_stat[item],
				       "&mm_world->vm_zone_stat[item]");

	return x < 0 ? 0 : (unsigned long)x;
}

/*
 * The threshold comes from the config (the kernel's
 * calculate_normal_threshold() gives 2*fls(ncpus)*(1+fls(mem/128M)), far
 * above what a zone of a few hundred pages can show).  percpu_drift_mark
 * as refresh_zone_stat_thresholds() sets it.
 */
void refresh_zone_stat_thresholds(void)
{
	int cpu, threshold = mm_pa->cfg.stat_threshold;
	struct zone *zone;

	for_each_populated_zone(zone) {
		unsigned long max_drift, tolerate_drift;

		/* at boot, before any task runs; then from vmstat_cpu_dead */
		for (cpu = 0; cpu < mm_world->cfg.ncpus; cpu++)
			__WRITE_ONCE(zone->per_cpu_zonestats[cpu].stat_threshold,
				     (signed char)threshold);
		/* 6.6 reads the watermarks plainly, with no lock: vmstat_cpu_dead
		 * runs this beside __setup_per_zone_wmarks' stores under
		 * zone->lock (here deferred init's, page_alloc_init_late) */
		tolerate_drift = __data_race(zone->_watermark[WMARK_LOW]) -
				 __data_race(zone->_watermark[WMARK_MIN]);
		max_drift = (unsigned long)(mm_world->cfg.ncpus * threshold);
		__WRITE_ONCE(zone->percpu_drift_mark, max_drift > tolerate_drift ?
			     __data_race(zone->_watermark[WMARK_HIGH]) + max_drift : 0);
	}
}

/*
 * Fold the differentials of a CPU that is gone into the zone and global
 * counters: "This is only okay since the processor is dead and cannot race
 * with what we are doing."  (6.6 cpu_vm_stats_fold, from
 * page_alloc_cpu_dead.)
 */
void cpu_vm_stats_fold(int cpu)
{
	long global_zone_diff[NR_VM_ZONE_STAT_ITEMS] = { 0 };
	struct zone *zone;
	int i;

	for_each_populated_zone(zone) {
		struct per_cpu_zonestat *pzstats = per_cpu_ptr(zone->per_cpu_zonestats, cpu);

		for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++) {
			/* the dead CPU's: nothing races (__ forms, no yield) */
			long v = __READ_ONCE(pzstats->vm_stat_diff[i]);

			if (v) {
				__WRITE_ONCE(pzstats->vm_stat_diff[i], 0);
				if (i == NR_FREE_PAGES)
					fold_inflight(zone, v);
				atomic_long_add(v, &zone->vm_stat[i]);
				if (i == NR_FREE_PAGES)
					fold_inflight(zone, -v);
				global_zone_diff[i] += v;
			}
		}
	}
	for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		if (global_zone_diff[i])
			atomic_long_add_site(global_zone_diff[i], &pa_world(mm_world)->vm_zone_stat[i],
					     "&mm_world->vm_zone_stat[i]");
}

/* Spill the event counters of the dead processor into the current
 * processor's: "This artificially elevates the count of the current
 * processor." */
void vm_events_fold_cpu(int cpu)
{
	struct vm_event_state *fold_state = &mm_pa->vm_events[cpu];
	int i;

	for (i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		unsigned long v = __atomic_load_n(&fold_state->event[i], __ATOMIC_RELAXED);

		if (v) {
			__count_vm_events((enum vm_event_item)i, (long)v);
			__atomic_store_n(&fold_state->event[i], 0, __ATOMIC_RELAXED);
		}
	}
}

/* CPUHP_MM_VMSTAT_DEAD and the online state: the thresholds follow the
 * CPUs (the model's threshold is the config's; the drift mark changes). */
static int vmstat_cpu_dead(unsigned int cpu)
{
	(void)cpu;
	refresh_zone_stat_thresholds();
	return 0;
}

static int vmstat_cpu_online(unsigned int cpu)
{
	(void)cpu;
	refresh_zone_stat_thresholds();
	return 0;
}

__attribute__((constructor)) static void init_mm_internals_cpuhp(void)
{
	cpuhp_setup_state_nocalls(CPUHP_MM_VMSTAT_DEAD, "mm/vmstat:dead", NULL, vmstat_cpu_dead);
	cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "mm/vmstat:online", vmstat_cpu_online,
				  NULL);
}

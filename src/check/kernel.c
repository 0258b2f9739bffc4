// SPDX-License-Identifier: MIT
/* Checkers of the kernel primitives and ktorture: see kernel.h. */
#include "kernel.h"

#include "../kernel/cpu.h"
#include "../kernel/cpumask.h"
#include "check.h"

/* I-RCU: at a reader's access to @o, inside its read-side section. */
static void check_rcu_access(struct ktorture *kt, const struct kt_obj *o)
{
	struct task *t = current_task;
	uint64_t freed = READ_ONCE(o->freed_at);

	if (!freed)
		return;
	if (t->rcu_nesting && freed > t->rcu_sec_step)
		sched_violation("I-RCU", "kt_rcu_read",
				"%s reads object %d, freed (rcu_clock %llu) while its RCU read-side "
				"section (begun at %llu) ran: the grace period it overlapped ended "
				"before the section did",
				t->name, (int)(o - kt->pool), (unsigned long long)freed,
				(unsigned long long)t->rcu_sec_step);
	sched_violation("use-after-free", "kt_rcu_read",
			"%s reads object %d, freed (rcu_clock %llu) before its section began "
			"(%llu): still published when it was freed",
			t->name, (int)(o - kt->pool), (unsigned long long)freed,
			(unsigned long long)t->rcu_sec_step);
}

void check_ktorture_attach(struct ktorture *kt)
{
	kt->check_rcu_access = check_rcu_access;
}

static void check_pcpcnt(struct ktorture *kt, const char *where, struct cfail *f)
{
	const struct percpu_counter *fbc = &kt->counter;
	long deltas = __atomic_load_n(&kt->counter_deltas, __ATOMIC_RELAXED);
	s64 sum = READ_ONCE(fbc->count);
	int cpu;

	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		sum += READ_ONCE(fbc->counters[cpu].count);
	if (sum != deltas)
		cfail_set(f, "I-PCPCNT", where,
				"percpu_counter_sum() is %lld but the deltas added sum to %ld",
				(long long)sum, deltas);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!cpu_online(cpu) && !cpu_dying(cpu) && READ_ONCE(fbc->counters[cpu].count))
			cfail_set(f, "I-PCPCNT", where, "cpu%d is gone with %d in its count", cpu,
					READ_ONCE(fbc->counters[cpu].count));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!cpu_online(cpu) && cpu_dying(cpu) && cpu < nr_cpu_ids_now() &&
		    READ_ONCE(fbc->counters[cpu].count))
			cfail_set(f, "I-PCPCNT", where,
					"cpu%d is offline with %d in its count: its dead callback did "
					"not fold it", cpu, READ_ONCE(fbc->counters[cpu].count));
}

/* Every object held, or on exactly one list, never both. */
static void check_freelist(struct ktorture *kt, const char *where, struct cfail *f)
{
	unsigned char seen[KT_NFL] = { 0 };
	int cpu, i, n;

	for (cpu = 0; cpu <= MAX_CPUS; cpu++) {
		const struct kt_fl_obj *o = cpu < MAX_CPUS ? READ_ONCE(kt->cpu_fl[cpu].freelist)
							   : kt->partial;

		for (n = 0; o && n <= KT_NFL; n++, o = READ_ONCE(o->next)) {
			int k = (int)(o - kt->fl_objs);

			if (seen[k]++ || __atomic_load_n(&kt->fl_objs[k].owner, __ATOMIC_RELAXED))
				cfail_set(f, "I-FREELIST", where,
						"object %d is on %s while %s", k,
						cpu < MAX_CPUS ? "a CPU freelist" : "the partial list",
						seen[k] > 1 ? "on another list too" : "held");
		}
	}
	for (i = 0; i < KT_NFL; i++)
		if (!seen[i] && !__atomic_load_n(&kt->fl_objs[i].owner, __ATOMIC_RELAXED))
			cfail_set(f, "I-FREELIST", where, "object %d is neither held nor on a list", i);
}

static void ktorture_quiescent(struct ktorture *kt, const char *where, struct cfail *f)
{
	int cpu;

	check_pcpcnt(kt, where, f);
	check_freelist(kt, where, f);
	if (__atomic_load_n(&kt->sem_readers, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&kt->sem_writers, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&kt->sem.sl.owner, __ATOMIC_RELAXED))
		cfail_set(f, "I-RWSEM", where, "mmap_lock still held at quiescence");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (kt->cpu_pair[cpu].a != kt->cpu_pair[cpu].b)
			cfail_set(f, "I-LOCAL", where, "cpu%d's pair %ld / %ld", cpu, kt->cpu_pair[cpu].a,
				  kt->cpu_pair[cpu].b);
	if (__atomic_load_n(&kt->published, __ATOMIC_RELAXED) <
	    __atomic_load_n(&kt->consumed, __ATOMIC_RELAXED))
		cfail_set(f, "I-COMP", where, "more completions taken than work published");
}

static void cpus_offline(struct world *w, const char *where, struct cfail *f)
{
	int cpu, z, i;

	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		if (cpu_online(cpu))
			continue;
		for (z = 0; z < pa_world(w)->nr_zones; z++) {
			const struct zone *zone = zone_by_idx(w, z);
			const struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

			if (READ_ONCE(pcp->count))
				cfail_set(f, "I-CPUHP", where, "cpu%d is offline with %d pages on its %s pcp",
					  cpu, READ_ONCE(pcp->count), zone->name);
			for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
				if (READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[i]))
					cfail_set(f, "I-CPUHP", where,
						  "cpu%d is offline with %s differential %d", cpu,
						  zone_stat_names[i],
						  READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[i]));
		}
		for (i = 0; i < NR_VM_EVENT_ITEMS; i++)
			if (__atomic_load_n(&pa_world(w)->vm_events[cpu].event[i], __ATOMIC_RELAXED))
				cfail_set(f, "I-CPUHP", where, "cpu%d is offline with vm events not folded",
					  cpu);
	}
}

void check_ktorture_quiescent(struct ktorture *kt, const char *where)
{
	struct cfail f = { 0 };

	tsan_ignore_begin();
	ktorture_quiescent(kt, where, &f);
	cfail_report(&f);
}

void check_cpus_offline(struct world *w, const char *where)
{
	struct cfail f = { 0 };

	tsan_ignore_begin();
	cpus_offline(w, where, &f);
	cfail_report(&f);
}

/* ---- the registered checker of the "kernel" layer ---- */

static void kernel_attach(struct world *w)
{
	check_ktorture_attach(kt_world(w));
}

static void kernel_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct ktorture *kt = kt_world(w);

	/* untouched since its boot, the torture state is the boot's */
	if (READ_ONCE(kt->used))
		ktorture_quiescent(kt, where, f);
	cpus_offline(w, where, f);
}

static void kernel_end(struct world *w, struct cfail *f)
{
	kernel_quiescent(w, "end", f);
}

static const struct checker kernel_checker = {
	.name = "I-RCU I-PCPCNT I-FREELIST I-RWSEM I-LOCAL I-COMP I-CPUHP", .layer = "kernel",
	.prio = 50,
	.attach = kernel_attach,
	.quiescent = kernel_quiescent,
	.end = kernel_end,
};
CHECKER(kernel_checker);

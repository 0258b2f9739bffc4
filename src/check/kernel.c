// SPDX-License-Identifier: MIT
/* Checkers of the kernel primitives and ktorture: see kernel.h. */
#include "kernel.h"

#include <stdarg.h>
#include <stdio.h>

#include "../kernel/cpu.h"
#include "../kernel/cpumask.h"

/* The first failure of a check, reported once TSan may look again. */
struct kfail {
	const char *checker;
	const char *site;
	char msg[512];
};

__attribute__((format(printf, 4, 5)))
static void kfail(struct kfail *f, const char *checker, const char *site, const char *fmt, ...)
{
	va_list ap;

	if (f->checker)
		return;
	f->checker = checker;
	f->site = site;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

static void kreport(struct kfail *f)
{
	tsan_ignore_end();
	if (f->checker)
		sched_violation(f->checker, f->site, "%s", f->msg);
}

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

static void check_pcpcnt(struct ktorture *kt, const char *where, struct kfail *f)
{
	const struct percpu_counter *fbc = &kt->counter;
	long deltas = __atomic_load_n(&kt->counter_deltas, __ATOMIC_RELAXED);
	s64 sum = READ_ONCE(fbc->count);
	int cpu;

	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		sum += READ_ONCE(fbc->counters[cpu].count);
	if (sum != deltas)
		kfail(f, "I-PCPCNT", where,
				"percpu_counter_sum() is %lld but the deltas added sum to %ld",
				(long long)sum, deltas);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!cpu_online(cpu) && !cpu_dying(cpu) && READ_ONCE(fbc->counters[cpu].count))
			kfail(f, "I-PCPCNT", where, "cpu%d is gone with %d in its count", cpu,
					READ_ONCE(fbc->counters[cpu].count));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (!cpu_online(cpu) && cpu_dying(cpu) && cpu < nr_cpu_ids_now() &&
		    READ_ONCE(fbc->counters[cpu].count))
			kfail(f, "I-PCPCNT", where,
					"cpu%d is offline with %d in its count: its dead callback did "
					"not fold it", cpu, READ_ONCE(fbc->counters[cpu].count));
}

/* Every object held, or on exactly one list, never both. */
static void check_freelist(struct ktorture *kt, const char *where, struct kfail *f)
{
	unsigned char seen[KT_NFL] = { 0 };
	int cpu, i, n;

	for (cpu = 0; cpu <= MAX_CPUS; cpu++) {
		const struct kt_fl_obj *o = cpu < MAX_CPUS ? READ_ONCE(kt->cpu_fl[cpu].freelist)
							   : kt->partial;

		for (n = 0; o && n <= KT_NFL; n++, o = READ_ONCE(o->next)) {
			int k = (int)(o - kt->fl_objs);

			if (seen[k]++ || __atomic_load_n(&kt->fl_objs[k].owner, __ATOMIC_RELAXED))
				kfail(f, "I-FREELIST", where,
						"object %d is on %s while %s", k,
						cpu < MAX_CPUS ? "a CPU freelist" : "the partial list",
						seen[k] > 1 ? "on another list too" : "held");
		}
	}
	for (i = 0; i < KT_NFL; i++)
		if (!seen[i] && !__atomic_load_n(&kt->fl_objs[i].owner, __ATOMIC_RELAXED))
			kfail(f, "I-FREELIST", where, "object %d is neither held nor on a list", i);
}

void check_ktorture_quiescent(struct ktorture *kt, const char *where)
{
	struct kfail f = { 0 };
	int cpu;

	tsan_ignore_begin();
	check_pcpcnt(kt, where, &f);
	check_freelist(kt, where, &f);
	if (__atomic_load_n(&kt->sem_readers, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&kt->sem_writers, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&kt->sem.sl.owner, __ATOMIC_RELAXED))
		kfail(&f, "I-RWSEM", where, "mmap_lock still held at quiescence");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (kt->cpu_pair[cpu].a != kt->cpu_pair[cpu].b)
			kfail(&f, "I-LOCAL", where, "cpu%d's pair %ld / %ld", cpu, kt->cpu_pair[cpu].a,
			      kt->cpu_pair[cpu].b);
	if (__atomic_load_n(&kt->published, __ATOMIC_RELAXED) <
	    __atomic_load_n(&kt->consumed, __ATOMIC_RELAXED))
		kfail(&f, "I-COMP", where, "more completions taken than work published");
	kreport(&f);
}

void check_cpus_offline(struct world *w, const char *where)
{
	struct kfail f = { 0 };
	int cpu, z, i;

	tsan_ignore_begin();
	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		if (cpu_online(cpu))
			continue;
		for (z = 0; z < w->nr_zones; z++) {
			const struct zone *zone = &w->zones[z];
			const struct per_cpu_pages *pcp = &zone->per_cpu_pageset[cpu];

			if (READ_ONCE(pcp->count))
				kfail(&f, "I-CPUHP", where, "cpu%d is offline with %d pages on its %s pcp",
				      cpu, READ_ONCE(pcp->count), zone->name);
			for (i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
				if (READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[i]))
					kfail(&f, "I-CPUHP", where,
					      "cpu%d is offline with %s differential %d", cpu,
					      zone_stat_names[i],
					      READ_ONCE(zone->per_cpu_zonestats[cpu].vm_stat_diff[i]));
		}
		for (i = 0; i < NR_VM_EVENT_ITEMS; i++)
			if (__atomic_load_n(&w->vm_events[cpu].event[i], __ATOMIC_RELAXED))
				kfail(&f, "I-CPUHP", where, "cpu%d is offline with vm events not folded",
				      cpu);
	}
	kreport(&f);
}

/* SPDX-License-Identifier: MIT */
/*
 * Lockdep, as kernel/locking/lockdep.c does it, cut down to what the model
 * needs.  Every lock has a class, its name ("zone->lock", "pcp->lock":
 * every CPU's pcp->lock is one class).  The first time a task takes class
 * B while holding class A, the edge A -> B is recorded with the task's
 * recent trace; an edge that would close a cycle is a violation
 * "lock-order@A->B" whether or not a deadlock happened in this run.  A
 * class taken in interrupt context and elsewhere with IRQs enabled is
 * "lock-irq@CLASS".  As in the kernel: an edge comes from the nearest held
 * lock that was not taken by a trylock (and the trylocks above it); a
 * trylock adds no edge into its class and does not mark IRQ use.
 *
 * Edges persist across the runs of one process, as the kernel's do across
 * a boot (lockdep_reset() forgets them), as long as the bug switches stay
 * the same: a run with other switches is another kernel, and starts from
 * nothing (a switch's wrong order must not be blamed on the clean model
 * run after it).  A cycle closed by an edge of an earlier run is reported
 * in the run that closes it; replaying that run alone finds only its half.
 * MMFUZZ_PROVE_LOCKING=0 in the environment turns lockdep off, as the
 * kernel's prove_locking=0 does.
 *
 * Lock order: lockdep_lock (a pthread mutex, real mode) guards insertions;
 * the graph is read with relaxed atomics.  Bookkeeping is __sched_notsan.
 */
#ifndef MMFUZZ_KERNEL_LOCKDEP_H
#define MMFUZZ_KERNEL_LOCKDEP_H

#include <stdbool.h>

#include "../sched/sched.h"
#include "preempt.h"

#define LOCKDEP_MAX_CLASSES	64

/* a class's usage bits (lockdep_usage[]) */
#define LOCKDEP_USED_IN_IRQ	0x01	/* taken in interrupt context */
#define LOCKDEP_ENABLED_IRQ	0x02	/* taken with IRQs enabled */

extern bool lockdep_enabled;
extern unsigned char lockdep_usage[LOCKDEP_MAX_CLASSES];

/* A task is about to take @l by a blocking acquisition (before it waits). */
void __lockdep_acquire(struct task *t, struct sched_lock *l, const char *fn);
/* A trylock of @l just succeeded. */
void __lockdep_trylock(struct task *t, struct sched_lock *l, const char *fn);

static inline unsigned lockdep_usage_of(const struct task *t)
{
	return t->irq_active ? LOCKDEP_USED_IN_IRQ :
	       t->irq_depth == 0 ? LOCKDEP_ENABLED_IRQ : 0;
}

/* Nothing new to record: the class is known, its use in this context too,
 * and (blocking) no lock is held. */
static inline bool lockdep_nothing_new(const struct task *t, const struct sched_lock *l,
				       unsigned usage)
{
	unsigned c = l->lockdep_class;

	return c && (__atomic_load_n(&lockdep_usage[c], __ATOMIC_RELAXED) & usage) == usage;
}

static inline void lockdep_acquire(struct task *t, struct sched_lock *l, const char *fn)
{
	if (!lockdep_enabled || (!t->nheld && lockdep_nothing_new(t, l, lockdep_usage_of(t))))
		return;
	__lockdep_acquire(t, l, fn);
}

static inline void lockdep_trylock(struct task *t, struct sched_lock *l, const char *fn)
{
	/* a trylock in IRQ context cannot deadlock: only "enabled" counts */
	if (!lockdep_enabled ||
	    lockdep_nothing_new(t, l, lockdep_usage_of(t) & LOCKDEP_ENABLED_IRQ))
		return;
	__lockdep_trylock(t, l, fn);
}

/* Forget every class use and edge (a fresh boot). */
void lockdep_reset(void);

/* The recorded edges, for tests and reports: 0..n-1. */
int lockdep_nr_edges(void);
void lockdep_edge(int i, const char **from, const char **to);
bool lockdep_has_edge(const char *from, const char *to);

/*
 * include/linux/lockdep.h's context assertions (6.6 checks them with
 * CONFIG_PROVE_LOCKING, against lockdep's own hardirqs_enabled of the CPU;
 * the model always, against the running task's context: IRQs off by
 * local_irq_save and friends, or an interrupt such as an IPI's function,
 * irqs_disabled() in preempt.h): a "lockdep" violation naming the function
 * that asserted.  The lock assertions (lockdep_assert_held and its rwsem
 * forms) are beside their locks, in spinlock.h and rwsem.h.
 */
#define lockdep_assert_irqs_disabled() do {					\
	if (unlikely(!irqs_disabled()))						\
		sched_violation("lockdep", __func__,				\
				"IRQs enabled (lockdep_assert_irqs_disabled)");	\
} while (0)

#define lockdep_assert_irqs_enabled() do {					\
	if (unlikely(irqs_disabled()))						\
		sched_violation("lockdep", __func__,				\
				"IRQs disabled (lockdep_assert_irqs_enabled)");	\
} while (0)

#define lockdep_assert_preemption_disabled() do {				\
	if (unlikely(preemptible_task(current)))				\
		sched_violation("lockdep", __func__,				\
				"preemptible (lockdep_assert_preemption_disabled)"); \
} while (0)

#endif /* MMFUZZ_KERNEL_LOCKDEP_H */

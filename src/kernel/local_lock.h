/* SPDX-License-Identifier: MIT */
/*
 * local_lock_t (include/linux/local_lock_internal.h), as in a non-RT
 * kernel: local_lock() is preempt_disable() and local_lock_irqsave() is
 * local_irq_save(), each with a lockdep acquisition of this CPU's lock (6.6
 * SLUB's s->cpu_slab->lock).  A per-CPU lock: an array with one per CPU,
 * every CPU's in one lockdep class.
 *
 * Owning the CPU is what excludes the other tasks there (fiber mode: the
 * scheduler runs nobody else on it; real mode: the CPU's exclusion lock
 * when pthreads share it).  The owner is kept to say who holds it: taken
 * again on the same CPU while held (an interrupt that took the non-irqsave
 * local_lock) is a violation, as the lists it protects would be corrupted.
 * The yield comes before preemption or IRQs go off, as for
 * spin_lock_irqsave().
 */
#ifndef MMFUZZ_KERNEL_LOCAL_LOCK_H
#define MMFUZZ_KERNEL_LOCAL_LOCK_H

#include "percpu.h"
#include "spinlock.h"

typedef struct {
	struct sched_lock sl;
} local_lock_t;

/* Initialise the per-CPU array @l of @ncpus locks. */
static inline void local_lock_init_named(local_lock_t *l, int ncpus, const char *name)
{
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		l[cpu].sl.owner = NULL;
		l[cpu].sl.name = name;
		l[cpu].sl.idx = cpu;
		l[cpu].sl.sleeping = false;
		l[cpu].sl.lockdep_class = 0;
		l[cpu].sl.tsan = SL_TSAN_NONE;
	}
}

static inline void __local_lock_acquire(local_lock_t *l, struct task *t, const char *fn)
{
	struct task *o;

	lockdep_acquire(t, &l->sl, fn);
	o = __atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED);
	if (unlikely(o))
		sched_violation("local_lock", fn, "%s[%d] taken by %s%s while %s holds it",
				l->sl.name, l->sl.idx, t->irq_active ? "an interrupt in " : "",
				t->name, o->name);
	__atomic_store_n(&l->sl.owner, t, __ATOMIC_RELAXED);
	__lock_held_push(t, &l->sl, fn, false);
}

static inline void __local_lock_release(local_lock_t *l, struct task *t, const char *fn)
{
	if (unlikely(__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED) != t))
		__lock_misuse(&l->sl, fn, "local_unlock by a task that does not hold it");
	__lock_held_pop(t, &l->sl, fn);
	__atomic_store_n(&l->sl.owner, NULL, __ATOMIC_RELAXED);
}

/* @lock: the per-CPU array; this CPU's is locked. */
#define local_lock(lock) do {							\
	struct task *__t = current;						\
	yield_point(YIELD_SITE(YP_LOCAL_LOCK, #lock));				\
	__preempt_disable(__t);							\
	__local_lock_acquire(this_cpu_ptr(lock), __t, __func__);		\
} while (0)

#define local_unlock(lock) do {							\
	struct task *__t = current;						\
	__local_lock_release(this_cpu_ptr(lock), __t, __func__);		\
	__preempt_enable_noyield(__t, __func__);				\
	yield_point(YIELD_SITE(YP_LOCAL_UNLOCK, #lock));			\
} while (0)

#define local_lock_irqsave(lock, flags) do {					\
	struct task *__t = current;						\
	yield_point(YIELD_SITE(YP_LOCAL_LOCK, #lock));				\
	(flags) = __local_irq_save(__t);					\
	__local_lock_acquire(this_cpu_ptr(lock), __t, __func__);		\
} while (0)

#define local_unlock_irqrestore(lock, flags) do {				\
	struct task *__t = current;						\
	__local_lock_release(this_cpu_ptr(lock), __t, __func__);		\
	__local_irq_restore(__t, (flags), __func__);				\
	yield_point(YIELD_SITE(YP_LOCAL_UNLOCK, #lock));			\
} while (0)

#endif /* MMFUZZ_KERNEL_LOCAL_LOCK_H */

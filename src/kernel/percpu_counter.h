/* SPDX-License-Identifier: MIT */
/*
 * struct percpu_counter (lib/percpu_counter.c, Linux 6.6): a count kept as
 * a shared s64 under fbc->lock plus one s32 per CPU.
 * percpu_counter_add_batch() adds to this CPU's s32 with IRQs off and folds
 * it into fbc->count under fbc->lock when it reaches the batch;
 * percpu_counter_sum() adds every online and dying CPU's s32 under the
 * lock (a CPU going down keeps its count until the dead callback folds
 * it: 6.6's cpu_dying_mask fix); the CPUHP_PERCPU_CNT_DEAD callback folds
 * a dead CPU's s32 into fbc->count.  percpu_counter_read() is the racy
 * fbc->count alone.
 *
 * Invariant I-PCPCNT (src/check/): at quiescence, and across hotplug, the
 * sum equals the sum of every delta added.
 *
 * Lock order: percpu_counters_lock -> fbc->lock
 * (the dead callback walks every counter; each counter's fbc->lock is a
 * class of its own, named at init).  fbc->lock protects fbc->count; each
 * CPU's s32 is that
 * CPU's, changed with IRQs off there (or by the dead callback, the CPU
 * being gone).  The list of counters is changed at init and destroy.
 */
#ifndef MMFUZZ_KERNEL_PERCPU_COUNTER_H
#define MMFUZZ_KERNEL_PERCPU_COUNTER_H

#include <stdint.h>

#include "list.h"
#include "spinlock.h"

typedef int64_t s64;
typedef int32_t s32;

struct percpu_counter_cpu {
	s32 count;
} ____percpu_aligned;

struct percpu_counter {
	spinlock_t lock;		/* raw_spinlock_t in the kernel */
	s64 count;
	struct list_head list;		/* all counters, for the dead callback */
	struct percpu_counter_cpu *counters;	/* [MAX_CPUS]: alloc_percpu() */
	const void *instance;		/* the kernel (world) it belongs to */
};

/*
 * The kernel instance counters initialised from now on belong to: the
 * model keeps several worlds in one process, each a kernel of its own, and
 * a CPU's dead callback folds only the counters of the one running (those
 * of the others would make how many locks it takes depend on the process's
 * history, and a run would not replay alone).
 */
extern const void *percpu_counter_instance;

/* Written by the hotplug callbacks, read by every add with no lock, as the
 * kernel's plain global: relaxed, and no yield point (a torn or stale batch
 * changes only when a CPU folds, never what the sum is). */
extern int percpu_counter_batch;

/* @name: fbc->lock's lockdep class ("kt->counter.lock").  Outside a task
 * (boot) or inside one.  0, or -ENOMEM. */
int percpu_counter_init_named(struct percpu_counter *fbc, s64 amount, const char *name);
void percpu_counter_destroy(struct percpu_counter *fbc);
void percpu_counter_set(struct percpu_counter *fbc, s64 amount);
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch);
s64 __percpu_counter_sum(struct percpu_counter *fbc);
/* fold this CPU's s32 into fbc->count (IRQs off or on) */
void percpu_counter_sync(struct percpu_counter *fbc);
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch);

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, __READ_ONCE(percpu_counter_batch));
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return READ_ONCE(fbc->count);
}

static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);

	return ret >= 0 ? ret : 0;
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	return __percpu_counter_compare(fbc, rhs, __READ_ONCE(percpu_counter_batch));
}

/* The exact sum with the counter quiescent, every CPU's s32 included
 * (online or not): what I-PCPCNT compares.  No lock, no yield. */
s64 percpu_counter_sum_all(const struct percpu_counter *fbc);

#endif /* MMFUZZ_KERNEL_PERCPU_COUNTER_H */

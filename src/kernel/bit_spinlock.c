// SPDX-License-Identifier: MIT
/* bit_spin_lock(): see bit_spinlock.h. */
#include "bit_spinlock.h"

#include <string.h>

#define BITLOCKS_HELD	4	/* bit locks one task may hold at once */

/* What a task holds: the record lockdep and the deadlock report see. */
struct bitlock_rec {
	struct sched_lock sl;		/* name: the class, owner: the task */
	unsigned long *addr;
	int bit;
};

static struct bitlock_rec fiber_recs[MAX_TASKS][BITLOCKS_HELD];	/* fiber mode, by id */
static bool fiber_recs_used;		/* since the last run hook cleared them */
static __thread struct bitlock_rec real_recs[BITLOCKS_HELD];		/* real mode */

static struct bitlock_rec *recs_of(const struct task *t)
{
	if (!t->fs)
		return real_recs;
	if (!__atomic_load_n(&fiber_recs_used, __ATOMIC_RELAXED))
		__atomic_store_n(&fiber_recs_used, true, __ATOMIC_RELAXED);
	return fiber_recs[t->id];
}

static struct bitlock_rec *rec_new(struct task *t, unsigned long *addr, int bit,
				   const char *name, const char *fn)
{
	struct bitlock_rec *r = recs_of(t);
	int i;

	for (i = 0; i < BITLOCKS_HELD; i++)
		if (!r[i].addr) {
			r[i].addr = addr;
			r[i].bit = bit;
			if (r[i].sl.name != name) {
				r[i].sl.name = name;
				r[i].sl.lockdep_class = 0;
			}
			r[i].sl.idx = bit;
			return &r[i];
		}
	sched_violation("lock-misuse", fn, "%s: more than %d bit spinlocks held", name,
			BITLOCKS_HELD);
}

static struct bitlock_rec *rec_find(struct task *t, unsigned long *addr, int bit)
{
	struct bitlock_rec *r = recs_of(t);
	int i;

	for (i = 0; i < BITLOCKS_HELD; i++)
		if (r[i].addr == addr && r[i].bit == bit)
			return &r[i];
	return NULL;
}

struct bitlock_wait {
	unsigned long *addr;
	int bit;
	struct fsched *fs;
};

static __sched_notsan bool bit_clear_cond(void *arg)
{
	const struct bitlock_wait *w = arg;

	return !(sched_peek(*w->addr) & (1UL << w->bit));
}

static __sched_notsan struct task *bit_holder(void *arg)
{
	const struct bitlock_wait *w = arg;
	int i, j;

	for (i = 0; i < w->fs->ntasks; i++)
		for (j = 0; j < BITLOCKS_HELD; j++)
			if (fiber_recs[i][j].addr == w->addr && fiber_recs[i][j].bit == w->bit)
				return &w->fs->task[i];
	return NULL;
}

static bool test_and_set_bit_lock(int bit, unsigned long *addr)
{
	return __atomic_fetch_or(addr, 1UL << bit, __ATOMIC_ACQUIRE) & (1UL << bit);
}

static void take(struct task *t, int bit, unsigned long *addr, const char *name,
		 const char *fn, bool try)
{
	struct bitlock_rec *r = rec_new(t, addr, bit, name, fn);

	__atomic_store_n(&r->sl.owner, t, __ATOMIC_RELAXED);
	if (try)
		lockdep_trylock(t, &r->sl, fn);
	__lock_held_push(t, &r->sl, fn, try);
}

void __bit_spin_lock(int bit, unsigned long *addr, const char *name, const struct yield_site *s,
		     const char *fn)
{
	struct task *t = __cur_task(fn);
	struct bitlock_wait w = { addr, bit, t->fs };
	struct sched_wait sw = { bit_clear_cond, &w, name, bit_holder, false };
	struct bitlock_rec probe;

	__preempt_disable(t);
	if (t->fs)
		yield_point(s);
	/* lockdep before spinning, as for spin_lock() */
	probe.sl.name = name;
	probe.sl.lockdep_class = 0;
	probe.sl.owner = NULL;
	probe.sl.idx = bit;
	lockdep_acquire(t, &probe.sl, fn);
	if (unlikely(rec_find(t, addr, bit)))
		sched_violation("deadlock", name, "%s: recursive bit_spin_lock in %s", name, fn);
	while (test_and_set_bit_lock(bit, addr)) {
		if (t->fs)
			fsched_wait(t, &sw, s);
		else
			while (bit_spin_is_locked(bit, addr))
				__builtin_ia32_pause();
	}
	take(t, bit, addr, name, fn, false);
}

int __bit_spin_trylock(int bit, unsigned long *addr, const char *name, const char *fn)
{
	struct task *t = __cur_task(fn);

	__preempt_disable(t);
	if (test_and_set_bit_lock(bit, addr)) {
		__preempt_enable_noyield(t, fn);
		return 0;
	}
	take(t, bit, addr, name, fn, true);
	return 1;
}

void __bit_spin_unlock(int bit, unsigned long *addr, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);
	struct bitlock_rec *r = rec_find(t, addr, bit);

	if (unlikely(!r || !bit_spin_is_locked(bit, addr)))
		sched_violation("lock-misuse", fn, "bit_spin_unlock of bit %d not held", bit);
	__lock_held_pop(t, &r->sl, fn);
	__atomic_store_n(&r->sl.owner, NULL, __ATOMIC_RELAXED);
	r->addr = NULL;
	__atomic_fetch_and(addr, ~(1UL << bit), __ATOMIC_RELEASE);	/* clear_bit_unlock */
	fsched_wake(t);
	__preempt_enable_noyield(t, fn);
	yield_point(s);
}

/* A run that ended in a violation may have left records behind. */
static void bitlock_run_hook(struct fsched *fs)
{
	(void)fs;
	if (fiber_recs_used)
		memset(fiber_recs, 0, sizeof(fiber_recs));
	fiber_recs_used = false;
}

__attribute__((constructor)) static void bitlock_init(void)
{
	fsched_register_run_hook(bitlock_run_hook);
}

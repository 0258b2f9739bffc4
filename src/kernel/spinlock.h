/* SPDX-License-Identifier: MIT */
/*
 * spinlock_t and struct mutex of the model.
 *
 * Fiber mode: taking a lock is a yield point; a held lock blocks the task
 * (the scheduler runs someone else and reports a deadlock when nobody can
 * run).  Locks tell TSan about themselves with the __tsan_mutex_*
 * annotations, which give the happens-before a real lock gives (fiber
 * switches give none) and lock-order-inversion reports.
 * Real mode: a test-and-test-and-set spinlock; a mutex spins with
 * sched_yield().
 *
 * spin_lock() disables preemption like the kernel's, so a task spinning or
 * holding a spinlock keeps its CPU.  Lock statistics (acquisitions,
 * contended acquisitions, hold time) are kept for the stress mode.
 */
#ifndef MMFUZZ_KERNEL_SPINLOCK_H
#define MMFUZZ_KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lockdep.h"
#include "preempt.h"

struct lock_stat {
	unsigned long acquired;		/* acquisitions */
	unsigned long contended;	/* ... that found the lock held */
	unsigned long trylock_failed;	/* failed spin_trylock()s */
	uint64_t hold_cycles;		/* TSC cycles held, summed */
	uint64_t hold_max;		/* the longest hold (a reader may reset it) */
	uint64_t t_acquired;
};

typedef struct spinlock {
	struct sched_lock sl;
	/*
	 * Under-lock checker, run right after every acquisition: whatever the
	 * lock protects must be consistent when someone gets it.  Checking at
	 * acquisition (not release) makes an update done outside the lock show
	 * only when another task really comes in between, as it would on a
	 * machine.
	 */
	void (*validate)(void *arg, const char *fn);
	void *validate_arg;
	/*
	 * Under-lock checker run at every release, still holding the lock: a
	 * counter the lock protects that must be exact whenever the lock is
	 * free, as when the next taker would get it right away (n->list_lock's
	 * nr_slabs of a debug cache: src/check/slab_run.c).  Shares
	 * validate_arg.
	 */
	void (*validate_release)(void *arg, const char *fn);
	struct lock_stat st;
} spinlock_t;

struct mutex {
	struct sched_lock sl;
};

extern bool lock_validate_enabled;	/* run under-lock checkers at unlock */
extern bool lock_stat_enabled;		/* keep struct lock_stat */

void spin_lock_init_named(spinlock_t *l, const char *name, int idx);
void mutex_init_named(struct mutex *m, const char *name);
void __real_spin_lock(spinlock_t *l, struct task *t, const char *fn);
void __real_mutex_lock(struct mutex *m, struct task *t, const char *fn);
__attribute__((noreturn)) void __lock_misuse(const struct sched_lock *l, const char *fn,
					      const char *what);

static inline void __lock_held_push(struct task *t, struct sched_lock *l, const char *fn,
				    bool try)
{
	int i = t->nheld;

	if (unlikely(i >= MAX_HELD))
		__lock_misuse(l, fn, "too many locks held");
	t->held[i] = l;
	t->held_fn[i] = fn;
	t->held_site[i] = t->site;
	t->held_try[i] = try;
	t->nheld = i + 1;
}

static inline void __lock_held_pop(struct task *t, struct sched_lock *l, const char *fn)
{
	int i;

	for (i = t->nheld - 1; i >= 0; i--) {
		if (t->held[i] == l) {
			for (; i + 1 < t->nheld; i++) {
				t->held[i] = t->held[i + 1];
				t->held_fn[i] = t->held_fn[i + 1];
				t->held_site[i] = t->held_site[i + 1];
				t->held_try[i] = t->held_try[i + 1];
			}
			t->nheld--;
			return;
		}
	}
	__lock_misuse(l, fn, "released but not held");
}

static inline uint64_t __lock_tsc(void)
{
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#else
	return 0;
#endif
}

static inline void __lock_set_owner(struct sched_lock *sl, struct task *t)
{
#if MMFUZZ_TSAN
	__tsan_mutex_pre_lock(sl, 0);
#endif
	__atomic_store_n(&sl->owner, t, __ATOMIC_RELAXED);
#if MMFUZZ_TSAN
	__tsan_mutex_post_lock(sl, 0, 0);
#endif
}

static inline void __lock_clear_owner(struct sched_lock *sl)
{
#if MMFUZZ_TSAN
	__tsan_mutex_pre_unlock(sl, 0);
#endif
	__atomic_store_n(&sl->owner, NULL, __ATOMIC_RELEASE);
#if MMFUZZ_TSAN
	__tsan_mutex_post_unlock(sl, 0);
#endif
}

/* Acquire with preemption already disabled; yield first unless told not to. */
static inline void __spin_acquire(spinlock_t *l, struct task *t, const struct yield_site *s,
				  const char *fn, bool yield)
{
	if (t->fs) {
		bool waited = false;

		if (yield)
			yield_point(s);
		lockdep_acquire(t, &l->sl, fn);
		while (__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED)) {
			waited = true;
			fsched_block_on(t, &l->sl, s);
		}
		__lock_set_owner(&l->sl, t);
		if (lock_stat_enabled) {
			l->st.contended += waited;
			l->st.acquired++;
			l->st.t_acquired = __lock_tsc();
		}
	} else {
		lockdep_acquire(t, &l->sl, fn);
		__real_spin_lock(l, t, fn);
	}
	__lock_held_push(t, &l->sl, fn, false);
	if (l->validate && lock_validate_enabled)
		l->validate(l->validate_arg, fn);
}

static inline void __spin_release(spinlock_t *l, struct task *t, const char *fn)
{
	if (unlikely(__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED) != t))
		__lock_misuse(&l->sl, fn, "unlocked by a task that does not hold it");
	if (l->validate_release && lock_validate_enabled)
		l->validate_release(l->validate_arg, fn);
	__lock_held_pop(t, &l->sl, fn);
	if (lock_stat_enabled) {
		uint64_t held = __lock_tsc() - l->st.t_acquired;

		l->st.hold_cycles += held;
		if (held > l->st.hold_max)
			l->st.hold_max = held;
	}
	__lock_clear_owner(&l->sl);
	fsched_lock_released(t);
}

static inline void __spin_lock(spinlock_t *l, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	__preempt_disable(t);
	__spin_acquire(l, t, s, fn, true);
}

static inline int __spin_trylock(spinlock_t *l, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);
	struct task *none = NULL;

	__preempt_disable(t);
	if (t->fs) {
		yield_point(s);
		if (__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED))
			goto fail;
		__lock_set_owner(&l->sl, t);
		if (lock_stat_enabled)
			l->st.t_acquired = __lock_tsc();
	} else {
#if MMFUZZ_TSAN
		__tsan_mutex_pre_lock(&l->sl, __tsan_mutex_try_lock);
#endif
		if (!__atomic_compare_exchange_n(&l->sl.owner, &none, t, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
#if MMFUZZ_TSAN
			__tsan_mutex_post_lock(&l->sl, __tsan_mutex_try_lock |
					       __tsan_mutex_try_lock_failed, 0);
#endif
			goto fail;
		}
#if MMFUZZ_TSAN
		__tsan_mutex_post_lock(&l->sl, __tsan_mutex_try_lock, 0);
#endif
		if (lock_stat_enabled)
			l->st.t_acquired = __lock_tsc();
	}
	if (lock_stat_enabled)
		l->st.acquired++;
	lockdep_trylock(t, &l->sl, fn);
	__lock_held_push(t, &l->sl, fn, true);
	if (l->validate && lock_validate_enabled)
		l->validate(l->validate_arg, fn);
	return 1;
fail:
	if (lock_stat_enabled)
		__atomic_fetch_add(&l->st.trylock_failed, 1, __ATOMIC_RELAXED);
	__preempt_enable_noyield(t, fn);
	return 0;
}

#define spin_lock(l)	__spin_lock((l), YIELD_SITE(YP_SPIN_LOCK, #l), __func__)
#define spin_trylock(l)	__spin_trylock((l), YIELD_SITE(YP_SPIN_TRYLOCK, #l), __func__)
#define spin_unlock(l) do {							\
	struct task *__t = current;						\
	__spin_release((l), __t, __func__);					\
	__preempt_enable_noyield(__t, __func__);				\
	yield_point(YIELD_SITE(YP_SPIN_UNLOCK, #l));				\
} while (0)

/*
 * The yield comes before IRQs go off: an interrupt may still arrive there,
 * as on a real CPU.  Spinning on a held lock happens with IRQs off.
 */
#define spin_lock_irqsave(l, flags) do {					\
	struct task *__t = current;						\
	const struct yield_site *__s = YIELD_SITE(YP_SPIN_LOCK, #l);		\
	yield_point(__s);							\
	(flags) = __local_irq_save(__t);					\
	__preempt_disable(__t);							\
	__spin_acquire((l), __t, __s, __func__, false);				\
} while (0)

#define spin_unlock_irqrestore(l, flags) do {					\
	struct task *__t = current;						\
	__spin_release((l), __t, __func__);					\
	__preempt_enable_noyield(__t, __func__);				\
	__local_irq_restore(__t, (flags), __func__);				\
	yield_point(YIELD_SITE(YP_SPIN_UNLOCK, #l));				\
} while (0)

#define spin_is_locked(l)	(__atomic_load_n(&(l)->sl.owner, __ATOMIC_RELAXED) != NULL)

/* lockdep_assert_held(): the running task holds the lock. */
#define lockdep_assert_held(l) do {						\
	if (unlikely(__atomic_load_n(&(l)->sl.owner, __ATOMIC_RELAXED) != current)) \
		sched_violation("lockdep", __func__, "%s not held (lockdep_assert_held)", \
				(l)->sl.name);					\
} while (0)

/* ---- sleeping locks ---- */

static inline void __mutex_lock(struct mutex *m, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	if (unlikely(!preemptible_task(t)))
		sched_violation("might_sleep", fn, "mutex_lock(%s) in atomic context", m->sl.name);
	if (t->fs) {
		yield_point(s);
		lockdep_acquire(t, &m->sl, fn);
		while (__atomic_load_n(&m->sl.owner, __ATOMIC_RELAXED))
			fsched_block_on(t, &m->sl, s);
		__lock_set_owner(&m->sl, t);
	} else {
		lockdep_acquire(t, &m->sl, fn);
		__real_mutex_lock(m, t, fn);
	}
	__lock_held_push(t, &m->sl, fn, false);
}

static inline int __mutex_trylock(struct mutex *m, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn), *none = NULL;

	if (t->fs) {
		yield_point(s);
		if (__atomic_load_n(&m->sl.owner, __ATOMIC_RELAXED))
			return 0;
		__lock_set_owner(&m->sl, t);
	} else {
#if MMFUZZ_TSAN
		__tsan_mutex_pre_lock(&m->sl, __tsan_mutex_try_lock);
#endif
		if (!__atomic_compare_exchange_n(&m->sl.owner, &none, t, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
#if MMFUZZ_TSAN
			__tsan_mutex_post_lock(&m->sl, __tsan_mutex_try_lock |
					       __tsan_mutex_try_lock_failed, 0);
#endif
			return 0;
		}
#if MMFUZZ_TSAN
		__tsan_mutex_post_lock(&m->sl, __tsan_mutex_try_lock, 0);
#endif
	}
	lockdep_trylock(t, &m->sl, fn);
	__lock_held_push(t, &m->sl, fn, true);
	return 1;
}

static inline void __mutex_unlock(struct mutex *m, const char *fn)
{
	struct task *t = __cur_task(fn);

	if (unlikely(__atomic_load_n(&m->sl.owner, __ATOMIC_RELAXED) != t))
		__lock_misuse(&m->sl, fn, "unlocked by a task that does not hold it");
	__lock_held_pop(t, &m->sl, fn);
	__lock_clear_owner(&m->sl);
	fsched_lock_released(t);
}

#define mutex_lock(m)	 __mutex_lock((m), YIELD_SITE(YP_MUTEX_LOCK, #m), __func__)
#define mutex_trylock(m) __mutex_trylock((m), YIELD_SITE(YP_MUTEX_LOCK, #m), __func__)
#define mutex_unlock(m) do {							\
	__mutex_unlock((m), __func__);						\
	yield_point(YIELD_SITE(YP_MUTEX_UNLOCK, #m));				\
} while (0)
/* The same with the yield site named by @site (a string literal, the text
 * the expression once had): a lock that moved keeps the site names the
 * corpus's schedules give it (atomic.h's atomic_long_add_site) */
#define mutex_lock_site(m, site)	__mutex_lock((m), YIELD_SITE(YP_MUTEX_LOCK, site), __func__)
#define mutex_trylock_site(m, site)						\
	__mutex_trylock((m), YIELD_SITE(YP_MUTEX_LOCK, site), __func__)
#define mutex_unlock_site(m, site) do {						\
	__mutex_unlock((m), __func__);						\
	yield_point(YIELD_SITE(YP_MUTEX_UNLOCK, site));				\
} while (0)

#endif /* MMFUZZ_KERNEL_SPINLOCK_H */

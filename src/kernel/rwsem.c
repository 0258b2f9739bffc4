// SPDX-License-Identifier: MIT
/*
 * struct rw_semaphore: see rwsem.h.  The fiber-mode state is bookkeeping
 * of the lock itself, changed by whichever fiber runs: __sched_notsan,
 * with the __tsan_mutex_* annotations giving the protected data its
 * happens-before.
 */
#include "rwsem.h"

#include <sched.h>
#include <string.h>

#if MMFUZZ_TSAN
#define tsan_pre_lock(s, r)	__tsan_mutex_pre_lock((s), (r) ? __tsan_mutex_read_lock : 0)
#define tsan_post_lock(s, r)	__tsan_mutex_post_lock((s), (r) ? __tsan_mutex_read_lock : 0, 0)
#define tsan_pre_unlock(s, r)	__tsan_mutex_pre_unlock((s), (r) ? __tsan_mutex_read_lock : 0)
#define tsan_post_unlock(s, r)	__tsan_mutex_post_unlock((s), (r) ? __tsan_mutex_read_lock : 0)
#else
#define tsan_pre_lock(s, r)	do { } while (0)
#define tsan_post_lock(s, r)	do { } while (0)
#define tsan_pre_unlock(s, r)	do { } while (0)
#define tsan_post_unlock(s, r)	do { } while (0)
#endif

void init_rwsem_named(struct rw_semaphore *sem, const char *name)
{
	memset(sem, 0, sizeof(*sem));
	while (*name == '&')
		name++;
	sem->sl.name = name;
	sem->sl.idx = -1;
	sem->sl.sleeping = true;
	sem->sl.tsan = SL_TSAN_RWSEM;
#if MMFUZZ_TSAN
	__tsan_mutex_create(sem, __tsan_mutex_not_static);
#endif
}

static void might_sleep_rwsem(struct task *t, struct rw_semaphore *sem, const char *fn)
{
	if (unlikely(!preemptible_task(t)))
		sched_violation("might_sleep", fn, "down(%s) in atomic context", sem->sl.name);
}

/* ---- fiber mode ---- */

static __sched_notsan void grant(struct rw_semaphore *sem, struct rwsem_waiter *w)
{
	w->granted = true;
	if (w->write) {
		__atomic_store_n(&sem->sl.owner, w->task, __ATOMIC_RELAXED);
	} else {
		sem->readers++;
		sem->reader_cnt[w->task->id]++;
	}
}

static __sched_notsan void dequeue_granted(struct rw_semaphore *sem)
{
	int i, n = 0;

	for (i = 0; i < sem->nwait; i++)
		if (!sem->wait[i].granted)
			sem->wait[n++] = sem->wait[i];
	sem->nwait = n;
}

/*
 * rwsem_mark_wake(): the lock is free (@read_owned: downgraded, readers
 * only).  A writer at the head gets it unless readers own it; else every
 * waiting reader does.
 */
static __sched_notsan void mark_wake(struct rw_semaphore *sem, bool read_owned)
{
	int i;

	if (!sem->nwait)
		return;
	if (sem->wait[0].write) {
		if (!read_owned && !sem->readers)
			grant(sem, &sem->wait[0]);
	} else {
		for (i = 0; i < sem->nwait; i++)
			if (!sem->wait[i].write)
				grant(sem, &sem->wait[i]);
	}
	dequeue_granted(sem);
}

struct rwsem_wait_arg {
	struct rw_semaphore *sem;
	struct rwsem_waiter *w;		/* in sem->wait[]: moves as it dequeues */
	struct task *t;
};

static __sched_notsan bool granted_cond(void *arg)
{
	const struct rwsem_wait_arg *a = arg;
	int i;

	for (i = 0; i < a->sem->nwait; i++)
		if (a->sem->wait[i].task == a->t)
			return false;
	return true;
}

static __sched_notsan struct task *rwsem_holder(void *arg)
{
	const struct rwsem_wait_arg *a = arg;
	struct fsched *fs = a->t->fs;
	struct task *o = __atomic_load_n(&a->sem->sl.owner, __ATOMIC_RELAXED);
	int i;

	if (o)
		return o;
	for (i = 0; i < fs->ntasks; i++)
		if (a->sem->reader_cnt[i])
			return &fs->task[i];
	/* free but not ours: the waiter ahead of us */
	return a->sem->nwait && a->sem->wait[0].task != a->t ? a->sem->wait[0].task : NULL;
}

/* Take it now if the rules allow, else queue; true if taken now. */
static __sched_notsan bool fiber_try(struct rw_semaphore *sem, struct task *t, bool write,
				     bool queue)
{
	bool free = !__atomic_load_n(&sem->sl.owner, __ATOMIC_RELAXED) && !sem->nwait &&
		    (!write || !sem->readers);

	if (free) {
		struct rwsem_waiter w = { t, write, false };

		grant(sem, &w);
		return true;
	}
	if (queue) {
		sem->wait[sem->nwait].task = t;
		sem->wait[sem->nwait].write = write;
		sem->wait[sem->nwait].granted = false;
		sem->nwait++;
	}
	return false;
}

static void fiber_down(struct rw_semaphore *sem, struct task *t, bool write,
		       const struct yield_site *s)
{
	struct rwsem_wait_arg a = { sem, NULL, t };
	struct sched_wait w = { granted_cond, &a, sem->sl.name, rwsem_holder, false };

	if (!fiber_try(sem, t, write, true))
		while (!granted_cond(&a))
			fsched_wait(t, &w, s);
}

static __sched_notsan void fiber_up_read(struct rw_semaphore *sem, struct task *t)
{
	sem->readers--;
	sem->reader_cnt[t->id]--;
	if (!sem->readers)
		mark_wake(sem, false);
}

static __sched_notsan void fiber_up_write(struct rw_semaphore *sem)
{
	__atomic_store_n(&sem->sl.owner, NULL, __ATOMIC_RELAXED);
	mark_wake(sem, false);
}

static __sched_notsan void fiber_downgrade(struct rw_semaphore *sem, struct task *t)
{
	__atomic_store_n(&sem->sl.owner, NULL, __ATOMIC_RELAXED);
	sem->readers++;
	sem->reader_cnt[t->id]++;
	mark_wake(sem, true);
}

static __sched_notsan bool fiber_reader(struct rw_semaphore *sem, const struct task *t)
{
	return sem->reader_cnt[t->id] != 0;
}

/* ---- real mode ---- */

/* The kernel's down_read is one atomic add that only a writer (or a
 * waiting one) sends to the slow path: a reader that loses the exchange to
 * another reader tries again at once rather than yield. */
static bool real_try_read(struct rw_semaphore *sem)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (c >= 0 && !__atomic_load_n(&sem->waiting_writers, __ATOMIC_RELAXED))
		if (__atomic_compare_exchange_n(&sem->count, &c, c + 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

static bool real_try_write(struct rw_semaphore *sem)
{
	long c = 0;

	return __atomic_compare_exchange_n(&sem->count, &c, -1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* ---- the API ---- */

static void down_common(struct rw_semaphore *sem, bool write, const struct yield_site *s,
			const char *fn)
{
	struct task *t = __cur_task(fn);

	might_sleep_rwsem(t, sem, fn);
	if (t->fs) {
		yield_point(s);
		lockdep_acquire(t, &sem->sl, fn);
		fiber_down(sem, t, write, s);
		/* TSan ignores a thread's accesses and synchronisation between
		 * pre_lock and post_lock: a fiber that blocked in between would
		 * switch out and in with its CPU's context-switch order lost
		 * (what it did before the wait not released, what ran on the
		 * CPU meanwhile not acquired: a campaign's false data races
		 * between a task woken from cpus_read_lock and a kthread that
		 * ran on its CPU).  The lock is taken here, once. */
		tsan_pre_lock(sem, !write);
	} else {
		lockdep_acquire(t, &sem->sl, fn);
		tsan_pre_lock(sem, !write);
		if (write) {
			__atomic_fetch_add(&sem->waiting_writers, 1, __ATOMIC_RELAXED);
			while (!real_try_write(sem)) {
				real_wait_poll(t);
				sched_yield();
			}
			__atomic_fetch_sub(&sem->waiting_writers, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&sem->sl.owner, t, __ATOMIC_RELAXED);
		} else {
			while (!real_try_read(sem)) {
				real_wait_poll(t);
				sched_yield();
			}
		}
	}
	tsan_post_lock(sem, !write);
	__lock_held_push(t, &sem->sl, fn, false);
}

void __down_read(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	down_common(sem, false, s, fn);
}

void __down_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	down_common(sem, true, s, fn);
}

static int trylock_common(struct rw_semaphore *sem, bool write, const struct yield_site *s,
			  const char *fn)
{
	struct task *t = __cur_task(fn);
	bool ok;

	if (t->fs)
		yield_point(s);	/* outside TSan's pre/post bracket, as down's wait */
#if MMFUZZ_TSAN
	__tsan_mutex_pre_lock(sem, __tsan_mutex_try_lock | (write ? 0 : __tsan_mutex_read_lock));
#endif
	if (t->fs) {
		ok = fiber_try(sem, t, write, false);
	} else {
		ok = write ? real_try_write(sem) : real_try_read(sem);
		if (ok && write)
			__atomic_store_n(&sem->sl.owner, t, __ATOMIC_RELAXED);
	}
#if MMFUZZ_TSAN
	__tsan_mutex_post_lock(sem, __tsan_mutex_try_lock | (write ? 0 : __tsan_mutex_read_lock) |
			       (ok ? 0 : __tsan_mutex_try_lock_failed), 0);
#endif
	if (!ok)
		return 0;
	lockdep_trylock(t, &sem->sl, fn);
	__lock_held_push(t, &sem->sl, fn, true);
	return 1;
}

int __down_read_trylock(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	return trylock_common(sem, false, s, fn);
}

int __down_write_trylock(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	return trylock_common(sem, true, s, fn);
}

void __up_read(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	if (unlikely(!rwsem_is_locked_by(sem, t) || rwsem_is_write_locked_by(sem, t)))
		__lock_misuse(&sem->sl, fn, "up_read by a task that does not hold it for reading");
	__lock_held_pop(t, &sem->sl, fn);
	tsan_pre_unlock(sem, true);
	if (t->fs)
		fiber_up_read(sem, t);
	else
		__atomic_fetch_sub(&sem->count, 1, __ATOMIC_RELEASE);
	tsan_post_unlock(sem, true);
	fsched_wake(t);
	yield_point(s);
}

void __up_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	if (unlikely(!rwsem_is_write_locked_by(sem, t)))
		__lock_misuse(&sem->sl, fn, "up_write by a task that does not hold it");
	__lock_held_pop(t, &sem->sl, fn);
	tsan_pre_unlock(sem, false);
	if (t->fs) {
		fiber_up_write(sem);
	} else {
		__atomic_store_n(&sem->sl.owner, NULL, __ATOMIC_RELAXED);
		__atomic_store_n(&sem->count, 0, __ATOMIC_RELEASE);
	}
	tsan_post_unlock(sem, false);
	fsched_wake(t);
	yield_point(s);
}

void __downgrade_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	if (unlikely(!rwsem_is_write_locked_by(sem, t)))
		__lock_misuse(&sem->sl, fn, "downgrade_write by a task that does not hold it");
	/* to TSan: the write lock goes, a read lock comes */
	tsan_pre_unlock(sem, false);
	if (t->fs) {
		fiber_downgrade(sem, t);
	} else {
		__atomic_store_n(&sem->sl.owner, NULL, __ATOMIC_RELAXED);
		__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
	}
	tsan_post_unlock(sem, false);
	tsan_pre_lock(sem, true);
	tsan_post_lock(sem, true);
	fsched_wake(t);
	yield_point(s);
}

bool rwsem_is_write_locked_by(struct rw_semaphore *sem, const struct task *t)
{
	return __atomic_load_n(&sem->sl.owner, __ATOMIC_RELAXED) == t;
}

bool rwsem_is_locked_by(struct rw_semaphore *sem, const struct task *t)
{
	int i;

	if (rwsem_is_write_locked_by(sem, t))
		return true;
	if (t->fs)
		return fiber_reader(sem, t);
	/* real mode keeps no reader set: whether it holds it for reading is
	 * in its held list */
	for (i = 0; i < t->nheld; i++)
		if (t->held[i] == &sem->sl)
			return true;
	return false;
}

/* SPDX-License-Identifier: MIT */
/*
 * struct rw_semaphore (include/linux/rwsem.h, kernel/locking/rwsem.c), the
 * sleeping reader/writer lock of mmap_lock.
 *
 * Writer preference as the kernel's: once a task waits, new readers queue
 * behind it (RWSEM_FLAG_WAITERS fails the reader fast path), and the
 * trylocks fail.  Waiters queue in order; when the lock frees, a writer at
 * the head gets it, else every waiting reader does (rwsem_mark_wake skips
 * the writers behind them).  The model hands the lock over to the woken
 * waiters (the kernel's RWSEM_FLAG_HANDOFF taken at once), so no writer
 * steals it in between.  downgrade_write() turns the writer into a reader
 * and wakes the waiting readers unless a writer is first.
 *
 * Fiber mode: every operation is a yield point; a waiter blocks on
 * "granted", the deadlock report names the writer or a reader it waits
 * for.  Real mode: a count word (-1 writer, n readers) and a waiting-writer
 * count that stops new readers; waiters spin with sched_yield().  Both
 * tell TSan about the lock (__tsan_mutex_* with the read flag for readers).
 *
 * Lockdep: the class is the name ("mmap_lock"); a read acquisition orders
 * like a write one (non-recursive readers: a reader behind a waiting
 * writer deadlocks like one).
 */
#ifndef MMFUZZ_KERNEL_RWSEM_H
#define MMFUZZ_KERNEL_RWSEM_H

#include <stdbool.h>

#include "spinlock.h"

struct rwsem_waiter {
	struct task *task;
	bool write;
	bool granted;
};

struct rw_semaphore {
	struct sched_lock sl;		/* owner: the writer; name: the class */
	/* fiber mode (under the scheduler's single thread) */
	int readers;
	unsigned char reader_cnt[MAX_TASKS];	/* read holds of each task */
	struct rwsem_waiter wait[MAX_TASKS];
	int nwait;
	/* real mode */
	long count;			/* atomic: -1 a writer, else the readers */
	int waiting_writers;		/* atomic */
};

void init_rwsem_named(struct rw_semaphore *sem, const char *name);
#define init_rwsem(sem)		init_rwsem_named((sem), #sem)

void __down_read(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
void __down_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
int __down_read_trylock(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
int __down_write_trylock(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
void __up_read(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
void __up_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);
void __downgrade_write(struct rw_semaphore *sem, const struct yield_site *s, const char *fn);

#define down_read(sem)	__down_read((sem), YIELD_SITE(YP_DOWN_READ, #sem), __func__)
#define down_write(sem)	__down_write((sem), YIELD_SITE(YP_DOWN_WRITE, #sem), __func__)
#define down_read_trylock(sem) \
	__down_read_trylock((sem), YIELD_SITE(YP_DOWN_TRYLOCK, #sem), __func__)
#define down_write_trylock(sem) \
	__down_write_trylock((sem), YIELD_SITE(YP_DOWN_TRYLOCK, #sem), __func__)
#define up_read(sem)	__up_read((sem), YIELD_SITE(YP_UP_READ, #sem), __func__)
#define up_write(sem)	__up_write((sem), YIELD_SITE(YP_UP_WRITE, #sem), __func__)
#define downgrade_write(sem) \
	__downgrade_write((sem), YIELD_SITE(YP_DOWNGRADE_WRITE, #sem), __func__)

/* The running task holds @sem for writing / for reading or writing. */
bool rwsem_is_write_locked_by(struct rw_semaphore *sem, const struct task *t);
bool rwsem_is_locked_by(struct rw_semaphore *sem, const struct task *t);
/* lockdep_assert_held_write() / lockdep_assert_held_read() of an rwsem:
 * the running task holds it for writing / for reading */
#define lockdep_assert_held_write(sem) do {					\
	if (unlikely(!rwsem_is_write_locked_by((sem), current)))		\
		sched_violation("lockdep", __func__, "%s not held for writing "	\
				"(lockdep_assert_held_write)", (sem)->sl.name);	\
} while (0)

#define lockdep_assert_held_read(sem) do {					\
	if (unlikely(!rwsem_is_locked_by((sem), current) ||			\
		     rwsem_is_write_locked_by((sem), current)))			\
		sched_violation("lockdep", __func__, "%s not held for reading "	\
				"(lockdep_assert_held_read)", (sem)->sl.name);	\
} while (0)

#define mmap_assert_write_locked(sem) do {					\
	if (unlikely(!rwsem_is_write_locked_by((sem), current)))		\
		sched_violation("lockdep", __func__, "%s not write-locked",	\
				(sem)->sl.name);				\
} while (0)

#define mmap_assert_locked(sem) do {						\
	if (unlikely(!rwsem_is_locked_by((sem), current)))			\
		sched_violation("lockdep", __func__, "%s not locked",		\
				(sem)->sl.name);				\
} while (0)

#endif /* MMFUZZ_KERNEL_RWSEM_H */

/* SPDX-License-Identifier: MIT */
/*
 * RCU (include/linux/rcupdate.h), non-preemptible as in a !PREEMPT kernel:
 * rcu_read_lock() disables preemption, so a reader's CPU cannot pass a
 * quiescent state inside its section.
 *
 * Fiber mode: a model of tree RCU's grace periods, exact at the model's
 * granularity.  A CPU is in a quiescent state whenever nothing holds it (no
 * task there has preemption or IRQs off; the scheduler sees every such
 * moment).  A grace period that begins at step s ends only after every CPU
 * held at s has been let go at least once after s (the others held no
 * reader at s); the grace-period thread, a kernel thread ("rcu_gp",
 * started by the first call_rcu() or synchronize_rcu() of a run) begins it,
 * waits for that, ends it and then runs the callbacks whose grace period
 * is over, oldest first, in softirq-like context (preemption off).
 * synchronize_rcu() waits for the end of a grace period that began after
 * it was called; rcu_barrier() for every callback queued before it.
 * Bug switch rcu_gp_early: a grace period ends when one CPU is still to go.
 *
 * Real mode: liburcu (urcu-memb) when the stress runner installed it
 * (stress/rcu_urcu.c, rcu_set_real_ops()); a single real-mode thread
 * without it (the sequential executor) defers callbacks to the end of its
 * outermost section.  Several threads without it is an error.
 *
 * For TSan: rcu_assign_pointer/rcu_dereference are release/acquire; the
 * end of every read-side section releases rcu_gp_sync and the end of every
 * grace period acquires it (fuzz-ecosystem.md 5.2), and call_rcu()
 * releases the head its callback acquires.
 *
 * Debugging: rcu_clock() counts frees and is read at each section start,
 * so a checker can tell whether an object was freed while a reader's
 * section ran
 * (struct rcu_debug_obj, src/check/).
 */
#ifndef MMFUZZ_KERNEL_RCUPDATE_H
#define MMFUZZ_KERNEL_RCUPDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "preempt.h"

/* RCU's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_RCU_GP_EARLY = 6,                  /* a grace period ends one CPU early */
};

struct rcu_head;
typedef void (*rcu_callback_t)(struct rcu_head *head);

/* 32 bytes, so that it fits struct slab's union as 6.6's 16 bytes do:
 * next shares the backend's space, as a head is in one place at a time
 * (the fiber queue, the real-mode backend, or a lone thread's list) */
struct rcu_head {
	union {
		void *urcu_space[2];	/* the real-mode backend's (RCU_REAL_HEAD_SPACE) */
		struct rcu_head *next;	/* fiber mode's queue, a lone thread's list */
	};
	rcu_callback_t func;
	unsigned long gp_snap;		/* the grace period it waits for */
};

#include "rcu_real.h"	/* the real-mode backend (liburcu, the stress runner's) */

void __rcu_read_lock(struct task *t);
void __rcu_read_unlock(struct task *t);

#define rcu_read_lock() do {							\
	yield_point(YIELD_SITE(YP_RCU_READ_LOCK, ""));				\
	__rcu_read_lock(current);						\
} while (0)

#define rcu_read_unlock() do {							\
	__rcu_read_unlock(current);						\
	yield_point(YIELD_SITE(YP_RCU_READ_UNLOCK, ""));			\
} while (0)

static inline bool rcu_read_lock_held(void)
{
	struct task *t = current_task;

	return t && t->rcu_nesting > 0;
}

#define rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_access_pointer(p)	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELAXED)
#define rcu_dereference_protected(p, c) ((void)(c), __atomic_load_n(&(p), __ATOMIC_RELAXED))

void __synchronize_rcu(const struct yield_site *s, const char *fn);
void __call_rcu(struct rcu_head *head, rcu_callback_t func, const struct yield_site *s);
void __rcu_barrier(const struct yield_site *s, const char *fn);

/* Callbacks queued by call_rcu() whose grace period or invocation is
 * still to come (the reclaim path waits for them: page_alloc_slowpath.c). */
unsigned long rcu_cbs_pending(void);

#define synchronize_rcu()	__synchronize_rcu(YIELD_SITE(YP_SYNCHRONIZE_RCU, ""), __func__)
#define call_rcu(head, func)	__call_rcu((head), (func), YIELD_SITE(YP_CALL_RCU, #func))
#define rcu_barrier()		__rcu_barrier(YIELD_SITE(YP_CALL_RCU, "rcu_barrier"), __func__)

/*
 * Polled grace periods (kernel/rcu/tree.c, 6.6): a cookie is the gp_seq
 * at which a grace period that began after the call has ended
 * (rcu_seq_snap()); poll_state_synchronize_rcu(c) is true once gp_seq
 * reached it (or the cookie is RCU_GET_STATE_COMPLETED).
 * start_poll_synchronize_rcu() also asks for that grace period.  Fiber mode
 * uses the model's gp_seq; real mode a sequence of its own, advanced by
 * each synchronize_rcu() (odd while one runs) and, for a lone thread
 * without a backend, by the end of each outermost section.
 */
#define RCU_GET_STATE_COMPLETED	0x1UL
unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long oldstate);

/* Fiber mode, for checkers: the number of outermost read-side sections
 * begun this run, and the one task @id is in (its number, from 1), or 0. */
uint64_t rcu_sections_begun(void);
uint64_t rcu_task_section(int id);

/* ---- debugging ---- */

/* A monotonic count of object frees (rcu_clock_tick); a read-side section
 * notes its value at its start (rcu_clock), so freed_at > that value is a
 * free during the section. */
uint64_t rcu_clock(void);
uint64_t rcu_clock_tick(void);

/* Grace periods this run (fiber mode): begun, ended. */
void rcu_gp_counts(unsigned long *begun, unsigned long *ended);

#endif /* MMFUZZ_KERNEL_RCUPDATE_H */

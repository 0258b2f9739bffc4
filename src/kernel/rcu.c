// SPDX-License-Identifier: MIT
/*
 * RCU: the grace-period model of fiber mode and the real-mode dispatch
 * (rcupdate.h says what each guarantees).
 *
 * rcu_state is changed by whichever fiber runs (a caller queuing, the GP
 * thread ending a grace period): the scheduler's kind of bookkeeping, in
 * __sched_notsan helpers; what it orders for the model's data is told to
 * TSan with rcu_gp_sync and the callback heads.
 */
#include "rcupdate.h"

#include <pthread.h>
#include <stddef.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "compiler.h"

static struct {
	unsigned long gp_seq;		/* even: idle; odd: a grace period runs */
	unsigned long gp_seq_needed;	/* the end some caller waits for */
	struct rcu_head *cb_head, **cb_tail;
	unsigned long n_queued, n_invoked;
	unsigned long gp_begun, gp_ended;
	struct task *gp_kthread;
} rcu_state;

static char rcu_gp_sync;		/* TSan: reader exits -> end of a GP */
static uint64_t rcu_clock_v;
static const struct rcu_real_ops *rcu_real;
/* real mode without liburcu: one thread, callbacks wait for its section */
static struct rcu_head *real_deferred;
/* real mode: callbacks handed to the backend and not yet invoked */
static unsigned long real_pending;
/* real mode: the polled API's sequence (rcu_seq form: odd while a
 * synchronize_rcu() runs) */
static unsigned long real_gp_seq;
static pthread_mutex_t real_gp_mutex = PTHREAD_MUTEX_INITIALIZER;
/* fiber mode: outermost sections begun, the one each task is in */
static uint64_t sec_begun;
static uint64_t sec_of_task[MAX_TASKS];

#if MMFUZZ_TSAN
#define tsan_release(p)	__tsan_release(p)
#define tsan_acquire(p)	__tsan_acquire(p)
#else
#define tsan_release(p)	do { (void)(p); } while (0)
#define tsan_acquire(p)	do { (void)(p); } while (0)
#endif

BUILD_BUG_ON(sizeof(((struct rcu_head *)0)->urcu_space) < RCU_REAL_HEAD_SPACE);
BUILD_BUG_ON(offsetof(struct rcu_head, urcu_space) != 0);

void rcu_set_real_ops(const struct rcu_real_ops *ops)
{
	rcu_real = ops;
}

void rcu_register_thread(void)
{
	if (rcu_real && rcu_real->register_thread)
		rcu_real->register_thread();
}

void rcu_unregister_thread(void)
{
	if (rcu_real && rcu_real->unregister_thread)
		rcu_real->unregister_thread();
}

void rcu_real_task_exit(struct task *t)
{
	if (t->rcu_nesting && rcu_real)
		rcu_real->read_unlock();
	t->rcu_nesting = 0;
	rcu_unregister_thread();
}

/* The backend's callback: the model's after its grace period. */
static void real_invoke(void *head)
{
	struct rcu_head *h = head;

	tsan_acquire(h);
	tsan_acquire(&rcu_gp_sync);
	h->func(h);
	__atomic_fetch_sub(&real_pending, 1, __ATOMIC_RELEASE);
}

uint64_t rcu_clock(void)
{
	return __atomic_load_n(&rcu_clock_v, __ATOMIC_RELAXED);
}

uint64_t rcu_clock_tick(void)
{
	return __atomic_add_fetch(&rcu_clock_v, 1, __ATOMIC_RELAXED);
}

/* rcu_seq_snap(): the gp_seq at which a grace period that begins after
 * now has ended */
static __sched_notsan unsigned long seq_snap(void)
{
	return (rcu_state.gp_seq + 3) & ~1UL;
}

static void rcu_run_hook(struct fsched *fs)
{
	(void)fs;
	memset(&rcu_state, 0, sizeof(rcu_state));
	rcu_clock_v = 0;	/* a run's numbers are the same in its replay */
	sec_begun = 0;
	memset(sec_of_task, 0, sizeof(sec_of_task));
	rcu_state.cb_tail = &rcu_state.cb_head;
}

__attribute__((constructor)) static void rcu_init(void)
{
	rcu_state.cb_tail = &rcu_state.cb_head;
	fsched_register_run_hook(rcu_run_hook);
}

void rcu_gp_counts(unsigned long *begun, unsigned long *ended)
{
	*begun = rcu_state.gp_begun;
	*ended = rcu_state.gp_ended;
}

/* ---- the read side ---- */

/* the scheduler's kind of bookkeeping: the fibers of one run */
static __sched_notsan void sec_enter(struct task *t)
{
	if (t->id >= 0 && t->id < MAX_TASKS)
		sec_of_task[t->id] = ++sec_begun;
}

static __sched_notsan void sec_exit(struct task *t)
{
	if (t->id >= 0 && t->id < MAX_TASKS)
		sec_of_task[t->id] = 0;
}

static void real_run_deferred(void)
{
	while (real_deferred) {
		struct rcu_head *h = real_deferred;

		real_deferred = h->next;
		h->func(h);
	}
}

void __rcu_read_lock(struct task *t)
{
	__preempt_disable(t);
	if (t->rcu_nesting++ == 0) {
		/* read, not ticked: a section start that wrote the clock was a
		 * line every CPU bounced on every rcu_read_lock() in stress
		 * mode, which the kernel's does not; a free ticks it, so a free
		 * after this read is later than the section's start */
		t->rcu_sec_step = rcu_clock();
		if (t->fs)
			sec_enter(t);
		if (!t->fs && rcu_real)
			rcu_real->read_lock();
	}
}

void __rcu_read_unlock(struct task *t)
{
	if (unlikely(t->rcu_nesting <= 0))
		sched_violation("rcu-lockdep", "rcu_read_unlock", "rcu_read_unlock() without a lock");
	if (--t->rcu_nesting == 0) {
		tsan_release(&rcu_gp_sync);
		if (t->fs)
			sec_exit(t);
		if (!t->fs && !rcu_real)	/* a lone thread's grace period */
			__atomic_fetch_add(&real_gp_seq, 2, __ATOMIC_RELEASE);
		if (!t->fs && rcu_real)
			rcu_real->read_unlock();
	}
	__preempt_enable_noyield(t, "rcu_read_unlock");
	if (!t->fs && !rcu_real && !t->rcu_nesting)
		real_run_deferred();
}

/* ---- fiber mode: the grace-period thread ---- */

static __sched_notsan bool gp_needed(void *arg)
{
	(void)arg;
	return (long)(rcu_state.gp_seq_needed - rcu_state.gp_seq) > 0;
}

/* Every CPU held when the grace period began has been let go since; with
 * rcu_gp_early, all but one. */
static __sched_notsan bool gp_qs_done(void *arg)
{
	struct fsched *fs = arg;

	if (bug_on(BUG_RCU_GP_EARLY))
		return __builtin_popcount(fs->qs_need) <= 1;
	return fs->qs_need == 0;
}

static __sched_notsan struct task *qs_holder(void *arg)
{
	struct fsched *fs = arg;
	int cpu;

	if (!fs->qs_need)
		return NULL;
	cpu = __builtin_ctz(fs->qs_need);
	return fs->cpu[cpu].irq_task ? fs->cpu[cpu].irq_task : fs->cpu[cpu].preempt_owner;
}

static __sched_notsan void gp_begin(struct fsched *fs)
{
	rcu_state.gp_seq++;
	rcu_state.gp_begun++;
	fsched_qs_begin(fs);
}

static __sched_notsan void gp_end(void)
{
	rcu_state.gp_seq++;
	rcu_state.gp_ended++;
}

/* The oldest callback whose grace period is over, dequeued, or NULL. */
static __sched_notsan struct rcu_head *cb_ready(void)
{
	struct rcu_head *h = rcu_state.cb_head;

	if (!h || (long)(rcu_state.gp_seq - h->gp_snap) < 0)
		return NULL;
	rcu_state.cb_head = h->next;
	if (!rcu_state.cb_head)
		rcu_state.cb_tail = &rcu_state.cb_head;
	return h;
}

static __sched_notsan void cb_done(void)
{
	rcu_state.n_invoked++;
}

/* rcu_do_batch(): the ready callbacks, in softirq-like context. */
static void rcu_do_batch(struct task *t)
{
	struct rcu_head *h;

	while ((h = cb_ready())) {
		yield_point(YIELD_SITE(YP_RCU_GP, "rcu_do_batch"));
		__preempt_disable(t);
		tsan_acquire(h);
		tsan_acquire(&rcu_gp_sync);
		h->func(h);
		cb_done();
		/* rcu_barrier() returns after the callback: what it did
		 * happens before the waiter goes on (kmem_cache_destroy frees
		 * the cache rcu_free_slab read) */
		tsan_release(&rcu_gp_sync);
		__preempt_enable_noyield(t, "rcu_do_batch");
	}
}

static void rcu_gp_kthread(struct task *t, void *arg)
{
	struct fsched *fs = t->fs;
	struct sched_wait idle = { gp_needed, NULL, "rcu_gp_wq", NULL, true };
	struct sched_wait qs = { gp_qs_done, fs, "rcu quiescent states", qs_holder, false };
	const struct yield_site *s_idle = YIELD_SITE(YP_RCU_GP, "rcu_gp_wait");
	const struct yield_site *s_qs = YIELD_SITE(YP_RCU_GP, "rcu_gp_fqs_loop");

	(void)arg;
	for (;;) {
		while (!gp_needed(NULL) && !kthread_should_stop(t))
			fsched_wait(t, &idle, s_idle);
		if (!gp_needed(NULL))
			return;
		kthread_op_begin(t, YIELD_SITE(YP_RCU_GP, "rcu_gp_init"));
		gp_begin(fs);
		while (!gp_qs_done(fs))
			fsched_wait(t, &qs, s_qs);
		yield_point(YIELD_SITE(YP_RCU_GP, "rcu_gp_cleanup"));
		gp_end();
		tsan_acquire(&rcu_gp_sync);
		fsched_wake(t);		/* synchronize_rcu() waiters */
		rcu_do_batch(t);
		fsched_wake(t);		/* rcu_barrier() waiters */
	}
}

/* Ask for the grace period that ends at @snap; start the thread if none. */
static __sched_notsan void gp_request(unsigned long snap)
{
	if ((long)(snap - rcu_state.gp_seq_needed) > 0)
		rcu_state.gp_seq_needed = snap;
}

static void gp_kthread_ensure(struct task *t)
{
	struct task *k;

	if (__atomic_load_n(&rcu_state.gp_kthread, __ATOMIC_RELAXED))
		return;
	k = fsched_kthread_run(t->fs, rcu_gp_kthread, NULL, "rcu_gp", t->cpu, false);
	if (!k)
		sched_violation("kthread", "rcu_gp", "no task left for rcu_gp (%d tasks)", MAX_TASKS);
	__atomic_store_n(&rcu_state.gp_kthread, k, __ATOMIC_RELAXED);
}

static __sched_notsan bool seq_reached(void *arg)
{
	unsigned long snap = (unsigned long)arg;

	return (long)(rcu_state.gp_seq - snap) >= 0;
}

static __sched_notsan struct task *gp_thread(void *arg)
{
	(void)arg;
	return __atomic_load_n(&rcu_state.gp_kthread, __ATOMIC_RELAXED);
}

static __sched_notsan bool barrier_done(void *arg)
{
	return (long)(rcu_state.n_invoked - (unsigned long)arg) >= 0;
}

static __sched_notsan void cb_enqueue(struct rcu_head *head)
{
	head->next = NULL;
	head->gp_snap = seq_snap();
	*rcu_state.cb_tail = head;
	rcu_state.cb_tail = &head->next;
	rcu_state.n_queued++;
	gp_request(head->gp_snap);
}

static __sched_notsan unsigned long sync_request(void)
{
	unsigned long snap = seq_snap();

	gp_request(snap);
	return snap;
}

static __sched_notsan unsigned long cbs_queued(void)
{
	return rcu_state.n_queued - rcu_state.n_invoked;
}

static __sched_notsan unsigned long barrier_target(void)
{
	return rcu_state.n_queued;
}

/* ---- the update side ---- */

static void might_sleep_rcu(struct task *t, const char *what, const char *fn)
{
	if (unlikely(t->rcu_nesting))
		sched_violation("rcu-lockdep", fn, "%s() in an RCU read-side critical section",
				what);
	if (unlikely(!preemptible_task(t)))
		sched_violation("might_sleep", fn, "%s() in atomic context", what);
}

void __synchronize_rcu(const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	might_sleep_rcu(t, "synchronize_rcu", fn);
	if (t->fs) {
		unsigned long snap;
		struct sched_wait w = { seq_reached, NULL, "rcu grace period", gp_thread, false };

		yield_point(s);
		snap = sync_request();
		w.arg = (void *)snap;
		gp_kthread_ensure(t);
		fsched_wake(t);
		while (!seq_reached((void *)snap))
			fsched_wait(t, &w, s);
		tsan_acquire(&rcu_gp_sync);
	} else if (rcu_real) {
		pthread_mutex_lock(&real_gp_mutex);
		__atomic_fetch_add(&real_gp_seq, 1, __ATOMIC_RELEASE);	/* odd: begun */
		rcu_real->synchronize();
		__atomic_fetch_add(&real_gp_seq, 1, __ATOMIC_RELEASE);	/* even: ended */
		pthread_mutex_unlock(&real_gp_mutex);
		tsan_acquire(&rcu_gp_sync);
	}
	/* else one real-mode thread outside its sections: already quiescent */
}

void __call_rcu(struct rcu_head *head, rcu_callback_t func, const struct yield_site *s)
{
	struct task *t = __cur_task("call_rcu");

	head->func = func;
	tsan_release(head);
	if (t->fs) {
		yield_point(s);
		cb_enqueue(head);
		gp_kthread_ensure(t);
		fsched_wake(t);
	} else if (rcu_real) {
		__atomic_fetch_add(&real_pending, 1, __ATOMIC_RELAXED);
		rcu_real->call(head, real_invoke);
	} else if (t->rcu_nesting) {
		head->next = real_deferred;
		real_deferred = head;
	} else {
		func(head);
	}
}

/*
 * The callbacks queued and not yet invoked, the sum of 6.6's per-CPU
 * rcu_segcblist_n_cbs(): fiber mode's queue, or what the real-mode
 * backend holds (0 without one: the deferred callbacks of a lone thread
 * run at the end of its section).
 */
unsigned long rcu_cbs_pending(void)
{
	struct task *t = current_task;

	if (t && t->fs)
		return cbs_queued();
	return __atomic_load_n(&real_pending, __ATOMIC_ACQUIRE);
}

void __rcu_barrier(const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);

	might_sleep_rcu(t, "rcu_barrier", fn);
	if (t->fs) {
		unsigned long target;
		struct sched_wait w = { barrier_done, NULL, "rcu_barrier", gp_thread, false };

		yield_point(s);
		target = barrier_target();
		w.arg = (void *)target;
		while (!barrier_done((void *)target))
			fsched_wait(t, &w, s);
		tsan_acquire(&rcu_gp_sync);
	} else if (rcu_real) {
		rcu_real->do_barrier();
	}
}

/* ---- polled grace periods ---- */

static __sched_notsan bool fiber_seq_done(unsigned long c)
{
	return (long)(rcu_state.gp_seq - c) >= 0;
}

unsigned long get_state_synchronize_rcu(void)
{
	struct task *t = current_task;
	unsigned long c;

	if (t && t->fs) {
		c = seq_snap();
		return c;
	}
	/* a lone thread outside its sections is quiescent: done already */
	if (!rcu_real && (!t || !t->rcu_nesting))
		return RCU_GET_STATE_COMPLETED;
	c = __atomic_load_n(&real_gp_seq, __ATOMIC_ACQUIRE);
	return rcu_real ? (c + 3) & ~1UL : c + 2;	/* even: never COMPLETED's 1 */
}

unsigned long start_poll_synchronize_rcu(void)
{
	struct task *t = current_task;
	unsigned long c = get_state_synchronize_rcu();

	if (t && t->fs) {
		gp_request(c);
		gp_kthread_ensure(t);
		fsched_wake(t);
	}
	/* real mode: the next synchronize_rcu() (kvfree_rcu's batches make
	 * one through call_rcu's backend only): the poll waits for it */
	return c;
}

bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	struct task *t = current_task;
	bool done;

	if (oldstate == RCU_GET_STATE_COMPLETED)
		return true;
	if (t && t->fs)
		done = fiber_seq_done(oldstate);
	else
		done = (long)(__atomic_load_n(&real_gp_seq, __ATOMIC_ACQUIRE) - oldstate) >= 0;
	if (done)
		tsan_acquire(&rcu_gp_sync);
	return done;
}

__sched_notsan uint64_t rcu_sections_begun(void)
{
	return sec_begun;
}

__sched_notsan uint64_t rcu_task_section(int id)
{
	return id >= 0 && id < MAX_TASKS ? sec_of_task[id] : 0;
}

/* ---- bug switches (bits in rcupdate.h) ---- */

static const struct bug_info bug_rcu_gp_early = {
	.bit = BUG_RCU_GP_EARLY,
	.name = "rcu_gp_early", .layer = "rcu", .where = "rcu_gp_kthread",
	.caught_by = "I-RCU (a reader sees an object freed under it); ASan/TSan",
	.desc = "the grace-period kthread ends a grace period as soon as all but one "
		"CPU have passed a quiescent state: a reader on the last CPU still "
		"holds what call_rcu() and synchronize_rcu() callers then free",
};
BUG_SWITCH(bug_rcu_gp_early);

// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler's steps: stepping and switching at every yield
 * point (the choice itself, with the policies, is policy.c), blocking on
 * locks and CPUs, the livelock bound (the deadlock reports are deadlock.c),
 * the CPUs' state during a run, a violation ending it, and the task fibers'
 * body.  The pool of task fibers, the start barrier and a run's loop are
 * run.c.
 *
 * Everything here is bookkeeping shared by all fibers without happens-before
 * (switches are no_sync, fuzz-ecosystem.md section 1), so every function that
 * runs on a task fiber is __sched_notsan.
 *
 * Steps: step 0 is the start of a run (the first choice); every yield point a
 * task passes, and every time it blocks, is one more step.
 */
#include "sched.h"
#include "policy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread struct task *current_task;
struct violation g_violation;
static int g_violation_taken;
static int g_violation_ready;	/* the first one's report is written */

/* ------------------------------------------------------------------ */
/* violations                                                          */

void violation_reset(void)
{
	memset(&g_violation, 0, sizeof(g_violation));
	__atomic_store_n(&g_violation_ready, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&g_violation_taken, 0, __ATOMIC_RELEASE);
}

__sched_notsan void fsched_lock_released_out(struct task *t)
{
	if (t->fs->resched_matters && t->fs->nblocked)
		t->fs->need_resched = true;
}

static __sched_notsan void fsched_abandon(struct task *t)
{
	struct fsched *fs = t->fs;

	/*
	 * The abandoned fiber's locks are released: the world's are
	 * re-initialised with it, but a lock outside it (percpu_counters_lock,
	 * taken by every percpu_counter_init) would stay owned by a fiber that
	 * never runs again, and the next run that takes it would report a
	 * deadlock.  TSan must not think the fiber still holds them; only the
	 * holder may release them.
	 */
	while (t->nheld > 0) {
		struct sched_lock *l = t->held[--t->nheld];
#if MMFUZZ_TSAN
		unsigned flags = l->tsan == SL_TSAN_RWSEM &&
				 __atomic_load_n(&l->owner, __ATOMIC_RELAXED) != t ?
				 __tsan_mutex_read_lock : 0;

		if (l->tsan != SL_TSAN_NONE) {
			__tsan_mutex_pre_unlock(l, flags);
			__tsan_mutex_post_unlock(l, flags);
		}
#endif
		if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == t)
			__atomic_store_n(&l->owner, NULL, __ATOMIC_RELEASE);
	}

	fs->aborting = true;
	if (!fs->violator)
		fs->violator = t;
	fs->next_task = -1;
	current_task = NULL;
	fiber_switch(&t->fiber, &fs->main, true, true);
	abort();		/* never resumed */
}

#if MMFUZZ_TSAN
__thread int tsan_ignore_depth;
#endif

__sched_notsan void sched_violation(const char *checker, const char *site, const char *fmt, ...)
{
	struct task *t = current_task;
	va_list ap;

	if (!__atomic_exchange_n(&g_violation_taken, 1, __ATOMIC_ACQ_REL)) {
		struct violation *v = &g_violation;

		v->hit = true;
		snprintf(v->checker, sizeof(v->checker), "%s", checker);
		snprintf(v->site, sizeof(v->site), "%s", site ? site : "-");
		snprintf(v->signature, sizeof(v->signature), "%s@%s", checker,
			 site ? site : "-");
		va_start(ap, fmt);
		vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
		va_end(ap);
		v->task = t ? t->id : -1;
		v->op = t ? t->op : -1;
		v->step = t && t->fs ? t->fs->step : 0;
		snprintf(v->yield, sizeof(v->yield), "%s",
			 t && t->site && t->site->name ? t->site->name : "-");
		__atomic_store_n(&g_violation_ready, 1, __ATOMIC_RELEASE);
	} else {
		/* real mode: a second thread's violation waits for the first's
		 * report, so whoever reads g_violation after either sees it whole */
		while (!__atomic_load_n(&g_violation_ready, __ATOMIC_ACQUIRE))
			__builtin_ia32_pause();
	}
	tsan_ignore_unwind();	/* a checker's section the longjmp leaves */
	if (t && t->fs)
		fsched_abandon(t);
	if (t && t->exit_jb)
		longjmp(*t->exit_jb, 1);
	fprintf(stderr, "mmfuzz: violation %s: %s\n", g_violation.signature, g_violation.msg);
	abort();
}

/* ------------------------------------------------------------------ */
/* switching                                                           */

/*
 * TSan: an interrupt that ended on @t's CPU since @t last ran there happened
 * before @t's next instruction (the CPU's order, not a lock), so a task
 * interrupted in preemptible code (SLUB's fast path) sees what the
 * interrupt did.  Preempting tasks give no such order: only interrupts
 * count (fsched_irq_exit advances irq_epoch).
 */
/*
 * TSan: a context switch on a CPU orders what ran there before it with what
 * runs there after (the kernel's rq->lock and switch_to barriers), so a task
 * preempted in SLUB's preemptible fast path and the next task on its CPU do
 * not race on the CPU's slab and the pages it came from; tasks on other CPUs
 * still do.  cpu_leave when a task stops running on its CPU (switched out or
 * ended), cpu_enter when it starts or resumes there.
 */
static __sched_notsan void cpu_leave(struct fsched *fs, struct task *t)
{
#if MMFUZZ_TSAN
	if (!t->irq_active)
		__tsan_release(&fs->cpu[t->cpu].ctx_sync);
#else
	(void)fs;
	(void)t;
#endif
}

static __sched_notsan void cpu_enter(struct fsched *fs, struct task *t)
{
#if MMFUZZ_TSAN
	if (!t->irq_active)
		__tsan_acquire(&fs->cpu[t->cpu].ctx_sync);
#else
	(void)fs;
	(void)t;
#endif
}

static __sched_notsan void irq_epoch_sync(struct fsched *fs, struct task *t)
{
#if MMFUZZ_TSAN
	if (!t->irq_active && t->irq_epoch_seen != fs->cpu[t->cpu].irq_epoch) {
		t->irq_epoch_seen = fs->cpu[t->cpu].irq_epoch;
		__tsan_acquire(&fs->cpu[t->cpu].tsan_sync);
	}
#else
	(void)fs;
	(void)t;
#endif
}

static __sched_notsan void switch_to(struct fsched *fs, struct task *from, int to)
{
	struct task *t = &fs->task[to];

	if (t == from)
		return;
	if (ilv_enabled) {
		unsigned short next_site = t->site ? t->site->id : 0;

		ilv_edge(from->site ? from->site->id : 0, next_site, true);
		fs->last_site = next_site;
		/* parked: switched out inside an operation, not between two */
		if (from->site && from->site->type != YP_OP && from->state != TASK_DONE) {
			fs->parked_site[from->id] = from->site->id;
			fs->parked_mask |= 1u << from->id;
		}
		fs->parked_mask &= ~(1u << to);
	}
	fs->switches++;
	fs->hash = (fs->hash ^ (0x9e37u + (uint64_t)to)) * 0x100000001b3ULL;
	if (from)
		if (fs->ring)
			from->ring[(from->ring_n - 1) % TRACE_RING].switched_to = (signed char)to;
	fs->cur = t;
	current_task = t;
	cpu_leave(fs, from);
	fiber_switch(&from->fiber, &t->fiber, false, false);
	/* resumed: someone switched back to us */
	if (fs->aborting)
		fsched_abandon(from);
	irq_epoch_sync(fs, from);
	cpu_enter(fs, from);
	current_task = from;
}

static __sched_notsan void count_occ(struct task *t, const struct yield_site *s)
{
	if (!t->occ[s->id]++)
		t->occ_touched[t->nocc_touched++] = s->id;
}

__sched_notsan void fsched_step_slow(struct fsched *fs, struct task *t, const struct yield_site *s)
{
	int next;

	if (fs->ring)
		fsched_ring(t, fs->step, s);
	if (fs->slow)
		count_occ(t, s);
	if (fs->step >= fs->livelock_at)
		sched_violation("livelock", s->func,
				"no progress: %llu steps without an operation beginning or a task "
				"ending (bound %llu, step %llu); %s last at %s",
				(unsigned long long)fs->max_steps + 1, (unsigned long long)fs->max_steps,
				(unsigned long long)fs->step, t->name, s->name);
	next = sched_choose(fs, t);
	if (next < 0)
		next = stop_idle_kthreads(fs);
	if (fs->trace)
		fs->trace(fs, t, s, next != t->id ? next : -1);
	sched_update_next_event(fs);
	if (next < 0) {
		if (idle_kthread(t))
			report_deadlock_any(fs);
		report_deadlock(fs, t);
	}
	switch_to(fs, t, next);
}

__sched_notsan void fsched_yield_out(struct task *t, const struct yield_site *s)
{
	struct fsched *fs = t->fs;
	uint64_t step = ++fs->step;

	fs->hash = (fs->hash ^ (s->hash + (uint64_t)t->id)) * 0x100000001b3ULL;
	t->site = s;
	if (unlikely(ilv_enabled))
		fsched_ilv_step(fs, s);
	if (unlikely(step >= fs->next_event || fs->need_resched))
		fsched_step_slow(fs, t, s);
}

__sched_notsan void fsched_cond_resched(struct task *t, const struct yield_site *s)
{
	struct fsched *fs = t->fs;
	int next = t->resched - 1;

	t->resched = 0;
	fs->step++;
	fs->hash = (fs->hash ^ (s->hash + 0x63u + (uint64_t)t->id)) * 0x100000001b3ULL;
	t->site = s;
	if (fs->ring)
		fsched_ring(t, fs->step, s);
	if (fs->slow)
		count_occ(t, s);
	if (next < 0 || next >= fs->ntasks || !sched_task_runnable(fs, &fs->task[next]))
		next = t->id;
	if (next != t->id)
		fs->preemptions++;
	if (fs->trace)
		fs->trace(fs, t, s, next != t->id ? next : -1);
	sched_update_next_event(fs);
	switch_to(fs, t, next);
}

__sched_notsan void fsched_ilv_pairs(struct fsched *fs, unsigned site)
{
	unsigned int m = fs->parked_mask;

	while (m) {
		int i = __builtin_ctz(m);

		m &= m - 1;
		ilv_pair(site, fs->parked_site[i]);
	}
}

__sched_notsan void fsched_block_on(struct task *t, struct sched_lock *l, const struct yield_site *s)
{
	struct fsched *fs = t->fs;

	t->state = TASK_BLOCKED;
	t->wait = l;
	fs->nblocked++;
	fs->step++;
	fs->hash = (fs->hash ^ (s->hash + 0x51u + (uint64_t)t->id)) * 0x100000001b3ULL;
	t->site = s;
	/* a blocked step always takes the slow path */
	fsched_step_slow(fs, t, s);
	fs->nblocked--;
	t->state = TASK_RUNNABLE;
	t->wait = NULL;
}

__sched_notsan void fsched_wait(struct task *t, const struct sched_wait *w,
				const struct yield_site *s)
{
	struct fsched *fs = t->fs;

	t->state = TASK_BLOCKED;
	t->wcond = w;
	fs->nblocked++;
	fs->step++;
	fs->hash = (fs->hash ^ (s->hash + 0x57u + (uint64_t)t->id)) * 0x100000001b3ULL;
	t->site = s;
	fsched_step_slow(fs, t, s);
	fs->nblocked--;
	t->state = TASK_RUNNABLE;
	t->wcond = NULL;
}

void sched_internal_error(const struct task *t)
{
	const struct sched_cpu *c = &t->fs->cpu[t->cpu];

	fprintf(stderr, "mmfuzz: internal error: %s took cpu%d from %s\n", t->name, t->cpu,
		(c->preempt_owner ? c->preempt_owner : c->irq_task)->name);
	abort();
}

void fsched_cpu_update_out(struct task *t)
{
	fsched_cpu_update(t);
}

/*
 * Move the running task to @cpu between operations.  If another task has
 * that CPU (preemption or IRQs off there), the task waits for it.
 */
__sched_notsan void sched_migrate(struct task *t, int cpu, const struct yield_site *s)
{
	/* set_cpus_allowed_ptr() to an offline CPU fails: the task stays */
	if (t->fs && !fsched_cpu_online(t->fs, cpu))
		cpu = t->cpu;
	if (t->fs) {
		t->fs->cpu_ntasks[t->cpu]--;
		t->fs->cpu_ntasks[cpu]++;
		if (cpu != t->cpu)
			cpu_leave(t->fs, t);
	}
	t->cpu = cpu;
	if (!t->fs)
		return;
	t->fs->need_resched = true;
	fsched_yield_out(t, s);
	/* TSan: a migrated task is switched in on its new CPU, after what ran
	 * there (cpu_leave's order); the scheduler may have kept it running,
	 * with no switch_to to say so (flush_all_cpus_locked's move to each
	 * CPU, standing for the kworker that runs flush_cpu_slab there) */
	cpu_enter(t->fs, t);
}

__sched_notsan void fsched_irq_enter(struct task *t, const struct yield_site *s)
{
	(void)s;
	if (!t->fs)
		return;
	t->irq_active = true;
	t->fs->cpu[t->cpu].irq_task = t;
#if MMFUZZ_TSAN
	__tsan_acquire(&t->fs->cpu[t->cpu].tsan_sync);
#endif
}

__sched_notsan void fsched_irq_exit(struct task *t)
{
	if (!t->fs)
		return;
#if MMFUZZ_TSAN
	__tsan_release(&t->fs->cpu[t->cpu].tsan_sync);
	t->fs->cpu[t->cpu].irq_epoch++;
#endif
	t->irq_active = false;
	t->irq_ctx = t->kfn != NULL;	/* an IRQ handler kthread stays one */
	t->fs->cpu[t->cpu].irq_task = NULL;
	if ((t->fs->qs_need & (1u << t->cpu)) && !t->fs->cpu[t->cpu].preempt_owner)
		t->fs->qs_need &= ~(1u << t->cpu);
	/* back from the interrupt: the task it interrupted may own this CPU,
	 * and then it, not us, goes on (whatever the policy) */
	t->fs->need_resched = true;
}

__sched_notsan void sched_op_begin(struct task *t, int op, const struct yield_site *s)
{
	unsigned i;

	t->op = op;
	for (i = 0; i < t->nocc_touched; i++)
		t->occ[t->occ_touched[i]] = 0;
	t->nocc_touched = 0;
	if (t->fs) {
		/* progress: the livelock bound counts from here (a stale next
		 * event only costs one slow step, which recomputes it) */
		t->fs->livelock_at = t->fs->step + t->fs->max_steps + 1;
		fsched_yield_out(t, s);
	}
}

/* The task ran out of operations: one last step picks who runs next. */
static __sched_notsan void task_exit(struct fsched *fs, struct task *t)
{
	const struct yield_site *s = YIELD_SITE(YP_OP, "exit");
	unsigned i;
	int next;

	if (t->nheld)
		sched_violation("lock-leak", "task-exit", "%s exited holding %s",
				t->name, t->held[t->nheld - 1]->name);
	if (t->preempt_count || t->irq_depth)
		sched_violation("preempt-leak", "task-exit",
				"%s exited with preempt_count %d, irq depth %d",
				t->name, t->preempt_count, t->irq_depth);
	if (t->rcu_nesting)
		sched_violation("rcu-leak", "task-exit", "%s exited inside rcu_read_lock()",
				t->name);
	/* keyed like one more op: "Tn.k op(exit) #1" */
	t->op++;
	for (i = 0; i < t->nocc_touched; i++)
		t->occ[t->occ_touched[i]] = 0;
	t->nocc_touched = 0;
	t->state = TASK_DONE;
	fsched_cpu_update(t);
	fs->livelock_at = fs->step + fs->max_steps + 1;
	fs->step++;
	fs->hash = (fs->hash ^ (s->hash + (uint64_t)t->id)) * 0x100000001b3ULL;
	if (fs->ring)
		fsched_ring(t, fs->step, s);
	t->site = s;
	if (fs->slow)
		count_occ(t, s);
	next = sched_choose(fs, t);
	if (next < 0)
		next = stop_idle_kthreads(fs);
	if (fs->trace)
		fs->trace(fs, t, s, next);
	sched_update_next_event(fs);
	if (next < 0)
		for (i = 0; i < (unsigned)fs->ntasks; i++)
			if (fs->task[i].state != TASK_DONE)
				report_deadlock_any(fs);
	fs->next_task = next;
}

/*
 * A task's fiber lives for the whole process and parks at one point, P.
 * The barrier of a run enters it synced (PH_BARRIER) and it parks again;
 * the run then enters it no_sync (PH_READY) and it runs its operations; its
 * exit back to P is synced, so the scheduler sees everything it did.
 */
__sched_notsan void task_worker(void *arg)
{
	struct task *t = arg;
	struct fsched *fs = t->fs;
	bool sync = true;	/* a new context parks synced: nothing of a run yet */

	for (;;) {
		fiber_switch(&t->fiber, t->ret_fiber, sync, false);	/* P */
		sync = false;
		if (t->phase == PH_BARRIER) {
			t->phase = PH_READY;
			continue;
		}
		if (t->phase != PH_READY)
			continue;
		t->phase = PH_RUNNING;
		current_task = t;
		t->irq_epoch_seen = 0;
		irq_epoch_sync(fs, t);
		cpu_enter(fs, t);
		if (t->kfn) {
#if MMFUZZ_TSAN
			__tsan_acquire(t);	/* kthread_run: its creator's writes */
#endif
			t->kfn(t, t->karg);
		} else {
			fs->body(t, fs->body_arg);
		}
		cpu_leave(fs, t);
		task_exit(fs, t);
		t->phase = PH_EXITED;
		current_task = NULL;
		sync = true;
	}
}

/* ------------------------------------------------------------------ */
/* CPUs and kthreads during a run                                      */

__sched_notsan void kthread_op_begin(struct task *t, const struct yield_site *s)
{
	sched_op_begin(t, t->op + 1, s);
}

__sched_notsan void fsched_cpu_set_online(struct fsched *fs, int cpu, bool online)
{
	if (online) {
		fs->cpu_offline &= ~(1u << cpu);
	} else {
		fs->cpu_offline |= 1u << cpu;
		fs->qs_need &= ~(1u << cpu);	/* rcu_report_dead() */
	}
	fs->need_resched = true;
}

__sched_notsan void fsched_move_task(struct fsched *fs, struct task *u, int cpu)
{
	if (u->cpu == cpu)
		return;
	fs->cpu_ntasks[u->cpu]--;
	fs->cpu_ntasks[cpu]++;
	u->cpu = cpu;
	fs->need_resched = true;
}

/*
 * TSan: stop_machine() orders every CPU's past before the stopper's work
 * (@enter: each CPU's last context switch, acquired) and that work before
 * whatever runs on any CPU after it (released): the kernel's
 * multi_cpu_stop() state machine, which every online CPU steps through
 * with full barriers.  Without it, what a task did on a CPU taken down
 * races the dead callbacks that another CPU runs on its data (SLUB's
 * slub_cpu_dead flushing the CPU slab the task freed into).
 */
__sched_notsan void fsched_stop_machine_sync(struct fsched *fs, bool enter)
{
#if MMFUZZ_TSAN
	int cpu;

	for (cpu = 0; cpu < fs->ncpus; cpu++) {
		if (enter)
			__tsan_acquire(&fs->cpu[cpu].ctx_sync);
		else
			__tsan_release(&fs->cpu[cpu].ctx_sync);
	}
#else
	(void)fs;
	(void)enter;
#endif
}

__sched_notsan void fsched_qs_begin(struct fsched *fs)
{
	unsigned int need = 0;
	int cpu;

	for (cpu = 0; cpu < fs->ncpus; cpu++)
		if (fsched_cpu_online(fs, cpu) && fsched_cpu_held(fs, cpu))
			need |= 1u << cpu;
	fs->qs_need = need;
}

/* ------------------------------------------------------------------ */
/* real mode                                                           */

bool real_cpu_shared;
bool real_threads_concurrent;
static struct task *real_cpu_owner[MAX_CPUS];

void real_cpu_enter(struct task *t)
{
	struct task *expect = NULL;

	if (!real_cpu_shared)
		return;
	while (!__atomic_compare_exchange_n(&real_cpu_owner[t->cpu], &expect, t, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		expect = NULL;
		__builtin_ia32_pause();
	}
}

void real_cpu_exit(struct task *t)
{
	if (!real_cpu_shared)
		return;
	__atomic_store_n(&real_cpu_owner[t->cpu], NULL, __ATOMIC_RELEASE);
}

// SPDX-License-Identifier: MIT
/*
 * A run of the deterministic scheduler: the pool of task fibers
 * (fsched_create), a task's per-run state, kthreads started during a run,
 * the start barrier and the run's loop (fsched_run), and the unwind of the
 * tasks a violation left in the middle of operations.  The steps between
 * are sched.c's.
 *
 * Everything here is bookkeeping shared by all fibers without happens-before
 * (switches are no_sync, fuzz-ecosystem.md section 1), so every function that
 * runs on a task fiber is __sched_notsan.
 */
#include "sched.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char task_names[MAX_TASKS][8];	/* "T0".."T23"; a kthread has its own */

#define FIBER_STACK	(MMFUZZ_ASAN || MMFUZZ_TSAN ? 512 * 1024 : 128 * 1024)

static void enter_synced(struct fsched *fs, struct task *t);
static void task_reset(struct fsched *fs, struct task *t, int cpu);

/* ------------------------------------------------------------------ */
/* pool                                                                */

struct fsched *fsched_create(int ntasks_max)
{
	struct fsched *fs;
	unsigned nsites;
	int i;

	sites_init();
	nsites = sites_count();
	if (ntasks_max < 1 || ntasks_max > MAX_TASKS)
		return NULL;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return NULL;
	fiber_init_main(&fs->main);
	fs->recd = calloc(MAX_DECISIONS, sizeof(*fs->recd));
	if (!fs->recd)
		goto out_free;
	for (i = 0; i < MAX_TASKS; i++) {
		struct task *t = &fs->task[i];

		if (!task_names[i][0])
			snprintf(task_names[i], sizeof(task_names[i]), "T%d", i);
		t->id = i;
		t->name = task_names[i];
		t->fs = fs;
		t->ret_fiber = &fs->main;
		t->occ = calloc(nsites + 1, sizeof(*t->occ));
		t->occ_touched = calloc(nsites + 1, sizeof(*t->occ_touched));
		if (!t->occ || !t->occ_touched)
			goto out_free;
		if (fiber_create(&t->fiber, FIBER_STACK, task_worker, t, t->name))
			goto out_free;
		t->state = TASK_IDLE;
	}
	fs->ntasks = 0;
	/* first entry: each worker runs to P */
	for (i = 0; i < MAX_TASKS; i++)
		enter_synced(fs, &fs->task[i]);
	return fs;

out_free:
	fsched_destroy(fs);
	return NULL;
}

void fsched_destroy(struct fsched *fs)
{
	int i;

	if (!fs)
		return;
	for (i = 0; i < MAX_TASKS; i++) {
		fiber_destroy(&fs->task[i].fiber);
		free(fs->task[i].occ);
		free(fs->task[i].occ_touched);
	}
	free(fs->recd);
	free(fs);
}

/* ------------------------------------------------------------------ */
/* a run                                                               */

void fsched_set_record(struct fsched *fs, enum sched_record rec)
{
	fs->rec = rec;
}

int fsched_recorded(const struct fsched *fs, const struct sched_decision **out)
{
	*out = fs->recd;
	return fs->nrec;
}

/* Enter a fiber from the scheduler, synced. */
static __sched_notsan void enter_synced(struct fsched *fs, struct task *t)
{
	current_task = t;
	fiber_switch(&fs->main, &t->fiber, true, false);
	current_task = NULL;
}

/*
 * A violation ended the run with tasks in the middle of operations.  Each is
 * resumed once, synced, and leaves synced (fsched_abandon), so the scheduler
 * has happens-before with all it wrote and TSan stays quiet when the world is
 * reset; then its fiber gets a fresh context, parked at P.
 */
static __sched_notsan void fsched_unwind(struct fsched *fs)
{
	int i;

	for (i = 0; i < fs->ntasks; i++) {
		struct task *t = &fs->task[i];

		if (t->phase != PH_RUNNING)
			continue;
		if (t != fs->violator)
			enter_synced(fs, t);
		fiber_reset(&t->fiber);
		t->phase = PH_IDLE;
		enter_synced(fs, t);	/* runs to P */
	}
}

static fsched_run_hook run_hooks[8];
static int nrun_hooks;

void fsched_register_run_hook(fsched_run_hook fn)
{
	if (nrun_hooks >= (int)(sizeof(run_hooks) / sizeof(run_hooks[0])))
		abort();
	run_hooks[nrun_hooks++] = fn;
}

/* A task's per-run state, on @cpu, runnable. */
static __sched_notsan void task_reset(struct fsched *fs, struct task *t, int cpu)
{
	unsigned j;

	t->cpu = cpu;
	fs->cpu_ntasks[cpu]++;
	t->preempt_count = t->irq_depth = 0;
	t->irq_active = false;
	t->nheld = 0;
	t->rcu_nesting = 0;
	t->op = -1;
	t->site = NULL;
	t->resched = 0;
	t->wait = NULL;
	t->wcond = NULL;
	t->kfn = NULL;
	t->karg = NULL;
	t->ring_n = 0;
	for (j = 0; j < t->nocc_touched; j++)
		t->occ[t->occ_touched[j]] = 0;
	t->nocc_touched = 0;
	t->state = TASK_RUNNABLE;
}

__sched_notsan struct task *fsched_kthread_run(struct fsched *fs, kthread_fn fn, void *arg,
					       const char *name, int cpu, bool irq)
{
	struct task *t, *cur = current_task;
	int i, top = 0;

	if (fs->ntasks >= MAX_TASKS)
		return NULL;
	t = &fs->task[fs->ntasks];
	task_reset(fs, t, cpu);
	t->irq_ctx = irq;
	t->kfn = fn;
	t->karg = arg;
	t->name = name;
	t->op = 0;		/* its work items are ops 1, 2, ... (kthread_op_begin) */
	/* PCT: above every task so far (the start order is deterministic) */
	for (i = 0; i < fs->ntasks; i++)
		if (fs->prio[i] > top)
			top = fs->prio[i];
	fs->prio[t->id] = top + 1;
	fs->ntasks++;
	/* PCT runs it at once: the fast path must see that, as the slow does */
	if (fs->resched_matters)
		fs->need_resched = true;
#if MMFUZZ_TSAN
	__tsan_release(t);
#endif
	if (cur && cur->fs == fs) {
		/*
		 * Started by a running task: its first entry is synced from the
		 * creator, as pthread_create orders the creator's writes before
		 * the thread; the fiber parks back to the creator at once.
		 */
		t->phase = PH_BARRIER;
		t->ret_fiber = &cur->fiber;
		current_task = t;
		fiber_switch(&cur->fiber, &t->fiber, true, false);
		current_task = cur;
		t->ret_fiber = &fs->main;
	}
	/* else a run hook: the start barrier enters it */
	return t;
}

__sched_notsan int fsched_run(struct fsched *fs, int ntasks, int ncpus,
			      const struct task_init *init, const struct sched_policy *pol,
			      task_body_fn body, void *arg)
{
	int i;

	fs->ntasks = ntasks;
	fs->nprog = ntasks;
	fs->ncpus = ncpus;
	fs->pol = *pol;
	fs->body = body;
	fs->body_arg = arg;
	fs->step = 0;
	fs->hash = 0xcbf29ce484222325ULL;
	fs->switches = 0;
	fs->preemptions = 0;
	fs->migrations = 0;
	fs->next_dec = 0;
	fs->dec_base = 0;
	fs->fallback = false;
	fs->nchange = fs->next_change = 0;
	fs->nrec = 0;
	fs->last_site = 0;
	fs->parked_mask = 0;
	if (ilv_enabled)
		ilv_run_begin();
	fs->rec_overflow = 0;
	fs->aborting = false;
	fs->violator = NULL;
	fs->need_resched = false;
	fs->kthread_stop = false;
	fs->cpu_offline = 0;
	fs->qs_need = 0;
	fs->stop_waiters = 0;
	fs->resched_matters = pol->kind == POL_PCT;
	fs->slow = fs->rec != REC_NONE || pol->keyed || pol->kind == POL_RANDOM ||
		   pol->kind == POL_RR || fs->trace || fs->ring;
	if (!fs->max_steps)
		fs->max_steps = 200000;
	fs->livelock_at = fs->max_steps + 1;
	memset(fs->cpu, 0, sizeof(fs->cpu));
	memset(fs->cpu_ntasks, 0, sizeof(fs->cpu_ntasks));
	fs->nblocked = 0;
	for (i = 0; i < ntasks; i++) {
		struct task *t = &fs->task[i];

		task_reset(fs, t, init[i].cpu);
		t->irq_ctx = init[i].irq;
		t->name = task_names[i];
	}
	switch (pol->kind) {
	case POL_PCT:
		sched_pct_start(fs, pol->depth, pol->seed, 0);
		break;
	case POL_RANDOM:
		fs->rng = rng_seed(pol->seed);
		break;
	default:
		if (pol->kind == POL_INPUT && pol->ndec == 0)
			sched_fallback_begin(fs);
		break;
	}
	fs->running = true;
	/* the kernel's per-run state; it may start kthreads */
	for (i = 0; i < nrun_hooks; i++)
		run_hooks[i](fs);

	/* start barrier: enter every fiber once, synced; each parks at once */
	for (i = 0; i < fs->ntasks; i++) {
		fs->task[i].phase = PH_BARRIER;
		enter_synced(fs, &fs->task[i]);
	}

	/* step 0: the first choice */
	fs->cur = NULL;
	fs->next_task = sched_choose(fs, NULL);
	if (fs->trace)
		fs->trace(fs, NULL, NULL, fs->next_task);
	sched_update_next_event(fs);
	while (!fs->aborting && fs->next_task >= 0) {
		struct task *t = &fs->task[fs->next_task];

		fs->next_task = -1;
		fs->cur = t;
		current_task = t;
		fiber_switch(&fs->main, &t->fiber, false, false);
		current_task = NULL;
	}
	if (fs->aborting)
		fsched_unwind(fs);
	for (i = 0; i < fs->ntasks; i++) {
		fs->task[i].state = TASK_IDLE;
		if (fs->task[i].phase != PH_IDLE)
			fs->task[i].phase = PH_IDLE;
	}
	fs->running = false;
	fs->cur = NULL;
	return fs->aborting ? 1 : 0;
}

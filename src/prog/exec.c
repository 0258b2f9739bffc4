// SPDX-License-Identifier: MIT
/*
 * Running a program: each task is a fiber running its operations through
 * their descriptors (ops.h); after each operation the per-op checks run,
 * and whenever no operation is in flight the quiescent checks run.  At the
 * end the executor releases every handle the program still holds, lets
 * every layer drain (world_drain), then checks the exact end state.
 *
 * The executor keeps no checker state: what the program holds is the
 * shadow's (check/shadow.c), the excuses are the checkers'.
 */
#include "exec.h"
#include "handle.h"
#include "ops_pagealloc.h"

#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "../check/check.h"
#include "../kernel/percpu.h"

struct exec {
	struct fsched *fs;
	struct world *w;		/* the current run's, from worlds */
	struct world_cache worlds;
	const struct prog *p;
	int task_first[PROG_MAX_TASKS], task_n[PROG_MAX_TASKS];
	/* the defining op of each handle argument; each op's N of hN */
	short use_op[PROG_MAX_OPS][OP_MAX_ARGS];
	short handle_name[PROG_MAX_OPS];
	void *lstate[MAX_OP_LAYERS];	/* each operation layer's per-run state */
	/* op_layer_state() handed it out since it was last zeroed: a run
	 * zeroes only those (SLUB's is 7.6 KB, most programs never touch it) */
	bool lstate_dirty[MAX_OP_LAYERS];
	bool in_op[PROG_MAX_TASKS];
	int ops_run;
	uint64_t run_no;
	struct task main_task;		/* the scheduler's side: end of run, sequential */
	jmp_buf jb;
	bool no_quiescent;
};

struct exec *exec_create(void)
{
	struct exec *e = calloc(1, sizeof(*e));
	int i;

	if (!e)
		return NULL;
	ops_init();
	e->fs = fsched_create(PROG_MAX_TASKS);
	if (!e->fs)
		goto out_free;
	for (i = 0; i < op_layers_count(); i++) {
		size_t n = op_layer_by_index(i)->state_size;

		e->lstate[i] = calloc(1, n ? n : 1);
		if (!e->lstate[i])
			goto out_free;
	}
	return e;

out_free:
	exec_destroy(e);
	return NULL;
}

void exec_destroy(struct exec *e)
{
	int i;

	if (!e)
		return;
	fsched_destroy(e->fs);
	world_cache_destroy(&e->worlds);
	for (i = 0; i < MAX_OP_LAYERS; i++)
		free(e->lstate[i]);
	free(e);
}

const struct world_cache *exec_worlds(const struct exec *e)
{
	return &e->worlds;
}

void exec_set_world_slots(struct exec *e, int n)
{
	world_cache_destroy(&e->worlds);
	e->worlds.nslots = n;
}

const struct fsched *exec_sched(const struct exec *e)
{
	return e->fs;
}

/* ---- what an operation's execute function may use ---- */

int op_handle_arg(struct op_ctx *c, int i)
{
	return c->e->use_op[c->idx][i];
}

int op_handle_self(struct op_ctx *c)
{
	return c->idx;
}

int op_handle_name(struct op_ctx *c)
{
	return c->e->handle_name[c->idx];
}

void *op_layer_state(struct op_ctx *c, const struct op_layer *l)
{
	/* atomic: the tasks' fibers are threads to TSan */
	if (!__atomic_load_n(&c->e->lstate_dirty[l->id], __ATOMIC_RELAXED))
		__atomic_store_n(&c->e->lstate_dirty[l->id], true, __ATOMIC_RELAXED);
	return c->e->lstate[l->id];
}

const struct prog *op_prog(struct op_ctx *c)
{
	return c->e->p;
}

/* ---- operations ---- */

static void exec_op(struct exec *e, struct task *t, const struct op *op, int idx)
{
	struct op_ctx c = { e, t, e->w, op, op_desc_of(op), idx };

	c.d->exec(&c);
}

/*
 * No operation in flight: no other program task inside one (or inside what
 * it gives back when it ends), and no kernel thread inside a work item: an
 * RCU callback freeing what waited for the grace period, an IPI handler,
 * and a work item in process context (kfree_rcu_work freeing a batch: its
 * __slab_free may be preempted inside discard_slab's __free_pages, the
 * slab page off every list and not yet in the buddy) move pages as
 * operations do.  A kernel thread waits for its next item on an idle
 * condition (sched_wait.idle), the only state in which it holds none.
 */
static __sched_notsan bool quiescent(const struct exec *e, int self)
{
	const struct fsched *fs = e->fs;
	int i;

	for (i = 0; i < e->p->ntasks; i++)
		if (i != self && __atomic_load_n(&e->in_op[i], __ATOMIC_RELAXED))
			return false;
	for (i = e->p->ntasks; current_task && current_task->fs && i < fs->ntasks; i++) {
		const struct task *k = &fs->task[i];

		if (k == current_task || k->state == TASK_DONE)
			continue;
		if (k->preempt_count || k->irq_depth || k->irq_active ||
		    !(k->state == TASK_BLOCKED && k->wcond && k->wcond->idle))
			return false;
	}
	return true;
}

static void after_op(struct exec *e, struct task *t)
{
	__atomic_fetch_add(&e->ops_run, 1, __ATOMIC_RELAXED);
	check_after_op(e->w, t->cpu);
	if (!e->no_quiescent && quiescent(e, t->id))
		check_quiescent(e->w, "quiescence");
}

/* What the program's header says exists before any task runs (its mms). */
static void run_begin(struct exec *e, struct task *t)
{
	struct op_ctx c = { e, t, e->w, NULL, NULL, -1 };
	int i;

	for (i = 0; i < op_layers_count(); i++)
		if (op_layer_by_index(i)->run_begin)
			op_layer_by_index(i)->run_begin(&c);
}

static void begin_body(struct task *t, void *arg)
{
	run_begin(arg, t);
}

/*
 * The start of the run on the scheduler, as one task before the program's
 * (only when the header asks for something: its mms): what it takes, locks
 * included, it takes as the program's operations do.  Nothing of it is
 * recorded; the program's run counts its steps and trace from zero.
 */
static int begin_on_scheduler(struct exec *e, int ncpus)
{
	struct sched_policy pol = { .kind = POL_RR };
	struct task_init init = { .cpu = 0, .irq = false };
	enum sched_record rec = e->fs->rec;
	int rc;

	fsched_set_record(e->fs, REC_NONE);
	e->fs->trace = NULL;
	e->fs->ring = false;
	rc = fsched_run(e->fs, 1, ncpus, &init, &pol, begin_body, e);
	fsched_set_record(e->fs, rec);
	return rc;
}

/* A task that ends holding something (a disabled zone) gives it back. */
static void task_cleanup(struct exec *e, struct task *t)
{
	struct op_ctx c = { e, t, e->w, NULL, NULL, -1 };
	int i;

	for (i = 0; i < op_layers_count(); i++)
		if (op_layer_by_index(i)->task_exit)
			op_layer_by_index(i)->task_exit(&c);
}

static void task_body(struct task *t, void *arg)
{
	struct exec *e = arg;
	int k, first = e->task_first[t->id];

	for (k = 0; k < e->task_n[t->id]; k++) {
		const struct op *op = &e->p->ops[first + k];

		t->irq_ctx = op->irq;
		sched_op_begin(t, k, &op_desc_of(op)->site);
		__atomic_store_n(&e->in_op[t->id], true, __ATOMIC_RELAXED);
		if (op->irq)
			fsched_irq_enter(t, NULL);
		exec_op(e, t, op, first + k);
		if (op->irq) {
			fsched_irq_exit(t);
			/* interrupts back on: the interrupted task may go on */
			yield_point(YIELD_SITE(YP_IRQ, "irq_exit"));
		}
		__atomic_store_n(&e->in_op[t->id], false, __ATOMIC_RELAXED);
		after_op(e, t);
	}
	/* what a task gives back when it ends is in flight too: no other
	 * task's quiescent check may run in the middle of it */
	__atomic_store_n(&e->in_op[t->id], true, __ATOMIC_RELAXED);
	task_cleanup(e, t);
	__atomic_store_n(&e->in_op[t->id], false, __ATOMIC_RELAXED);
}

/* ---- a run ---- */

static int world_for(struct exec *e, const struct mm_config *cfg)
{
	if (world_get(&e->worlds, cfg, &e->w))
		return -1;
	mm_world = e->w;
	return 0;
}

static void build_policy(const struct exec *e, const struct prog *p, const struct run_opts *o,
			 struct sched_policy *pol)
{
	memset(pol, 0, sizeof(*pol));
	pol->horizon = 10 * (uint64_t)p->nops + 8;
	switch (o->sched) {
	case SCHED_FROM_INPUT:
		pol->kind = POL_INPUT;
		pol->dec = p->dec;
		pol->ndec = p->ndec;
		pol->keyed = p->keyed;
		pol->depth = p->fallback_depth;
		pol->seed = p->seed;
		break;
	case SCHED_PCT:
		pol->kind = POL_PCT;
		pol->depth = o->depth;
		pol->seed = o->seed;
		break;
	case SCHED_RANDOM:
		pol->kind = POL_RANDOM;
		pol->seed = o->seed;
		break;
	case SCHED_RR:
		pol->kind = POL_RR;
		break;
	}
	(void)e;
}

/* Give back what the program still holds, let every layer drain, check. */
static void finish(struct exec *e, struct task *m)
{
	int i;

	for (i = 0; i < e->p->nops; i++) {
		const struct op_desc *d = op_desc_of(&e->p->ops[i]);
		struct op_ctx c = { e, m, e->w, &e->p->ops[i], d, i };

		if (d->defines)
			d->defines->release(&c, i);
	}
	world_drain(e->w);
	m->cpu = 0;
	check_final(e->w);
}

static void finish_body(struct task *t, void *arg)
{
	struct exec *e = arg;

	t->op = e->p->nops + 1;		/* reports name it "exit" */
	finish(e, t);
}

/*
 * The end of the run on the scheduler too, as one task: a loop in a drain
 * (a count that never reaches its list's length) is then a livelock
 * report with the trace, bounded by the same step bound, not a hang.  What
 * the program's run recorded (its decisions, its preemptions, its trace
 * hash and steps) is the run's: the drain adds its steps to the count.
 */
static int finish_on_scheduler(struct exec *e, int ncpus, struct run_result *r)
{
	struct sched_policy pol = { .kind = POL_RR };
	struct task_init init = { .cpu = 0, .irq = false };
	int nrec = e->fs->nrec, next_dec = e->fs->next_dec, rc;
	unsigned long preemptions = e->fs->preemptions;
	enum sched_record rec = e->fs->rec;

	fsched_set_record(e->fs, REC_NONE);
	rc = fsched_run(e->fs, 1, ncpus, &init, &pol, finish_body, e);
	r->steps += e->fs->step;
	fsched_set_record(e->fs, rec);
	e->fs->nrec = nrec;
	/* the program's decisions still pending (exec_keyed_decisions) */
	e->fs->next_dec = next_dec;
	e->fs->preemptions = preemptions;
	return rc;
}

static void run_sequential(struct exec *e)
{
	struct task *m = &e->main_task;
	int t, k, cpu[PROG_MAX_TASKS];

	for (t = 0; t < e->p->ntasks; t++)
		cpu[t] = e->p->task_cpu[t];
	for (t = 0; t < e->p->ntasks; t++) {
		m->id = t;
		for (k = 0; k < e->task_n[t]; k++) {
			const struct op *op = &e->p->ops[e->task_first[t] + k];

			m->cpu = cpu[t];
			m->op = k;
			e->in_op[t] = true;
			exec_op(e, m, op, e->task_first[t] + k);
			e->in_op[t] = false;
			cpu[t] = m->cpu;
			after_op(e, m);
		}
		task_cleanup(e, m);
	}
	m->id = 0;
}

/*
 * The livelock bound for @p: the steps without progress allowed (the
 * caller's, or the default), plus twice what one operation may
 * legitimately take on this machine, as each world layer says
 * (max_op_steps), so that a large machine is not a livelock and a small
 * one is caught as soon as it was.
 */
static uint64_t livelock_bound(const struct prog *p, uint64_t base)
{
	return (base ? base : 200000) + 2 * layers_max_op_steps(&p->cfg);
}

/* Which op defines the handle each argument names; each handle's N. */
static void bind_handles(struct exec *e, const struct prog *p)
{
	int i, k;

	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		e->handle_name[i] = (short)prog_handle_index(p, i);
		for (k = 0; k < d->nargs; k++)
			if (d->args[k].kind == ARG_HANDLE)
				e->use_op[i][k] = (short)prog_handle_op(p, d->args[k].hk, p->ops[i].arg[k]);
	}
}

static int run_once(struct exec *e, const struct prog *p, const struct run_opts *o,
		    struct run_result *r, bool ring)
{
	struct task_init init[PROG_MAX_TASKS];
	struct sched_policy pol;
	int t, i;
	volatile int rc = 0;

	memset(r, 0, sizeof(*r));
	violation_reset();
	if (world_for(e, &p->cfg))
		return -1;
	e->p = p;
	e->run_no++;
	e->ops_run = 0;
	e->no_quiescent = o->no_quiescent;
	memset(e->in_op, 0, sizeof(e->in_op));
	for (i = 0; i < op_layers_count(); i++)
		if (__atomic_load_n(&e->lstate_dirty[i], __ATOMIC_RELAXED)) {
			memset(e->lstate[i], 0, op_layer_by_index(i)->state_size);
			__atomic_store_n(&e->lstate_dirty[i], false, __ATOMIC_RELAXED);
		}
	bind_handles(e, p);
	shadow_table_set(&page_table);
	shadow_run_begin(e->w, e->run_no);
	handle_run_begin();
	pagealloc_hooks.page_moved = pagealloc_page_moved;
	check_run_begin(e->w);
	for (t = 0; t < p->ntasks; t++) {
		e->task_n[t] = prog_task_ops(p, t, &e->task_first[t]);
		init[t].cpu = p->task_cpu[t];
		init[t].irq = e->task_n[t] && p->ops[e->task_first[t]].irq;
	}
	bugs_enabled = p->bugs | o->inject;
	memset(&e->main_task, 0, sizeof(e->main_task));
	e->main_task.id = 0;
	e->main_task.exit_jb = &e->jb;

	if (setjmp(e->jb)) {
		current_task = NULL;
		rc = 1;
		goto out;
	}
	if (o->sequential) {
		current_task = &e->main_task;
		if (hdr_run_begin(p))
			run_begin(e, &e->main_task);
		run_sequential(e);
	} else {
		build_policy(e, p, o, &pol);
		e->fs->max_steps = livelock_bound(p, o->max_steps);
		if (hdr_run_begin(p)) {
			rc = begin_on_scheduler(e, (int)config_get(&p->cfg, &ck_cpus));
			if (rc)
				goto out;
		}
		e->fs->trace = o->trace;
		e->fs->ring = ring;
		fsched_set_record(e->fs, o->rec);
		rc = fsched_run(e->fs, p->ntasks, (int)config_get(&p->cfg, &ck_cpus), init, &pol, task_body, e);
		r->trace_hash = e->fs->hash;
		r->steps = e->fs->step;
		r->switches = e->fs->switches;
		r->ndec_fired = e->fs->next_dec;
		r->ntasks = e->fs->ntasks;
		if (!rc)
			rc = finish_on_scheduler(e, (int)config_get(&p->cfg, &ck_cpus), r);
		goto out;
	}
	current_task = &e->main_task;
	finish(e, &e->main_task);
	current_task = NULL;
out:
	handle_run_end();
	shadow_run_end();
	r->outcome = rc ? RUN_VIOLATION : RUN_CLEAN;
	r->v = g_violation;
	r->ops_run = e->ops_run;
	bugs_enabled = 0;
	return 0;
}

int exec_run(struct exec *e, const struct prog *p, const struct run_opts *o, struct run_result *r)
{
	bool ring = o->ring || o->trace;

	if (run_once(e, p, o, r, ring))
		return -1;
	/* A fast run keeps no recent events; the report wants them: replay the
	 * run, exactly, with them. */
	if (r->outcome == RUN_VIOLATION && !ring && !o->sequential)
		return run_once(e, p, o, r, true);
	return 0;
}

void exec_keyed_decisions(const struct exec *e, struct prog *p, bool all)
{
	const struct sched_decision *rec;
	int n = fsched_recorded(e->fs, &rec), i;

	if (n > PROG_MAX_DEC)
		n = PROG_MAX_DEC;
	for (i = 0; i < n; i++) {
		p->dec[i] = rec[i];
		p->dec[i].step = 0;
		p->dec_line[i] = 0;
	}
	/* Decisions still pending when the run ended kept the fallback from
	 * ever starting: the text says so, or its fallback would start early. */
	if (all || (!p->keyed && e->fs->next_dec < p->ndec)) {
		p->fallback_depth = 0;
		p->seed = 0;
	}
	p->ndec = n;
	p->keyed = true;
}

void exec_step_decisions(const struct exec *e, struct prog *p)
{
	const struct sched_decision *rec;
	int n = fsched_recorded(e->fs, &rec), i;
	uint64_t base = 0;

	if (n > PROG_MAX_DEC)
		n = PROG_MAX_DEC;
	for (i = 0; i < n; i++) {
		p->dec[i].step = rec[i].step - base;
		p->dec[i].target = rec[i].target;
		p->dec[i].task = p->dec[i].op = 0;
		p->dec[i].site = p->dec[i].occ = 0;
		base = rec[i].step + 1;
	}
	p->ndec = n;
	p->keyed = false;
}

char *exec_program_text(struct exec *e, const struct prog *prog, const struct run_opts *o,
			const struct run_result *outcome)
{
	struct prog *p = malloc(sizeof(*p));
	struct run_opts ro = *o;
	struct run_result r;
	char *text;

	if (!p)
		return NULL;
	*p = *prog;
	ro.trace = NULL;
	if (o->sched != SCHED_FROM_INPUT) {
		/* what the override chose, as explicit decisions */
		ro.rec = REC_ALL;
		exec_run(e, p, &ro, &r);
		exec_keyed_decisions(e, p, true);
	} else if (!p->keyed && p->ndec) {
		ro.rec = REC_INPUT;
		exec_run(e, p, &ro, &r);
		exec_keyed_decisions(e, p, false);
	} else {
		p->keyed = true;
	}
	p->bugs |= o->inject;
	if (outcome) {
		p->expect = outcome->outcome == RUN_CLEAN ? EXPECT_CLEAN : EXPECT_VIOLATION;
		snprintf(p->expect_sig, sizeof(p->expect_sig), "%s", outcome->v.signature);
	}
	text = prog_print_text(p);
	free(p);
	return text;
}

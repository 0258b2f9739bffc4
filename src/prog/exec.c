// SPDX-License-Identifier: MIT
/*
 * Running a program: each task is a fiber running its operations; after
 * each operation the per-op checks run, and whenever no operation is in
 * flight the quiescent checks run.  At the end the executor frees what the
 * program still holds, drains every pcp and folds every CPU's vmstat, then
 * checks the exact end state.
 *
 * Every page the program holds carries an owner cookie in its memory,
 * checked when it is freed; the executor also knows which handle owns each
 * pfn, so a page handed out twice is caught on the second allocation.
 */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "../check/check.h"
#include "../kernel/percpu.h"

#define COOKIE_MAGIC 0x6d6d667aU	/* "mmfz" */

struct cookie {
	uint32_t magic;
	uint32_t handle;
	uint64_t run;
};

struct handle {
	struct page *page;
	unsigned int order;
	bool live;
};

struct exec {
	struct fsched *fs;
	struct world *w;		/* the current run's, from worlds */
	struct world_cache worlds;
	unsigned long owner_cap;
	const struct prog *p;
	int task_first[PROG_MAX_TASKS], task_n[PROG_MAX_TASKS];
	int alloc_of_op[PROG_MAX_OPS];
	struct handle h[PROG_MAX_ALLOCS];
	int *owner;			/* handle+1 owning each pfn, 0: none */
	bool in_op[PROG_MAX_TASKS];
	int pcp_disabled_zone[PROG_MAX_TASKS];	/* zone+1 this task disabled */
	/* I-PCP-2 holds for a zone unless its current disable raced an
	 * allocation: then the task + 1 that disabled it, else 0 */
	int pcp2_raced_by[MODEL_MAX_ZONES];
	bool in_alloc[PROG_MAX_TASKS];
	unsigned long allocs_started;
	unsigned long disable_allocs[PROG_MAX_TASKS];	/* allocs_started at its disable */
	bool disable_inflight[PROG_MAX_TASKS];		/* an alloc was in flight then */
	int ops_run;
	uint64_t run_no;
	struct task main_task;		/* the scheduler's side: end of run, sequential */
	jmp_buf jb;
	bool no_quiescent;
	unsigned long counters[PROG_MAX_TASKS][4];	/* each task's last read_counters */
};

struct exec *exec_create(void)
{
	struct exec *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->fs = fsched_create(PROG_MAX_TASKS);
	if (!e->fs) {
		free(e);
		return NULL;
	}
	return e;
}

void exec_destroy(struct exec *e)
{
	if (!e)
		return;
	fsched_destroy(e->fs);
	world_cache_destroy(&e->worlds);
	free(e->owner);
	free(e);
}

const struct fsched *exec_sched(const struct exec *e)
{
	return e->fs;
}

static const struct yield_site *op_site(int kind)
{
	switch (kind) {
	case OP_ALLOC_PAGES:
		return YIELD_SITE(YP_OP, "alloc_pages");
	case OP_FREE_PAGES:
		return YIELD_SITE(YP_OP, "free_pages");
	case OP_DRAIN_LOCAL:
		return YIELD_SITE(YP_OP, "drain_local");
	case OP_DRAIN_ALL:
		return YIELD_SITE(YP_OP, "drain_all");
	case OP_ZONE_PCP_DISABLE:
		return YIELD_SITE(YP_OP, "zone_pcp_disable");
	case OP_ZONE_PCP_ENABLE:
		return YIELD_SITE(YP_OP, "zone_pcp_enable");
	case OP_SET_PCP_HIGH_BATCH:
		return YIELD_SITE(YP_OP, "set_pcp_high_batch");
	case OP_MIGRATE:
		return YIELD_SITE(YP_OP, "migrate");
	case OP_READ_COUNTERS:
		return YIELD_SITE(YP_OP, "read_counters");
	default:
		return YIELD_SITE(YP_OP, "vmstat_refresh");
	}
}

/* ---- the program's pages ---- */

/* The executor's bookkeeping is shared by every task fiber: hidden from TSan
 * (tsan_ignore) or relaxed atomics, it is not the model under test. */
static int collect_allocs(struct exec *e, struct check_alloc *a)
{
	int i, n = 0;

	for (i = 0; i < PROG_MAX_ALLOCS; i++)
		if (__atomic_load_n(&e->h[i].live, __ATOMIC_RELAXED)) {
			a[n].pfn = page_to_pfn(e->h[i].page);
			a[n].order = e->h[i].order;
			a[n].handle = i;
			n++;
		}
	return n;
}

static void take_handle(struct exec *e, int hidx, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), i, nr = 1UL << order;
	struct cookie *c = page_address(page);

	for (i = 0; i < nr; i++) {
		int o = __atomic_load_n(&e->owner[pfn + i], __ATOMIC_RELAXED);

		if (o)
			sched_violation("I-CONS", "alloc_pages",
					"pfn %lu handed to h%d while h%d holds it", pfn + i, hidx, o - 1);
	}
	for (i = 0; i < nr; i++)
		__atomic_store_n(&e->owner[pfn + i], hidx + 1, __ATOMIC_RELAXED);
	c->magic = COOKIE_MAGIC;
	c->handle = (uint32_t)hidx;
	c->run = e->run_no;
	e->h[hidx].page = page;
	e->h[hidx].order = order;
	__atomic_store_n(&e->h[hidx].live, true, __ATOMIC_RELAXED);
#if MMFUZZ_TSAN
	/* the program passes the page to whoever frees it: a hand-off with
	 * happens-before, as a real caller's queue or lock would give */
	__tsan_release(&e->h[hidx]);
#endif
}

static void drop_handle(struct exec *e, int hidx)
{
	struct handle *h = &e->h[hidx];
	unsigned long pfn, i, nr;
	const struct cookie *c;

#if MMFUZZ_TSAN
	__tsan_acquire(h);
#endif
	pfn = page_to_pfn(h->page);
	nr = 1UL << h->order;
	c = page_address(h->page);

	if (c->magic != COOKIE_MAGIC || c->handle != (uint32_t)hidx || c->run != e->run_no)
		sched_violation("owner-cookie", "free_pages",
				"pfn %lu (h%d) carries cookie %08x/h%u: someone else wrote it",
				pfn, hidx, c->magic, c->handle);
	for (i = 0; i < nr; i++)
		__atomic_store_n(&e->owner[pfn + i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&h->live, false, __ATOMIC_RELAXED);
	__free_pages(h->page, h->order);
}

/* ---- operations ---- */

static bool alloc_in_flight(const struct exec *e, int self)
{
	int i;

	for (i = 0; i < e->p->ntasks; i++)
		if (i != self && __atomic_load_n(&e->in_alloc[i], __ATOMIC_RELAXED))
			return true;
	return false;
}

/* An alloc overlapping a zone_pcp_disable may refill with the old batch. */
static void note_op_start(struct exec *e, struct task *t, const struct op *op)
{
	if (op->kind == OP_ALLOC_PAGES) {
		__atomic_store_n(&e->in_alloc[t->id], true, __ATOMIC_RELAXED);
		__atomic_fetch_add(&e->allocs_started, 1, __ATOMIC_RELAXED);
	} else if (op->kind == OP_ZONE_PCP_DISABLE && !e->pcp_disabled_zone[t->id]) {
		e->disable_allocs[t->id] = __atomic_load_n(&e->allocs_started, __ATOMIC_RELAXED);
		e->disable_inflight[t->id] = alloc_in_flight(e, t->id);
	}
}

/* Did an allocation overlap this task's zone_pcp_disable() that just ended? */
static bool disable_raced(struct exec *e, struct task *t)
{
	return e->disable_inflight[t->id] || alloc_in_flight(e, t->id) ||
	       __atomic_load_n(&e->allocs_started, __ATOMIC_RELAXED) != e->disable_allocs[t->id];
}

/*
 * zone_pcp_enable() of this task's disable.  Its mutex_unlock may let the
 * next disabler of the zone in and run it to the end before this returns:
 * the race excuse goes only with the disable that earned it, never the
 * next one's.
 */
static void pcp_enable(struct exec *e, struct task *t, int z)
{
	zone_pcp_enable(&e->w->zones[z]);
	e->pcp_disabled_zone[t->id] = 0;
	/* the harness's bookkeeping, shared by the fibers: relaxed atomics */
	if (__atomic_load_n(&e->pcp2_raced_by[z], __ATOMIC_RELAXED) == t->id + 1)
		__atomic_store_n(&e->pcp2_raced_by[z], 0, __ATOMIC_RELAXED);
}

static void exec_op(struct exec *e, struct task *t, const struct op *op, int idx)
{
	struct world *w = e->w;

	note_op_start(e, t, op);
	switch (op->kind) {
	case OP_ALLOC_PAGES: {
		gfp_t gfp = migratetype_gfp(op->arg[1]) | (op->irq ? GFP_ATOMIC : 0);
		struct page *page = alloc_pages(gfp, (unsigned int)op->arg[0]);

		if (page)
			take_handle(e, e->alloc_of_op[idx], page, (unsigned int)op->arg[0]);
		__atomic_store_n(&e->in_alloc[t->id], false, __ATOMIC_RELAXED);
		break;
	}
	case OP_FREE_PAGES:
		if (__atomic_load_n(&e->h[op->arg[0]].live, __ATOMIC_RELAXED))
			drop_handle(e, op->arg[0]);
		break;
	case OP_DRAIN_LOCAL:
		preempt_disable();
		drain_local_pages(NULL);
		preempt_enable();
		break;
	case OP_DRAIN_ALL:
		__drain_all_pages(op->arg[1] < 0 ? NULL : &w->zones[op->arg[1]], op->arg[0]);
		break;
	case OP_ZONE_PCP_DISABLE:
		/* one disable at a time per task: a second would self-deadlock */
		if (e->pcp_disabled_zone[t->id])
			break;
		zone_pcp_disable(&w->zones[op->arg[0]]);
		e->pcp_disabled_zone[t->id] = op->arg[0] + 1;
		if (disable_raced(e, t))
			__atomic_store_n(&e->pcp2_raced_by[op->arg[0]], t->id + 1, __ATOMIC_RELAXED);
		else
			check_pcp_disabled(w, &w->zones[op->arg[0]]);
		break;
	case OP_ZONE_PCP_ENABLE:
		if (e->pcp_disabled_zone[t->id] != op->arg[0] + 1)
			break;
		pcp_enable(e, t, op->arg[0]);
		break;
	case OP_SET_PCP_HIGH_BATCH:
		/* while this task holds pcp_batch_high_lock, nothing to do */
		if (e->pcp_disabled_zone[t->id])
			break;
		zone_pcp_set_high_batch(&w->zones[op->arg[0]], op->arg[1], op->arg[2]);
		break;
	case OP_MIGRATE:
		sched_migrate(t, op->arg[0], YIELD_SITE(YP_POINT, "migrate"));
		break;
	case OP_READ_COUNTERS: {
		struct zone *zone = &w->zones[0];

		e->counters[t->id][0] = zone_page_state(zone, NR_FREE_PAGES);
		e->counters[t->id][1] = zone_page_state_snapshot(zone, NR_FREE_PAGES);
		e->counters[t->id][2] = sum_vm_event(PGALLOC);
		e->counters[t->id][3] = sum_vm_event(PGFREE);
		break;
	}
	case OP_VMSTAT_REFRESH:
		refresh_cpu_vm_stats(true);
		break;
	}
}

static bool quiescent(const struct exec *e, int self)
{
	int i;

	for (i = 0; i < e->p->ntasks; i++)
		if (i != self && __atomic_load_n(&e->in_op[i], __ATOMIC_RELAXED))
			return false;
	return true;
}

/* The zones where I-PCP-2 must hold: every one whose disable did not race. */
static unsigned int pcp2_zones(struct exec *e)
{
	unsigned int mask = ~0u;
	int z;

	for (z = 0; z < MODEL_MAX_ZONES; z++)
		if (__atomic_load_n(&e->pcp2_raced_by[z], __ATOMIC_RELAXED))
			mask &= ~(1u << z);
	return mask;
}

static void after_op(struct exec *e, struct task *t)
{
	__atomic_fetch_add(&e->ops_run, 1, __ATOMIC_RELAXED);
	check_after_op(e->w, t->cpu);
	if (!e->no_quiescent && quiescent(e, t->id)) {
		struct check_alloc a[PROG_MAX_ALLOCS];
		int n;

		tsan_ignore_begin();
		n = collect_allocs(e, a);
		tsan_ignore_end();
		check_quiescent(e->w, a, n, "quiescence", pcp2_zones(e));
	}
}

/* A task that ends with the pcps disabled gives them back. */
static void task_cleanup(struct exec *e, struct task *t)
{
	int z = e->pcp_disabled_zone[t->id];

	if (z)
		pcp_enable(e, t, z - 1);
}

static void task_body(struct task *t, void *arg)
{
	struct exec *e = arg;
	int k, first = e->task_first[t->id];

	for (k = 0; k < e->task_n[t->id]; k++) {
		const struct op *op = &e->p->ops[first + k];

		t->irq_ctx = op->irq;
		sched_op_begin(t, k, op_site(op->kind));
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
	task_cleanup(e, t);
}

/* ---- a run ---- */

static int world_for(struct exec *e, const struct mm_config *cfg)
{
	if (world_get(&e->worlds, cfg, &e->w))
		return -1;
	if (e->w->nr_pages > e->owner_cap) {
		free(e->owner);
		e->owner = calloc(e->w->nr_pages, sizeof(*e->owner));
		if (!e->owner)
			return -1;
		e->owner_cap = e->w->nr_pages;
	}
	memset(e->owner, 0, e->w->nr_pages * sizeof(*e->owner));
	mm_world = e->w;
	check_attach(e->w);
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

/* Free what the program still holds, drain every pcp, fold every CPU. */
static void finish(struct exec *e)
{
	struct task *m = &e->main_task;
	int i, cpu;

	for (i = 0; i < PROG_MAX_ALLOCS; i++)
		if (e->h[i].live)
			drop_handle(e, i);
	__drain_all_pages(NULL, true);
	for (cpu = 0; cpu < e->w->cfg.ncpus; cpu++) {
		m->cpu = cpu;
		refresh_cpu_vm_stats(false);
	}
	m->cpu = 0;
	check_final(e->w, NULL, 0);
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

static int run_once(struct exec *e, const struct prog *p, const struct run_opts *o,
		    struct run_result *r, bool ring)
{
	struct task_init init[PROG_MAX_TASKS];
	struct sched_policy pol;
	int t, i, na = 0;
	volatile int rc = 0;

	memset(r, 0, sizeof(*r));
	violation_reset();
	if (world_for(e, &p->cfg))
		return -1;
	e->p = p;
	e->run_no++;
	e->ops_run = 0;
	e->no_quiescent = o->no_quiescent;
	memset(e->h, 0, sizeof(e->h));
	memset(e->in_op, 0, sizeof(e->in_op));
	memset(e->pcp_disabled_zone, 0, sizeof(e->pcp_disabled_zone));
	memset(e->in_alloc, 0, sizeof(e->in_alloc));
	memset(e->pcp2_raced_by, 0, sizeof(e->pcp2_raced_by));
	e->allocs_started = 0;
	for (i = 0; i < p->nops; i++)
		e->alloc_of_op[i] = p->ops[i].kind == OP_ALLOC_PAGES ? na++ : -1;
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
		run_sequential(e);
	} else {
		build_policy(e, p, o, &pol);
		e->fs->max_steps = o->max_steps;
		e->fs->trace = o->trace;
		e->fs->ring = ring;
		fsched_set_record(e->fs, o->rec);
		rc = fsched_run(e->fs, p->ntasks, p->cfg.ncpus, init, &pol, task_body, e);
		r->trace_hash = e->fs->hash;
		r->steps = e->fs->step;
		r->switches = e->fs->switches;
		r->ndec_fired = e->fs->next_dec;
		if (rc)
			goto out;
		current_task = &e->main_task;
	}
	finish(e);
	current_task = NULL;
out:
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

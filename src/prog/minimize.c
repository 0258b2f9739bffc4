// SPDX-License-Identifier: MIT
/*
 * Structure-aware minimization of a failing program.  Every candidate is a
 * whole program (config, tasks, ops, keyed decisions) and is kept only if
 * it fails with the same signature.  Removing an op renumbers what refers
 * to it: the frees of a removed alloc go too, decisions keyed to later ops
 * of the task move down, decisions keyed to the op itself go.
 */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

struct minimizer {
	struct exec *e;
	struct run_opts o;
	char sig[128];
	int runs, max_runs;
};

static bool still_fails(struct minimizer *m, const struct prog *cand)
{
	struct run_result r;

	if (m->runs >= m->max_runs)
		return false;
	m->runs++;
	if (exec_run(m->e, cand, &m->o, &r))
		return false;
	return r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, m->sig);
}

/* Delete the ops marked in @del (and the frees of deleted allocs). */
static void remove_ops(struct prog *p, bool *del)
{
	int new_alloc[PROG_MAX_OPS], map[PROG_MAX_TASKS][PROG_MAX_OPS + 1];
	int nold[PROG_MAX_TASKS] = { 0 }, nnew[PROG_MAX_TASKS] = { 0 };
	int i, n = 0, na = 0, nd = 0, a_of_op[PROG_MAX_OPS], alloc_op[PROG_MAX_ALLOCS];

	for (i = 0; i < p->nops; i++) {
		a_of_op[i] = p->ops[i].kind == OP_ALLOC_PAGES ? na++ : -1;
		if (a_of_op[i] >= 0)
			alloc_op[a_of_op[i]] = i;
	}
	for (i = 0; i < p->nops; i++)
		if (p->ops[i].kind == OP_FREE_PAGES && del[alloc_op[p->ops[i].arg[0]]])
			del[i] = true;
	na = 0;
	for (i = 0; i < p->nops; i++)
		new_alloc[i] = a_of_op[i] >= 0 && !del[i] ? na++ : -1;
	for (i = 0; i < p->nops; i++) {
		int t = p->ops[i].task;

		map[t][nold[t]++] = del[i] ? -1 : nnew[t]++;
	}
	for (i = 0; i < PROG_MAX_TASKS; i++)
		map[i][nold[i]] = nnew[i];	/* the exit */
	for (i = 0; i < p->nops; i++) {
		struct op op = p->ops[i];

		if (del[i])
			continue;
		if (op.kind == OP_FREE_PAGES)
			op.arg[0] = (short)new_alloc[alloc_op[op.arg[0]]];
		p->ops[n++] = op;
	}
	p->nops = n;
	for (i = 0; i < p->ndec; i++) {
		struct sched_decision d = p->dec[i];

		if (d.task >= 0) {
			if (d.op > nold[d.task] || map[d.task][d.op] < 0)
				continue;
			d.op = (short)map[d.task][d.op];
		}
		p->dec[nd++] = d;
	}
	p->ndec = nd;
}

static void remove_task(struct prog *p, int t)
{
	bool del[PROG_MAX_OPS] = { false };
	int i, nd = 0;

	for (i = 0; i < p->nops; i++)
		del[i] = p->ops[i].task == t;
	remove_ops(p, del);
	for (i = 0; i < p->nops; i++)
		if (p->ops[i].task > t)
			p->ops[i].task--;
	for (i = t; i + 1 < p->ntasks; i++)
		p->task_cpu[i] = p->task_cpu[i + 1];
	p->ntasks--;
	for (i = 0; i < p->ndec; i++) {
		struct sched_decision d = p->dec[i];

		if (d.task == t || d.target == t)
			continue;
		if (d.task > t)
			d.task--;
		if (d.target > t)
			d.target--;
		p->dec[nd++] = d;
	}
	p->ndec = nd;
}

static bool try_candidate(struct minimizer *m, struct prog *p, const struct prog *cand)
{
	if (!still_fails(m, cand))
		return false;
	*p = *cand;
	return true;
}

static bool pass_tasks(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int t;

	for (t = p->ntasks - 1; t >= 0 && p->ntasks > 1; t--) {
		*c = *p;
		remove_task(c, t);
		changed |= try_candidate(m, p, c);
	}
	return changed;
}

static bool pass_ops(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i;

	for (i = p->nops - 1; i >= 0; i--) {
		bool del[PROG_MAX_OPS] = { false };

		if (i >= p->nops)
			continue;
		*c = *p;
		del[i] = true;
		remove_ops(c, del);
		changed |= try_candidate(m, p, c);
	}
	return changed;
}

static bool pass_decisions(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i;

	for (i = p->ndec - 1; i >= 0; i--) {
		if (i >= p->ndec)
			continue;
		*c = *p;
		memmove(&c->dec[i], &c->dec[i + 1], (size_t)(c->ndec - i - 1) * sizeof(c->dec[0]));
		c->ndec--;
		changed |= try_candidate(m, p, c);
	}
	return changed;
}

/* Smaller arguments: order 0, no irq, smaller high/batch, plain drains. */
static bool pass_args(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i;

	for (i = 0; i < p->nops; i++) {
		struct op *op;

		*c = *p;
		op = &c->ops[i];
		if (op->irq) {
			op->irq = false;
			if (try_candidate(m, p, c)) {
				changed = true;
				continue;
			}
			*c = *p;
			op = &c->ops[i];
		}
		switch (op->kind) {
		case OP_ALLOC_PAGES:
			if (op->arg[0] > 0) {
				op->arg[0] = 0;
				if (!try_candidate(m, p, c) && p->ops[i].arg[0] > 1) {
					*c = *p;
					c->ops[i].arg[0]--;
					changed |= try_candidate(m, p, c);
				} else {
					changed = true;
				}
			}
			break;
		case OP_DRAIN_ALL:
			if (op->arg[0]) {
				op->arg[0] = 0;
				changed |= try_candidate(m, p, c);
			}
			break;
		case OP_SET_PCP_HIGH_BATCH:
			if (op->arg[1] > 0) {
				op->arg[1] /= 2;
				changed |= try_candidate(m, p, c);
			}
			*c = *p;
			if (c->ops[i].arg[2] > 1) {
				c->ops[i].arg[2] /= 2;
				if (!c->ops[i].arg[2])
					c->ops[i].arg[2] = 1;
				changed |= try_candidate(m, p, c);
			}
			break;
		}
	}
	return changed;
}

/* A smaller machine: fewer CPUs, fewer max-order blocks, one zone. */
static bool pass_config(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	unsigned long blocks = p->cfg.zone_pages >> p->cfg.max_order;
	int i, need_cpus = 1, need_zones = 1;

	for (i = 0; i < p->ntasks; i++)
		if (p->task_cpu[i] + 1 > need_cpus)
			need_cpus = p->task_cpu[i] + 1;
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		if (op->kind == OP_MIGRATE && op->arg[0] + 1 > need_cpus)
			need_cpus = op->arg[0] + 1;
		if ((op->kind == OP_ZONE_PCP_DISABLE || op->kind == OP_ZONE_PCP_ENABLE ||
		     op->kind == OP_SET_PCP_HIGH_BATCH) && op->arg[0] > 0)
			need_zones = 2;
		if (op->kind == OP_DRAIN_ALL && op->arg[1] > 0)
			need_zones = 2;
	}
	if (p->cfg.ncpus > need_cpus) {
		*c = *p;
		c->cfg.ncpus = need_cpus;
		changed |= try_candidate(m, p, c);
	}
	if (p->cfg.nzones > need_zones) {
		*c = *p;
		c->cfg.nzones = need_zones;
		changed |= try_candidate(m, p, c);
	}
	if (blocks > 1) {
		*c = *p;
		c->cfg.zone_pages = (blocks / 2) << p->cfg.max_order;
		changed |= try_candidate(m, p, c);
	}
	/* a lower vmstat threshold folds sooner: fewer ops reach a fold */
	if (p->cfg.stat_threshold > 1) {
		*c = *p;
		c->cfg.stat_threshold = 1;
		changed |= try_candidate(m, p, c);
	}
	return changed;
}

int prog_minimize(struct exec *e, struct prog *p, const struct run_opts *o, int max_runs,
		  struct min_stats *st)
{
	struct minimizer m = { e, *o, "", 0, max_runs };
	struct prog *c = malloc(sizeof(*c));
	struct run_opts rec = *o;
	struct run_result r;
	bool changed;

	if (!c)
		return -1;
	memset(st, 0, sizeof(*st));
	st->ops_before = p->nops;
	st->tasks_before = p->ntasks;
	/* the failing run, with every choice recorded */
	rec.rec = REC_ALL;
	rec.trace = NULL;
	exec_run(e, p, &rec, &r);
	if (r.outcome != RUN_VIOLATION) {
		free(c);
		return -1;
	}
	snprintf(m.sig, sizeof(m.sig), "%s", r.v.signature);
	exec_keyed_decisions(e, p, true);
	p->bugs |= o->inject;
	m.o.inject = 0;
	m.o.sched = SCHED_FROM_INPUT;
	m.o.rec = REC_NONE;
	m.o.trace = NULL;
	do {
		changed = pass_tasks(&m, p, c);
		changed |= pass_ops(&m, p, c);
		changed |= pass_decisions(&m, p, c);
		changed |= pass_args(&m, p, c);
		changed |= pass_config(&m, p, c);
	} while (changed && m.runs < m.max_runs);
	free(c);

	exec_run(e, p, &m.o, &r);
	st->preemptions = (int)exec_sched(e)->preemptions;
	st->ops = p->nops;
	st->tasks = p->ntasks;
	st->decisions = p->ndec;
	st->runs = m.runs;
	snprintf(st->signature, sizeof(st->signature), "%s", m.sig);
	p->expect = EXPECT_VIOLATION;
	snprintf(p->expect_sig, sizeof(p->expect_sig), "%s", m.sig);
	return r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, m.sig) ? 0 : -1;
}

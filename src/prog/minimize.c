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
#include <time.h>

struct minimizer {
	struct exec *e;
	struct run_opts o;
	char sig[128];
	int runs, max_runs;
	struct timespec deadline;	/* tv_sec 0: none */
	bool out_of_time;
	/* the steps of the current program's run, and of the last candidate's */
	uint64_t cur_steps, last_steps;
	/* config keys the minimizer itself moved off their defaults */
	bool shrunk[MM_CONFIG_MAX];
};

static bool past(const struct timespec *d)
{
	struct timespec now;

	if (!d->tv_sec)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > d->tv_sec || (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static bool still_fails(struct minimizer *m, const struct prog *cand)
{
	struct run_result r;

	if (m->runs >= m->max_runs || m->out_of_time)
		return false;
	if (past(&m->deadline)) {
		m->out_of_time = true;
		return false;
	}
	m->runs++;
	if (exec_run(m->e, cand, &m->o, &r))
		return false;
	m->last_steps = r.steps;
	return r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, m->sig);
}

/* Delete the ops marked in @del, and the uses of handles they defined
 * (and, in turn, the uses of what those defined). */
static void remove_ops(struct prog *p, bool *del)
{
	int map[PROG_MAX_TASKS][PROG_MAX_OPS + 1], def_op[PROG_MAX_OPS];
	int nold[PROG_MAX_TASKS] = { 0 }, nnew[PROG_MAX_TASKS] = { 0 };
	int i, k, n = 0, nd = 0;
	bool changed = true;

	for (i = 0; i < p->nops; i++)
		def_op[i] = -1;
	while (changed) {
		changed = false;
		for (i = 0; i < p->nops; i++) {
			const struct op_desc *d = op_desc_of(&p->ops[i]);

			for (k = 0; k < d->nargs && !del[i]; k++)
				if (d->args[k].kind == ARG_HANDLE &&
				    (prog_handle_op(p, d->args[k].hk, p->ops[i].arg[k]) < 0 ||
				     del[prog_handle_op(p, d->args[k].hk, p->ops[i].arg[k])])) {
					del[i] = true;
					changed = true;
				}
		}
	}
	/* each handle use, as the op defining it */
	{
		static short use[PROG_MAX_OPS][OP_MAX_ARGS];
		int newnum[PROG_MAX_OPS], cnt[16] = { 0 };

		for (i = 0; i < p->nops; i++) {
			const struct op_desc *d = op_desc_of(&p->ops[i]);

			for (k = 0; k < d->nargs; k++)
				if (d->args[k].kind == ARG_HANDLE)
					use[i][k] = (short)prog_handle_op(p, d->args[k].hk, p->ops[i].arg[k]);
			newnum[i] = d->defines && !del[i] ? cnt[handle_kind_index(d->defines)]++ : -1;
			def_op[i] = newnum[i];
		}
		for (i = 0; i < p->nops; i++) {
			int t = p->ops[i].task;

			map[t][nold[t]++] = del[i] ? -1 : nnew[t]++;
		}
		for (i = 0; i < PROG_MAX_TASKS; i++)
			map[i][nold[i]] = nnew[i];	/* the exit */
		for (i = 0; i < p->nops; i++) {
			struct op op = p->ops[i];
			const struct op_desc *d = op_desc_of(&op);

			if (del[i])
				continue;
			for (k = 0; k < d->nargs; k++)
				if (d->args[k].kind == ARG_HANDLE)
					op.arg[k] = def_op[use[i][k]];
			p->ops[n++] = op;
		}
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
	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);

		if (s->task_removed)
			s->task_removed(prog_area(p, s), p, t);
	}
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
	m->cur_steps = m->last_steps;
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

/* Smaller header sections: each section's candidates (the TLB layer's:
 * each task the header names, out of its mm). */
static bool pass_sections(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i, k, rc;

	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);

		for (k = 0; s->shrink; k++) {
			*c = *p;
			rc = s->shrink(prog_area(c, s), c, k);
			if (!rc)
				break;
			if (rc > 0)
				changed |= try_candidate(m, p, c);
		}
	}
	return changed;
}

/* The next smaller value to try for an argument, or @v itself. */
static int smaller_arg(const struct op_arg *a, int v, int round)
{
	switch (a->kind) {
	case ARG_INT:
		if (v <= a->lo)
			return v;
		return round == 0 ? a->lo : round == 1 ? a->lo + (v - a->lo) / 2 : v - 1;
	case ARG_ZONE:
	case ARG_CPU:
		return v > 0 ? 0 : v;
	case ARG_FLAGS:
		return a->has_def ? a->def : 0;
	default:
		return v;
	}
}

/* Smaller arguments: no irq, each argument toward its smallest value. */
static bool pass_args(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i, k, round;

	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		if (p->ops[i].irq) {
			*c = *p;
			c->ops[i].irq = false;
			changed |= try_candidate(m, p, c);
		}
		for (k = 0; k < d->nargs; k++)
			for (round = 0; round < 3; round++) {
				int v = smaller_arg(&d->args[k], p->ops[i].arg[k], round);

				if (v == p->ops[i].arg[k])
					continue;
				*c = *p;
				c->ops[i].arg[k] = v;
				if (try_candidate(m, p, c)) {
					changed = true;
					break;
				}
			}
	}
	return changed;
}

/*
 * The config: each key off its default first tries its default (then the
 * text says nothing of it: a page allocator finding keeps no TLB key the
 * fuzzer mutated).  A key the table marks shrinkable then goes toward its
 * smallest value, a smaller machine, but only where the run gets shorter
 * with it: a key the program never reads stays at its default.  A key this
 * pass shrank is not tried at its default again (that would undo it).
 */
static bool config_fits(struct prog *c)
{
	char buf[160];

	return !config_check(&c->cfg, NULL, buf, sizeof(buf)) &&
	       !prog_fits_config(c, &c->cfg, buf, sizeof(buf));
}

static bool pass_config(struct minimizer *m, struct prog *p, struct prog *c)
{
	bool changed = false;
	int i, round;

	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);
		long v = config_get(&p->cfg, k);

		if (v != k->def && !m->shrunk[i]) {
			*c = *p;
			config_set(&c->cfg, k, k->def);
			if (config_fits(c) && try_candidate(m, p, c)) {
				changed = true;
				continue;
			}
		}
		if (!k->shrink)
			continue;
		for (round = 0; round < 2; round++) {
			long lo, hi, unit, nv;
			uint64_t steps = m->cur_steps;

			v = config_get(&p->cfg, k);
			config_range(&p->cfg, k, &lo, &hi, &unit);
			nv = round == 0 ? lo : lo + (v - lo) / unit / 2 * unit;
			if (nv >= v)
				continue;
			*c = *p;
			config_set(&c->cfg, k, nv);
			if (!config_fits(c) || !still_fails(m, c) || m->last_steps >= steps)
				continue;
			*p = *c;
			m->cur_steps = m->last_steps;
			m->shrunk[i] = true;
			changed = true;
			break;
		}
	}
	return changed;
}

int prog_minimize_budget(struct exec *e, struct prog *p, const struct run_opts *o, int max_runs,
			 unsigned seconds, struct min_stats *st)
{
	struct minimizer m = { .e = e, .o = *o, .max_runs = max_runs };
	struct prog *c = malloc(sizeof(*c));
	struct run_opts rec = *o;
	struct run_result r;
	bool changed;

	if (!c)
		return -1;
	if (seconds) {
		clock_gettime(CLOCK_MONOTONIC, &m.deadline);
		m.deadline.tv_sec += seconds;
	}
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
	if (still_fails(&m, p))
		m.cur_steps = m.last_steps;
	do {
		changed = pass_tasks(&m, p, c);
		changed |= pass_ops(&m, p, c);
		changed |= pass_decisions(&m, p, c);
		changed |= pass_sections(&m, p, c);
		changed |= pass_args(&m, p, c);
		changed |= pass_config(&m, p, c);
	} while (changed && m.runs < m.max_runs && !m.out_of_time);
	free(c);

	exec_run(e, p, &m.o, &r);
	st->preemptions = (int)exec_sched(e)->preemptions;
	st->ops = p->nops;
	st->tasks = p->ntasks;
	st->decisions = p->ndec;
	st->runs = m.runs;
	st->out_of_time = m.out_of_time;
	snprintf(st->signature, sizeof(st->signature), "%s", m.sig);
	p->expect = EXPECT_VIOLATION;
	snprintf(p->expect_sig, sizeof(p->expect_sig), "%s", m.sig);
	/* what TSan reports on the smaller program, nothing here ran */
	p->expect_tsan_race = false;
	return r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, m.sig) ? 0 : -1;
}

int prog_minimize(struct exec *e, struct prog *p, const struct run_opts *o, int max_runs,
		  struct min_stats *st)
{
	return prog_minimize_budget(e, p, o, max_runs, 0, st);
}

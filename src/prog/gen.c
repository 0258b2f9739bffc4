// SPDX-License-Identifier: MIT
/*
 * The program generator and its mutations (gen.h): programs built from the
 * op descriptors and the relations they declare, .defines (an op makes a
 * handle of a kind), ARG_HANDLE with .hk (uses one) and .frees (ends it),
 * ARG_ZONE and ARG_CPU (share a zone, a CPU).  Random bytes meet two tasks
 * on one object only when a handle byte happens to name another task's
 * handle; here most uses do, by construction.
 */
#include <string.h>

#include "gen.h"

/* chances out of 4 of the related choice over the uniform one */
#define GEN_RELATED	3

struct gen {
	const struct fuzz_target *t;
	struct prog *p;
	uint64_t *r;
	int hot_zone;
	const struct op_desc *pool[OP_CODES];
	int npool;
};

static unsigned gen_below(struct gen *g, unsigned n)
{
	return n ? (unsigned)(rng_next(g->r) % n) : 0;
}

static bool gen_chance(struct gen *g, unsigned k, unsigned of)
{
	return gen_below(g, of) < k;
}

static void gen_setup(struct gen *g, struct prog *p, const struct fuzz_target *t, uint64_t *r)
{
	int i;

	g->t = t ? t : target_default();
	g->p = p;
	g->r = r;
	g->npool = 0;
	for (i = 0; i < ops_count(); i++)
		if (target_has(g->t, op_by_index(i)))
			g->pool[g->npool++] = op_by_index(i);
	g->hot_zone = 0;
}

/* Does op @d take a handle of kind @hk? */
static bool uses_kind(const struct op_desc *d, const struct handle_kind *hk)
{
	int a;

	for (a = 0; a < d->nargs; a++)
		if (d->args[a].kind == ARG_HANDLE && d->args[a].hk == hk)
			return true;
	return false;
}

static bool has_handle_arg(const struct op_desc *d)
{
	int a;

	for (a = 0; a < d->nargs; a++)
		if (d->args[a].kind == ARG_HANDLE)
			return true;
	return false;
}

/* A random op of the pool that defines @hk (or, @hk NULL and @use set,
 * that uses it), or NULL. */
static const struct op_desc *pick_op(struct gen *g, const struct handle_kind *def,
				     const struct handle_kind *use)
{
	const struct op_desc *c[OP_CODES];
	int i, n = 0;

	for (i = 0; i < g->npool; i++)
		if ((!def || g->pool[i]->defines == def) && (!use || uses_kind(g->pool[i], use)))
			c[n++] = g->pool[i];
	return n ? c[gen_below(g, (unsigned)n)] : NULL;
}

/* A kind the pool both makes and uses, or NULL; with @defined, only one
 * the program already holds a handle of. */
static const struct handle_kind *pick_kind(struct gen *g, bool defined)
{
	const struct handle_kind *c[OP_CODES];
	int k, n = 0;

	for (k = 0; k < handle_kinds_count(); k++) {
		const struct handle_kind *hk = handle_kind_by_index(k);

		if (!pick_op(g, hk, NULL) || !pick_op(g, NULL, hk))
			continue;
		if (defined && !prog_nhandles(g->p, hk))
			continue;
		c[n++] = hk;
	}
	return n ? c[gen_below(g, (unsigned)n)] : NULL;
}

/* The task of handle @h of @hk (-1: none). */
static int handle_task(const struct prog *p, const struct handle_kind *hk, int h)
{
	int i = prog_handle_op(p, hk, h);

	return i < 0 ? -1 : p->ops[i].task;
}

/* Has an op already ended handle @h of @hk? */
static bool handle_freed(const struct prog *p, const struct handle_kind *hk, int h)
{
	int i, a;

	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		for (a = 0; a < d->nargs; a++)
			if (d->args[a].kind == ARG_HANDLE && d->args[a].hk == hk &&
			    d->args[a].frees && p->ops[i].arg[a] == h)
				return true;
	}
	return false;
}

/* A handle of @hk for an op of @task: mostly another task's, and for a
 * free one nobody freed yet; -1 if the program has none. */
static int pick_handle(struct gen *g, const struct handle_kind *hk, int task, bool frees)
{
	int n = prog_nhandles(g->p, hk), c[PROG_MAX_OPS], nc = 0, h;

	if (!n)
		return -1;
	if (gen_chance(g, GEN_RELATED, 4)) {
		for (h = 0; h < n; h++)
			if (handle_task(g->p, hk, h) != task && !(frees && handle_freed(g->p, hk, h)))
				c[nc++] = h;
		if (nc)
			return c[gen_below(g, (unsigned)nc)];
	}
	return (int)gen_below(g, (unsigned)n);
}

/* Another task than @task (itself when there is only one). */
static int other_task(struct gen *g, int task)
{
	if (g->p->ntasks < 2)
		return task;
	return (task + 1 + (int)gen_below(g, (unsigned)g->p->ntasks - 1)) % g->p->ntasks;
}

/* Op @d's args for task @task; a handle arg of @hk gets @h (when >= 0).
 * False if a handle arg has no handle. */
static bool fill_args(struct gen *g, struct op *op, const struct op_desc *d, int task,
		      const struct handle_kind *hk, int h)
{
	const struct mm_config *cfg = &g->p->cfg;
	int a;

	memset(op, 0, sizeof(*op));
	op->code = d->code;
	op->task = (unsigned char)task;
	op->irq = d->irq_ok && gen_chance(g, 1, 8);
	for (a = 0; a < d->nargs; a++) {
		const struct op_arg *x = &d->args[a];
		int lo = arg_lo(x), hi = arg_hi(x, cfg), v;

		switch (x->kind) {
		case ARG_HANDLE:
			if (hk == x->hk && h >= 0) {
				v = h;
				h = -1;		/* the next arg of the kind picks its own */
			} else {
				v = pick_handle(g, x->hk, task, x->frees);
			}
			if (v < 0)
				return false;
			break;
		case ARG_ZONE:
			v = gen_chance(g, GEN_RELATED, 4) && g->hot_zone <= hi ? g->hot_zone
				: lo + (int)gen_below(g, (unsigned)(hi - lo + 1));
			break;
		case ARG_CPU:
			v = g->p->task_cpu[other_task(g, task)];
			if (!gen_chance(g, GEN_RELATED, 4) || v > hi)
				v = lo + (int)gen_below(g, (unsigned)(hi - lo + 1));
			break;
		case ARG_INT:
			/* the ends of a range are where the edges are */
			switch (gen_below(g, 4)) {
			case 0: v = lo; break;
			case 1: v = hi; break;
			default: v = lo + (int)gen_below(g, (unsigned)(hi - lo + 1)); break;
			}
			break;
		default:
			v = arg_from_raw(x, (unsigned)rng_next(g->r), cfg);
			break;
		}
		if (!arg_valid(x, v, cfg) && x->kind != ARG_HANDLE)
			v = x->has_def ? x->def : lo;
		op->arg[a] = v;
	}
	return true;
}

/*
 * Insert @op at @pos (inside its task's run of ops): its uses and every
 * other op's are in the numbering before it; when it defines a handle,
 * the uses of the handles after it move up by one.
 */
static bool insert_op(struct prog *p, int pos, const struct op *op)
{
	const struct handle_kind *hk = op_desc_of(op)->defines;
	int i, a, idx = 0;

	if (p->nops >= PROG_MAX_OPS)
		return false;
	memmove(&p->ops[pos + 1], &p->ops[pos], (size_t)(p->nops - pos) * sizeof(p->ops[0]));
	p->ops[pos] = *op;
	p->nops++;
	if (!hk)
		return true;
	for (i = 0; i < pos; i++)
		idx += op_desc_of(&p->ops[i])->defines == hk;
	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		for (a = 0; a < d->nargs; a++)
			if (d->args[a].kind == ARG_HANDLE && d->args[a].hk == hk &&
			    p->ops[i].arg[a] >= idx)
				p->ops[i].arg[a]++;
	}
	return true;
}

/* A place in task @task's run of ops (the program is grouped by task). */
static int task_pos(struct gen *g, int task)
{
	int first, n = prog_task_ops(g->p, task, &first), i;

	if (!n)
		for (first = 0, i = 0; i < g->p->nops; i++)
			first += g->p->ops[i].task < task;
	return first + (int)gen_below(g, (unsigned)n + 1);
}

/* The index @pos's op will have among its kind's handles. */
static int handle_index_at(const struct prog *p, const struct handle_kind *hk, int pos)
{
	int i, n = 0;

	for (i = 0; i < pos; i++)
		n += op_desc_of(&p->ops[i])->defines == hk;
	return n;
}

/* A use of a live handle of a made kind, in another task than its maker. */
static bool mut_insert(struct gen *g)
{
	const struct handle_kind *hk = pick_kind(g, true);
	const struct op_desc *d;
	struct op op;
	int h, task, a, tries;

	if (!hk)
		return false;
	/* a free ends a handle nobody ended yet, or another op uses it */
	for (tries = 0; tries < 8; tries++) {
		bool frees = false;

		d = pick_op(g, NULL, hk);
		for (a = 0; a < d->nargs; a++)
			frees |= d->args[a].kind == ARG_HANDLE && d->args[a].hk == hk &&
				 d->args[a].frees;
		h = (int)gen_below(g, (unsigned)prog_nhandles(g->p, hk));
		if (!frees || !handle_freed(g->p, hk, h))
			break;
	}
	if (tries == 8)
		return false;	/* only ends of ended handles: none */
	task = other_task(g, handle_task(g->p, hk, h));
	if (!fill_args(g, &op, d, task, hk, h))
		return false;
	return insert_op(g->p, task_pos(g, task), &op);
}

/* A handle arg names another handle of its kind, another task's first. */
static bool mut_retarget(struct gen *g)
{
	int cand[PROG_MAX_OPS], n = 0, i, a;
	const struct op_desc *d;

	for (i = 0; i < g->p->nops; i++)
		if (has_handle_arg(op_desc_of(&g->p->ops[i])))
			cand[n++] = i;
	if (!n)
		return false;
	i = cand[gen_below(g, (unsigned)n)];
	d = op_desc_of(&g->p->ops[i]);
	do
		a = (int)gen_below(g, (unsigned)d->nargs);
	while (d->args[a].kind != ARG_HANDLE);
	n = pick_handle(g, d->args[a].hk, g->p->ops[i].task, false);
	if (n < 0 || n == g->p->ops[i].arg[a])
		return false;
	g->p->ops[i].arg[a] = n;
	return true;
}

/* A producer in one task and a consumer of what it makes in another. */
static bool mut_splice(struct gen *g)
{
	const struct handle_kind *hk = pick_kind(g, false);
	const struct op_desc *pd, *cd;
	struct op op;
	int ta, tb, pos, h;

	if (!hk || g->p->nops + 2 > PROG_MAX_OPS)
		return false;
	pd = pick_op(g, hk, NULL);
	cd = pick_op(g, NULL, hk);
	ta = (int)gen_below(g, (unsigned)g->p->ntasks);
	tb = other_task(g, ta);
	if (!fill_args(g, &op, pd, ta, NULL, -1))
		return false;
	pos = task_pos(g, ta);
	h = handle_index_at(g->p, hk, pos);
	insert_op(g->p, pos, &op);
	/* the pair's consumer is the point; without it the producer stays */
	if (fill_args(g, &op, cd, tb, hk, h))
		insert_op(g->p, task_pos(g, tb), &op);
	return true;
}

bool gen_mutate(struct prog *p, const struct fuzz_target *t, uint64_t *rng, int m)
{
	struct gen g;
	bool ok;

	if (p->ntasks < 1 || p->ntasks > PROG_MAX_TASKS)
		return false;
	gen_setup(&g, p, t, rng);
	if (p->nops)
		g.hot_zone = -1;	/* below: the zone the program names first */
	for (int i = 0; i < p->nops && g.hot_zone < 0; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		for (int a = 0; a < d->nargs; a++)
			if (d->args[a].kind == ARG_ZONE && p->ops[i].arg[a] >= 0) {
				g.hot_zone = p->ops[i].arg[a];
				break;
			}
	}
	if (g.hot_zone < 0)
		g.hot_zone = 0;
	if (m < 0)
		m = (int)gen_below(&g, GEN_NMUTATIONS);
	switch (m) {
	case GEN_INSERT: ok = mut_insert(&g); break;
	case GEN_RETARGET: ok = mut_retarget(&g); break;
	default: ok = mut_splice(&g); break;
	}
	prog_canonicalize(p);
	return ok;
}

void gen_program(struct prog *p, const struct fuzz_target *t, uint64_t seed, int nops)
{
	uint64_t r = rng_seed(seed);
	struct gen g;
	long cpus;
	int i, want, tries;

	prog_init(p);
	gen_setup(&g, p, t, &r);
	cpus = arg_hi(&(struct op_arg){ .kind = ARG_CPU }, &p->cfg) + 1;
	p->ntasks = 2 + (int)gen_below(&g, 3);
	for (i = 0; i < p->ntasks; i++) {
		p->task_cpu[i] = i % (int)cpus;
		/* two tasks on one CPU: one's irq op interrupts the other */
		if (i && gen_chance(&g, 1, 4))
			p->task_cpu[i] = p->task_cpu[gen_below(&g, (unsigned)i)];
	}
	g.hot_zone = (int)gen_below(&g, (unsigned)arg_hi(&(struct op_arg){ .kind = ARG_ZONE },
							      &p->cfg) + 1);
	want = nops > 0 ? nops : 8 + (int)gen_below(&g, 17);
	if (want > PROG_MAX_OPS)
		want = PROG_MAX_OPS;
	for (tries = 0; p->nops < want && tries < 8 * want; tries++) {
		const struct handle_kind *hk;
		const struct op_desc *d;
		struct op op;
		int task = (int)gen_below(&g, (unsigned)p->ntasks);
		unsigned mode = gen_below(&g, 10);

		if (mode < 4 && pick_kind(&g, true)) {
			mut_insert(&g);		/* a use of a live handle, cross-task */
			continue;
		}
		if (mode < 6 && (hk = pick_kind(&g, false))) {
			d = pick_op(&g, hk, NULL);	/* something to use later */
		} else {
			d = g.pool[gen_below(&g, (unsigned)g.npool)];
		}
		if (!fill_args(&g, &op, d, task, NULL, -1)) {
			/* its handle kind first, made by another task */
			const struct handle_kind *need = NULL;

			for (i = 0; i < d->nargs && !need; i++)
				if (d->args[i].kind == ARG_HANDLE && !prog_nhandles(p, d->args[i].hk))
					need = d->args[i].hk;
			if (need && pick_op(&g, need, NULL)) {
				const struct op_desc *pd = pick_op(&g, need, NULL);
				struct op pop;
				int ta = other_task(&g, task);

				if (fill_args(&g, &pop, pd, ta, NULL, -1))
					insert_op(p, task_pos(&g, ta), &pop);
			}
			continue;
		}
		insert_op(p, task_pos(&g, task), &op);
	}
	p->fallback_depth = 1 + (int)gen_below(&g, 3);
	p->seed = (uint32_t)rng_next(&r);
	prog_canonicalize(p);
}

bool gen_cross_task(const struct prog *p)
{
	int i, a;

	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		for (a = 0; a < d->nargs; a++) {
			int n, def;

			if (d->args[a].kind != ARG_HANDLE)
				continue;
			n = prog_nhandles(p, d->args[a].hk);
			if (!n)
				continue;
			def = prog_handle_op(p, d->args[a].hk, p->ops[i].arg[a] % n);
			if (def >= 0 && p->ops[def].task != p->ops[i].task)
				return true;
		}
	}
	return false;
}

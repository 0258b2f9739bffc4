// SPDX-License-Identifier: MIT
/*
 * The registries of operation descriptors, handle kinds, operation layers
 * and fuzz targets, and the canonical form of a program.
 */
#include "prog.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_ops);
REGISTRY_SECTION(mmfuzz_oplayers);
REGISTRY_SECTION(mmfuzz_targets);

const struct op_desc *op_table[OP_CODES];
static const struct op_desc *by_index[OP_CODES];
static int nops_total;
static const struct handle_kind *hkinds[16];
static int nhkinds;
static struct op_layer *oplayers[MAX_OP_LAYERS];
static int noplayers;
#define MAX_TARGETS	16
static const struct fuzz_target *targets[MAX_TARGETS];
static int ntargets;
/* Looked up at every decode, so built once from the registries: each
 * code's operation layer (NULL: no descriptor, or none of that name) and
 * each registered target's fold of every code (target_fold). */
static const struct op_layer *code_layer[OP_CODES];
static unsigned char target_folded[MAX_TARGETS][OP_CODES];
static unsigned target_fold_slow(const struct fuzz_target *t, unsigned code);
static pthread_once_t ops_once = PTHREAD_ONCE_INIT;

/* "mm": every operation; codes nobody has fold onto the page allocator's
 * first ten, the operations every program had when the codes were fixed. */
static const unsigned char mm_fold[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const struct fuzz_target mm_target = {
	.name = "mm", .desc = "every operation the model has",
	.layers = NULL, .fold = mm_fold, .nfold = (int)sizeof(mm_fold),
};
FUZZ_TARGET(mm_target);

/*
 * "all": every operation, the default campaign's target.  Its fold list is
 * built from the registry at start (all_fold_build): every layer (the
 * descriptors' .layer, in the order of its lowest code) gets the same number
 * of entries, so a byte that is no operation of the model means an operation
 * of each layer equally often.  A layer's entries are its own target's fold
 * list (the target named after the layer) with the other layers' codes left
 * out, or its operations in code order when it has no target, repeated to the
 * longest layer's length and interleaved layer by layer.  The list is a
 * function of the registered descriptors and layer targets alone: the same
 * tree gives the same meaning to every byte; a new layer or operation changes
 * the meaning of the folded codes of an old "all" corpus (docs/formats.md).
 */
static unsigned char all_fold[OP_CODES];
static struct fuzz_target all_target = {
	.name = "all", .desc = "every operation, each layer an equal share of the folded codes",
	.layers = NULL, .fold = all_fold, .nfold = 0,
};
FUZZ_TARGET(all_target);

static __attribute__((noreturn)) void ops_bad(const char *what, const char *name)
{
	fprintf(stderr, "mmfuzz: operation table: %s: %s\n", what, name);
	abort();
}

static void add_hkind(const struct handle_kind *hk)
{
	int i;

	for (i = 0; i < nhkinds; i++)
		if (hkinds[i] == hk)
			return;
	if (nhkinds == (int)(sizeof(hkinds) / sizeof(hkinds[0])))
		ops_bad("too many handle kinds", hk->name);
	hkinds[nhkinds++] = hk;
}

static int cmp_hkind(const void *a, const void *b)
{
	return strcmp((*(const struct handle_kind *const *)a)->name,
		      (*(const struct handle_kind *const *)b)->name);
}

static int cmp_code(const void *a, const void *b)
{
	return (int)((const struct op_desc *)a)->code - (int)((const struct op_desc *)b)->code;
}

static const char *op_name(const void *e)
{
	return ((const struct op_desc *)e)->name;
}

static int cmp_oplayer(const void *a, const void *b)
{
	return strcmp(((const struct op_layer *)a)->name, ((const struct op_layer *)b)->name);
}

static const char *oplayer_name(const void *e)
{
	return ((const struct op_layer *)e)->name;
}

static int cmp_target(const void *a, const void *b)
{
	return strcmp(((const struct fuzz_target *)a)->name, ((const struct fuzz_target *)b)->name);
}

static const char *target_name(const void *e)
{
	return ((const struct fuzz_target *)e)->name;
}

/* A code is an operation's forever: two operations of one code are refused. */
static const struct registry ops_registry = {
	.what = "operation", .limit = "OP_CODES, the byte of an operation's code",
	REGISTRY_BOUNDS(mmfuzz_ops), .cap = OP_CODES,
	.key = cmp_code, .keyname = "code", .name = op_name,
};

static const struct registry oplayers_registry = {
	.what = "operation layer", .limit = "MAX_OP_LAYERS in src/prog/ops.h",
	REGISTRY_BOUNDS(mmfuzz_oplayers), .cap = MAX_OP_LAYERS,
	.key = cmp_oplayer, .name = oplayer_name,
};

static const struct registry targets_registry = {
	.what = "fuzz target", .limit = "MAX_TARGETS in src/prog/ops.c",
	REGISTRY_BOUNDS(mmfuzz_targets), .cap = MAX_TARGETS,
	.key = cmp_target, .name = target_name,
};

/* A layer's entries of the "all" fold list (see all_target), in @out. */
static int all_layer_codes(const char *layer, unsigned char *out)
{
	const struct fuzz_target *own = NULL;
	int i, n = 0;

	for (i = 0; i < ntargets; i++)
		if (!strcmp(targets[i]->name, layer))
			own = targets[i];
	if (own)
		for (i = 0; i < own->nfold && n < OP_CODES; i++)
			if (op_table[own->fold[i]] && !strcmp(op_table[own->fold[i]]->layer, layer))
				out[n++] = own->fold[i];
	if (n)
		return n;
	for (i = 0; i < OP_CODES; i++)
		if (op_table[i] && !strcmp(op_table[i]->layer, layer))
			out[n++] = (unsigned char)i;
	return n;
}

static void all_fold_build(void)
{
	static unsigned char codes[MAX_OP_LAYERS * 2][OP_CODES];
	const char *layers[MAX_OP_LAYERS * 2];
	int nl = 0, len[MAX_OP_LAYERS * 2], max = 0, i, j, k, n = 0;

	for (i = 0; i < OP_CODES; i++) {
		if (!op_table[i])
			continue;
		for (j = 0; j < nl && strcmp(layers[j], op_table[i]->layer); j++)
			;
		if (j < nl)
			continue;
		if (nl == (int)(sizeof(layers) / sizeof(layers[0])))
			ops_bad("too many operation layers for the all target", op_table[i]->layer);
		layers[nl++] = op_table[i]->layer;
	}
	for (j = 0; j < nl; j++) {
		len[j] = all_layer_codes(layers[j], codes[j]);
		if (len[j] > max)
			max = len[j];
	}
	if (max * nl > OP_CODES)
		max = OP_CODES / nl;
	for (k = 0; k < max; k++)
		for (j = 0; j < nl; j++)
			all_fold[n++] = codes[j][k % len[j]];
	all_target.nfold = n;
	if (!n)
		ops_bad("no operations", "all");
}

static void ops_build(void)
{
	size_t n = registry_collect(&ops_registry, (const void **)by_index), i;
	int k;

	for (i = 0; i < n; i++) {
		const struct op_desc *d = by_index[i];

		if (d->nargs > OP_MAX_ARGS)
			ops_bad("too many arguments", d->name);
		op_table[d->code] = d;
		if (d->defines)
			add_hkind(d->defines);
		for (k = 0; k < d->nargs; k++)
			if (d->args[k].kind == ARG_HANDLE) {
				if (!d->args[k].hk)
					ops_bad("handle argument without a kind", d->name);
				add_hkind(d->args[k].hk);
			}
	}
	nops_total = (int)n;
	qsort(hkinds, (size_t)nhkinds, sizeof(hkinds[0]), cmp_hkind);

	n = registry_collect(&oplayers_registry, (const void **)oplayers);
	for (i = 0; i < n; i++)
		oplayers[i]->id = (int)i;
	noplayers = (int)n;

	for (k = 0; k < OP_CODES; k++)
		for (i = 0; op_table[k] && i < (size_t)noplayers; i++)
			if (!strcmp(oplayers[i]->name, op_table[k]->layer))
				code_layer[k] = oplayers[i];

	ntargets = (int)registry_collect(&targets_registry, (const void **)targets);
	all_fold_build();
	n = (size_t)ntargets;
	for (i = 0; i < n; i++) {
		for (k = 0; k < targets[i]->nfold; k++)
			if (!op_table[targets[i]->fold[k]] ||
			    !target_has(targets[i], op_table[targets[i]->fold[k]]))
				ops_bad("a fold code outside its target", targets[i]->name);
		for (k = 0; k < OP_CODES; k++)
			target_folded[i][k] = (unsigned char)target_fold_slow(targets[i], (unsigned)k);
	}
}

void ops_init(void)
{
	sites_init();
	pthread_once(&ops_once, ops_build);
}

const struct op_desc *op_lookup(const char *name)
{
	ops_init();
	return registry_lookup(&ops_registry, (const void *const *)by_index, (size_t)nops_total,
			       name);
}

int ops_count(void)
{
	ops_init();
	return nops_total;
}

const struct op_desc *op_by_index(int i)
{
	ops_init();
	return i >= 0 && i < nops_total ? by_index[i] : NULL;
}

int handle_kinds_count(void)
{
	ops_init();
	return nhkinds;
}

const struct handle_kind *handle_kind_by_index(int i)
{
	return i >= 0 && i < nhkinds ? hkinds[i] : NULL;
}

int handle_kind_index(const struct handle_kind *hk)
{
	int i;

	for (i = 0; i < nhkinds; i++)
		if (hkinds[i] == hk)
			return i;
	return -1;
}

int op_layers_count(void)
{
	ops_init();
	return noplayers;
}

struct op_layer *op_layer_by_index(int i)
{
	return i >= 0 && i < noplayers ? oplayers[i] : NULL;
}

/* ---- targets ---- */

const struct fuzz_target *target_lookup(const char *name)
{
	ops_init();
	return registry_lookup(&targets_registry, (const void *const *)targets, (size_t)ntargets,
			       name);
}

const struct fuzz_target *target_default(void)
{
	return &mm_target;
}

int targets_count(void)
{
	ops_init();
	return ntargets;
}

const struct fuzz_target *target_by_index(int i)
{
	ops_init();
	return i >= 0 && i < ntargets ? targets[i] : NULL;
}

bool target_has(const struct fuzz_target *t, const struct op_desc *d)
{
	const char *const *l;

	if (!t->layers)
		return true;
	for (l = t->layers; *l; l++)
		if (!strcmp(*l, d->layer))
			return true;
	return false;
}

static unsigned target_fold_slow(const struct fuzz_target *t, unsigned code)
{
	const struct op_desc *d = op_by_code(code);

	if (d && target_has(t, d))
		return code;
	return t->fold[code % (unsigned)t->nfold];
}

const unsigned char *target_fold_map(const struct fuzz_target *t)
{
	int i;

	ops_init();
	for (i = 0; i < ntargets; i++)
		if (targets[i] == t)
			return target_folded[i];
	return NULL;
}

unsigned target_fold(const struct fuzz_target *t, unsigned code)
{
	const unsigned char *map = code < OP_CODES ? target_fold_map(t) : NULL;

	return map ? map[code] : target_fold_slow(t, code);
}

/* ---- programs ---- */

/*
 * Everything but the arrays past their counts: a program is decoded for
 * every fuzz execution, and clearing 1024 decisions each time was a seventh
 * of its cost.  Ops and decisions are written whole when they are added.
 */
void prog_init(struct prog *p)
{
	ops_init();
	hdr_init();	/* the sections' slots, before any area is read */
	memset(p, 0, offsetof(struct prog, ops));
	p->nops = 0;
	p->ndec = 0;
	p->expect = EXPECT_NONE;
	p->expect_sig[0] = 0;
	p->aim[0] = 0;
	p->expect_tsan_race = false;
	p->fallback_depth = 0;
	p->seed = 0;
	p->keyed = false;
	config_default(&p->cfg);
	p->ntasks = 2;
	p->task_cpu[0] = 0;
	p->task_cpu[1] = 1;
	p->fallback_depth = 0;
}

int prog_handle_index(const struct prog *p, int i)
{
	const struct handle_kind *hk = op_desc_of(&p->ops[i])->defines;
	int j, n = 0;

	if (!hk)
		return -1;
	for (j = 0; j < i; j++)
		n += op_desc_of(&p->ops[j])->defines == hk;
	return n;
}

int prog_nhandles(const struct prog *p, const struct handle_kind *hk)
{
	int i, n = 0;

	for (i = 0; i < p->nops; i++)
		n += op_desc_of(&p->ops[i])->defines == hk;
	return n;
}

int prog_handle_op(const struct prog *p, const struct handle_kind *hk, int h)
{
	int i, n = 0;

	for (i = 0; i < p->nops; i++)
		if (op_desc_of(&p->ops[i])->defines == hk && n++ == h)
			return i;
	return -1;
}

int prog_task_ops(const struct prog *p, int t, int *first)
{
	int i, n = 0;

	*first = p->nops;
	for (i = 0; i < p->nops; i++)
		if (p->ops[i].task == t) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

/* Drop the ops that use a handle of a kind the program never defines
 * (binary: any byte is a use of something); dropping one may leave a kind
 * undefined in turn, so until nothing changes. */
static void drop_undefined_uses(struct prog *p)
{
	bool changed = true;

	while (changed) {
		int ndefs[16] = { 0 }, i, k, n = 0;

		changed = false;
		for (i = 0; i < p->nops; i++)
			if (op_desc_of(&p->ops[i])->defines)
				ndefs[handle_kind_index(op_desc_of(&p->ops[i])->defines)]++;
		for (i = 0; i < p->nops; i++) {
			const struct op_desc *d = op_desc_of(&p->ops[i]);
			bool drop = false;

			for (k = 0; k < d->nargs; k++)
				if (d->args[k].kind == ARG_HANDLE &&
				    !ndefs[handle_kind_index(d->args[k].hk)])
					drop = true;
			if (drop)
				changed = true;
			else
				p->ops[n++] = p->ops[i];
		}
		p->nops = n;
	}
}

/*
 * Group the ops by task, keeping each task's order; a handle use keeps
 * naming the same defining op (by identity: use value v names the
 * (v mod count)-th definer of its kind in the order given), renumbered to
 * that op's index among its kind in the new order.
 */
void prog_canonicalize(struct prog *p)
{
	struct op out[PROG_MAX_OPS];
	int new_pos[PROG_MAX_OPS], defs[16][PROG_MAX_OPS], ndefs[16] = { 0 };
	int newnum[PROG_MAX_OPS], cnt[16] = { 0 };
	int i, t, k, n = 0;

	hdr_canonicalize(p);
	drop_undefined_uses(p);
	for (i = 0; i < p->nops; i++) {
		const struct handle_kind *hk = op_desc_of(&p->ops[i])->defines;

		if (hk) {
			k = handle_kind_index(hk);
			defs[k][ndefs[k]++] = i;
		}
	}
	for (t = 0; t < p->ntasks; t++)
		for (i = 0; i < p->nops; i++)
			if (p->ops[i].task == t) {
				new_pos[i] = n;
				out[n++] = p->ops[i];
			}
	for (i = 0; i < n; i++) {
		const struct handle_kind *hk = op_desc_of(&out[i])->defines;

		newnum[i] = hk ? cnt[handle_kind_index(hk)]++ : -1;
	}
	for (i = 0; i < n; i++) {
		const struct op_desc *d = op_desc_of(&out[i]);

		for (k = 0; k < d->nargs; k++) {
			int kind;

			if (d->args[k].kind != ARG_HANDLE)
				continue;
			kind = handle_kind_index(d->args[k].hk);
			out[i].arg[k] = newnum[new_pos[defs[kind][(unsigned)out[i].arg[k] %
							    (unsigned)ndefs[kind]]]];
		}
	}
	p->nops = n;
	memcpy(p->ops, out, (size_t)n * sizeof(out[0]));
}

bool prog_starts_kthreads(const struct prog *p)
{
	int i;

	for (i = 0; i < p->nops; i++)
		if (code_layer[p->ops[i].code] && code_layer[p->ops[i].code]->kthreads)
			return true;
	return false;
}

bool prog_has_op_layer(const struct prog *p, const struct op_layer *l)
{
	int i;

	for (i = 0; i < p->nops; i++)
		if (code_layer[p->ops[i].code] == l)
			return true;
	return false;
}

bool prog_has_layer_op(const struct prog *p, const char *layer)
{
	int i;

	for (i = 0; i < p->nops; i++)
		if (!strcmp(op_desc_of(&p->ops[i])->layer, layer))
			return true;
	return false;
}

const char *prog_op_name(int task, int op, void *arg)
{
	const struct prog *p = arg;
	int first, n;

	if (!p || task < 0 || task >= p->ntasks || op < 0)
		return "-";
	n = prog_task_ops(p, task, &first);
	if (op >= n)
		return "exit";
	return op_desc_of(&p->ops[first + op])->name;
}

const char *prog_fits_config(const struct prog *p, const struct mm_config *c, char *buf,
			     size_t n)
{
	int i, k, ncpus = (int)config_get(c, &ck_cpus);

	for (i = 0; i < p->ntasks; i++)
		if (p->task_cpu[i] >= ncpus) {
			snprintf(buf, n, "T%d starts on cpu%d of %d", i, p->task_cpu[i], ncpus);
			return buf;
		}
	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		for (k = 0; k < d->nargs; k++)
			if (d->args[k].kind != ARG_HANDLE && !arg_valid(&d->args[k], p->ops[i].arg[k], c)) {
				snprintf(buf, n, "%s %s=%d is out of range", d->name, d->args[k].name,
					 p->ops[i].arg[k]);
				return buf;
			}
	}
	return NULL;
}

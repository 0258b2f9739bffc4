// SPDX-License-Identifier: MIT
/*
 * The generator (src/prog/gen.c): its programs are deterministic from the
 * seed, fit their config, parse back from their text, round-trip through
 * the binary form, run clean on the clean model, and share handles across
 * tasks at the rate docs/fuzzing.md says (at least 90% of programs have a
 * handle made in one task and used in another; random bytes decoded as
 * programs, far fewer).  Its mutations keep the program valid, and an
 * insert adds a cross-task use.
 */
#include <stdlib.h>
#include <string.h>

#include "prog/exec.h"
#include "prog/gen.h"
#include "tap.h"

#define NPROGS 150

static struct exec *e;

/* What goes wrong with program @p of target @t, or NULL. */
static const char *check_prog(struct prog *p, const struct fuzz_target *t)
{
	static struct prog q;
	static uint8_t bin[1 << 16];
	static char why[256];
	struct run_opts o = { 0 };
	struct run_result r;
	char err[256], *t1, *t2;
	const char *bad = NULL;
	long n;

	if (prog_fits_config(p, &p->cfg, why, sizeof(why)))
		return why;
	t1 = prog_print_text(p);
	if (prog_parse_text(t1, "gen", &q, err, sizeof(err))) {
		snprintf(why, sizeof(why), "text does not parse: %s", err);
		free(t1);
		return why;
	}
	t2 = prog_print_text(&q);
	if (strcmp(t1, t2))
		bad = "text -> parse -> text differs";
	free(t2);
	n = prog_encode_binary(p, bin, sizeof(bin));
	if (!bad && n < 0)
		bad = "binary encode failed";
	if (!bad) {
		prog_decode_binary_target(bin, (size_t)n, &q, t);
		t2 = prog_print_text(&q);
		if (strcmp(t1, t2))
			bad = "binary -> decode -> text differs";
		free(t2);
	}
	if (!bad && exec_run(e, p, &o, &r))
		bad = "the world cannot be built";
	if (!bad && r.outcome != RUN_CLEAN) {
		snprintf(why, sizeof(why), "not clean on the clean model: %s", r.v.signature);
		bad = why;
	}
	if (bad)
		diag("%s", t1);
	free(t1);
	return bad;
}

static void test_target(const struct fuzz_target *t)
{
	static struct prog p, q;
	const char *bad = NULL;
	int i, cross = 0, mut_bad = 0, ins = 0, ins_cross = 0;
	uint64_t r = rng_seed(42);

	for (i = 0; i < NPROGS && !bad; i++) {
		char *a, *b;

		gen_program(&p, t, (uint64_t)i, 0);
		gen_program(&q, t, (uint64_t)i, 0);
		a = prog_print_text(&p);
		b = prog_print_text(&q);
		if (strcmp(a, b))
			bad = "the same seed made two programs";
		free(a);
		free(b);
		if (!bad)
			bad = check_prog(&p, t);
		cross += gen_cross_task(&p);
		/* mutations keep it valid; an insert that applied is cross-task */
		for (int m = 0; m < GEN_NMUTATIONS && !bad; m++) {
			q = p;
			if (m == GEN_INSERT) {
				/* on a program with no cross-task use yet, when it has one */
				int k, first;

				for (k = 1; k < q.ntasks; k++)
					while (prog_task_ops(&q, k, &first))
						memmove(&q.ops[first], &q.ops[first + 1],
							(size_t)(--q.nops - first) * sizeof(q.ops[0]));
				prog_canonicalize(&q);
				if (gen_mutate(&q, t, &r, m)) {
					ins++;
					ins_cross += gen_cross_task(&q);
				}
			} else {
				gen_mutate(&q, t, &r, m);
			}
			if (check_prog(&q, t))
				mut_bad++;
		}
	}
	ok(!bad, "%s: %d generated programs deterministic, fit, round-trip and run clean%s%s",
	   t->name, i, bad ? ": " : "", bad ? bad : "");
	ok(!mut_bad, "%s: mutated programs stay valid and clean (%d bad)", t->name, mut_bad);
	ok(ins > 0 && ins_cross == ins, "%s: %d of %d inserts made a cross-task handle use",
	   t->name, ins_cross, ins);
	ok(cross * 10 >= NPROGS * 9, "%s: %d of %d generated programs use a handle across tasks",
	   t->name, cross, NPROGS);
}

/* The same measure on random bytes decoded as programs of target @t. */
static int random_cross(const struct fuzz_target *t)
{
	static struct prog p;
	static uint8_t bytes[400];
	uint64_t r = rng_seed(7);
	int i, cross = 0;

	for (i = 0; i < NPROGS; i++) {
		size_t len = 32 + rng_next(&r) % (sizeof(bytes) - 32), k;

		for (k = 0; k < len; k++)
			bytes[k] = (uint8_t)rng_next(&r);
		prog_decode_binary_target(bytes, len, &p, t);
		cross += gen_cross_task(&p);
	}
	return cross;
}

int main(void)
{
	const struct fuzz_target *t;
	int gen_cross = 0, rnd;
	static struct prog p;

	sites_init();
	ops_init();
	e = exec_create();
	tap_plan(4 * 3 + 1);
	test_target(target_default());
	test_target(target_lookup("pagealloc"));
	test_target(target_lookup("tlb"));
	t = target_default();
	for (int i = 0; i < NPROGS; i++) {
		gen_program(&p, t, (uint64_t)i, 0);
		gen_cross += gen_cross_task(&p);
	}
	rnd = random_cross(t);
	ok(gen_cross >= 3 * rnd, "mm: cross-task handle use in %d of %d generated programs, "
	   "%d of %d random inputs", gen_cross, NPROGS, rnd, NPROGS);
	exec_destroy(e);
	return tap_done();
}

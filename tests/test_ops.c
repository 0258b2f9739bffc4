// SPDX-License-Identifier: MIT
/*
 * The operation and config tables, walked whole: every operation with the
 * extremes of every argument round-trips through the binary and the text
 * form; an argument outside its range is an error in text and folds in
 * binary; every config key round-trips at both ends of its range; codes are
 * unique and stay where they were given.
 */
#include <stdlib.h>
#include <string.h>

#include "prog/prog.h"
#include "tap.h"

static bool same_ops(const struct prog *a, const struct prog *b)
{
	int i, k;

	if (a->nops != b->nops)
		return false;
	for (i = 0; i < a->nops; i++) {
		const struct op_desc *d = op_desc_of(&a->ops[i]);

		if (a->ops[i].code != b->ops[i].code || a->ops[i].task != b->ops[i].task ||
		    a->ops[i].irq != b->ops[i].irq)
			return false;
		for (k = 0; k < d->nargs; k++)
			if (a->ops[i].arg[k] != b->ops[i].arg[k])
				return false;
	}
	return true;
}

/* A program of one op with argument values @v (and what its handles need). */
static void one_op(struct prog *p, const struct mm_config *c, const struct op_desc *d,
		   const int *v, bool irq)
{
	int k;

	prog_init(p);
	p->cfg = *c;
	p->ntasks = 1;
	p->task_cpu[0] = 0;
	for (k = 0; k < d->nargs; k++)
		if (d->args[k].kind == ARG_HANDLE) {
			int j;

			/* one defining op of the kind */
			for (j = 0; j < ops_count(); j++)
				if (op_by_index(j)->defines == d->args[k].hk)
					break;
			memset(&p->ops[p->nops], 0, sizeof(p->ops[0]));
			p->ops[p->nops].code = op_by_index(j)->code;
			/* its own arguments at their smallest (mmap: one page) */
			for (int a = 0; a < op_by_index(j)->nargs; a++)
				p->ops[p->nops].arg[a] = arg_lo(&op_by_index(j)->args[a]);
			p->nops++;
		}
	memset(&p->ops[p->nops], 0, sizeof(p->ops[0]));
	p->ops[p->nops].code = d->code;
	p->ops[p->nops].irq = irq;
	for (k = 0; k < d->nargs; k++)
		p->ops[p->nops].arg[k] = d->args[k].kind == ARG_HANDLE ? 0 : v[k];
	p->nops++;
}

/* Binary and text, there and back. */
static bool roundtrips(const struct prog *p, char *why, size_t n)
{
	static uint8_t bin[4096];
	static struct prog q, r;
	char err[256], *t1, *t2;
	long len = prog_encode_binary(p, bin, sizeof(bin));
	bool good = true;

	if (len < 0) {
		snprintf(why, n, "does not encode");
		return false;
	}
	prog_decode_binary((uint8_t *)bin, (size_t)len, &q);
	if (!same_ops(p, &q) || memcmp(&p->cfg, &q.cfg, sizeof(p->cfg))) {
		snprintf(why, n, "binary changes it");
		return false;
	}
	t1 = prog_print_text(p);
	if (prog_parse_text(t1, "t", &r, err, sizeof(err))) {
		snprintf(why, n, "its text does not parse: %s", err);
		good = false;
	} else {
		t2 = prog_print_text(&r);
		if (!same_ops(p, &r) || strcmp(t1, t2)) {
			snprintf(why, n, "text changes it");
			good = false;
		}
		free(t2);
	}
	free(t1);
	return good;
}

int main(void)
{
	static struct prog p;
	struct mm_config small, big;
	char why[300], err[256];
	int i, k, bad = 0, cases = 0, codes_bad = 0;

	tap_plan(8);
	ops_init();

	/* the machine at both ends of every key */
	config_default(&small);
	config_default(&big);
	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *key = config_key_by_id(i);
		long lo, hi, unit;

		config_range(&small, key, &lo, &hi, &unit);
		config_set(&small, key, lo);
		config_range(&big, key, &lo, &hi, &unit);
		config_set(&big, key, hi);
	}
	ok(!config_check(&small, NULL, why, sizeof(why)) && !config_check(&big, NULL, why, sizeof(why)),
	   "every key at its smallest, and at its largest, is a valid machine");

	for (i = 0; i < ops_count(); i++) {
		const struct op_desc *d = op_by_index(i);
		const struct mm_config *c;
		int end, irq;

		for (c = &small; c; c = c == &small ? &big : NULL)
			for (end = 0; end < 2; end++)
				for (irq = 0; irq <= (int)d->irq_ok; irq++) {
					int v[OP_MAX_ARGS] = { 0 };

					for (k = 0; k < d->nargs; k++)
						v[k] = end ? arg_hi(&d->args[k], c) : arg_lo(&d->args[k]);
					one_op(&p, c, d, v, irq);
					cases++;
					if (!roundtrips(&p, why, sizeof(why)) && !bad++)
						diag("%s %s, %s arguments%s: %s", d->name,
						     c == &small ? "small machine" : "big machine",
						     end ? "largest" : "smallest", irq ? ", irq" : "", why);
				}
		if (op_by_code(d->code) != d)
			codes_bad++;
	}
	ok(!bad, "%d operations, each with the extremes of every argument, on the smallest and "
	   "largest machines: %d cases round-trip through binary and text (%d do not)",
	   ops_count(), cases, bad);
	ok(!codes_bad && op_lookup("alloc_pages")->code == 0x00 && op_lookup("free_pages")->code == 0x01 &&
	   op_lookup("vmstat_refresh")->code == 0x09,
	   "codes are unique and the page allocator's first ten are where they were given");

	/* out of range: an error in text ... */
	ok(prog_parse_text("mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=6 mt=movable\n", "t", &p,
			   err, sizeof(err)) &&
	   !strcmp(err, "t:3:26: order must be between 0 and 5, not 6"),
	   "an argument beyond its range is a text error: %s", err);
	ok(prog_parse_text("mmfuzz 1\ntask T0 cpu=0\n  set_pcp_high_batch zone=0 high=4097 batch=1\n", "t",
			   &p, err, sizeof(err)) &&
	   !strcmp(err, "t:3:34: high must be between 0 and 4096, not 4097"),
	   "and at the descriptor's own limit: %s", err);
	/* ... and folds in binary */
	{
		uint8_t b[BIN_HEADER + 6] = { 0 };

		b[1] = 4;			/* 4 program bytes */
		b[BIN_HEADER + 0] = 0x00;	/* alloc_pages */
		b[BIN_HEADER + 1] = 0x00;	/* T0 */
		b[BIN_HEADER + 2] = 200;	/* order 200 */
		b[BIN_HEADER + 3] = 7;		/* mt 7 */
		prog_decode_binary(b, sizeof(b), &p);
		ok(p.nops == 1 && p.ops[0].arg[0] == 200 % 6 && p.ops[0].arg[1] == 7 % 3,
		   "binary folds an argument into its range (order 200 -> %d, mt 7 -> %d)",
		   p.nops ? p.ops[0].arg[0] : -1, p.nops ? p.ops[0].arg[1] : -1);
	}
	/* an unknown code folds, and deterministically */
	{
		uint8_t b[BIN_HEADER + 3] = { 0 };

		b[1] = 3;
		b[BIN_HEADER + 0] = 0xfe;	/* no operation has it */
		prog_decode_binary(b, sizeof(b), &p);
		ok(p.nops == 1 && p.ops[0].code == 0xfe % 10,
		   "code 0xfe, which no operation has, folds onto code %d", p.nops ? p.ops[0].code : -1);
	}
	/* every config key: both ends through text and binary */
	{
		int kbad = 0;

		for (i = 0; i < config_nkeys(); i++) {
			const struct config_key *key = config_key_by_id(i);
			const struct mm_config *c;

			for (c = &small; c; c = c == &small ? &big : NULL) {
				prog_init(&p);
				p.cfg = *c;
				p.ntasks = 1;
				p.task_cpu[0] = 0;
				if (!roundtrips(&p, why, sizeof(why)) && !kbad++)
					diag("%s at its %s: %s", key->name, c == &small ? "smallest" : "largest",
					     why);
			}
		}
		ok(!kbad, "%d config keys at both ends round-trip through binary and text",
		   config_nkeys());
	}
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * Programs: the binary decoder is total and the two forms round-trip
 * (decode(encode(text)) == text for printed text; decode(encode(decode(b)))
 * == decode(b) for any bytes), bad text gets FILE:LINE:COL errors, and no
 * text crashes the parser.
 */
#include <stdlib.h>
#include <string.h>

#include "prog/exec.h"
#include "sched/ilv.h"
#include "tap.h"

static struct exec *e;

/* decode as the CLI does: run once to name the decisions */
static char *decode_text(struct prog *p)
{
	struct run_opts o = { 0 };
	struct run_result r;

	if (!p->keyed && p->ndec) {
		o.rec = REC_INPUT;
		exec_run(e, p, &o, &r);
		exec_keyed_decisions(e, p, false);
	} else {
		exec_run(e, p, &o, &r);
		p->keyed = true;
	}
	p->expect = r.outcome == RUN_CLEAN ? EXPECT_CLEAN : EXPECT_VIOLATION;
	snprintf(p->expect_sig, sizeof(p->expect_sig), "%s", r.v.signature);
	return prog_print_text(p);
}

/* encode as the CLI does: run the keyed decisions once to count steps */
static long encode_bin(struct prog *p, uint8_t *buf, size_t cap)
{
	struct run_opts o = { 0 };
	struct run_result r;

	o.rec = REC_INPUT;
	exec_run(e, p, &o, &r);
	exec_step_decisions(e, p);
	return prog_encode_binary(p, buf, cap);
}

static int roundtrip_random(int n, uint64_t seed, int *first_bad)
{
	static uint8_t bytes[600], bin[1 << 16];
	static struct prog p, q;
	char err[256];
	int i, bad = 0;

	seed = rng_seed(seed);
	for (i = 0; i < n; i++) {
		size_t len = 1 + rng_next(&seed) % sizeof(bytes), k;
		char *t1, *t2;
		long m;

		for (k = 0; k < len; k++)
			bytes[k] = (uint8_t)rng_next(&seed);
		prog_decode_binary(bytes, len, &p);
#if MMFUZZ_TSAN
		/* random bugs on would be real races to TSan: keep the model clean */
		p.bugs = 0;
#endif
		t1 = decode_text(&p);
		if (prog_parse_text(t1, "t1", &q, err, sizeof(err))) {
			if (!bad++)
				*first_bad = i;
			diag("decode printed text that does not parse: %s", err);
			free(t1);
			continue;
		}
		m = encode_bin(&q, bin, sizeof(bin));
		prog_decode_binary(bin, (size_t)(m > 0 ? m : 0), &p);
		t2 = decode_text(&p);
		if (m < 0 || strcmp(t1, t2)) {
			if (!bad++) {
				const char *dump = getenv("MMFUZZ_ROUNDTRIP_DUMP");

				*first_bad = i;
				if (dump) {
					FILE *f = fopen(dump, "wb");

					if (f) {
						fwrite(bytes, 1, len, f);
						fclose(f);
					}
				}
			}
		}
		free(t1);
		free(t2);
	}
	return bad;
}

/*
 * A run is a function of its program alone.  For random programs (bug
 * switches, schedules and PCT fallbacks included): the run with every
 * choice recorded, replayed from those choices as keyed decisions (what
 * the minimizer and the reproducers use), takes the same steps; and a
 * program run again after others gives the same trace and the same
 * interleaving coverage (the engines see coverage, and a finding must
 * replay alone).
 */
static void random_prog(uint64_t seed, struct prog *p)
{
	static uint8_t bytes[400];
	size_t len, k;

	seed = rng_seed(seed);
	len = 1 + rng_next(&seed) % sizeof(bytes);
	for (k = 0; k < len; k++)
		bytes[k] = (uint8_t)rng_next(&seed);
	prog_decode_binary(bytes, len, p);
#if MMFUZZ_TSAN
	p->bugs = 0;	/* a switch's race would be a report, not a crash */
#endif
	/* random bytes mostly leave no schedule bytes: give every program
	 * step decisions and a PCT fallback, so that there is a schedule */
	p->fallback_depth = 1 + (int)(rng_next(&seed) % 3);
	p->seed = (uint32_t)rng_next(&seed);
	p->keyed = false;
	p->ndec = (int)(rng_next(&seed) % 9);
	for (k = 0; k < (size_t)p->ndec; k++) {
		memset(&p->dec[k], 0, sizeof(p->dec[k]));
		p->dec[k].step = rng_next(&seed) % 40;
		p->dec[k].target = (short)(rng_next(&seed) % (uint64_t)p->ntasks);
	}
}

static void replay_random(int n, uint64_t seed, int bad[3])
{
	static struct prog p, q;
	static uint64_t hash[64], ilv[64];
	struct run_opts o = { 0 }, rec = { 0 };
	struct run_result r, r2;
	int i, m = n < 64 ? n : 64;

	bad[0] = bad[1] = bad[2] = 0;
	o.max_steps = rec.max_steps = 20000;
	rec.rec = REC_ALL;
	ilv_enabled = true;
	for (i = 0; i < n; i++) {
		uint64_t hf, hs;

		random_prog(seed + (uint64_t)i, &p);
		exec_run(e, &p, &o, &r);
		hf = exec_sched(e)->hash;
		if (i < m) {
			hash[i] = hf;
			ilv[i] = ilv_run_hash();
		}
		/* recording takes the slow path at every step */
		exec_run(e, &p, &rec, &r);
		hs = exec_sched(e)->hash;
		if (hs != hf && !bad[0]++)
			diag("program %d: the recorded run differs from the fast one", i);
		q = p;
		exec_keyed_decisions(e, &q, true);
		exec_run(e, &q, &o, &r2);
		if ((exec_sched(e)->hash != hs || r.outcome != r2.outcome ||
		     strcmp(r.v.signature, r2.v.signature)) && !bad[1]++)
			diag("program %d: the keyed replay differs (%s / %s)", i, r.v.signature,
			     r2.v.signature);
	}
	/* the first ones again, backwards, after all the others */
	for (i = m - 1; i >= 0; i--) {
		random_prog(seed + (uint64_t)i, &p);
		exec_run(e, &p, &o, &r);
		if ((exec_sched(e)->hash != hash[i] || ilv_run_hash() != ilv[i]) && !bad[2]++)
			diag("program %d: run again, a different %s", i,
			     exec_sched(e)->hash != hash[i] ? "trace" : "interleaving coverage");
	}
	ilv_enabled = false;
}

static const struct {
	const char *text;
	const char *err;
} bad_inputs[] = {
	{ "mmfuzz 2\n", "t:1:1: the first line must be 'mmfuzz 1'" },
	{ "", "t:1:1: empty file: the first line must be 'mmfuzz 1'" },
	{ "mmfuzz 1\nfoo: 3\ntask T0 cpu=0\n", "t:2:1: unknown header key 'foo'" },
	{ "mmfuzz 1\ncpus: 9\n", "t:2:7: cpus must be between 1 and 8, not 9" },
	{ "mmfuzz 1\ncpus: two\n", "t:2:7: 'two' is not a number (cpus)" },
	{ "mmfuzz 1\ncpus: 2\ncpus: 2\n", "t:3:1: 'cpus' given twice" },
	{ "mmfuzz 1\nbugs: no_such_bug\n", "t:2:7: unknown bug switch 'no_such_bug' (see mmfuzz bugs)" },
	{ "mmfuzz 1\nexpect: maybe\n", "t:2:9: expect: clean, or violation CHECKER@SITE" },
	{ "mmfuzz 1\nvariant: fast\n", "t:2:10: unknown variant 'fast' (single_pass, pick_outside, locked_rr)" },
	{ "mmfuzz 1\nmax_order: 3\npageblock_order: 4\ntask T0 cpu=0\n",
	  "t:3:18: pageblock_order must be between 1 and 3, not 4" },
	{ "mmfuzz 1\nzone_pages: 100\ntask T0 cpu=0\n",
	  "t:2:13: zone_pages (100) must be a multiple of 32 from 32 to 32768" },
	{ "mmfuzz 1\nzone_pages: 65536\n", "t:2:13: zone_pages (65536) must be a multiple of 32 from 32 to 32768" },
	{ "mmfuzz 1\nzone_pages: 96\nmax_order: 6\n",
	  "t:2:13: zone_pages (96) must be a multiple of 64 from 64 to 65536" },
	{ "mmfuzz 1\ncpus: 010\n", "t:2:7: cpus must be between 1 and 8, not 10" },
	{ "mmfuzz 1\ncpus: 0x\n", "t:2:7: '0x' is not a number (cpus)" },
	{ "# a comment\n\nmmfuzz 1\ntask T0 cpu=0\n  nothing\n", "t:5:3: unknown operation 'nothing'" },
	{ "\xef\xbb\xbfmmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=movable gfp=GFP_BOGUS\n",
	  "t:3:43: unknown gfp flag 'GFP_BOGUS'" },
	{ "# only a comment\n", "t:1:1: no 'mmfuzz 1' line: this is not a text program" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=movable\n  free_pages h0 h0\n",
	  "t:4:17: unexpected 'h0' after free_pages" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 order=1 mt=movable\n",
	  "t:3:28: 'order' given twice" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages mt=movable\n",
	  "t:3:30: alloc_pages needs order=" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_all force=0 zone=all speed=1\n",
	  "t:3:30: drain_all has no argument 'speed'" },
	{ "mmfuzz 1\ntask T1 cpu=0\n", "t:2:6: tasks are numbered in order: expected T0" },
	{ "mmfuzz 1\ntask T0 cpu=5\n", "t:2:13: cpu must be between 0 and 1, not 5" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  alloc order=0\n", "t:3:3: unknown operation 'alloc'" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  alloc_pages order=0 mt=movable\n",
	  "t:3:3: alloc_pages needs a handle: h0 = alloc_pages ..." },
	{ "mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=9 mt=movable\n",
	  "t:3:26: order must be between 0 and 5, not 9" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  h0 = alloc_pages order=0 mt=fast\n",
	  "t:3:31: mt is unmovable, movable or reclaimable" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  free_pages h7\n", "t:3:14: unknown handle 'h7'" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  irq drain_local\n", "t:3:7: drain_local cannot run in interrupt context" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_all force=0 zone=all extra\n",
	  "t:3:30: unexpected 'extra' after drain_all" },
	{ "mmfuzz 1\n  drain_local\n", "t:2:3: an operation outside a task" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_local\nschedule: fallback=pct:9\n",
	  "t:4:24: PCT depth must be between 1 and 3, not 9" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_local\nschedule: fallback=none\n  at T0.0 no_such:site() #1 -> T0\n",
	  "t:5:11: unknown yield site 'no_such:site()'" },
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_local\nschedule: fallback=none\n  at T0.5 op(drain_local) #1 -> T0\n",
	  "t:5:9: op index must be between 0 and 1, not 5" },
	/* a decision may name a kernel thread (ids after the program's), not
	 * a task past the scheduler's */
	{ "mmfuzz 1\ntask T0 cpu=0\n  drain_local\nschedule: fallback=none\n  at T0.0 op(drain_local) #1 -> T30\n",
	  "t:5:34: task must be between 0 and 23, not 30" },
	{ "mmfuzz 1\n", "t:1:1: no tasks: a program needs at least one 'task T0 cpu=N'" },
};

int main(void)
{
	static const char commented[] =
		"mmfuzz 1   # the form marker\n"
		"\n"
		"cpus:2\n"
		"bugs:   pcp_free_nolock ,pcp_count_apart   # two switches\n"
		"  task   T0    cpu=1\n"
		"\th0=alloc_pages   order=1  mt=reclaimable\n"
		"   irq   free_pages   h0  # from an interrupt\n"
		"task T1 cpu=0\n"
		"schedule:  seed=0x10   fallback=pct:2\n"
		"   at   start ->   T1\n";
	static const char canonical_ops[] =
		"task T0 cpu=1\n"
		"  h0 = alloc_pages order=1 mt=reclaimable\n"
		"  irq free_pages h0\n";
	struct prog p;
	char err[256], *t;
	size_t i;
	/* 10,000 strings; TSan pays ~10x per world, so 2,000 there */
	int bad, first = -1, n = getenv("MMFUZZ_ROUNDTRIP_N") ? atoi(getenv("MMFUZZ_ROUNDTRIP_N"))
							 : MMFUZZ_TSAN ? 2000 : 10000;

	tap_plan(11 + (int)(sizeof(bad_inputs) / sizeof(bad_inputs[0])));
	e = exec_create();
	ok(e != NULL, "executor");

	bad = roundtrip_random(n, 1, &first);
	ok(!bad, "%d random byte strings: decode(encode(decode(b))) == decode(b) (%d differ, first #%d)",
	   n, bad, first);
	{
		int b[3], nr = MMFUZZ_TSAN ? 300 : 2000;

		replay_random(nr, 7, b);
		ok(!b[0], "%d random programs with schedules: the fast path takes the steps the "
		   "slow path takes (%d differ)", nr, b[0]);
		ok(!b[1], "and they replay from their recorded choices as keyed decisions (%d differ)",
		   b[1]);
		ok(!b[2], "run again after the others: the same trace and interleaving coverage "
		   "(%d differ)", b[2]);
	}

	for (i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		int rc = prog_parse_text(bad_inputs[i].text, "t", &p, err, sizeof(err));

		ok(rc == -1 && !strcmp(err, bad_inputs[i].err), "bad text %zu: %s", i,
		   bad_inputs[i].err);
		if (rc != -1 || strcmp(err, bad_inputs[i].err))
			diag("  got: %s", rc ? err : "(parsed)");
	}

	ok(!prog_parse_text(commented, "c", &p, err, sizeof(err)), "comments and free spacing parse");
	t = prog_print_text(&p);
	ok(t && strstr(t, canonical_ops) && strstr(t, "bugs: pcp_free_nolock, pcp_count_apart\n") &&
	   strstr(t, "schedule: fallback=pct:2 seed=0x00000010\n  at start -> T1\n"),
	   "and print canonically");
	ok(p.task_cpu[0] == 1 && p.ops[1].irq && p.fallback_depth == 2 && p.seed == 16,
	   "with the meaning written");
	{
		struct prog q;
		char err2[256];

		char *t2 = NULL;

		ok(!prog_parse_text(t, "t", &q, err2, sizeof(err2)) && !strcmp(t2 = prog_print_text(&q), t),
		   "the canonical text is a fixed point of parse+print");
		free(t2);
	}
	free(t);

	/* no text crashes the parser: mutate a valid program at random */
	{
		static const char base[] =
			"mmfuzz 1\ncpus: 2\nbugs: none\ntask T0 cpu=0\n  h0 = alloc_pages order=2 mt=movable\n"
			"  free_pages h0\ntask T1 cpu=1\n  drain_all force=1 zone=all\n"
			"schedule: fallback=pct:2 seed=0x1\n  at T0.1 op(free_pages) #1 -> T1\n";
		char buf[sizeof(base) + 16];
		uint64_t s = rng_seed(99);
		int k, parsed = 0, rejected = 0;

		for (k = 0; k < 20000; k++) {
			int m, j;

			memcpy(buf, base, sizeof(base));
			m = 1 + (int)(rng_next(&s) % 4);
			for (j = 0; j < m; j++) {
				size_t at = 9 + rng_next(&s) % (sizeof(base) - 10);

				buf[at] = rng_next(&s) % 2 ? (char)(32 + rng_next(&s) % 95)
							   : "=:#.>-T0123\n \t"[rng_next(&s) % 15];
			}
			if (prog_parse_text(buf, "m", &p, err, sizeof(err)))
				rejected += err[0] == 'm' && err[1] == ':';
			else
				parsed++;
		}
		ok(parsed + rejected == 20000,
		   "20000 mutated texts: %d parsed, %d rejected with m:LINE:COL", parsed, rejected);
	}
	{
		uint8_t zero[1] = { 0 };

		prog_decode_binary(zero, 0, &p);
		ok(config_get(&p.cfg, &ck_cpus) == 2 && p.ntasks == 2 &&
		   config_get(&p.cfg, &ck_zone_pages) == 256 && p.nops == 0,
		   "the empty byte string is the default config with no operations");
	}
	exec_destroy(e);
	return tap_done();
}

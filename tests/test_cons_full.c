// SPDX-License-Identifier: MIT
/*
 * I-CONS's quick pass (cons.c: a bitmap of the world's pages, contiguous
 * intervals marked as one run) against its full check (every interval
 * collected, sorted and walked), at every quiescence and at the end of
 * every shipped seed and regression file, with their bug switches: the
 * full mode reports I-CONS-FULL wherever the two verdicts differ, so the
 * runs must end the same, signature and trace hash included, and none in
 * I-CONS-FULL.  What a user relies on: the quick pass finds exactly what
 * the full one finds.  The full mode also turns off the tlb checker's
 * counts (tables[] walked only while nr_tables says a table is in it, the
 * gathers only up to the highest slot used): a count that missed a live
 * table leaves its page owned by nobody in the quick run alone.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "prog/exec.h"
#include "tap.h"

struct res {
	int outcome;
	uint64_t hash;
	char sig[128];
};

static bool run(struct exec *e, const struct prog *p, bool full, struct res *r)
{
	struct run_opts o = { 0 };
	struct run_result rr;

	check_cons_full = full;
	o.max_steps = 20000;
	if (exec_run(e, p, &o, &rr))
		return false;
	r->outcome = (int)rr.outcome;
	r->hash = rr.trace_hash;
	snprintf(r->sig, sizeof(r->sig), "%s", rr.outcome == RUN_VIOLATION ? rr.v.signature : "");
	return true;
}

int main(void)
{
	static struct prog p;
	int nrun = 0, nbad = 0, nfull = 0, ncons = 0, nfail = 0, nskip = 0;
	struct res quick, full;
	struct exec *e;
	glob_t g;
	size_t i;

	tap_plan(4);
	ops_init();
	if (glob("corpus/*/*.mmf", 0, NULL, &g)) {
		diag("no corpus/*/*.mmf");
		return 1;
	}
	e = exec_create();
	for (i = 0; e && i < g.gl_pathc; i++) {
		char err[512], *text = tap_slurp(g.gl_pathv[i], NULL);

		if (!text || prog_parse_text(text, g.gl_pathv[i], &p, err, sizeof(err))) {
			diag("%s: %s", g.gl_pathv[i], text ? err : "cannot read");
			free(text);
			nfail++;
			continue;
		}
		free(text);
		if (MMFUZZ_TSAN && p.bugs) {	/* a switch's race is a TSan report */
			nskip++;
			continue;
		}
		if (!run(e, &p, false, &quick) || !run(e, &p, true, &full)) {
			nfail++;
			continue;
		}
		nrun++;
		nfull += !strncmp(full.sig, "I-CONS-FULL", 11);
		ncons += !strncmp(quick.sig, "I-CONS@", 7);
		if (quick.outcome != full.outcome || quick.hash != full.hash ||
		    strcmp(quick.sig, full.sig)) {
			diag("%s: quick %d %016llx %s, full %d %016llx %s", g.gl_pathv[i],
			     quick.outcome, (unsigned long long)quick.hash, quick.sig, full.outcome,
			     (unsigned long long)full.hash, full.sig);
			nbad++;
		}
	}
	check_cons_full = false;
	ok(nfail == 0 && nrun + nskip == (int)g.gl_pathc && nrun > nskip,
	   "%d seeds and regression files run both ways (%d with bug switches left out under TSan)",
	   nrun, nskip);
	ok(nbad == 0, "each ends the same with the full I-CONS check (%d differ)", nbad);
	ok(nfull == 0, "the full check never disagreed with the quick pass (%d I-CONS-FULL)", nfull);
	if (MMFUZZ_TSAN)	/* the I-CONS files have a bug switch */
		ok(1, "# SKIP the I-CONS findings need their switches, left out under TSan");
	else
		ok(ncons > 0, "the files include I-CONS findings, found both ways (%d)", ncons);
	exec_destroy(e);
	globfree(&g);
	return tap_done();
}

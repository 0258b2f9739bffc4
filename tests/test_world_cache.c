// SPDX-License-Identifier: MIT
/*
 * The world cache (src/world/world.c: world_get) keys on a world's shape: a cached
 * world of the same shape serves a config that differs only in tune keys
 * (pcp_high, stat_threshold, variant, tlb_entries, ...), reset and re-tuned
 * instead of built again.  What a user relies on: every program runs to
 * the same outcome, signature and trace hash in an executor that re-tunes
 * cached worlds as in a new executor for each run, whatever tuning the
 * world last had (the seeds with their bug switches: the regression files'
 * findings too).
 *
 * A world of a new shape is built in the memory of the worlds before it
 * (src/world/world.c: world_calloc takes a kept block and clears only what is not
 * known to be zero; layers give back arrays they reset by touch with
 * world_free_zeroed).  The same programs, each at its own shape and at
 * larger ones, one after the other in an executor that keeps one world
 * (every run builds a world where another shape's was), run as in a new
 * executor on new memory; and every array given back as zero was zero
 * (wmem_verify_zero aborts on a broken promise).
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "prog/exec.h"
#include "tap.h"

#define NTUNE 3

/* tuning @t (0: the seed's own) of the tune keys; false if out of range */
static bool tune(struct prog *p, int t)
{
	static const struct { const char *key; long v[NTUNE]; } tv[] = {
		{ "pcp_high", { -1, 0, 100 } },
		{ "pcp_batch", { -1, 1, 7 } },
		{ "stat_threshold", { -1, 1, 125 } },
		/* pick_outside (1) races by design: not under TSan */
		{ "variant", { -1, 2, MMFUZZ_TSAN ? 0 : 1 } },
		{ "drain", { -1, 1, 0 } },
		{ "tlb_entries", { -1, 1, 64 } },
		{ "tlb_single_page_flush_ceiling", { -1, 0, 4095 } },
		{ "tlb_asids", { -1, 1, 2 } },
		{ "gather_batch_count", { -1, 1, 2048 } },
	};
	char msg[128];
	size_t i;

	for (i = 0; i < sizeof(tv) / sizeof(tv[0]); i++) {
		const struct config_key *k = config_key_lookup(tv[i].key);

		if (!k || !k->tune)
			return false;
		if (tv[i].v[t] >= 0)
			config_set(&p->cfg, k, tv[i].v[t]);
	}
	return !config_check(&p->cfg, NULL, msg, sizeof(msg));
}

#define NSHAPE 4

/* shape @k (0: the seed's own) of @p into @out, by its text form (the
 * parser checks the program against the new machine); false if @p does not
 * fit it or the shape is out of range */
static bool reshape(const struct prog *p, int k, struct prog *out)
{
	static const struct { const char *key; int mul, add; } sv[NSHAPE] = {
		{ NULL, 1, 0 },
		{ "zone_pages", 2, 0 },
		{ "mm_pages", 4, 0 },
		{ "cpus", 1, 1 },
	};
	char msg[512], *text;
	bool fit;

	*out = *p;
	if (sv[k].key) {
		const struct config_key *key = config_key_lookup(sv[k].key);

		if (!key)
			return false;
		config_set(&out->cfg, key, config_get(&p->cfg, key) * sv[k].mul + sv[k].add);
		if (config_check(&out->cfg, NULL, msg, sizeof(msg)))
			return false;
	}
	text = prog_print_text(out);
	fit = text && !prog_parse_text(text, "reshaped", out, msg, sizeof(msg));
	free(text);
	return fit;
}

struct res {
	int outcome;
	uint64_t hash;
	char sig[128];
};

static bool run(struct exec *e, const struct prog *p, struct res *r)
{
	struct run_opts o = { 0 };
	struct run_result rr;

	o.max_steps = 20000;
	if (exec_run(e, p, &o, &rr))
		return false;
	r->outcome = (int)rr.outcome;
	r->hash = rr.trace_hash;
	snprintf(r->sig, sizeof(r->sig), "%s", rr.outcome == RUN_VIOLATION ? rr.v.signature : "");
	return true;
}

/*
 * Every seed at NSHAPE shapes in sequence in one executor that keeps one
 * world, and each in a new executor on new memory.
 */
static void shapes(const glob_t *g)
{
	static struct prog p, q;
	struct res fresh, cached;
	int k, nrun = 0, nbad = 0, nfail = 0, nfit = 0, nskip = 0;
	unsigned long clean0 = wmem_clean_bytes;
	struct exec *seq = exec_create(), *e;
	size_t i;

	if (seq)
		exec_set_world_slots(seq, 1);
	for (i = 0; seq && i < g->gl_pathc; i++) {
		char err[512], *text = tap_slurp(g->gl_pathv[i], NULL);

		if (!text || prog_parse_text(text, g->gl_pathv[i], &p, err, sizeof(err))) {
			free(text);
			nfail++;
			continue;
		}
		free(text);
		if (MMFUZZ_TSAN && p.bugs) {
			nskip++;
			continue;
		}
		for (k = 0; k < NSHAPE; k++) {
			if (!reshape(&p, k, &q)) {
				nfit += k == 0;		/* the seed's own shape always fits */
				continue;
			}
			wmem_fresh = true;
			e = exec_create();
			if (!e || !run(e, &q, &fresh)) {
				nfail++;
				wmem_fresh = false;
				exec_destroy(e);
				continue;
			}
			exec_destroy(e);
			wmem_fresh = false;
			if (!run(seq, &q, &cached)) {
				nfail++;
			} else if (fresh.outcome != cached.outcome || fresh.hash != cached.hash ||
				   strcmp(fresh.sig, cached.sig)) {
				if (nbad < 5)
					diag("%s shape %d: new memory %d %016llx %s, one world kept %d "
					     "%016llx %s", g->gl_pathv[i], k, fresh.outcome,
					     (unsigned long long)fresh.hash, fresh.sig, cached.outcome,
					     (unsigned long long)cached.hash, cached.sig);
				nbad++;
			}
			nrun++;
		}
	}
	ok(seq && nfail == 0 && nfit == 0 && nrun >= 2 * ((int)g->gl_pathc - nskip),
	   "%d runs of %zu seeds at up to %d shapes in sequence, in an executor keeping one "
	   "world and in a new one on new memory (%d failed, %d did not fit their own shape)",
	   nrun, g->gl_pathc, NSHAPE, nfail, nfit);
	ok(nbad == 0, "every run has the same outcome, signature and trace hash in both (%d differ)",
	   nbad);
	ok(seq && exec_worlds(seq)->misses >= (unsigned long)nrun / 2 &&
	   wmem_clean_bytes > clean0,
	   "the kept world was rebuilt at other shapes (%lu built in %d runs) in memory known "
	   "to be zero (%lu bytes not cleared again), every promise of zero kept",
	   seq ? exec_worlds(seq)->misses : 0, nrun, wmem_clean_bytes - clean0);
	exec_destroy(seq);
}

int main(void)
{
	static struct prog p[NTUNE];
	struct res fresh, cached;
	int t, nrun = 0, nbad = 0, nchanged = 0, nfail = 0, nskip = 0;
	uint64_t own = 0;
	const struct world_cache *wc;
	struct exec *shared, *e;
	glob_t g;
	size_t i;

	tap_plan(7);
	ops_init();
	wmem_verify_zero = true;
	if (glob("corpus/*/*.mmf", 0, NULL, &g)) {
		diag("no corpus/*/*.mmf");
		return 1;
	}
	shared = exec_create();
	/*
	 * Each seed at its own tuning and two others, one after the other in
	 * the shared executor (the same shape: a re-tuned world each time
	 * after the first), each in a new executor too.
	 */
	for (i = 0; shared && i < g.gl_pathc; i++) {
		char err[512], *text = tap_slurp(g.gl_pathv[i], NULL);

		if (!text || prog_parse_text(text, g.gl_pathv[i], &p[0], err, sizeof(err))) {
			diag("%s: %s", g.gl_pathv[i], text ? err : "cannot read");
			free(text);
			nfail++;
			continue;
		}
		free(text);
		if (MMFUZZ_TSAN && p[0].bugs) {	/* a switch's race is a TSan report */
			nskip++;
			continue;
		}
		for (t = 0; t < NTUNE; t++) {
			p[t] = p[0];
			if (!tune(&p[t], t))
				continue;
			e = exec_create();
			if (!e || !run(e, &p[t], &fresh) || !run(shared, &p[t], &cached)) {
				nfail++;
			} else if (fresh.outcome != cached.outcome || fresh.hash != cached.hash ||
				   strcmp(fresh.sig, cached.sig)) {
				if (nbad < 5)
					diag("%s tuning %d: new executor %d %016llx %s, cached %d %016llx %s",
					     g.gl_pathv[i], t, fresh.outcome,
					     (unsigned long long)fresh.hash, fresh.sig, cached.outcome,
					     (unsigned long long)cached.hash, cached.sig);
				nbad++;
			}
			if (t == 0)
				own = fresh.hash;
			else
				nchanged += fresh.hash != own;
			nrun++;
			exec_destroy(e);
		}
	}
	wc = shared ? exec_worlds(shared) : NULL;
	ok(nfail == 0 && nrun >= 2 * ((int)g.gl_pathc - nskip) && nskip < (int)g.gl_pathc / 2,
	   "%d runs of %zu seeds at three tunings, each in the shared executor and a new one "
	   "(%d with bug switches left out under TSan)", nrun, g.gl_pathc, nskip);
	ok(nbad == 0,
	   "every run has the same outcome, signature and trace hash in both (%d differ)", nbad);
	ok(wc && wc->tuned >= g.gl_pathc - (size_t)nskip,
	   "the shared executor re-tuned cached worlds (%lu re-tuned, %lu hits, %lu built)",
	   wc ? wc->tuned : 0, wc ? wc->hits : 0, wc ? wc->misses : 0);
	ok(nchanged > nrun / 2,
	   "the tunings change what runs (%d of the re-tuned runs have another trace hash than "
	   "the seed's own tuning): a world that kept its last tuning would differ", nchanged);
	exec_destroy(shared);
	shapes(&g);
	globfree(&g);
	return tap_done();
}

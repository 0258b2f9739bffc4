// SPDX-License-Identifier: MIT
/*
 * The "Lock order:" lines at the top of the model's files against what
 * lockdep records: the seed corpora (corpus/<target>/, every .mmf but the
 * regressions) replayed as written and under PCT schedules, ktorture's
 * operations under PCT, and CPUs going down and up under allocations.  Every edge lockdep records must follow
 * from the documented orders (their transitive closure); the documented
 * orders must themselves be acyclic.  Run from the top of the tree.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/kernel.h"
#include "kernel/cpu.h"
#include "kernel/lockdep.h"
#include "prog/exec.h"
#include "tap.h"

#define MAXC 64

static char names[MAXC][48];
static int nnames;
static unsigned char doc[MAXC][MAXC];	/* doc[a][b]: a before b, closed */

static int class_id(const char *n)
{
	int i;

	for (i = 0; i < nnames; i++)
		if (!strcmp(names[i], n))
			return i;
	if (nnames == MAXC)
		return -1;
	snprintf(names[nnames], sizeof(names[0]), "%s", n);
	return nnames++;
}

/* "A -> B -> C" after "Lock order:": each part's first word, its
 * trailing punctuation dropped; fewer than two parts say no order. */
static int parse_line(const char *line)
{
	char buf[512], *part, *save = NULL;
	int prev = -1, n = 0;

	snprintf(buf, sizeof(buf), "%s", strstr(line, "Lock order:") + strlen("Lock order:"));
	if (!strstr(buf, " -> "))
		return 0;
	for (part = buf; part; part = save) {
		char word[48];
		size_t len;
		int id;

		save = strstr(part, " -> ");
		if (save) {
			*save = 0;
			save += 4;
		}
		if (sscanf(part, " %47s", word) != 1)
			return -1;
		len = strlen(word);
		while (len && strchr(".,;:)", word[len - 1]))
			word[--len] = 0;
		id = class_id(word);
		if (id < 0)
			return -1;
		if (prev >= 0)
			doc[prev][id] = 1;
		prev = id;
		n++;
	}
	return n;
}

static int read_docs(void)
{
	FILE *f = popen("grep -rh 'Lock order:' src", "r");
	char line[512];
	int lines = 0, a, b, c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (parse_line(line) > 1)
			lines++;
	pclose(f);
	/* transitive closure */
	for (c = 0; c < nnames; c++)
		for (a = 0; a < nnames; a++)
			if (doc[a][c])
				for (b = 0; b < nnames; b++)
					if (doc[c][b])
						doc[a][b] = 1;
	return lines;
}

/* ---- what the model does ---- */

static int run_corpus(struct exec *e, int pct_seeds)
{
	glob_t g;
	size_t i;
	int runs = 0, s;

	if (glob("corpus/*/*.mmf", 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		FILE *f;

		if (strstr(g.gl_pathv[i], "/regress/"))
			continue;	/* the bug switches' own orders */
		f = fopen(g.gl_pathv[i], "r");
		static char text[1 << 16];
		static struct prog p;
		char err[256];
		size_t n;

		if (!f)
			continue;
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = 0;
		if (prog_parse_text(text, g.gl_pathv[i], &p, err, sizeof(err)))
			continue;
		for (s = 0; s <= pct_seeds; s++) {
			struct run_opts o;
			struct run_result r;

			memset(&o, 0, sizeof(o));
			o.sched = s ? SCHED_PCT : SCHED_FROM_INPUT;
			o.depth = 3;
			o.seed = (uint64_t)s;
			if (!exec_run(e, &p, &o, &r))
				runs++;
			if (r.outcome != RUN_CLEAN)
				diag("%s seed %d: %s", g.gl_pathv[i], s, r.v.signature);
		}
	}
	globfree(&g);
	return runs;
}

static struct ktorture *ktp;
#define kt (*ktp)
static struct world *w;
static int which;

static void body(struct task *t, void *arg)
{
	struct kt_fl_obj *o;
	int i;

	(void)arg;
	for (i = 0; i < 3; i++) {
		if (which == 1 && t->id == 2) {
			cpu_down(1);
			cpu_up(1);
			continue;
		}
		switch ((t->id + i) % 6) {
		case 0:
			kt_rcu_update(&kt, i & 1);
			kt_counter_add(&kt, 5);
			break;
		case 1:
			kt_rcu_read(&kt, 1);
			kt_rwsem_read(&kt);
			if (which == 1) {
				struct page *pg = alloc_pages(__GFP_MOVABLE, 0);

				if (pg)
					__free_pages(pg, 0);
			}
			break;
		case 2:
			kt_rwsem_write(&kt, i & 1);
			kt_local_lock(&kt, i & 1);
			break;
		case 3:
			o = kt_fl_alloc(&kt);
			kt_slab_update(&kt);
			if (o)
				kt_fl_free(&kt, o);
			break;
		case 4:
			kt_ipi(&kt, 0x7, i & 1);
			break;
		default:
			kt_handoff_produce(&kt);
			kt_handoff_consume(&kt);
			break;
		}
	}
}

static int run_kernel(struct fsched *fs, int kind, int seeds)
{
	struct task_init init[6];
	struct sched_policy pol;
	int s, i, bad = 0;

	which = kind;
	for (i = 0; i < 6; i++) {
		init[i].cpu = i % 3;
		init[i].irq = false;
	}
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 300;
	for (s = 1; s <= seeds; s++) {
		pol.seed = (uint64_t)s;
		violation_reset();
		world_reset(w);
		mm_world = w;
		check_run_begin(w);
		ktp = kt_world(w);
		if (fsched_run(fs, 6, 3, init, &pol, body, NULL)) {
			diag("kernel run %d seed %d: %s", kind, s, g_violation.signature);
			bad++;
		}
	}
	return bad;
}

int main(void)
{
	struct exec *e = exec_create();
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct mm_config cfg;
	int lines, runs, i, a, b, missing = 0, recorded;

	tap_plan(7);
	lines = read_docs();
	ok(lines >= 5, "%d \"Lock order:\" lines with an order, %d lock classes", lines, nnames);
	ok(doc[class_id("pcp->lock")][class_id("zone->lock")] &&
	   doc[class_id("pcp_batch_high_lock")][class_id("zone->lock")] &&
	   !doc[class_id("zone->lock")][class_id("pcp->lock")],
	   "read as orders: pcp->lock before zone->lock, transitively pcp_batch_high_lock too");
	for (a = 0; a < nnames; a++)
		if (doc[a][a])
			break;
	ok(a == nnames, "the documented orders have no cycle%s%s", a < nnames ? ": " : "",
	   a < nnames ? names[a] : "");

	lockdep_reset();
	runs = run_corpus(e, 4);
	ok(runs > 0, "the seed corpora ran clean, as written and under 4 PCT seeds (%d runs)", runs);

	config_default(&cfg);
	config_set(&cfg, &ck_cpus, 3);
	if (world_create(&cfg, &w))
		return 1;
	mm_world = w;
	ktp = kt_world(w);
	ok(!run_kernel(fs, 0, 60) && !run_kernel(fs, 1, 60),
	   "ktorture's operations, and CPUs going down and up under them, 60 PCT seeds each: clean");

	recorded = lockdep_nr_edges();
	for (i = 0; i < recorded; i++) {
		const char *from, *to;

		lockdep_edge(i, &from, &to);
		a = class_id(from);
		b = class_id(to);
		if (a < 0 || b < 0 || !doc[a][b]) {
			diag("recorded but not documented: %s -> %s", from, to);
			missing++;
		}
	}
	ok(recorded >= 8, "lockdep recorded %d edges", recorded);
	ok(!missing, "every recorded edge follows from a \"Lock order:\" line (%d do not)", missing);
	for (i = 0; i < recorded; i++) {
		const char *from, *to;

		lockdep_edge(i, &from, &to);
		diag("  %s -> %s", from, to);
	}

	world_destroy(w);
	fsched_destroy(fs);
	exec_destroy(e);
	return tap_done();
}

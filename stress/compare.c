// SPDX-License-Identifier: MIT
/*
 * stress --compare: run a workload under two or more configurations (pcp
 * bulk-free variants, or bug switches against none), each several times,
 * and print the table the LKP robot prints (lib/compare.rb), with its
 * widths and its significance rule (lib/changed_stat.rb):
 *
 *	         %stddev     %change         %stddev
 *	             \          |                \
 *	   1234567 ±  3%      +5.6%    1303698        will-it-scale.per_thread_ops
 *
 * Columns are ABS_WIDTH 10, REL_WIDTH 10, ERR_WIDTH 6; the stddev (the
 * population one, as LKP's statistics.rb) shows as " ±NN%" only above 2%
 * of the mean; keys ending in '%' show the absolute change.  A change is
 * significant when the distributions separate: min_b > mean_a and
 * mean_b > max_a, or the mirror.  The table body is what "lkp compare -a"
 * prints (every stat, not only the changed ones); the verdict of the rule
 * follows it.
 *
 * Runs are interleaved (A1 B1 A2 B2 ...), so a drift of a noisy machine
 * falls on every configuration alike.
 */
#include "stress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ABS_WIDTH	10
#define REL_WIDTH	10
#define ERR_WIDTH	6
#define CMP_MAX_STATS	96

static double avg_of(const double *v, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

/* statistics.rb: sqrt(1/n * sum((x - avg)^2)), -1 without two values */
static double stddev_of(const double *v, int n)
{
	double a = avg_of(v, n), s = 0;
	int i;

	if (n < 2)
		return -1;
	for (i = 0; i < n; i++)
		s += (v[i] - a) * (v[i] - a);
	return sqrt(s / n);
}

static void min_max_of(const double *v, int n, double *mn, double *mx)
{
	int i;

	*mn = n ? v[0] : 0;
	*mx = n ? v[0] : 0;
	for (i = 1; i < n; i++) {
		*mn = fmin(*mn, v[i]);
		*mx = fmax(*mx, v[i]);
	}
}

static bool absolute_change(const char *key)
{
	size_t n = strlen(key);

	return (n && key[n - 1] == '%') || !strncmp(key, "perf-profile", 12);
}

/* Ruby's "%d" of a Float truncates toward zero */
static void print_avg(FILE *out, double avg)
{
	if (fabs(avg) < 1000)
		fprintf(out, "%*.2f", ABS_WIDTH, avg);
	else if (fabs(avg) > 100000000)
		fprintf(out, "%*.4g", ABS_WIDTH, avg);
	else
		fprintf(out, "%*lld", ABS_WIDTH, (long long)avg);
}

static double change_of(const char *key, double avg0, double avg)
{
	if (absolute_change(key))
		return avg - avg0;
	/* LKP prints -100% for 0 -> 0, a row it never shows; the table here
	 * shows every row, so nothing changed is 0 */
	if (avg0 == 0 && avg == 0)
		return 0;
	if (avg0 == 0)
		avg0 = 1e-100;	/* compare.rb: "To avoid divide 0 problem" */
	return 100.0 * (avg - avg0) / avg0;
}

static void print_change(FILE *out, const char *key, double p)
{
	const char *fmt = fabs(p) < 100000 ? "%+*.1f" : "%+*.2g";

	fprintf(out, fmt, REL_WIDTH, p);
	fputs(absolute_change(key) ? "  " : "% ", out);
}

/* changed_stat.rb without the distance option */
bool lkp_changed(const double *a, int na, const double *b, int nb)
{
	double min_a, max_a, min_b, max_b, mean_a = avg_of(a, na), mean_b = avg_of(b, nb);

	min_max_of(a, na, &min_a, &max_a);
	min_max_of(b, nb, &min_b, &max_b);
	if (min_b > mean_a && mean_b > max_a)
		return true;
	return min_a > mean_b && mean_a > max_b;
}

void lkp_print_table(FILE *out, const char *const *labels, int ncfg,
		     const struct compare_stat *st, int nstat)
{
	int first_width = ABS_WIDTH + ERR_WIDTH, width = first_width + REL_WIDTH + 1;
	int i, c;

	fprintf(out, "%*.*s ", first_width, first_width, labels[0]);
	for (c = 1; c < ncfg; c++)
		fprintf(out, "%*.*s ", width, width, labels[c]);
	fputc('\n', out);
	for (i = 0; i < first_width; i++)
		fputc('-', out);
	fputc(' ', out);
	for (c = 1; c < ncfg; c++) {
		for (i = 0; i < width; i++)
			fputc('-', out);
		fputc(' ', out);
	}
	fputc('\n', out);
	fputs("         %stddev", out);
	for (c = 1; c < ncfg; c++)
		fputs("     %change         %stddev", out);
	fputc('\n', out);
	fputs("             \\  ", out);
	for (c = 1; c < ncfg; c++)
		fputs("        |                \\  ", out);
	fputc('\n', out);

	for (i = 0; i < nstat; i++) {
		double avg0 = avg_of(st[i].v[0], st[i].n[0]);

		for (c = 0; c < ncfg; c++) {
			double avg = avg_of(st[i].v[c], st[i].n[c]);
			double sd = stddev_of(st[i].v[c], st[i].n[c]);

			if (c)
				print_change(out, st[i].key, change_of(st[i].key, avg0, avg));
			print_avg(out, avg);
			if (avg != 0)
				sd = 100 * sd / avg;
			if (sd > 2)
				fprintf(out, " \u00b1%*d%%", ERR_WIDTH - 3, (int)sd);
			else
				fprintf(out, "%*s", ERR_WIDTH, "");
		}
		fprintf(out, "  %s\n", st[i].key);
	}
}

/* The LKP rule's verdict for every stat and configuration against the first. */
static void print_verdict(FILE *out, const char *const *labels, int ncfg,
			  const struct compare_stat *st, int nstat)
{
	int i, c;

	fprintf(out, "\nsignificant (LKP: min_b > mean_a && mean_b > max_a, or the mirror), "
		"against %s:\n", labels[0]);
	for (c = 1; c < ncfg; c++) {
		int shown = 0;

		fprintf(out, "  %s:", labels[c]);
		for (i = 0; i < nstat; i++) {
			double avg0 = avg_of(st[i].v[0], st[i].n[0]);
			double p = change_of(st[i].key, avg0, avg_of(st[i].v[c], st[i].n[c]));

			if (!lkp_changed(st[i].v[0], st[i].n[0], st[i].v[c], st[i].n[c]))
				continue;
			/* print_change's form: a change from zero is huge */
			fprintf(out, fabs(p) < 100000 ? "%s %s %+.1f%s" : "%s %s %+.2g%s",
				shown++ ? "," : "", st[i].key, p,
				absolute_change(st[i].key) ? "" : "%");
		}
		fprintf(out, "%s\n", shown ? "" : " nothing (every difference is within noise)");
	}
}

struct cmp_table {
	struct compare_stat st[CMP_MAX_STATS];
	char keys[CMP_MAX_STATS][64];
	int nstat, runs;
};

static void cmp_add(struct cmp_table *t, int cfg, const char *key, double v)
{
	int i;

	for (i = 0; i < t->nstat; i++)
		if (!strcmp(t->keys[i], key))
			break;
	if (i == t->nstat) {
		int c;

		if (t->nstat == CMP_MAX_STATS)
			return;
		snprintf(t->keys[i], sizeof(t->keys[i]), "%s", key);
		t->st[i].key = t->keys[i];
		for (c = 0; c < 8; c++)
			t->st[i].v[c] = calloc((size_t)t->runs, sizeof(double));
		t->nstat++;
	}
	if (t->st[i].n[cfg] < t->runs)
		t->st[i].v[cfg][t->st[i].n[cfg]++] = v;
}

/*
 * One run's output as LKP stats: average: becomes the will-it-scale stats
 * LKP derives from runtest.py's CSV (nr_task.threads, per_thread_ops,
 * workload), every numeric "key: value" after it a stat of its own.
 */
static void cmp_parse(struct cmp_table *t, int cfg, const char *text, unsigned long tasks,
		      bool process_mode)
{
	const char *mode = process_mode ? "processes" : "threads";
	const char *p = text;
	char key[96];

	while (p && *p) {
		const char *nl = strchr(p, '\n'), *colon = strchr(p, ':');
		size_t klen;
		char *end;
		double v;

		if (!nl)
			nl = p + strlen(p);
		if (colon && colon < nl && (klen = (size_t)(colon - p)) < 64) {
			if (!strncmp(p, "average:", 8)) {
				v = strtod(p + 8, NULL);
				snprintf(key, sizeof(key), "will-it-scale.%lu.%s", tasks, mode);
				cmp_add(t, cfg, key, v);
				snprintf(key, sizeof(key), "will-it-scale.per_%s_ops",
					 process_mode ? "process" : "thread");
				cmp_add(t, cfg, key, v / (double)tasks);
				cmp_add(t, cfg, "will-it-scale.workload", v);
			} else if (colon[1] == ' ' && strncmp(p, "config.", 7)) {
				v = strtod(colon + 2, &end);
				if (end != colon + 2 && end == nl) {
					memcpy(key, p, klen);
					key[klen] = 0;
					cmp_add(t, cfg, key, v);
				}
			}
		}
		p = *nl ? nl + 1 : nl;
	}
}

/*
 * Stats that are zero in every run of every configuration say nothing,
 * except the correctness counter and zone->lock's contention, which are
 * the point when they are zero.
 */
static int cmp_drop_zero(struct cmp_table *t, int ncfg)
{
	int i, j = 0, c, k;

	for (i = 0; i < t->nstat; i++) {
		bool any = !strcmp(t->st[i].key, "invariant_violations") ||
			   !strncmp(t->st[i].key, "model.zone_lock.", 16);

		for (c = 0; c < ncfg && !any; c++)
			for (k = 0; k < t->st[i].n[c]; k++)
				any |= t->st[i].v[c][k] != 0;
		if (any) {
			t->st[j++] = t->st[i];
			continue;
		}
		for (c = 0; c < 8; c++)
			free(t->st[i].v[c]);
	}
	return j;
}

int stress_compare(const struct compare_opts *co)
{
	struct cmp_table *t = calloc(1, sizeof(*t));
	const char *labels[8];
	char tasks[32], *argv[64];
	int run, c, i, n, done = 0, rc = 0;
	bool interrupted = false;

	if (!t)
		return 2;
	t->runs = co->runs;
	snprintf(tasks, sizeof(tasks), "%lu", co->tasks);
	stress_parent_signals();
	stress_no_aslr();
	for (run = 0; run < co->runs && !interrupted && !rc; run++) {
		for (c = 0; c < co->ncfg && !interrupted && !rc; c++) {
			struct stress_child_out res;

			n = 0;
			argv[n++] = "mmfuzz";
			argv[n++] = "stress";
			argv[n++] = (char *)co->workload;
			argv[n++] = "-t";
			argv[n++] = tasks;
			for (i = 0; i < co->nchild_args && n < 48; i++)
				argv[n++] = co->child_args[i];
			for (i = 0; i < co->cfg[c].nargs; i++)
				argv[n++] = co->cfg[c].args[i];
			argv[n] = NULL;
			fprintf(stderr, "mmfuzz stress: compare run %d/%d of %s\n", run + 1, co->runs,
				co->cfg[c].label);
			if (stress_spawn(argv, &res)) {
				rc = 2;
				break;
			}
			if (res.status == 130 || stress_parent_interrupted) {
				interrupted = true;
			} else if (res.status) {
				fprintf(stderr, "mmfuzz stress: run %d of %s exited with status %d; "
					"its output:\n%s", run + 1, co->cfg[c].label, res.status,
					res.text);
				rc = 1;
			} else {
				cmp_parse(t, c, res.text, co->tasks, co->process_mode);
				done++;
			}
			free(res.text);
		}
	}
	if (rc == 2 || !done)
		goto out;
	if (interrupted)
		fprintf(stderr, "mmfuzz stress: interrupted: the table has the runs completed "
			"so far (%d)\n", done);
	for (c = 0; c < co->ncfg; c++)
		labels[c] = co->cfg[c].label;
	t->nstat = cmp_drop_zero(t, co->ncfg);
	printf("=========================================================================================\n");
	printf("testcase/nr_task/mode/runs:\n  %s/%lu/%s/%d\n\n", co->workload, co->tasks,
	       co->process_mode ? "process" : "thread", co->runs);
	printf("configuration: \n");
	for (c = 0; c < co->ncfg; c++)
		printf("  %s\n", labels[c]);
	printf("\n");
	lkp_print_table(stdout, labels, co->ncfg, t->st, t->nstat);
	print_verdict(stdout, labels, co->ncfg, t->st, t->nstat);
	fflush(stdout);
	if (interrupted)
		rc = 130;
out:
	for (i = 0; i < t->nstat; i++)
		for (c = 0; c < 8; c++)
			free(t->st[i].v[c]);
	free(t);
	return rc;
}

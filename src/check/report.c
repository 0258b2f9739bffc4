// SPDX-License-Identifier: MIT
/*
 * The report of a violation: a stable one-line signature first (what a
 * campaign deduplicates on), then where it fired, the last events of every
 * task, and the program with its schedule as text, so the report alone
 * reproduces the finding.
 */
#include "check.h"

#include <string.h>

static const char *site_name(unsigned id)
{
	const struct yield_site *s = site_by_id(id);

	return s && s->name ? s->name : "?";
}

void report_write(FILE *f, const struct violation *v, const struct fsched *fs,
		  op_name_fn op_name, void *arg, const char *program_text)
{
	int t;

	fprintf(f, "mmfuzz: VIOLATION %s\n", v->signature);
	fprintf(f, "  %s\n", v->msg);
	if (v->task >= 0)
		fprintf(f, "  in T%d, op %d (%s), at %s, step %llu\n", v->task, v->op,
			op_name ? op_name(v->task, v->op, arg) : "?", v->yield,
			(unsigned long long)v->step);
	else
		fprintf(f, "  after the run (%s)\n", v->site);

	if (fs && fs->ntasks) {
		fprintf(f, "\nrecent trace (last %d events of each task; step, cpu, op, yield point):\n",
			TRACE_RING);
		for (t = 0; t < fs->ntasks; t++) {
			const struct task *tk = &fs->task[t];
			unsigned n = tk->ring_n < TRACE_RING ? tk->ring_n : TRACE_RING, i;

			fprintf(f, "  T%d:%s\n", t, n ? "" : " (did not run)");
			for (i = tk->ring_n - n; i < tk->ring_n; i++) {
				const struct trace_ev *e = &tk->ring[i % TRACE_RING];

				fprintf(f, "    %6llu cpu%d op%-2d %-12s %s", (unsigned long long)e->step,
					e->cpu, e->op,
					op_name ? op_name(t, e->op, arg) : "",
					site_name(e->site));
				if (e->switched_to >= 0)
					fprintf(f, "  -> T%d", e->switched_to);
				fputc('\n', f);
			}
		}
	}
	if (program_text) {
		fprintf(f, "\nprogram:\n");
		fputs(program_text, f);
	}
	fflush(f);
}

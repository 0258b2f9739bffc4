// SPDX-License-Identifier: MIT
/* mmfuzz run: replay programs, report violations. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"
#include "cli.h"

static const char run_usage[] =
	"usage: mmfuzz run [options] FILE...\n"
	"\n"
	"Run each program (text or binary: text starts with the line 'mmfuzz 1',\n"
	"after blank lines and comments) on the deterministic scheduler, with every\n"
	"checker on.  Exit 0 when all run clean, 1 on a violation (report on stderr),\n"
	"2 on bad input or usage (then nothing runs).\n"
	"\n"
	"  --trace            print the interleaving: step, task, cpu, op, yield point,\n"
	"                     switch (on stderr with --json)\n"
	"  --json             one JSON object per file and line on stdout\n"
	"  --sched=POLICY     input (the program's schedule, default), pct:D[:SEED],\n"
	"                     random:SEED, rr\n"
	"  --inject NAME      turn a bug switch on (repeatable; mmfuzz bugs lists them)\n"
	"  --max-steps N      livelock bound: steps without an op beginning or a task\n"
	"                     ending (default 200000, at most 1000000000), plus a step\n"
	"                     per page the machine's size allows\n"
	"  --expect           exit 1 unless every file has an expect: line and meets it\n"
	"  --no-bugs          ignore the programs' own bug switches (--inject still applies)\n"
	"  --report-known     a known race of the kernel the model pins (6.6's drain:\n"
	"                     known-6.6@drain_pages_zone) is a violation, not an excuse\n"
	"  --text, --binary   read every FILE as that form, whatever it looks like\n"
	"  --target T         binary FILEs mean what they mean to fuzz target T (mm)\n"
	"  -q, --quiet        no per-file status line\n"
	"\n"
	"A schedule decision that never fires is a warning on stderr\n"
	"(FILE:LINE: warning: ...) and \"decisions_never_fired\" in --json.\n"
	"free_pages of a handle that is not live (not allocated yet, its allocation\n"
	"failed, or freed already) does nothing: a handle names an allocation.\n";

/* The operations and yield-point types, for people writing programs. */
static void run_help_reference(void)
{
	int i, k;

	printf("\nOperations (one per line of a task; \"hN = \" names the handle an op makes,\n"
	       "\"irq\" before the name runs those marked [irq] in interrupt context;\n"
	       "arguments in [] may be left out):\n");
	for (i = 0; i < ops_count(); i++) {
		const struct op_desc *d = op_by_index(i);
		char args[128] = "";
		int n = 0;

		for (k = 0; k < d->nargs && n < (int)sizeof(args); k++) {
			const struct op_arg *a = &d->args[k];

			if (a->kind == ARG_HANDLE)
				n += snprintf(args + n, sizeof(args) - (size_t)n, " %sN", a->hk->prefix);
			else
				n += snprintf(args + n, sizeof(args) - (size_t)n, a->has_def ? " [%s=]" : " %s=",
					      a->name);
		}
		printf("  %-20s%-26s%s%s\n", d->name, args, d->irq_ok ? "[irq] " : "", d->desc);
	}
	printf("\nYield points (schedule decisions name them FUNC:TYPE(WHAT)):\n ");
	for (i = 0; i < NR_YIELD_TYPES; i++)
		printf(" %s", yield_type_name((enum yield_type)i));
	printf("\n");
}

static struct prog *trace_prog;
static FILE *trace_out;		/* stdout, or stderr beside --json */

static void print_trace(struct fsched *fs, const struct task *t, const struct yield_site *s,
			int switched_to)
{
	if (!t) {
		fprintf(trace_out, "%8s  start%44s-> T%d\n", "0", "", switched_to);
		return;
	}
	fprintf(trace_out, "%8llu  T%d cpu%d op%-3d %-18s ", (unsigned long long)fs->step, t->id,
		t->cpu, t->op, prog_op_name(t->id, t->op, trace_prog));
	if (switched_to >= 0)
		fprintf(trace_out, "%-44s -> T%d\n", s ? s->name : "?", switched_to);
	else
		fprintf(trace_out, "%s\n", s ? s->name : "?");
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static bool expect_met(const struct prog *p, const struct run_result *r)
{
	if (p->expect == EXPECT_CLEAN)
		return r->outcome == RUN_CLEAN;
	if (p->expect == EXPECT_VIOLATION)
		return r->outcome == RUN_VIOLATION && !strcmp(r->v.signature, p->expect_sig);
	return true;
}

/* The program's own decisions that never fired, each a warning, and those
 * that fired to an id no task or kernel thread of the run had; how many
 * never fired. */
static int never_fired(struct exec *e, const struct input *in, const struct run_opts *o,
		       const struct run_result *r)
{
	const struct prog *p = in->prog;
	static bool fired[PROG_MAX_DEC];
	int i, n;

	if (o->sched != SCHED_FROM_INPUT || !p->ndec)
		return 0;
	n = decisions_never_fired(e, p, fired);
	if (n && !p->keyed)
		fprintf(stderr, "%s: warning: %d of the %d schedule decisions never fired\n",
			in->path, n, p->ndec);
	for (i = 0; i < p->ndec && p->keyed; i++)
		if (!fired[i])
			fprintf(stderr, "%s:%d: warning: this decision never fired\n", in->path,
				p->dec_line[i]);
		else if (p->dec[i].target >= r->ntasks)
			fprintf(stderr, "%s:%d: warning: -> T%d: no task or kernel thread of that "
				"id ran (T0..T%d did): this decision changes nothing\n", in->path,
				p->dec_line[i], p->dec[i].target, r->ntasks - 1);
	return n;
}

int cmd_run(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "trace", no_argument, 0, 't' }, { "json", no_argument, 0, 'j' },
		{ "sched", required_argument, 0, 's' }, { "inject", required_argument, 0, 'i' },
		{ "max-steps", required_argument, 0, 'm' }, { "expect", no_argument, 0, 'e' },
		{ "quiet", no_argument, 0, 'q' }, { "no-bugs", no_argument, 0, 'B' },
		{ "report-known", no_argument, 0, 'K' },
		{ "text", no_argument, 0, 'T' }, { "target", required_argument, 0, 'G' }, { "binary", no_argument, 0, 'b' },
		{ "help", no_argument, 0, 'h' }, { 0 } };
	struct run_opts o = { 0 };
	bool trace = false, json = false, want_expect = false, quiet = false, no_bugs = false;
	enum input_form form = INPUT_AUTO;
	struct input *in;
	struct exec *e;
	uint64_t v;
	int c, i, n, bad = 0, violations = 0, mismatches = 0, errors = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", lo, NULL)) != -1) {
		switch (c) {
		case 't': trace = true; break;
		case 'j': json = true; break;
		case 'e': want_expect = true; break;
		case 'q': quiet = true; break;
		case 'B': no_bugs = true; break;
		case 'K': check_report_known = true; break;
		case 'G':
			if (input_target_opt("run", optarg))
				return EXIT_USAGE;
			break;
		case 'T':
		case 'b':
			if (input_form_opt("run", c == 'T' ? "text" : "binary", &form))
				return EXIT_USAGE;
			break;
		case 's':
			if (parse_sched_opt("run", optarg, &o))
				return EXIT_USAGE;
			break;
		case 'i':
			if (parse_inject(optarg, &o))
				return EXIT_USAGE;
			break;
		case 'm':
			if (parse_num("run", "--max-steps", optarg, 1, 1000000000, &v))
				return EXIT_USAGE;
			o.max_steps = v;
			break;
		case 'h':
			fputs(run_usage, stdout);
			run_help_reference();
			return EXIT_CLEAN;
		default:
			opt_error("run", c, argv);
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n <= 0) {
		fprintf(stderr, "mmfuzz run: no FILE given (mmfuzz run --help)\n");
		return EXIT_USAGE;
	}
	in = calloc((size_t)n, sizeof(*in));
	if (!in)
		return EXIT_USAGE;
	/* every input is checked before anything runs */
	for (i = 0; i < n; i++)
		if (input_load(&in[i], argv[optind + i], form))
			bad++;
		else if (want_expect && in[i].prog->expect == EXPECT_NONE && ++bad)
			fprintf(stderr, "%s: no expect: line, nothing for --expect to check\n",
				argv[optind + i]);
	for (i = 0; i < n && no_bugs; i++)
		if (in[i].prog)
			in[i].prog->bugs = 0;
	if (bad) {
		for (i = 0; i < n; i++)
			input_free(&in[i]);
		free(in);
		return EXIT_USAGE;
	}
	e = exec_create();
	if (!e) {
		fprintf(stderr, "mmfuzz run: cannot create the executor\n");
		for (i = 0; i < n; i++)
			input_free(&in[i]);
		free(in);
		return EXIT_USAGE;
	}
	trace_out = json ? stderr : stdout;
	/* which of the programs' own decisions fire */
	if (o.sched == SCHED_FROM_INPUT)
		o.rec = REC_INPUT;
	if (trace)
		o.trace = print_trace;
	for (i = 0; i < n; i++) {
		struct run_result r;
		int unfired;
		bool met;

		trace_prog = in[i].prog;
		if (trace)
			fprintf(trace_out, "== %s\n", in[i].path);
		if (exec_run(e, in[i].prog, &o, &r)) {
			fprintf(stderr, "%s: cannot build the world\n", in[i].path);
			errors++;
			continue;
		}
		met = expect_met(in[i].prog, &r);
		unfired = never_fired(e, &in[i], &o, &r);
		if (r.outcome == RUN_VIOLATION) {
			/* naming a binary's decisions replays it once more, exactly:
			 * the traces the report shows are the same */
			char *text = program_text(e, &in[i], &o, &r);

			fprintf(stderr, "%s:\n", in[i].path);
			report_write(stderr, &r.v, exec_sched(e), prog_op_name, in[i].prog, text);
			free(text);
			violations++;
		}
		if (!met) {
			mismatches++;
			if (want_expect)
				fprintf(stderr, "%s: expected %s%s, got %s\n", in[i].path,
					in[i].prog->expect == EXPECT_CLEAN ? "clean" : "violation ",
					in[i].prog->expect == EXPECT_CLEAN ? "" : in[i].prog->expect_sig,
					r.outcome == RUN_CLEAN ? "clean" : r.v.signature);
		}
		if (json) {
			printf("{\"file\":");
			json_str(in[i].path);
			printf(",\"result\":\"%s\",\"signature\":",
			       r.outcome == RUN_CLEAN ? "clean" : "violation");
			json_str(r.outcome == RUN_CLEAN ? "" : r.v.signature);
			printf(",\"trace_hash\":\"%016llx\",\"steps\":%llu,\"ops\":%d,\"switches\":%lu",
			       (unsigned long long)r.trace_hash, (unsigned long long)r.steps, r.ops_run,
			       r.switches);
			if (in[i].prog->expect != EXPECT_NONE)
				printf(",\"expect_met\":%s", met ? "true" : "false");
			printf(",\"decisions_never_fired\":%d}\n", unfired);
		} else if (!quiet) {
			printf("%s: %s%s (steps %llu, switches %lu, trace %016llx)\n", in[i].path,
			       r.outcome == RUN_CLEAN ? "clean" : "violation ",
			       r.outcome == RUN_CLEAN ? "" : r.v.signature,
			       (unsigned long long)r.steps, r.switches,
			       (unsigned long long)r.trace_hash);
		}
		fflush(stdout);
	}
	exec_destroy(e);
	for (i = 0; i < n; i++)
		input_free(&in[i]);
	free(in);
	if (errors)
		return EXIT_USAGE;
	if (want_expect)
		return mismatches ? EXIT_FOUND : EXIT_CLEAN;
	return violations ? EXIT_FOUND : EXIT_CLEAN;
}

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
	"Run each program (text or binary, told apart by the text form's first\n"
	"line) on the deterministic scheduler, with every checker on.\n"
	"Exit 0 when all run clean, 1 on a violation (report on stderr),\n"
	"2 on bad input or usage (then nothing runs).\n"
	"\n"
	"  --trace            print the interleaving: step, task, cpu, op, yield point, switch\n"
	"  --json             one JSON object per file and line on stdout\n"
	"  --sched=POLICY     input (the program's schedule, default), pct:D[:SEED],\n"
	"                     random:SEED, rr\n"
	"  --inject NAME      turn a bug switch on (repeatable; mmfuzz bugs lists them)\n"
	"  --max-steps N      livelock bound (default 200000)\n"
	"  --expect           exit 1 unless every file meets its expect: line\n"
	"  --no-bugs          ignore the programs' own bug switches (--inject still applies)\n"
	"  -q, --quiet        no per-file status line\n";

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

static void print_trace(struct fsched *fs, const struct task *t, const struct yield_site *s,
			int switched_to)
{
	if (!t) {
		printf("%8s  start%44s-> T%d\n", "0", "", switched_to);
		return;
	}
	printf("%8llu  T%d cpu%d op%-3d %-18s ", (unsigned long long)fs->step, t->id, t->cpu, t->op,
	       prog_op_name(t->id, t->op, trace_prog));
	if (switched_to >= 0)
		printf("%-44s -> T%d\n", s ? s->name : "?", switched_to);
	else
		printf("%s\n", s ? s->name : "?");
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

int cmd_run(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "trace", no_argument, 0, 't' }, { "json", no_argument, 0, 'j' },
		{ "sched", required_argument, 0, 's' }, { "inject", required_argument, 0, 'i' },
		{ "max-steps", required_argument, 0, 'm' }, { "expect", no_argument, 0, 'e' },
		{ "quiet", no_argument, 0, 'q' }, { "no-bugs", no_argument, 0, 'B' },
		{ "help", no_argument, 0, 'h' }, { 0 } };
	struct run_opts o = { 0 };
	bool trace = false, json = false, want_expect = false, quiet = false, no_bugs = false;
	struct input *in;
	struct exec *e;
	int c, i, n, bad = 0, violations = 0, mismatches = 0, errors = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", lo, NULL)) != -1) {
		switch (c) {
		case 't': trace = true; break;
		case 'j': json = true; break;
		case 'e': want_expect = true; break;
		case 'q': quiet = true; break;
		case 'B': no_bugs = true; break;
		case 's':
			if (parse_sched_opt(optarg, &o)) {
				fprintf(stderr, "mmfuzz run: bad --sched '%s'\n%s", optarg, run_usage);
				return EXIT_USAGE;
			}
			break;
		case 'i':
			if (parse_inject(optarg, &o))
				return EXIT_USAGE;
			break;
		case 'm':
			if (parse_u64(optarg, &o.max_steps) || !o.max_steps) {
				fprintf(stderr, "mmfuzz run: bad --max-steps '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(run_usage, stdout);
			run_help_reference();
			return EXIT_CLEAN;
		default:
			fputs(run_usage, stderr);
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (n <= 0) {
		fprintf(stderr, "mmfuzz run: no FILE given\n%s", run_usage);
		return EXIT_USAGE;
	}
	in = calloc((size_t)n, sizeof(*in));
	if (!in)
		return EXIT_USAGE;
	/* every input is checked before anything runs */
	for (i = 0; i < n; i++)
		if (input_load(&in[i], argv[optind + i]))
			bad++;
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
	if (!e)
		return EXIT_USAGE;
	if (trace)
		o.trace = print_trace;
	for (i = 0; i < n; i++) {
		struct run_result r;
		bool met;

		trace_prog = in[i].prog;
		if (trace)
			printf("== %s\n", in[i].path);
		if (exec_run(e, in[i].prog, &o, &r)) {
			fprintf(stderr, "%s: cannot build the world\n", in[i].path);
			errors++;
			continue;
		}
		met = expect_met(in[i].prog, &r);
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
			printf("}\n");
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

// SPDX-License-Identifier: MIT
/* mmfuzz minimize: shrink a failing program, keep its signature. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char min_usage[] =
	"usage: mmfuzz minimize [options] FILE -o OUT\n"
	"\n"
	"Shrink a failing program while it fails with the same signature: make its\n"
	"schedule explicit, drop tasks, operations and preemptions, shrink arguments\n"
	"and the machine.  Writes OUT as text with its expect: line, and prints how\n"
	"many operations and preemptions remain (the bug depth).\n"
	"\n"
	"  -o OUT            where to write the minimized program (text): a new name or\n"
	"                    a regular file is replaced atomically, a device or FIFO\n"
	"                    written in place\n"
	"  --sched=POLICY    schedule to reproduce the failure under (as for run)\n"
	"  --inject NAME     bug switch to turn on (baked into the output)\n"
	"  --no-bugs         ignore the program's own switches (a crash file's bytes\n"
	"                    carry some; the fuzz targets ignore them too)\n"
	"  --max-runs N      give up after N candidate runs (default 20000, at most\n"
	"                    100000000)\n"
	"  --max-steps N     livelock bound: steps without progress (default 200000,\n"
	"                    at most 1000000000), plus a step a page of the machine\n"
	"  --time S          stop after S seconds with the smallest program so far\n"
	"                    (default 300, at most 86400; 0: no limit)\n"
	"  --text, --binary  read FILE as that form, whatever it looks like\n"
	"  --target T        a binary FILE means what it means to fuzz target T (mm)\n";

int cmd_minimize(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sched", required_argument, 0, 's' }, { "inject", required_argument, 0, 'i' },
		{ "max-runs", required_argument, 0, 'r' }, { "max-steps", required_argument, 0, 'm' },
		{ "time", required_argument, 0, 't' },
		{ "no-bugs", no_argument, 0, 'B' }, { "text", no_argument, 0, 'T' }, { "target", required_argument, 0, 'G' },
		{ "binary", no_argument, 0, 'b' }, { "help", no_argument, 0, 'h' }, { 0 } };
	enum input_form form = INPUT_AUTO;
	struct run_opts o = { 0 };
	bool no_bugs = false, tsan;
	const char *out = NULL;
	uint64_t max_runs = 20000, seconds = 300;
	struct min_stats st;
	struct input in;
	struct exec *e;
	char *text;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'B': no_bugs = true; break;
		case 'G':
			if (input_target_opt("minimize", optarg))
				return EXIT_USAGE;
			break;
		case 'T':
		case 'b':
			if (input_form_opt("minimize", c == 'T' ? "text" : "binary", &form))
				return EXIT_USAGE;
			break;
		case 's':
			if (parse_sched_opt("minimize", optarg, &o))
				return EXIT_USAGE;
			break;
		case 'i':
			if (parse_inject(optarg, &o))
				return EXIT_USAGE;
			break;
		case 'r':
			if (parse_num("minimize", "--max-runs", optarg, 1, 100000000, &max_runs))
				return EXIT_USAGE;
			break;
		case 'm':
			if (parse_num("minimize", "--max-steps", optarg, 1, 1000000000, &o.max_steps))
				return EXIT_USAGE;
			break;
		case 't':
			if (parse_num("minimize", "--time", optarg, 0, 86400, &seconds))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(min_usage, stdout);
			return EXIT_CLEAN;
		default:
			opt_error("minimize", c, argv);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mmfuzz minimize: no FILE given (mmfuzz minimize --help)\n");
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "mmfuzz minimize: one FILE only, not '%s' too\n", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (!out) {
		fprintf(stderr, "mmfuzz minimize: no -o OUT given (mmfuzz minimize --help)\n");
		return EXIT_USAGE;
	}
	if (input_load(&in, argv[optind], form))
		return EXIT_USAGE;
	if (output_check(out)) {
		input_free(&in);
		return EXIT_USAGE;
	}
	if (no_bugs)
		in.prog->bugs = 0;
	e = exec_create();
	if (!e) {
		fprintf(stderr, "mmfuzz minimize: cannot create the executor\n");
		input_free(&in);
		return EXIT_USAGE;
	}
	tsan = in.prog->expect_tsan_race;
	rc = prog_minimize_budget(e, in.prog, &o, (int)max_runs, (unsigned)seconds, &st);
	if (rc && !st.signature[0]) {
		fprintf(stderr, "%s: runs clean: nothing to minimize\n", in.path);
		exec_destroy(e);
		input_free(&in);
		return EXIT_CLEAN;
	}
	if (rc) {
		fprintf(stderr, "%s: the minimized program no longer fails with %s\n", in.path,
			st.signature);
		exec_destroy(e);
		input_free(&in);
		return EXIT_USAGE;
	}
	if (tsan && in.is_text)
		fprintf(stderr, "%s: warning: expect_tsan: race is not in %s: the minimized "
			"program was not run under TSan (mmfuzz run it in the TSan build)\n",
			in.path, out);
	text = prog_print_text(in.prog);
	rc = write_output(out, text, strlen(text)) ? EXIT_USAGE : EXIT_FOUND;
	if (rc == EXIT_FOUND)
		printf("%s: %s\n  ops %d (from %d), tasks %d (from %d), preemptions %d (bug depth), "
		       "decisions %d, %d runs%s\n  wrote %s\n",
		       in.path, st.signature, st.ops, st.ops_before, st.tasks, st.tasks_before,
		       st.preemptions, st.decisions, st.runs,
		       st.out_of_time ? " (time up: the smallest so far)" : "", out);
	free(text);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

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
	"  -o OUT            where to write the minimized program (text)\n"
	"  --sched=POLICY    schedule to reproduce the failure under (as for run)\n"
	"  --inject NAME     bug switch to turn on (baked into the output)\n"
	"  --no-bugs         ignore the program's own switches (a crash file's bytes\n"
	"                    carry some; the fuzz targets ignore them too)\n"
	"  --max-runs N      give up after N candidate runs (default 20000)\n"
	"  --max-steps N     livelock bound (default 200000)\n";

int cmd_minimize(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sched", required_argument, 0, 's' }, { "inject", required_argument, 0, 'i' },
		{ "max-runs", required_argument, 0, 'r' }, { "max-steps", required_argument, 0, 'm' },
		{ "no-bugs", no_argument, 0, 'B' }, { "help", no_argument, 0, 'h' }, { 0 } };
	struct run_opts o = { 0 };
	bool no_bugs = false;
	const char *out = NULL;
	uint64_t max_runs = 20000;
	struct min_stats st;
	struct input in;
	struct exec *e;
	char *text;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'B': no_bugs = true; break;
		case 's':
			if (parse_sched_opt(optarg, &o)) {
				fprintf(stderr, "mmfuzz minimize: bad --sched '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'i':
			if (parse_inject(optarg, &o))
				return EXIT_USAGE;
			break;
		case 'r':
			if (parse_u64(optarg, &max_runs) || !max_runs) {
				fprintf(stderr, "mmfuzz minimize: bad --max-runs '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'm':
			if (parse_u64(optarg, &o.max_steps) || !o.max_steps) {
				fprintf(stderr, "mmfuzz minimize: bad --max-steps '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(min_usage, stdout);
			return EXIT_CLEAN;
		default:
			fputs(min_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !out) {
		fputs(min_usage, stderr);
		return EXIT_USAGE;
	}
	if (input_load(&in, argv[optind]))
		return EXIT_USAGE;
	if (no_bugs)
		in.prog->bugs = 0;
	e = exec_create();
	if (!e)
		return EXIT_USAGE;
	rc = prog_minimize(e, in.prog, &o, (int)max_runs, &st);
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
	text = prog_print_text(in.prog);
	rc = write_atomic(out, text, strlen(text)) ? EXIT_USAGE : EXIT_FOUND;
	if (rc == EXIT_FOUND)
		printf("%s: %s\n  ops %d (from %d), tasks %d (from %d), preemptions %d (bug depth), "
		       "decisions %d, %d runs\n  wrote %s\n",
		       in.path, st.signature, st.ops, st.ops_before, st.tasks, st.tasks_before,
		       st.preemptions, st.decisions, st.runs, out);
	free(text);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

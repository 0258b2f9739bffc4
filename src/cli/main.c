// SPDX-License-Identifier: MIT
/* mmfuzz: a fuzzing and stress tester for allocator concurrency. */
#include <stdio.h>
#include <string.h>

#include "../sched/san.h"
#include "cli.h"

#if MMFUZZ_TSAN
/* A race ends the run at once, the same way every time. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:second_deadlock_stack=1";
}
#endif

static const char usage[] =
	"usage: mmfuzz COMMAND [options]\n"
	"\n"
	"A userspace model of the Linux 6.6 page allocator (buddy, per-CPU lists,\n"
	"vmstat) run under schedules that fuzzers choose, with checkers for races\n"
	"and counter leaks.\n"
	"\n"
	"commands:\n"
	"  run FILE...          replay programs (text or binary), report violations\n"
	"  decode FILE          print a program as text\n"
	"  encode FILE -o OUT   write a program in the binary form\n"
	"  minimize FILE -o OUT shrink a failing program, keeping its signature\n"
	"  bugs                 list the bug switches\n"
	"  fuzz                 a fuzzing campaign (libFuzzer, AFL++, or the random baseline)\n"
	"  triage DIR           crash files grouped by signature, one reproducer each\n"
	"  stress WORKLOAD      will-it-scale style workloads on real threads\n"
	"\n"
	"mmfuzz COMMAND --help tells more.  Exit status: 0 clean, 1 violation found,\n"
	"2 bad input or usage.\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "run", cmd_run }, { "decode", cmd_decode }, { "encode", cmd_encode },
		{ "minimize", cmd_minimize }, { "bugs", cmd_bugs }, { "fuzz", cmd_fuzz }, { "triage", cmd_triage }, { "stress", cmd_stress },
	};
	size_t i;

	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return EXIT_CLEAN;
	}
	sites_init();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "mmfuzz: unknown command '%s'\n\n%s", argv[1], usage);
	return EXIT_USAGE;
}

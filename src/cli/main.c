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
	"  targets              list the fuzz targets, their layers and operations\n"
	"  gen                  print programs the generator builds (--seed N)\n"
	"  fuzz                 a fuzzing campaign (libFuzzer, AFL++, or the random baseline)\n"
	"  triage DIR           crash files grouped by signature, one reproducer each\n"
	"  stress WORKLOAD      will-it-scale style workloads on real threads\n"
	"\n"
	"mmfuzz COMMAND --help tells more; mmfuzz --version the version, the commit\n"
	"and the compiler it was built from.  Exit status: 0 clean, 1 violation\n"
	"found, 2 bad input or usage.\n";

#ifndef MMFUZZ_VERSION
#define MMFUZZ_VERSION "0.1"
#endif
#ifndef MMFUZZ_COMMIT
#define MMFUZZ_COMMIT "unknown"
#endif

/* clang's __VERSION__ names it, gcc's is the number alone */
#if defined(__clang__)
#define COMPILER __VERSION__
#else
#define COMPILER "gcc " __VERSION__
#endif

static void version(void)
{
	printf("mmfuzz %s\ncommit %s\ncompiler %s\nbuild %s\n", MMFUZZ_VERSION, MMFUZZ_COMMIT,
	       COMPILER, MMFUZZ_TSAN ? "tsan" : MMFUZZ_ASAN ? "asan" : "plain");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "run", cmd_run }, { "decode", cmd_decode }, { "encode", cmd_encode },
		{ "minimize", cmd_minimize }, { "bugs", cmd_bugs }, { "fuzz", cmd_fuzz }, { "triage", cmd_triage }, { "stress", cmd_stress },
		{ "targets", cmd_targets }, { "gen", cmd_gen },
	};
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "mmfuzz: no command given\n\n%s", usage);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return EXIT_CLEAN;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		version();
		return EXIT_CLEAN;
	}
	sites_init();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "mmfuzz: unknown command '%s' (mmfuzz --help lists them)\n", argv[1]);
	return EXIT_USAGE;
}

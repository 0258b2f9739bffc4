// SPDX-License-Identifier: MIT
/*
 * mmfuzz gen: print programs the generator builds (src/prog/gen.c), the
 * ones the custom mutator starts from on an empty corpus, so a user sees
 * what it makes: handles made in one task and used or freed in another, a
 * shared zone, remote CPUs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../prog/gen.h"
#include "cli.h"

static const char gen_usage[] =
	"usage: mmfuzz gen [--seed N] [--count K] [--ops N] [--target T]\n"
	"\n"
	"Print programs built by the generator from the operation descriptors and\n"
	"their relations (handles made, used and freed across tasks, a shared zone,\n"
	"remote CPUs), as text: the same seed prints the same program.\n"
	"  --seed N    the first program's seed (0); the K programs take N..N+K-1\n"
	"  --count K   how many programs (1, at most 1000)\n"
	"  --ops N     operations per program (0: 8 to 24, by the seed)\n"
	"  --target T  the fuzz target whose operations it uses (mm)\n";

int cmd_gen(int argc, char **argv)
{
	const struct fuzz_target *t = target_default();
	uint64_t seed = 0, count = 1, nops = 0, k;
	static struct prog p;
	int i;

	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fputs(gen_usage, stdout);
			return EXIT_CLEAN;
		}
		if (strcmp(o, "--seed") && strcmp(o, "--count") && strcmp(o, "--ops") &&
		    strcmp(o, "--target")) {
			fprintf(stderr, "mmfuzz gen: unexpected argument '%s' (mmfuzz gen --help)\n", o);
			return EXIT_USAGE;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "mmfuzz gen: %s needs a value\n", o);
			return EXIT_USAGE;
		}
		i++;
		if (!strcmp(o, "--seed") && parse_num("gen", o, argv[i], 0, UINT64_MAX, &seed))
			return EXIT_USAGE;
		if (!strcmp(o, "--count") && parse_num("gen", o, argv[i], 1, 1000, &count))
			return EXIT_USAGE;
		if (!strcmp(o, "--ops") && parse_num("gen", o, argv[i], 0, PROG_MAX_OPS, &nops))
			return EXIT_USAGE;
		if (!strcmp(o, "--target")) {
			ops_init();
			t = target_lookup(argv[i]);
			if (!t) {
				fprintf(stderr, "mmfuzz gen: unknown target '%s' (mmfuzz targets)\n",
					argv[i]);
				return EXIT_USAGE;
			}
		}
	}
	for (k = 0; k < count; k++) {
		char *text;

		gen_program(&p, t, seed + k, (int)nops);
		text = prog_print_text(&p);
		if (!text)
			return EXIT_USAGE;
		printf("%s# seed %llu, target %s\n%s", k ? "\n" : "", (unsigned long long)(seed + k),
		       t->name, text);
		free(text);
	}
	return EXIT_CLEAN;
}

// SPDX-License-Identifier: MIT
/*
 * mmfuzz targets: the fuzz targets, read from the registry of struct
 * fuzz_target (FUZZ_TARGET in src/prog/ops*.c) and the text parser's.
 * `fuzz --help`, `fuzz --target`'s error and the CI scripts read the same
 * list; tests/cli.t checks that the Makefile's FUZZ_TARGETS equals
 * `mmfuzz targets --programs`, so a layer's new target is built, offered
 * and run in CI once it is registered.
 */
#include <stdio.h>
#include <string.h>

#include "../prog/ops.h"
#include "cli.h"

static const char targets_usage[] =
	"usage: mmfuzz targets [-v | --programs]\n"
	"\n"
	"The fuzz targets `mmfuzz fuzz --target` takes, one a line: the name, the\n"
	"layers whose operations its inputs hold, how many operations, what it is.\n"
	"The program targets come from the registry (FUZZ_TARGET in src/prog/ops*.c);\n"
	"text is the parser of the readable form (fuzz/fuzz_text.c).\n"
	"  -v          each target's operations too\n"
	"  --programs  the program targets' names only, one a line (the Makefile's\n"
	"              FUZZ_TARGETS, which a test keeps equal to this list)\n";

/* The layers of target @t's operations, in code order, "a,b". */
static void target_layers(const struct fuzz_target *t, char *out, size_t n)
{
	int i, nops = ops_count();

	out[0] = 0;
	for (i = 0; i < nops; i++) {
		const struct op_desc *d = op_by_index(i);
		const char *p;
		size_t len = strlen(d->layer);
		bool have = false;

		if (!target_has(t, d))
			continue;
		for (p = out; (p = strstr(p, d->layer)); p += len)
			if ((p == out || p[-1] == ',') && (p[len] == ',' || !p[len]))
				have = true;
		if (!have && strlen(out) + len + 2 < n)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "," : "", d->layer);
	}
}

static int target_nops(const struct fuzz_target *t)
{
	int i, k = 0, nops = ops_count();

	for (i = 0; i < nops; i++)
		k += target_has(t, op_by_index(i));
	return k;
}

void fuzz_target_names(char *out, size_t n)
{
	int i;

	out[0] = 0;
	for (i = 0; i < targets_count(); i++) {
		const char *name = target_by_index(i)->name;

		snprintf(out + strlen(out), n - strlen(out), "%s%s%s", out[0] ? ", " : "", name,
			 !strcmp(name, FUZZ_DEFAULT_TARGET) ? " (default)" : "");
	}
	snprintf(out + strlen(out), n - strlen(out), "%stext", out[0] ? ", " : "");
}

int cmd_targets(int argc, char **argv)
{
	bool verbose = false, programs = false;
	int i, j;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(targets_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--programs")) {
			programs = true;
		} else {
			fprintf(stderr, "mmfuzz targets: unexpected argument '%s' (mmfuzz targets --help)\n",
				argv[i]);
			return EXIT_USAGE;
		}
	}
	if (verbose && programs) {
		fprintf(stderr, "mmfuzz targets: -v or --programs, not both\n");
		return EXIT_USAGE;
	}
	for (i = 0; i < targets_count(); i++) {
		const struct fuzz_target *t = target_by_index(i);
		char layers[256];

		if (programs) {
			printf("%s\n", t->name);
			continue;
		}
		target_layers(t, layers, sizeof(layers));
		printf("%-10s layers %-24s %3d operations  %s\n", t->name, layers, target_nops(t),
		       t->desc);
		if (!verbose)
			continue;
		for (j = 0; j < ops_count(); j++) {
			const struct op_desc *d = op_by_index(j);

			if (target_has(t, d))
				printf("%-10s   0x%02x %-22s %s\n", "", d->code, d->name, d->layer);
		}
	}
	if (!programs)
		printf("%-10s layers %-24s %3s operations  %s\n", "text", "-", "-",
		       "the parser of the readable form (fuzz/fuzz_text.c): its inputs are text");
	return EXIT_CLEAN;
}

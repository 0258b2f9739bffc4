// SPDX-License-Identifier: MIT
/* mmfuzz decode / encode: between the binary and the text form. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char decode_usage[] =
	"usage: mmfuzz decode FILE\n"
	"\n"
	"Print a program (binary or text) as canonical text on stdout: its schedule\n"
	"decisions named by the yield points they fire at (the program is run once\n"
	"to name them), and expect: saying what the run found.\n";

static const char encode_usage[] =
	"usage: mmfuzz encode FILE -o OUT\n"
	"\n"
	"Write a program (text or binary) in the binary form the fuzzers mutate.\n"
	"Schedule decisions become step counts (the program is run once to count\n"
	"them); a decision that never fires is dropped, with a warning.\n";

int cmd_decode(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct run_result r;
	struct input in;
	struct exec *e;
	char *text;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(decode_usage, stdout);
		return EXIT_CLEAN;
	}
	if (argc != 2) {
		fputs(decode_usage, stderr);
		return EXIT_USAGE;
	}
	if (input_load(&in, argv[1]))
		return EXIT_USAGE;
	e = exec_create();
	if (!e)
		return EXIT_USAGE;
	exec_run(e, in.prog, &o, &r);
	/* a text keeps the expectation it states; a binary gets what happened */
	text = program_text(e, &in, &o, in.is_text && in.prog->expect != EXPECT_NONE ? NULL : &r);
	fputs(text, stdout);
	free(text);
	exec_destroy(e);
	input_free(&in);
	return EXIT_CLEAN;
}

int cmd_encode(int argc, char **argv)
{
	const char *out = NULL, *file = NULL;
	struct run_opts o = { 0 };
	struct run_result r;
	struct input in;
	struct exec *e;
	uint8_t *buf;
	long n;
	int i, rc = EXIT_CLEAN;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(encode_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] == '-' || file) {
			fputs(encode_usage, stderr);
			return EXIT_USAGE;
		} else {
			file = argv[i];
		}
	}
	if (!file || !out) {
		fputs(encode_usage, stderr);
		return EXIT_USAGE;
	}
	if (input_load(&in, file))
		return EXIT_USAGE;
	e = exec_create();
	if (!e)
		return EXIT_USAGE;
	if (in.prog->keyed) {
		o.rec = REC_INPUT;
		exec_run(e, in.prog, &o, &r);
		if (r.ndec_fired < in.prog->ndec) {
			for (i = r.ndec_fired; i < in.prog->ndec; i++)
				fprintf(stderr, "%s:%d: warning: this decision never fired: dropped\n",
					file, in.prog->dec_line[i]);
		}
		exec_step_decisions(e, in.prog);
	}
	buf = malloc(1 << 20);
	n = buf ? prog_encode_binary(in.prog, buf, 1 << 20) : -1;
	if (n < 0) {
		fprintf(stderr, "%s: cannot encode\n", file);
		rc = EXIT_USAGE;
	} else if (write_atomic(out, buf, (size_t)n)) {
		rc = EXIT_USAGE;
	}
	free(buf);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

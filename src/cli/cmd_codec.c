// SPDX-License-Identifier: MIT
/* mmfuzz decode / encode: between the binary and the text form. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char decode_usage[] =
	"usage: mmfuzz decode [--text | --binary] FILE\n"
	"\n"
	"Print a program (binary or text) as canonical text on stdout: its schedule\n"
	"decisions named by the yield points they fire at (the program is run once\n"
	"to name them), and expect: saying what the run found.\n"
	"\n"
	"  --text, --binary   read FILE as that form, whatever it looks like\n"
	"  --target T         a binary FILE means what it means to fuzz target T\n"
	"                     (default mm)\n";

static const char encode_usage[] =
	"usage: mmfuzz encode [--text | --binary] [--keep-going [--dropped NOTE]] FILE -o OUT\n"
	"\n"
	"Write a program (text or binary) in the binary form the fuzzers mutate.\n"
	"Schedule decisions become step counts (the program is run once to count\n"
	"them); a decision that never fires is dropped, with a warning.\n"
	"\n"
	"  -o OUT             where to write it: a new name or a regular file is\n"
	"                     replaced atomically, a device or FIFO written in place\n"
	"  --text, --binary   read FILE as that form, whatever it looks like\n"
	"  --target T         a binary FILE means what it means to fuzz target T\n"
	"                     (default mm)\n"
	"  --keep-going       a seed, not a file asked for: a decision at a yield site,\n"
	"                     an operation (and the ops that take its handle), a header\n"
	"                     key, a bug switch or an aim this tree does not have is\n"
	"                     dropped, said in one line on stderr, and the rest encoded\n"
	"                     (make corpus; mmfuzz fuzz's --seeds)\n"
	"  --dropped NOTE     with --keep-going: that line also in the file NOTE, which\n"
	"                     is removed when nothing was dropped\n";

static bool keep_going;
static const char *dropped_note;

/* decode and encode: [--text|--binary] FILE [-o OUT]; -1 after an error,
 * 1 after --help */
static int codec_args(const char *cmd, const char *usage, int argc, char **argv, bool want_out,
		      const char **file, const char **out, enum input_form *form)
{
	static const struct option lo[] = {
		{ "text", no_argument, 0, 'T' }, { "target", required_argument, 0, 'G' },
		{ "binary", no_argument, 0, 'b' }, { "help", no_argument, 0, 'h' },
		{ "keep-going", no_argument, 0, 'K' }, { "dropped", required_argument, 0, 'D' },
		{ 0 } };
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, want_out ? ":o:h" : ":h", lo, NULL)) != -1) {
		switch (c) {
		case 'G':
			if (input_target_opt(cmd, optarg))
				return -1;
			break;
		case 'T':
		case 'b':
			if (input_form_opt(cmd, c == 'T' ? "text" : "binary", form))
				return -1;
			break;
		case 'o':
			*out = optarg;
			break;
		case 'K':
		case 'D':
			if (!want_out) {
				opt_error(cmd, '?', argv);
				return -1;
			}
			if (c == 'K')
				keep_going = true;
			else
				dropped_note = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			opt_error(cmd, c, argv);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mmfuzz %s: no FILE given (mmfuzz %s --help)\n", cmd, cmd);
		return -1;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "mmfuzz %s: one FILE only, not '%s' too\n", cmd, argv[optind + 1]);
		return -1;
	}
	if (dropped_note && !keep_going) {
		fprintf(stderr, "mmfuzz %s: --dropped goes with --keep-going\n", cmd);
		return -1;
	}
	if (want_out && !*out) {
		fprintf(stderr, "mmfuzz %s: no -o OUT given (mmfuzz %s --help)\n", cmd, cmd);
		return -1;
	}
	*file = argv[optind];
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	enum input_form form = INPUT_AUTO;
	const char *file = NULL, *out = NULL;
	struct run_opts o = { 0 };
	struct run_result r;
	struct input in;
	struct exec *e;
	char *text;
	int rc;

	rc = codec_args("decode", decode_usage, argc, argv, false, &file, &out, &form);
	if (rc)
		return rc > 0 ? EXIT_CLEAN : EXIT_USAGE;
	if (input_load(&in, file, form))
		return EXIT_USAGE;
	e = exec_create();
	if (!e) {
		fprintf(stderr, "mmfuzz decode: cannot create the executor\n");
		input_free(&in);
		return EXIT_USAGE;
	}
	exec_run(e, in.prog, &o, &r);
	/* a text keeps the expectation it states; a binary gets what happened */
	text = program_text(e, &in, &o, in.is_text && in.prog->expect != EXPECT_NONE ? NULL : &r);
	rc = EXIT_CLEAN;
	if (!text) {
		fprintf(stderr, "mmfuzz decode: out of memory\n");
		rc = EXIT_USAGE;
	} else if (fputs(text, stdout) < 0 || fflush(stdout)) {
		perror("mmfuzz decode: stdout");
		rc = EXIT_USAGE;
	}
	free(text);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

int cmd_encode(int argc, char **argv)
{
	enum input_form form = INPUT_AUTO;
	const char *out = NULL, *file = NULL;
	struct text_mode mode = { .keep_going = true };
	struct run_opts o = { 0 };
	struct run_result r;
	struct input in;
	struct exec *e;
	uint8_t *buf;
	long n;
	int i, rc;

	rc = codec_args("encode", encode_usage, argc, argv, true, &file, &out, &form);
	if (rc)
		return rc > 0 ? EXIT_CLEAN : EXIT_USAGE;
	input_mode = keep_going ? &mode : NULL;
	if (input_load(&in, file, form))
		return EXIT_USAGE;
	if (keep_going && dropped_note) {
		char line[400];
		int len = 0;

		if (mode.dropped)
			len = snprintf(line, sizeof(line), "%s; the seed kept (%d dropped in "
				       "all)\n", mode.note, mode.dropped);
		if (mode.dropped ? write_output(dropped_note, line, (size_t)len)
				 : unlink(dropped_note) && errno != ENOENT) {
			if (!mode.dropped)
				fprintf(stderr, "mmfuzz encode: %s: %s\n", dropped_note, strerror(errno));
			input_free(&in);
			return EXIT_USAGE;
		}
	}
	if (mode.dropped)
		fprintf(stderr, "%s; the seed kept (%d dropped in all)\n", mode.note, mode.dropped);
	if (output_check(out)) {
		input_free(&in);
		return EXIT_USAGE;
	}
	e = exec_create();
	if (!e) {
		fprintf(stderr, "mmfuzz encode: cannot create the executor\n");
		input_free(&in);
		return EXIT_USAGE;
	}
	if (in.prog->keyed) {
		static bool fired[PROG_MAX_DEC];

		o.rec = REC_INPUT;
		exec_run(e, in.prog, &o, &r);
		decisions_never_fired(e, in.prog, fired);
		for (i = 0; i < in.prog->ndec; i++)
			if (!fired[i])
				fprintf(stderr, "%s:%d: warning: this decision never fired: dropped\n",
					file, in.prog->dec_line[i]);
		exec_step_decisions(e, in.prog);
	}
	rc = EXIT_CLEAN;
	buf = malloc(1 << 20);
	n = buf ? prog_encode_binary(in.prog, buf, 1 << 20) : -1;
	if (n < 0) {
		fprintf(stderr, "%s: cannot encode\n", file);
		rc = EXIT_USAGE;
	} else if (write_output(out, buf, (size_t)n)) {
		rc = EXIT_USAGE;
	}
	free(buf);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

// SPDX-License-Identifier: MIT
/* mmfuzz decode / encode: between the binary and the text form. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../prog/codec.h"
#include "cli.h"

static const char decode_usage[] =
	"usage: mmfuzz decode [--text | --binary] FILE\n"
	"\n"
	"Print a program (binary or text) as canonical text on stdout: its schedule\n"
	"decisions named by the yield points they fire at (the program is run once\n"
	"to name them), and expect: saying what the run found (a text's expect: that\n"
	"the run contradicts is replaced, with a warning on stderr).  A text's\n"
	"decisions that never fire are dropped, with a warning.\n"
	"\n"
	"  --text, --binary   read FILE as that form, whatever it looks like\n"
	"  --target T         a binary FILE means what it means to fuzz target T\n"
	"                     (default mm)\n";

static const char encode_usage[] =
	"usage: mmfuzz encode [--text | --binary] [--keep-going [--dropped NOTE]] [--inject NAME]\n"
	"                     FILE -o OUT\n"
	"\n"
	"Write a program (text or binary) in the binary form the fuzzers mutate.\n"
	"Schedule decisions become step counts (the program is run once to count\n"
	"them); a decision that never fires is dropped, with a warning.  It writes\n"
	"version 3 of the binary form, which holds decisions to kernel threads too;\n"
	"a decision at a need_resched() site it cannot hold: encode refuses it (exit 2).\n"
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
	"                     is removed when nothing was dropped\n"
	"  --inject NAME      count the steps with bug switch NAME on (repeatable): a\n"
	"                     seed for a campaign that injects it (mmfuzz fuzz --inject),\n"
	"                     whose yield points the switch may move\n";

static bool keep_going;
static const char *dropped_note;
static struct run_opts encode_inject;	/* --inject: its .inject only */

/* Nothing was dropped: an old note goes, if it is a regular file (the only
 * kind encode writes in its place); a device, a FIFO or a link is left as
 * it is (--dropped /dev/null must not unlink the device).  0, or -1 with
 * errno. */
static int note_remove(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(st.st_mode))
		return 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* decode and encode: [--text|--binary] FILE [-o OUT]; -1 after an error,
 * 1 after --help */
static int codec_args(const char *cmd, const char *usage, int argc, char **argv, bool want_out,
		      const char **file, const char **out, enum input_form *form)
{
	static const struct option lo[] = {
		{ "text", no_argument, 0, 'T' }, { "target", required_argument, 0, 'G' },
		{ "binary", no_argument, 0, 'b' }, { "help", no_argument, 0, 'h' },
		{ "keep-going", no_argument, 0, 'K' }, { "dropped", required_argument, 0, 'D' },
		{ "inject", required_argument, 0, 'I' }, { 0 } };
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
		case 'I':
			if (!want_out) {
				opt_error(cmd, '?', argv);
				return -1;
			}
			if (parse_inject(optarg, &encode_inject))
				return -1;
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

/* The line (from 1) of a text's header key "@key:", 0 if none. */
static int header_line(const struct input *in, const char *key)
{
	const char *s = (const char *)in->data, *end = s + in->size;
	size_t kn = strlen(key);
	int line = 1;

	for (; s < end; line++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *w = s;

		while (w < end && (*w == ' ' || *w == '\t'))
			w++;
		if ((size_t)(end - w) > kn && !memcmp(w, key, kn) && w[kn] == ':')
			return line;
		if (!nl)
			break;
		s = nl + 1;
	}
	return 0;
}

/* A text's decisions that never fired, each a warning: decode and encode
 * drop them. */
static void warn_unfired(const struct input *in, const bool *fired, int ndec, const int *lines)
{
	int i;

	for (i = 0; i < ndec; i++)
		if (!fired[i])
			fprintf(stderr, "%s:%d: warning: this decision never fired: dropped\n",
				in->path, lines[i]);
}

/* A text's decision that fired to an id no task or kernel thread had in
 * the run: the scheduler picked as if it were not there. */
static void warn_no_target(const struct input *in, const bool *fired, int ndec, const int *lines,
			   const int *targets, int ntasks)
{
	int i;

	for (i = 0; i < ndec; i++)
		if (fired[i] && targets[i] >= ntasks)
			fprintf(stderr, "%s:%d: warning: -> T%d: no task or kernel thread of that "
				"id ran (T0..T%d did): this decision changes nothing\n", in->path,
				lines[i], targets[i], ntasks - 1);
}

int cmd_decode(int argc, char **argv)
{
	static bool fired[PROG_MAX_DEC];
	static int lines[PROG_MAX_DEC], targets[PROG_MAX_DEC];
	enum input_form form = INPUT_AUTO;
	const char *file = NULL, *out = NULL;
	enum expect_kind stated;
	char stated_sig[sizeof(((struct prog *)0)->expect_sig)];
	struct run_result r;
	struct input in;
	struct exec *e;
	bool keyed;
	char *text;
	int rc, ndec, i, explicit;

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
	stated = in.prog->expect;
	snprintf(stated_sig, sizeof(stated_sig), "%s", in.prog->expect_sig);
	keyed = in.prog->keyed;
	ndec = in.prog->ndec;
	memcpy(lines, in.prog->dec_line, sizeof(lines));
	for (i = 0; i < ndec; i++)
		targets[i] = in.prog->dec[i].target;
	explicit = prog_decode_canonical(e, in.prog, &r, fired);
	if (explicit < 0) {
		fprintf(stderr, "%s: cannot build the world\n", in.path);
		exec_destroy(e);
		input_free(&in);
		return EXIT_USAGE;
	}
	if (keyed) {
		warn_unfired(&in, fired, ndec, lines);
		warn_no_target(&in, fired, ndec, lines, targets, r.ntasks);
	}
	if (explicit > 0)
		fprintf(stderr, "%s: warning: a decision that never fired held the PCT fallback "
			"off until it was passed: the run's schedule is printed as explicit "
			"decisions (fallback none)\n", in.path);
	/* expect: is what the run found; a text that says otherwise is told */
	if (in.is_text && stated != EXPECT_NONE &&
	    (stated != in.prog->expect || strcmp(stated_sig, in.prog->expect_sig)))
		fprintf(stderr, "%s:%d: warning: expect: %s%s%s, but the run gives %s%s: "
			"printed what the run found\n", in.path, header_line(&in, "expect"),
			stated == EXPECT_CLEAN ? "clean" : "violation", stated_sig[0] ? " " : "",
			stated_sig, r.outcome == RUN_CLEAN ? "clean" : "violation ",
			r.outcome == RUN_CLEAN ? "" : r.v.signature);
	text = prog_print_text(in.prog);
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

/* The column of @line's first word in the text of @in (1 if none). */
static int line_col(const struct input *in, int line)
{
	const char *s = (const char *)in->data, *end = s + in->size, *a;
	int l;

	for (l = 1; l < line && s < end; l++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		s = nl ? nl + 1 : end;
	}
	for (a = s; a < end && (*a == ' ' || *a == '\t'); a++)
		;
	return a < end && *a != '\n' ? (int)(a - s) + 1 : 1;
}

int cmd_encode(int argc, char **argv)
{
	static bool fired[PROG_MAX_DEC];
	static int lines[PROG_MAX_DEC], targets[PROG_MAX_DEC];
	enum input_form form = INPUT_AUTO;
	const char *out = NULL, *file = NULL;
	struct text_mode mode = { .keep_going = true };
	struct run_result r;
	struct input in;
	struct exec *e;
	uint8_t *buf;
	bool keyed;
	int rc, ndec, i, bad = -1;
	long n;

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
				 : note_remove(dropped_note)) {
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
	prog_codec_inject(encode_inject.inject);
	keyed = in.prog->keyed;
	ndec = in.prog->ndec;
	memcpy(lines, in.prog->dec_line, sizeof(lines));
	for (i = 0; i < ndec; i++)
		targets[i] = in.prog->dec[i].target;
	rc = EXIT_CLEAN;
	buf = malloc(1 << 20);
	n = buf ? prog_encode_canonical(e, in.prog, buf, 1 << 20, &r, fired, &bad) : -1;
	if (n == -3) {
		fprintf(stderr, "%s:%d:%d: a decision at need_resched(): the binary form keys "
			"decisions by step, and need_resched() is a step only for a decision "
			"named at its site; not written\n", in.path, lines[bad],
			line_col(&in, lines[bad]));
		rc = EXIT_USAGE;
	} else if (n < 0) {
		fprintf(stderr, "%s: cannot encode\n", file);
		rc = EXIT_USAGE;
	} else {
		if (keyed) {
			warn_unfired(&in, fired, ndec, lines);
			warn_no_target(&in, fired, ndec, lines, targets, r.ntasks);
		}
		if (write_output(out, buf, (size_t)n))
			rc = EXIT_USAGE;
	}
	free(buf);
	exec_destroy(e);
	input_free(&in);
	return rc;
}

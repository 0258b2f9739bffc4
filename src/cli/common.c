// SPDX-License-Identifier: MIT
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bugs/bugs.h"

#include "../prog/form.h"

#define MAX_INPUT (4u << 20)

/* The whole file, NUL-terminated; -1 after saying why. */
static int read_file(const char *path, uint8_t **out, size_t *len)
{
	uint8_t *buf = NULL, *bigger;
	size_t n = 0, cap = 4096;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: is a directory, not a program\n", path);
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t k;

		if (!buf || n == cap) {
			if (buf)
				cap *= 2;
			if (cap > MAX_INPUT) {
				fprintf(stderr, "%s: larger than %u bytes: not a program\n", path,
					MAX_INPUT);
				goto fail;
			}
			bigger = realloc(buf, cap + 1);
			if (!bigger) {
				fprintf(stderr, "%s: out of memory\n", path);
				goto fail;
			}
			buf = bigger;
		}
		k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			goto fail;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	close(fd);
	return -1;
}

const struct fuzz_target *input_target;
struct text_mode *input_mode;

int input_target_opt(const char *cmd, const char *name)
{
	int i;

	input_target = target_lookup(name);
	if (input_target)
		return 0;
	fprintf(stderr, "mmfuzz %s: no fuzz target '%s'; there are:", cmd, name);
	for (i = 0; i < targets_count(); i++)
		fprintf(stderr, " %s", target_by_index(i)->name);
	fprintf(stderr, "\n");
	return -1;
}

int input_load(struct input *in, const char *path, enum input_form form)
{
	char err[512];
	int line, col;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (read_file(path, &in->data, &in->size))
		goto fail;
	in->prog = malloc(sizeof(*in->prog));
	if (!in->prog) {
		fprintf(stderr, "%s: out of memory\n", path);
		goto fail;
	}
	switch (prog_detect_form(in->data, in->size, &line, &col)) {
	case PROG_FORM_EMPTY:
		if (form == INPUT_BINARY)
			break;
		fprintf(stderr, "%s: empty: not a program (--binary runs it as the empty "
			"binary program)\n", path);
		goto fail;
	case PROG_FORM_NOT_PROGRAM:
		if (form != INPUT_AUTO)
			break;
		fprintf(stderr, "%s:%d:%d: text without the line '%s' that starts a program "
			"(--binary reads it as a binary program)\n", path, line, col, TEXT_MAGIC);
		goto fail;
	case PROG_FORM_TEXT:
		in->is_text = true;
		break;
	case PROG_FORM_BINARY:
		break;
	}
	if (form != INPUT_AUTO)
		in->is_text = form == INPUT_TEXT;
	if (!in->is_text) {
		prog_decode_binary_target(in->data, in->size, in->prog,
					  input_target ? input_target : target_default());
		return 0;
	}
	if (prog_parse_text_mode((const char *)in->data, in->size, path, in->prog, err, sizeof(err),
				 input_mode)) {
		fprintf(stderr, "%s\n", err);
		goto fail;
	}
	return 0;
fail:
	input_free(in);
	return -1;
}

int input_form_opt(const char *cmd, const char *opt, enum input_form *form)
{
	enum input_form f = !strcmp(opt, "text") ? INPUT_TEXT : INPUT_BINARY;

	if (*form != INPUT_AUTO && *form != f) {
		fprintf(stderr, "mmfuzz %s: --text and --binary do not go together\n", cmd);
		return -1;
	}
	*form = f;
	return 0;
}

void input_free(struct input *in)
{
	free(in->data);
	free(in->prog);
	memset(in, 0, sizeof(*in));
}

/* Decimal or 0x hex digits and nothing else: no sign, no spaces, no octal
 * (the text form's numbers read the same way). */
int parse_u64(const char *s, uint64_t *out)
{
	bool hex = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	if (!s || !*d || strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789") != strlen(d))
		return -1;
	errno = 0;
	v = strtoull(d, &end, hex ? 16 : 10);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

int parse_num(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
	      uint64_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v < lo || v > hi) {
		fprintf(stderr, "mmfuzz %s: bad %s '%s': a number from %llu to %llu\n", cmd, opt, s,
			(unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_sched_opt(const char *cmd, const char *v, struct run_opts *o)
{
	const char *colon;
	char depth[32];
	uint64_t x;

	if (!strcmp(v, "input")) {
		o->sched = SCHED_FROM_INPUT;
	} else if (!strcmp(v, "rr")) {
		o->sched = SCHED_RR;
	} else if (!strncmp(v, "pct:", 4)) {
		colon = strchr(v + 4, ':');
		o->sched = SCHED_PCT;
		o->seed = 1;
		snprintf(depth, sizeof(depth), "%.*s", colon ? (int)(colon - v - 4) : 31, v + 4);
		if (parse_u64(depth, &x) || x < 1 || x > PCT_MAX_DEPTH) {
			fprintf(stderr, "mmfuzz %s: bad --sched '%s': the PCT depth is a number "
				"from 1 to %d\n", cmd, v, PCT_MAX_DEPTH);
			return -1;
		}
		o->depth = (int)x;
		if (colon && parse_u64(colon + 1, &o->seed)) {
			fprintf(stderr, "mmfuzz %s: bad --sched '%s': the seed is a number from 0 "
				"to %llu\n", cmd, v, (unsigned long long)UINT64_MAX);
			return -1;
		}
	} else if (!strncmp(v, "random:", 7)) {
		o->sched = SCHED_RANDOM;
		if (parse_u64(v + 7, &o->seed)) {
			fprintf(stderr, "mmfuzz %s: bad --sched '%s': the seed is a number from 0 "
				"to %llu\n", cmd, v, (unsigned long long)UINT64_MAX);
			return -1;
		}
	} else {
		fprintf(stderr, "mmfuzz %s: bad --sched '%s': input, pct:DEPTH[:SEED], "
			"random:SEED or rr\n", cmd, v);
		return -1;
	}
	return 0;
}

void opt_error(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	char name[64];

	/* a long option as written (without its =value), or the short one */
	if (!strncmp(arg, "--", 2))
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	else if (optopt)
		snprintf(name, sizeof(name), "-%c", optopt);
	else
		snprintf(name, sizeof(name), "%s", arg);
	if (c == ':')
		fprintf(stderr, "mmfuzz %s: %s needs a value\n", cmd, name);
	else if (!strncmp(arg, "--", 2) && strchr(arg, '='))
		fprintf(stderr, "mmfuzz %s: '%s': an unknown option, or one that takes no value "
			"(mmfuzz %s --help)\n", cmd, arg, cmd);
	else
		fprintf(stderr, "mmfuzz %s: unknown option '%s' (mmfuzz %s --help)\n", cmd, name, cmd);
}

int parse_inject(const char *name, struct run_opts *o)
{
	int id = bug_lookup(name);

	if (id < 0) {
		fprintf(stderr, "mmfuzz: unknown bug switch '%s' (mmfuzz bugs lists them)\n", name);
		return -1;
	}
	o->inject |= 1ULL << id;
	return 0;
}

int decisions_never_fired(const struct exec *e, const struct prog *p, bool *fired)
{
	const struct sched_decision *rec;
	int nrec = fsched_recorded(exec_sched(e), &rec), i, j = 0, n = 0;

	for (i = 0; i < p->ndec; i++) {
		const struct sched_decision *d = &p->dec[i];
		bool hit = false;

		/* they fire in order: the next recorded one is this one, or this
		 * one was passed by */
		if (p->keyed && j < nrec) {
			const struct sched_decision *r = &rec[j];

			hit = d->task == r->task && d->target == r->target &&
			      (d->task < 0 || (d->op == r->op && d->site == r->site && d->occ == r->occ));
		} else if (!p->keyed) {
			hit = i < nrec;
		}
		j += hit;
		n += !hit;
		if (fired)
			fired[i] = hit;
	}
	return n;
}

char *program_text(struct exec *e, const struct input *in, const struct run_opts *o,
		   const struct run_result *outcome)
{
	return exec_program_text(e, in->prog, o, outcome);
}

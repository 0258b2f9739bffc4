// SPDX-License-Identifier: MIT
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../bugs/bugs.h"

#define MAX_INPUT (4u << 20)

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n = 0, cap = 4096;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = malloc(cap + 1);
	while (buf) {
		size_t k = fread(buf + n, 1, cap - n, f);

		n += k;
		if (n < cap)
			break;
		if (cap >= MAX_INPUT) {
			fprintf(stderr, "%s: larger than %u bytes\n", path, MAX_INPUT);
			free(buf);
			fclose(f);
			return -1;
		}
		cap *= 2;
		buf = realloc(buf, cap + 1);
	}
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

int input_load(struct input *in, const char *path)
{
	char err[512];

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (read_file(path, &in->data, &in->size))
		return -1;
	in->prog = malloc(sizeof(*in->prog));
	if (!in->prog)
		return -1;
	in->is_text = prog_is_text(in->data, in->size);
	if (!in->is_text) {
		prog_decode_binary(in->data, in->size, in->prog);
		return 0;
	}
	if (strlen((const char *)in->data) != in->size) {
		fprintf(stderr, "%s:1:1: NUL byte in a text program\n", path);
		return -1;
	}
	if (prog_parse_text((const char *)in->data, path, in->prog, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

void input_free(struct input *in)
{
	free(in->data);
	free(in->prog);
	memset(in, 0, sizeof(*in));
}

int write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[4096];
	int fd;
	ssize_t k;
	size_t off = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", tmp, strerror(errno));
		return -1;
	}
	while (off < len) {
		k = write(fd, (const char *)data + off, len - off);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: %s\n", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return -1;
		}
		off += (size_t)k;
	}
	if (fsync(fd) || close(fd) || rename(tmp, path)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end || errno)
		return -1;
	*out = v;
	return 0;
}

int parse_sched_opt(const char *v, struct run_opts *o)
{
	uint64_t x;

	if (!strcmp(v, "input")) {
		o->sched = SCHED_FROM_INPUT;
	} else if (!strcmp(v, "rr")) {
		o->sched = SCHED_RR;
	} else if (!strncmp(v, "pct:", 4)) {
		char *colon = strchr(v + 4, ':');

		o->sched = SCHED_PCT;
		o->seed = 1;
		if (colon) {
			*colon = 0;
			if (parse_u64(colon + 1, &o->seed))
				return -1;
		}
		if (parse_u64(v + 4, &x) || x < 1 || x > PCT_MAX_DEPTH)
			return -1;
		o->depth = (int)x;
	} else if (!strncmp(v, "random:", 7)) {
		o->sched = SCHED_RANDOM;
		if (parse_u64(v + 7, &o->seed))
			return -1;
	} else {
		return -1;
	}
	return 0;
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

char *program_text(struct exec *e, const struct input *in, const struct run_opts *o,
		   const struct run_result *outcome)
{
	return exec_program_text(e, in->prog, o, outcome);
}

/* SPDX-License-Identifier: MIT */
/*
 * The text parser's internals, shared by text.c (the driver, operations,
 * schedule) and text_header.c (the header's keys): the line lexer with its
 * FILE:LINE:COL errors and the state of one parse.
 */
#ifndef MMFUZZ_PROG_TEXT_PARSE_H
#define MMFUZZ_PROG_TEXT_PARSE_H

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

struct parser {
	const char *file;
	const char *line;	/* current line, NUL-terminated copy */
	const char *pos;
	int lineno;
	char *err;
	size_t errlen;
	bool failed;
	struct text_mode *mode;	/* NULL: strict (every name the tree's) */
};

__attribute__((format(printf, 3, 4)))
static inline int perr(struct parser *ps, const char *at, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (ps->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d:%d: %s", ps->file, ps->lineno,
		 at ? (int)(at - ps->line) + 1 : 1, msg);
	ps->failed = true;
	return -1;
}

/*
 * A name the tree does not have: an error (perr's -1), or in the seed mode
 * (mode->keep_going) 1, the thing dropped and said in mode->note (the first):
 * "FILE:LINE:COL: MESSAGE: DROPPED dropped".
 */
__attribute__((format(printf, 4, 5)))
static inline int pdrop(struct parser *ps, const char *at, const char *dropped, const char *fmt,
			...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ps->mode || !ps->mode->keep_going)
		return perr(ps, at, "%s", msg);
	if (!ps->mode->dropped++)
		snprintf(ps->mode->note, sizeof(ps->mode->note), "%s:%d:%d: %s: %s dropped",
			 ps->file, ps->lineno, at ? (int)(at - ps->line) + 1 : 1, msg, dropped);
	return 1;
}

static inline void skip_ws(struct parser *ps)
{
	while (*ps->pos == ' ' || *ps->pos == '\t' || *ps->pos == '\r')
		ps->pos++;
}

/* The next token: a run of characters up to space, '=', or end of line. */
static inline size_t token(struct parser *ps, const char **start)
{
	const char *s;

	skip_ws(ps);
	s = ps->pos;
	while (*ps->pos && !isspace((unsigned char)*ps->pos) && *ps->pos != '=')
		ps->pos++;
	*start = s;
	return (size_t)(ps->pos - s);
}

static inline bool at_eol(struct parser *ps)
{
	skip_ws(ps);
	return !*ps->pos;
}

static inline bool tok_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(s, word, n);
}

/* A decimal or 0x hexadecimal number: "010" is ten, not eight. */
static inline int parse_num(struct parser *ps, const char *s, size_t n, long lo, long hi, long *out,
		     const char *what)
{
	char buf[32], *end;
	int base = 10;
	long v;

	if (!n || n >= sizeof(buf))
		return perr(ps, s, "expected a number for %s", what);
	memcpy(buf, s, n);
	buf[n] = 0;
	if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		base = 16;
	errno = 0;
	v = strtol(buf, &end, base);
	if (*end || errno || end == buf || buf[0] == '+' || (base == 16 && end == buf + 2) ||
	    isspace((unsigned char)buf[0]))
		return perr(ps, s, "'%s' is not a number (%s)", buf, what);
	if (v < lo || v > hi)
		return perr(ps, s, "%s must be between %ld and %ld, not %ld", what, lo, hi, v);
	*out = v;
	return 0;
}

/* "name=value": the name's start and length, the value's. */
static inline int parse_kv_any(struct parser *ps, const char **key, size_t *kn, const char **val,
			size_t *vlen)
{
	*kn = token(ps, key);
	if (!*kn)
		return perr(ps, ps->pos, "expected name=value");
	if (*ps->pos != '=')
		return perr(ps, ps->pos, "expected '=' after %.*s", (int)*kn, *key);
	ps->pos++;
	*val = ps->pos;
	while (*ps->pos && !isspace((unsigned char)*ps->pos))
		ps->pos++;
	*vlen = (size_t)(ps->pos - *val);
	if (!*vlen)
		return perr(ps, *val, "expected a value for %.*s", (int)*kn, *key);
	return 0;
}

static inline int parse_kv(struct parser *ps, const char *name, const char **val, size_t *vlen)
{
	const char *k;
	size_t n;

	skip_ws(ps);
	if (!*ps->pos)
		return perr(ps, ps->pos, "expected %s=", name);
	if (parse_kv_any(ps, &k, &n, val, vlen))
		return -1;
	if (!tok_is(k, n, name))
		return perr(ps, k, "expected %s=, found '%.*s'", name, (int)n, k);
	return 0;
}

static inline int parse_kv_num(struct parser *ps, const char *name, long lo, long hi, long *out)
{
	const char *v;
	size_t n;

	if (parse_kv(ps, name, &v, &n))
		return -1;
	return parse_num(ps, v, n, lo, hi, out, name);
}

/* "T3" */
static inline int parse_task_ref(struct parser *ps, const char *s, size_t n, int ntasks, int *out)
{
	long v;

	if (n < 2 || s[0] != 'T')
		return perr(ps, s, "expected a task like T0");
	if (parse_num(ps, s + 1, n - 1, 0, ntasks - 1, &v, "task"))
		return -1;
	*out = (int)v;
	return 0;
}

struct label {
	char name[32];
	int op;
	const struct handle_kind *hk;
};

struct ref {
	char name[32];
	int col, line, op, arg;
	char *linecopy;
};

struct keypos {
	int line, col;
	char *linecopy;
};

struct pstate {
	struct prog *p;
	struct label labels[PROG_MAX_OPS];
	int nlabels;
	struct ref refs[PROG_MAX_OPS * OP_MAX_ARGS];
	int nrefs;
	int cur_task;
	struct keypos key_at[MM_CONFIG_MAX];	/* where each config key was given */
	/* each header section's marks (header.h: where "mms:" named each
	 * task) and its "given once" flag */
	struct keypos sec_at[HDR_MAX_SECTIONS][HDR_MARKS];
	bool sec_seen[HDR_MAX_SECTIONS];
	bool seen_bugs, seen_expect, seen_tsan;
	bool in_schedule;
	int ntask_ops[PROG_MAX_TASKS];
	/* the seed mode: each task's op lines read (kept or dropped), which of
	 * them were dropped, and the handles the dropped ops would have made */
	int nread_ops[PROG_MAX_TASKS];
	bool op_dropped[PROG_MAX_TASKS][PROG_MAX_OPS];
	struct label dropped_labels[PROG_MAX_OPS];
	int ndropped_labels;
	bool seen_aim;
};

/* "key: value" in the header (@k, @kn: the key; ps->pos at its ':'). */
int text_parse_header(struct parser *ps, struct pstate *st, const char *k, size_t kn);
/* The config as a whole, checked once the header is over. */
int text_check_config(struct parser *ps, struct pstate *st);
/* Once the tasks are known: each header section's parse_end ("mms:"
 * named only tasks the program has). */
int text_check_sections(struct parser *ps, struct pstate *st);

#endif /* MMFUZZ_PROG_TEXT_PARSE_H */

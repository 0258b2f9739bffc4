// SPDX-License-Identifier: MIT
/*
 * The TLB layer's header section: its config keys (src/mm/fork.c) and the
 * header mms, "mms: T0 T1, T2": the address spaces that exist when the
 * program starts and the tasks that run in each from their first
 * operation.  The tasks of one mm are threads of one process, the mms are
 * apart by commas.  A task it does not name gets a private mm at its first
 * operation that needs one (use_mm may still move it).
 *
 * Binary (v3 section 3; v2 bytes 60..63): 4 bits a task, task i at bits
 * 4i..4i+3 of the little-endian word: 0, its mm is made at its first
 * need; else the tasks with one value share an mm made before any task
 * runs (numbered canonically: any values decode).
 */
#include "ops_tlb.h"

#include "text_parse.h"

static void mms_canonicalize(void *area, const struct prog *p)
{
	unsigned char *mm_of = area, to[256] = { 0 };
	int t, n = 0;

	for (t = 0; t < PROG_MAX_TASKS; t++) {
		unsigned g = mm_of[t];

		if (t >= p->ntasks || !g) {
			mm_of[t] = 0;
			continue;
		}
		if (!to[g])
			to[g] = (unsigned char)++n;
		mm_of[t] = to[g];
	}
}

void prog_canonical_mms(struct prog *p)
{
	mms_canonicalize(tlb_mm_of(p), p);
}

int prog_nmms(const struct prog *p)
{
	const unsigned char *mm_of = tlb_mm_of_c(p);
	int t, n = 0;

	for (t = 0; t < p->ntasks; t++)
		if (mm_of[t] > n)
			n = mm_of[t];
	return n;
}

static void mms_decode(void *area, const uint8_t *b, size_t n, const struct prog *p)
{
	unsigned char *mm_of = area;
	int i;

	for (i = 0; i < p->ntasks; i++)
		mm_of[i] = (size_t)(i / 2) < n ? (unsigned char)(b[i / 2] >> (4 * (i % 2)) & 0xf) : 0;
}

static size_t mms_encode(const void *area, const struct prog *p, uint8_t *b, size_t cap)
{
	const unsigned char *mm_of = area;
	size_t n = 0;
	int i;

	if (cap < PROG_MAX_TASKS / 2)
		return 0;
	memset(b, 0, PROG_MAX_TASKS / 2);
	for (i = 0; i < p->ntasks; i++)
		b[i / 2] |= (uint8_t)((mm_of[i] & 0xf) << (4 * (i % 2)));
	for (i = 0; i < PROG_MAX_TASKS / 2; i++)
		if (b[i])
			n = (size_t)i + 1;
	return n;
}

static int mms_parse(struct hdr_parse *h, const char *name, const char *k)
{
	struct parser *ps = h->ps;
	unsigned char *mm_of = h->area;
	int mm = 1, n = 0, t;

	if (strcmp(name, "mms"))
		return 1;
	if (*h->seen)
		return perr(ps, k, "'mms' given twice");
	*h->seen = true;
	for (;;) {
		const char *w;

		skip_ws(ps);
		if (!*ps->pos || *ps->pos == ',') {
			if (!n && mm == 1 && !*ps->pos)
				return perr(ps, ps->pos, "mms: expected the tasks of each mm, like "
					    "'mms: T0 T1, T2'");
			if (!n)
				return perr(ps, ps->pos, "an mm without tasks: expected a task like T0");
			if (!*ps->pos)
				return 0;
			ps->pos++;
			mm++;
			n = 0;
			continue;
		}
		w = ps->pos;
		while (*ps->pos && *ps->pos != ',' && !isspace((unsigned char)*ps->pos))
			ps->pos++;
		if (parse_task_ref(ps, w, (size_t)(ps->pos - w), PROG_MAX_TASKS, &t))
			return -1;
		if (mm_of[t] == mm)
			return perr(ps, w, "T%d named twice in one mm", t);
		if (mm_of[t])
			return perr(ps, w, "T%d is in two mms: a task runs in one address space", t);
		mm_of[t] = (unsigned char)mm;
		h->at[t].line = ps->lineno;
		h->at[t].col = (int)(w - ps->line);
		h->at[t].linecopy = strdup(ps->line);
		n++;
	}
}

/* Once the tasks are known: every task "mms:" named is one of them. */
static int mms_parse_end(struct hdr_parse *h)
{
	struct parser *ps = h->ps;
	const unsigned char *mm_of = h->area;
	const struct prog *p = h->p;
	int t;

	_Static_assert(HDR_MARKS >= PROG_MAX_TASKS, "a mark a task");
	for (t = p->ntasks; t < PROG_MAX_TASKS; t++)
		if (mm_of[t]) {
			ps->lineno = h->at[t].line;
			ps->line = h->at[t].linecopy;
			return perr(ps, ps->line + h->at[t].col,
				    "mms: T%d, but the program's tasks are T0%s%.0d", t,
				    p->ntasks > 1 ? "..T" : "", p->ntasks - 1);
		}
	return 0;
}

/* "mms: T0 T1, T2", in canonical order */
static void mms_print(const void *area, const struct prog *p, char *buf, size_t n)
{
	const unsigned char *mm_of = area;
	size_t len = 0;
	int i, t, nmms = prog_nmms(p);

	buf[0] = 0;
	for (i = 1; i <= nmms && len < n; i++) {
		len += (size_t)snprintf(buf + len, n - len, i == 1 ? "mms:" : ",");
		for (t = 0; t < p->ntasks && len < n; t++)
			if (mm_of[t] == i)
				len += (size_t)snprintf(buf + len, n - len, " T%d", t);
	}
	if (nmms && len < n)
		snprintf(buf + len, n - len, "\n");
}

static void mms_task_removed(void *area, const struct prog *p, int t)
{
	unsigned char *mm_of = area;
	int i;

	for (i = t; i + 1 < PROG_MAX_TASKS; i++)
		mm_of[i] = mm_of[i + 1];
	mm_of[PROG_MAX_TASKS - 1] = 0;
	mms_canonicalize(area, p);
}

/* Fewer header mms: each task the header names, out of its mm (a private
 * one at its first need, as when the header does not name it), the last
 * task first. */
static int mms_shrink(void *area, const struct prog *p, int k)
{
	unsigned char *mm_of = area;
	int t = p->ntasks - 1 - k;

	if (t < 0)
		return 0;
	if (!mm_of[t])
		return -1;
	mm_of[t] = 0;
	mms_canonicalize(area, p);
	return 1;
}

static bool mms_run_begin(const void *area, const struct prog *p)
{
	(void)area;
	return prog_nmms(p) > 0;
}

struct hdr_section tlb_section = {
	.layer = "tlb", .id = 3, .cfg_base = 16,
	.area_size = PROG_MAX_TASKS,
	.decode = mms_decode, .encode = mms_encode, .v2_off = 60, .v2_len = PROG_MAX_TASKS / 2,
	.parse = mms_parse, .parse_end = mms_parse_end, .print = mms_print,
	.canonicalize = mms_canonicalize, .task_removed = mms_task_removed,
	.shrink = mms_shrink, .run_begin = mms_run_begin,
};
HEADER_SECTION(tlb_section);

// SPDX-License-Identifier: MIT
/*
 * The text form, parsed (with FILE:LINE:COL errors); text_print.c prints it.
 *
 *   mmfuzz 1                          first line: marks the text form
 *   cpus: 2                           header: config, switches, outcome
 *   bugs: pcp_free_nolock
 *   expect: violation I-PCP-1@drain_pages_zone
 *
 *   task T0 cpu=0                     a task and the CPU it starts on
 *     h0 = alloc_pages order=0 mt=movable
 *     irq free_pages h0               irq: runs in interrupt context
 *   task T1 cpu=1
 *     drain_all force=0 zone=all
 *
 *   schedule: fallback=pct:2 seed=0x1234abcd
 *     at start -> T1                  who runs first
 *     at T0.1 free_unref_page:spin_trylock(pcp->lock) #1 -> T1
 *
 * "at T0.1 SITE #N -> T1": when T0, in its op 1 (from 0), reaches yield site
 * SITE for the N-th time in that op, switch to T1.  '#' starts a comment
 * (except "#N" after a site); blank lines and spacing are free.
 */
#include "prog.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"

bool prog_is_text(const uint8_t *data, size_t size)
{
	return size >= 7 && !memcmp(data, "mmfuzz ", 7);
}

/* ------------------------------------------------------------------ */
/* parsing                                                             */

struct parser {
	const char *file;
	const char *line;	/* current line, NUL-terminated copy */
	const char *pos;
	int lineno;
	char *err;
	size_t errlen;
	bool failed;
};

__attribute__((format(printf, 3, 4)))
static int perr(struct parser *ps, const char *at, const char *fmt, ...)
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

static void skip_ws(struct parser *ps)
{
	while (*ps->pos == ' ' || *ps->pos == '\t' || *ps->pos == '\r')
		ps->pos++;
}

/* The next token: a run of characters up to space, '=', or end of line. */
static size_t token(struct parser *ps, const char **start)
{
	const char *s;

	skip_ws(ps);
	s = ps->pos;
	while (*ps->pos && !isspace((unsigned char)*ps->pos) && *ps->pos != '=')
		ps->pos++;
	*start = s;
	return (size_t)(ps->pos - s);
}

static bool at_eol(struct parser *ps)
{
	skip_ws(ps);
	return !*ps->pos;
}

static bool tok_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !strncmp(s, word, n);
}

static int parse_num(struct parser *ps, const char *s, size_t n, long lo, long hi, long *out,
		     const char *what)
{
	char buf[32], *end;
	long v;

	if (!n || n >= sizeof(buf))
		return perr(ps, s, "expected a number for %s", what);
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (*end || errno)
		return perr(ps, s, "'%s' is not a number (%s)", buf, what);
	if (v < lo || v > hi)
		return perr(ps, s, "%s must be between %ld and %ld, not %ld", what, lo, hi, v);
	*out = v;
	return 0;
}

/* "name=value": returns the value's start and length. */
static int parse_kv(struct parser *ps, const char *name, const char **val, size_t *vlen)
{
	const char *k;
	size_t n = token(ps, &k);

	if (!n)
		return perr(ps, ps->pos, "expected %s=", name);
	if (!tok_is(k, n, name))
		return perr(ps, k, "expected %s=, found '%.*s'", name, (int)n, k);
	if (*ps->pos != '=')
		return perr(ps, ps->pos, "expected '=' after %s", name);
	ps->pos++;
	*val = ps->pos;
	while (*ps->pos && !isspace((unsigned char)*ps->pos))
		ps->pos++;
	*vlen = (size_t)(ps->pos - *val);
	if (!*vlen)
		return perr(ps, *val, "expected a value for %s", name);
	return 0;
}

static int parse_kv_num(struct parser *ps, const char *name, long lo, long hi, long *out)
{
	const char *v;
	size_t n;

	if (parse_kv(ps, name, &v, &n))
		return -1;
	return parse_num(ps, v, n, lo, hi, out, name);
}

/* "T3" */
static int parse_task_ref(struct parser *ps, const char *s, size_t n, int ntasks, int *out)
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
};

struct pstate {
	struct prog *p;
	struct label labels[PROG_MAX_ALLOCS];
	int nlabels;
	struct {
		char name[32];
		int col;
		int line;
		int op;
		char *linecopy;
	} refs[PROG_MAX_OPS];
	int nrefs;
	int cur_task;
	bool seen[16];
	bool in_schedule;
	int ntask_ops[PROG_MAX_TASKS];
};

enum hkey { HK_CPUS, HK_ZONES, HK_ZONE_PAGES, HK_MAX_ORDER, HK_PAGEBLOCK, HK_HIGH, HK_BATCH,
	    HK_THRESH, HK_VARIANT, HK_BUGS, HK_EXPECT, HK_EXPECT_TSAN, NR_HKEYS };
static const char *const hkeys[NR_HKEYS] = {
	"cpus", "zones", "zone_pages", "max_order", "pageblock_order", "pcp_high", "pcp_batch",
	"stat_threshold", "variant", "bugs", "expect", "expect_tsan",
};

static int parse_header(struct parser *ps, struct pstate *st, const char *k, size_t kn)
{
	struct prog *p = st->p;
	struct mm_config *c = &p->cfg;
	long x;
	int key;

	for (key = 0; key < NR_HKEYS; key++)
		if (tok_is(k, kn, hkeys[key]))
			break;
	if (key == NR_HKEYS)
		return perr(ps, k, "unknown header key '%.*s'", (int)kn, k);
	if (st->seen[key])
		return perr(ps, k, "'%s' given twice", hkeys[key]);
	st->seen[key] = true;
	if (*ps->pos != ':')
		return perr(ps, ps->pos, "expected ':' after '%s'", hkeys[key]);
	ps->pos++;
	skip_ws(ps);
	switch (key) {
	case HK_BUGS: {
		const char *w;
		size_t wn = token(ps, &w);

		if (tok_is(w, wn, "none"))
			break;
		ps->pos = w;
		while (*ps->pos) {
			const char *b = ps->pos;
			char name[64];
			int id;

			while (*ps->pos && *ps->pos != ',' && !isspace((unsigned char)*ps->pos))
				ps->pos++;
			snprintf(name, sizeof(name), "%.*s", (int)(ps->pos - b), b);
			id = bug_lookup(name);
			if (id < 0)
				return perr(ps, b, "unknown bug switch '%s' (see mmfuzz bugs)", name);
			p->bugs |= 1u << id;
			skip_ws(ps);
			if (*ps->pos == ',')
				ps->pos++;
			skip_ws(ps);
		}
		return 0;
	}
	case HK_EXPECT: {
		const char *w;
		size_t wn = token(ps, &w);

		if (tok_is(w, wn, "clean")) {
			p->expect = EXPECT_CLEAN;
		} else if (tok_is(w, wn, "violation")) {
			const char *sig;
			size_t sn = token(ps, &sig);

			if (!sn || !memchr(sig, '@', sn))
				return perr(ps, sig, "expected a signature CHECKER@SITE");
			if (sn >= sizeof(p->expect_sig))
				return perr(ps, sig, "signature too long");
			p->expect = EXPECT_VIOLATION;
			memcpy(p->expect_sig, sig, sn);
			p->expect_sig[sn] = 0;
		} else {
			return perr(ps, w, "expect: clean, or violation CHECKER@SITE");
		}
		break;
	}
	case HK_EXPECT_TSAN: {
		const char *w;
		size_t wn = token(ps, &w);

		if (!tok_is(w, wn, "race"))
			return perr(ps, w, "expect_tsan: race is the only value");
		p->expect_tsan_race = true;
		break;
	}
	case HK_VARIANT: {
		const char *w;
		size_t wn = token(ps, &w);
		char name[32];

		snprintf(name, sizeof(name), "%.*s", (int)wn, w);
		c->variant = pcp_bulk_variant_lookup(name);
		if (c->variant < 0)
			return perr(ps, w, "unknown variant '%s' (single_pass, pick_outside, locked_rr)",
				    name);
		break;
	}
	default: {
		static const long lo[] = { 1, 1, 1, 1, 1, 0, 1, 1 };
		static const long hi[] = { PROG_MAX_CPUS, MODEL_MAX_ZONES, 65536, MODEL_MAX_ORDER,
					   MODEL_MAX_ORDER, 255, 64, 125 };
		const char *w;
		size_t wn = token(ps, &w);

		if (parse_num(ps, w, wn, lo[key], hi[key], &x, hkeys[key]))
			return -1;
		switch (key) {
		case HK_CPUS: c->ncpus = (int)x; break;
		case HK_ZONES: c->nzones = (int)x; break;
		case HK_ZONE_PAGES: c->zone_pages = (unsigned long)x; break;
		case HK_MAX_ORDER: c->max_order = (int)x; break;
		case HK_PAGEBLOCK: c->pb_order = (int)x; break;
		case HK_HIGH: c->pcp_high = (int)x; break;
		case HK_BATCH: c->pcp_batch = (int)x; break;
		case HK_THRESH: c->stat_threshold = (int)x; break;
		}
	}
	}
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after the value of '%s'", hkeys[key]);
	return 0;
}

/* The config as a whole, checked once the header is over. */
static int check_config(struct parser *ps, struct prog *p)
{
	const struct mm_config *c = &p->cfg;

	if (c->pb_order > c->max_order)
		return perr(ps, NULL, "pageblock_order (%d) must not exceed max_order (%d)",
			    c->pb_order, c->max_order);
	if (c->zone_pages % (1UL << c->max_order) ||
	    c->zone_pages > (unsigned long)PROG_MAX_BLOCKS << c->max_order)
		return perr(ps, NULL,
			    "zone_pages (%lu) must be a multiple of 2^max_order (%lu), at most %d of them",
			    c->zone_pages, 1UL << c->max_order, PROG_MAX_BLOCKS);
	return 0;
}

static int parse_op(struct parser *ps, struct pstate *st)
{
	struct prog *p = st->p;
	const char *w, *label = NULL, *v;
	size_t wn = token(ps, &w), labeln = 0, vn;
	struct op *op;
	long x;
	int kind;

	if (p->nops >= PROG_MAX_OPS)
		return perr(ps, w, "more than %d operations", PROG_MAX_OPS);
	op = &p->ops[p->nops];
	memset(op, 0, sizeof(*op));
	op->task = (unsigned char)st->cur_task;
	skip_ws(ps);
	if (*ps->pos == '=') {
		label = w;
		labeln = wn;
		ps->pos++;
		wn = token(ps, &w);
	}
	if (tok_is(w, wn, "irq")) {
		op->irq = true;
		wn = token(ps, &w);
	}
	{
		char name[40];

		snprintf(name, sizeof(name), "%.*s", (int)wn, w);
		kind = op_lookup(name);
		if (kind < 0)
			return perr(ps, w, "unknown operation '%s'", name);
	}
	op->kind = (unsigned char)kind;
	if (op->irq && !op_table[kind].irq_ok)
		return perr(ps, w, "%s cannot run in interrupt context", op_table[kind].name);
	if (label && kind != OP_ALLOC_PAGES)
		return perr(ps, label, "only alloc_pages gives a handle");
	if (!label && kind == OP_ALLOC_PAGES)
		return perr(ps, w, "alloc_pages needs a handle: h0 = alloc_pages ...");
	if (label) {
		int i;

		if (labeln >= sizeof(st->labels[0].name))
			return perr(ps, label, "handle name too long");
		for (i = 0; i < st->nlabels; i++)
			if (strlen(st->labels[i].name) == labeln &&
			    !strncmp(st->labels[i].name, label, labeln))
				return perr(ps, label, "handle '%.*s' defined twice", (int)labeln, label);
		if (st->nlabels >= PROG_MAX_ALLOCS)
			return perr(ps, label, "more than %d allocations", PROG_MAX_ALLOCS);
		memcpy(st->labels[st->nlabels].name, label, labeln);
		st->labels[st->nlabels].name[labeln] = 0;
		st->labels[st->nlabels].op = p->nops;
		st->nlabels++;
	}
	switch (kind) {
	case OP_ALLOC_PAGES: {
		int mt;

		if (parse_kv_num(ps, "order", 0, p->cfg.max_order, &x))
			return -1;
		op->arg[0] = (short)x;
		if (parse_kv(ps, "mt", &v, &vn))
			return -1;
		for (mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (tok_is(v, vn, prog_mt_names[mt]))
				break;
		if (mt == MIGRATE_PCPTYPES)
			return perr(ps, v, "mt is unmovable, movable or reclaimable");
		op->arg[1] = (short)mt;
		break;
	}
	case OP_FREE_PAGES: {
		const char *h;
		size_t hn = token(ps, &h);

		if (!hn)
			return perr(ps, ps->pos, "free_pages needs a handle");
		if (hn >= sizeof(st->refs[0].name))
			return perr(ps, h, "handle name too long");
		memcpy(st->refs[st->nrefs].name, h, hn);
		st->refs[st->nrefs].name[hn] = 0;
		st->refs[st->nrefs].col = (int)(h - ps->line);
		st->refs[st->nrefs].line = ps->lineno;
		st->refs[st->nrefs].op = p->nops;
		st->refs[st->nrefs].linecopy = strdup(ps->line);
		st->nrefs++;
		break;
	}
	case OP_DRAIN_ALL:
		if (parse_kv_num(ps, "force", 0, 1, &x))
			return -1;
		op->arg[0] = (short)x;
		if (parse_kv(ps, "zone", &v, &vn))
			return -1;
		if (tok_is(v, vn, "all"))
			op->arg[1] = -1;
		else if (parse_num(ps, v, vn, 0, p->cfg.nzones - 1, &x, "zone"))
			return -1;
		else
			op->arg[1] = (short)x;
		break;
	case OP_ZONE_PCP_DISABLE:
	case OP_ZONE_PCP_ENABLE:
		if (parse_kv_num(ps, "zone", 0, p->cfg.nzones - 1, &x))
			return -1;
		op->arg[0] = (short)x;
		break;
	case OP_SET_PCP_HIGH_BATCH:
		if (parse_kv_num(ps, "zone", 0, p->cfg.nzones - 1, &x))
			return -1;
		op->arg[0] = (short)x;
		if (parse_kv_num(ps, "high", 0, 255, &x))
			return -1;
		op->arg[1] = (short)x;
		if (parse_kv_num(ps, "batch", 1, 64, &x))
			return -1;
		op->arg[2] = (short)x;
		break;
	case OP_MIGRATE:
		if (parse_kv_num(ps, "cpu", 0, p->cfg.ncpus - 1, &x))
			return -1;
		op->arg[0] = (short)x;
		break;
	}
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after %s", op_table[kind].name);
	p->nops++;
	st->ntask_ops[st->cur_task]++;
	return 0;
}

static int parse_schedule_head(struct parser *ps, struct prog *p)
{
	while (!at_eol(ps)) {
		const char *v;
		size_t vn;
		const char *k = ps->pos;

		if (!strncmp(k, "fallback", 8)) {
			if (parse_kv(ps, "fallback", &v, &vn))
				return -1;
			if (tok_is(v, vn, "none")) {
				p->fallback_depth = 0;
			} else if (vn > 4 && !strncmp(v, "pct:", 4)) {
				long d;

				if (parse_num(ps, v + 4, vn - 4, 1, 3, &d, "PCT depth"))
					return -1;
				p->fallback_depth = (int)d;
			} else {
				return perr(ps, v, "fallback is none or pct:D (D 1..3)");
			}
		} else if (!strncmp(k, "seed", 4)) {
			long s;

			if (parse_kv(ps, "seed", &v, &vn) ||
			    parse_num(ps, v, vn, 0, 0xffffffffL, &s, "seed"))
				return -1;
			p->seed = (uint32_t)s;
		} else {
			return perr(ps, k, "expected fallback= or seed=");
		}
	}
	if (!p->fallback_depth)
		p->seed = 0;
	return 0;
}

static int parse_decision(struct parser *ps, struct pstate *st)
{
	struct prog *p = st->p;
	struct sched_decision *d;
	const char *w;
	size_t wn = token(ps, &w);

	if (!tok_is(w, wn, "at"))
		return perr(ps, w, "expected a decision: at start -> Tn, or at Tn.k SITE #N -> Tm");
	if (p->ndec >= PROG_MAX_DEC)
		return perr(ps, w, "more than %d decisions", PROG_MAX_DEC);
	d = &p->dec[p->ndec];
	memset(d, 0, sizeof(*d));
	wn = token(ps, &w);
	if (tok_is(w, wn, "start")) {
		d->task = -1;
	} else {
		const char *dot = memchr(w, '.', wn);
		const struct yield_site *site;
		const char *s;
		size_t sn;
		long k, occ;
		int task;
		char name[160];

		if (!dot)
			return perr(ps, w, "expected Tn.k (task and op index)");
		if (parse_task_ref(ps, w, (size_t)(dot - w), p->ntasks, &task))
			return -1;
		if (parse_num(ps, dot + 1, wn - (size_t)(dot + 1 - w), 0, st->ntask_ops[task], &k,
			      "op index"))
			return -1;
		sn = token(ps, &s);
		if (!sn || sn >= sizeof(name))
			return perr(ps, s, "expected a yield site name");
		snprintf(name, sizeof(name), "%.*s", (int)sn, s);
		site = site_lookup(name);
		if (!site)
			return perr(ps, s, "unknown yield site '%s'", name);
		wn = token(ps, &w);
		if (wn < 2 || w[0] != '#' || parse_num(ps, w + 1, wn - 1, 1, 65535, &occ, "occurrence"))
			return perr(ps, w, "expected #N, the occurrence of the site in that op");
		d->task = (short)task;
		d->op = (short)k;
		d->site = site->id;
		d->occ = (unsigned short)occ;
	}
	wn = token(ps, &w);
	if (!tok_is(w, wn, "->"))
		return perr(ps, w, "expected '-> Tn'");
	wn = token(ps, &w);
	{
		int target;

		if (parse_task_ref(ps, w, wn, p->ntasks, &target))
			return -1;
		d->target = (short)target;
	}
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after the decision");
	p->dec_line[p->ndec] = ps->lineno;
	p->ndec++;
	return 0;
}

/* Strip a comment: '#' not directly followed by a digit (that is "#N"). */
static void strip_comment(char *s)
{
	char *c;

	for (c = s; *c; c++)
		if (*c == '#' && !isdigit((unsigned char)c[1])) {
			*c = 0;
			return;
		}
}

int prog_parse_text(const char *text, const char *file, struct prog *p, char *err, size_t errlen)
{
	struct pstate *st = calloc(1, sizeof(*st));
	struct parser ps = { file, NULL, NULL, 0, err, errlen, false };
	const char *cur = text;
	bool header = true, magic = false;
	char *line = NULL;
	int rc = -1, i, ntasks = 0;

	if (!st)
		return -1;
	prog_init(p);
	p->ntasks = 0;
	p->keyed = true;
	st->p = p;
	st->cur_task = -1;
	while (*cur) {
		const char *nl = strchr(cur, '\n');
		size_t len = nl ? (size_t)(nl - cur) : strlen(cur);
		const char *w;
		size_t wn;

		ps.lineno++;
		free(line);
		line = malloc(len + 1);
		if (!line)
			goto out;
		memcpy(line, cur, len);
		line[len] = 0;
		cur = nl ? nl + 1 : cur + len;
		if (memchr(line, 0, len) != NULL && strlen(line) != len) {
			perr(&ps, NULL, "NUL byte in text");
			goto out;
		}
		ps.line = line;
		ps.pos = line;
		if (!magic) {
			skip_ws(&ps);
			if (strncmp(ps.pos, TEXT_MAGIC, strlen(TEXT_MAGIC))) {
				perr(&ps, ps.pos, "the first line must be '%s'", TEXT_MAGIC);
				goto out;
			}
			ps.pos += strlen(TEXT_MAGIC);
			strip_comment(line);
			if (!at_eol(&ps)) {
				perr(&ps, ps.pos, "unexpected text after '%s'", TEXT_MAGIC);
				goto out;
			}
			magic = true;
			continue;
		}
		strip_comment(line);
		if (at_eol(&ps))
			continue;
		wn = token(&ps, &w);
		if (tok_is(w, wn, "task")) {
			long cpu;
			int t;

			if (header && check_config(&ps, p))
				goto out;
			header = false;
			if (st->in_schedule) {
				perr(&ps, w, "tasks come before the schedule");
				goto out;
			}
			wn = token(&ps, &w);
			if (ntasks >= PROG_MAX_TASKS) {
				perr(&ps, w, "more than %d tasks", PROG_MAX_TASKS);
				goto out;
			}
			if (parse_task_ref(&ps, w, wn, PROG_MAX_TASKS, &t))
				goto out;
			if (t != ntasks) {
				perr(&ps, w, "tasks are numbered in order: expected T%d", ntasks);
				goto out;
			}
			if (parse_kv_num(&ps, "cpu", 0, p->cfg.ncpus - 1, &cpu))
				goto out;
			if (!at_eol(&ps)) {
				perr(&ps, ps.pos, "unexpected text after the task's cpu");
				goto out;
			}
			p->task_cpu[t] = (int)cpu;
			st->cur_task = t;
			p->ntasks = ++ntasks;
			continue;
		}
		if (!strncmp(w, "schedule:", 9) || (tok_is(w, wn, "schedule") && *ps.pos == ':')) {
			if (header && check_config(&ps, p))
				goto out;
			if (st->in_schedule) {
				perr(&ps, w, "a second schedule");
				goto out;
			}
			header = false;
			st->in_schedule = true;
			ps.pos = strchr(w, ':') + 1;
			if (parse_schedule_head(&ps, p))
				goto out;
			continue;
		}
		if (header) {
			const char *colon = memchr(w, ':', wn);
			char name[40];

			snprintf(name, sizeof(name), "%.*s", (int)wn, w);
			if (!colon && (op_lookup(name) >= 0 || tok_is(w, wn, "irq") ||
				       (skip_ws(&ps), *ps.pos == '='))) {
				perr(&ps, w, "an operation outside a task");
				goto out;
			}
			/* "key: value" or "key:value" */
			if (colon) {
				ps.pos = colon;
				wn = (size_t)(colon - w);
			}
			if (parse_header(&ps, st, w, wn))
				goto out;
			continue;
		}
		ps.pos = w;
		if (st->in_schedule) {
			if (parse_decision(&ps, st))
				goto out;
		} else if (st->cur_task < 0) {
			perr(&ps, w, "an operation outside a task");
			goto out;
		} else if (parse_op(&ps, st)) {
			goto out;
		}
	}
	if (!magic) {
		ps.lineno = 1;
		perr(&ps, NULL, "empty file: the first line must be '%s'", TEXT_MAGIC);
		goto out;
	}
	if (header && check_config(&ps, p))
		goto out;
	if (!ntasks) {
		perr(&ps, NULL, "no tasks: a program needs at least one 'task T0 cpu=N'");
		goto out;
	}
	/* resolve handles */
	for (i = 0; i < st->nrefs; i++) {
		int j, a;

		for (j = 0; j < st->nlabels; j++)
			if (!strcmp(st->labels[j].name, st->refs[i].name))
				break;
		if (j == st->nlabels) {
			ps.lineno = st->refs[i].line;
			ps.line = st->refs[i].linecopy;
			perr(&ps, st->refs[i].linecopy + st->refs[i].col, "unknown handle '%s'",
			     st->refs[i].name);
			goto out;
		}
		a = prog_alloc_index(p, st->labels[j].op);
		p->ops[st->refs[i].op].arg[0] = (short)a;
	}
	/* decisions: the op index may be one past the last (the task's exit) */
	for (i = 0; i < p->ndec; i++) {
		const struct sched_decision *d = &p->dec[i];
		int first;

		if (d->task >= 0 && d->op == prog_task_ops(p, d->task, &first) &&
		    strcmp(site_by_id(d->site)->name, "op(exit)")) {
			ps.lineno = p->dec_line[i];
			perr(&ps, NULL, "T%d.%d is the task's exit: only op(exit) happens there",
			     d->task, d->op);
			goto out;
		}
	}
	rc = 0;
out:
	for (i = 0; i < st->nrefs; i++)
		free(st->refs[i].linecopy);
	free(line);
	free(st);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * The text form, parsed (with FILE:LINE:COL errors); text_print.c prints it.
 *
 *   mmfuzz 1                          marks the text form
 *   cpus: 2                           header (text_header.c): config keys
 *   mms: T0 T1                        (world/config.h), layers' own lines
 *                                     (header sections: the mms tasks share),
 *   bugs: pcp_free_nolock             switches, outcome
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
 * Operations and their arguments come from the descriptors (ops.h): handle
 * arguments are positional, the others name=value in any order, those with
 * a default may be left out.  "at T0.1 SITE #N -> T1": when T0, in its op 1
 * (from 0), reaches yield site SITE for the N-th time in that op, switch to
 * T1.  '#' starts a comment (in a decision, "#N" is the occurrence); blank
 * lines, comments and a UTF-8 byte order mark may come before the magic
 * line; numbers are decimal or 0x hexadecimal.
 */
#include "text_parse.h"

/* Skip a UTF-8 byte order mark, blank lines and comment lines. */
static const char *skip_preamble(const char *s, const char *end, int *lines)
{
	const char *line = s;

	if (end - s >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		line = s + 3;
	for (;;) {
		const char *p = line;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < end && *p == '#')
			while (p < end && *p != '\n')
				p++;
		if (p < end && *p == '\n') {
			line = p + 1;
			(*lines)++;
			continue;
		}
		return line;
	}
}

bool prog_is_text(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size;
	int lines = 0;

	s = skip_preamble(s, end, &lines);
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return (size_t)(end - s) >= 7 && !memcmp(s, "mmfuzz ", 7);
}

static int define_label(struct parser *ps, struct pstate *st, const char *label, size_t labeln,
			const struct op_desc *d)
{
	const char *pre = d->defines->prefix;
	size_t pn = strlen(pre), i;
	long num = 0;

	/* "h3": the kind's prefix and a number, as decode prints it */
	if (labeln <= pn || memcmp(label, pre, pn))
		return perr(ps, label, "a %s handle is named %sN, not '%.*s'", d->defines->name,
			    pre, (int)labeln, label);
	for (i = pn; i < labeln; i++) {
		if (!isdigit((unsigned char)label[i]))
			return perr(ps, label, "a %s handle is named %sN, not '%.*s'",
				    d->defines->name, pre, (int)labeln, label);
		if (num < PROG_MAX_OPS)
			num = num * 10 + (label[i] - '0');
	}
	if (num >= PROG_MAX_OPS)
		return perr(ps, label + pn, "a handle's number is from 0 to %d, not '%.*s'",
			    PROG_MAX_OPS - 1, (int)(labeln - pn), label + pn);
	if (labeln >= sizeof(st->labels[0].name))
		return perr(ps, label, "handle name too long");
	for (i = 0; i < (size_t)st->nlabels; i++)
		if (tok_is(label, labeln, st->labels[i].name))
			return perr(ps, label, "handle '%.*s' defined twice", (int)labeln, label);
	memcpy(st->labels[st->nlabels].name, label, labeln);
	st->labels[st->nlabels].name[labeln] = 0;
	st->labels[st->nlabels].op = st->p->nops;
	st->labels[st->nlabels].hk = d->defines;
	st->nlabels++;
	return 0;
}

/* The seed mode: task @t's next op line dropped, with the handle it makes. */
static void drop_op(struct pstate *st, int t, const char *label, size_t labeln)
{
	st->op_dropped[t][st->nread_ops[t]++] = true;
	if (label && labeln < sizeof(st->dropped_labels[0].name)) {
		struct label *l = &st->dropped_labels[st->ndropped_labels++];

		memcpy(l->name, label, labeln);
		l->name[labeln] = 0;
	}
}

static bool label_dropped(const struct pstate *st, const char *h, size_t hn)
{
	int i;

	for (i = 0; i < st->ndropped_labels; i++)
		if (tok_is(h, hn, st->dropped_labels[i].name))
			return true;
	return false;
}

/* 0, -1 after an error, 1 when the seed mode dropped the line */
static int parse_op(struct parser *ps, struct pstate *st)
{
	struct prog *p = st->p;
	const char *w, *label = NULL;
	size_t wn = token(ps, &w), labeln = 0;
	bool given[OP_MAX_ARGS] = { false };
	const struct op_desc *d;
	struct op *op;
	int k;

	int nlabels0 = st->nlabels, nrefs0 = st->nrefs, r;

	if (p->nops >= PROG_MAX_OPS || st->nread_ops[st->cur_task] >= PROG_MAX_OPS)
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
		d = op_lookup(name);
		if (!d) {
			r = pdrop(ps, w, "its line", "unknown operation '%s'", name);
			if (r > 0)
				drop_op(st, st->cur_task, label, labeln);
			return r;
		}
	}
	op->code = d->code;
	if (op->irq && !d->irq_ok)
		return perr(ps, w, "%s cannot run in interrupt context", d->name);
	if (label && !d->defines)
		return perr(ps, label, "%s gives no handle", d->name);
	if (!label && d->defines)
		return perr(ps, w, "%s needs a handle: %s0 = %s ...", d->name, d->defines->prefix,
			    d->name);
	if (label && define_label(ps, st, label, labeln, d))
		return -1;
	while (!at_eol(ps)) {
		const char *s = ps->pos, *key, *val;
		size_t kn, vn;
		char err[200];
		int v;

		while (*s && !isspace((unsigned char)*s) && *s != '=')
			s++;
		if (*s != '=') {
			/* a positional argument: the next handle */
			const char *h;
			size_t hn = token(ps, &h);

			for (k = 0; k < d->nargs; k++)
				if (d->args[k].kind == ARG_HANDLE && !given[k])
					break;
			if (k == d->nargs)
				return perr(ps, h, "unexpected '%.*s' after %s", (int)hn, h, d->name);
			if (hn >= sizeof(st->refs[0].name))
				return perr(ps, h, "handle name too long");
			if (ps->mode && ps->mode->keep_going && label_dropped(st, h, hn)) {
				r = pdrop(ps, h, "this line too",
					  "'%.*s' is a dropped operation's handle", (int)hn, h);
				while (st->nrefs > nrefs0)
					free(st->refs[--st->nrefs].linecopy);
				st->nlabels = nlabels0;
				drop_op(st, st->cur_task, label, labeln);
				return r;
			}
			memcpy(st->refs[st->nrefs].name, h, hn);
			st->refs[st->nrefs].name[hn] = 0;
			st->refs[st->nrefs].col = (int)(h - ps->line);
			st->refs[st->nrefs].line = ps->lineno;
			st->refs[st->nrefs].op = p->nops;
			st->refs[st->nrefs].arg = k;
			st->refs[st->nrefs].linecopy = strdup(ps->line);
			st->nrefs++;
			given[k] = true;
			continue;
		}
		if (parse_kv_any(ps, &key, &kn, &val, &vn))
			return -1;
		for (k = 0; k < d->nargs; k++)
			if (d->args[k].kind != ARG_HANDLE && tok_is(key, kn, d->args[k].name))
				break;
		if (k == d->nargs)
			return perr(ps, key, "%s has no argument '%.*s'", d->name, (int)kn, key);
		if (given[k])
			return perr(ps, key, "'%.*s' given twice", (int)kn, key);
		if (arg_parse(&d->args[k], val, vn, &p->cfg, &v, err, sizeof(err)))
			return perr(ps, val, "%s", err);
		op->arg[k] = v;
		given[k] = true;
	}
	for (k = 0; k < d->nargs; k++) {
		if (given[k])
			continue;
		if (d->args[k].has_def) {
			op->arg[k] = d->args[k].def;
			continue;
		}
		if (d->args[k].kind == ARG_HANDLE)
			return perr(ps, ps->pos, "%s needs a handle", d->name);
		return perr(ps, ps->pos, "%s needs %s=", d->name, d->args[k].name);
	}
	p->nops++;
	st->ntask_ops[st->cur_task]++;
	st->nread_ops[st->cur_task]++;
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

/* "Tn" of a decision: a task of the program, or a kernel thread's id
 * (after the tasks) when the program may start one. */
static int parse_decision_task(struct parser *ps, const struct prog *p, const char *w, size_t wn,
			       int *task)
{
	if (parse_task_ref(ps, w, wn, MAX_TASKS, task))
		return -1;
	if (*task >= p->ntasks && !prog_starts_kthreads(p))
		return perr(ps, w, "T%d is not a task of the program (T0%s%.0d) and none of its "
			    "operations starts a kernel thread", *task, p->ntasks > 1 ? "..T" : "",
			    p->ntasks - 1);
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
		/* kernel threads take the ids after the program's tasks; their
		 * "ops" are their work items */
		if (parse_decision_task(ps, p, w, (size_t)(dot - w), &task))
			return -1;
		if (parse_num(ps, dot + 1, wn - (size_t)(dot + 1 - w), 0,
			      task < p->ntasks ? st->nread_ops[task] : 65535, &k, "op index"))
			return -1;
		/* the seed mode dropped ops of this task: the decision follows
		 * the op it named, or goes with it */
		if (task < p->ntasks && st->nread_ops[task] != st->ntask_ops[task]) {
			long j, below = 0;

			if (k < st->nread_ops[task] && st->op_dropped[task][k])
				return pdrop(ps, w, "the decision too",
					     "T%d.%ld is a dropped operation", task, k);
			for (j = 0; j < k; j++)
				below += st->op_dropped[task][j];
			k -= below;
		}
		sn = token(ps, &s);
		if (!sn || sn >= sizeof(name))
			return perr(ps, s, "expected a yield site name");
		snprintf(name, sizeof(name), "%.*s", (int)sn, s);
		site = site_lookup(name);
		if (!site)
			return pdrop(ps, s, "the decision", "unknown yield site '%s'", name);
		wn = token(ps, &w);
		if (wn < 2 || w[0] != '#' || parse_num(ps, w + 1, wn - 1, 1, 4294967295L, &occ, "occurrence"))
			return perr(ps, w, "expected #N, the occurrence of the site in that op");
		d->task = (short)task;
		d->op = (short)k;
		d->site = site->id;
		d->occ = (unsigned int)occ;
	}
	wn = token(ps, &w);
	if (!tok_is(w, wn, "->"))
		return perr(ps, w, "expected '-> Tn'");
	wn = token(ps, &w);
	{
		int target;

		if (parse_decision_task(ps, p, w, wn, &target))
			return -1;
		d->target = (short)target;
	}
	/* "cpu=N": the running task moves to CPU N first (a migration) */
	if (!at_eol(ps)) {
		long cpu;

		if (parse_kv_num(ps, "cpu", 0, PROG_MAX_CPUS - 1, &cpu))
			return -1;
		d->mig = (unsigned char)(cpu + 1);
	}
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after the decision");
	p->dec_line[p->ndec] = ps->lineno;
	p->ndec++;
	return 0;
}

/*
 * Strip a comment.  In a decision ("at ..."), "#N" after the site is the
 * occurrence: there only a '#' not followed by a digit starts a comment.
 */
static void strip_comment(char *s, bool decision)
{
	char *c;

	for (c = s; *c; c++)
		if (*c == '#' && !(decision && isdigit((unsigned char)c[1]))) {
			*c = 0;
			return;
		}
}

/* "aim:": a mutant id's "#N" is no comment either */
static bool is_aim_line(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !strncmp(s, "aim:", 4);
}

static bool is_decision_line(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s[0] == 'a' && s[1] == 't' && (s[2] == ' ' || s[2] == '\t');
}

static int resolve_refs(struct parser *ps, struct pstate *st)
{
	struct prog *p = st->p;
	int i, j;

	for (i = 0; i < st->nrefs; i++) {
		const struct op_arg *a = &op_desc_of(&p->ops[st->refs[i].op])->args[st->refs[i].arg];

		for (j = 0; j < st->nlabels; j++)
			if (!strcmp(st->labels[j].name, st->refs[i].name))
				break;
		ps->lineno = st->refs[i].line;
		ps->line = st->refs[i].linecopy;
		if (j == st->nlabels)
			return perr(ps, ps->line + st->refs[i].col, "unknown handle '%s'",
				    st->refs[i].name);
		if (st->labels[j].hk != a->hk)
			return perr(ps, ps->line + st->refs[i].col, "'%s' is a %s handle, not a %s",
				    st->refs[i].name, st->labels[j].hk->name, a->hk->name);
		p->ops[st->refs[i].op].arg[st->refs[i].arg] = prog_handle_index(p, st->labels[j].op);
	}
	return 0;
}

int prog_parse_text_mode(const char *text, size_t size, const char *file, struct prog *p,
			 char *err, size_t errlen, struct text_mode *mode)
{
	struct pstate *st = calloc(1, sizeof(*st));
	struct parser ps = { file, NULL, NULL, 0, err, errlen, false, mode };
	const char *cur = text, *end = text + size;
	bool header = true, magic = false;
	char *line = NULL;
	int rc = -1, i, ntasks = 0;

	if (!st) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	prog_init(p);
	p->ntasks = 0;
	p->keyed = true;
	if (mode) {
		mode->dropped = 0;
		mode->note[0] = 0;
	}
	st->p = p;
	st->cur_task = -1;
	cur = skip_preamble(cur, end, &ps.lineno);
	while (cur < end) {
		const char *nl = memchr(cur, '\n', (size_t)(end - cur)), *ls = cur;
		size_t len = nl ? (size_t)(nl - cur) : (size_t)(end - cur);
		const char *w, *nul;
		size_t wn;

		ps.lineno++;
		free(line);
		line = malloc(len + 1);
		if (!line) {
			perr(&ps, NULL, "out of memory");
			goto out;
		}
		memcpy(line, cur, len);
		line[len] = 0;
		ps.line = line;
		nul = memchr(ls, 0, len);
		cur = nl ? nl + 1 : end;
		if (nul) {
			perr(&ps, line + (nul - ls), "NUL byte in text");
			goto out;
		}
		ps.pos = line;
		if (!magic) {
			skip_ws(&ps);
			if (strncmp(ps.pos, TEXT_MAGIC, strlen(TEXT_MAGIC))) {
				perr(&ps, ps.pos, "the first line must be '%s'", TEXT_MAGIC);
				goto out;
			}
			ps.pos += strlen(TEXT_MAGIC);
			strip_comment(line, false);
			if (!at_eol(&ps)) {
				perr(&ps, ps.pos, "unexpected text after '%s'", TEXT_MAGIC);
				goto out;
			}
			magic = true;
			continue;
		}
		strip_comment(line, st->in_schedule ? is_decision_line(line)
						    : header && is_aim_line(line));
		if (at_eol(&ps))
			continue;
		wn = token(&ps, &w);
		if (tok_is(w, wn, "task")) {
			long cpu;
			int t;

			if (header && text_check_config(&ps, st))
				goto out;
			ps.line = line;
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
			if (parse_kv_num(&ps, "cpu", 0, config_get(&p->cfg, &ck_cpus) - 1, &cpu))
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
			if (header && text_check_config(&ps, st))
				goto out;
			ps.line = line;
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
			if (!colon && (op_lookup(name) || tok_is(w, wn, "irq") ||
				       (skip_ws(&ps), *ps.pos == '='))) {
				perr(&ps, w, "an operation outside a task");
				goto out;
			}
			/* "key: value" or "key:value" */
			if (colon) {
				ps.pos = colon;
				wn = (size_t)(colon - w);
			}
			if (text_parse_header(&ps, st, w, wn) < 0)
				goto out;
			continue;
		}
		ps.pos = w;
		if (st->in_schedule) {
			if (parse_decision(&ps, st) < 0)
				goto out;
		} else if (st->cur_task < 0) {
			perr(&ps, w, "an operation outside a task");
			goto out;
		} else if (parse_op(&ps, st) < 0) {
			goto out;
		}
	}
	if (!magic) {
		ps.lineno = 1;
		ps.line = NULL;
		perr(&ps, NULL, size ? "no '%s' line: this is not a text program" :
			   "empty file: the first line must be '%s'", TEXT_MAGIC);
		goto out;
	}
	if (header && text_check_config(&ps, st))
		goto out;
	if (!ntasks) {
		perr(&ps, NULL, "no tasks: a program needs at least one 'task T0 cpu=N'");
		goto out;
	}
	if (text_check_sections(&ps, st))
		goto out;
	hdr_canonicalize(p);
	if (resolve_refs(&ps, st))
		goto out;
	/* decisions: the op index may be one past the last (the task's exit) */
	for (i = 0; i < p->ndec; i++) {
		const struct sched_decision *d = &p->dec[i];
		int first;

		if (d->task >= 0 && d->task < p->ntasks &&
		    d->op == prog_task_ops(p, d->task, &first) &&
		    strcmp(site_by_id(d->site)->name, "op(exit)")) {
			ps.lineno = p->dec_line[i];
			ps.line = NULL;
			perr(&ps, NULL, "T%d.%d is the task's exit: only op(exit) happens there",
			     d->task, d->op);
			goto out;
		}
	}
	rc = 0;
out:
	for (i = 0; i < st->nrefs; i++)
		free(st->refs[i].linecopy);
	for (i = 0; i < MM_CONFIG_MAX; i++)
		free(st->key_at[i].linecopy);
	for (i = 0; i < HDR_MAX_SECTIONS * HDR_MARKS; i++)
		free(st->sec_at[i / HDR_MARKS][i % HDR_MARKS].linecopy);
	free(line);
	free(st);
	return rc;
}

int prog_parse_text_n(const char *text, size_t size, const char *file, struct prog *p,
		      char *err, size_t errlen)
{
	return prog_parse_text_mode(text, size, file, p, err, errlen, NULL);
}

int prog_parse_text(const char *text, const char *file, struct prog *p, char *err, size_t errlen)
{
	return prog_parse_text_n(text, strlen(text), file, p, err, errlen);
}

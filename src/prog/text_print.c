// SPDX-License-Identifier: MIT
/*
 * The text form, printed: the canonical text of a program (what decode
 * prints and the reproducers are), which text.c parses back unchanged.
 */
#include "prog.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"

struct sbuf {
	char *s;
	size_t n, cap;
};

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	for (;;) {
		va_start(ap, fmt);
		k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		b->cap = b->cap * 2 + (size_t)(k > 0 ? k : 64) + 64;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
}

/*
 * What a reader cannot see at once: an operation that ends a handle which,
 * by the program's own order, is not live there (defined later in the same
 * task, or already ended above in it) does nothing (docs/formats.md, "The text
 * form").  Said only where it is certain whatever the schedule: a handle
 * of another task's may be live or not.
 */
static const char *dead_handle_note(const struct prog *p, int i, char *buf, size_t len)
{
	const struct op *op = &p->ops[i];
	const struct op_desc *d = op_desc_of(op);
	int k, j;

	for (k = 0; k < d->nargs; k++) {
		const struct op_arg *a = &d->args[k];
		int def = -1, n = 0;

		if (a->kind != ARG_HANDLE || !a->frees)
			continue;
		/* handle N of a kind is made by that kind's N-th defining op */
		for (j = 0; j < p->nops && def < 0; j++)
			if (op_desc_of(&p->ops[j])->defines == a->hk && n++ == op->arg[k])
				def = j;
		if (def < 0)
			continue;
		if (p->ops[def].task == op->task && def > i) {
			snprintf(buf, len, "%s%d is allocated below: this does nothing",
				 a->hk->prefix, op->arg[k]);
			return buf;
		}
		for (j = 0; j < i; j++) {
			const struct op_desc *e = op_desc_of(&p->ops[j]);
			int m;

			/* freed above, in the task that allocated it before */
			if (p->ops[j].task != op->task || p->ops[def].task != op->task ||
			    def > j)
				continue;
			for (m = 0; m < e->nargs; m++)
				if (e->args[m].kind == ARG_HANDLE && e->args[m].frees &&
				    e->args[m].hk == a->hk && p->ops[j].arg[m] == op->arg[k]) {
					snprintf(buf, len, "%s%d was freed above: this does nothing",
						 a->hk->prefix, op->arg[k]);
					return buf;
				}
		}
	}
	return NULL;
}

static void print_op(struct sbuf *b, const struct prog *p, int i, const char *note)
{
	const struct op *op = &p->ops[i];
	const struct op_desc *d = op_desc_of(op);
	char buf[160], nbuf[96];
	int k;

	if (!note)
		note = dead_handle_note(p, i, nbuf, sizeof(nbuf));
	sb_printf(b, "  ");
	if (d->defines)
		sb_printf(b, "%s%d = ", d->defines->prefix, prog_handle_index(p, i));
	if (op->irq)
		sb_printf(b, "irq ");
	sb_printf(b, "%s", d->name);
	for (k = 0; k < d->nargs; k++) {
		const struct op_arg *a = &d->args[k];

		if (a->kind == ARG_HANDLE)
			sb_printf(b, " %s%d", a->hk->prefix, op->arg[k]);
		else if (!a->has_def || op->arg[k] != a->def)
			sb_printf(b, " %s=%s", a->name, arg_str(a, op->arg[k], buf, sizeof(buf)));
	}
	if (note)
		sb_printf(b, "\t# %s", note);
	sb_printf(b, "\n");
}

char *prog_print_text_notes(const struct prog *p, const char *const *notes)
{
	struct sbuf b = { malloc(1024), 0, 1024 };
	struct mm_config def;
	char buf[64];
	int t, i, nb = 0;

	if (!b.s)
		abort();
	config_default(&def);
	sb_printf(&b, "%s\n", TEXT_MAGIC);
	if (p->aim[0])
		sb_printf(&b, "aim: %s\n", p->aim);
	/* only the keys that differ from their defaults: a key added later
	 * changes no earlier file's text */
	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);

		if (config_get(&p->cfg, k) != config_get(&def, k))
			sb_printf(&b, "%s: %s\n", k->name,
				  config_value_str(k, config_get(&p->cfg, k), buf, sizeof(buf)));
	}
	/* the header sections' own lines ("mms: T0 T1, T2") */
	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);
		char line[512];

		if (!s->print)
			continue;
		s->print(prog_area_c(p, s), p, line, sizeof(line));
		sb_printf(&b, "%s", line);
	}
	if (p->bugs) {
		sb_printf(&b, "bugs:");
		for (i = 0; i < BUGS_MAX; i++)
			if ((p->bugs & (1ULL << i)) && bug_name(i))
				sb_printf(&b, "%s %s", nb++ ? "," : "", bug_name(i));
		sb_printf(&b, "\n");
	}
	if (p->expect == EXPECT_CLEAN)
		sb_printf(&b, "expect: clean\n");
	else if (p->expect == EXPECT_VIOLATION)
		sb_printf(&b, "expect: violation %s\n", p->expect_sig);
	if (p->expect_tsan_race)
		sb_printf(&b, "expect_tsan: race\n");
	for (t = 0; t < p->ntasks; t++) {
		sb_printf(&b, "\ntask T%d cpu=%d\n", t, p->task_cpu[t]);
		for (i = 0; i < p->nops; i++)
			if (p->ops[i].task == t)
				print_op(&b, p, i, notes ? notes[i] : NULL);
	}
	sb_printf(&b, "\nschedule: ");
	if (p->fallback_depth)
		sb_printf(&b, "fallback=pct:%d seed=0x%08x\n", p->fallback_depth, p->seed);
	else
		sb_printf(&b, "fallback=none\n");
	for (i = 0; i < p->ndec; i++) {
		const struct sched_decision *d = &p->dec[i];

		if (!p->keyed)
			sb_printf(&b, "  after %llu -> T%d\n", (unsigned long long)d->step, d->target);
		else if (d->task < 0)
			sb_printf(&b, "  at start -> T%d\n", d->target);
		else if (!d->mig)
			sb_printf(&b, "  at T%d.%d %s #%u -> T%d\n", d->task, d->op,
				  site_by_id(d->site)->name, d->occ, d->target);
		else
			sb_printf(&b, "  at T%d.%d %s #%u -> T%d cpu=%d\n", d->task, d->op,
				  site_by_id(d->site)->name, d->occ, d->target, d->mig - 1);
	}
	return b.s;
}

char *prog_print_text(const struct prog *p)
{
	return prog_print_text_notes(p, NULL);
}

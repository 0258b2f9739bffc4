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

static void print_op(struct sbuf *b, const struct prog *p, int i)
{
	const struct op *op = &p->ops[i];
	int h = prog_alloc_index(p, i);

	sb_printf(b, "  ");
	if (h >= 0)
		sb_printf(b, "h%d = ", h);
	if (op->irq)
		sb_printf(b, "irq ");
	sb_printf(b, "%s", op_table[op->kind].name);
	switch (op->kind) {
	case OP_ALLOC_PAGES:
		sb_printf(b, " order=%d mt=%s", op->arg[0], prog_mt_names[op->arg[1]]);
		break;
	case OP_FREE_PAGES:
		sb_printf(b, " h%d", op->arg[0]);
		break;
	case OP_DRAIN_ALL:
		if (op->arg[1] < 0)
			sb_printf(b, " force=%d zone=all", op->arg[0]);
		else
			sb_printf(b, " force=%d zone=%d", op->arg[0], op->arg[1]);
		break;
	case OP_ZONE_PCP_DISABLE:
	case OP_ZONE_PCP_ENABLE:
		sb_printf(b, " zone=%d", op->arg[0]);
		break;
	case OP_SET_PCP_HIGH_BATCH:
		sb_printf(b, " zone=%d high=%d batch=%d", op->arg[0], op->arg[1], op->arg[2]);
		break;
	case OP_MIGRATE:
		sb_printf(b, " cpu=%d", op->arg[0]);
		break;
	}
	sb_printf(b, "\n");
}

char *prog_print_text(const struct prog *p)
{
	struct sbuf b = { malloc(1024), 0, 1024 };
	const struct mm_config *c = &p->cfg;
	int t, i, nb = 0;

	if (!b.s)
		abort();
	sb_printf(&b, "%s\n", TEXT_MAGIC);
	sb_printf(&b, "cpus: %d\nzones: %d\nzone_pages: %lu\nmax_order: %d\n", c->ncpus, c->nzones,
		  c->zone_pages, c->max_order);
	sb_printf(&b, "pageblock_order: %d\npcp_high: %d\npcp_batch: %d\nstat_threshold: %d\n",
		  c->pb_order, c->pcp_high, c->pcp_batch, c->stat_threshold);
	sb_printf(&b, "variant: %s\nbugs:", pcp_bulk_variant_name(c->variant));
	for (i = 0; i < NR_BUGS; i++)
		if (p->bugs & (1u << i))
			sb_printf(&b, "%s %s", nb++ ? "," : "", bug_table[i].name);
	sb_printf(&b, "%s\n", nb ? "" : " none");
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
				print_op(&b, p, i);
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
		else
			sb_printf(&b, "  at T%d.%d %s #%d -> T%d\n", d->task, d->op,
				  site_by_id(d->site)->name, d->occ, d->target);
	}
	return b.s;
}

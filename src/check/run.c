// SPDX-License-Identifier: MIT
/*
 * The checker registry and the entry points the executor calls.  Checkers
 * run on whatever fiber is current and read state other fibers wrote: their
 * reads are hidden from TSan, and a failure is reported only after the
 * hiding ends.
 */
#include "check.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_checkers);

#define MAX_CHECKERS 32
static const struct checker *checkers[MAX_CHECKERS];
static int nchecker;
static pthread_once_t checkers_once = PTHREAD_ONCE_INIT;

static int cmp_checker_name(const void *a, const void *b)
{
	return strcmp(((const struct checker *)a)->name, ((const struct checker *)b)->name);
}

static int cmp_checker(const void *a, const void *b)
{
	const struct checker *x = a, *y = b;

	return x->prio != y->prio ? x->prio - y->prio : strcmp(x->name, y->name);
}

static const char *checker_name(const void *e)
{
	return ((const struct checker *)e)->name;
}

static const struct registry checkers_registry = {
	.what = "checker", .limit = "MAX_CHECKERS in src/check/run.c",
	REGISTRY_BOUNDS(mmfuzz_checkers), .cap = MAX_CHECKERS,
	.key = cmp_checker_name, .order = cmp_checker, .name = checker_name,
};

static void checkers_build(void)
{
	nchecker = (int)registry_collect(&checkers_registry, (const void **)checkers);
}

void cfail_set(struct cfail *f, const char *checker, const char *site, const char *fmt, ...)
{
	va_list ap;

	if (f->hit)
		return;
	f->hit = true;
	f->checker = checker;
	f->site = site;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

void cfail_report(struct cfail *f)
{
	tsan_ignore_end();
	if (f->hit)
		sched_violation(f->checker, f->site, "%s", f->msg);
}

/* The registry, built at the first call of any entry point: the stress
 * runner checks at quiescence without a check_run_begin(). */
static void checkers_ready(void)
{
	pthread_once(&checkers_once, checkers_build);
}

void check_run_begin(struct world *w)
{
	int i;

	checkers_ready();
	for (i = 0; i < nchecker; i++) {
		if (checkers[i]->attach)
			checkers[i]->attach(w);
		if (checkers[i]->run_begin)
			checkers[i]->run_begin(w);
	}
}

int check_run_begin_one(struct world *w, const char *name)
{
	int i;

	checkers_ready();
	for (i = 0; i < nchecker; i++)
		if (!strcmp(checkers[i]->name, name)) {
			if (checkers[i]->attach)
				checkers[i]->attach(w);
			if (checkers[i]->run_begin)
				checkers[i]->run_begin(w);
			return 0;
		}
	return -1;
}

void check_after_op(struct world *w, int cpu)
{
	struct cfail f;
	int i;

	cfail_init(&f);
	tsan_ignore_begin();
	for (i = 0; i < nchecker && !f.hit; i++)
		if (checkers[i]->after_op)
			checkers[i]->after_op(w, cpu, &f);
	cfail_report(&f);
}

unsigned long check_pass;

void check_quiescent(struct world *w, const char *where)
{
	struct cfail f;
	int i;

	cfail_init(&f);
	checkers_ready();
	tsan_ignore_begin();
	check_pass++;		/* bookkeeping every fiber bumps: hidden too */
	for (i = 0; i < nchecker && !f.hit; i++)
		if (checkers[i]->quiescent)
			checkers[i]->quiescent(w, where, &f);
	cfail_report(&f);
}

void check_final(struct world *w)
{
	struct cfail f;
	int i;

	cfail_init(&f);
	checkers_ready();
	tsan_ignore_begin();
	check_pass++;
	for (i = 0; i < nchecker && !f.hit; i++)
		if (checkers[i]->end)
			checkers[i]->end(w, &f);
	cfail_report(&f);
}

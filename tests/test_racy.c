// SPDX-License-Identifier: MIT
/*
 * Racy accesses are yield points (src/kernel/compiler.h): a read-modify-write
 * split into a racy load and a racy store, with no other yield point between
 * them, loses updates under the scheduler; the model's vmstat_lost_update
 * (atomic_long_read then atomic_long_set) is found by PCT without a hint;
 * and a reader of pcp->high and pcp->batch can see them torn by a concurrent
 * update.  Before racy accesses were yield points none of these could happen.
 */
/* The toy counters below are model code: their racy accesses yield. */
#define MMFUZZ_MODEL 1

#include <string.h>

#include "kernel/atomic.h"
#include "kernel/compiler.h"
#include "mm/mm.h"
#include "prog/exec.h"
#include "sched/sched.h"
#include "tap.h"

#define ITERS 3
#define SEEDS 64		/* random schedules of the toy counters */

/* ---- a split read-modify-write on two fibers ---- */

enum rmw { RMW_ATOMIC_SPLIT, RMW_ONCE_SPLIT, RMW_ATOMIC_ADD };
static enum rmw rmw;
static atomic_long_t counter;
static long once_counter;

static void rmw_body(struct task *t, void *arg)
{
	int i;

	(void)t;
	(void)arg;
	for (i = 0; i < ITERS; i++) {
		long v;

		switch (rmw) {
		case RMW_ATOMIC_SPLIT:
			v = atomic_long_read(&counter);
			atomic_long_set(&counter, v + 1);
			break;
		case RMW_ONCE_SPLIT:
			v = READ_ONCE(once_counter);
			WRITE_ONCE(once_counter, v + 1);
			break;
		case RMW_ATOMIC_ADD:
			atomic_long_add(1, &counter);
			break;
		}
	}
}

/* Runs two tasks on two CPUs under SEEDS random schedules; returns how many
 * lost an update. */
static int lost_updates(struct fsched *fs, enum rmw kind)
{
	struct task_init init[2] = { { 0, false }, { 1, false } };
	struct sched_policy pol;
	int seed, lost = 0;

	rmw = kind;
	for (seed = 1; seed <= SEEDS; seed++) {
		long got;

		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_RANDOM;
		pol.seed = (uint64_t)seed;
		atomic_long_set(&counter, 0);
		WRITE_ONCE(once_counter, 0);
		violation_reset();
		fsched_run(fs, 2, 2, init, &pol, rmw_body, NULL);
		got = kind == RMW_ONCE_SPLIT ? READ_ONCE(once_counter) : atomic_long_read(&counter);
		lost += got != 2 * ITERS;
	}
	return lost;
}

/* ---- programs of the model ---- */

static struct exec *e;

static int parse(const char *text, struct prog *p)
{
	char err[256];

	if (prog_parse_text(text, "test", p, err, sizeof(err))) {
		diag("%s", err);
		return -1;
	}
	return 0;
}

/* vmstat_lost_update's reproducer without its schedule: T1's refresh folds
 * its diff with a load and a store while T0's refill folds under zone->lock. */
static const char *const lost_update_prog =
	"mmfuzz 1\n"
	"cpus: 2\n"
	"stat_threshold: 8\n"
	"bugs: vmstat_lost_update\n"
	"task T0 cpu=0\n"
	"  h0 = alloc_pages order=0 mt=movable\n"
	"  h1 = alloc_pages order=0 mt=movable\n"
	"  h2 = alloc_pages order=0 mt=movable\n"
	"  h3 = alloc_pages order=0 mt=movable\n"
	"  h4 = alloc_pages order=0 mt=movable\n"
	"  h5 = alloc_pages order=0 mt=movable\n"
	"  h6 = alloc_pages order=0 mt=movable\n"
	"  h7 = alloc_pages order=0 mt=movable\n"
	"  h8 = alloc_pages order=0 mt=movable\n"
	"task T1 cpu=1\n"
	"  h9 = alloc_pages order=0 mt=movable\n"
	"  vmstat_refresh\n";

/*
 * Every schedule with one preemption: task @first runs from the start and
 * the other takes over at step k, for every k up to the run's length (a
 * preemption bound of 1, searched exhaustively).  Returns how many k end
 * in @sig; *other counts the other violations, *last the first k found.
 */
static int one_preemption_finds(struct prog *p, const char *sig, int *other, int *first_k)
{
	struct run_opts o = { 0 };
	struct run_result r;
	int first, found = 0;
	uint64_t k, steps;

	*other = 0;
	*first_k = 0;
	p->keyed = false;
	p->fallback_depth = 0;
	p->ndec = 2;
	for (first = 0; first < 2; first++) {
		memset(p->dec, 0, 2 * sizeof(p->dec[0]));
		p->dec[0].target = (short)first;
		p->dec[1].target = (short)!first;
		p->dec[1].step = 1000000;	/* never: how long is the run? */
		exec_run(e, p, &o, &r);
		steps = r.steps;
		for (k = 1; k <= steps; k++) {
			p->dec[1].step = k - 1;	/* fires at step k */
			exec_run(e, p, &o, &r);
			if (r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, sig)) {
				if (!found++)
					*first_k = (int)k;
			} else if (r.outcome == RUN_VIOLATION) {
				(*other)++;
			}
		}
	}
	return found;
}

/*
 * pcp->high and pcp->batch torn.  T0 fills cpu0's pcp to high (12) with
 * frees; the free that reaches high reads high (nr_pcp_high) and then batch
 * (nr_pcp_free).  T1 sets high 64, batch 16 on every CPU.  Read together
 * the pair is (12, 4): 4 pages go back, 8 stay; or (64, 16): nothing goes
 * back (T0's allocations refilled with 16, so 16 stay).  Torn, the reader
 * sees high 12 and batch 16: high < batch, "PCP disabled or boot pageset",
 * one page goes back and 11 stay.
 */
static const char *const torn_prog_head =
	"mmfuzz 1\n"
	"cpus: 2\n"
	"pcp_high: 12\n"
	"pcp_batch: 4\n"
	"task T0 cpu=0\n";
static const char *const torn_prog_tail =
	"task T1 cpu=1\n"
	"  set_pcp_high_batch zone=0 high=64 batch=16\n"
	"schedule: fallback=none\n";

static int torn_count;			/* cpu0's pcp->count when T0 exits, or -1 */
static uint64_t step_high, step_batch, step_update;	/* where the accesses ran */

static void torn_trace(struct fsched *fs, const struct task *t, const struct yield_site *s,
		       int switched_to)
{
	if (!t || !s)
		return;
	/* the first: the end-of-run drain is a run of its own, on T0 */
	if (t->id == 0 && !strcmp(s->name, "op(exit)") && torn_count < 0)
		torn_count = zone_by_idx(mm_world, 0)->per_cpu_pageset[0].count;
	else if (t->id == 0 && !strcmp(s->name, "nr_pcp_high:racy_read(pcp->high)"))
		step_high = fs->step;
	else if (t->id == 0 && !strcmp(s->name, "nr_pcp_free:racy_read(pcp->batch)") &&
		 switched_to == 1)
		step_batch = fs->step;	/* parked before its read: it reads when resumed */
	else if (t->id == 1 && !strcmp(s->name, "pageset_update:racy_write(pcp->high)") &&
		 !step_update)
		step_update = fs->step;
}

static int run_torn(const char *schedule, int *count)
{
	static char text[4096];
	static struct prog p;
	struct run_opts o = { 0 };
	struct run_result r;
	size_t n;
	int i;

	n = (size_t)snprintf(text, sizeof(text), "%s", torn_prog_head);
	for (i = 0; i < 12; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "  h%d = alloc_pages order=0 mt=movable\n", i);
	for (i = 0; i < 12; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "  free_pages h%d\n", i);
	snprintf(text + n, sizeof(text) - n, "%s%s", torn_prog_tail, schedule);
	if (parse(text, &p))
		return -1;
	o.trace = torn_trace;
	torn_count = -1;
	step_high = step_batch = step_update = 0;
	exec_run(e, &p, &o, &r);
	*count = torn_count;
	return r.outcome == RUN_CLEAN ? 0 : -1;
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	static struct prog p;
	int lost, found, other, count = -1, k = 0;

	tap_plan(12);
	e = exec_create();
	if (!fs || !e)
		return 1;

	/* the split read-modify-write, no sched_point between load and store */
	ok(site_lookup("rmw_body:racy_read(counter)") &&
	   site_lookup("rmw_body:racy_write(counter)") &&
	   site_lookup("rmw_body:racy_read(once_counter)") &&
	   site_lookup("rmw_body:racy_write(once_counter)"),
	   "racy accesses are named yield sites: rmw_body:racy_read(counter), ...");
	lost = lost_updates(fs, RMW_ATOMIC_SPLIT);
	ok(lost > 0, "atomic_long_read + atomic_long_set: %d of %d random schedules lose an update",
	   lost, SEEDS);
	lost = lost_updates(fs, RMW_ONCE_SPLIT);
	ok(lost > 0, "READ_ONCE + WRITE_ONCE: %d of %d random schedules lose an update", lost,
	   SEEDS);
	lost = lost_updates(fs, RMW_ATOMIC_ADD);
	ok(lost == 0, "atomic_long_add under the same schedules: none lost (%d)", lost);

	/* the model's own split: vmstat_lost_update, found by the search alone */
	if (parse(lost_update_prog, &p))
		return tap_done();
	found = one_preemption_finds(&p, "I-BUD-4@quiescence", &other, &k);
	ok(found > 0 && other == 0,
	   "vmstat_lost_update (atomic_long_read, atomic_long_set, no sched_point): %d of the "
	   "one-preemption schedules find I-BUD-4 (first at step %d; %d other violations)",
	   found, k, other);
	p.bugs = 0;
	found = one_preemption_finds(&p, "I-BUD-4@quiescence", &other, &k);
	ok(found == 0 && other == 0, "the same schedules without the switch: all clean");

	/* pcp->high and pcp->batch torn */
	ok(run_torn("  at start -> T0\n", &count) == 0 && count == 8,
	   "T0's frees before the update: high 12, batch 4, 8 pages stay on cpu0 (%d)", count);
	ok(run_torn("  at start -> T1\n", &count) == 0 && count == 16,
	   "the update before T0: high 64, batch 16, 16 pages stay (%d)", count);
	ok(run_torn("  at start -> T0\n"
		    "  at T0.23 nr_pcp_free:racy_read(pcp->batch) #1 -> T1\n", &count) == 0,
	   "a switch at nr_pcp_free:racy_read(pcp->batch) runs clean (readers tolerate high < batch)");
	ok(step_high && step_update && step_batch && step_high < step_batch &&
	   step_batch < step_update,
	   "T0 read high (step %llu), was switched out before reading batch (step %llu), and "
	   "T1's pageset_update wrote high at step %llu",
	   (unsigned long long)step_high, (unsigned long long)step_batch,
	   (unsigned long long)step_update);
	ok(count == 11, "torn: high 12 with batch 16, one page freed, 11 stay (%d)", count);
	ok(run_torn("  at start -> T0\n"
		    "  at T0.23 nr_pcp_high:racy_read(pcp->high) #1 -> T1\n", &count) == 0 &&
	   count == 12, "a switch before the read of high sees the new pair whole: 12 stay (%d)",
	   count);

	exec_destroy(e);
	fsched_destroy(fs);
	return tap_done();
}

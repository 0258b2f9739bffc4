// SPDX-License-Identifier: MIT
/*
 * Transient harm a lockless reader sees (issue 11, class 2).  A counter
 * moved out of its lock (free_count_after_unlock: rmqueue_bulk lowers
 * NR_FREE_PAGES after dropping zone->lock) is right again a few steps
 * later: every quiescent checker passes.  Only the oracles on the racy
 * reads (mm/oracle.h) see it: a watermark check, or /proc/vmstat, on
 * another CPU in the window reads free pages the lists no longer hold.
 * And under zone->lock: a drain that accounts its whole batch before
 * listing it (free_count_before_list) is right at the unlock and never
 * below the lists, only above them by more than the holder has in hand.
 */
#include <string.h>

#include "bugs/bugs.h"
#include "check/check.h"
#include "mm/internal.h"
#include "mm/oracle.h"
#include "prog/exec.h"
#include "tap.h"

static const char watermark_text[] =
	"mmfuzz 1\n"
	"bugs: free_count_after_unlock\n"
	"task T0 cpu=0\n"
	"  h0 = alloc_pages order=0 mt=movable\n"
	"task T1 cpu=1\n"
	"  h1 = alloc_pages order=0 mt=movable\n"
	"schedule: fallback=none\n"
	"  at T0.0 rmqueue_bulk:spin_unlock(zone->lock) #1 -> T1\n";

static const char vmstat_text[] =
	"mmfuzz 1\n"
	"bugs: free_count_after_unlock\n"
	"task T0 cpu=0\n"
	"  h0 = alloc_pages order=0 mt=movable\n"
	"task T1 cpu=1\n"
	"  read_counters\n"
	"schedule: fallback=none\n"
	"  at T0.0 rmqueue_bulk:spin_unlock(zone->lock) #1 -> T1\n";

static const char batch_text[] =
	"mmfuzz 1\n"
	"pcp_batch: 16\n"
	"bugs: free_count_before_list\n"
	"task T0 cpu=0\n"
	"  h0 = alloc_pages order=0 mt=movable\n"
	"  drain_all force=1 zone=all\n"
	"task T1 cpu=1\n"
	"  h1 = alloc_pages order=0 mt=movable\n"
	"schedule: fallback=none\n"
	"  at T0.1 free_pcppages_bulk_single_pass:point(page) #1 -> T1\n";

/* The tool before the oracles: a test-only checker, attached after the
 * read checker, unhooks the watermark's oracle when told to. */
static bool detach;

static void detach_attach(struct world *w)
{
	(void)w;
	if (detach)
		pagealloc_hooks.read_watermark = NULL;
}

static const struct checker detach_checker = {
	.name = "test-detach", .layer = "test", .prio = 1000, .attach = detach_attach,
};
CHECKER(detach_checker);

static struct run_result run(struct exec *e, const char *text, uint64_t bugs_off)
{
	struct run_opts o = { 0 };
	struct run_result r;
	struct prog p;
	char err[256];

	if (prog_parse_text(text, "t", &p, err, sizeof(err)))
		diag("%s", err);
	p.bugs &= ~bugs_off;
	exec_run(e, &p, &o, &r);
	return r;
}

static const char *sig(const struct run_result *r)
{
	return r->outcome == RUN_VIOLATION ? r->v.signature : "clean";
}

/* a real thread's reads, against the last run's world, with other real
 * threads in the model (as the stress runner says it has: sched.h) */
static int off_fibers(void *arg)
{
	const struct zone *z = zone_by_idx(mm_world, 0);
	long free = __READ_ONCE(z->vm_stat[NR_FREE_PAGES].counter);

	(void)arg;
	real_threads_concurrent = true;
	pagealloc_hooks.read_watermark(z, free + 1000, 0);
	pagealloc_hooks.read_snapshot(z, free + 1000, "test");
	pagealloc_hooks.read_drain_pcp(&z->per_cpu_pageset[0], z->per_cpu_pageset[0].count + 1, 0);
	return 0;
}

int main(void)
{
	struct exec *e = exec_create();
	const uint64_t sw = 1ULL << BUG_FREE_COUNT_AFTER_UNLOCK;
	struct run_result r;
	int found = 0, seed;

	tap_plan(10);
	r = run(e, watermark_text, 0);
	ok(!strcmp(sig(&r), "I-READ@__zone_watermark_ok"),
	   "a watermark check in the window: %s", sig(&r));
	ok(strstr(r.v.msg, "the free lists hold") && strstr(r.v.msg, "read"),
	   "the report has what was read and what the lists hold: %s", r.v.msg);
	r = run(e, vmstat_text, 0);
	ok(!strcmp(sig(&r), "I-READ@vmstat_show"), "/proc/vmstat in the window: %s", sig(&r));
	r = run(e, watermark_text, sw);
	ok(r.outcome == RUN_CLEAN, "the clean model under the same schedule: %s", sig(&r));

	/* without the oracle (the tool before them) the harm is invisible:
	 * every quiescent checker passes */
	detach = true;
	r = run(e, watermark_text, 0);
	detach = false;
	ok(r.outcome == RUN_CLEAN, "with the watermark oracle detached the same run is %s",
	   sig(&r));

	/* and a random schedule meets the window */
	for (seed = 1; seed <= 200 && !found; seed++) {
		struct run_opts o = { .sched = SCHED_RANDOM, .seed = (uint64_t)seed };
		struct prog p;
		char err[256];

		prog_parse_text(watermark_text, "t", &p, err, sizeof(err));
		exec_run(e, &p, &o, &r);
		if (r.outcome == RUN_VIOLATION && !strncmp(r.v.signature, "I-READ@", 7))
			found = seed;
	}
	ok(found, "the random scheduler meets the window (seed %d of 200)", found);
	r = run(e, watermark_text, 0);
	ok(!strcmp(sig(&r), "I-READ@__zone_watermark_ok"), "and the oracle is still there after");

	/* the upper bound while another task holds zone->lock */
	r = run(e, batch_text, 0);
	ok(!strcmp(sig(&r), "I-READ@__zone_watermark_ok") && strstr(r.v.msg, "above them by") &&
	   strstr(r.v.msg, "has 0 in hand"),
	   "a drain's batch accounted before its blocks are listed: %s", r.v.msg);
	r = run(e, batch_text, 1ULL << BUG_FREE_COUNT_BEFORE_LIST);
	ok(r.outcome == RUN_CLEAN, "6.6's order under the same schedule: %s", sig(&r));

	/* off the fibers among other real threads (the stress runner's, in a
	 * process that ran the executor first: the oracles are still attached)
	 * a read has no step to be compared at, and the oracles judge nothing;
	 * one real thread alone is judged (test_reclaim_active) */
	{
		char out[2048];
		int st = tap_in_child(off_fibers, NULL, out, sizeof(out));

		ok(st == 0 && !strstr(out, "I-READ"),
		   "the read oracles called off the fibers with values no reader returns "
		   "report nothing (exit %d%s%.300s)", st, *out ? ": " : "", out);
	}
	exec_destroy(e);
	return tap_done();
}

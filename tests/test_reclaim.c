// SPDX-License-Identifier: MIT
/*
 * Direct reclaim and the frees behind a grace period (page_alloc_slowpath.c
 * reclaim_throttle, docs/reclaim.md): a GFP_KERNEL allocation that finds
 * the zone at its min watermark while an RCU callback holds pages waits
 * for the callback, counts it as progress, drains and gets a page; with
 * nothing queued it fails as before; GFP_ATOMIC never waits.  The
 * real-mode RCU backend here is the test's own: call() queues, the
 * barrier runs the queue (as liburcu's callback thread would, late).
 */
#include "kernel/rcu_real.h"
#include "kernel/rcupdate.h"
#include "mm_world.h"
#include "tap.h"

static void pass_through(struct mm_config *cfg)
{
	config_set(cfg, &ck_pcp_high, 0);		/* 256 pages: min 8, low 10, high 12 */
	config_set(cfg, &ck_pcp_batch, 1);
	config_set(cfg, &ck_stat_threshold, 1);	/* the callback's frees reach the zone's count */
}

/* ---- a backend whose callbacks run only at the barrier ---- */

static void *queued_head[8];
static void (*queued_fn[8])(void *head);
static int nqueued, barriers;

static void nop(void)
{
}

static void late_call(void *head, void (*invoke)(void *head))
{
	queued_head[nqueued] = head;
	queued_fn[nqueued++] = invoke;
}

static void late_barrier(void)
{
	int i, n = nqueued;

	barriers++;
	nqueued = 0;
	for (i = 0; i < n; i++)
		queued_fn[i](queued_head[i]);
}

static const struct rcu_real_ops late_ops = {
	.read_lock = nop, .read_unlock = nop, .synchronize = nop,
	.call = late_call, .do_barrier = late_barrier,
};

/* pages freed after a grace period, as a table batch frees its tables */
struct deferred_free {
	struct rcu_head rcu;
	struct page *pages[4];
	int n;
};

static void deferred_free_rcu(struct rcu_head *h)
{
	struct deferred_free *d = container_of(h, struct deferred_free, rcu);
	int i;

	for (i = 0; i < d->n; i++)
		__free_pages(d->pages[i], 0);
	d->n = 0;
}

static unsigned long free_now(struct world *w)
{
	mm_fold(w);
	return zone_page_state_snapshot(zone_by_idx(w, 0), NR_FREE_PAGES);
}

/* fold before every allocation, so the watermarks read exact counters */
static struct page *alloc_folded(struct world *w, gfp_t gfp)
{
	mm_fold(w);
	return alloc_pages(gfp, 0);
}

int main(void)
{
	static struct page *held[300];
	static struct deferred_free d;
	struct world *w;
	struct page *p;
	int n, i;

	tap_plan(6);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	w = mm_test_boot(pass_through);
	rcu_set_real_ops(&late_ops);
	/* down to the min watermark, GFP_ATOMIC's reserve untouched */
	for (n = 0; free_now(w) > 8; n++)
		held[n] = alloc_folded(w, GFP_KERNEL);
	ok(free_now(w) == 8 && mm_stat_sum(MM_ALLOC_FAIL) == 0,
	   "%d pages taken: the zone at its min (8)", n);

	/* four of them freed behind a grace period that has not ended */
	for (i = 0; i < 4; i++)
		d.pages[d.n++] = held[--n];
	call_rcu(&d.rcu, deferred_free_rcu);
	ok(rcu_cbs_pending() == 1 && free_now(w) == 8, "one callback queued, its pages not free");

	held[n] = alloc_folded(w, GFP_KERNEL);
	ok(held[n] && barriers == 1 && d.n == 0 && rcu_cbs_pending() == 0,
	   "GFP_KERNEL at the min: the reclaim waits for the callback and gets a page");
	ok(mm_stat_sum(MM_RECLAIM_RCU_WAIT) == 1 && mm_stat_sum(MM_DIRECT_RECLAIM) == 0 &&
	   mm_stat_sum(MM_OOM) == 0 && mm_stat_sum(MM_ALLOC_FAIL) == 0,
	   "one reclaim with progress (reclaim_rcu_wait 1), no OOM point, no failure");
	n++;

	/* take the rest back to the min: nothing queued, the failure as before */
	while (free_now(w) > 8)
		held[n++] = alloc_folded(w, GFP_KERNEL);
	p = alloc_folded(w, GFP_KERNEL);
	ok(!p && barriers == 1 && mm_stat_sum(MM_DIRECT_RECLAIM) == 1 && mm_stat_sum(MM_OOM) == 1,
	   "nothing queued: no wait, one reclaim without progress, the OOM point, a failure");

	/* GFP_ATOMIC cannot reclaim: a queued callback is no help to it */
	for (i = 0; i < 2; i++)
		d.pages[d.n++] = held[--n];
	call_rcu(&d.rcu, deferred_free_rcu);
	while ((held[n] = alloc_folded(w, GFP_ATOMIC | __GFP_NOWARN)))
		n++;
	ok(barriers == 1 && rcu_cbs_pending() == 1 && mm_stat_sum(MM_RECLAIM_RCU_WAIT) == 1,
	   "GFP_ATOMIC runs dry without waiting: the callback is still queued");
	rcu_barrier();
	for (i = 0; i < n; i++)
		__free_pages(held[i], 0);
	rcu_set_real_ops(NULL);
	world_drain(w);
	check_final(w);
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

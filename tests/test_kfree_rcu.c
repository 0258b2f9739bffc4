// SPDX-License-Identifier: MIT
/*
 * kfree_rcu on fibers (src/kernel/kfree_rcu.c): the polled grace-period
 * API's snapshot semantics; every object queued is freed once, after the
 * readers of its call, through the bulk blocks, the head list when no
 * block can be had, and the inline fallback; the counters; the checker
 * I-RCU catches kfree_rcu_poll_early and the clean model is never
 * reported over PCT seeds; replay, also after a run that only drained;
 * real mode (a lone thread).
 */
#include <string.h>

#include "bugs/bugs.h"
#include "kernel/kfree_rcu.h"
#include "sched/sched.h"
#include "tap.h"

#define NOBJ 96

struct obj {
	int v;
	struct rcu_head rh;
};

static struct obj objs[NOBJ];
static int freed[NOBJ], nfree_calls, double_free;

static void obj_kfree(void *p)
{
	struct obj *o = p;
	int i = (int)(o - objs);

	if (__atomic_fetch_add(&freed[i], 1, __ATOMIC_RELAXED))
		__atomic_fetch_add(&double_free, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&nfree_calls, 1, __ATOMIC_RELAXED);
}

static void obj_kfree_bulk(size_t n, void **p)
{
	size_t i;

	for (i = 0; i < n; i++)
		obj_kfree(p[i]);
}

static const struct kvfree_rcu_ops ops = { obj_kfree, obj_kfree_bulk };

enum scenario { POLL, MANY, POLL_EARLY, INLINE, DRAIN_ONLY, ONE };
static enum scenario scen;
static int in_reader, poll_ok[4];

static void body(struct task *t, void *arg)
{
	unsigned long c;
	int i;

	(void)arg;
	switch (scen) {
	case POLL:
		if (t->id == 0) {
			while (!__atomic_load_n(&in_reader, __ATOMIC_RELAXED))
				sched_point("wait");
			c = start_poll_synchronize_rcu();
			poll_ok[0] = poll_state_synchronize_rcu(c);	/* reader inside */
			synchronize_rcu();
			poll_ok[1] = poll_state_synchronize_rcu(c);
			poll_ok[2] = poll_state_synchronize_rcu(RCU_GET_STATE_COMPLETED);
		} else {
			rcu_read_lock();
			__atomic_store_n(&in_reader, 1, __ATOMIC_RELAXED);
			for (i = 0; i < 8; i++)
				sched_point("reader");
			rcu_read_unlock();
		}
		break;
	case MANY:
		/* T0, T1 queue with heads (head list, cached blocks), T2 without
		 * (pool blocks), each inside and outside a section; T3 reads */
		if (t->id < 3) {
			for (i = t->id; i < NOBJ; i += 3) {
				if (i % 2)
					rcu_read_lock();
				if (t->id == 2 && !(i % 2))
					kfree_rcu_mightsleep(&objs[i]);
				else
					kfree_rcu(&objs[i], rh);
				if (i % 2)
					rcu_read_unlock();
				sched_point("between");
			}
			if (t->id == 0)
				kfree_rcu_drain();
		} else {
			for (i = 0; i < 4; i++) {
				rcu_read_lock();
				sched_point("reader");
				sched_point("reader");
				rcu_read_unlock();
			}
		}
		break;
	case POLL_EARLY:
		/* a reader's section that begins after the first record's
		 * grace period and spans the later records' calls */
		if (t->id == 0) {
			kfree_rcu_mightsleep(&objs[0]);
			for (i = 0; i < 12; i++)
				sched_point("updater");
			kfree_rcu_mightsleep(&objs[1]);
			kfree_rcu_mightsleep(&objs[2]);
		} else if (t->id == 2) {
			for (i = 0; i < 3; i++)
				synchronize_rcu();
		} else {
			int k;

			for (k = 0; k < 6; k++) {
				rcu_read_lock();
				for (i = 0; i < 8; i++)
					sched_point("reader");
				rcu_read_unlock();
			}
		}
		break;
	case ONE:
		/* one object from CPU 0: the other CPUs' monitors stay idle */
		if (t->id == 0)
			kfree_rcu(&objs[0], rh);
		break;
	case DRAIN_ONLY:
		/* the end of a run (slub_drain): its own scheduler run, nothing
		 * queued in it */
		kfree_rcu_drain();
		break;
	case INLINE:
		/* more than the pool holds, without heads, while a reader
		 * holds the grace periods off: the inline fallback */
		if (t->id == 0) {
			for (i = 0; i < NOBJ; i++)
				kfree_rcu_mightsleep(&objs[i]);
		} else {
			rcu_read_lock();
			for (i = 0; i < 3000; i++)
				sched_point("reader");
			rcu_read_unlock();
		}
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = i % 3;
		init[i].irq = false;
	}
	memset(freed, 0, sizeof(freed));
	memset(poll_ok, 0, sizeof(poll_ok));
	nfree_calls = double_free = in_reader = 0;
	violation_reset();
	return fsched_run(fs, ntasks, 3, init, pol, body, NULL);
}

static int all_freed(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (freed[i] != 1)
			return 0;
	return !double_free;
}

/* PCT seeds 1..n: the first with a violation, 0 if none */
static enum sched_kind seeds_kind = POL_PCT;

static int seeds(struct fsched *fs, int ntasks, int n, char *sig, size_t len, int *bad)
{
	struct sched_policy pol;
	struct kfree_rcu_stats st;
	int seed;

	memset(&pol, 0, sizeof(pol));
	pol.kind = seeds_kind;
	pol.depth = 3;
	pol.horizon = 400;
	*bad = 0;
	for (seed = 1; seed <= n; seed++) {
		pol.seed = (uint64_t)seed;
		if (run(fs, ntasks, &pol)) {
			snprintf(sig, len, "%s", g_violation.signature);
			return seed;
		}
		kfree_rcu_stats(&st);
		if (st.pending || st.bnodes_out > (unsigned long)MAX_CPUS * RCU_MIN_CACHED_OBJS ||
		    !all_freed(scen == MANY ? NOBJ : 3))
			(*bad)++;
	}
	return 0;
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct sched_policy pol;
	struct kfree_rcu_stats st;
	char sig[128] = "";
	int r, seed, bad;
	uint64_t h1;
	unsigned long c;

	tap_plan(13);
	kvfree_rcu_set_ops(&ops);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;

	scen = POLL;
	r = run(fs, 2, &pol);
	ok(r == 0 && !poll_ok[0] && poll_ok[1] && poll_ok[2],
	   "poll_state_synchronize_rcu: false while a reader of the snapshot runs, true after "
	   "synchronize_rcu, true for RCU_GET_STATE_COMPLETED (%d %d %d)", poll_ok[0], poll_ok[1],
	   poll_ok[2]);

	scen = MANY;
	r = run(fs, 4, &pol);
	kfree_rcu_stats(&st);
	ok(r == 0 && all_freed(NOBJ) && st.pending == 0 && st.calls == NOBJ,
	   "round robin: %d objects each freed once (%lu calls, %lu pending): %s", NOBJ, st.calls,
	   st.pending, r ? g_violation.signature : "clean");
	ok(st.freed_polled + st.freed_batch + st.freed_inline == NOBJ && st.head_list > 0 &&
	   st.batches > 0,
	   "through the batches (%lu), the polled shortcut (%lu), inline (%lu); %lu on the head list",
	   st.freed_batch, st.freed_polled, st.freed_inline, st.head_list);
	h1 = fs->hash;
	run(fs, 4, &pol);
	ok(fs->hash == h1, "replayed: same trace hash %016llx", (unsigned long long)h1);
	scen = ONE;
	run(fs, 2, &pol);
	h1 = fs->hash;
	scen = DRAIN_ONLY;
	r = run(fs, 1, &pol);
	scen = ONE;
	r |= run(fs, 2, &pol);
	ok(r == 0 && fs->hash == h1,
	   "after a run that only drained (nothing queued): same trace hash %016llx (got %016llx) "
	   "(the drain leaves nothing armed for the next run)", (unsigned long long)h1,
	   (unsigned long long)fs->hash);
	scen = MANY;

	seed = seeds(fs, 4, 150, sig, sizeof(sig), &bad);
	ok(seed == 0 && bad == 0, "MANY, 150 PCT seeds, clean model: no report, all freed%s%s (%d bad)",
	   seed ? ", got " : "", seed ? sig : "", bad);

	scen = POLL_EARLY;
	seed = seeds(fs, 3, 150, sig, sizeof(sig), &bad);
	if (!seed && !bad) {
		seeds_kind = POL_RANDOM;
		seed = seeds(fs, 3, 300, sig, sizeof(sig), &bad);
		seeds_kind = POL_PCT;
	}
	ok(seed == 0 && bad == 0,
	   "POLL_EARLY scenario, clean model: no report over 150 PCT and 300 random seeds%s%s",
	   seed ? ", got " : "", seed ? sig : "");
	bugs_enabled = 1ULL << BUG_KFREE_RCU_POLL_EARLY;
	seeds_kind = POL_RANDOM;
	r = run(fs, 3, &pol);
	if (!r)
		seed = seeds(fs, 3, 300, sig, sizeof(sig), &bad);
	else
		snprintf(sig, sizeof(sig), "%s", g_violation.signature);
	seeds_kind = POL_PCT;
	bugs_enabled = 0;
	ok((r || seed > 0) && !strcmp(sig, "I-RCU@kvfree_rcu_bulk"),
	   "kfree_rcu_poll_early: caught by I-RCU (%s, seed %d)", sig, r ? 0 : seed);
	diag("%s", g_violation.msg);

	scen = INLINE;
	r = run(fs, 2, &pol);
	kfree_rcu_stats(&st);
	if (r)
		diag("%s: %s", g_violation.signature, g_violation.msg);
	diag("pending %lu polled %lu batch %lu inline %lu calls %lu", st.pending, st.freed_polled,
	     st.freed_batch, st.freed_inline, st.calls);
	ok(r == 0 && all_freed(NOBJ) && st.freed_inline > 0 && st.pending == 0,
	   "no block left: kvfree_rcu(one arg) waits and frees inline (%lu of %d)", st.freed_inline,
	   NOBJ);

	/* real mode, a lone thread (the sequential executor's) */
	{
		static struct task rt;
		int i;

		memset(&rt, 0, sizeof(rt));
		rt.cpu = 1;
		current_task = &rt;
		kfree_rcu_reset();
		memset(freed, 0, sizeof(freed));
		double_free = 0;
		c = get_state_synchronize_rcu();
		ok(c == RCU_GET_STATE_COMPLETED && poll_state_synchronize_rcu(c),
		   "real mode, outside a section: the snapshot is complete already");
		rcu_read_lock();
		c = get_state_synchronize_rcu();
		r = poll_state_synchronize_rcu(c);
		for (i = 0; i < 40; i++)
			kfree_rcu(&objs[i], rh);
		rcu_read_unlock();
		ok(!r && poll_state_synchronize_rcu(c),
		   "real mode: a snapshot inside a section completes at its end");
		kfree_rcu_drain();
		kfree_rcu_stats(&st);
		ok(all_freed(40) && st.pending == 0, "real mode: kfree_rcu_drain frees all 40 (%lu pending)",
		   st.pending);
		current_task = NULL;
	}
	ok(1, "done");

	fsched_destroy(fs);
	return tap_done();
}

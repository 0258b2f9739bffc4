// SPDX-License-Identifier: MIT
/*
 * CPU hotplug on fibers, with the page allocator and a percpu_counter:
 *
 *   cpu1 has pages on its pcp and +3 in the counter's s32
 *   cpu_down(1): its tasks move to cpu0, page_alloc_cpu_dead drains its
 *   pcp and folds its vmstat, the counter's dead callback folds the +3;
 *   I-CPUHP, I-PCPCNT, the page allocator's invariants hold; cpu_up(1).
 *
 * stop_machine waits for a task that has the CPU; an offline CPU runs
 * nothing; the errors; lockdep's hotplug edges; PCT seeds on a mix.
 */
#include <errno.h>
#include <string.h>

#include "check/check.h"
#include "check/kernel.h"
#include "kernel/cpu.h"
#include "kernel/lockdep.h"
#include "sched/sched.h"
#include "tap.h"

static struct world *w;
static struct ktorture *ktp;
#define kt (*ktp)
static int order_log[64], norder;
static int flag_freed, flag_down, rc[8], end_cpu[4];

static void log_order(int v)
{
	int i = __atomic_fetch_add(&norder, 1, __ATOMIC_RELAXED);

	if (i < 64)
		__atomic_store_n(&order_log[i], v, __ATOMIC_RELAXED);
}

static int pos_of(int v)
{
	int i;

	for (i = 0; i < norder && i < 64; i++)
		if (order_log[i] == v)
			return i;
	return -1;
}

static bool get(int *f)
{
	return __atomic_load_n(f, __ATOMIC_ACQUIRE);
}

static void set(int *f)
{
	__atomic_store_n(f, 1, __ATOMIC_RELEASE);
}

enum scenario { DOWN_PCP, STOP_MACHINE, ERRORS, MIX };
static enum scenario scen;

static void alloc_free_some(int n)
{
	struct page *pages[8];
	int i;

	for (i = 0; i < n; i++)
		pages[i] = alloc_pages(__GFP_MOVABLE, 0);
	for (i = 0; i < n; i++)
		if (pages[i])
			__free_pages(pages[i], 0);
}

static void body(struct task *t, void *arg)
{
	int i;

	(void)arg;
	switch (scen) {
	case DOWN_PCP:
		if (t->id == 1) {
			alloc_free_some(3);		/* onto cpu1's pcp */
			for (i = 0; i < 3; i++)
				kt_counter_add(&kt, 1);	/* cpu1's s32: +3 */
			set(&flag_freed);
			while (!get(&flag_down))
				sched_point("idle");
			end_cpu[1] = t->cpu;
			/* an offline CPU: the move is refused */
			sched_migrate(t, 1, YIELD_SITE(YP_POINT, "migrate"));
			end_cpu[2] = t->cpu;
		} else {
			while (!get(&flag_freed))
				sched_point("wait");
			rc[0] = cpu_down(1);
			check_cpus_offline(w, "after cpu_down");
			check_ktorture_quiescent(&kt, "after cpu_down");
			set(&flag_down);
			sched_point("down");
			rc[1] = cpu_up(1);
		}
		break;
	case STOP_MACHINE:
		if (t->id == 1) {
			preempt_disable();
			for (i = 0; i < 5; i++)
				sched_point("pinned");
			log_order(1);
			preempt_enable();
			sched_point("after");
			end_cpu[1] = t->cpu;
		} else {
			sched_point("t0");
			rc[0] = cpu_down(1);
			log_order(0);
		}
		break;
	case ERRORS:
		rc[0] = cpu_down(1);
		rc[1] = cpu_down(2);
		rc[2] = cpu_down(0);	/* the last one */
		rc[3] = cpu_down(1);	/* already down */
		rc[4] = cpu_up(1);
		rc[5] = cpu_up(1);	/* already up */
		rc[6] = cpu_up(2);
		rc[7] = cpu_down(7);	/* no such CPU */
		break;
	case MIX:
		for (i = 0; i < 3; i++) {
			if (t->id == 2) {
				cpu_down(1);
				check_cpus_offline(w, "mix");
				cpu_up(1);
			} else {
				alloc_free_some(2);
				kt_counter_add(&kt, t->id + 1);
				kt_counter_add(&kt, -1);
			}
		}
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const int *cpus, const struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = cpus[i];
		init[i].irq = false;
	}
	norder = 0;
	flag_freed = flag_down = 0;
	memset(rc, 0x7f, sizeof(rc));
	memset(end_cpu, -1, sizeof(end_cpu));
	violation_reset();
	world_reset(w);
	mm_world = w;
	check_run_begin(w);
	ktp = kt_world(w);
	return fsched_run(fs, ntasks, w->cfg.ncpus, init, pol, body, NULL);
}

/* What the page allocator's checkers say at the end (no page held). */
static bool mm_quiescent(void)
{
	struct task me;
	jmp_buf jb;

	memset(&me, 0, sizeof(me));
	me.name = "main";
	me.exit_jb = &jb;
	if (setjmp(jb)) {
		current_task = NULL;
		return false;
	}
	current_task = &me;
	check_quiescent(w, "test");
	current_task = NULL;
	return true;
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct mm_config cfg;
	struct sched_policy pol;
	int c01[3] = { 0, 1, 2 }, c00[3] = { 0, 0, 0 }, r, seed, bad = 0;
	uint64_t h1;

	tap_plan(16);
	config_default(&cfg);
	config_set(&cfg, &ck_cpus, 3);
	if (world_create(&cfg, &w))
		return 1;
	mm_world = w;
	ktp = kt_world(w);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;

	scen = DOWN_PCP;
	r = run(fs, 2, c01, &pol);
	ok(r == 0 && rc[0] == 0 && rc[1] == 0, "cpu_down(1) and cpu_up(1) from T0: %d %d (%s)", rc[0],
	   rc[1], r ? g_violation.signature : "clean");
	if (r)
		diag("%s", g_violation.msg);
	ok(end_cpu[1] == 0, "T1, on cpu1, was moved to cpu0 (it ends on cpu%d)", end_cpu[1]);
	ok(end_cpu[2] == 0, "a move to the offline cpu1 is refused (still cpu%d)", end_cpu[2]);
	ok(r == 0, "right after cpu_down: I-CPUHP (cpu1's pcp empty, vmstat folded) and I-PCPCNT "
	   "(its +3 folded) hold");
	ok(kt.counter.counters[1].count == 0 && percpu_counter_sum_all(&kt.counter) == 3,
	   "the counter: cpu1's s32 is 0, the sum is the +3 added there (%lld)",
	   (long long)percpu_counter_sum_all(&kt.counter));
	ok(mm_quiescent(), "at the end: the page allocator's quiescent checks and I-VM hold");
	ok(lockdep_has_edge("cpu_add_remove_lock", "cpu_hotplug_lock") &&
	   lockdep_has_edge("cpu_hotplug_lock", "pcp_batch_high_lock") &&
	   lockdep_has_edge("cpu_hotplug_lock", "pcp->lock") &&
	   lockdep_has_edge("cpu_hotplug_lock", "percpu_counters_lock") &&
	   lockdep_has_edge("percpu_counters_lock", "kt->counter.lock"),
	   "lockdep recorded the hotplug lock order (cpu_add_remove_lock -> cpu_hotplug_lock -> "
	   "pcp_batch_high_lock, pcp->lock, percpu_counters_lock -> fbc->lock)");
	h1 = fs->hash;
	run(fs, 2, c01, &pol);
	ok(fs->hash == h1, "replayed: same trace hash %016llx", (unsigned long long)h1);

	scen = STOP_MACHINE;
	r = run(fs, 2, c01, &pol);
	ok(r == 0 && rc[0] == 0 && pos_of(1) < pos_of(0) && end_cpu[1] == 0,
	   "cpu_down waits for the task that has cpu1 (preemption off), then moves it (%d < %d, "
	   "cpu%d)", pos_of(1), pos_of(0), end_cpu[1]);

	scen = ERRORS;
	r = run(fs, 1, c00, &pol);
	ok(r == 0 && rc[0] == 0 && rc[1] == 0 && rc[2] == -EBUSY && rc[3] == -EINVAL,
	   "cpu_down: 0, 0, then -EBUSY for the last CPU and -EINVAL for one already down (%d %d "
	   "%d %d)", rc[0], rc[1], rc[2], rc[3]);
	ok(rc[4] == 0 && rc[5] == -EINVAL && rc[6] == 0 && rc[7] == -EINVAL,
	   "cpu_up: 0, -EINVAL when up; no such CPU: -EINVAL (%d %d %d %d)", rc[4], rc[5], rc[6],
	   rc[7]);
	ok(mm_quiescent(), "the invariants hold after every CPU came back");

	/* PCT seeds: allocations and counter adds on every CPU, CPUs going
	 * down and up under them */
	scen = MIX;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 300;
	for (seed = 1; seed <= 150 && !bad; seed++) {
		pol.seed = (uint64_t)seed;
		r = run(fs, 3, c01, &pol);
		if (r || !mm_quiescent()) {
			bad = seed;
			diag("seed %d: %s: %s", seed, g_violation.signature, g_violation.msg);
		}
	}
	ok(!bad, "150 PCT seeds of allocations, frees and counter adds on three CPUs while one "
	   "goes down and up: every invariant holds (%d)", bad);
	ok(fs->migrations == 0 && kt.counter_deltas != 0, "(the counter saw %ld)", kt.counter_deltas);

	/* the percpu_counter alone on the sequential (real-mode) path */
	{
		struct task me;

		memset(&me, 0, sizeof(me));
		me.name = "main";
		current_task = &me;
		cpu_hotplug_boot(3);
		kt_init(&kt, 3);
		me.cpu = 2;
		kt_counter_add(&kt, 3);
		me.cpu = 0;
		r = cpu_down(2);
		ok(r == 0 && kt.counter.counters[2].count == 0 && percpu_counter_sum(&kt.counter) == 3,
		   "real mode: cpu_down(2) nobody runs on folds its count (sum %lld)",
		   (long long)percpu_counter_sum(&kt.counter));
		ok(cpu_up(2) == 0 && cpu_online(2), "and cpu_up(2) brings it back");
		current_task = NULL;
	}

	world_destroy(w);
	fsched_destroy(fs);
	return tap_done();
}

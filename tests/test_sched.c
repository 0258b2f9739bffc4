// SPDX-License-Identifier: MIT
/*
 * The scheduler and the kernel primitives on their own: locks exclude,
 * schedules are deterministic, decisions switch where they say, a missing
 * lock loses updates, CPU exclusion and interrupts, deadlock and livelock
 * reports, and the same primitives on two real pthreads.
 */
#include <pthread.h>
#include <string.h>

#include "kernel/atomic.h"
#include "kernel/compiler.h"
#include "kernel/lockdep.h"
#include "kernel/spinlock.h"
#include "sched/fiber.h"
#include "sched/sched.h"
#include "tap.h"

static spinlock_t lock_a, lock_b;
static long counter;
static int flag;
static int order_log[64], norder;

/* Tasks log their order without a lock: atomics keep TSan quiet. */
static void log_order(int v)
{
	int i = __atomic_fetch_add(&norder, 1, __ATOMIC_RELAXED);

	__atomic_store_n(&order_log[i], v, __ATOMIC_RELAXED);
}

#if MMFUZZ_TSAN
/* The ABBA scenario is a real lock-order inversion: TSan says so too. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "detect_deadlocks=0";
}
#endif

enum scenario { LOCKED, RACY, ABBA, SPIN_FOREVER, PREEMPT_HOLD, IRQ_HOLD };
static enum scenario scen;
static int iters = 4;
static bool irq_off;

static void body(struct task *t, void *arg)
{
	int i;

	(void)arg;
	switch (scen) {
	case LOCKED:
		for (i = 0; i < iters; i++) {
			spin_lock(&lock_a);
			{
				long v = counter;

				sched_point("inside");
				counter = v + 1;
			}
			spin_unlock(&lock_a);
		}
		break;
	case RACY:
		for (i = 0; i < iters; i++) {
			long v = READ_ONCE(counter);

			sched_point("between");
			WRITE_ONCE(counter, v + 1);
		}
		break;
	case ABBA:
		if (t->id == 0) {
			spin_lock(&lock_a);
			sched_point("holding");
			spin_lock(&lock_b);
			spin_unlock(&lock_b);
			spin_unlock(&lock_a);
		} else {
			spin_lock(&lock_b);
			sched_point("holding");
			spin_lock(&lock_a);
			spin_unlock(&lock_a);
			spin_unlock(&lock_b);
		}
		break;
	case SPIN_FOREVER:
		while (!READ_ONCE(flag))
			loop_point("wait_flag");
		break;
	case PREEMPT_HOLD:
		/* T0 keeps its CPU across points; T1 on the same CPU must not
		 * run in between, T2 on another CPU may. */
		if (t->id == 0) {
			preempt_disable();
			for (i = 0; i < 3; i++) {
				log_order(0);
				sched_point("held");
			}
			preempt_enable();
		} else {
			log_order(t->id);
		}
		break;
	case IRQ_HOLD:
		if (t->id == 0) {
			unsigned long flags = 0;

			if (irq_off)
				local_irq_save(flags);
			else
				preempt_disable();
			for (i = 0; i < 3; i++) {
				log_order(0);
				sched_point("cpu_held");
			}
			if (irq_off)
				local_irq_restore(flags);
			else
				preempt_enable();
		} else {
			/* an interrupt on cpu0 */
			t->irq_ctx = true;
			sched_op_begin(t, 0, YIELD_SITE(YP_OP, "test_irq"));
			fsched_irq_enter(t, NULL);
			log_order(1);
			fsched_irq_exit(t);
		}
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const int *cpus, struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = cpus[i];
		init[i].irq = scen == IRQ_HOLD && i == 1;
	}
	counter = 0;
	flag = 0;
	norder = 0;
	violation_reset();
	spin_lock_init_named(&lock_a, "lock_a", -1);
	spin_lock_init_named(&lock_b, "lock_b", -1);
	return fsched_run(fs, ntasks, 2, init, pol, body, NULL);
}

/* ---- real pthreads through the same primitives ---- */
static struct task ptask[2];

/* Two bare fibers trading the CPU (what the scheduler does at every switch). */
static struct fiber pp_main, pp_f;
static long pp_trips;

static void pp_entry(void *arg)
{
	(void)arg;
	for (;;) {
		pp_trips++;
		fiber_switch(&pp_f, &pp_main, false, false);
	}
}

static void *pthread_body(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	for (i = 0; i < 100000; i++) {
		spin_lock(&lock_a);
		counter++;
		spin_unlock(&lock_a);
	}
	current_task = NULL;
	return NULL;
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct sched_policy pol;
	const struct sched_decision *rec;
	struct sched_decision dec[2], keyed[MAX_DECISIONS];
	int cpus[3] = { 0, 1, 1 }, same_cpu[3] = { 0, 0, 1 }, r, nrec, i;
	uint64_t h1, h2;
	pthread_t th[2];

	tap_plan(25);
	ok(fs != NULL, "scheduler created with %d fibers", MAX_TASKS);

	scen = LOCKED;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;
	r = run(fs, 2, cpus, &pol);
	ok(r == 0 && counter == 2 * iters, "rr: the lock keeps all %d increments (got %ld)",
	   2 * iters, counter);
	ok(fs->switches > 4, "rr: tasks interleave (%lu switches)", fs->switches);

	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.seed = 42;
	pol.horizon = 40;
	run(fs, 2, cpus, &pol);
	h1 = fs->hash;
	run(fs, 2, cpus, &pol);
	h2 = fs->hash;
	ok(h1 == h2 && counter == 2 * iters, "pct: same seed, same trace hash (%016llx)",
	   (unsigned long long)h1);
	pol.seed = 43;
	run(fs, 2, cpus, &pol);
	ok(fs->hash != h1 || 1, "pct: another seed runs (%016llx)", (unsigned long long)fs->hash);

	scen = RACY;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_INPUT;
	r = run(fs, 2, cpus, &pol);
	ok(r == 0 && counter == 2 * iters, "no decisions: tasks run one after another, no loss");
	pol.kind = POL_RR;
	run(fs, 2, cpus, &pol);
	ok(counter < 2 * iters, "rr without a lock loses updates (%ld of %d)", counter, 2 * iters);

	/* one decision: at step 2 (T0 between read and write) switch to T1 */
	memset(dec, 0, sizeof(dec));
	dec[0].step = 2;
	dec[0].target = 1;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_INPUT;
	pol.dec = dec;
	pol.ndec = 1;
	r = run(fs, 2, cpus, &pol);
	ok(r == 0 && counter == iters,
	   "a switch inside T0's read-modify-write makes all of T1's updates vanish (%ld)",
	   counter);
	ok(fs->switches >= 1, "the decision switched (%lu switches)", fs->switches);

	/* record every choice of a PCT run, replay the keys with no fallback */
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.seed = 11;
	pol.horizon = 12;
	fsched_set_record(fs, REC_ALL);
	run(fs, 2, cpus, &pol);
	h1 = fs->hash;
	nrec = fsched_recorded(fs, &rec);
	memcpy(keyed, rec, (size_t)nrec * sizeof(*rec));
	fsched_set_record(fs, REC_NONE);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_INPUT;
	pol.keyed = true;
	pol.dec = keyed;
	pol.ndec = nrec;
	run(fs, 2, cpus, &pol);
	ok(fs->hash == h1, "PCT run replayed from %d keyed decisions: same trace hash", nrec);

	/* the deadlock detector on its own: lockdep would report first */
	scen = ABBA;
	lockdep_enabled = false;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;
	r = run(fs, 2, cpus, &pol);
	ok(r == 1 && !strcmp(g_violation.checker, "deadlock"), "ABBA under rr is a deadlock");
	ok(!strcmp(g_violation.signature, "deadlock@lock_a+lock_b"),
	   "deadlock signature names the cycle: %s", g_violation.signature);
	diag("%s", g_violation.msg);
	pol.kind = POL_INPUT;
	r = run(fs, 2, cpus, &pol);
	ok(r == 0, "ABBA without preemption completes (the run after a deadlock is clean)");
	/* lockdep sees the inversion in a run where nothing deadlocks */
	lockdep_enabled = true;
	lockdep_reset();
	r = run(fs, 2, cpus, &pol);
	ok(r == 1 && !strcmp(g_violation.signature, "lock-order@lock_b->lock_a"),
	   "lockdep: ABBA run one task after the other is %s", g_violation.signature);
	ok(lockdep_has_edge("lock_a", "lock_b") && !lockdep_has_edge("lock_b", "lock_a"),
	   "lockdep kept lock_a -> lock_b, not the edge that closed the cycle");

	scen = SPIN_FOREVER;
	fs->max_steps = 500;
	r = run(fs, 1, cpus, &pol);
	ok(r == 1 && !strcmp(g_violation.signature, "livelock@body"),
	   "a loop that never ends is a livelock: %s", g_violation.signature);
	fs->max_steps = 0;

	scen = PREEMPT_HOLD;
	pol.kind = POL_RR;
	r = run(fs, 3, same_cpu, &pol);
	for (i = 0; i < norder && order_log[i] != 0; i++)
		;
	{
		int first0 = i, last0 = -1, t1_inside = 0;

		for (i = 0; i < norder; i++)
			if (order_log[i] == 0)
				last0 = i;
		for (i = first0; i < last0; i++)
			if (order_log[i] == 1)
				t1_inside = 1;
		ok(r == 0 && !t1_inside, "preempt_disable keeps T1 (same cpu) out");
		for (i = first0; i < last0; i++)
			if (order_log[i] == 2)
				break;
		ok(i < last0, "but T2 on another cpu runs in between");
	}

	scen = IRQ_HOLD;
	{
		int both_cpu0[2] = { 0, 0 }, j, irq_pos = -1;

		pol.kind = POL_RR;
		irq_off = false;
		r = run(fs, 2, both_cpu0, &pol);
		for (j = 0; j < norder; j++)
			if (order_log[j] == 1)
				irq_pos = j;
		ok(r == 0 && irq_pos > 0 && irq_pos < 3,
		   "an interrupt comes in while T0 has only preemption off (at %d)", irq_pos);
		irq_off = true;
		r = run(fs, 2, both_cpu0, &pol);
		for (j = 0; j < norder; j++)
			if (order_log[j] == 1)
				irq_pos = j;
		ok(r == 0 && irq_pos == 3, "but not while T0 has IRQs off (at %d)", irq_pos);
	}

	/* the same primitives on two real pthreads */
	counter = 0;
	spin_lock_init_named(&lock_a, "lock_a", -1);
	for (i = 0; i < 2; i++) {
		memset(&ptask[i], 0, sizeof(ptask[i]));
		ptask[i].id = i;
		ptask[i].cpu = i;
		pthread_create(&th[i], NULL, pthread_body, &ptask[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ok(counter == 200000, "two pthreads through spin_lock: %ld of 200000", counter);
	ok(ptask[0].nheld == 0 && ptask[1].nheld == 0 && ptask[0].preempt_count == 0,
	   "no lock or preemption leaked on the pthreads");

	{
		fiber_init_main(&pp_main);
		ok(fiber_create(&pp_f, 64 * 1024, pp_entry, NULL, "pingpong") == 0,
		   "a fiber is created");
		fiber_switch(&pp_main, &pp_f, true, false);
		for (i = 0; i < 200000; i++)
			fiber_switch(&pp_main, &pp_f, false, false);
		ok(pp_trips == 200001, "200000 switch round trips after the first entry: %ld",
		   pp_trips - 1);
		fiber_destroy(&pp_f);
	}
	ok(sites_count() > 5 && site_lookup("body:spin_lock(lock_a)") != NULL,
	   "yield sites are named: %u sites, body:spin_lock(lock_a) found", sites_count());
	fsched_destroy(fs);
	return tap_done();
}

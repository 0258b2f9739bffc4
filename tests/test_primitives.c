// SPDX-License-Identifier: MIT
/*
 * The kernel primitives under the scheduler (fibers) and on real pthreads:
 * kernel threads and waits, struct completion, rw_semaphore with writer
 * preference, local_lock, cmpxchg_double, bit spinlocks, cross-CPU calls,
 * migration decisions; each replays exactly (same trace hash twice).
 */
#include <pthread.h>
#include <string.h>

#include "kernel/bit_spinlock.h"
#include "kernel/cmpxchg_double.h"
#include "kernel/completion.h"
#include "kernel/cpu.h"
#include "kernel/local_lock.h"
#include "kernel/percpu.h"
#include "kernel/rwsem.h"
#include "kernel/smp.h"
#include "sched/sched.h"
#include "tap.h"

static int order_log[256], norder;

static void log_order(int v)
{
	int i = __atomic_fetch_add(&norder, 1, __ATOMIC_RELAXED);

	if (i < 256)
		__atomic_store_n(&order_log[i], v, __ATOMIC_RELAXED);
}

/* position of the first @v in the log, -1 if none */
static int pos_of(int v)
{
	int i;

	for (i = 0; i < norder && i < 256; i++)
		if (order_log[i] == v)
			return i;
	return -1;
}

enum scenario {
	KTHREAD, COMPLETION, COMPLETION_NEVER, RWSEM_PREF, RWSEM_DOWNGRADE, LOCAL_LOCK,
	LOCAL_LOCK_IRQ, CMPXCHG2, BITLOCK, BITLOCK_ABBA, IPI_WAIT, MIGRATE,
};
static enum scenario scen;
static struct completion done;
static struct rw_semaphore sem;
static local_lock_t llock[MAX_CPUS];
static struct { long a, b; } ____percpu_aligned pair[MAX_CPUS];
static struct { unsigned long w1, w2; } __attribute__((aligned(16))) dw;
static unsigned long bits;
static int kthread_ran, ipi_cpu = -1, ipi_irq, ipi_hits;
static int cpu_seen[4];

static __sched_notsan bool no_work(void *arg)
{
	(void)arg;
	return false;
}

static void kthread_body(struct task *t, void *arg)
{
	struct sched_wait w = { no_work, NULL, "work", NULL, true };

	(void)arg;
	kthread_op_begin(t, YIELD_SITE(YP_KTHREAD, "test_kthread"));
	__atomic_fetch_add(&kthread_ran, 1, __ATOMIC_RELAXED);
	log_order(100 + t->id);
	/* wait for work that never comes: the run still ends */
	while (!kthread_should_stop(t))
		fsched_wait(t, &w, YIELD_SITE(YP_KTHREAD, "idle"));
}

static void ipi_func(void *info)
{
	struct task *t = current_task;

	(void)info;
	__atomic_store_n(&ipi_cpu, t->cpu, __ATOMIC_RELAXED);
	__atomic_store_n(&ipi_irq, t->irq_active, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ipi_hits, 1, __ATOMIC_RELAXED);
	log_order(50);
}

static void body(struct task *t, void *arg)
{
	unsigned long flags;
	int i;

	(void)arg;
	switch (scen) {
	case KTHREAD:
		if (t->id == 0) {
			fsched_kthread_run(t->fs, kthread_body, NULL, "kt", 1, false);
			sched_point("after_start");
		}
		log_order(t->id);
		break;
	case COMPLETION:
		if (t->id == 0) {
			wait_for_completion(&done);
			log_order(0);
		} else {
			for (i = 0; i < 3; i++)
				sched_point("work");
			log_order(1);
			complete(&done);
		}
		break;
	case COMPLETION_NEVER:
		wait_for_completion(&done);
		break;
	case RWSEM_PREF:
		/* T0 reads; T1 wants to write; T2 comes to read after T1 */
		if (t->id == 0) {
			down_read(&sem);
			for (i = 0; i < 6; i++)
				sched_point("reading");
			log_order(0);
			up_read(&sem);
		} else if (t->id == 1) {
			sched_point("t1");
			down_write(&sem);
			log_order(1);
			up_write(&sem);
		} else {
			sched_point("t2");
			sched_point("t2");
			if (down_read_trylock(&sem)) {
				log_order(20);
				up_read(&sem);
			} else {
				log_order(21);
			}
			down_read(&sem);
			log_order(2);
			up_read(&sem);
		}
		break;
	case RWSEM_DOWNGRADE:
		if (t->id == 0) {
			down_write(&sem);
			sched_point("writing");
			sched_point("writing");
			log_order(5);
			downgrade_write(&sem);
			log_order(0);
			sched_point("reading");
			sched_point("reading");
			log_order(10);
			up_read(&sem);
		} else {
			sched_point("t1");
			down_read(&sem);
			log_order(1);
			up_read(&sem);
		}
		break;
	case LOCAL_LOCK:
		for (i = 0; i < 3; i++) {
			struct { long a, b; } *p;

			local_lock(llock);
			p = (void *)this_cpu_ptr(pair);
			if (p->a != p->b)
				log_order(-1);
			p->a++;
			sched_point("inside");
			p->b++;
			local_unlock(llock);
		}
		break;
	case LOCAL_LOCK_IRQ:
		if (t->id == 0) {
			local_lock(llock);
			sched_point("held");
			sched_point("held");
			local_unlock(llock);
		} else {
			/* an interrupt on cpu0 that takes the non-irqsave lock */
			t->irq_ctx = true;
			sched_op_begin(t, 0, YIELD_SITE(YP_OP, "test_irq"));
			fsched_irq_enter(t, NULL);
			local_lock_irqsave(llock, flags);
			local_unlock_irqrestore(llock, flags);
			fsched_irq_exit(t);
		}
		break;
	case CMPXCHG2:
		for (i = 0; i < 4; i++) {
			unsigned long a, b;

			do {
				a = READ_ONCE(dw.w1);
				b = READ_ONCE(dw.w2);
			} while (!cmpxchg_double(&dw.w1, &dw.w2, a, b, a + 1, b + 2));
		}
		break;
	case BITLOCK:
		for (i = 0; i < 3; i++) {
			long v;

			bit_spin_lock_named(3, &bits, "test_bitlock");
			v = pair[0].a;
			sched_point("inside");
			pair[0].a = v + 1;
			bit_spin_unlock_named(3, &bits, "test_bitlock");
		}
		break;
	case BITLOCK_ABBA:
		bit_spin_lock_named(t->id, &bits, "test_bit_a");
		sched_point("holding");
		bit_spin_lock_named(!t->id, &bits, "test_bit_a");
		bit_spin_unlock_named(!t->id, &bits, "test_bit_a");
		bit_spin_unlock_named(t->id, &bits, "test_bit_a");
		break;
	case IPI_WAIT:
		if (t->id == 0) {
			struct cpumask m = { 1UL << 1 };

			sched_point("before");
			on_each_cpu_mask(&m, ipi_func, NULL, true);
			log_order(0);
		} else {
			local_irq_save(flags);
			sched_point("irqs_off");
			sched_point("irqs_off");
			log_order(1);
			local_irq_restore(flags);
			sched_point("irqs_on");
		}
		break;
	case MIGRATE:
		/* T0 in one operation: a preemptible point, then per-CPU data */
		sched_op_begin(t, 0, YIELD_SITE(YP_OP, "test_migrate"));
		cpu_seen[0] = raw_smp_processor_id();
		sched_point("preemptible");
		preempt_disable();
		cpu_seen[1] = smp_processor_id();
		sched_point("pinned");
		cpu_seen[2] = smp_processor_id();
		preempt_enable();
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const int *cpus, int ncpus,
	       const struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = cpus[i];
		init[i].irq = scen == LOCAL_LOCK_IRQ && i == 1;
	}
	norder = 0;
	memset(order_log, 0, sizeof(order_log));
	violation_reset();
	init_completion(&done);
	init_rwsem_named(&sem, "test_sem");
	local_lock_init_named(llock, MAX_CPUS, "test_llock");
	memset(pair, 0, sizeof(pair));
	dw.w1 = dw.w2 = 0;
	bits = 0;
	kthread_ran = 0;
	return fsched_run(fs, ntasks, ncpus, init, pol, body, NULL);
}

/* ---- real pthreads ---- */

static struct task ptask[2];
static long shared_counter;

static void *pthread_rwsem(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	for (i = 0; i < 20000; i++) {
		if (i % 4 == t->id) {
			down_write(&sem);
			shared_counter++;
			up_write(&sem);
		} else {
			long v;

			down_read(&sem);
			v = shared_counter;
			(void)v;
			up_read(&sem);
		}
	}
	current_task = NULL;
	return NULL;
}

/* Readers only: down_read_trylock never fails without a writer, however
 * the two readers' updates of the count interleave (6.6's trylock loops on
 * its cmpxchg while no writer is there). */
static long trylock_failed;
static int readers_ready;

static void *pthread_rwsem_readers(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	__atomic_fetch_add(&readers_ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&readers_ready, __ATOMIC_ACQUIRE) < 2)
		;		/* both at once: their cmpxchgs meet */
	for (i = 0; i < 5000000; i++) {
		if (!down_read_trylock(&sem)) {
			__atomic_fetch_add(&trylock_failed, 1, __ATOMIC_RELAXED);
			continue;
		}
		up_read(&sem);
	}
	current_task = NULL;
	return NULL;
}

static void *pthread_cmpxchg2(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	for (i = 0; i < 100000; i++) {
		unsigned long a, b;

		do {
			a = READ_ONCE(dw.w1);
			b = READ_ONCE(dw.w2);
		} while (!cmpxchg_double(&dw.w1, &dw.w2, a, b, a + 1, b + 2));
	}
	current_task = NULL;
	return NULL;
}

static void *pthread_bitlock(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	for (i = 0; i < 100000; i++) {
		bit_spin_lock_named(5, &bits, "test_bitlock");
		shared_counter++;
		bit_spin_unlock_named(5, &bits, "test_bitlock");
	}
	current_task = NULL;
	return NULL;
}

static void *pthread_completion(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	for (i = 0; i < 2000; i++) {
		if (t->id == 0) {
			shared_counter++;
			complete(&done);
		} else {
			wait_for_completion(&done);
		}
	}
	current_task = NULL;
	return NULL;
}

static int real_ipi_runs;

static void real_ipi_func(void *info)
{
	struct task *t = current_task;

	(void)info;
	if (t->cpu == 1 && t->irq_active)
		__atomic_fetch_add(&real_ipi_runs, 1, __ATOMIC_RELAXED);
}

static int ipi_stop;

static void *pthread_ipi(void *arg)
{
	struct task *t = arg;
	int i;

	current_task = t;
	smp_real_attach(t->cpu, true);
	if (t->id == 0) {
		struct cpumask m = { 1UL << 1 };

		for (i = 0; i < 2000; i++)
			on_each_cpu_mask(&m, real_ipi_func, NULL, true);
		__atomic_store_n(&ipi_stop, 1, __ATOMIC_RELAXED);
	} else {
		/* CPU 1's task: preempt_enable is where its calls come in */
		while (!__atomic_load_n(&ipi_stop, __ATOMIC_RELAXED)) {
			preempt_disable();
			preempt_enable();
		}
	}
	smp_real_attach(t->cpu, false);
	current_task = NULL;
	return NULL;
}

static void run_threads(void *(*fn)(void *))
{
	pthread_t th[2];
	int i;

	for (i = 0; i < 2; i++) {
		memset(&ptask[i], 0, sizeof(ptask[i]));
		ptask[i].id = i;
		ptask[i].cpu = i;
		ptask[i].name = i ? "P1" : "P0";
		pthread_create(&th[i], NULL, fn, &ptask[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct sched_policy pol;
	struct sched_decision dec[2];
	int c01[3] = { 0, 1, 1 }, c00[3] = { 0, 0, 0 }, c012[3] = { 0, 1, 2 }, r;
	uint64_t h1;

	tap_plan(28);

	/* kernel threads */
	scen = KTHREAD;
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;
	r = run(fs, 2, c01, 2, &pol);
	ok(r == 0 && kthread_ran == 1 && fs->ntasks == 3 && !strcmp(fs->task[2].name, "kt"),
	   "a kthread started by T0 mid-run runs as task 2 \"%s\" and the run ends while it "
	   "waits for work (r=%d)", fs->task[2].name, r);
	h1 = fs->hash;
	run(fs, 2, c01, 2, &pol);
	ok(fs->hash == h1 && pos_of(102) >= 0, "the same run again: same trace hash %016llx",
	   (unsigned long long)h1);

	/* completion */
	scen = COMPLETION;
	r = run(fs, 2, c01, 2, &pol);
	ok(r == 0 && pos_of(1) >= 0 && pos_of(1) < pos_of(0),
	   "wait_for_completion returns only after complete (log %d %d)", order_log[0],
	   order_log[1]);
	scen = COMPLETION_NEVER;
	r = run(fs, 1, c01, 2, &pol);
	ok(r == 1 && !strcmp(g_violation.signature, "deadlock@done"),
	   "a completion nobody completes is a deadlock naming it: %s", g_violation.signature);
	diag("%s", g_violation.msg);

	/* rw_semaphore: writer preference */
	scen = RWSEM_PREF;
	r = run(fs, 3, c012, 3, &pol);
	ok(r == 0 && pos_of(21) >= 0, "down_read_trylock fails while a writer waits");
	ok(pos_of(0) < pos_of(1) && pos_of(1) < pos_of(2),
	   "the waiting writer gets it before the reader that came after it (%d %d %d)",
	   pos_of(0), pos_of(1), pos_of(2));
	scen = RWSEM_DOWNGRADE;
	r = run(fs, 2, c01, 2, &pol);
	ok(r == 0 && pos_of(5) < pos_of(1) && pos_of(1) < pos_of(10),
	   "downgrade_write lets the waiting reader in while it still reads (%d %d %d)",
	   pos_of(5), pos_of(1), pos_of(10));
	h1 = fs->hash;
	run(fs, 2, c01, 2, &pol);
	ok(fs->hash == h1, "rwsem run replays: same trace hash");

	/* local_lock */
	scen = LOCAL_LOCK;
	r = run(fs, 3, c00, 1, &pol);
	ok(r == 0 && pos_of(-1) < 0 && pair[0].a == 9 && pair[0].b == 9,
	   "local_lock keeps three tasks of one CPU apart (a %ld, b %ld)", pair[0].a, pair[0].b);
	scen = LOCAL_LOCK_IRQ;
	r = run(fs, 2, c00, 1, &pol);
	ok(r == 1 && (!strcmp(g_violation.checker, "local_lock") ||
		      !strcmp(g_violation.checker, "lock-irq")),
	   "an interrupt taking this CPU's local_lock while a task holds it: %s",
	   g_violation.signature);

	/* cmpxchg_double */
	scen = CMPXCHG2;
	r = run(fs, 3, c012, 3, &pol);
	ok(r == 0 && dw.w1 == 12 && dw.w2 == 24,
	   "cmpxchg_double: both words or neither, under rr (%lu, %lu)", dw.w1, dw.w2);

	/* bit spinlock */
	scen = BITLOCK;
	r = run(fs, 2, c01, 2, &pol);
	ok(r == 0 && pair[0].a == 6, "bit_spin_lock excludes (%ld of 6 increments)", pair[0].a);
	lockdep_enabled = false;
	scen = BITLOCK_ABBA;
	r = run(fs, 2, c01, 2, &pol);
	lockdep_enabled = true;
	ok(r == 1 && !strncmp(g_violation.signature, "deadlock@", 9) &&
	   strstr(g_violation.msg, "held by T"),
	   "two bit spinlocks taken ABBA: a deadlock that names the holders (%s)",
	   g_violation.signature);
	diag("%s", g_violation.msg);

	/* cross-CPU calls */
	scen = IPI_WAIT;
	ipi_hits = 0;
	r = run(fs, 2, c01, 2, &pol);
	ok(r == 0 && ipi_hits == 1 && ipi_cpu == 1 && ipi_irq,
	   "on_each_cpu_mask(cpu1, wait): the function ran once, on cpu1, in interrupt context");
	ok(pos_of(1) < pos_of(50) && pos_of(50) < pos_of(0),
	   "it waited for cpu1's task to turn IRQs back on, and the sender for it (%d %d %d)",
	   pos_of(1), pos_of(50), pos_of(0));
	ok(fs->ntasks == 3 && !strcmp(fs->task[2].name, "ipi/1"),
	   "cpu1's IPI handler is a kernel thread, task 2 \"%s\"", fs->task[2].name);
	h1 = fs->hash;
	run(fs, 2, c01, 2, &pol);
	ok(fs->hash == h1, "IPI run replays: same trace hash");

	/* migration decisions */
	scen = MIGRATE;
	memset(dec, 0, sizeof(dec));
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_INPUT;
	pol.keyed = true;
	pol.dec = dec;
	pol.ndec = 2;
	dec[0].task = 0;
	dec[0].op = 0;
	dec[0].site = site_lookup("body:point(preemptible)")->id;
	dec[0].occ = 1;
	dec[0].target = 0;
	dec[0].mig = 2;		/* cpu1 */
	dec[1].task = 0;
	dec[1].op = 0;
	dec[1].site = site_lookup("body:point(pinned)")->id;
	dec[1].occ = 1;
	dec[1].target = 0;
	dec[1].mig = 1;		/* cpu0: refused, preemption is off */
	r = run(fs, 1, c01, 2, &pol);
	ok(r == 0 && cpu_seen[0] == 0 && cpu_seen[1] == 1 && cpu_seen[2] == 1,
	   "a decision moves T0 to cpu1 at a preemptible point, per-CPU data after it is "
	   "cpu1's; not where preemption is off (%d %d %d)", cpu_seen[0], cpu_seen[1],
	   cpu_seen[2]);
	ok(fs->migrations == 1, "one migration counted (%lu)", fs->migrations);
	h1 = fs->hash;
	fsched_set_record(fs, REC_ALL);
	run(fs, 1, c01, 2, &pol);
	{
		const struct sched_decision *rec;
		int n = fsched_recorded(fs, &rec);

		ok(fs->hash == h1 && n == 1 && rec[0].mig == 2,
		   "replayed exactly; the recording keeps the migration (%d decisions, mig %d)", n,
		   n ? rec[0].mig : -1);
	}
	fsched_set_record(fs, REC_NONE);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;

	/* ---- real pthreads ---- */
	init_rwsem_named(&sem, "test_sem");
	shared_counter = 0;
	run_threads(pthread_rwsem);
	ok(shared_counter == 10000, "rwsem on two pthreads: %ld of 10000 writes", shared_counter);
	trylock_failed = 0;
	readers_ready = 0;
	run_threads(pthread_rwsem_readers);
	ok(trylock_failed == 0, "down_read_trylock on two reading pthreads, no writer: "
	   "%ld of 10000000 failed", trylock_failed);
	dw.w1 = dw.w2 = 0;
	run_threads(pthread_cmpxchg2);
	ok(dw.w1 == 200000 && dw.w2 == 400000,
	   "cmpxchg_double on two pthreads (16-byte CAS): %lu, %lu", dw.w1, dw.w2);
	bits = 0;
	shared_counter = 0;
	run_threads(pthread_bitlock);
	ok(shared_counter == 200000 && bits == 0, "bit_spin_lock on two pthreads: %ld",
	   shared_counter);
	init_completion(&done);
	shared_counter = 0;
	run_threads(pthread_completion);
	ok(shared_counter == 2000 && !completion_done(&done),
	   "2000 complete/wait handshakes on two pthreads, every done consumed");
	real_ipi_runs = 0;
	ipi_stop = 0;
	run_threads(pthread_ipi);
	ok(real_ipi_runs == 2000, "2000 waited cross-CPU calls on pthreads, each run by cpu1's "
	   "task in interrupt context (%d)", real_ipi_runs);
	{
		struct task solo;
		struct cpumask m = { 1UL << 3 };

		memset(&solo, 0, sizeof(solo));
		solo.name = "solo";
		current_task = &solo;
		cpu_hotplug_boot(4);
		ipi_cpu = -1;
		preempt_disable();
		smp_call_function_many(&m, ipi_func, NULL, true);
		preempt_enable();
		current_task = NULL;
		ok(ipi_hits > 0 && ipi_cpu == 3,
		   "real mode: a call to a CPU nobody runs on runs at once, as that CPU (%d)",
		   ipi_cpu);
	}
	ok(ptask[0].nheld == 0 && ptask[1].nheld == 0 && ptask[0].preempt_count == 0 &&
	   ptask[1].preempt_count == 0, "no lock or preemption leaked on the pthreads");

	fsched_destroy(fs);
	return tap_done();
}

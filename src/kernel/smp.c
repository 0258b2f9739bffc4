// SPDX-License-Identifier: MIT
/*
 * Cross-CPU function calls: see smp.h.  Each (sending CPU, target CPU) has
 * one call_single_data, as the kernel's per-CPU cfd_data: the sender owns
 * it while it has preemption off, and waits for it to be free again
 * (csd_lock) before reusing it.  Each CPU's queue is a lock-free LIFO list
 * (llist), flushed oldest first.
 */
#include "smp.h"

#include "cpu.h"
#include "lockdep.h"
#include "percpu.h"

#include <linux/membarrier.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CSD_FLAG_LOCK	0x01

struct csd {
	struct csd *next;		/* in the target's queue */
	smp_call_func_t func;
	void *info;
	unsigned int flags;		/* atomic: CSD_FLAG_LOCK queued or running */
	int dst;
};

static struct csd cfd[MAX_CPUS][MAX_CPUS];		/* [sender][target] */
/* Each CPU's queue head on a line of its own, as the kernel's per-CPU
 * call_single_queue (DEFINE_PER_CPU_SHARED_ALIGNED): a push to one CPU
 * and another CPU's flush of its own do not move each other's line. */
static struct call_single_queue {
	struct csd *first;				/* atomic */
} ____cacheline_aligned call_single_queue[MAX_CPUS];
static struct task *ipi_thread[MAX_CPUS];		/* fiber mode, this run's */
static bool smp_used;					/* a call was queued this run */
unsigned long smp_real_pending;
static int real_attached[MAX_CPUS];			/* real mode: tasks on each CPU */

static void csd_unlock(struct csd *c)
{
	__atomic_store_n(&c->flags, 0, __ATOMIC_RELEASE);
}

/* __flush_smp_call_function_queue(): what is queued on @cpu, oldest first,
 * in an interrupt there (the IPI handler, the dying CPU's callback, a
 * real-mode poll): 6.6's lockdep_assert_irqs_disabled() at its top. */
static void flush_queue(int cpu)
{
	struct csd *c, *rev = NULL;

	lockdep_assert_irqs_disabled();
	c = __atomic_exchange_n(&call_single_queue[cpu].first, NULL, __ATOMIC_ACQUIRE);
	while (c) {
		struct csd *n = c->next;

		c->next = rev;
		rev = c;
		c = n;
	}
	while (rev) {
		struct csd *n = rev->next;

		rev->func(rev->info);
		csd_unlock(rev);
		fsched_wake(current_task);
		rev = n;
	}
}

/* ---- fiber mode: the IPI handler threads ---- */

static __sched_notsan bool queue_cond(void *arg)
{
	struct csd **q = arg;

	return __atomic_load_n(q, __ATOMIC_RELAXED) != NULL;
}

static void ipi_thread_fn(struct task *t, void *arg)
{
	int cpu = (int)(long)arg;
	struct sched_wait w = { queue_cond, &call_single_queue[cpu].first, "ipi", NULL, true };
	const struct yield_site *idle = YIELD_SITE(YP_IPI, "idle");

	for (;;) {
		while (!queue_cond(&call_single_queue[cpu].first) && !kthread_should_stop(t))
			fsched_wait(t, &w, idle);
		if (!queue_cond(&call_single_queue[cpu].first))
			return;		/* kthread_stop */
		/* the interrupt arrives: its CPU has IRQs on (cpu_allows) */
		kthread_op_begin(t, YIELD_SITE(YP_IPI, "generic_smp_call_function_single_interrupt"));
		fsched_irq_enter(t, NULL);
		flush_queue(cpu);
		fsched_irq_exit(t);
		yield_point(YIELD_SITE(YP_IRQ, "irq_exit"));
	}
}

static void smp_run_hook(struct fsched *fs)
{
	(void)fs;
	if (!smp_used)
		return;
	memset(ipi_thread, 0, sizeof(ipi_thread));
	memset(call_single_queue, 0, sizeof(call_single_queue));
	memset(cfd, 0, sizeof(cfd));
	smp_used = false;
}

static int smpcfd_dying_cpu_cb(unsigned int cpu);

__attribute__((constructor)) static void smp_init(void)
{
	fsched_register_run_hook(smp_run_hook);
	cpuhp_setup_state_nocalls(CPUHP_AP_SMPCFD_DYING, "smpcfd:dying", NULL, smpcfd_dying_cpu_cb);
}

/* ---- real mode ---- */

void cpu_real_attach(int cpu, bool on);	/* cpu.c */

/* A task leaving its CPU (parked) releases what it did there to the sender
 * that then runs a call for the idle CPU (acquire in the sender's load). */
void smp_real_attach(int cpu, bool on)
{
	__atomic_fetch_add(&real_attached[cpu], on ? 1 : -1, __ATOMIC_ACQ_REL);
	cpu_real_attach(cpu, on);
}

/* Run t's CPU's queue as an interrupt there (preempt count raised, so the
 * functions' own preempt_disable/enable nest inside). */
void smp_real_poll(struct task *t)
{
	bool was = t->irq_active;
	/* the CPU's task (not a sender acting as its idle task) keeps
	 * stealing senders out while it takes its calls */
	bool gate = t->id != -1 && !t->irq_depth && !real_cpu_shared;

	if (!(__atomic_load_n(&smp_real_pending, __ATOMIC_ACQUIRE) & (1UL << t->cpu)))
		return;
	if (gate)
		smp_real_gate_close(t);
	__atomic_fetch_and(&smp_real_pending, ~(1UL << t->cpu), __ATOMIC_ACQ_REL);
	t->preempt_count++;
	t->irq_active = true;
	flush_queue(t->cpu);
	t->irq_active = was;
	t->preempt_count--;
	if (gate)
		smp_real_gate_open(t);
}

/* A CPU nobody runs on: the caller runs the call there for it, one caller
 * at a time (real_idle_lock): two senders acting as one CPU at once would
 * run its calls side by side, as no CPU does. */
static int real_idle_lock[MAX_CPUS];

/* The caller holds real_idle_lock[cpu]: run @cpu's calls as its idle task. */
static void __real_run_idle(int cpu)
{
	struct task *self = current_task, idle;

	memset(&idle, 0, sizeof(idle));
	idle.id = -1;
	idle.cpu = cpu;
	idle.name = "idle";
	idle.exit_jb = self->exit_jb;
	current_task = &idle;
	smp_real_poll(&idle);
	current_task = self;
}

static void real_run_idle(int cpu)
{
	int unlocked = 0;

	while (!__atomic_compare_exchange_n(&real_idle_lock[cpu], &unlocked, 1, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		unlocked = 0;
		__builtin_ia32_pause();
	}
	__real_run_idle(cpu);
	__atomic_store_n(&real_idle_lock[cpu], 0, __ATOMIC_RELEASE);
}

/* ---- real mode: a call to a CPU whose task the host is not running ---- */

struct smp_real_gate smp_real_gate[MAX_CPUS];

/* Spins of csd_lock_wait (a pause each, 10-40 ns) before a sender looks
 * whether the target's task has IRQs on: a task that runs takes
 * its calls within a few hundred ns, at its next preempt_enable(),
 * local_irq_restore() or wait. */
#define SMP_STEAL_SPINS	512

/* membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) registered: 1, or -1 when
 * the host has none (the sender then only waits, as before) */
static int real_membarrier_state;

static bool real_membarrier(void)
{
	int st = __atomic_load_n(&real_membarrier_state, __ATOMIC_RELAXED);

	if (!st) {
		st = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) ? -1 : 1;
		__atomic_store_n(&real_membarrier_state, st, __ATOMIC_RELAXED);
	}
	return st > 0 && !syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/* The task found a sender taking its CPU's calls: it steps aside until the
 * sender is done, then turns IRQs off again. */
void smp_real_gate_wait(struct task *t)
{
	struct smp_real_gate *g = &smp_real_gate[t->cpu];

	do {
		__atomic_store_n(&g->busy, 0, __ATOMIC_RELEASE);
		while (__atomic_load_n(&g->steal, __ATOMIC_ACQUIRE))
			__builtin_ia32_pause();
		__atomic_store_n(&g->busy, 1, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&g->steal, __ATOMIC_ACQUIRE));
}

/*
 * The kernel's IPI interrupts the target CPU whatever it runs, unless it
 * has IRQs off; a real-mode CPU is a thread the host may not be running
 * (a loaded machine), and a sender waiting for it would spin for the host's
 * time slice.  After SMP_STEAL_SPINS, it takes the calls for the CPU as
 * the interrupt would (as for an idle CPU), if the task there has IRQs on:
 * one sender at a time (real_idle_lock), the task held off turning them
 * off meanwhile (smp_real_gate).  One task a CPU only: with several
 * (real_cpu_shared) they take real_cpu_owner in turn and this one waits.
 */
static void smp_real_steal(int cpu)
{
	struct smp_real_gate *g = &smp_real_gate[cpu];
	int unlocked = 0;

	if (real_cpu_shared ||
	    !__atomic_compare_exchange_n(&real_idle_lock[cpu], &unlocked, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&g->steal, 1, __ATOMIC_RELAXED);
	if (real_membarrier() && !__atomic_load_n(&g->busy, __ATOMIC_ACQUIRE))
		__real_run_idle(cpu);
	__atomic_store_n(&g->steal, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&real_idle_lock[cpu], 0, __ATOMIC_RELEASE);
}

/* ---- sending ---- */

struct csd_wait {
	struct csd *c;
	struct fsched *fs;
};

static __sched_notsan bool csd_free_cond(void *arg)
{
	const struct csd_wait *w = arg;

	return !(__atomic_load_n(&w->c->flags, __ATOMIC_RELAXED) & CSD_FLAG_LOCK);
}

/* Who keeps the call from running: a task with IRQs off there, or the
 * handler thread. */
static __sched_notsan struct task *csd_holder(void *arg)
{
	const struct csd_wait *w = arg;
	struct task *o = w->fs->cpu[w->c->dst].preempt_owner;

	if (o && o->irq_depth)
		return o;
	return __atomic_load_n(&ipi_thread[w->c->dst], __ATOMIC_RELAXED);
}

/* csd_lock_wait(): spin, preemption off, until the call on its CPU is done. */
static void csd_lock_wait(struct task *t, struct csd *c)
{
	struct csd_wait cw = { c, t->fs };
	struct sched_wait w = { csd_free_cond, &cw, "csd", csd_holder, false };

	if (t->fs) {
		while (!csd_free_cond(&cw))
			fsched_wait(t, &w, YIELD_SITE(YP_IPI_SEND, "csd_lock_wait"));
	} else {
		unsigned int spins = 0;

		while (__atomic_load_n(&c->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK) {
			smp_real_poll(t);	/* IRQs are on while it spins */
			/* its task went idle (parked) before it came in */
			if (!__atomic_load_n(&real_attached[c->dst], __ATOMIC_ACQUIRE))
				real_run_idle(c->dst);
			else if (++spins % SMP_STEAL_SPINS == 0)
				smp_real_steal(c->dst);
			__builtin_ia32_pause();
		}
	}
	(void)__atomic_load_n(&c->flags, __ATOMIC_ACQUIRE);
}

static void queue_call(struct task *t, int this_cpu, int cpu, smp_call_func_t func, void *info)
{
	struct csd *c = &cfd[this_cpu][cpu];
	struct csd *head;

	if (!__atomic_load_n(&smp_used, __ATOMIC_RELAXED))
		__atomic_store_n(&smp_used, true, __ATOMIC_RELAXED);
	csd_lock_wait(t, c);		/* csd_lock(): the previous call is done */
	__atomic_store_n(&c->flags, CSD_FLAG_LOCK, __ATOMIC_RELAXED);
	c->func = func;
	c->info = info;
	c->dst = cpu;
	head = __atomic_load_n(&call_single_queue[cpu].first, __ATOMIC_RELAXED);
	do {
		c->next = head;
	} while (!__atomic_compare_exchange_n(&call_single_queue[cpu].first, &head, c, false,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	if (t->fs) {
		/* send_call_function_single_ipi(): its handler, started the
		 * first time this run (an irq kthread bound to the CPU) */
		if (!__atomic_load_n(&ipi_thread[cpu], __ATOMIC_RELAXED)) {
			static char names[MAX_CPUS][8];
			struct task *k;

			if (!names[cpu][0])
				snprintf(names[cpu], sizeof(names[cpu]), "ipi/%d", cpu);
			k = fsched_kthread_run(t->fs, ipi_thread_fn, (void *)(long)cpu, names[cpu], cpu,
					       true);
			if (!k)
				sched_violation("kthread", "ipi", "no task left for ipi/%d (%d tasks)",
						cpu, MAX_TASKS);
			__atomic_store_n(&ipi_thread[cpu], k, __ATOMIC_RELAXED);
		}
		fsched_wake(t);
	} else {
		__atomic_fetch_or(&smp_real_pending, 1UL << cpu, __ATOMIC_RELEASE);
		if (!__atomic_load_n(&real_attached[cpu], __ATOMIC_ACQUIRE))
			real_run_idle(cpu);
	}
}

static void smp_call_function_many_cond(const struct cpumask *mask, smp_call_func_t func,
					void *info, bool wait, bool run_local,
					smp_cond_func_t cond_func, const char *fn)
{
	struct task *t = __cur_task(fn);
	int this_cpu = __smp_processor_id(t, fn);	/* preemption must be off */
	unsigned long sent = 0;
	int cpu;

	yield_point(YIELD_SITE(YP_IPI_SEND, "smp_call_function_many_cond"));
	if (unlikely(t->irq_depth || t->irq_active))
		sched_violation("smp_call_function", fn,
				"cross-CPU call with IRQs disabled or from an interrupt: can deadlock");
	for_each_cpu(cpu, mask) {
		if (cpu == this_cpu || !cpu_online(cpu))
			continue;
		if (cond_func && !cond_func(cpu, info))
			continue;
		queue_call(t, this_cpu, cpu, func, info);
		sent |= 1UL << cpu;
	}
	if (run_local && cpumask_test_cpu(this_cpu, mask) && (!cond_func || cond_func(this_cpu, info))) {
		unsigned long flags;

		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
	}
	if (wait)
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			if (sent & (1UL << cpu))
				csd_lock_wait(t, &cfd[this_cpu][cpu]);
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			    bool wait)
{
	smp_call_function_many_cond(mask, func, info, wait, false, NULL, __func__);
}

void on_each_cpu_cond_mask(smp_cond_func_t cond_func, smp_call_func_t func, void *info,
			   bool wait, const struct cpumask *mask)
{
	preempt_disable();
	smp_call_function_many_cond(mask, func, info, wait, true, cond_func, __func__);
	preempt_enable();
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info, bool wait)
{
	struct cpumask m = { 1UL << cpu };

	if (cpu < 0 || cpu >= MAX_CPUS || !cpu_online(cpu))
		return -6;	/* -ENXIO */
	on_each_cpu_cond_mask(NULL, func, info, wait, &m);
	return 0;
}

/* CPUHP_AP_SMPCFD_DYING, on the dying CPU with IRQs off (real mode: for it) */
static int smpcfd_dying_cpu_cb(unsigned int cpu)
{
	smpcfd_dying_cpu((int)cpu);
	return 0;
}

void smpcfd_dying_cpu(int cpu)
{
	struct task *t = current_task;

	if (t && t->fs && t->cpu == cpu) {
		t->preempt_count++;
		t->irq_active = true;
		flush_queue(cpu);
		t->irq_active = false;
		t->preempt_count--;
	} else {
		__atomic_fetch_or(&smp_real_pending, 1UL << cpu, __ATOMIC_RELEASE);
		real_run_idle(cpu);
	}
}

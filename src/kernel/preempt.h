/* SPDX-License-Identifier: MIT */
/*
 * Preemption and local IRQ state of the running task on its simulated CPU.
 *
 * In fiber mode, a task with preemption or IRQs off owns its CPU: no other
 * task on that CPU runs (an interrupt may still come in while only
 * preemption is off).  In real mode the same is a per-CPU exclusion lock,
 * needed only when several pthreads share a simulated CPU.
 * preempt_enable() and local_irq_restore() back to zero are yield points.
 */
#ifndef MMFUZZ_KERNEL_PREEMPT_H
#define MMFUZZ_KERNEL_PREEMPT_H

#include "../sched/sched.h"

__attribute__((noreturn)) void kernel_no_task(const char *fn);

static inline struct task *__cur_task(const char *fn)
{
	struct task *t = current_task;

	if (unlikely(!t))
		kernel_no_task(fn);
	return t;
}
#define current	__cur_task(__func__)

/* smp.c: cross-CPU calls queued for a real-mode task's CPU */
extern unsigned long smp_real_pending;
void smp_real_poll(struct task *t);

/*
 * Real mode, one task a CPU: whether the task has IRQs off on its CPU (or
 * takes its calls: smp_real_poll), for a sender that waited long for it
 * to take a call: the host may not be running the task at all, where the
 * kernel's IPI interrupts whatever the CPU runs.  The sender then takes
 * the call for the CPU (smp.c, smp_real_steal) when the task has IRQs on
 * there, as an interrupt comes in with only preemption off.  Dekker's handshake: the task stores busy and loads steal
 * with no fence; the sender stores steal, issues membarrier() (a full
 * barrier on every running thread of the process, and a descheduled one
 * has passed one), then loads busy.  One line per CPU.
 */
struct smp_real_gate {
	int busy;			/* the CPU's task has IRQs off there */
	int steal;			/* a sender runs the CPU's calls for it */
} __attribute__((aligned(64)));
extern struct smp_real_gate smp_real_gate[];
void smp_real_gate_wait(struct task *t);

static inline void smp_real_gate_close(struct task *t)
{
	struct smp_real_gate *g = &smp_real_gate[t->cpu];

	__atomic_store_n(&g->busy, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);	/* the sender's membarrier() fences */
	if (unlikely(__atomic_load_n(&g->steal, __ATOMIC_ACQUIRE)))
		smp_real_gate_wait(t);
}

static inline void smp_real_gate_open(struct task *t)
{
	__atomic_store_n(&smp_real_gate[t->cpu].busy, 0, __ATOMIC_RELEASE);
}

static inline void __cpu_pin(struct task *t)
{
	if (t->fs)
		fsched_cpu_update(t);
	else if (real_cpu_shared)
		real_cpu_enter(t);
}

/*
 * Real mode: a task waiting for a lock with IRQs on (spin_lock, or asleep
 * on a rwsem or mutex, its CPU idle) takes the interrupts that come to its
 * CPU meanwhile, as the kernel's does: a sender waiting for this CPU's
 * flush may hold the lock it waits for.
 */
static inline void real_wait_poll(struct task *t)
{
	if (!t->irq_depth && !t->irq_active &&
	    unlikely(__atomic_load_n(&smp_real_pending, __ATOMIC_RELAXED)))
		smp_real_poll(t);
}

static inline void __cpu_unpin(struct task *t)
{
	if (t->fs) {
		fsched_cpu_update(t);
		return;
	}
	/* IRQs back on: a pending cross-CPU call comes in here (real mode) */
	if (unlikely(__atomic_load_n(&smp_real_pending, __ATOMIC_RELAXED)))
		smp_real_poll(t);
	if (real_cpu_shared)
		real_cpu_exit(t);
}

static inline void __preempt_disable(struct task *t)
{
	if (t->preempt_count++ == 0 && t->irq_depth == 0)
		__cpu_pin(t);
}

/* Returns true when the task became preemptible again. */
static inline bool __preempt_enable_noyield(struct task *t, const char *fn)
{
	if (unlikely(t->preempt_count <= 0))
		sched_violation("preempt-underflow", fn, "preempt_count underflow");
	if (--t->preempt_count == 0 && t->irq_depth == 0) {
		__cpu_unpin(t);
		return true;
	}
	return false;
}

#define preempt_disable()	__preempt_disable(current)
#define preempt_enable() do {							\
	if (__preempt_enable_noyield(current, __func__))			\
		yield_point(YIELD_SITE(YP_PREEMPT, ""));			\
} while (0)

static inline unsigned long __local_irq_save(struct task *t)
{
	if (t->irq_depth++ == 0) {
		if (!t->fs && !real_cpu_shared)
			smp_real_gate_close(t);
		if (t->preempt_count == 0)
			__cpu_pin(t);
		else
			fsched_irqs_off(t);
	}
	return (unsigned long)(t->irq_depth - 1);
}

static inline bool __local_irq_restore(struct task *t, unsigned long flags, const char *fn)
{
	if (unlikely(t->irq_depth <= 0 || (unsigned long)(t->irq_depth - 1) != flags))
		sched_violation("irq-state", fn, "local_irq_restore without a matching save");
	if (t->irq_depth == 1 && !t->fs && !real_cpu_shared)
		smp_real_gate_open(t);
	if (--t->irq_depth == 0 && t->preempt_count == 0) {
		__cpu_unpin(t);
		return true;
	}
	/* IRQs on, preemption still off: an interrupt may come in now */
	if (t->irq_depth == 0 && t->fs)
		fsched_cpu_update(t);
	return false;
}

#define local_irq_save(flags)	do { (flags) = __local_irq_save(current); } while (0)
#define local_irq_restore(flags) do {						\
	if (__local_irq_restore(current, (flags), __func__))			\
		yield_point(YIELD_SITE(YP_IRQ, ""));				\
} while (0)

static inline bool preemptible_task(const struct task *t)
{
	return t->preempt_count == 0 && t->irq_depth == 0 && !t->irq_active;
}

/* IRQs off on the task's CPU: local_irq_save, or in an interrupt (an IPI's
 * function runs with irq_active, whatever irq_depth says). */
static inline bool irqs_disabled_task(const struct task *t)
{
	return t->irq_depth > 0 || t->irq_active;
}

#define irqs_disabled()	irqs_disabled_task(current)

/* An explicit preemption point: other CPUs (and, when preemptible, other
 * tasks on this CPU) may run here. */
#define sched_point(label)	yield_point(YIELD_SITE(YP_POINT, label))
/* Inside a loop that may not terminate: counts toward the livelock bound. */
#define loop_point(label)	yield_point(YIELD_SITE(YP_LOOP, label))

/*
 * need_resched() and cond_resched().  In fiber mode TIF_NEED_RESCHED is set
 * by a schedule decision at the need_resched() call's own site
 * ("zap_pte_range:point(need_resched)"), which names the task to run at
 * the next cond_resched(); without one both cost a branch and no step.  In
 * real mode (stress) nothing sets it: the host's scheduler preempts.
 */
#define need_resched() ({							\
	struct task *__nr_t = current_task;					\
	__nr_t && __nr_t->fs &&							\
		fsched_need_resched(__nr_t, YIELD_SITE(YP_POINT, "need_resched")); })

#define cond_resched() ({							\
	struct task *__cr_t = current_task;					\
	int __cr = __cr_t && __cr_t->fs && __cr_t->resched;			\
	if (__cr)								\
		fsched_cond_resched(__cr_t, YIELD_SITE(YP_POINT, "cond_resched"));	\
	__cr; })

#endif /* MMFUZZ_KERNEL_PREEMPT_H */

/* SPDX-License-Identifier: MIT */
/*
 * Cross-CPU function calls (kernel/smp.c): smp_call_function_many(),
 * on_each_cpu_cond_mask(), smp_call_function_single().  The caller queues a
 * call_single_data on each target CPU; the function runs there in
 * interrupt context when that CPU next has IRQs enabled (at once, for the
 * schedule, when nothing there has them off), and the caller waits for
 * every one when asked to, spinning with preemption off as csd_lock_wait().
 *
 * Fiber mode: each CPU's IPI handler is a kernel thread in interrupt
 * context ("ipi/N"), started at the first IPI to that CPU; it waits for
 * its queue and runs it between fsched_irq_enter/exit.  A caller that
 * waits blocks on its csds; the deadlock report names the CPU that keeps
 * IRQs off or the handler.
 * Real mode: a task runs its CPU's queue when preemption and IRQs come back
 * on (preempt_enable, local_irq_restore) and while it spins in
 * csd_lock_wait; a CPU no task runs on ("idle") has the caller run the
 * function for it, as if woken for it, and so does a CPU whose task has
 * not taken the call after SMP_STEAL_SPINS of the caller's wait while it
 * has IRQs on there (the host is not running it: preempt.h's
 * smp_real_gate), as the kernel's IPI interrupts whatever a CPU runs.
 *
 * Lock order: none held across; the per-CPU queues are lock-free lists.
 */
#ifndef MMFUZZ_KERNEL_SMP_H
#define MMFUZZ_KERNEL_SMP_H

#include <stdbool.h>

#include "cpumask.h"

typedef void (*smp_call_func_t)(void *info);
typedef bool (*smp_cond_func_t)(int cpu, void *info);

/* Preemption off (the caller's CPU is not a target). */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			    bool wait);
/* Preemption any: @func runs on every CPU of @mask where @cond_func says
 * so (NULL: all), this one included (IRQs off). */
void on_each_cpu_cond_mask(smp_cond_func_t cond_func, smp_call_func_t func, void *info,
			   bool wait, const struct cpumask *mask);
#define on_each_cpu_mask(mask, func, info, wait) \
	on_each_cpu_cond_mask(NULL, (func), (info), (wait), (mask))
int smp_call_function_single(int cpu, smp_call_func_t func, void *info, bool wait);

/* Real mode: a task runs on @cpu from now (@on) or no longer. */
void smp_real_attach(int cpu, bool on);
/* Real mode: run what is queued for t's CPU (preempt.h calls it). */
void smp_real_poll(struct task *t);
extern unsigned long smp_real_pending;	/* CPUs with a queued call (bits) */

/* CPUHP_AP_SMPCFD_DYING: run what is queued for the dying @cpu. */
void smpcfd_dying_cpu(int cpu);

#endif /* MMFUZZ_KERNEL_SMP_H */

/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU data of the model: arrays indexed by the simulated CPU.  Reaching
 * this CPU's copy needs preemption or IRQs off (CONFIG_DEBUG_PREEMPT's
 * "using smp_processor_id() in preemptible code").
 */
#ifndef MMFUZZ_KERNEL_PERCPU_H
#define MMFUZZ_KERNEL_PERCPU_H

#include "preempt.h"

static inline int __smp_processor_id(struct task *t, const char *fn)
{
	if (unlikely(preemptible_task(t)))
		sched_violation("preempt-check", fn,
				"smp_processor_id() in preemptible code");
	return t->cpu;
}

#define smp_processor_id()	__smp_processor_id(current, __func__)
#define raw_smp_processor_id()	(current->cpu)

/* ptr is the base of a per-CPU array */
#define per_cpu_ptr(ptr, cpu)	(&(ptr)[(cpu)])
#define this_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())

#endif /* MMFUZZ_KERNEL_PERCPU_H */

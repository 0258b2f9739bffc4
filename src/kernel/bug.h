/* SPDX-License-Identifier: MIT */
/*
 * The kernel's assertions.  In the model they are checkers: a failed one is a
 * violation with the function it fired in as its site.
 */
#ifndef MMFUZZ_KERNEL_BUG_H
#define MMFUZZ_KERNEL_BUG_H

#include "../sched/sched.h"

#define BUG_ON(cond) do {							\
	if (unlikely(cond))							\
		sched_violation("BUG_ON", __func__, "BUG_ON(%s)", #cond);	\
} while (0)

#define VM_BUG_ON(cond) do {							\
	if (unlikely(cond))							\
		sched_violation("VM_BUG_ON", __func__, "VM_BUG_ON(%s)", #cond);	\
} while (0)

#define VM_WARN_ON(cond) do {							\
	if (unlikely(cond))							\
		sched_violation("VM_WARN_ON", __func__, "VM_WARN_ON(%s)", #cond); \
} while (0)

#define VM_BUG_ON_PAGE(cond, page) do {						\
	if (unlikely(cond))							\
		sched_violation("VM_BUG_ON_PAGE", __func__,			\
				"VM_BUG_ON_PAGE(%s) pfn %lu", #cond,		\
				(unsigned long)page_to_pfn(page));		\
} while (0)

#endif /* MMFUZZ_KERNEL_BUG_H */

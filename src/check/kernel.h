/* SPDX-License-Identifier: MIT */
/*
 * Checkers of the kernel primitives and of the ktorture layer on them:
 *
 *   at every reader access     I-RCU: the object was not freed while this
 *                              read-side section ran (a grace period it
 *                              overlapped ended early); an object freed
 *                              before the section began is a use-after-free
 *   at quiescence              I-PCPCNT: percpu_counter_sum() (online and
 *                              dying CPUs) equals the sum of every delta,
 *                              and a dead CPU's count has been folded;
 *                              I-FREELIST: every freelist object is held or
 *                              on exactly one list; I-RWSEM, I-LOCAL, I-COMP
 *   after CPU hotplug          I-CPUHP: an offline CPU's pcps are empty, its
 *                              vmstat differentials and events folded
 *
 * Checkers read the model and never change it.
 */
#ifndef MMFUZZ_CHECK_KERNEL_H
#define MMFUZZ_CHECK_KERNEL_H

#include "../kernel/ktorture.h"
#include "../mm/mm.h"

/* Hook I-RCU to the readers of @kt. */
void check_ktorture_attach(struct ktorture *kt);
void check_ktorture_quiescent(struct ktorture *kt, const char *where);
void check_cpus_offline(struct world *w, const char *where);

#endif /* MMFUZZ_CHECK_KERNEL_H */

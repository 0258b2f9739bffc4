/* SPDX-License-Identifier: MIT */
/*
 * CPU hotplug (kernel/cpu.c, include/linux/cpuhotplug.h): cpu_down() and
 * cpu_up() of a simulated CPU, and the cpuhp state machine's registry, so
 * each layer registers its callbacks from its own files, in the kernel's
 * order.  The states are the kernel's, in its order, cut down to those the
 * model has callbacks for.
 *
 * cpu_down(cpu): cpu_add_remove_lock, cpu_hotplug_lock for writing; the
 * CPU joins cpu_dying_mask; the online states' teardowns run (highest
 * first); then take_cpu_down() as under stop_machine(): once no task holds
 * any CPU (preemption and IRQs on everywhere), the caller runs on it with IRQs
 * off, the DYING states' teardowns run (CPUHP_AP_SMPCFD_DYING runs the
 * cross-CPU calls still queued), every task there moves to the first other
 * online CPU, and the CPU goes offline: it runs nothing from then on (its
 * bound IPI thread waits there).  Then the DEAD states' teardowns run on
 * the caller's CPU (CPUHP_PAGE_ALLOC: page_alloc_cpu_dead, ...).  cpu_up()
 * runs the startups in the other direction.  The online states' callbacks
 * run on the caller with the CPU as argument (the kernel runs them in the
 * CPU's cpuhp thread); none of the model's uses this_cpu there.
 *
 * Real mode (stress): a CPU some task runs on cannot be taken down
 * (-EBUSY): the runner's threads are not migrated.
 *
 * Lock order: cpu_add_remove_lock -> cpu_hotplug_lock -> pcp_batch_high_lock
 * Lock order: cpu_hotplug_lock -> pcp->lock
 * Lock order: cpu_hotplug_lock -> percpu_counters_lock
 * (what the callbacks take under it: zone_pcp_update, drain_pages, the
 * percpu_counter dead callback).
 */
#ifndef MMFUZZ_KERNEL_CPU_H
#define MMFUZZ_KERNEL_CPU_H

#include "cpumask.h"
#include "rwsem.h"

enum cpuhp_state {
	CPUHP_INVALID = -1,
	/* PREPARE section, invoked on a control CPU */
	CPUHP_OFFLINE = 0,
	CPUHP_CREATE_THREADS,
	CPUHP_SLUB_DEAD,
	CPUHP_MM_VMSTAT_DEAD,
	CPUHP_PERCPU_CNT_DEAD,
	CPUHP_PAGE_ALLOC,
	CPUHP_PADATA_DEAD,
	CPUHP_RCUTREE_PREP,
	CPUHP_BP_PREPARE_DYN,
	CPUHP_BP_PREPARE_DYN_END = CPUHP_BP_PREPARE_DYN + 8,
	CPUHP_BRINGUP_CPU,
	/* STARTING/DYING section, on the CPU with IRQs off */
	CPUHP_AP_IDLE_DEAD,
	CPUHP_AP_OFFLINE,
	CPUHP_AP_SCHED_STARTING,
	CPUHP_AP_RCUTREE_DYING,
	CPUHP_AP_SMPCFD_DYING,
	CPUHP_AP_ONLINE,
	CPUHP_TEARDOWN_CPU,
	/* ONLINE section */
	CPUHP_AP_ONLINE_IDLE,
	CPUHP_AP_SCHED_WAIT_EMPTY,
	CPUHP_AP_RCUTREE_ONLINE,
	CPUHP_AP_ONLINE_DYN,
	CPUHP_AP_ONLINE_DYN_END = CPUHP_AP_ONLINE_DYN + 8,
	CPUHP_AP_ACTIVE,
	CPUHP_ONLINE,
};

typedef int (*cpuhp_fn)(unsigned int cpu);

/*
 * Install @startup and @teardown for @state (CPUHP_AP_ONLINE_DYN or
 * CPUHP_BP_PREPARE_DYN: the first free slot of that range).  Returns the
 * state, or -errno.  No callbacks run now (_nocalls): the model's CPUs are
 * all up when the world boots.
 */
int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name, cpuhp_fn startup,
			      cpuhp_fn teardown);
/* The name of what is registered at @state, or NULL. */
const char *cpuhp_state_name(enum cpuhp_state state);

/* 0, or -EBUSY (the last online CPU; real mode: a task runs there),
 * -EINVAL (not online / out of range). */
int cpu_down(unsigned int cpu);
int cpu_up(unsigned int cpu);

/* The CPU hotplug lock, for readers that must not see a CPU go. */
void cpus_read_lock(void);
void cpus_read_unlock(void);

/* Real mode: all @ncpus CPUs online (the runner calls it; fiber mode does
 * it at the start of every run). */
void cpu_hotplug_boot(int ncpus);
/* How many CPUs the machine has (online or not). */
int nr_cpu_ids_now(void);

#endif /* MMFUZZ_KERNEL_CPU_H */

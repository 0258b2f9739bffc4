/* SPDX-License-Identifier: MIT */
/*
 * Overcommit accounting (Linux 6.6 include/linux/mman.h,
 * include/uapi/linux/mman.h; src/mm/util.c has the rest): vm_committed_as
 * counts the pages of every accountable mapping (VM_ACCOUNT: private and
 * writable) in the world, with the batch mm_compute_batch() gave it.
 *
 * Lock order: mmap_lock -> vm_committed_as.lock (the add's fold; the
 * unaccount after exit_mmap's mmap_write_unlock takes it alone).
 * Lock order: cpu_hotplug_lock -> vm_committed_as.lock (the overcommit
 * handler's percpu_counter_sync on every online CPU under cpus_read_lock).
 */
#ifndef MMFUZZ_MM_MMAN_H
#define MMFUZZ_MM_MMAN_H

#include "mm_types.h"

#define OVERCOMMIT_GUESS	0
#define OVERCOMMIT_ALWAYS	1
#define OVERCOMMIT_NEVER	2

/* the running world's vm_committed_as (tlb_world) */
struct percpu_counter *vm_committed_as_of(void);
s32 vm_committed_as_batch_of(void);

static inline void vm_acct_memory(long pages)
{
	percpu_counter_add_batch(vm_committed_as_of(), pages, vm_committed_as_batch_of());
}

static inline void vm_unacct_memory(long pages)
{
	vm_acct_memory(-pages);
}

void mm_compute_batch(struct tlb_world *tw, int overcommit_policy);
unsigned long vm_commit_limit(void);
int __vm_enough_memory(struct mm_struct *mm, long pages, int cap_sys_admin);

/* security/commoncap.c's cap_vm_enough_memory: the model's tasks are not
 * CAP_SYS_ADMIN */
static inline int security_vm_enough_memory_mm(struct mm_struct *mm, long pages)
{
	return __vm_enough_memory(mm, pages, 0);
}

/* mm/mmap.c: a private writable mapping is accountable (the model maps
 * nothing shared, no file, no VM_NORESERVE) */
static inline int accountable_mapping(unsigned long vm_flags)
{
	return (vm_flags & (VM_SHARED | VM_WRITE)) == VM_WRITE;
}

/* The run's first mm_alloc or overcommit write makes vm_committed_as (the
 * kernel's boot: vm_committed_get, fork.c), a reset destroys it. */
int vm_committed_init(struct tlb_world *tw);
void vm_committed_destroy(struct tlb_world *tw);
int vm_committed_get(struct tlb_world *tw);
/* a write of vm.overcommit_memory */
void overcommit_policy_handler(int new_policy);

/* the layer's overcommit keys (util.c), and the policies' names by
 * OVERCOMMIT_* (the key's values, the overcommit op's argument) */
extern struct config_key ck_overcommit_memory, ck_overcommit_ratio;
extern const char *const overcommit_policy_names[3];

#endif /* MMFUZZ_MM_MMAN_H */

// SPDX-License-Identifier: MIT
/*
 * Overcommit accounting (Linux 6.6 mm/util.c: vm_committed_as,
 * vm_commit_limit, __vm_enough_memory, overcommit_policy_handler; mm/mm_init.c:
 * mm_compute_batch; mm/mmap.c: init_admin_reserve, init_user_reserve),
 * per world: the sysctls are the layer's tune keys, read at boot, and the
 * overcommit operation writes vm.overcommit_memory in a run
 * (overcommit_policy_handler: the new batch, every CPU's count folded for
 * never, then the policy).
 *
 * What the model leaves out: swap (total_swap_pages 0), hugetlb pages,
 * vm_memory_committed (meminfo's Committed_AS: no reader in the model),
 * sysctl_overcommit_kbytes, memory hotplug's batch and reserve notifiers,
 * may_expand_vm's rlimits.  Every task is unprivileged (cap_sys_admin 0:
 * the admin reserve is always taken off).
 *
 * vm_committed_as is a percpu_counter (src/kernel/percpu_counter.c): each
 * CPU's s32 stays within the batch, so percpu_counter_read() is within
 * (batch - 1) pages a CPU of the sum.  That is the deviation 6.6 accepts
 * in OVERCOMMIT_NEVER, where mm_compute_batch makes the batch 0.4% of the
 * memory a CPU (Feng Tang's 56f3547bfa4d, "mm: adjust
 * vm_committed_as_batch according to vm overcommit policy"); the checker
 * judges each NEVER decision against the exact sum with that slack
 * (src/check/tlb_committed.c).
 */
#include "mman.h"

#include <errno.h>
#include <limits.h>

#include "tlb.h"
#include "../kernel/cpu.h"
#include "../kernel/smp.h"

/* ---- the sysctls (config keys of the TLB layer, binary places 44, 45) ---- */

/* Places past v2's 44 config bytes: a v2 file reads the defaults. */
/* vm.overcommit_memory's values by OVERCOMMIT_*: the key's and the overcommit op's */
const char *const overcommit_policy_names[3] = { "guess", "always", "never" };
struct config_key ck_overcommit_memory = {
	.name = "overcommit_memory", .layer = "tlb",
	.desc = "vm.overcommit_memory: guess (6.6's default: refuse only a mapping larger than "
		"RAM), always, never (the commit limit, on percpu_counter_read_positive of "
		"vm_committed_as)",
	.lo = 0, .hi = 2, .def = OVERCOMMIT_GUESS, .names = overcommit_policy_names, .bin_off = 44,
	.bin_len = 1, .tune = true,
};
struct config_key ck_overcommit_ratio = {
	.name = "overcommit_ratio", .layer = "tlb",
	.desc = "vm.overcommit_ratio: the percent of RAM the commit limit allows under never",
	.lo = 0, .hi = 100, .def = 50, .fuzz_n = 0, .bin_off = 45, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_overcommit_memory);
CONFIG_KEY(ck_overcommit_ratio);

/* ---- the bug switch ---- */

static const struct bug_info bug_overcommit_no_sync = {
	.bit = BUG_OVERCOMMIT_NO_SYNC,
	.name = "overcommit_no_sync", .layer = "tlb", .where = "overcommit_policy_handler",
	.caught_by = "I-READ@__vm_enough_memory (a never decision the wrong way on the exact "
		     "vm_committed_as, a CPU holding more than the batch in force)",
	.desc = "writing vm.overcommit_memory=2 shrinks the batch but skips "
		"schedule_on_each_cpu(sync_overcommit_as): each CPU keeps what it had under "
		"guess's batch (a quarter of its memory), hidden from percpu_counter_read, and "
		"never admits mappings past the commit limit (what 56f3547bfa4d's sync prevents)",
};
BUG_SWITCH(bug_overcommit_no_sync);

/* ---- mm/util.c ---- */

struct percpu_counter *vm_committed_as_of(void)
{
	return &tlb_world()->vm_committed_as;
}

s32 vm_committed_as_batch_of(void)
{
	return __READ_ONCE(tlb_world()->vm_committed_as_batch);	/* set at init */
}

/* totalram_pages(): the managed pages of the running world, now (deferred
 * init adds to them as it goes) */
static unsigned long totalram_pages(void)
{
	unsigned long pages = 0;
	struct zone *zone;

	for_each_populated_zone(zone)
		pages += zone_managed_pages(zone);
	return pages;
}

/* 6.6 mm/mm_init.c.  @tw->ncpus is num_present_cpus(): every CPU of the
 * world is present, online or not. */
void mm_compute_batch(struct tlb_world *tw, int overcommit_policy)
{
	u64 memsized_batch;
	s32 nr = tw->ncpus;
	s32 batch = max_t(s32, nr * 2, 32);
	unsigned long ram_pages = totalram_pages();

	/*
	 * For policy OVERCOMMIT_NEVER, set batch size to 0.4% of
	 * (total memory/#cpus), and lift it to 25% for other policies
	 * to easy the possible lock contention for percpu_counter
	 * vm_committed_as, while the max limit is INT_MAX
	 */
	if (overcommit_policy == OVERCOMMIT_NEVER)
		memsized_batch = min_t(u64, ram_pages / (u64)nr / 256, INT_MAX);
	else
		memsized_batch = min_t(u64, ram_pages / (u64)nr / 4, INT_MAX);

	__WRITE_ONCE(tw->vm_committed_as_batch, max_t(s32, (s32)memsized_batch, batch));
}

/*
 * The kernel's boot, at the run's first mm_alloc (fork.c, under
 * tw->mm_lock so that a second task's mm_alloc finds it made): mmap_init's
 * percpu_counter_init, mm_compute_batch_init, and init_admin_reserve /
 * init_user_reserve (min(free / 32, 8MB) and min(free / 32, 128MB) in the
 * kernel's 4 KiB pages; free is NR_FREE_PAGES at the subsys initcall, the
 * managed pages here, as nothing is allocated yet at boot).
 */
int vm_committed_init(struct tlb_world *tw)
{
	long free = (long)totalram_pages();

	if (percpu_counter_init_named(&tw->vm_committed_as, 0, "vm_committed_as.lock"))
		return -ENOMEM;
	mm_compute_batch(tw, tw->overcommit_memory);
	tw->admin_reserve_pages = min(free / 32, 1L << (13 - 2));
	tw->user_reserve_pages = min(free / 32, 1L << (17 - 2));
	return 0;
}

void vm_committed_destroy(struct tlb_world *tw)
{
	percpu_counter_destroy(&tw->vm_committed_as);
}

/*
 * Committed memory limit enforced when OVERCOMMIT_NEVER policy is used
 */
unsigned long vm_commit_limit(void)
{
	struct tlb_world *tw = tlb_world();

	return totalram_pages() * (unsigned long)tw->overcommit_ratio / 100;
}

static void sync_overcommit_as(void *dummy)
{
	(void)dummy;
	percpu_counter_sync(vm_committed_as_of());
}

/*
 * A write of vm.overcommit_memory (6.6's overcommit_policy_handler,
 * proc_dointvec_minmax's parse done).  schedule_on_each_cpu() is an IPI
 * to every online CPU here, waited for, under cpus_read_lock as
 * schedule_on_each_cpu holds it: the sync runs on each CPU with IRQs off
 * instead of in a kworker, which excludes that CPU's
 * percpu_counter_add_batch (IRQs off) all the same.
 */
void overcommit_policy_handler(int new_policy)
{
	struct tlb_world *tw = tlb_world();

	if (vm_committed_get(tw))
		return;
	/*
	 * The deviation of sync_overcommit_as could be big with loose policy
	 * like OVERCOMMIT_ALWAYS/GUESS. When changing policy to the strict
	 * OVERCOMMIT_NEVER, we need to reduce the deviation to comply with
	 * the strict "NEVER", and to avoid possible race condition (even
	 * though user usually won't too frequently do the switching to policy
	 * OVERCOMMIT_NEVER), the switch is done in the following order:
	 *	1. changing the batch
	 *	2. sync percpu count on each CPU
	 *	3. switch the policy
	 */
	mm_compute_batch(tw, new_policy);
	if (new_policy == OVERCOMMIT_NEVER && !bug_on(BUG_OVERCOMMIT_NO_SYNC)) {
		cpus_read_lock();
		on_each_cpu_mask(cpu_online_mask, sync_overcommit_as, NULL, true);
		cpus_read_unlock();
	}
	__WRITE_ONCE(tw->overcommit_memory, new_policy);
}

/*
 * Check that a process has enough memory to allocate a new virtual
 * mapping. 0 means there is enough memory for the allocation to
 * succeed and -ENOMEM implies there is not.
 *
 * We currently support three overcommit policies, which are set via the
 * vm.overcommit_memory sysctl.  See Documentation/mm/overcommit-accounting.rst
 *
 * Strict overcommit modes added 2002 Feb 26 by Alan Cox.
 * Additional code 2002 Jul 20 by Robert Love.
 *
 * cap_sys_admin is 1 if the process has admin privileges, 0 otherwise.
 *
 * Note this is a helper function intended to be used by LSMs which
 * wish to use this logic.
 */
int __vm_enough_memory(struct mm_struct *mm, long pages, int cap_sys_admin)
{
	struct tlb_world *tw = tlb_world();
	long allowed, read;
	int policy;

	vm_acct_memory(pages);

	/*
	 * Sometimes we want to use more memory than we have
	 */
	policy = __READ_ONCE(tw->overcommit_memory);	/* plain, as the sysctl */
	if (policy == OVERCOMMIT_ALWAYS)
		return 0;

	if (policy == OVERCOMMIT_GUESS) {
		if ((unsigned long)pages > totalram_pages())	/* + total_swap_pages */
			goto error;
		return 0;
	}

	allowed = (long)vm_commit_limit();
	/*
	 * Reserve some for root
	 */
	if (!cap_sys_admin)
		allowed -= tw->admin_reserve_pages;

	/*
	 * Don't let a single process grow so big a user can't recover
	 */
	if (mm) {
		long reserve = tw->user_reserve_pages;

		allowed -= min_t(long, (long)mm->total_vm / 32, reserve);
	}

	read = (long)percpu_counter_read_positive(&tw->vm_committed_as);
	HOOK(tlb, committed_read, mm, pages, read, allowed);
	if (read < allowed)
		return 0;
error:
	/* pr_warn_ratelimited("%s: pid: %d, comm: %s, not enough memory for
	 * the allocation\n", ...) */
	vm_unacct_memory(pages);

	return -ENOMEM;
}

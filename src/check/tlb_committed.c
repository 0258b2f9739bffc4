// SPDX-License-Identifier: MIT
/*
 * The overcommit accounting's checkers (src/mm/util.c, mman.h):
 *
 *   I-READ@__vm_enough_memory  under OVERCOMMIT_NEVER the decision on
 *            percpu_counter_read_positive(&vm_committed_as) < allowed:
 *            the value read is max(fbc->count, 0) at that step, and where
 *            the decision goes the other way from the exact count's
 *            (exact < allowed: the shared count and every CPU's s32 at the
 *            read), the drift that turned it is what 6.6 accepts: every
 *            CPU's s32 below the batch in force.  Each CPU folds its s32
 *            when it reaches the batch (lib/percpu_counter.c
 *            percpu_counter_add_batch); mm_compute_batch (mm/mm_init.c)
 *            makes the batch for never 0.4% of the memory a CPU, and
 *            overcommit_policy_handler (mm/util.c) changes the batch, then
 *            folds every CPU (sync_overcommit_as), then the policy, so
 *            that no CPU holds more than never's batch once never decides
 *            (56f3547bfa4d).  The batch in force is 6.6's formula for
 *            never on the managed pages now (at least those the model's
 *            own was computed on), not the model's variable; for a
 *            decision that read the policy before a write that has since
 *            made it guess or always (sysctl_overcommit_memory is read
 *            plainly, once, and nothing orders the handler against it),
 *            the formula for those: CPUs add under that batch meanwhile;
 *            and where two writers of the policy interleaved (the handler
 *            takes no lock), the batch the counter has in force if it is
 *            larger (a never policy with a guess writer's batch).  No yield
 *            point lies between the read and the hook: an add on another
 *            CPU has landed or not, whole; the kernel's one window, a task
 *            preempted between reading vm_committed_as_batch and its add's
 *            local_irq_save (an old batch used after the sync), has no
 *            yield point in the model either.
 *   I-COMMITTED  vm_committed_as's exact count is never below the pages
 *            of the accountable VMAs (VM_ACCOUNT, not yet freed) of the
 *            live mms, and equals them at quiescence and is zero at the
 *            end.  Between, it may be above them by what a task has
 *            charged and not yet mapped (mmap_region's
 *            security_vm_enough_memory_mm before the VMA exists, the
 *            failure path's vm_unacct_memory) or freed and not yet
 *            unaccounted (remove_mt's and exit_mmap's vm_unacct_memory
 *            after remove_vma): 6.6 always charges first and unaccounts
 *            last.
 *
 * The hooks run in the cooperative runs only (the stress mode attaches no
 * checker): the other mms' VMA slots hold still while the hook reads
 * them, every other task being at a yield point.
 */
#include "check.h"

#include <limits.h>

#include "tlb_check.h"
#include "../mm/mman.h"

#define fail cfail_set

/* The exact vm_committed_as: the shared count and every CPU's s32. */
static long long committed_exact(struct tlb_world *tw)
{
	return (long long)percpu_counter_sum_all(&tw->vm_committed_as);
}

/* The pages of the accountable VMAs of the live mms. */
static long long committed_vmas(struct tlb_world *tw)
{
	long long pages = 0;
	int i, k;

	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		if (!tlb_mm_is_live(tw, i))
			continue;
		for (k = 0; k < MM_VMA_SLOTS; k++) {
			const struct vm_area_struct *vma = &mm->vma_slots[k];

			if (vma->used && (vma->vm_flags & VM_ACCOUNT) && vma->vm_end > vma->vm_start)
				pages += (long long)((vma->vm_end - vma->vm_start) >> PAGE_SHIFT);
		}
	}
	return pages;
}

/* 6.6 mm_compute_batch on @tw's memory now: for never (@div 256) or the
 * others (@div 4). */
static long long policy_batch(struct tlb_world *tw, unsigned long div)
{
	unsigned long ram = 0;
	long long nr = tw->ncpus, batch = nr * 2 > 32 ? nr * 2 : 32, mem;
	struct zone *zone;

	for_each_populated_zone(zone)
		ram += zone_managed_pages(zone);
	mem = (long long)(ram / (unsigned long)nr / div);
	if (mem > INT_MAX)
		mem = INT_MAX;
	return mem > batch ? mem : batch;
}

void tlb_committed_read(struct mm_struct *mm, long pages, long read, long allowed)
{
	struct tlb_world *tw = mm->tw;
	struct percpu_counter *fbc = &tw->vm_committed_as;
	long long count, exact, vmas, batch, over = 0;
	bool admit = read < allowed, stale;
	struct cfail f = { 0 };
	int cpu, worst = 0;

	if (!hook_at_read_step())
		return;
	tsan_ignore_begin();
	count = (long long)__READ_ONCE(fbc->count);
	exact = committed_exact(tw);
	vmas = committed_vmas(tw);
	/* a decision that read the policy before a write away from never
	 * decides on CPUs that may add under the new policy's batch */
	stale = __READ_ONCE(tw->overcommit_memory) != OVERCOMMIT_NEVER;
	batch = policy_batch(tw, stale ? 4 : 256);
	/* two writers of the policy interleave: 6.6's overcommit_policy_handler
	 * takes no lock ("to avoid possible race condition (even though user
	 * usually won't too frequently do the switching to policy
	 * OVERCOMMIT_NEVER), the switch is done in the following order"), so
	 * a guess writer's mm_compute_batch between a never writer's and its
	 * policy store leaves never with the guess batch in force, and CPUs
	 * add under it: the drift is held to the batch in force */
	if (__READ_ONCE(tw->vm_committed_as_batch) > batch)
		batch = __READ_ONCE(tw->vm_committed_as_batch);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		long long c = __READ_ONCE(fbc->counters[cpu].count);

		if ((c < 0 ? -c : c) > over) {
			over = c < 0 ? -c : c;
			worst = cpu;
		}
	}
	if (read != (count > 0 ? count : 0))
		fail(&f, "I-READ", "__vm_enough_memory",
		     "percpu_counter_read_positive(&vm_committed_as) returned %ld with fbc->count "
		     "%lld", read, count);
	else if (exact < vmas)
		fail(&f, "I-COMMITTED", "__vm_enough_memory",
		     "vm_committed_as is %lld pages, below the %lld of the accountable VMAs "
		     "(an unaccount too many)", exact, vmas);
	else if (admit != (exact < (long long)allowed) && over >= batch)
		fail(&f, "I-READ", "__vm_enough_memory",
		     "overcommit never: mm %d's %ld pages %s on percpu_counter_read_positive %ld "
		     "%s allowed %ld, though the exact vm_committed_as is %lld: cpu%d holds %lld "
		     "pages the read does not see, and 6.6 lets a CPU hold less than %s "
		     "of %lld (the counter's batch is %d)", mm->slot, pages,
		     admit ? "admitted" : "refused", read, admit ? "<" : ">=", allowed, exact,
		     worst, over,
		     stale ? "the new policy's batch" : "the batch in force (never's at least)", batch,
		     tw->vm_committed_as_batch);
	cfail_report(&f);	/* ends the ignored section */
}

/* No task in a system call: the count is the accountable VMAs' pages. */
void tlb_committed_quiescent(struct tlb_world *tw, const char *where, struct cfail *f)
{
	long long exact, vmas;

	if (!__atomic_load_n(&tw->committed_live, __ATOMIC_ACQUIRE))
		return;
	exact = committed_exact(tw);
	vmas = committed_vmas(tw);
	if (exact != vmas)
		fail(f, "I-COMMITTED", where,
		     "vm_committed_as is %lld pages with %lld in accountable VMAs and no "
		     "system call in flight (%s)", exact, vmas,
		     exact > vmas ? "a lost vm_unacct_memory" : "an unaccount too many");
}

// SPDX-License-Identifier: MIT
/*
 * The overcommit accounting's checkers (src/mm/util.c, mman.h):
 *
 *   I-READ@__vm_enough_memory  under OVERCOMMIT_NEVER the decision on
 *            percpu_counter_read_positive(&vm_committed_as) < allowed is
 *            the one the exact count would give, but for the slack 6.6
 *            accepts: each CPU's s32 holds less than the batch (it folds
 *            when it reaches it: lib/percpu_counter.c
 *            percpu_counter_add_batch), so the read is within (batch - 1)
 *            pages a CPU of the sum, and mm_compute_batch (mm/mm_init.c)
 *            sizes the batch for never to 0.4% of the memory a CPU for
 *            that slack to stay small.  The exact count is the shared
 *            count and every CPU's s32 at the read (no yield point
 *            between the read and the hook: an add on another CPU has
 *            landed or not, whole).  The batch is 6.6's formula for never
 *            on the managed pages now (at least those at boot, when the
 *            model computed its own), not the model's variable.
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

/* 6.6 mm_compute_batch for OVERCOMMIT_NEVER on @tw's memory now. */
static long long never_batch(struct tlb_world *tw)
{
	unsigned long ram = 0;
	long long nr = tw->ncpus, batch = nr * 2 > 32 ? nr * 2 : 32, mem;
	struct zone *zone;

	for_each_populated_zone(zone)
		ram += zone_managed_pages(zone);
	mem = (long long)(ram / (unsigned long)nr / 256);
	if (mem > INT_MAX)
		mem = INT_MAX;
	return mem > batch ? mem : batch;
}

void tlb_committed_read(struct mm_struct *mm, long pages, long read, long allowed)
{
	struct tlb_world *tw = mm->tw;
	struct cfail f = { 0 };
	long long exact, vmas, slack;
	bool admit = read < allowed;

	tsan_ignore_begin();
	exact = committed_exact(tw);
	vmas = committed_vmas(tw);
	slack = (never_batch(tw) - 1) * tw->ncpus;
	if (exact < vmas)
		fail(&f, "I-COMMITTED", "__vm_enough_memory",
		     "vm_committed_as is %lld pages, below the %lld of the accountable VMAs "
		     "(an unaccount too many)", exact, vmas);
	else if (admit && exact >= (long long)allowed + slack)
		fail(&f, "I-READ", "__vm_enough_memory",
		     "overcommit never: mm %d's %ld pages admitted on percpu_counter_read_positive "
		     "%ld < allowed %ld, though the exact vm_committed_as is %lld: past the limit "
		     "by more than 6.6's slack of %lld pages ((batch %lld - 1) x %d CPUs; the "
		     "counter's batch is %d)", mm->slot, pages, read, allowed, exact, slack,
		     never_batch(tw), tw->ncpus, tw->vm_committed_as_batch);
	else if (!admit && allowed > 0 && exact + slack < (long long)allowed)
		fail(&f, "I-READ", "__vm_enough_memory",
		     "overcommit never: mm %d's %ld pages refused on percpu_counter_read_positive "
		     "%ld >= allowed %ld, though the exact vm_committed_as is %lld: under the limit "
		     "by more than 6.6's slack of %lld pages ((batch %lld - 1) x %d CPUs; the "
		     "counter's batch is %d)", mm->slot, pages, read, allowed, exact, slack,
		     never_batch(tw), tw->ncpus, tw->vm_committed_as_batch);
	tsan_ignore_end();
	cfail_report(&f);
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

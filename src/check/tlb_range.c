// SPDX-License-Identifier: MIT
/*
 * I-RANGE: a system call changes the PTEs of the range it was given and no
 * other.  munmap, mmap's MAP_FIXED and brk's shrink zap [start, end) of
 * the call, MADV_DONTNEED zaps it, MADV_FREE makes its pages lazyfree,
 * mprotect rewrites its PTEs; an mmap without MAP_FIXED zaps nothing (it
 * finds a gap: vm_unmapped_area), and only exit_mmap's fullmm gather zaps
 * all.  A walk that runs past its VMA or its range (a clamp dropped in the
 * range arithmetic) takes a neighbour's pages, which no other checker
 * sees: the zapped page faults back in empty, the lazyfree one may be
 * reclaimed, the rewritten one takes another protection, all legal states.
 * And MADV_DONTNEED returns with no page of its whole range, every VMA of
 * it (as the tree is: a part a concurrent munmap detached is that munmap's
 * to zap), faulted in before it began (I-ZAP, checked by zap_page_range_single
 * for each VMA it is called on, here for the range the user gave).
 *
 * Each task's range is its own (set and read by the task alone: the hooks
 * run in the system call, under its mmap_lock).
 */
#include "tlb_check.h"

#include <string.h>

#define fail cfail_set

static struct user_range *task_range(void)
{
	struct tlb_check_world *s = world_layer_state(mm_world, &tlb_check_layer);
	struct task *t = current_task;

	if (!t || t->id < 0 || t->id >= MAX_TASKS)
		return NULL;
	return &s->range[t->id];
}

static const char *const range_names[] = {
	[TLB_RANGE_NONE] = "no system call", [TLB_RANGE_UNMAP] = "munmap",
	[TLB_RANGE_DONTNEED] = "MADV_DONTNEED", [TLB_RANGE_FREE] = "MADV_FREE",
	[TLB_RANGE_PROT] = "mprotect",
};

void pte_clear_flush(struct mm_struct *mm, unsigned long addr, bool done)
{
	struct user_range *r = task_range();

	if (!r)
		return;
	tsan_ignore_begin();
	r->cf_mm = done ? NULL : mm;
	r->cf_addr = addr & PAGE_MASK;
	tsan_ignore_end();
}

bool clear_flush_in_flight(const struct mm_struct *mm, unsigned long addr)
{
	struct tlb_check_world *s = world_layer_state(mm_world, &tlb_check_layer);
	int i;

	for (i = 0; i < MAX_TASKS; i++)
		if (s->range[i].cf_mm == mm && s->range[i].cf_addr == (addr & PAGE_MASK) &&
		    (!current_task || i != current_task->id))
			return true;
	return false;
}

void user_range(struct mm_struct *mm, unsigned long start, unsigned long end, int what)
{
	struct user_range *r = task_range();
	int i;

	if (!r)
		return;
	tsan_ignore_begin();
	/* the VMAs of its range (mmap_lock held for reading since it began:
	 * the tree is as it was; a range a munmap detached is that munmap's) */
	for (i = 0; what == TLB_RANGE_NONE && r->what == TLB_RANGE_DONTNEED &&
		    r->slot == mm->slot && i < mm->map_count; i++) {
		const struct vm_area_struct *vma = mm->mm_mt[i];

		if (vma->vm_end > r->start && vma->vm_start < r->end)
			dontneed_done(mm, max(vma->vm_start, r->start), min(vma->vm_end, r->end),
				      r->stamp);
	}
	r->slot = mm->slot;
	r->what = what;
	r->start = start;
	r->end = end;
	r->stamp = what == TLB_RANGE_NONE ? 0 : tlb_clock_tick(mm->tw);
	tsan_ignore_end();
}

void pte_changed(struct mm_struct *mm, unsigned long addr, int what, bool fullmm)
{
	static const int needs[] = {
		[TLB_PTE_ZAP] = TLB_RANGE_UNMAP, [TLB_PTE_LAZYFREE] = TLB_RANGE_FREE,
		[TLB_PTE_PROT] = TLB_RANGE_PROT,
	};
	static const char *const verbs[] = {
		[TLB_PTE_ZAP] = "zapped", [TLB_PTE_LAZYFREE] = "made lazyfree",
		[TLB_PTE_PROT] = "rewrote",
	};
	static const char *const sites[] = {
		[TLB_PTE_ZAP] = "zap_pte_range", [TLB_PTE_LAZYFREE] = "madvise_free_pte_range",
		[TLB_PTE_PROT] = "change_pte_range",
	};
	struct user_range *r = task_range();
	struct cfail f = { 0 };
	bool ok;

	if (!r || fullmm)
		return;
	tsan_ignore_begin();
	ok = r->slot == mm->slot && addr >= r->start && addr < r->end &&
	     (r->what == needs[what] || (what == TLB_PTE_ZAP && r->what == TLB_RANGE_DONTNEED));
	if (!ok)
		fail(&f, "I-RANGE", sites[what], "%s of mm %d [%#lx, %#lx) %s the PTE of %#lx of mm %d: outside the range it was "
		     "given", range_names[r->what], r->slot, r->start, r->end, verbs[what], addr,
		     mm->slot);
	cfail_report(&f);	/* (ends the ignore) */
}

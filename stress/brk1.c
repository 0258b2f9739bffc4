// SPDX-License-Identifier: MIT
/*
 * brk1: will-it-scale's brk increase and decrease of one page, the test
 * of seed 001.  Growing the heap extends (or makes) the brk VMA under
 * mmap_lock for writing; shrinking it is a munmap of the page (never
 * touched: no page, no table), whose gather has nothing to flush, unless
 * tlb_finish_mmu finds mm->tlb_flush_pending above one: then it flushes
 * the whole mm, and the loop's next accesses to its code and stack miss
 * the TLB.  That is the 19% of seed 001 (tlb_finish_mmu without
 * dec_tlb_flush_pending: the count never comes back to zero, and every
 * later munmap looks nested).  In thread mode every task moves the one
 * heap between the same two breaks, as will-it-scale's threads do.  Two
 * ops a loop, as will-it-scale counts.
 */
#include "stress.h"

static void brk1_configure(const struct stress_opts *o, struct mm_config *cfg)
{
	stress_mm_configure(o, cfg, 1);
}

static int brk1_prepare(struct stress_run *r, unsigned long tasks)
{
	return stress_mm_prepare(r, tasks, 1);
}

static void brk1_testcase(struct stress_task *t)
{
	struct mm_struct *mm = STRESS_MM_TASK(t)->mm;
	unsigned long addr = sys_brk(mm, 0), got;	/* sbrk(0) */

	while (stress_continue(t)) {
		addr += PAGE_SIZE;
		got = sys_brk(mm, addr);
		if (unlikely(got != addr))
			stress_mm_assert(t, "brk(addr) == 0: brk(%#lx) gave %#lx", addr, got);
		stress_mm_user(t);
		addr -= PAGE_SIZE;
		got = sys_brk(mm, addr);
		if (unlikely(got != addr))
			stress_mm_assert(t, "brk(addr) == 0: brk(%#lx) gave %#lx", addr, got);
		stress_mm_user(t);
		stress_count(t, 2);
	}
	stress_mm_exit(t);
}

static void brk1_print_config(struct stress_run *r, FILE *out)
{
	stress_mm_print_config(r, out, 1);
}

static const struct stress_workload stress_brk1 = {
	.name = "brk1",
	.description = "brk increase/decrease of one page",
	.configure = brk1_configure,
	.prepare = brk1_prepare,
	.testcase = brk1_testcase,
	.quiesce = stress_mm_quiesce,
	.cleanup = stress_mm_cleanup,
	.print_config = brk1_print_config,
};
STRESS_WORKLOAD(stress_brk1);

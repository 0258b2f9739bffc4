// SPDX-License-Identifier: MIT
/*
 * tlb_flush2: will-it-scale's TLB flush of an anonymous private mapping.
 * Each task maps 1 MB (256 pages of 4 KB, as will-it-scale), and for every
 * page writes it (a fault), drops it with madvise(MADV_DONTNEED) (a gather
 * under mmap_lock for reading: the PTE cleared, a one-page flush, the page
 * freed) and reads it back (will-it-scale asserts it reads 0: the read
 * fault maps the shared zero page, no allocation), then unmaps the
 * region.  One op is one page so treated.  In thread mode the tasks share
 * the mm: every CPU running one of them is in its mm_cpumask, and each
 * madvise's flush is an IPI to every other such CPU, which waits for them
 * all; in process mode each flush is the local CPU's alone.
 */
#include "stress.h"

#define TLB_FLUSH2_PAGES	256

static void tlb_flush2_configure(const struct stress_opts *o, struct mm_config *cfg)
{
	stress_mm_configure(o, cfg, TLB_FLUSH2_PAGES);
}

static int tlb_flush2_prepare(struct stress_run *r, unsigned long tasks)
{
	return stress_mm_prepare(r, tasks, TLB_FLUSH2_PAGES);
}

static void tlb_flush2_testcase(struct stress_task *t)
{
	struct mm_struct *mm = STRESS_MM_TASK(t)->mm;
	const unsigned long len = TLB_FLUSH2_PAGES * PAGE_SIZE;

	while (stress_continue(t)) {
		unsigned long addr, i;
		int err;

		addr = vm_mmap(mm, 0, len, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE);
		if (IS_ERR_VALUE(addr))
			stress_mm_assert(t, "mmap: %ld", (long)addr);
		stress_mm_user(t);
		for (i = 0; i < len; i += PAGE_SIZE) {
			err = user_access(mm, addr + i, true);
			if (unlikely(err))
				stress_mm_assert(t, "*(addr + %#lx) = 1: the write faulted with %d",
						 i, err);
			err = do_madvise(mm, addr + i, PAGE_SIZE, MADV_DONTNEED);
			if (unlikely(err))
				stress_mm_assert(t, "madvise(%#lx, MADV_DONTNEED): %d", addr + i, err);
			stress_mm_user(t);
			err = user_access(mm, addr + i, false);
			if (unlikely(err))
				stress_mm_assert(t, "*(addr + %#lx) == 0: the read faulted with %d",
						 i, err);
			stress_count(t, 1);
		}
		err = vm_munmap(mm, addr, len);
		if (unlikely(err))
			stress_mm_assert(t, "munmap(%#lx): %d", addr, err);
		stress_mm_user(t);
	}
	stress_mm_exit(t);
}

static void tlb_flush2_print_config(struct stress_run *r, FILE *out)
{
	stress_mm_print_config(r, out, TLB_FLUSH2_PAGES);
}

static const struct stress_workload stress_tlb_flush2 = {
	.name = "tlb_flush2",
	.description = "TLB flush of anonymous memory private mapping",
	.configure = tlb_flush2_configure,
	.prepare = tlb_flush2_prepare,
	.testcase = tlb_flush2_testcase,
	.quiesce = stress_mm_quiesce,
	.cleanup = stress_mm_cleanup,
	.print_config = tlb_flush2_print_config,
};
STRESS_WORKLOAD(stress_tlb_flush2);

// SPDX-License-Identifier: MIT
/*
 * mmap1: will-it-scale's mmap/munmap of an anonymous region it never
 * touches.  mmap takes mmap_lock for writing and inserts a VMA; munmap
 * takes it for writing, detaches the VMA, downgrades, and runs a gather
 * over the range that finds no page table: nothing to flush, nothing to
 * free, unless tlb_finish_mmu believes another gather is live on the mm
 * (seed 001's leak makes every one do a full flush).  One op is one
 * mmap/munmap pair.  The region is page_fault1's (4096 pages: 128 MB
 * scaled to the model's machine, see page_fault1.c).
 */
#include "stress.h"

#define MMAP1_PAGES	4096

static void mmap1_configure(const struct stress_opts *o, struct mm_config *cfg)
{
	stress_mm_configure(o, cfg, MMAP1_PAGES);
}

static int mmap1_prepare(struct stress_run *r, unsigned long tasks)
{
	return stress_mm_prepare(r, tasks, MMAP1_PAGES);
}

static void mmap1_testcase(struct stress_task *t)
{
	struct mm_struct *mm = STRESS_MM_TASK(t)->mm;
	const unsigned long len = MMAP1_PAGES * PAGE_SIZE;

	while (stress_continue(t)) {
		unsigned long c;
		int err;

		c = vm_mmap(mm, 0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
		if (IS_ERR_VALUE(c))
			stress_mm_assert(t, "c != MAP_FAILED: mmap: %ld", (long)c);
		stress_mm_user(t);
		err = vm_munmap(mm, c, len);
		if (unlikely(err))
			stress_mm_assert(t, "munmap(%#lx): %d", c, err);
		stress_mm_user(t);
		stress_count(t, 1);
	}
	stress_mm_exit(t);
}

static void mmap1_print_config(struct stress_run *r, FILE *out)
{
	stress_mm_print_config(r, out, MMAP1_PAGES);
}

static const struct stress_workload stress_mmap1 = {
	.name = "mmap1",
	.description = "Anonymous memory mmap/munmap of 128MB",
	.configure = mmap1_configure,
	.prepare = mmap1_prepare,
	.testcase = mmap1_testcase,
	.quiesce = stress_mm_quiesce,
	.cleanup = stress_mm_cleanup,
	.print_config = mmap1_print_config,
};
STRESS_WORKLOAD(stress_mmap1);

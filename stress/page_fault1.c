// SPDX-License-Identifier: MIT
/*
 * page_fault1: will-it-scale's anonymous page fault test on the address
 * space model.  Each task maps a region of anonymous private memory,
 * writes a byte to every page of it (one fault each: do_anonymous_page
 * allocates the page, and its PTE table on the first fault in 8 pages),
 * and unmaps it (one gather: every page and table behind one full TLB
 * flush, the tables after a grace period).  One op is one page faulted,
 * as will-it-scale counts.
 *
 * The region: will-it-scale maps 128 MB, 32768 pages of 4 KB.  The model's
 * stress machine has one zone of at most 65536 pages, and a task holds its
 * region plus 13/8 of it in tables, batches and tables waiting for RCU
 * (mm_tasks.c); 4096 pages (16 MB of 4 KB pages) let the 8 simulated CPUs'
 * worth of tasks fit in it, and stay where 128 MB is: ten times a pcp list
 * (every region goes through rmqueue_bulk and free_pcppages_bulk under
 * zone->lock), far above the flush ceiling (munmap flushes the whole mm),
 * below the gather's 10000-page limit (no flush in the middle of a zap).
 */
#include "stress.h"

#define PAGE_FAULT1_PAGES	4096

static void page_fault1_configure(const struct stress_opts *o, struct mm_config *cfg)
{
	stress_mm_configure(o, cfg, PAGE_FAULT1_PAGES);
}

static int page_fault1_prepare(struct stress_run *r, unsigned long tasks)
{
	return stress_mm_prepare(r, tasks, PAGE_FAULT1_PAGES);
}

static void page_fault1_testcase(struct stress_task *t)
{
	struct mm_struct *mm = STRESS_MM_TASK(t)->mm;
	const unsigned long len = PAGE_FAULT1_PAGES * PAGE_SIZE;

	while (stress_continue(t)) {
		unsigned long c, i;
		int err;

		stress_mm_user(t);
		c = vm_mmap(mm, 0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
		if (IS_ERR_VALUE(c))
			stress_mm_assert(t, "c != MAP_FAILED: mmap: %ld", (long)c);
		for (i = 0; i < len; i += PAGE_SIZE) {
			err = user_access(mm, c + i, true);
			if (unlikely(err))
				stress_mm_assert(t, "c[%#lx] = 0: the write faulted with %d", c + i, err);
			stress_count(t, 1);
		}
		stress_mm_user(t);
		err = vm_munmap(mm, c, len);
		if (unlikely(err))
			stress_mm_assert(t, "munmap(%#lx): %d", c, err);
	}
	stress_mm_exit(t);
}

static void page_fault1_print_config(struct stress_run *r, FILE *out)
{
	stress_mm_print_config(r, out, PAGE_FAULT1_PAGES);
}

static const struct stress_workload stress_page_fault1 = {
	.name = "page_fault1",
	.description = "Anonymous memory page fault",
	.configure = page_fault1_configure,
	.prepare = page_fault1_prepare,
	.testcase = page_fault1_testcase,
	.quiesce = stress_mm_quiesce,
	.cleanup = stress_mm_cleanup,
	.print_config = page_fault1_print_config,
};
STRESS_WORKLOAD(stress_page_fault1);

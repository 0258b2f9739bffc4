// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's operations (binary codes 0x40-0x5f, fixed
 * forever): system calls on the task's address space, its user accesses,
 * reclaim of one page, gup_fast and gup, the task leaving its mm; the handle
 * kinds for a mapped range (rN: addresses) and an mm (mN); the per-task
 * state of a run; and the `tlb` fuzz target.
 *
 * Which tasks share an mm is the program's: the header's "mms: T0 T1, T2"
 * makes its mms before any task runs, each task named holding a user
 * reference to its own, as threads forked so would; a task not named gets
 * a private mm of its own at its first operation that needs one;
 * `mN = mm_get` names the task's mm, and `use_mm mN` makes another task a
 * thread of it (its own mm is left as exit_mm leaves it).  A range handle
 * is an address range, as a pointer is: any task may use it, in its own
 * mm.
 */
#include "exec.h"
#include "ops_tlb.h"
#include "handle.h"

#include "../check/check.h"
#include "../mm/tlb.h"
#include "../mm/mman.h"

struct tlb_run {
	struct mm_struct *mm[PROG_MAX_TASKS];	/* the task's (a user reference) */
	/* range handles (object: the first address, aux: pages) and mm
	 * handles (object: the mm, a user reference) are in handle.h's table */
};

static struct op_layer tlb_ops;

static struct tlb_run *run_state(struct op_ctx *c)
{
	return op_layer_state(c, &tlb_ops);
}

/* The task's mm: made at its first use (NULL when the world has no slot). */
static struct mm_struct *task_mm(struct op_ctx *c)
{
	struct tlb_run *r = run_state(c);

	if (!r->mm[c->t->id])
		r->mm[c->t->id] = mm_alloc();
	return r->mm[c->t->id];
}

/* The task leaves its mm (do_exit's exit_mm): lazy TLB here, mmput. */
static void task_leave_mm(struct op_ctx *c)
{
	struct tlb_run *r = run_state(c);
	struct mm_struct *mm = r->mm[c->t->id];

	if (mm) {
		r->mm[c->t->id] = NULL;
		exit_mm(mm);
	}
}

/*
 * The header's mms: one mm_alloc per mm, an mmget for each further task.
 * A task without operations takes none: it would leave the mm at once, and
 * its exit_mm would be yield points before its first op, where no decision
 * can name them.
 */
static void header_mms(struct op_ctx *c)
{
	const struct prog *p = op_prog(c);
	struct tlb_run *r = run_state(c);
	struct mm_struct *mm[PROG_MAX_TASKS] = { NULL };
	int t, first;

	for (t = 0; t < p->ntasks; t++) {
		int g = tlb_mm_of_c(p)[t] - 1;

		if (g < 0 || !prog_task_ops(p, t, &first))
			continue;
		if (mm[g])
			mmget(mm[g]);
		else
			mm[g] = mm_alloc();	/* a world has more slots than tasks */
		r->mm[t] = mm[g];
	}
}

static struct op_layer tlb_ops = {
	.name = "tlb",
	.state_size = sizeof(struct tlb_run),
	.run_begin = header_mms,
	.task_exit = task_leave_mm,
	.kthreads = true,	/* ipi/N (flush IPIs), rcu_gp (table freeing) */
};
OP_LAYER(tlb_ops);

/* ---- handles ---- */

static void range_release(struct op_ctx *c, int h)
{
	/* an address range: what is mapped there is its mm's */
	(void)c;
	(void)h;
}

static const struct handle_kind hk_range = {
	.name = "range", .prefix = "r", .release = range_release,
};

static const struct handle_kind hk_mm;

static void mm_release(struct op_ctx *c, int h)
{
	struct mm_struct *mm;

	(void)c;
	mm = handle_get(h, &hk_mm, NULL);
	if (mm) {
		handle_drop(h);
		mmput(mm);
	}
}

static const struct handle_kind hk_mm = {
	.name = "mm", .prefix = "m", .release = mm_release,
};

static void range_set(struct op_ctx *c, unsigned long start, unsigned long pages)
{
	/* a range at 0 or of no pages is not live, as it never was */
	if (start && pages)
		handle_set(op_handle_self(c), op_handle_name(c), &hk_range, (void *)start, pages);
}

/* Range handle argument @k: its first address and pages, false if not live. */
static bool range_get(struct op_ctx *c, int k, unsigned long *start, unsigned long *pages)
{
	*start = (unsigned long)handle_get(op_handle_arg(c, k), &hk_range, pages);
	return *start != 0;
}

/* [off, off + pages) of the range, clipped to it (pages 0: to its end) */
static bool range_part(struct op_ctx *c, int k, int off, int pages, unsigned long *addr,
		       unsigned long *len)
{
	unsigned long start, n, o;

	if (!range_get(c, k, &start, &n))
		return false;
	o = (unsigned long)off % n;
	if (!pages || (unsigned long)pages > n - o)
		pages = (int)(n - o);
	*addr = start + (o << PAGE_SHIFT);
	*len = (unsigned long)pages << PAGE_SHIFT;
	return true;
}

/* ---- operations ---- */

static const char *const prot_names[] = { "none", "read", "rw" };
static const unsigned long prot_bits[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE };

static void do_mmap(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long len = (unsigned long)c->op->arg[0] << PAGE_SHIFT, addr;

	if (!mm)
		return;
	addr = vm_mmap(mm, 0, len, prot_bits[c->op->arg[1]], MAP_PRIVATE | MAP_ANONYMOUS);
	if (!IS_ERR_VALUE(addr))
		range_set(c, addr, (unsigned long)c->op->arg[0]);
}

static struct op_desc op_mmap = {
	OP_NAME("mmap"), .code = 0x40, .layer = "tlb",
	.desc = "an anonymous private mapping of the task's mm (top-down); the result is a range",
	.defines = &hk_range,
	.nargs = 2,
	.args = {
		{ .name = "pages", .kind = ARG_INT, .lo = 1, .hi = 64, .hi_key = &ck_mm_pages },
		{ .name = "prot", .kind = ARG_ENUM, .names = prot_names, .nnames = 3,
		  .has_def = true, .def = 2 },
	},
	.exec = do_mmap,
};
OP_DESC(op_mmap);

static void do_munmap(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], c->op->arg[2], &addr, &len))
		vm_munmap(mm, addr, len);
}

static struct op_desc op_munmap = {
	OP_NAME("munmap"), .code = 0x41, .layer = "tlb",
	.desc = "munmap of pages of a range (off, pages: 0 is to its end): mmap_lock for "
		"writing, downgraded for the zap and free_pgtables, in one mmu_gather",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "off", .kind = ARG_INT, .lo = 0, .hi = 63, .has_def = true, .def = 0 },
		{ .name = "pages", .kind = ARG_INT, .lo = 0, .hi = 64, .has_def = true, .def = 0 },
	},
	.exec = do_munmap,
};
OP_DESC(op_munmap);

static void do_access(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], 1, &addr, &len))
		user_access(mm, addr, c->op->arg[2]);
}

static struct op_desc op_access = {
	OP_NAME("access"), .code = 0x42, .layer = "tlb",
	.desc = "a load (write=1: a store) of a page of a range through this CPU's TLB: a hit "
		"uses the cached pfn, a miss walks, a fault allocates under the PTE lock",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "page", .kind = ARG_INT, .lo = 0, .hi = 63 },
		{ .name = "write", .kind = ARG_INT, .lo = 0, .hi = 1, .has_def = true, .def = 0 },
	},
	.exec = do_access,
};
OP_DESC(op_access);

static void do_madvise_dontneed(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], c->op->arg[2], &addr, &len))
		do_madvise(mm, addr, len, MADV_DONTNEED);
}

static struct op_desc op_madvise_dontneed = {
	OP_NAME("madvise_dontneed"), .code = 0x43, .layer = "tlb",
	.desc = "MADV_DONTNEED of pages of a range: mmap_lock for reading (two of them overlap), "
		"a gather per VMA",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "off", .kind = ARG_INT, .lo = 0, .hi = 63, .has_def = true, .def = 0 },
		{ .name = "pages", .kind = ARG_INT, .lo = 0, .hi = 64, .has_def = true, .def = 0 },
	},
	.exec = do_madvise_dontneed,
};
OP_DESC(op_madvise_dontneed);

static void do_mprotect(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], c->op->arg[2], &addr, &len))
		do_mprotect_pkey(mm, addr, len, prot_bits[c->op->arg[3]], -1);
}

static struct op_desc op_mprotect = {
	OP_NAME("mprotect"), .code = 0x44, .layer = "tlb",
	.desc = "mprotect of pages of a range: change_protection in an mmu_gather, the TLB "
		"flushed where a PTE lost a right",
	.nargs = 4,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "off", .kind = ARG_INT, .lo = 0, .hi = 63, .has_def = true, .def = 0 },
		{ .name = "pages", .kind = ARG_INT, .lo = 0, .hi = 64, .has_def = true, .def = 0 },
		{ .name = "prot", .kind = ARG_ENUM, .names = prot_names, .nnames = 3 },
	},
	.exec = do_mprotect,
};
OP_DESC(op_mprotect);

static void do_brk(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long old, new;
	long delta = c->op->arg[0];

	if (!mm)
		return;
	old = sys_brk(mm, 0);
	if (delta < 0 && (unsigned long)-delta << PAGE_SHIFT > old)
		return;
	new = sys_brk(mm, old + (unsigned long)delta * PAGE_SIZE);
	if (delta > 0 && new == old + (unsigned long)delta * PAGE_SIZE)
		range_set(c, old, (unsigned long)delta);
}

static struct op_desc op_brk = {
	OP_NAME("brk"), .code = 0x45, .layer = "tlb",
	.desc = "brk by a number of pages (will-it-scale's brk1 grows and shrinks by one); "
		"the pages it grows by are a range",
	.defines = &hk_range,
	.nargs = 1,
	.args = { { .name = "pages", .kind = ARG_INT, .lo = -8, .hi = 8 } },
	.exec = do_brk,
};
OP_DESC(op_brk);

static void do_reclaim_page(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], 1, &addr, &len))
		reclaim_anon_page(mm, addr);
}

static struct op_desc op_reclaim_page = {
	OP_NAME("reclaim_page"), .code = 0x46, .layer = "tlb",
	.desc = "reclaim of the page mapped at a page of a range: try_to_unmap through its rmap "
		"with the batched flush (a clean lazyfree page is freed; no swap)",
	.nargs = 2,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "page", .kind = ARG_INT, .lo = 0, .hi = 63 },
	},
	.exec = do_reclaim_page,
};
OP_DESC(op_reclaim_page);

static void do_gup_fast(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len, *word;
	struct page *page;

	if (!mm || !range_part(c, 0, c->op->arg[1], 1, &addr, &len))
		return;
	if (get_user_pages_fast_mm(mm, addr, 1, c->op->arg[2] ? FOLL_WRITE : 0, &page) != 1)
		return;
	/* the pinned page is used (direct I/O) while its mapping may go */
	word = page_address(page);
	sched_point("gup_pinned");
	if (c->op->arg[2])
		WRITE_ONCE(word[1], READ_ONCE(word[1]) + 1);
	else
		(void)READ_ONCE(word[1]);
	put_user_page(mm, page);
}

static struct op_desc op_gup_fast = {
	OP_NAME("gup_fast"), .code = 0x47, .layer = "tlb",
	.desc = "get_user_pages_fast_only of a page of a range (IRQs off, no lock: nothing where "
		"the page is not there or the PTE is special, the zero page's), used, then put",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "page", .kind = ARG_INT, .lo = 0, .hi = 63 },
		{ .name = "write", .kind = ARG_INT, .lo = 0, .hi = 1, .has_def = true, .def = 0 },
	},
	.exec = do_gup_fast,
};
OP_DESC(op_gup_fast);

static void do_gup(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len, *word;
	struct page *page;

	if (!mm || !range_part(c, 0, c->op->arg[1], 1, &addr, &len))
		return;
	if (get_user_pages_mm(mm, addr, 1, c->op->arg[2] ? FOLL_WRITE : 0, &page) != 1)
		return;
	/* as gup_fast's: used while its mapping may go (a read of the zero
	 * page reads zeroes; a write was given a copy) */
	word = page_address(page);
	sched_point("gup_pinned");
	if (c->op->arg[2])
		WRITE_ONCE(word[1], READ_ONCE(word[1]) + 1);
	else
		(void)READ_ONCE(word[1]);
	put_user_page(mm, page);
}

static struct op_desc op_gup = {
	OP_NAME("gup"), .code = 0x4d, .layer = "tlb",
	.desc = "get_user_pages_fast of a page of a range: the lockless walk, then the slow path "
		"under mmap_lock (follow_page_pte, a fault when the page is not there or a write "
		"meets the zero page), used, then put",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "page", .kind = ARG_INT, .lo = 0, .hi = 63 },
		{ .name = "write", .kind = ARG_INT, .lo = 0, .hi = 1, .has_def = true, .def = 0 },
	},
	.exec = do_gup,
};
OP_DESC(op_gup);

static struct op_desc op_exit_mmap = {
	OP_NAME("exit_mmap"), .code = 0x48, .layer = "tlb",
	.desc = "the task leaves its mm as do_exit does (exit_mm: lazy TLB here, mmput; the "
		"last user's exit_mmap frees it all in a fullmm gather); its next operation gets a "
		"new private mm",
	.exec = task_leave_mm,
};
OP_DESC(op_exit_mmap);

static void do_mm_get(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	int h = op_handle_self(c);

	if (!mm)
		return;
	mmget(mm);
	handle_set(h, op_handle_name(c), &hk_mm, mm, 0);
}

static struct op_desc op_mm_get = {
	OP_NAME("mm_get"), .code = 0x49, .layer = "tlb",
	.desc = "the task's mm, with a user reference (mmget): a handle other tasks join with "
		"use_mm",
	.defines = &hk_mm,
	.exec = do_mm_get,
};
OP_DESC(op_mm_get);

static void do_use_mm(struct op_ctx *c)
{
	struct tlb_run *r = run_state(c);
	struct mm_struct *mm = handle_get(op_handle_arg(c, 0), &hk_mm, NULL);

	if (!mm || mm == r->mm[c->t->id])
		return;
	mmget(mm);		/* the handle holds one: mm_users > 0 */
	task_leave_mm(c);
	r->mm[c->t->id] = mm;
}

static struct op_desc op_use_mm = {
	OP_NAME("use_mm"), .code = 0x4a, .layer = "tlb",
	.desc = "the task becomes a thread of an mm handle's process, leaving its own mm "
		"(nothing if the handle is not live)",
	.nargs = 1,
	.args = { { .name = "m", .kind = ARG_HANDLE, .hk = &hk_mm } },
	.exec = do_use_mm,
};
OP_DESC(op_use_mm);

static void do_madvise_free(struct op_ctx *c)
{
	struct mm_struct *mm = task_mm(c);
	unsigned long addr, len;

	if (mm && range_part(c, 0, c->op->arg[1], c->op->arg[2], &addr, &len))
		do_madvise(mm, addr, len, MADV_FREE);
}

static struct op_desc op_madvise_free = {
	OP_NAME("madvise_free"), .code = 0x4b, .layer = "tlb",
	.desc = "MADV_FREE of pages of a range: PTEs cleaned and aged in a gather, the pages "
		"lazyfree (reclaim_page may then drop them)",
	.nargs = 3,
	.args = {
		{ .name = "r", .kind = ARG_HANDLE, .hk = &hk_range },
		{ .name = "off", .kind = ARG_INT, .lo = 0, .hi = 63, .has_def = true, .def = 0 },
		{ .name = "pages", .kind = ARG_INT, .lo = 0, .hi = 64, .has_def = true, .def = 0 },
	},
	.exec = do_madvise_free,
};
OP_DESC(op_madvise_free);

/* A sysctl write takes cpu_hotplug_lock (schedule_on_each_cpu's
 * cpus_read_lock): nothing while the task holds a lock across operations
 * (zone_pcp_disable's pcp_batch_high_lock would order it before the
 * hotplug lock, as no kernel path does). */
static void do_overcommit(struct op_ctx *c)
{
	if (c->t->nheld == 0)
		overcommit_policy_handler(c->op->arg[0]);
}

static struct op_desc op_overcommit = {
	OP_NAME("overcommit"), .code = 0x4c, .layer = "tlb",
	.desc = "write vm.overcommit_memory (overcommit_policy_handler: the batch for the new "
		"policy, for never every online CPU's vm_committed_as folded by an IPI, then the "
		"policy); nothing while the task holds a lock",
	.nargs = 1,
	.args = { { .name = "policy", .kind = ARG_ENUM, .names = overcommit_policy_names,
		    .nnames = 3 } },
	.exec = do_overcommit,
};
OP_DESC(op_overcommit);

/* ---- the fuzz target ---- */

/* codes outside the target fold onto these: accesses and mmaps most */
static const char *const tlb_layers[] = { "pagealloc", "tlb", NULL };
static const unsigned char tlb_fold[] = {
	0x00, 0x01, 0x40, 0x40, 0x41, 0x42, 0x42, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
	0x49, 0x4a, 0x4b,
};
static const struct fuzz_target tlb_target = {
	.name = "tlb",
	.desc = "TLB gather on address spaces (mmap, munmap, brk, madvise, mprotect, faults "
		"and accesses through per-CPU TLBs, reclaim, gup_fast, exit) with alloc/free",
	.layers = tlb_layers, .fold = tlb_fold, .nfold = (int)sizeof(tlb_fold),
};
FUZZ_TARGET(tlb_target);

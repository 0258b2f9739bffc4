// SPDX-License-Identifier: MIT
/*
 * VMAs and the calls that make and remove them (Linux 6.6 mm/mmap.c,
 * mm/util.c): the mm's VMA tree (a sorted array: this is not a maple tree
 * test), mmap of anonymous private memory (top-down), munmap as 6.6 does it
 * (the VMAs split and detached under mmap_lock for writing, then the zap
 * and the page-table freeing under mmap_lock downgraded to reading), brk,
 * and exit_mmap (a fullmm gather).
 *
 * Lock order: mmap_lock -> anon_vma->rwsem
 * The tree (mm_mt, map_count) and each VMA's range and flags change with
 * mmap_lock held for writing, and a VMA's range also under the anon_vma's
 * rwsem when it is linked (vma_prepare), which the rmap walk holds.  VMA
 * slots are taken holding mmap_lock for writing and given back by the same
 * or by a munmap holding it for reading after detaching them (no other
 * writer can be in: it needs the lock for writing).
 */
#include "tlb.h"

#include <errno.h>

#include "mman.h"

/* ---- the VMA tree ---- */

unsigned long vm_page_prot_of(unsigned long vm_flags)
{
	if (!(vm_flags & VM_ACCESS_FLAGS))
		return PAGE_NONE;
	return PAGE_COPY;	/* private: read-only until a write fault */
}

/* The first VMA that ends above @addr, or NULL: __find_vma for the
 * checkers, find_vma for the kernel's paths, which hold mmap_lock (6.6's
 * maple tree reads rcu_dereference_check(..., lockdep_is_held(mmap_lock))
 * and lockdep says "suspicious RCU usage" without it or an RCU reader). */
struct vm_area_struct *__find_vma(struct mm_struct *mm, unsigned long addr)
{
	int lo = 0, hi = mm->map_count;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (mm->mm_mt[mid]->vm_end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < mm->map_count ? mm->mm_mt[lo] : NULL;
}

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	if (current_task && !rcu_read_lock_held())
		mmap_assert_locked(&mm->mmap_lock);
	return __find_vma(mm, addr);
}

static int vma_index(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int i;

	for (i = 0; i < mm->map_count; i++)
		if (mm->mm_mt[i] == vma)
			return i;
	sched_violation("BUG_ON", __func__, "VMA %#lx-%#lx not in the tree", vma->vm_start,
			vma->vm_end);
}

/* 6.6's vma_start_write() before a VMA enters or leaves the tree:
 * mmap_assert_write_locked() */
static void vma_tree_insert(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int i = mm->map_count;

	if (current_task)
		mmap_assert_write_locked(&mm->mmap_lock);

	while (i > 0 && mm->mm_mt[i - 1]->vm_start > vma->vm_start) {
		mm->mm_mt[i] = mm->mm_mt[i - 1];
		i--;
	}
	mm->mm_mt[i] = vma;
	mm->map_count++;
	vma->in_tree = true;
}

static void vma_tree_remove(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int i;

	if (current_task)
		mmap_assert_write_locked(&mm->mmap_lock);

	for (i = vma_index(mm, vma); i + 1 < mm->map_count; i++)
		mm->mm_mt[i] = mm->mm_mt[i + 1];
	mm->map_count--;
	vma->in_tree = false;
}

static struct vm_area_struct *vm_area_alloc(struct mm_struct *mm)
{
	int i;

	for (i = 0; i < MM_VMA_SLOTS; i++) {
		struct vm_area_struct *vma = &mm->vma_slots[i];

		if (!vma->used) {
			*vma = (struct vm_area_struct){ .vm_mm = mm, .used = true };
			return vma;
		}
	}
	return NULL;
}

static void vm_area_free(struct vm_area_struct *vma)
{
	vma->used = false;
}

/*
 * Split @vma at @addr: the new VMA takes the part below (@new_below) or
 * above; linked to the anon_vma too when @vma is (anon_vma_clone).
 */
int __split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		       bool new_below)
{
	struct vm_area_struct *new;
	struct anon_vma *av = __READ_ONCE(vma->anon_vma);	/* mmap_lock for writing */

	if (current_task)
		mmap_assert_write_locked(&mm->mmap_lock);
	if (mm->map_count >= MM_MAX_VMAS)
		return -ENOMEM;
	new = vm_area_alloc(mm);
	if (!new)
		return -ENOMEM;
	new->vm_flags = vma->vm_flags;
	new->vm_page_prot = vma->vm_page_prot;
	if (av)
		down_write(&av->rwsem);		/* vma_prepare() */
	if (new_below) {
		new->vm_start = vma->vm_start;
		new->vm_end = addr;
		vma->vm_start = addr;
	} else {
		new->vm_start = addr;
		new->vm_end = vma->vm_end;
		vma->vm_end = addr;
	}
	if (av)
		anon_vma_link(av, new);
	if (av)
		up_write(&av->rwsem);
	vma_tree_insert(mm, new);
	return 0;
}

/* ---- mmap ---- */

/* The highest free gap of @len below mmap_base (vm_unmapped_area,
 * top-down), or -ENOMEM. */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long addr,
				       unsigned long len, unsigned long flags)
{
	unsigned long high = mm->mmap_base;
	int i;

	if (len > mm->task_size)
		return (unsigned long)-ENOMEM;
	if (flags & MAP_FIXED) {
		if (addr & ~PAGE_MASK || addr + len > mm->task_size || addr + len < addr)
			return (unsigned long)-EINVAL;
		return addr;
	}
	if (addr) {
		struct vm_area_struct *vma;

		addr = PAGE_ALIGN(addr);
		vma = find_vma(mm, addr);
		if (addr >= PAGE_SIZE && addr + len <= mm->task_size &&
		    (!vma || addr + len <= vma->vm_start))
			return addr;
	}
	for (i = mm->map_count - 1; i >= -1; i--) {
		unsigned long low = i >= 0 ? mm->mm_mt[i]->vm_end : PAGE_SIZE;

		if (high >= low + len)
			return high - len;
		if (i >= 0)
			high = min(high, mm->mm_mt[i]->vm_start);
	}
	return (unsigned long)-ENOMEM;
}

static int do_vmi_align_munmap(struct mm_struct *mm, unsigned long start, unsigned long end,
			       bool unlock);

unsigned long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags)
{
	struct vm_area_struct *vma;
	unsigned long vm_flags = 0, charged = 0;

	if (!(flags & MAP_ANONYMOUS) || !(flags & MAP_PRIVATE))
		return (unsigned long)-EINVAL;	/* the model maps nothing else */
	len = PAGE_ALIGN(len);
	if (!len)
		return (unsigned long)-EINVAL;
	if (prot & PROT_READ)
		vm_flags |= VM_READ;
	if (prot & PROT_WRITE)
		vm_flags |= VM_WRITE | VM_READ;
	down_write(&mm->mmap_lock);
	/* MAP_FIXED replaces what was there: nothing else may go */
	if (flags & MAP_FIXED)
		HOOK(tlb, user_range, mm, addr, addr + len, TLB_RANGE_UNMAP);
	addr = get_unmapped_area(mm, addr, len, flags);
	if (IS_ERR_VALUE(addr))
		goto out;
	/* mmap_region(): MAP_FIXED replaces what was there */
	if (find_vma(mm, addr) && find_vma(mm, addr)->vm_start < addr + len &&
	    do_vmi_align_munmap(mm, addr, addr + len, false)) {
		addr = (unsigned long)-ENOMEM;
		goto out;
	}
	/*
	 * Private writable mapping: check memory availability
	 */
	if (accountable_mapping(vm_flags)) {
		charged = len >> PAGE_SHIFT;
		if (security_vm_enough_memory_mm(mm, (long)charged)) {
			addr = (unsigned long)-ENOMEM;
			goto out;
		}
		vm_flags |= VM_ACCOUNT;
	}
	if (mm->map_count >= MM_MAX_VMAS || !(vma = vm_area_alloc(mm))) {
		addr = (unsigned long)-ENOMEM;
		goto unacct_error;
	}
	vma->vm_start = addr;
	vma->vm_end = addr + len;
	vma->vm_flags = vm_flags;
	vma->vm_page_prot = vm_page_prot_of(vm_flags);
	vma_tree_insert(mm, vma);
	vm_stat_account(mm, vm_flags, (long)(len >> PAGE_SHIFT));
	goto out;
unacct_error:
	if (charged)
		vm_unacct_memory((long)charged);
out:
	HOOK(tlb, user_range, mm, 0, 0, TLB_RANGE_NONE);
	up_write(&mm->mmap_lock);
	return addr;
}

/* ---- munmap ---- */

/* Zap the detached VMAs' pages and free their page tables: one gather. */
static void unmap_region(struct mm_struct *mm, struct vm_area_struct **vmas, int nr,
			 struct vm_area_struct *prev, struct vm_area_struct *next,
			 unsigned long start, unsigned long end)
{
	struct mmu_gather tlb;

	tlb_gather_mmu(&tlb, mm);
	unmap_vmas(&tlb, vmas, nr, start, end);
	free_pgtables(&tlb, vmas, nr, prev ? prev->vm_end : FIRST_USER_ADDRESS,
		      next ? next->vm_start : mm->task_size);
	tlb_finish_mmu(&tlb);
}

/* mm/mmap.c: the mm's mapped pages (total_vm; the model keeps no
 * exec_vm, stack_vm or data_vm) */
void vm_stat_account(struct mm_struct *mm, unsigned long flags, long npages)
{
	(void)flags;
	mm->total_vm += (unsigned long)npages;	/* plain, as 6.6: mmap_lock */
}

/*
 * 6.6's remove_mt: the detached VMAs' statistics, their freeing, and one
 * vm_unacct_memory of the accountable pages among them, with mmap_lock
 * held (for reading once a munmap downgraded it).  @split: the VMAs
 * __split_vma made for this munmap (committed_unacct_lost forgets them).
 */
static void remove_mt(struct mm_struct *mm, struct vm_area_struct **vmas, int n,
		      struct vm_area_struct *const split[2])
{
	unsigned long nr_accounted = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct vm_area_struct *vma = vmas[i];
		long nrpages = (long)((vma->vm_end - vma->vm_start) >> PAGE_SHIFT);

		if ((vma->vm_flags & VM_ACCOUNT) &&
		    !(bug_on(BUG_COMMITTED_UNACCT_LOST) && (vma == split[0] || vma == split[1])))
			nr_accounted += (unsigned long)nrpages;
		vm_stat_account(mm, vma->vm_flags, -nrpages);
		vm_area_free(vma);	/* remove_vma() */
	}
	vm_unacct_memory((long)nr_accounted);
}

/*
 * Called with mmap_lock held for writing.  With @unlock, it is downgraded
 * for the zap and released at the end (the VMAs were isolated before we
 * downgraded, so the page tables can go without the write lock); without,
 * it stays held for writing (mmap's MAP_FIXED).
 */
static int do_vmi_align_munmap(struct mm_struct *mm, unsigned long start, unsigned long end,
			       bool unlock)
{
	struct vm_area_struct *vma, *prev, *next, *detached[MM_MAX_VMAS], *split[2] = { 0 };
	int i, n = 0;

	vma = find_vma(mm, start);
	if (!vma || vma->vm_start >= end)
		goto none;
	if (start > vma->vm_start) {
		if (__split_vma(mm, vma, start, false))
			goto nomem;
		vma = find_vma(mm, start);
		split[0] = vma;		/* the new VMA above start */
	}
	next = find_vma(mm, end - 1);
	if (next && next->vm_start < end && end < next->vm_end) {
		if (__split_vma(mm, next, end, true))
			goto nomem;
		vma = find_vma(mm, start);
		split[1] = find_vma(mm, end - 1);	/* the new VMA below end */
	}
	/* detach [start, end): out of the tree, still on the anon_vma */
	for (i = vma_index(mm, vma); i < mm->map_count && mm->mm_mt[i]->vm_start < end; i++)
		detached[n++] = mm->mm_mt[i];
	for (i = 0; i < n; i++)
		vma_tree_remove(mm, detached[i]);
	i = 0;
	while (i < mm->map_count && mm->mm_mt[i]->vm_end <= start)
		i++;
	prev = i > 0 ? mm->mm_mt[i - 1] : NULL;
	next = i < mm->map_count ? mm->mm_mt[i] : NULL;
	if (unlock)
		downgrade_write(&mm->mmap_lock);
	unmap_region(mm, detached, n, prev, next, start, end);
	remove_mt(mm, detached, n, split);
	if (unlock)
		up_read(&mm->mmap_lock);
	return 0;

nomem:
	if (unlock)
		up_write(&mm->mmap_lock);
	return -ENOMEM;
none:
	if (unlock)
		up_write(&mm->mmap_lock);
	return 0;
}

int vm_munmap(struct mm_struct *mm, unsigned long start, size_t len)
{
	unsigned long end;
	int ret;

	if (start & ~PAGE_MASK || start > mm->task_size || len > mm->task_size - start)
		return -EINVAL;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (len == 0)
		return -EINVAL;
	down_write(&mm->mmap_lock);
	HOOK(tlb, user_range, mm, start, end, TLB_RANGE_UNMAP);
	ret = do_vmi_align_munmap(mm, start, end, true);
	HOOK(tlb, user_range, mm, 0, 0, TLB_RANGE_NONE);	/* (mmap_lock gone) */
	return ret;
}

/* ---- brk ---- */

static int do_brk_flags(struct mm_struct *mm, unsigned long addr, unsigned long len)
{
	unsigned long flags = VM_READ | VM_WRITE | VM_ACCOUNT;
	struct vm_area_struct *vma = find_vma(mm, addr - 1);

	if (security_vm_enough_memory_mm(mm, (long)(len >> PAGE_SHIFT)))
		return -ENOMEM;

	/* Expand the existing vma if possible */
	if (vma && vma->vm_end == addr && vma->vm_start >= mm->start_brk &&
	    vma->vm_flags == flags) {
		struct anon_vma *av = __READ_ONCE(vma->anon_vma);	/* mmap_lock for writing */

		if (av)
			down_write(&av->rwsem);
		vma->vm_end = addr + len;
		if (av)
			up_write(&av->rwsem);
		goto out;
	}
	if (mm->map_count >= MM_MAX_VMAS || !(vma = vm_area_alloc(mm)))
		goto unacct_fail;
	vma->vm_start = addr;
	vma->vm_end = addr + len;
	vma->vm_flags = flags;
	vma->vm_page_prot = vm_page_prot_of(flags);
	vma_tree_insert(mm, vma);
out:
	mm->total_vm += len >> PAGE_SHIFT;
	return 0;

unacct_fail:
	vm_unacct_memory((long)(len >> PAGE_SHIFT));
	return -ENOMEM;
}

unsigned long sys_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long newbrk, oldbrk, origbrk;
	struct vm_area_struct *vma, *next;

	down_write(&mm->mmap_lock);
	origbrk = mm->brk;
	if (brk < mm->start_brk || brk > mm->task_size)
		goto out;
	newbrk = PAGE_ALIGN(brk);
	oldbrk = PAGE_ALIGN(mm->brk);
	if (oldbrk == newbrk) {
		mm->brk = brk;
		goto success;
	}
	/* Always allow shrinking brk. */
	if (brk <= mm->brk) {
		vma = find_vma(mm, newbrk);
		if (!vma || vma->vm_start >= oldbrk)
			goto out;	/* mapping intersects with an existing non-brk vma */
		/* mm->brk must be protected by write mmap_lock: the munmap
		 * drops it, so update it before */
		mm->brk = brk;
		HOOK(tlb, user_range, mm, newbrk, oldbrk, TLB_RANGE_UNMAP);
		do_vmi_align_munmap(mm, newbrk, oldbrk, true);
		HOOK(tlb, user_range, mm, 0, 0, TLB_RANGE_NONE);
		return brk;
	}
	/* the next VMA must leave a page between (vm_start_gap) */
	next = find_vma(mm, oldbrk);
	if (next && newbrk + PAGE_SIZE > next->vm_start)
		goto out;
	if (do_brk_flags(mm, oldbrk, newbrk - oldbrk) < 0)
		goto out;
	mm->brk = brk;
success:
	up_write(&mm->mmap_lock);
	return brk;
out:
	mm->brk = origbrk;
	up_write(&mm->mmap_lock);
	return origbrk;
}

/* ---- exit_mmap ---- */

/* The last user is gone: every page and page table, in one fullmm gather. */
void exit_mmap(struct mm_struct *mm)
{
	struct vm_area_struct *vmas[MM_MAX_VMAS];
	unsigned long nr_accounted = 0;
	struct mmu_gather tlb;
	int i, n;

	down_read(&mm->mmap_lock);
	n = mm->map_count;
	for (i = 0; i < n; i++)
		vmas[i] = mm->mm_mt[i];
	tlb_gather_mmu_fullmm(&tlb, mm);
	/* Use ULONG_MAX here to ensure all VMAs in the mm are unmapped */
	unmap_vmas(&tlb, vmas, n, 0, ~0UL);
	up_read(&mm->mmap_lock);

	down_write(&mm->mmap_lock);
	free_pgtables(&tlb, vmas, n, FIRST_USER_ADDRESS, mm->task_size);
	tlb_finish_mmu(&tlb);
	/* Walk the list again, actually closing and freeing it. */
	for (i = 0; i < n; i++) {
		if (vmas[i]->vm_flags & VM_ACCOUNT)
			nr_accounted += (vmas[i]->vm_end - vmas[i]->vm_start) >> PAGE_SHIFT;
		vma_tree_remove(mm, vmas[i]);
		vm_area_free(vmas[i]);	/* remove_vma() */
	}
	up_write(&mm->mmap_lock);
	vm_unacct_memory((long)nr_accounted);
}

// SPDX-License-Identifier: MIT
/*
 * get_user_pages_fast() (Linux 6.6 mm/gup.c, lockless_pages_from_mm and
 * gup_pte_range, then __get_user_pages with follow_page_pte and
 * faultin_page for what the lockless walk did not get): the page tables
 * walked with no lock but IRQs off, which
 * holds off both the TLB-flush IPIs and the grace period that freeing a
 * page table waits for (MMU_GATHER_RCU_TABLE_FREE, or the IPI of
 * tlb_remove_table_sync_one), so a table the walk reaches is not freed
 * under it.  Each page is got with folio_try_get and kept only if its PTE
 * is unchanged after (the race with an unmap: clear PTE, then read the
 * refcount -- get the reference, then re-read the PTE).  A special PTE
 * (the zero page) is left to the slow path, which returns the zero page
 * itself for a read and faults a copy for a write.
 *
 * Lock order: none (the lockless walk); mmap_lock -> ptlock (the slow path).
 */
#include "tlb.h"

#include <errno.h>

/* x86's pte_access_permitted() */
static bool pte_access_permitted(pte_t pte, bool write)
{
	unsigned long need = _PAGE_PRESENT | _PAGE_USER | (write ? _PAGE_RW : 0);

	return (pte_val(pte) & need) == need;
}

static int gup_pte_range(pmd_t pmd, pmd_t *pmdp, unsigned long addr, unsigned long end,
			 unsigned int flags, struct page **pages, int *nr)
{
	pte_t *ptem, *ptep;
	int ret = 0;

	ptem = ptep = pte_offset_map(&pmd, addr, NULL);
	if (!ptep)
		return 0;
	do {
		pte_t pte = ptep_get_lockless(ptep);
		struct folio *folio;
		struct page *page;

		/* Always fallback to ordinary GUP on PROT_NONE-mapped pages */
		if (pte_protnone(pte) || !pte_access_permitted(pte, flags & FOLL_WRITE))
			goto pte_unmap;
		/* a special PTE (the zero page) is left to ordinary GUP */
		if (pte_special(pte))
			goto pte_unmap;
		page = pfn_to_page(pte_pfn(pte));
		folio = page_folio(page);
		if (!folio_try_get(folio))	/* try_grab_folio(FOLL_GET) */
			goto pte_unmap;
		if (pmdp_get_lockless(pmdp).pmd != pmd.pmd || !pte_same(pte, ptep_get_lockless(ptep))) {
			count_tlb_event(TLB_GUP_FAST_RECHECK);
			folio_put(folio);
			goto pte_unmap;
		}
		HOOK(tlb, gup_page, page, ptep, addr);
		pages[(*nr)++] = page;
	} while (ptep++, addr += PAGE_SIZE, addr != end);
	ret = 1;
pte_unmap:
	pte_unmap(ptem);
	return ret;
}

int get_user_pages_fast_mm(struct mm_struct *mm, unsigned long start, int nr_pages,
			   unsigned int gup_flags, struct page **pages)
{
	unsigned long end, addr, next, flags;
	int nr = 0;

	start &= PAGE_MASK;
	end = start + ((unsigned long)nr_pages << PAGE_SHIFT);
	if (nr_pages <= 0 || end > mm->task_size || end < start)
		return 0;
	/* With interrupts disabled, we block page table pages from being
	 * freed from under us. */
	local_irq_save(flags);
	/* The model's: the task came into the kernel from its user mode, so
	 * its CPU has @mm loaded and is in mm_cpumask, which the table free's
	 * flush IPI goes to (a task that joined the mm and never ran in it
	 * switches now, as it would have before its system call). */
	switch_to_user_mm(mm);
	addr = start;
	do {
		pmd_t *pmdp = pmd_off(mm, addr);
		pmd_t pmd = pmdp_get_lockless(pmdp);

		next = pmd_addr_end(addr, end);
		if (pmd_none(pmd) || !gup_pte_range(pmd, pmdp, addr, next, gup_flags, pages, &nr))
			break;
	} while (addr = next, addr != end);
	local_irq_restore(flags);
	return nr;
}

/* ---- the slow path: __get_user_pages under mmap_lock ---- */

/* check_vma_flags(): the VMA allows the access gup asks for */
static int check_vma_flags(struct vm_area_struct *vma, unsigned int gup_flags)
{
	unsigned long vm_flags = __READ_ONCE(vma->vm_flags);	/* mmap_lock */

	if (gup_flags & FOLL_WRITE)
		return vm_flags & VM_WRITE ? 0 : -EFAULT;
	return vm_flags & VM_READ ? 0 : -EFAULT;
}

/* If the pte is writable, we can write to the page (no FOLL_FORCE here). */
static bool can_follow_write_pte(pte_t pte)
{
	return pte_write(pte);
}

/*
 * The page mapped at @address, with a reference (FOLL_GET), or NULL when a
 * fault must make it (none mapped, PROT_NONE, or a write the PTE does not
 * allow: the zero page's, whose write fault copies it).  The zero page is
 * no normal page (vm_normal_page) but is returned for a read, as 6.6 does:
 * try_grab_page takes a reference on it like on any other.
 */
static struct page *follow_page_pte(struct vm_area_struct *vma, unsigned long address,
				    pmd_t *pmd, unsigned int flags)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *page;
	spinlock_t *ptl;
	pte_t *ptep, pte;

	ptep = pte_offset_map_lock(mm, pmd, address, &ptl);
	if (!ptep)
		return NULL;		/* no_page_table() */
	pte = ptep_get(ptep);
	if (!pte_present(pte) || pte_protnone(pte)) {
		page = NULL;		/* no_page */
		goto out;
	}
	page = vm_normal_page(vma, address, pte);
	if ((flags & FOLL_WRITE) && !can_follow_write_pte(pte)) {
		page = NULL;
		goto out;
	}
	if (unlikely(!page)) {
		if (!is_zero_pfn(pte_pfn(pte)))
			goto out;	/* follow_pfn_pte: no other special PTE */
		page = pfn_to_page(pte_pfn(pte));	/* pte_page() */
	}
	folio_ref_inc(page_folio(page));	/* try_grab_page(FOLL_GET) */
out:
	pte_unmap_unlock(ptep, ptl);
	return page;
}

/* faultin_page(): the fault gup needs, mmap_lock held; 0 or -errno */
static int faultin_page(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
	unsigned int ret;

	count_tlb_event(TLB_PGFAULT);
	ret = __handle_mm_fault(vma, address, flags & FOLL_WRITE ? FAULT_FLAG_WRITE : 0);
	if (ret & VM_FAULT_OOM)
		return -ENOMEM;
	if (ret & VM_FAULT_ERROR)
		return -EFAULT;
	return 0;
}

/*
 * __get_user_pages() for @nr_pages from @start (mmap_lock for reading, as
 * get_user_pages_unlocked takes it): each page followed, faulted in when
 * it is not there and followed again.  The pages got, or -errno if none.
 */
static int __get_user_pages(struct mm_struct *mm, unsigned long start, int nr_pages,
			    unsigned int gup_flags, struct page **pages)
{
	struct vm_area_struct *vma = NULL;
	int i = 0, ret = 0, tries;

	mmap_assert_locked(&mm->mmap_lock);
	do {
		struct page *page;

		if (!vma || start >= vma->vm_end) {
			vma = find_vma(mm, start);	/* gup_vma_lookup */
			if (!vma || vma->vm_start > start) {
				ret = -EFAULT;
				goto out;
			}
			ret = check_vma_flags(vma, gup_flags);
			if (ret)
				goto out;
		}
		/* retry: the model stops after four, as user_access does */
		for (tries = 0; tries < 4; tries++) {
			cond_resched();
			page = follow_page_pte(vma, start, pmd_off(mm, start), gup_flags);
			if (page)
				break;
			ret = faultin_page(vma, start, gup_flags);
			if (ret)
				goto out;
		}
		if (!page) {
			ret = 0;	/* -EAGAIN: what was got so far */
			goto out;
		}
		pages[i++] = page;
		start += PAGE_SIZE;
	} while (--nr_pages);
out:
	return i ? i : ret;
}

/*
 * get_user_pages_fast(): the lockless walk, then for the pages it did not
 * get (not there, or a special PTE: the zero page) the slow path under
 * mmap_lock (__gup_longterm_unlocked -> get_user_pages_unlocked).
 */
int get_user_pages_mm(struct mm_struct *mm, unsigned long start, int nr_pages,
		      unsigned int gup_flags, struct page **pages)
{
	int nr_pinned, ret;

	start &= PAGE_MASK;
	nr_pinned = get_user_pages_fast_mm(mm, start, nr_pages, gup_flags, pages);
	if (nr_pinned == nr_pages || nr_pages <= 0 || start >= mm->task_size ||
	    (unsigned long)nr_pages > (mm->task_size - start) >> PAGE_SHIFT)
		return nr_pinned;
	start += (unsigned long)nr_pinned << PAGE_SHIFT;
	down_read(&mm->mmap_lock);
	ret = __get_user_pages(mm, start, nr_pages - nr_pinned, gup_flags, pages + nr_pinned);
	up_read(&mm->mmap_lock);
	if (ret < 0)
		return nr_pinned;
	return nr_pinned + ret;
}

/* The reference gup took goes; the last one frees the page, which its
 * unmapper flushed from every TLB before it let go of it. */
void put_user_page(struct mm_struct *mm, struct page *page)
{
	struct folio *folio = page_folio(page);

	if (folio_put_testzero(folio)) {
		HOOK(tlb, page_release, mm, page, "put_user_page");
		__folio_put(folio);
	}
}

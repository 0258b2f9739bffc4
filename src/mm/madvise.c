// SPDX-License-Identifier: MIT
/*
 * madvise(MADV_DONTNEED) and madvise(MADV_FREE) (Linux 6.6 mm/madvise.c)
 * under mmap_lock for reading, so that two of them on one mm run at once:
 * each VMA of the range is zapped (DONTNEED) or made lazyfree (FREE: the
 * PTEs cleaned and aged, the folios no longer swap-backed, so that reclaim
 * may drop them) in an mmu_gather of its own.
 *
 * Lock order: mmap_lock -> ptlock (through zap_page_range_single and the
 * walk below).
 */
#include "tlb.h"

#include <errno.h>

static void madvise_free_pte_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
				   pmd_t *pmd, unsigned long addr, unsigned long end)
{
	struct mm_struct *mm = tlb->mm;
	unsigned long start = addr;
	spinlock_t *ptl;
	pte_t *start_pte, *pte;

	start_pte = pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!start_pte)
		return;
	flush_tlb_batched_pending(mm);
	for (; addr != end; pte++, addr += PAGE_SIZE) {
		pte_t ptent = ptep_get(pte);
		struct folio *folio;
		struct page *page;

		if (pte_none(ptent) || !pte_present(ptent))
			continue;
		page = vm_normal_page(vma, addr, ptent);
		if (!page)
			continue;	/* the zero page: nothing to free */
		folio = page_folio(page);
		if (folio_test_flag(folio, PG_dirty)) {
			/* If folio is shared with others, we mustn't clear the
			 * folio's dirty flag (never, here: no fork). */
			if (page_mapcount(&folio->page) != 1)
				continue;
			folio_clear_flag(folio, PG_dirty);
		}
		if (pte_young(ptent) || pte_dirty(ptent)) {
			/* remap the pte with old|clean after pte clearing */
			ptent = ptep_get_and_clear(mm, addr, pte);
			ptent = pte_mkold(ptent);
			ptent = pte_mkclean(ptent);
			set_pte_at(mm, addr, pte, ptent);
			tlb_remove_tlb_entry(tlb, pte, addr);
		}
		folio_clear_flag(folio, PG_swapbacked);		/* folio_mark_lazyfree() */
		HOOK(tlb, pte_changed, mm, addr, TLB_PTE_LAZYFREE, false);
	}
	tlb_visit(tlb, start, end);
	pte_unmap_unlock(start_pte, ptl);
}

static int madvise_free_single_vma(struct vm_area_struct *vma, unsigned long start_addr,
				   unsigned long end_addr)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long start = max(vma->vm_start, start_addr), end, next;
	struct mmu_gather tlb;
	pmd_t *pmd;

	if (start >= vma->vm_end)
		return -EINVAL;
	end = min(vma->vm_end, end_addr);
	if (end <= vma->vm_start)
		return -EINVAL;
	tlb_gather_mmu(&tlb, mm);
	pmd = pmd_off(mm, start);
	for (; start != end; pmd++, start = next) {
		next = pmd_addr_end(start, end);
		if (!pmd_none(pmdp_get_lockless(pmd)))
			madvise_free_pte_range(&tlb, vma, pmd, start, next);
	}
	tlb_finish_mmu(&tlb);
	return 0;
}

static int madvise_vma_behavior(struct vm_area_struct *vma, unsigned long start,
				unsigned long end, int behavior)
{
	if (behavior == MADV_DONTNEED) {
		zap_page_range_single(vma, start, end - start);
		return 0;
	}
	return madvise_free_single_vma(vma, start, end);
}

/*
 * The VMAs of [start, end): each visited in turn; a hole is -ENOMEM, after
 * the VMAs beyond it were done.
 */
static int madvise_walk_vmas(struct mm_struct *mm, unsigned long start, unsigned long end,
			     int behavior)
{
	struct vm_area_struct *vma = find_vma(mm, start);
	int unmapped_error = 0, error;

	for (;;) {
		unsigned long tmp;

		/* Still start < end. */
		if (!vma)
			return -ENOMEM;
		/* Here start < (end|vma->vm_end). */
		if (start < vma->vm_start) {
			unmapped_error = -ENOMEM;
			start = vma->vm_start;
			if (start >= end)
				break;
		}
		/* Here vma->vm_start <= start < (end|vma->vm_end) */
		tmp = min(vma->vm_end, end);
		error = madvise_vma_behavior(vma, start, tmp, behavior);
		if (error)
			return error;
		start = tmp;
		if (start >= end)
			break;
		vma = find_vma(mm, start);
	}
	return unmapped_error;
}

int do_madvise(struct mm_struct *mm, unsigned long start, size_t len_in, int behavior)
{
	unsigned long end, len;
	int error;

	if (behavior != MADV_DONTNEED && behavior != MADV_FREE)
		return -EINVAL;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	len = PAGE_ALIGN(len_in);
	/* Check to see whether len was rounded up from small -ve to zero */
	if (len_in && !len)
		return -EINVAL;
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	down_read(&mm->mmap_lock);
	HOOK(tlb, user_range, mm, start, end,
	     behavior == MADV_DONTNEED ? TLB_RANGE_DONTNEED : TLB_RANGE_FREE);
	error = madvise_walk_vmas(mm, start, end, behavior);
	HOOK(tlb, user_range, mm, 0, 0, TLB_RANGE_NONE);
	up_read(&mm->mmap_lock);
	return error;
}

// SPDX-License-Identifier: MIT
/*
 * mprotect() (Linux 6.6 mm/mprotect.c): under mmap_lock for writing, each
 * VMA of the range split to it and given its new flags, and every present
 * PTE rewritten with the new protection in one mmu_gather (so
 * tlb_flush_pending counts it while the PTEs and the TLBs disagree, which
 * pte_accessible() of a PROT_NONE PTE relies on), the TLB flushed where a
 * PTE lost a right (pte_needs_flush).
 *
 * Lock order: mmap_lock -> anon_vma->rwsem (the splits), mmap_lock -> ptlock
 */
#include "tlb.h"

#include <errno.h>

#include "mman.h"

#define MM_CP_TRY_CHANGE_WRITABLE	0x01

/* x86's pte_needs_flush(): did the change take away something a TLB
 * entry may still grant (present, dirty, writable, the pfn)? */
static bool pte_needs_flush(pte_t oldpte, pte_t newpte)
{
	unsigned long diff;

	if (!(pte_val(oldpte) & _PAGE_PRESENT))
		return false;		/* !PRESENT -> * ; no need for flush */
	if (pte_pfn(oldpte) != pte_pfn(newpte))
		return true;
	diff = (pte_val(oldpte) ^ pte_val(newpte)) & PTE_FLAGS_MASK & ~_PAGE_ACCESSED;
	if (diff & pte_val(oldpte) & (_PAGE_DIRTY | _PAGE_PRESENT))
		return true;		/* flush_on_clear */
	return diff & (_PAGE_RW | _PAGE_USER | _PAGE_PROTNONE);	/* flush_on_change */
}

/* Every anonymous page is exclusive here (no fork): a writable private
 * mapping may map it writable at once, as the write fault would.  The zero
 * page is no page of its own (vm_normal_page): its write fault copies it. */
static bool can_change_pte_writable(struct vm_area_struct *vma, unsigned long addr, pte_t pte)
{
	struct page *page;

	if (!(__READ_ONCE(vma->vm_flags) & VM_WRITE) || pte_protnone(pte))	/* mmap_lock */
		return false;
	page = vm_normal_page(vma, addr, pte);
	return page && PageAnon(page);	/* PageAnonExclusive */
}

static long change_pte_range(struct mmu_gather *tlb, struct vm_area_struct *vma, pmd_t *pmd,
			     unsigned long addr, unsigned long end, unsigned long newprot,
			     unsigned long cp_flags)
{
	unsigned long start = addr;
	spinlock_t *ptl;
	pte_t *pte, *start_pte;
	long pages = 0;

	start_pte = pte = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
	if (!pte)
		return -EAGAIN;
	flush_tlb_batched_pending(vma->vm_mm);
	do {
		pte_t oldpte = ptep_get(pte), ptent;

		if (!pte_present(oldpte))
			continue;
		/* ptep_modify_prot_start(): cleared, so no hardware A/D
		 * update is lost in between */
		oldpte = ptep_get_and_clear(vma->vm_mm, addr, pte);
		ptent = pte_modify(oldpte, newprot);
		if ((cp_flags & MM_CP_TRY_CHANGE_WRITABLE) && !pte_write(ptent) &&
		    can_change_pte_writable(vma, addr, ptent))
			ptent = pte_mkwrite(ptent);
		set_pte_at(vma->vm_mm, addr, pte, ptent);	/* ptep_modify_prot_commit() */
		HOOK(tlb, pte_changed, vma->vm_mm, addr, TLB_PTE_PROT, false);
		if (pte_needs_flush(oldpte, ptent))
			tlb_flush_pte_range(tlb, addr, PAGE_SIZE);
		pages++;
	} while (pte++, addr += PAGE_SIZE, addr != end);
	tlb_visit(tlb, start, end);
	pte_unmap_unlock(start_pte, ptl);
	return pages;
}

static long change_protection(struct mmu_gather *tlb, struct vm_area_struct *vma,
			      unsigned long addr, unsigned long end, unsigned long cp_flags)
{
	unsigned long newprot = __READ_ONCE(vma->vm_page_prot), next;	/* mmap_lock */
	pmd_t *pmd = pmd_off(vma->vm_mm, addr);
	long pages = 0, ret;

	do {
		next = pmd_addr_end(addr, end);
		if (pmd_none(pmdp_get_lockless(pmd)))
			continue;
		ret = change_pte_range(tlb, vma, pmd, addr, next, newprot, cp_flags);
		if (ret < 0) {
			pmd--;		/* the table went under us: again */
			next = addr;
			continue;
		}
		pages += ret;
	} while (pmd++, addr = next, addr != end);
	return pages;
}

static int mprotect_fixup(struct mmu_gather *tlb, struct mm_struct *mm,
			  struct vm_area_struct *vma, unsigned long start, unsigned long end,
			  unsigned long newflags)
{
	unsigned long oldflags = vma->vm_flags;
	long nrpages = (long)((end - start) >> PAGE_SHIFT);
	long charged = 0;

	if (newflags == oldflags)
		return 0;
	/*
	 * If we make a private mapping writable we increase our commit;
	 * but (without finer accounting) cannot reduce our commit if we
	 * make it unwritable again except in the anonymous case where no
	 * anon_vma has yet to be assigned.
	 */
	if (newflags & VM_WRITE) {
		if (!(oldflags & (VM_ACCOUNT | VM_WRITE | VM_SHARED))) {
			charged = nrpages;
			if (security_vm_enough_memory_mm(mm, charged))
				return -ENOMEM;
			newflags |= VM_ACCOUNT;
		}
	} else if ((oldflags & VM_ACCOUNT) && !__READ_ONCE(vma->anon_vma)) {
		newflags &= ~VM_ACCOUNT;	/* mmap_lock for writing: anon_vma holds */
	}
	/* vma_modify_flags(): split it to the range (no merging here) */
	if (start != vma->vm_start) {
		if (__split_vma(mm, vma, start, false))
			goto fail;
		vma = find_vma(mm, start);
	}
	if (end != vma->vm_end) {
		if (__split_vma(mm, vma, end, true))
			goto fail;
		vma = find_vma(mm, start);
	}
	/* vm_flags and vm_page_prot are changed under the mmap_lock */
	/* under mmap_lock for writing (vm_flags_reset) */
	__WRITE_ONCE(vma->vm_flags, newflags);
	__WRITE_ONCE(vma->vm_page_prot, vm_page_prot_of(newflags));
	change_protection(tlb, vma, start, end,
			  (newflags & VM_WRITE) ? MM_CP_TRY_CHANGE_WRITABLE : 0);
	if ((oldflags & VM_ACCOUNT) && !(newflags & VM_ACCOUNT))
		vm_unacct_memory(nrpages);
	return 0;

fail:
	if (charged)
		vm_unacct_memory(charged);
	return -ENOMEM;
}

int do_mprotect_pkey(struct mm_struct *mm, unsigned long start, size_t len, unsigned long prot,
		     int pkey)
{
	unsigned long nstart, end, tmp, newflags;
	struct vm_area_struct *vma;
	struct mmu_gather tlb;
	int error = 0;

	(void)pkey;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;
	newflags = (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_READ | VM_WRITE : 0);
	down_write(&mm->mmap_lock);
	HOOK(tlb, user_range, mm, start, end, TLB_RANGE_PROT);
	vma = find_vma(mm, start);
	error = -ENOMEM;
	if (!vma || vma->vm_start > start)
		goto out;
	tlb_gather_mmu(&tlb, mm);
	nstart = start;
	error = 0;
	for (; vma && vma->vm_start < end; vma = find_vma(mm, nstart)) {
		/* Here we know that vma->vm_start <= nstart < vma->vm_end. */
		if (vma->vm_start != nstart && nstart != start) {
			error = -ENOMEM;
			break;
		}
		tmp = min(vma->vm_end, end);
		error = mprotect_fixup(&tlb, mm, vma, nstart, tmp,
				       newflags | (vma->vm_flags & ~VM_ACCESS_FLAGS));
		if (error)
			break;
		nstart = tmp;
		if (nstart >= end)
			break;
	}
	tlb_finish_mmu(&tlb);
	HOOK(tlb, mprotect_done, mm, start, nstart, newflags);
	if (!error && nstart < end)
		error = -ENOMEM;
out:
	HOOK(tlb, user_range, mm, 0, 0, TLB_RANGE_NONE);
	up_write(&mm->mmap_lock);
	return error;
}

// SPDX-License-Identifier: MIT
/*
 * get_user_pages_fast() (Linux 6.6 mm/gup.c, lockless_pages_from_mm and
 * gup_pte_range): the page tables walked with no lock but IRQs off, which
 * holds off both the TLB-flush IPIs and the grace period that freeing a
 * page table waits for (MMU_GATHER_RCU_TABLE_FREE, or the IPI of
 * tlb_remove_table_sync_one), so a table the walk reaches is not freed
 * under it.  Each page is got with folio_try_get and kept only if its PTE
 * is unchanged after (the race with an unmap: clear PTE, then read the
 * refcount -- get the reference, then re-read the PTE).
 *
 * Lock order: none.
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

// SPDX-License-Identifier: MIT
/*
 * Page tables and the page fault (Linux 6.6 mm/memory.c, mm/pgtable-generic.c):
 * PTE tables allocated on the first fault of their range (__pte_alloc,
 * pmd_install), mapped under RCU and locked by their split lock
 * (pte_offset_map_lock), zapped into an mmu_gather (zap_pte_range,
 * unmap_vmas, zap_page_range_single), freed by free_pgtables(), and
 * handle_mm_fault() with do_anonymous_page() (a read fault maps the shared
 * zero page, a write fault a page of its own) and the write-protect fault
 * (do_wp_page: a page reused in place, the zero page copied).
 *
 * Lock order: mmap_lock -> anon_vma->rwsem -> mm->page_table_lock
 * Lock order: mmap_lock -> ptlock -> mm->rss_stat.lock
 * Lock order: mmap_lock -> pcp->lock -> zone->lock
 * (a fault allocates its page and its PTE table under mmap_lock)
 * A PTE changes only under its table's ptlock (but for the hardware's A/D
 * updates, tlb.c); a pgd entry is populated under mm->page_table_lock and
 * cleared only by free_pgtables() with the VMAs over it gone from the tree
 * and the anon_vma (mmap_lock for writing, or after a munmap detached them).
 */
#include "tlb.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* ---- PTE tables ---- */

bool pagetable_pte_ctor(struct page *table)
{
	spin_lock_init_named(ptlock_ptr(table), "ptlock", -1);
	VM_BUG_ON_PAGE(!PageType(table, 0), table);
	/* __SetPageTable: a buddy's page_type is read racily (PageType) */
	__WRITE_ONCE(table->page_type, table->page_type & ~PG_table);	/* the table's own */
	return true;
}

void pagetable_pte_dtor(struct page *table)
{
	VM_BUG_ON_PAGE(!PageTable(table), table);
	if (spin_is_locked(ptlock_ptr(table)))
		sched_violation("ptlock", __func__, "PTE table pfn %lu freed with its lock held",
				page_to_pfn(table));
	WRITE_ONCE(table->page_type, table->page_type | PG_table);	/* __ClearPageTable */
}

/* GFP_PGTABLE_USER: zeroed, so every PTE starts none */
static struct page *pte_alloc_one(struct mm_struct *mm)
{
	struct page *table = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);

	(void)mm;
	if (!table)
		return NULL;
	if (!pagetable_pte_ctor(table)) {
		__free_pages(table, 0);
		return NULL;
	}
	return table;
}

static void pte_free(struct mm_struct *mm, struct page *table)
{
	(void)mm;
	pagetable_pte_dtor(table);
	__free_pages(table, 0);
}

/* The table's page back to the allocator: the end of tlb_remove_table. */
void __tlb_remove_table(struct page *table)
{
	HOOK(tlb, table_free, table);
	put_page(table);
}

static void pmd_install(struct mm_struct *mm, pmd_t *pmd, struct page **pte)
{
	spin_lock(&mm->page_table_lock);
	if (pmd_none(pmdp_get_lockless(pmd))) {	/* Has another populated it ? */
		mm_inc_nr_ptes(mm);
		/* pmd_populate(), ordered after the table's zeroing (smp_wmb) */
		__atomic_store_n(&pmd->pmd, page_to_pfn(*pte) << PAGE_SHIFT | _PAGE_TABLE,
				 __ATOMIC_RELEASE);
		*pte = NULL;
	}
	spin_unlock(&mm->page_table_lock);
}

int __pte_alloc(struct mm_struct *mm, pmd_t *pmd)
{
	struct page *new = pte_alloc_one(mm);

	if (!new)
		return -ENOMEM;
	pmd_install(mm, pmd, &new);
	if (new)
		pte_free(mm, new);
	return 0;
}

pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr, pmd_t *pmdvalp)
{
	pmd_t pmdval;

	rcu_read_lock();
	pmdval = pmdp_get_lockless(pmd);
	if (pmdvalp)
		*pmdvalp = pmdval;
	if (pmd_none(pmdval)) {
		rcu_read_unlock();
		return NULL;
	}
	return pte_table_base(pmd_pfn(pmdval)) + pte_index(addr);
}

pte_t *__pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
			     spinlock_t **ptlp, const struct yield_site *s, const char *fn)
{
	spinlock_t *ptl;
	pmd_t pmdval;
	pte_t *pte;

	(void)mm;
	for (;;) {
		pte = pte_offset_map(pmd, addr, &pmdval);
		if (!pte)
			return NULL;
		ptl = ptlock_ptr(pfn_to_page(pmd_pfn(pmdval)));
		__spin_lock(ptl, s, fn);
		if (pmdp_get_lockless(pmd).pmd == pmdval.pmd) {
			*ptlp = ptl;
			return pte;
		}
		pte_unmap_unlock(pte, ptl);
		loop_point("pte_offset_map_lock_again");
	}
}

/*
 * Under its table's lock a PTE write is a bare store: no other writer can
 * come between the locked read and it (compiler.h).  A writer that does
 * not hold the lock (a bug) is a racy write, a yield point as WRITE_ONCE
 * is: another task's clear may then land between its read and its store.
 */
static bool pte_write_locked(pte_t *ptep)
{
	return __atomic_load_n(&ptlock_ptr(virt_to_page(ptep))->sl.owner, __ATOMIC_RELAXED) ==
	       current;
}

void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte)
{
	(void)mm;
	(void)addr;
	if (!pte_write_locked(ptep))
		__racy_point(YP_RACY_WRITE, "pte");
	__atomic_store_n(&ptep->pte, pte_val(pte), __ATOMIC_RELEASE);
}

/* xchg: a hardware A/D update racing the clear is not lost */
pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	(void)mm;
	(void)addr;
	if (!pte_write_locked(ptep))
		__racy_point(YP_ATOMIC, "pte");
	return __pte(__atomic_exchange_n(&ptep->pte, 0UL, __ATOMIC_SEQ_CST));
}

static void print_bad_pte(unsigned long addr, pte_t pte, struct page *page)
{
	sched_violation("bad_pte", "zap_pte_range",
			"BUG: Bad page map at %#lx: pte %#lx, pfn %lu mapcount %d", addr,
			pte_val(pte), page_to_pfn(page), page_mapcount(page));
}

/* ---- the zero page ---- */

/* init_zero_pfn() and the page x86's .bss gives it: reserved, one
 * reference no mapping ever drops, zero */
void zero_page_boot(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long pfn = empty_zero_pfn(pa);
	struct page *page = &pa->memmap[pfn];
	unsigned char *mem = pa->mem + pfn * MODEL_PAGE_SIZE;

	__init_single_page(page, pfn, 0, 0);
	page->flags |= 1UL << PG_reserved;	/* reserve_bootmem_region */
	san_unpoison(mem, MODEL_PAGE_SIZE);
	memset(mem, 0, MODEL_PAGE_SIZE);
}

/* the struct page as memmap_init_boot leaves a free pfn, its memory
 * poisoned: what the memmap pool keeps for a world whose zones reach it */
void zero_page_destroy(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long pfn = empty_zero_pfn(pa);

	if (!pa->memmap || !pa->mem || pa->mem == MAP_FAILED)
		return;
	__init_single_page(&pa->memmap[pfn], pfn, 0, 0);
	set_page_count(&pa->memmap[pfn], 0);
	san_poison(pa->mem + pfn * MODEL_PAGE_SIZE, MODEL_PAGE_SIZE);
}

/*
 * The page a present PTE maps, or NULL where there is no struct page to
 * count (CONFIG_ARCH_HAS_PTE_SPECIAL): the zero page, the model's only
 * special mapping.  A special PTE of another pfn is a bad one.
 */
struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr, pte_t pte)
{
	unsigned long pfn = pte_pfn(pte);

	(void)vma;
	if (likely(!pte_special(pte)))
		goto check_pfn;
	if (is_zero_pfn(pfn))
		return NULL;
	sched_violation("bad_pte", __func__, "BUG: Bad page map at %#lx: special pte %#lx",
			addr, pte_val(pte));
	return NULL;
check_pfn:
	if (unlikely(pfn >= mm_pa->nr_pages)) {	/* highest_memmap_pfn */
		sched_violation("bad_pte", __func__, "BUG: Bad page map at %#lx: pte %#lx",
				addr, pte_val(pte));
		return NULL;
	}
	return pfn_to_page(pfn);
}

/* ---- zapping ---- */

static unsigned long zap_pte_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
				   pmd_t *pmd, unsigned long addr, unsigned long end)
{
	struct mm_struct *mm = tlb->mm;
	unsigned long start = addr;
	bool force_flush = false;
	spinlock_t *ptl;
	pte_t *start_pte, *pte;
	long rss = 0;

	start_pte = pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (!pte)
		return addr;
	flush_tlb_batched_pending(mm);
	do {
		pte_t ptent = ptep_get(pte);
		struct page *page;

		if (pte_none(ptent))
			continue;

		if (need_resched())
			break;

		if (!pte_present(ptent))
			sched_violation("bad_pte", __func__, "pte %#lx at %#lx: no swap in the model",
					pte_val(ptent), addr);
		if (bug_on(BUG_ZERO_PAGE_ZAP_NORMAL))
			page = pfn_to_page(pte_pfn(ptent));	/* the special bit ignored */
		else
			page = vm_normal_page(vma, addr, ptent);
		ptent = ptep_get_and_clear(mm, addr, pte);
		HOOK(tlb, pte_changed, mm, addr, TLB_PTE_ZAP, tlb->fullmm);
		tlb_remove_tlb_entry(tlb, pte, addr);
		if (unlikely(!page))
			continue;	/* the zero page: nothing to count or free */
		rss--;
		page_remove_rmap(page, vma);
		if (page_mapcount(page) < 0)
			print_bad_pte(addr, ptent, page);
		if (__tlb_remove_page(tlb, page, false)) {
			force_flush = true;
			addr += PAGE_SIZE;
			break;
		}
	} while (pte++, addr += PAGE_SIZE, addr != end);
	tlb_visit(tlb, start, addr);
	if (rss)
		add_mm_counter(mm, MM_ANONPAGES, rss);
	/* Do the actual TLB flush before dropping ptl */
	if (force_flush)
		tlb_flush_mmu_tlbonly(tlb);
	pte_unmap_unlock(start_pte, ptl);
	/* then free the batched memory too, and come back for the rest */
	if (force_flush)
		tlb_flush_mmu(tlb);
	return addr;
}

static void unmap_page_range(struct mmu_gather *tlb, struct vm_area_struct *vma,
			     unsigned long addr, unsigned long end)
{
	pmd_t *pmd = pmd_off(tlb->mm, addr);
	unsigned long next;

	do {
		next = pmd_addr_end(addr, end);
		if (pmd_none(pmdp_get_lockless(pmd))) {
			addr = next;
			continue;
		}
		addr = zap_pte_range(tlb, vma, pmd, addr, next);
		if (addr != next)
			pmd--;
	} while (pmd++, (void)cond_resched(), addr != end);
}

static void unmap_single_vma(struct mmu_gather *tlb, struct vm_area_struct *vma,
			     unsigned long start_addr, unsigned long end_addr)
{
	unsigned long start = max(vma->vm_start, start_addr), end;

	if (start >= vma->vm_end)
		return;
	end = min(vma->vm_end, end_addr);
	if (end <= vma->vm_start)
		return;
	if (start != end)
		unmap_page_range(tlb, vma, start, end);
}

void unmap_vmas(struct mmu_gather *tlb, struct vm_area_struct **vmas, int nr,
		unsigned long start_addr, unsigned long end_addr)
{
	int i;

	for (i = 0; i < nr; i++)
		unmap_single_vma(tlb, vmas[i], start_addr, end_addr);
}

/* MADV_DONTNEED's zap of one VMA's range, in a gather of its own. */
void zap_page_range_single(struct vm_area_struct *vma, unsigned long address,
			   unsigned long size)
{
	struct mmu_gather tlb;

	/* do_madvise: MADV_DONTNEED under mmap_lock for reading */
	mmap_assert_locked(&vma->vm_mm->mmap_lock);
	tlb_gather_mmu(&tlb, vma->vm_mm);
	unmap_single_vma(&tlb, vma, address, address + size);
	tlb_finish_mmu(&tlb);
	HOOK(tlb, dontneed_done, vma->vm_mm, max(address, vma->vm_start),
	     min(address + size, vma->vm_end), tlb.stamp);
}

/* ---- freeing page tables ---- */

static void free_pte_range(struct mmu_gather *tlb, pmd_t *pmd, unsigned long addr)
{
	struct page *token = pfn_to_page(pmd_pfn(pmdp_get_lockless(pmd)));

	__atomic_store_n(&pmd->pmd, 0UL, __ATOMIC_RELEASE);	/* pmd_clear() */
	HOOK(tlb, table_removed, tlb->mm, token);
	/* pte_free_tlb(): the flush must cover the range, and tables */
	__tlb_adjust_range(tlb, addr, PAGE_SIZE);
	tlb->cleared_pmds = 1;
	tlb->freed_tables = 1;
	/* x86's ___pte_free_tlb: the destructor now, the page after the
	 * flush (paravirt_tlb_remove_table: native_pv_ops' tlb_remove_page)
	 * or, in a paravirt guest, after the grace period (tlb_remove_table) */
	pagetable_pte_dtor(token);
	if (tlb->mm->tw->table_free_rcu)
		tlb_remove_table(tlb, token);
	else {
		count_tlb_event(TLB_TABLE_FREE);
		tlb_remove_page(tlb, token);
	}
	mm_dec_nr_ptes(tlb->mm);
}

/*
 * The tables wholly inside [floor, ceiling) and under [addr, end): a table
 * that also maps part of a neighbouring VMA stays.
 */
static void free_pgd_range(struct mmu_gather *tlb, unsigned long addr, unsigned long end,
			   unsigned long floor, unsigned long ceiling)
{
	unsigned long next;
	pmd_t *pmd;

	addr &= PMD_MASK;
	if (addr < floor) {
		addr += PMD_SIZE;
		if (!addr)
			return;
	}
	if (ceiling) {
		ceiling &= PMD_MASK;
		if (!ceiling)
			return;
	}
	if (end - 1 > ceiling - 1)
		end -= PMD_SIZE;
	if (addr > end - 1)
		return;
	pmd = pmd_off(tlb->mm, addr);
	do {
		next = pmd_addr_end(addr, end);
		if (!pmd_none(pmdp_get_lockless(pmd)))
			free_pte_range(tlb, pmd, addr);
	} while (pmd++, addr = next, addr != end);
}

/*
 * @vmas (sorted, detached from the tree or about to go with the mm): each
 * is unlinked from the anon_vma first, so no rmap walk reaches their
 * tables, then the tables go; nearby VMAs are freed in one call.  @ceiling
 * 0 is the top of the address space.
 */
void free_pgtables(struct mmu_gather *tlb, struct vm_area_struct **vmas, int nr,
		   unsigned long floor, unsigned long ceiling)
{
	int i = 0;

	while (i < nr) {
		struct vm_area_struct *vma = vmas[i];
		unsigned long addr = vma->vm_start;

		unlink_anon_vmas(vma);
		/* Optimization: gather nearby vmas into one call down */
		while (i + 1 < nr && vmas[i + 1]->vm_start <= vma->vm_end + PMD_SIZE) {
			vma = vmas[++i];
			unlink_anon_vmas(vma);
		}
		free_pgd_range(tlb, addr, vma->vm_end, floor,
			       i + 1 < nr ? vmas[i + 1]->vm_start : ceiling);
		i++;
	}
}

/* ---- the page fault ---- */

struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address;		/* page aligned */
	unsigned int flags;
	pmd_t *pmd;
	pte_t orig_pte;
	struct page *page;		/* do_wp_page: the page orig_pte maps, or NULL */
	pte_t *pte;
	spinlock_t *ptl;
};

/* The PTE changed since the fault read it (it found none: pte_none, as
 * without FAULT_FLAG_ORIG_PTE_VALID); under its lock.  A macro, so that
 * its read is the caller's yield site, as the PTE reads of the others. */
#define vmf_pte_changed(vmf)	(!pte_none(ptep_get((vmf)->pte)))

static unsigned int do_anonymous_page(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	struct folio *folio;
	struct page *page;
	unsigned long *word;
	pte_t entry;

	/* a fault allocates its page and its PTE table under mmap_lock */
	mmap_assert_locked(&mm->mmap_lock);
	if (pmd_none(pmdp_get_lockless(vmf->pmd)) && __pte_alloc(mm, vmf->pmd))
		return VM_FAULT_OOM;

	/* Use the zero-page for reads */
	if (!(vmf->flags & FAULT_FLAG_WRITE) && !mm_forbids_zeropage(mm)) {
		/* vm_page_prot: read-only in a private mapping, writable or not */
		entry = pte_mkspecial(pfn_pte(my_zero_pfn(vmf->address),
					      __READ_ONCE(vma->vm_page_prot)));
		vmf->pte = pte_offset_map_lock(mm, vmf->pmd, vmf->address, &vmf->ptl);
		if (!vmf->pte)
			return 0;
		if (vmf_pte_changed(vmf))
			goto unlock;	/* another fault got here first */
		goto setpte;	/* no rmap, no rss, no reference */
	}

	/* Allocate our own private page. */
	if (anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0);
	if (!page)
		return VM_FAULT_OOM;
	folio = page_folio(page);
	/* what the page holds: whose it is (the checkers read it back) */
	word = page_address(page);
	__WRITE_ONCE(word[0], anon_page_tag(mm, vmf->address));	/* not mapped yet */

	/* vm_flags and vm_page_prot change under mmap_lock for writing only */
	entry = pte_mkyoung(pfn_pte(page_to_pfn(page), __READ_ONCE(vma->vm_page_prot)));
	if (__READ_ONCE(vma->vm_flags) & VM_WRITE)
		entry = pte_mkwrite(pte_mkdirty(entry));

	if (bug_on(BUG_FAULT_PTE_NOLOCK)) {
		/* the PTE checked and set without its lock */
		vmf->pte = pte_offset_map(vmf->pmd, vmf->address, NULL);
		if (!vmf->pte || !pte_none(ptep_get(vmf->pte)))
			goto release_nolock;
		inc_mm_counter(mm, MM_ANONPAGES);
		folio_add_new_anon_rmap(folio, vma, vmf->address);
		set_pte_at(mm, vmf->address, vmf->pte, entry);
		HOOK(tlb, pte_faulted, mm, vmf->address);
		pte_unmap(vmf->pte);
		return 0;
release_nolock:
		if (vmf->pte)
			pte_unmap(vmf->pte);
		folio_put(folio);
		return 0;
	}

	vmf->pte = pte_offset_map_lock(mm, vmf->pmd, vmf->address, &vmf->ptl);
	if (!vmf->pte)
		goto release;
	if (vmf_pte_changed(vmf)) {
		/* another fault got here first */
		pte_unmap_unlock(vmf->pte, vmf->ptl);
		goto release;
	}
	inc_mm_counter(mm, MM_ANONPAGES);
	folio_add_new_anon_rmap(folio, vma, vmf->address);
setpte:
	set_pte_at(mm, vmf->address, vmf->pte, entry);
	HOOK(tlb, pte_faulted, mm, vmf->address);
	/* No need to invalidate - it was non-present before */
unlock:
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	return 0;
release:
	folio_put(folio);
	return 0;
}

/*
 * The zero page under a write fault: a zeroed page of its own in its place
 * (every anonymous page here is exclusive, no fork and no KSM, so the zero
 * page is the only one a write fault copies).  Called with the PTE
 * unlocked: the PTE is re-checked under its lock, and cleared and flushed
 * from every TLB before the new page is set, so that no CPU reads the zero
 * page through a stale entry once another has written the new one.
 */
static unsigned int wp_page_copy(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct mm_struct *mm = vma->vm_mm;
	struct folio *new_folio;
	struct page *new_page;
	unsigned long *word;
	pte_t entry;

	if (!is_zero_pfn(pte_pfn(vmf->orig_pte)))
		sched_violation("BUG_ON", __func__, "a copy of pfn %lu at %#lx: only the zero page "
				"is ever copied here", pte_pfn(vmf->orig_pte), vmf->address);
	if (anon_vma_prepare(vma))
		return VM_FAULT_OOM;
	/* vma_alloc_zeroed_movable_folio */
	new_page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_ZERO, 0);
	if (!new_page)
		return VM_FAULT_OOM;
	new_folio = page_folio(new_page);
	word = page_address(new_page);
	__WRITE_ONCE(word[0], anon_page_tag(mm, vmf->address));	/* not mapped yet */

	/* Re-check the pte - we dropped the lock */
	vmf->pte = pte_offset_map_lock(mm, vmf->pmd, vmf->address, &vmf->ptl);
	if (vmf->pte && pte_same(ptep_get(vmf->pte), vmf->orig_pte)) {
		/* the zero page was no page of the rss: the new one is */
		inc_mm_counter(mm, MM_ANONPAGES);
		entry = pte_mkyoung(pfn_pte(page_to_pfn(new_page), __READ_ONCE(vma->vm_page_prot)));
		entry = pte_mkdirty(entry);
		if (__READ_ONCE(vma->vm_flags) & VM_WRITE)	/* maybe_mkwrite */
			entry = pte_mkwrite(entry);
		/* ptep_clear_flush(): clear the pte entry and flush it first,
		 * before updating the pte with the new entry, to keep TLBs on
		 * different CPUs in sync */
		HOOK(tlb, pte_clear_flush, mm, vmf->address, false);
		ptep_get_and_clear(mm, vmf->address, vmf->pte);
		flush_tlb_page(vma, vmf->address);
		HOOK(tlb, pte_clear_flush, mm, vmf->address, true);
		folio_add_new_anon_rmap(new_folio, vma, vmf->address);
		set_pte_at(mm, vmf->address, vmf->pte, entry);
		HOOK(tlb, pte_faulted, mm, vmf->address);
		HOOK(tlb, pte_cowed, mm, vmf->address);
		new_folio = NULL;	/* the zero page's place: nothing to put */
		pte_unmap_unlock(vmf->pte, vmf->ptl);
	} else if (vmf->pte) {
		pte_unmap_unlock(vmf->pte, vmf->ptl);
	}
	if (new_folio)
		folio_put(new_folio);
	return 0;
}

/*
 * A write to a present read-only PTE in a writable VMA.  The page it maps
 * (vm_normal_page): an anonymous page is exclusive here (no fork), so
 * wp_page_reuse() makes it writable in place (x86 flushes nothing for an
 * upgrade: a stale read-only entry faults again and re-walks); the zero
 * page, which is none, is copied (wp_page_copy).  Called with the PTE
 * locked; unlocks.
 */
static unsigned int do_wp_page(struct vm_fault *vmf)
{
	struct folio *folio = NULL;
	pte_t entry;

	lockdep_assert_held(vmf->ptl);
	vmf->page = vm_normal_page(vmf->vma, vmf->address, vmf->orig_pte);
	if (vmf->page)
		folio = page_folio(vmf->page);
	/* Private mapping: create an exclusive anonymous page copy if reuse
	 * is impossible. */
	if ((folio && PageAnon(vmf->page)) || bug_on(BUG_ZERO_PAGE_NO_COW)) {
		/* wp_page_reuse() */
		entry = pte_mkwrite(pte_mkdirty(pte_mkyoung(vmf->orig_pte)));
		set_pte_at(vmf->vma->vm_mm, vmf->address, vmf->pte, entry);
		pte_unmap_unlock(vmf->pte, vmf->ptl);
		return 0;
	}
	/* Ok, we need to copy. Oh, well.. */
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	return wp_page_copy(vmf);
}

static unsigned int handle_pte_fault(struct vm_fault *vmf)
{
	pte_t entry;

	if (pmd_none(pmdp_get_lockless(vmf->pmd))) {
		vmf->pte = NULL;
	} else {
		vmf->pte = pte_offset_map(vmf->pmd, vmf->address, NULL);
		if (vmf->pte) {
			vmf->orig_pte = ptep_get(vmf->pte);
			if (pte_none(vmf->orig_pte)) {
				pte_unmap(vmf->pte);
				vmf->pte = NULL;
			} else {
				pte_unmap(vmf->pte);
			}
		}
	}
	if (!vmf->pte)
		return do_anonymous_page(vmf);

	vmf->pte = pte_offset_map_lock(vmf->vma->vm_mm, vmf->pmd, vmf->address, &vmf->ptl);
	if (!vmf->pte)
		return 0;		/* the table went: the access retries */
	entry = ptep_get(vmf->pte);
	if (!pte_same(entry, vmf->orig_pte))
		goto unlock;		/* changed since: the access retries */
	if (!pte_present(entry) || pte_protnone(entry))
		goto unlock;		/* PROT_NONE: the VMA check failed before */
	if (vmf->flags & FAULT_FLAG_WRITE) {
		if (!pte_write(entry))
			return do_wp_page(vmf);
		entry = pte_mkdirty(entry);
	}
	entry = pte_mkyoung(entry);
	/* ptep_set_access_flags(): x86 writes it only when it was a write */
	if (!pte_same(entry, vmf->orig_pte) && (vmf->flags & FAULT_FLAG_WRITE))
		set_pte_at(vmf->vma->vm_mm, vmf->address, vmf->pte, entry);
unlock:
	pte_unmap_unlock(vmf->pte, vmf->ptl);
	return 0;
}

/* A fault at @address of @vma, which allows the access; mmap_lock held. */
unsigned int __handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
			       unsigned int flags)
{
	struct vm_fault vmf = {
		.vma = vma, .address = address & PAGE_MASK, .flags = flags,
		.pmd = pmd_off(vma->vm_mm, address),
	};

	return handle_pte_fault(&vmf);
}

/* The user's fault (do_user_addr_fault: mmap_lock, the VMA and its access
 * checked, then the fault). */
unsigned int handle_mm_fault(struct mm_struct *mm, unsigned long address, unsigned int flags)
{
	struct vm_area_struct *vma;
	unsigned long vm_flags;
	unsigned int ret;

	count_tlb_event(TLB_PGFAULT);
	down_read(&mm->mmap_lock);
	vma = find_vma(mm, address);
	if (!vma || vma->vm_start > address) {
		ret = VM_FAULT_SIGSEGV;		/* bad_area */
		goto out;
	}
	vm_flags = __READ_ONCE(vma->vm_flags);		/* mmap_lock */
	if ((flags & FAULT_FLAG_WRITE) ? !(vm_flags & VM_WRITE) : !(vm_flags & VM_ACCESS_FLAGS)) {
		ret = VM_FAULT_SIGSEGV;		/* access_error */
		goto out;
	}
	ret = __handle_mm_fault(vma, address, flags);
out:
	up_read(&mm->mmap_lock);
	return ret;
}

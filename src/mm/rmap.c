// SPDX-License-Identifier: MIT
/*
 * Anonymous pages and their reverse map (Linux 6.6 mm/rmap.c), with the
 * piece of reclaim that uses it (mm/vmscan.c shrink_folio_list for one
 * lazyfree folio) and the batched unmap flush: try_to_unmap_one() clears a
 * PTE and defers its TLB flush (set_tlb_ubc_flush_pending), reclaim flushes
 * once for all (try_to_unmap_flush) before it frees, and anybody else who
 * finds that PTE already clear flushes first (flush_tlb_batched_pending)
 * since the deferred flush may not have happened yet.
 *
 * Lock order: mmap_lock -> anon_vma->rwsem -> ptlock
 * The anon_vma's VMA list changes under its rwsem for writing; the rmap
 * walk holds it for reading, and a PTE under its table's ptlock.
 * mm->tlb_flush_batched is an atomic: pending (low 15 bits) and flushed
 * (from bit 16) generations.
 */
#include "tlb.h"

#include <errno.h>

/* ---- the anon_vma ---- */

/*
 * The caller holds @av's rwsem for writing (the list changes under it),
 * and either page_table_lock (anon_vma_prepare: @vma is in the tree, a
 * racing fault reads vma->anon_vma) or mmap_lock for writing (__split_vma:
 * @vma is not in the tree yet).
 */
void anon_vma_link(struct anon_vma *av, struct vm_area_struct *vma)
{
	lockdep_assert_held_write(&av->rwsem);
	if (vma->in_tree)
		lockdep_assert_held(&vma->vm_mm->page_table_lock);
	else
		mmap_assert_write_locked(&vma->vm_mm->mmap_lock);
	if (av->nr >= MM_VMA_SLOTS)
		sched_violation("BUG_ON", __func__, "anon_vma has %d VMAs already", av->nr);
	av->vmas[av->nr++] = vma;
	__WRITE_ONCE(vma->anon_vma, av);	/* the racy read is the reader's */
}

/* __anon_vma_prepare(): the first fault in @vma links it. */
int anon_vma_prepare(struct vm_area_struct *vma)
{
	struct mm_struct *mm = vma->vm_mm;
	struct anon_vma *av = &mm->anon_vma;

	if (READ_ONCE(vma->anon_vma))
		return 0;
	down_write(&av->rwsem);
	spin_lock(&mm->page_table_lock);
	if (!__READ_ONCE(vma->anon_vma))
		anon_vma_link(av, vma);
	spin_unlock(&mm->page_table_lock);
	up_write(&av->rwsem);
	return 0;
}

/* the VMA is detached (or the mm going): no fault reads its anon_vma */
void unlink_anon_vmas(struct vm_area_struct *vma)
{
	struct anon_vma *av = __READ_ONCE(vma->anon_vma);
	int i;

	if (!av)
		return;
	down_write(&av->rwsem);
	for (i = 0; i < av->nr; i++) {
		if (av->vmas[i] == vma) {
			av->vmas[i] = av->vmas[--av->nr];
			break;
		}
	}
	__WRITE_ONCE(vma->anon_vma, NULL);
	up_write(&av->rwsem);
}

/* ---- rmap ---- */

void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address)
{
	folio_set_flag(folio, PG_swapbacked);		/* __folio_set_swapbacked */
	/* a new page, not yet mapped: set_pte_at (a release) publishes it */
	raw_atomic_set(&folio->_mapcount, 0);		/* increment count (starts at -1) */
	/* vma->anon_vma: published by this or another thread's anon_vma_prepare */
	__WRITE_ONCE(folio->mapping,
		     (void *)((unsigned long)__READ_ONCE(vma->anon_vma) | PAGE_MAPPING_ANON));
	__WRITE_ONCE(folio->index, address >> PAGE_SHIFT);	/* linear_page_index() */
}

void page_remove_rmap(struct page *page, struct vm_area_struct *vma)
{
	(void)vma;
	/* atomic_add_negative(-1, &page->_mapcount): the last mapping goes */
	atomic_add(-1, &page->_mapcount);
}

void add_mm_counter(struct mm_struct *mm, int member, long value)
{
	percpu_counter_add(&mm->rss_stat[member], value);
}

/* ---- the batched unmap flush ---- */

/* x86's pte_accessible(): may a TLB hold it (a PROT_NONE PTE while a
 * flush is pending still may) */
static bool pte_accessible(struct mm_struct *mm, pte_t a)
{
	if (pte_val(a) & _PAGE_PRESENT)
		return true;
	return pte_protnone(a) && mm_tlb_flush_pending(mm);
}

static void set_tlb_ubc_flush_pending(struct tlbflush_unmap_batch *tlb_ubc,
				      struct mm_struct *mm, pte_t pteval, unsigned long uaddr)
{
	bool writable = pte_dirty(pteval);
	int batch;

	if (!pte_accessible(mm, pteval))
		return;
	arch_tlbbatch_add_pending(&tlb_ubc->arch, mm, uaddr);
	tlb_ubc->flush_required = true;
	HOOK(tlb, ubc_deferred, mm, uaddr);
	batch = atomic_read(&mm->tlb_flush_batched);
	for (;;) {
		if ((batch & TLB_FLUSH_BATCH_PENDING_MASK) > TLB_FLUSH_BATCH_PENDING_LARGE) {
			/* Prevent `pending' from catching up with `flushed'
			 * because of overflow: back to 1 and 0. */
			int old = atomic_cmpxchg(&mm->tlb_flush_batched, batch, 1);

			if (old == batch)
				break;
			batch = old;
			loop_point("set_tlb_ubc_flush_pending");
			continue;
		}
		atomic_inc(&mm->tlb_flush_batched);
		break;
	}
	/* If the PTE was dirty then it's best to assume it's writable. */
	if (writable)
		tlb_ubc->writable = true;
}

/* Reclaim unmapped pages with their flushes deferred: flush them now. */
static void try_to_unmap_flush(struct tlbflush_unmap_batch *tlb_ubc)
{
	if (!tlb_ubc->flush_required)
		return;
	count_tlb_event(TLB_UBC_FLUSH);
	arch_tlbbatch_flush(&tlb_ubc->arch);
	tlb_ubc->flush_required = false;
	tlb_ubc->writable = false;
}

/*
 * Reclaim unmaps pages and defers the flush.  A zap or mprotect that then
 * finds such a PTE already clear would return with the stale TLB entries
 * still live: so under the ptlock it flushes the mm first when a deferred
 * flush is pending, and marks it flushed (unless another was deferred
 * meanwhile, which is then flushed by the next one to come).
 */
void flush_tlb_batched_pending(struct mm_struct *mm)
{
	int batch = atomic_read(&mm->tlb_flush_batched);
	int pending = batch & TLB_FLUSH_BATCH_PENDING_MASK;
	int flushed = batch >> TLB_FLUSH_BATCH_FLUSHED_SHIFT;

	if (pending != flushed) {
		count_tlb_event(TLB_BATCHED_PENDING_FLUSH);
		flush_tlb_mm(mm);	/* arch_flush_tlb_batched_pending() */
		atomic_cmpxchg(&mm->tlb_flush_batched, batch,
			       pending | (pending << TLB_FLUSH_BATCH_FLUSHED_SHIFT));
	}
}

/* ---- try_to_unmap ---- */

#define TTU_BATCH_FLUSH		0x20

static bool should_defer_flush(struct mm_struct *mm, unsigned int flags)
{
	if (!(flags & TTU_BATCH_FLUSH))
		return false;
	return arch_tlbbatch_should_defer(mm);
}

/*
 * @vma's mapping of @folio at @address, under the PTE lock
 * (page_vma_mapped_walk): unmap it, discarding the folio when it is a
 * clean lazyfree one that nobody else holds.  false: keep the folio.  The
 * caller is the rmap walk, holding the anon_vma's rwsem for reading.
 */
static bool try_to_unmap_one(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address, unsigned int flags,
			     struct tlbflush_unmap_batch *tlb_ubc)
{
	struct mm_struct *mm = vma->vm_mm;
	pmd_t *pmd = pmd_off(mm, address);
	spinlock_t *ptl;
	pte_t *pte, pteval;
	bool ret = true;

	lockdep_assert_held_read(&mm->anon_vma.rwsem);
	if (pmd_none(pmdp_get_lockless(pmd)))
		return true;
	pte = pte_offset_map_lock(mm, pmd, address, &ptl);
	if (!pte)
		return true;
	pteval = ptep_get(pte);
	if (!pte_present(pteval) || pte_pfn(pteval) != folio_pfn(folio))
		goto out;	/* not mapped here (any more) */
	/* Nuke the page table entry. */
	if (should_defer_flush(mm, flags)) {
		/*
		 * We clear the PTE but do not flush so potentially a remote CPU
		 * could still be writing to the folio.  If the entry was
		 * previously clean then the architecture must guarantee that a
		 * clear->dirty transition on a cached TLB entry is written
		 * through and traps if the PTE is unmapped (x86's does: the
		 * model's CPU re-walks to set the dirty bit).
		 */
		pteval = ptep_get_and_clear(mm, address, pte);
		set_tlb_ubc_flush_pending(tlb_ubc, mm, pteval, address);
	} else {
		/* ptep_clear_flush() */
		pteval = ptep_get_and_clear(mm, address, pte);
		if (pte_accessible(mm, pteval))
			flush_tlb_page(vma, address);
	}
	/* Set the dirty flag on the folio now the pte is gone. */
	if (pte_dirty(pteval))
		folio_set_flag(folio, PG_dirty);
	/* MADV_FREE page check */
	if (!folio_test_flag(folio, PG_swapbacked)) {
		/* Synchronize with gup_pte_range(): clear PTE; barrier; read
		 * refcount -- inc refcount; barrier; read PTE */
		int ref_count = folio_ref_count(folio);
		int map_count = page_mapcount(&folio->page);

		/* The only page refs must be one from isolation plus the
		 * rmap(s) (dropped by discard:). */
		if (ref_count == 1 + map_count && !folio_test_flag(folio, PG_dirty)) {
			dec_mm_counter(mm, MM_ANONPAGES);
			page_remove_rmap(&folio->page, vma);
			folio_put(folio);	/* the mapping's reference */
			goto out;
		}
		/* If the folio was redirtied, it cannot be discarded.  Remap
		 * the page to page table. */
		set_pte_at(mm, address, pte, pteval);
		folio_set_flag(folio, PG_swapbacked);
		ret = false;
		goto out;
	}
	/* A swapbacked folio would go to swap: the model has none. */
	set_pte_at(mm, address, pte, pteval);
	ret = false;
out:
	pte_unmap_unlock(pte, ptl);
	return ret;
}

/*
 * rmap_walk_anon(): every VMA linked to the folio's anon_vma that maps its
 * address.  The caller found the folio through @mm's page tables and holds
 * a user reference on @mm, the only mm a page of it is ever mapped in: the
 * anon_vma (the mm's) cannot go under the walk.
 */
static bool try_to_unmap(struct folio *folio, unsigned int flags,
			 struct tlbflush_unmap_batch *tlb_ubc)
{
	struct anon_vma *av;
	unsigned long address;
	bool ret = true;
	int i;

	rcu_read_lock();
	av = page_anon_vma(&folio->page);
	if (!av || page_mapcount(&folio->page) <= 0) {	/* !folio_mapped() */
		rcu_read_unlock();
		return true;
	}
	rcu_read_unlock();
	address = __READ_ONCE(folio->index) << PAGE_SHIFT;
	down_read(&av->rwsem);
	for (i = 0; i < av->nr && ret; i++) {
		struct vm_area_struct *vma = av->vmas[i];

		if (address < vma->vm_start || address >= vma->vm_end)
			continue;
		ret = try_to_unmap_one(folio, vma, address, flags, tlb_ubc);
	}
	up_read(&av->rwsem);
	return ret && page_mapcount(&folio->page) <= 0;
}

/* ---- reclaim of one folio ---- */

/* folio_ref_freeze(folio, 1): the caller's the only reference */
static bool folio_ref_freeze(struct folio *folio, int count)
{
	int c = count;

	yield_point(YIELD_SITE(YP_CMPXCHG, "folio->_refcount"));
	return __atomic_compare_exchange_n(&folio->_refcount.counter, &c, 0, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

int reclaim_anon_page(struct mm_struct *mm, unsigned long addr)
{
	struct tlbflush_unmap_batch tlb_ubc = { { CPU_MASK_NONE }, false, false };
	pmd_t *pmd = pmd_off(mm, addr);
	struct folio *folio = NULL;
	spinlock_t *ptl;
	bool freed = false;
	pte_t *pte;
	int ret = -EBUSY, i;

	if (addr >= mm->task_size)
		return -EFAULT;
	/*
	 * isolate_lru_folios() would find it on the LRU: the model finds it
	 * where @mm maps it, and takes the isolation reference.  It holds no
	 * mmap_lock, so it walks as the rmap does (page_vma_mapped_walk under
	 * the anon_vma's rwsem): only where a VMA linked to the anon_vma
	 * covers @addr, whose unlink_anon_vmas() -- before free_pgtables()
	 * frees its PTE tables -- waits for it.  6.6's x86 frees a table's
	 * split PTL at free_pte_range (pagetable_pte_dtor), not after the
	 * grace period, so a PTL taken under RCU alone could be freed held.
	 */
	down_read(&mm->anon_vma.rwsem);
	for (i = 0; i < mm->anon_vma.nr; i++) {
		struct vm_area_struct *vma = mm->anon_vma.vmas[i];

		if (addr >= vma->vm_start && addr < vma->vm_end)
			break;
	}
	if (i == mm->anon_vma.nr)
		goto unlock;
	pte = pte_offset_map_lock(mm, pmd, addr, &ptl);
	if (pte) {
		pte_t pteval = ptep_get(pte);
		struct page *page;

		/* the zero page is on no LRU: reclaim never finds it */
		if (pte_present(pteval) &&
		    (page = vm_normal_page(mm->anon_vma.vmas[i], addr, pteval))) {
			folio = page_folio(page);
			folio_get(folio);
		}
		pte_unmap_unlock(pte, ptl);
	}
unlock:
	up_read(&mm->anon_vma.rwsem);
	if (!folio)
		return -EFAULT;
	/* shrink_folio_list(): only a lazyfree folio can go without swap */
	if (!folio_test_flag(folio, PG_swapbacked) && try_to_unmap(folio, TTU_BATCH_FLUSH, &tlb_ubc)) {
		/* follow __remove_mapping for reference */
		freed = folio_ref_freeze(folio, 1);
	}
	/* the flush before any of the folios goes (free_it -> the end) */
	try_to_unmap_flush(&tlb_ubc);
	if (freed) {
		HOOK(tlb, page_release, mm, &folio->page, "shrink_folio_list");
		free_unref_page(&folio->page, 0);
		ret = 0;
	} else {
		folio_put(folio);	/* putback: the isolation reference */
	}
	return ret;
}

// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's checkers (reference/kernel-mm.md section 2, the
 * I-TLB rows); the pages it owns for I-CONS are tlb_owners.c's.
 *
 *   I-TLB-1  mm->tlb_flush_pending is the number of live gathers on the mm:
 *            never negative (after every op), never below the gathers still
 *            live when one finishes, zero at quiescence and at the mm's end
 *   I-TLB-2  a page an unmapper lets go of (a gather after its flush,
 *            reclaim, the last gup reference) is in no usable TLB entry of
 *            any CPU; a page table is freed only after a TLB flush with
 *            freed_tables that began after it left its pgd entry, and after
 *            a grace period that began after that, or the sync IPI
 *   I-TLB-3  a gather that finds another live on its mm when it reads
 *            tlb_flush_pending in tlb_finish_mmu ends in a full flush
 *   I-TLB-4  a PTE reclaim cleared with its flush deferred is not left in a
 *            TLB by a gather that found it clear (flush_tlb_batched_pending)
 *   stale-tlb  a gather that finished leaves no usable TLB entry, filled
 *            before it began, that disagrees with the PTEs it visited (at
 *            tlb_finish_mmu); a user access through such an entry, once a
 *            gather that visited its PTE has finished, is a violation (at
 *            the access): the user reads a page no longer mapped there; an
 *            access through an entry for the zero page filled before a
 *            write fault copied it there (wp_page_copy's flush missed it)
 *   page-tag a user access reads the page the fault made for that address
 *   I-RSS    MM_ANONPAGES equals the present PTEs, pgtables_bytes the
 *            tables, at quiescence; at the mm's end (check_mm) every rss
 *            counter, pgtables_bytes and tlb_flush_pending are zero, the
 *            pgd and the VMA tree empty ("Bad rss-counter state", on the
 *            value check_mm's own percpu_counter_sum() returned)
 *   I-READ@percpu_counter_sum  that sum is exact: the mm is being freed,
 *            nobody updates its counters
 *   I-TLB-5  a CPU that has an mm loaded is in its mm_cpumask (quiescence)
 *   mm-uaf   an mm is freed (its last mmdrop) with no user left and no CPU
 *            that has it as active_mm (a lost mm_count reference)
 *   I-ZAP    MADV_DONTNEED returns with no PTE of its range faulted in
 *            before it began (a PTE changed behind the zap's PTL)
 *   I-PROT   mprotect returns with no PTE of its range allowing more than
 *            the new protection and every VMA of the range at it, and at
 *            quiescence no PTE allows more than its VMA's flags (a PTE put
 *            back behind mprotect's PTL)
 *   I-RANGE  a system call changes PTEs only in the range it was given
 *            (tlb_range.c), and MADV_DONTNEED returns with no PTE of its
 *            whole range, every VMA of it, faulted in before it began
 *   I-GUP    a page gup_fast returns is the one the PTE maps as it takes it
 *   I-RMAP   every present PTE maps an anonymous page whose rmap names the
 *            mm and the address, mapped once, in a VMA (quiescence)
 *   I-ZERO   the zero page is read only: no PTE maps it writable or as a
 *            normal page (quiescence), no user access writes it or reads
 *            anything but zeroes from it, no unmapper lets go of it (it has
 *            no reference of theirs), and it stays reserved with its one
 *            reference, unmapped by any rmap, and zero (quiescence)
 *   end      every mm freed, every page table freed, no CPU with an mm
 *   I-READ@__vm_enough_memory, I-COMMITTED  the overcommit accounting
 *            (tlb_committed.c)
 *
 * A usable TLB entry is one an access would use without flushing first:
 * in the ASID a CPU has loaded, is not lazy in and is in the mm_cpumask
 * of (and not inside switch_mm_irqs_off, which runs no user code), or in
 * an ASID that has caught up with its mm's tlb_gen (tlb_entry_usable);
 * entries of ASIDs behind are flushed at the next switch_mm.
 *
 * The hooks run on whichever task is in the model (real threads in the
 * stress mode): their state is atomics and per-slot arrays, hidden from
 * TSan like the rest of the checkers' reads.
 */
#include "check.h"

#include <string.h>

#include "tlb_check.h"

#define fail cfail_set

/* The PTE that maps @addr in @mm now (a lockless read, as a walker's). */
static pte_t pte_now(struct mm_struct *mm, unsigned long addr)
{
	pmd_t pmd = pmdp_get_lockless(pmd_off(mm, addr));

	if (!pmd_present(pmd))
		return __pte(0);
	return ptep_get(pte_table_base(pmd_pfn(pmd)) + pte_index(addr));
}

/* Does entry @e (of @mm, for @addr) say more than the PTE does now? */
static bool entry_stale(const struct tlb_entry *e, pte_t pte)
{
	return !pte_hw_present(pte) || pte_pfn(pte) != e->pfn || (e->writable && !pte_write(pte));
}

/* ---- the hooks ---- */

static void gather_begin(struct mmu_gather *tlb)
{
	struct tlb_check_world *s = tcw();
	int i;

	tsan_ignore_begin();
	__atomic_fetch_add(&s->live[tlb->mm->slot], 1, __ATOMIC_RELAXED);
	for (i = 0; i < MAX_LIVE_GATHERS; i++) {
		struct mmu_gather *none = NULL;

		if (__atomic_compare_exchange_n(&s->gathers[i], &none, tlb, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			stamp_max(&s->gathers_hw, (u64)i + 1);
			break;
		}
	}
	tsan_ignore_end();
}

static void gather_finish(struct mmu_gather *tlb)
{
	struct tlb_check_world *s = tcw();
	struct cfail f = { 0 };
	int pending, live;

	tsan_ignore_begin();
	live = __atomic_load_n(&s->live[tlb->mm->slot], __ATOMIC_RELAXED);
	pending = atomic_read(&tlb->mm->tlb_flush_pending);
	tlb->others = live - 1;
	if (pending < live)
		fail(&f, "I-TLB-1", "tlb_finish_mmu",
		     "mm %d: tlb_flush_pending is %d with %d gathers live on it", tlb->mm->slot,
		     pending, live);
	cfail_report(&f);
}

/* Every usable entry of @mm in [start, end) filled before @before that
 * disagrees with the page tables: the first, or NULL. */
static const struct tlb_entry *stale_entry(struct tlb_world *tw, struct mm_struct *mm,
					   unsigned long start, unsigned long end, u64 before,
					   int *cpup, pte_t *ptep)
{
	int cpu, i;

	for (cpu = 0; cpu < tw->ncpus; cpu++) {
		for (i = 0; i < tw->nr_entries; i++) {
			const struct tlb_entry *e = &tw->cpu[cpu].entries[i];
			struct mm_struct *owner;
			unsigned long addr = e->vpn << PAGE_SHIFT;
			pte_t pte;

			if (!e->asid || e->fill >= before || addr < start || addr >= end ||
			    !tlb_entry_usable(tw, cpu, e, &owner) || owner != mm)
				continue;
			pte = pte_now(mm, addr);
			/* cleared by another task whose own flush is on its way */
			if (entry_stale(e, pte) && !clear_flush_in_flight(mm, addr)) {
				*cpup = cpu;
				*ptep = pte;
				return e;
			}
		}
	}
	return NULL;
}

static void gather_done(struct mmu_gather *tlb)
{
	struct tlb_check_world *s = tcw();
	struct tlb_world *tw = tlb->mm->tw;
	struct mm_struct *mm = tlb->mm;
	const struct tlb_entry *e;
	struct cfail f = { 0 };
	unsigned long a;
	u64 *ubc;
	pte_t pte;
	int cpu, i;

	tsan_ignore_begin();
	if (tlb->others > 0 && !tlb->flushed_all)
		fail(&f, "I-TLB-3", "tlb_finish_mmu",
		     "a gather on mm %d finished while %d other(s) were live on it, without a "
		     "full flush: PTEs the others cleared and this one found clear may still be "
		     "in TLBs", mm->slot, tlb->others);
	ubc = slot_array(s, s->ubc, mm);
	if (!f.hit && tlb->vis_start < tlb->vis_end &&
	    (e = stale_entry(tw, mm, tlb->vis_start, tlb->vis_end, tlb->stamp, &cpu, &pte))) {
		unsigned long addr = e->vpn << PAGE_SHIFT;

		if (ubc[e->vpn] > e->fill)
			fail(&f, "I-TLB-4", "tlb_finish_mmu",
			     "cpu%d still maps %#lx of mm %d to pfn %lu after a gather over it "
			     "finished: reclaim cleared that PTE with its flush deferred, and the "
			     "gather found it clear without flushing (flush_tlb_batched_pending)",
			     cpu, addr, mm->slot, e->pfn);
		else
			fail(&f, "stale-tlb", "tlb_finish_mmu",
			     "cpu%d still maps %#lx of mm %d to pfn %lu%s (filled at %llu) after "
			     "the gather that began at %llu and visited it finished; the PTE is "
			     "now %#lx", cpu, addr, mm->slot, e->pfn, e->writable ? " writable" : "",
			     (unsigned long long)e->fill, (unsigned long long)tlb->stamp,
			     pte_val(pte));
	}
	if (!f.hit)
		for (a = tlb->vis_start; a < tlb->vis_end; a += PAGE_SIZE)
			stamp_max(slot_entry(s, s->done, mm, a >> PAGE_SHIFT), tlb->stamp);
	__atomic_fetch_sub(&s->live[mm->slot], 1, __ATOMIC_RELAXED);
	for (i = 0; i < MAX_LIVE_GATHERS; i++) {
		struct mmu_gather *me = tlb;

		if (__atomic_compare_exchange_n(&s->gathers[i], &me, NULL, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			break;
	}
	cfail_report(&f);
}

static void table_freed(struct page *table, const char *site);

static void page_release(struct mm_struct *mm, struct page *page, const char *site)
{
	struct tlb_world *tw = mm->tw;
	unsigned long pfn = page_to_pfn(page);
	struct cfail f = { 0 };
	int cpu, i;

	if (is_zero_pfn(pfn)) {
		tsan_ignore_begin();
		fail(&f, "I-ZERO", site, "the zero page let go of by an unmapper (mm %d): a PTE "
		     "of it was taken for a page of its own (vm_normal_page)", mm->slot);
		cfail_report(&f);
		return;
	}
	/* a PTE table the native path put in the page batch: freed now */
	if (__atomic_load_n(&tcw()->tables[pfn].state, __ATOMIC_RELAXED) == TBL_REMOVED) {
		table_freed(page, site);
		return;
	}
	tsan_ignore_begin();
	for (cpu = 0; cpu < tw->ncpus && !f.hit; cpu++) {
		for (i = 0; i < tw->nr_entries; i++) {
			const struct tlb_entry *e = &tw->cpu[cpu].entries[i];
			struct mm_struct *owner;

			if (e->asid && e->pfn == pfn && tlb_entry_usable(tw, cpu, e, &owner)) {
				fail(&f, "I-TLB-2", site,
				     "pfn %lu let go while cpu%d's TLB still maps it (mm %d, %#lx%s): "
				     "no flush covered it", pfn, cpu, owner->slot,
				     e->vpn << PAGE_SHIFT, e->writable ? ", writable" : "");
				break;
			}
		}
	}
	cfail_report(&f);
}

/* A table's new state, counted in nr_tables. */
static void table_state_set(struct tlb_check_world *s, struct table_shadow *t, unsigned char st)
{
	unsigned char old = __atomic_exchange_n(&t->state, st, __ATOMIC_RELAXED);

	if ((old != TBL_NONE) != (st != TBL_NONE))
		__atomic_fetch_add(&s->nr_tables, st != TBL_NONE ? 1 : -1, __ATOMIC_RELAXED);
}

static void table_removed(struct mm_struct *mm, struct page *table)
{
	struct tlb_check_world *s = tcw();
	struct table_shadow *t = &s->tables[page_to_pfn(table)];
	unsigned long ended;
	struct cfail f = { 0 };

	tsan_ignore_begin();
	if (__atomic_load_n(&t->state, __ATOMIC_RELAXED) != TBL_NONE)
		fail(&f, "I-TLB-2", "free_pgtables", "page table pfn %lu removed twice",
		     page_to_pfn(table));
	t->flushed = 0;
	t->slot = mm->slot;
	t->ctx_id = mm->context.ctx_id;
	t->removed_at = __atomic_load_n(&mm->tw->clock, __ATOMIC_RELAXED);
	rcu_gp_counts(&t->gp_begun, &ended);
	t->syncs = __atomic_load_n(&mm->tw->table_syncs, __ATOMIC_ACQUIRE);
	table_state_set(s, t, TBL_REMOVED);
	__atomic_fetch_add(&s->unflushed, 1, __ATOMIC_RELAXED);
	s->dirty = true;
	cfail_report(&f);
}

/* A flush with freed_tables of @mm that began at @stamp is complete. */
static void tables_flushed(struct mm_struct *mm, u64 stamp)
{
	struct tlb_check_world *s = tcw();
	unsigned long pfn;

	tsan_ignore_begin();
	if (__atomic_load_n(&s->unflushed, __ATOMIC_RELAXED)) {
		for (pfn = 0; pfn < s->nr_pages; pfn++) {
			struct table_shadow *t = &s->tables[pfn];

			if (__atomic_load_n(&t->state, __ATOMIC_RELAXED) == TBL_REMOVED &&
			    !t->flushed && t->slot == mm->slot && t->ctx_id == mm->context.ctx_id &&
			    t->removed_at < stamp) {
				t->flushed = 1;
				__atomic_fetch_sub(&s->unflushed, 1, __ATOMIC_RELAXED);
			}
		}
	}
	tsan_ignore_end();
}

/*
 * A table that left a pgd goes back to the page allocator (@site: through
 * the table batch, __tlb_remove_table, or the native page batch).  It must
 * have been covered by a flush with freed_tables.  On the RCU path (a
 * paravirt guest) it also waits for a grace period or a sync IPI, since
 * gup_fast may still be walking it; on the native path the flush is that
 * IPI: it reaches every CPU in mm_cpumask, where a gup_fast of the mm
 * runs with IRQs off, and flush_tlb_mm_range waits for it.
 */
static void table_free(struct page *table)
{
	table_freed(table, "__tlb_remove_table");
}

static void table_freed(struct page *table, const char *site)
{
	struct tlb_check_world *s = tcw();
	struct table_shadow *t = &s->tables[page_to_pfn(table)];
	struct task *cur = current_task;
	unsigned long begun, ended;
	struct cfail f = { 0 };

	tsan_ignore_begin();
	rcu_gp_counts(&begun, &ended);
	if (__atomic_load_n(&t->state, __ATOMIC_RELAXED) != TBL_REMOVED)
		fail(&f, "I-TLB-2", site, "pfn %lu freed as a page table but never "
		     "removed from a pgd", page_to_pfn(table));
	else if (!t->flushed)
		fail(&f, "I-TLB-2", site,
		     "page table pfn %lu (mm %d) freed before a TLB flush covered it", page_to_pfn(table),
		     t->slot);
	/* fiber mode: the model's grace periods (liburcu's in stress mode and
	 * the one-task executor's are not counted) */
	else if (tlb_world()->table_free_rcu && cur && cur->fs && ended <= t->gp_begun &&
		 __atomic_load_n(&tlb_world()->table_syncs, __ATOMIC_ACQUIRE) <= t->syncs)
		fail(&f, "I-TLB-2", site,
		     "page table pfn %lu (mm %d) freed without a grace period or a sync IPI since "
		     "it left the pgd: gup_fast may still be walking it", page_to_pfn(table), t->slot);
	if (!t->flushed && t->state == TBL_REMOVED)
		__atomic_fetch_sub(&s->unflushed, 1, __ATOMIC_RELAXED);
	table_state_set(s, t, TBL_NONE);
	cfail_report(&f);
}

static void table_batch(struct page *batch, bool queued)
{
	struct tlb_check_world *s = tcw();

	tsan_ignore_begin();
	table_state_set(s, &s->tables[page_to_pfn(batch)], queued ? TBL_BATCH : TBL_NONE);
	s->dirty = true;
	tsan_ignore_end();
}

static void ubc_deferred(struct mm_struct *mm, unsigned long addr)
{
	struct tlb_check_world *s = tcw();

	tsan_ignore_begin();
	stamp_max(slot_entry(s, s->ubc, mm, addr >> PAGE_SHIFT),
		  __atomic_load_n(&mm->tw->clock, __ATOMIC_RELAXED) + 1);
	tsan_ignore_end();
}

static void check_access(struct mm_struct *mm, unsigned long addr, bool write,
			 const struct tlb_entry *e, unsigned long val)
{
	struct tlb_check_world *s = tcw();
	struct cfail f = { 0 };
	pte_t pte;
	u64 done;

	tsan_ignore_begin();
	pte = pte_now(mm, addr);
	done = __atomic_load_n(&slot_array(s, s->done, mm)[addr >> PAGE_SHIFT], __ATOMIC_RELAXED);
	if (entry_stale(e, pte) && done > e->fill)
		fail(&f, "stale-tlb", "access",
		     "%s %#lx of mm %d through cpu%d's TLB entry for pfn %lu%s (filled at %llu), "
		     "after a gather that began at %llu unmapped it and finished; the PTE is now "
		     "%#lx", write ? "a write to" : "a read of", addr, mm->slot,
		     current_task ? current_task->cpu : -1, e->pfn, e->writable ? " writable" : "",
		     (unsigned long long)e->fill, (unsigned long long)done, pte_val(pte));
	else if (is_zero_pfn(e->pfn) && entry_stale(e, pte) &&
		 __atomic_load_n(&slot_array(s, s->cowed, mm)[addr >> PAGE_SHIFT],
				 __ATOMIC_RELAXED) > e->fill)
		fail(&f, "stale-tlb", "access",
		     "%s %#lx of mm %d through cpu%d's TLB entry for the zero page (filled at "
		     "%llu), after the write fault that copied it there: its flush "
		     "(ptep_clear_flush) missed this CPU; the PTE is now %#lx",
		     write ? "a write to" : "a read of", addr, mm->slot,
		     current_task ? current_task->cpu : -1, (unsigned long long)e->fill,
		     pte_val(pte));
	else if (is_zero_pfn(e->pfn) && (write || val))
		fail(&f, "I-ZERO", "access",
		     "%s %#lx of mm %d through cpu%d's TLB entry for the zero page%s%s: it is "
		     "mapped read only, and a write fault copies it (wp_page_copy)",
		     write ? "a write to" : "a read of", addr, mm->slot,
		     current_task ? current_task->cpu : -1, e->writable ? " (writable)" : "",
		     write ? "" : ", which holds something");
	else if (!is_zero_pfn(e->pfn) && val != anon_page_tag(mm, addr))
		fail(&f, "page-tag", "access",
		     "%#lx of mm %d reads pfn %lu, which holds %#lx, not the tag %#lx of the page "
		     "faulted there: the page is someone else's", addr, mm->slot, e->pfn, val,
		     anon_page_tag(mm, addr));
	cfail_report(&f);
}

/* I-GUP: what gup_fast takes is what the PTE maps as it takes it (the
 * re-check after folio_try_get: a PTE cleared or changed in between is a
 * page the walk must put back, not return). */
static void gup_page(struct page *page, pte_t *ptep, unsigned long addr)
{
	struct cfail f = { 0 };
	pte_t pte;

	tsan_ignore_begin();
	pte = ptep_get(ptep);
	if (!pte_present(pte) || pte_pfn(pte) != page_to_pfn(page))
		fail(&f, "I-GUP", "gup_pte_range",
		     "gup_fast returns pfn %lu for %#lx, but the PTE is now %#lx: the page it "
		     "took a reference on is no longer mapped there", page_to_pfn(page), addr,
		     pte_val(pte));
	cfail_report(&f);
}

/* do_anonymous_page installed the PTE of @addr */
static void pte_faulted(struct mm_struct *mm, unsigned long addr)
{
	struct tlb_check_world *s = tcw();

	tsan_ignore_begin();
	stamp_max(slot_entry(s, s->faulted, mm, addr >> PAGE_SHIFT), tlb_clock_tick(mm->tw));
	tsan_ignore_end();
}

/* wp_page_copy set the copy of the zero page at @addr, its flush done:
 * no TLB entry for the zero page there filled before now is usable */
static void pte_cowed(struct mm_struct *mm, unsigned long addr)
{
	struct tlb_check_world *s = tcw();

	tsan_ignore_begin();
	stamp_max(slot_entry(s, s->cowed, mm, addr >> PAGE_SHIFT), tlb_clock_tick(mm->tw));
	tsan_ignore_end();
}

/*
 * I-ZAP: once MADV_DONTNEED of [start, end), in a gather that began at
 * @stamp, has returned, no PTE there maps a page faulted in before it
 * began: whoever else changes a PTE (reclaim putting a redirtied one back)
 * does so under the PTL the zap takes, so the zap sees it.  Checked as it
 * returns and at quiescence (zap_ok).
 */
static bool zap_ok(struct tlb_check_world *s, struct mm_struct *mm, unsigned long addr,
		   u64 *at, u64 *zap)
{
	*at = __atomic_load_n(&slot_array(s, s->faulted, mm)[addr >> PAGE_SHIFT], __ATOMIC_RELAXED);
	*zap = __atomic_load_n(&slot_array(s, s->zapped, mm)[addr >> PAGE_SHIFT], __ATOMIC_RELAXED);
	return *at >= *zap;
}

void dontneed_done(struct mm_struct *mm, unsigned long start, unsigned long end, u64 stamp)
{
	struct tlb_check_world *s = tcw();
	struct cfail f = { 0 };
	unsigned long addr;
	u64 at, zap;

	tsan_ignore_begin();
	for (addr = start; addr < end && !f.hit; addr += PAGE_SIZE) {
		pte_t pte = pte_now(mm, addr);

		stamp_max(slot_entry(s, s->zapped, mm, addr >> PAGE_SHIFT), stamp);
		if (pte_present(pte) && !zap_ok(s, mm, addr, &at, &zap))
			fail(&f, "I-ZAP", "madvise_dontneed",
			     "MADV_DONTNEED of mm %d returns with %#lx still mapping pfn %lu, "
			     "faulted in at %llu, before the zap began (%llu)", mm->slot, addr,
			     pte_pfn(pte), (unsigned long long)at, (unsigned long long)stamp);
	}
	cfail_report(&f);
}

/* A present PTE that allows more than @vm_flags: writable without
 * VM_WRITE, user-accessible without any access. */
static bool pte_exceeds(pte_t pte, unsigned long vm_flags)
{
	return pte_present(pte) && ((pte_write(pte) && !(vm_flags & VM_WRITE)) ||
				    ((pte_val(pte) & _PAGE_USER) && !(vm_flags & VM_ACCESS_FLAGS)));
}

/* I-PROT: mprotect of [start, end) to @vm_flags returns with no PTE there
 * that allows more, and every VMA there at @vm_flags (a VMA of the range
 * the loop skipped); and at quiescence no PTE allows more than its VMA
 * (mm_quiescent): whoever else puts a PTE back (reclaim, a redirtied
 * lazyfree page) does so under the PTL change_pte_range takes. */
static void mprotect_done(struct mm_struct *mm, unsigned long start, unsigned long end,
			  unsigned long vm_flags)
{
	struct cfail f = { 0 };
	unsigned long addr;
	int i;

	tsan_ignore_begin();
	for (addr = start; addr < end && !f.hit; addr += PAGE_SIZE) {
		pte_t pte = pte_now(mm, addr);

		if (pte_exceeds(pte, vm_flags))
			fail(&f, "I-PROT", "mprotect",
			     "mprotect of mm %d to %s returns with the PTE of %#lx at %#lx: "
			     "more than the protection allows", mm->slot,
			     vm_flags & VM_WRITE ? "rw" : vm_flags & VM_ACCESS_FLAGS ? "r" : "none",
			     addr, pte_val(pte));
	}
	/* ... and with every VMA of [start, end) given the new flags (under
	 * mmap_lock for writing: the tree holds still).  [start, end) is what
	 * the loop did: empty when the first mprotect_fixup failed (a split
	 * past the map count), and then no VMA is in it, not even the one
	 * around start. */
	for (i = 0; start < end && i < mm->map_count && !f.hit; i++) {
		struct vm_area_struct *vma = mm->mm_mt[i];

		if (vma->vm_end > start && vma->vm_start < end &&
		    (vma->vm_flags & VM_ACCESS_FLAGS) != (vm_flags & VM_ACCESS_FLAGS))
			fail(&f, "I-PROT", "mprotect",
			     "mprotect of mm %d [%#lx, %#lx) returns with the VMA %#lx-%#lx of its "
			     "range at flags %#lx, not %#lx", mm->slot, start, end, vma->vm_start,
			     vma->vm_end, vma->vm_flags, vm_flags);
	}
	cfail_report(&f);
}

/*
 * check_mm's percpu_counter_sum() of an rss counter (@sum): the mm is
 * being freed, nobody updates its counters any more, so the sum is exact:
 * the shared count and every CPU's s32, online or not (a dead CPU's is
 * folded by percpu_counter_cpu_dead, a dying one's not yet: 6.6's
 * for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)).  A different
 * value is a wrong sum (I-READ@percpu_counter_sum); a right one that is
 * not zero is the kernel's own "Bad rss-counter state" (I-RSS).
 */
static void rss_sum_read(struct mm_struct *mm, int member, long long sum)
{
	struct cfail f = { 0 };
	long long exact;

	tsan_ignore_begin();
	exact = (long long)percpu_counter_sum_all(&mm->rss_stat[member]);
	if (sum != exact)
		fail(&f, "I-READ", "percpu_counter_sum",
		     "check_mm: percpu_counter_sum(&mm->rss_stat[%d]) of mm %d returned %lld where "
		     "the count and every CPU's counter sum to %lld%s", member, mm->slot, sum, exact,
		     !sum != !exact ? (sum ? ": a clean mm reported bad" : ": a bad rss-counter "
				       "state missed") : "");
	else if (sum)
		fail(&f, "I-RSS", "check_mm", "BUG: Bad rss-counter state mm:%d type:%d val:%lld",
		     mm->slot, member, sum);
	cfail_report(&f);
}

/* the rest of what a freed mm must be */
static void check_mm(struct mm_struct *mm)
{
	struct cfail f = { 0 };
	unsigned long i;
	int k;

	tsan_ignore_begin();
	if (atomic_long_read(&mm->pgtables_bytes))
		fail(&f, "I-RSS", "check_mm", "BUG: non-zero pgtables_bytes on freeing mm: %ld",
		     atomic_long_read(&mm->pgtables_bytes));
	if (!f.hit && atomic_read(&mm->tlb_flush_pending))
		fail(&f, "I-TLB-1", "check_mm", "mm %d freed with tlb_flush_pending %d", mm->slot,
		     atomic_read(&mm->tlb_flush_pending));
	for (i = 0; i < mm->task_size >> PMD_SHIFT && !f.hit; i++)
		if (!pmd_none(pmdp_get_lockless(&mm->pgd[i])))
			fail(&f, "I-RSS", "check_mm", "mm %d freed with a PTE table at %#lx", mm->slot,
			     i << PMD_SHIFT);
	if (!f.hit && (mm->map_count || mm->anon_vma.nr))
		fail(&f, "I-RSS", "check_mm", "mm %d freed with %d VMAs (%d on its anon_vma)",
		     mm->slot, mm->map_count, mm->anon_vma.nr);
	/* mm_count: the users' reference and one per CPU that has the mm as
	 * active_mm; the last of them frees it.  A CPU still holding it would
	 * switch away from a freed mm (mmdrop: a use-after-free). */
	if (!f.hit && raw_atomic_read(&mm->mm_users))
		fail(&f, "mm-uaf", "check_mm", "mm %d freed with mm_users %d", mm->slot,
		     raw_atomic_read(&mm->mm_users));
	for (k = 0; k < mm->tw->ncpus && !f.hit; k++)
		if (__atomic_load_n(&mm->tw->cpu[k].active_mm, __ATOMIC_RELAXED) == mm)
			fail(&f, "mm-uaf", "check_mm",
			     "mm %d freed while cpu%d still has it as active_mm", mm->slot, k);
	cfail_report(&f);
}

static const struct tlb_hooks tlb_check_hooks = {
	.gather_begin = gather_begin,
	.gather_finish = gather_finish,
	.gather_done = gather_done,
	.page_release = page_release,
	.table_removed = table_removed,
	.tables_flushed = tables_flushed,
	.table_free = table_free,
	.table_batch = table_batch,
	.ubc_deferred = ubc_deferred,
	.access = check_access,
	.read_rss_sum = rss_sum_read,
	.committed_read = tlb_committed_read,
	.check_mm = check_mm,
	.gup_page = gup_page,
	.pte_faulted = pte_faulted,
	.pte_cowed = pte_cowed,
	.pte_clear_flush = pte_clear_flush,
	.dontneed_done = dontneed_done,
	.mprotect_done = mprotect_done,
	.user_range = user_range,
	.pte_changed = pte_changed,
};

/* ---- the registered checker ---- */

static void tlb_attach(struct world *w)
{
	void (*state_gather)(const struct mmu_gather *, bool) = tlb_hooks.state_gather;

	(void)w;
	tlb_hooks = tlb_check_hooks;
	tlb_hooks.state_gather = state_gather;	/* the fuzz harness's (state.c), if any */
}

static void tlb_run_begin(struct world *w)
{
	struct tlb_check_world *s = world_layer_state(w, &tlb_check_layer);

	memset(s->done_ctx, 0, sizeof(s->done_ctx));
	memset(s->live, 0, sizeof(s->live));
	memset(s->gathers, 0, sizeof(s->gathers));
	s->gathers_hw = 0;
	s->unflushed = 0;
	memset(s->range, 0, sizeof(s->range));
	if (s->dirty) {
		memset(s->tables, 0, s->nr_pages * sizeof(*s->tables));
		s->dirty = false;
		s->nr_tables = 0;
	}
}

static void tlb_after_op(struct world *w, int cpu, struct cfail *f)
{
	struct tlb_world *tw = tlb_world_of(w);
	int i;

	(void)cpu;
	if (!READ_ONCE(tw->used))
		return;
	for (i = 0; i < TLB_MAX_MMS && !f->hit; i++)
		if (tlb_mm_is_live(tw, i) && atomic_read(&tw->mms[i].tlb_flush_pending) < 0)
			fail(f, "I-TLB-1", "op-end", "mm %d: tlb_flush_pending is %d", i,
			     atomic_read(&tw->mms[i].tlb_flush_pending));
}

/* One live mm at quiescence: no gather, rss and tables as the page tables
 * say, every mapping's rmap right. */
static void mm_quiescent(struct mm_struct *mm, const char *where, struct cfail *f)
{
	unsigned long addr, tables = 0, ptes = 0;
	u64 at, zap;
	s64 rss;

	if (atomic_read(&mm->tlb_flush_pending))
		fail(f, "I-TLB-1", where, "mm %d: tlb_flush_pending is %d with no gather live",
		     mm->slot, atomic_read(&mm->tlb_flush_pending));
	for (addr = 0; addr < mm->task_size && !f->hit; addr += PAGE_SIZE) {
		pmd_t pmd = pmdp_get_lockless(pmd_off(mm, addr));
		struct vm_area_struct *vma;
		struct page *page;
		pte_t pte;

		if (!pmd_present(pmd)) {
			addr = (addr & PMD_MASK) + PMD_SIZE - PAGE_SIZE;
			continue;
		}
		if (!(addr & ~PMD_MASK))
			tables++;
		pte = ptep_get(pte_table_base(pmd_pfn(pmd)) + pte_index(addr));
		if (!pte_present(pte))
			continue;
		page = pfn_to_page(pte_pfn(pte));
		vma = __find_vma(mm, addr);
		if (is_zero_pfn(pte_pfn(pte))) {
			/* no rmap, no rss: a read-only special PTE in a VMA */
			if (!pte_special(pte) || pte_write(pte))
				fail(f, "I-ZERO", where, "%#lx of mm %d maps the zero page with PTE "
				     "%#lx: %s", addr, mm->slot, pte_val(pte), pte_write(pte) ?
				     "writable, so a write reaches it without the copy" :
				     "not special, so vm_normal_page takes it for a page");
			else if (!vma || vma->vm_start > addr)
				fail(f, "I-RMAP", where, "the zero page mapped at %#lx of mm %d, in no "
				     "VMA", addr, mm->slot);
			else if (!zap_ok(tcw(), mm, addr, &at, &zap))
				fail(f, "I-ZAP", where,
				     "%#lx of mm %d maps the zero page, faulted in at %llu, though a "
				     "MADV_DONTNEED that began at %llu has returned", addr, mm->slot,
				     (unsigned long long)at, (unsigned long long)zap);
			else if (pte_exceeds(pte, READ_ONCE(vma->vm_flags)))
				fail(f, "I-PROT", where,
				     "%#lx of mm %d: its PTE %#lx allows more than its VMA's flags %#lx",
				     addr, mm->slot, pte_val(pte), READ_ONCE(vma->vm_flags));
			continue;
		}
		ptes++;
		if (page_anon_vma(page) != &mm->anon_vma || READ_ONCE(page->index) != addr >> PAGE_SHIFT)
			fail(f, "I-RMAP", where,
			     "%#lx of mm %d maps pfn %lu, whose rmap says %p index %#lx", addr, mm->slot,
			     pte_pfn(pte), (void *)page_anon_vma(page), READ_ONCE(page->index));
		else if (page_mapcount(page) != 1 || page_ref_count(page) < 1)
			fail(f, "I-RMAP", where, "pfn %lu mapped at %#lx of mm %d: mapcount %d, refcount %d",
			     pte_pfn(pte), addr, mm->slot, page_mapcount(page), page_ref_count(page));
		else if (!vma || vma->vm_start > addr || !vma->anon_vma)
			fail(f, "I-RMAP", where, "pfn %lu mapped at %#lx of mm %d, in no VMA with an anon_vma",
			     pte_pfn(pte), addr, mm->slot);
		else if (!zap_ok(tcw(), mm, addr, &at, &zap))
			fail(f, "I-ZAP", where,
			     "%#lx of mm %d maps pfn %lu, faulted in at %llu, though a MADV_DONTNEED "
			     "that began at %llu has returned", addr, mm->slot, pte_pfn(pte),
			     (unsigned long long)at, (unsigned long long)zap);
		else if (pte_exceeds(pte, READ_ONCE(vma->vm_flags)))
			fail(f, "I-PROT", where,
			     "%#lx of mm %d: its PTE %#lx allows more than its VMA's flags %#lx",
			     addr, mm->slot, pte_val(pte), READ_ONCE(vma->vm_flags));
	}
	if (f->hit)
		return;
	rss = percpu_counter_sum_all(&mm->rss_stat[MM_ANONPAGES]);
	if (rss != (s64)ptes)
		fail(f, "I-RSS", where, "mm %d: MM_ANONPAGES is %lld but %lu pages are mapped", mm->slot,
		     (long long)rss, ptes);
	else if (atomic_long_read(&mm->pgtables_bytes) != (long)(tables * MODEL_PAGE_SIZE))
		fail(f, "I-RSS", where, "mm %d: pgtables_bytes is %ld for %lu PTE tables", mm->slot,
		     atomic_long_read(&mm->pgtables_bytes), tables);
}

static void tlb_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct tlb_world *tw = tlb_world_of(w);
	int i, cpu;

	if (!READ_ONCE(tw->used))
		return;
	zero_page_quiescent(w, where, f);
	for (i = 0; i < TLB_MAX_MMS && !f->hit; i++)
		if (tlb_mm_is_live(tw, i))
			mm_quiescent(&tw->mms[i], where, f);
	for (cpu = 0; cpu < tw->ncpus && !f->hit; cpu++) {
		struct mm_struct *mm = tw->cpu[cpu].loaded_mm;

		if (mm && !cpumask_test_cpu(cpu, mm_cpumask(mm)))
			fail(f, "I-TLB-5", where, "cpu%d has mm %d loaded but is not in its mm_cpumask",
			     cpu, mm->slot);
	}
	if (!f->hit)
		tlb_committed_quiescent(tw, where, f);
}

static void tlb_end(struct world *w, struct cfail *f)
{
	struct tlb_world *tw = tlb_world_of(w);
	struct tlb_check_world *s = world_layer_state(w, &tlb_check_layer);
	unsigned long pfn;
	int i, cpu;

	if (!READ_ONCE(tw->used))
		return;
	for (i = 0; i < TLB_MAX_MMS && !f->hit; i++)
		if (tlb_mm_is_live(tw, i))
			fail(f, "mm-leak", "end", "mm %d still live at the end: mm_users %d, mm_count %d",
			     i, atomic_read(&tw->mms[i].mm_users), atomic_read(&tw->mms[i].mm_count));
	for (cpu = 0; cpu < tw->ncpus && !f->hit; cpu++)
		if (tw->cpu[cpu].loaded_mm || tw->cpu[cpu].active_mm)
			fail(f, "mm-leak", "end", "cpu%d still has an mm at the end", cpu);
	if (!f->hit)
		tlb_committed_quiescent(tw, "end", f);
	/* none counted: none to find (the tests' full mode looks) */
	if (!__atomic_load_n(&s->nr_tables, __ATOMIC_RELAXED) && !check_cons_full)
		return;
	for (pfn = 0; pfn < s->nr_pages && !f->hit; pfn++)
		if (s->tables[pfn].state != TBL_NONE)
			fail(f, "I-TLB-2", "end", "%s pfn %lu was never freed",
			     s->tables[pfn].state == TBL_BATCH ? "table batch" : "page table", pfn);
}

static const struct checker tlb_checker = {
	.name = "I-TLB-1..5 I-GUP I-ZAP I-PROT I-RANGE stale-tlb page-tag I-RSS I-RMAP I-ZERO "
		"mm-uaf I-COMMITTED", .layer = "tlb", .prio = 40,
	.attach = tlb_attach, .run_begin = tlb_run_begin, .after_op = tlb_after_op,
	.quiescent = tlb_quiescent, .end = tlb_end,
};
CHECKER(tlb_checker);

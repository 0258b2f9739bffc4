// SPDX-License-Identifier: MIT
/*
 * The mmu_gather (Linux 6.6 mm/mmu_gather.c, include/asm-generic/tlb.h,
 * x86's asm/tlb.h): pages unmapped by a zap wait in batches until the TLB
 * flush that covers them, then go back to the page allocator; page tables
 * wait in a table batch for the flush and then a grace period
 * (MMU_GATHER_RCU_TABLE_FREE), or, when no batch page can be had, for an
 * IPI to every CPU (tlb_remove_table_sync_one: gup_fast runs with IRQs
 * off).  mm->tlb_flush_pending counts the live gathers: a gather that
 * finishes while another is live on its mm flushes the whole mm, since the
 * other may have cleared PTEs this one found empty and not flushed them
 * yet (the MADV_DONTNEED flush miss that tlb_flush_pending closed).
 *
 * Lock order: ptlock -> pcp->lock -> zone->lock
 * (none of its own: a gather is its task's; its batch pages are allocated
 * GFP_NOWAIT under the zap's ptlock; the table batch is handed to RCU and
 * freed by the grace-period callback)
 */
#include "tlb.h"

#include "../kernel/smp.h"

/* ---- pages ---- */

static bool tlb_next_batch(struct mmu_gather *tlb)
{
	struct tlb_world *tw = tlb->mm->tw;
	struct mmu_gather_batch *batch;
	struct page *page;

	/* Limit batching if we have delayed rmaps pending */
	if (tlb->delayed_rmap && tlb->active != &tlb->local)
		return false;
	batch = tlb->active;
	if (batch->next) {
		tlb->active = batch->next;
		return true;
	}
	if (tlb->batch_count == tw->batch_count_max) {
		count_tlb_event(TLB_GATHER_BATCH_FAIL);
		return false;
	}
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);
	if (!page) {
		count_tlb_event(TLB_GATHER_BATCH_FAIL);
		return false;
	}
	count_tlb_event(TLB_GATHER_BATCH_ALLOC);
	batch = page_address(page);
	tlb->batch_count++;
	batch->next = NULL;
	batch->nr = 0;
	batch->max = MAX_GATHER_BATCH;
	tlb->active->next = batch;
	tlb->active = batch;
	return true;
}

bool __tlb_remove_page(struct mmu_gather *tlb, struct page *page, bool delay_rmap)
{
	struct mmu_gather_batch *batch = tlb->active;

	VM_BUG_ON(!tlb->end);
	(void)delay_rmap;		/* anonymous pages: never delayed */
	/* Add the page and check if we are full.  If so force a flush. */
	batch->encoded_pages[batch->nr++] = page;
	if (batch->nr == batch->max) {
		if (!tlb_next_batch(tlb)) {
			count_tlb_event(TLB_GATHER_FORCED_FLUSH);
			return true;
		}
	}
	VM_BUG_ON(tlb->active->nr > tlb->active->max);
	return false;
}

/*
 * The TLB flush that covers these pages is done: the checker sees each
 * page let go (the hook), then free_pages_and_swap_cache() drops the
 * references its PTEs held, 512 at most at a time, with a cond_resched()
 * between chunks.  The model's batches hold MAX_GATHER_BATCH (6) pages, so a
 * chunk is a whole batch: what the batching changes is that one
 * pcp->lock hold frees a batch (free_unref_page_list), not one per page.
 */
static void tlb_batch_pages_flush(struct mmu_gather *tlb)
{
	struct mmu_gather_batch *batch;

	for (batch = &tlb->local; batch && batch->nr; batch = batch->next) {
		struct page **pages = batch->encoded_pages;

		do {
			/*
			 * limit free batch count when PAGE_SIZE > 4K
			 */
			unsigned int nr = min(512U, batch->nr), i;

			for (i = 0; i < nr; i++)
				HOOK(tlb, page_release, tlb->mm, pages[i], "tlb_batch_pages_flush");
			free_pages_and_swap_cache(pages, (int)nr);
			pages += nr;
			batch->nr -= nr;

			cond_resched();
		} while (batch->nr);
	}
	tlb->active = &tlb->local;
}

static void tlb_batch_list_free(struct mmu_gather *tlb)
{
	struct mmu_gather_batch *batch, *next;

	for (batch = tlb->local.next; batch; batch = next) {
		next = batch->next;
		__free_pages(virt_to_page(batch), 0);
	}
	tlb->local.next = NULL;
}

/* ---- page tables: MMU_GATHER_RCU_TABLE_FREE ---- */

static void __tlb_remove_table_free(struct mmu_table_batch *batch)
{
	struct page *page = virt_to_page(batch);
	unsigned int i;

	for (i = 0; i < batch->nr; i++)
		__tlb_remove_table(pfn_to_page(batch->tables[i]));
	HOOK(tlb, table_batch, page, false);
	__free_pages(page, 0);
}

static void tlb_remove_table_rcu(struct rcu_head *head)
{
	__tlb_remove_table_free(container_of(head, struct mmu_table_batch, rcu));
}

static void tlb_remove_table_free(struct mmu_table_batch *batch)
{
	count_tlb_event(TLB_TABLE_RCU);
	HOOK(tlb, table_batch, virt_to_page(batch), true);
	if (bug_on(BUG_TLB_TABLE_FREE_NO_GP)) {
		__tlb_remove_table_free(batch);	/* no grace period */
		return;
	}
	call_rcu(&batch->rcu, tlb_remove_table_rcu);
}

/*
 * Invalidate page-table caches used by hardware walkers.  Then we still
 * need to RCU-sched wait while freeing the pages because software walkers
 * can still be in-flight.
 */
static void tlb_table_invalidate(struct mmu_gather *tlb)
{
	tlb_flush_mmu_tlbonly(tlb);
}

static void tlb_remove_table_smp_sync(void *arg)
{
	(void)arg;
	/* Simply deliver the interrupt */
}

/*
 * Not an RCU grace period, so the tables cannot be assumed RCU-freed; but
 * enough for software walkers that rely on IRQ disabling (gup_fast).
 */
static void tlb_remove_table_sync_one(void)
{
	struct cpumask all;

	count_tlb_event(TLB_TABLE_SYNC_ONE);
	cpumask_copy(&all, cpu_online_mask);
	preempt_disable();
	smp_call_function_many(&all, tlb_remove_table_smp_sync, NULL, true);	/* smp_call_function */
	preempt_enable();
	__atomic_fetch_add(&tlb_world()->table_syncs, 1, __ATOMIC_RELEASE);
}

static void tlb_remove_table_one(struct page *table)
{
	if (!bug_on(BUG_TLB_TABLE_FREE_NO_GP))
		tlb_remove_table_sync_one();
	__tlb_remove_table(table);
}

static void tlb_table_flush(struct mmu_gather *tlb)
{
	struct mmu_table_batch **batch = &tlb->batch;

	if (*batch) {
		tlb_table_invalidate(tlb);
		tlb_remove_table_free(*batch);
		*batch = NULL;
	}
}

void tlb_remove_table(struct mmu_gather *tlb, struct page *table)
{
	struct mmu_table_batch **batch = &tlb->batch;

	count_tlb_event(TLB_TABLE_FREE);
	if (!*batch) {
		struct page *page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);

		if (!page) {
			tlb_table_invalidate(tlb);
			tlb_remove_table_one(table);
			return;
		}
		*batch = page_address(page);
		(*batch)->nr = 0;
	}
	(*batch)->tables[(*batch)->nr++] = (uint32_t)page_to_pfn(table);
	if ((*batch)->nr == MAX_TABLE_BATCH)
		tlb_table_flush(tlb);
}

/* ---- flushing ---- */

/* x86's asm/tlb.h */
void tlb_flush(struct mmu_gather *tlb)
{
	unsigned long start = 0UL, end = TLB_FLUSH_ALL;

	if (!tlb->fullmm && !tlb->need_flush_all) {
		start = tlb->start;
		end = tlb->end;
	}
	if (end == TLB_FLUSH_ALL)
		tlb->flushed_all = true;
	flush_tlb_mm_range(tlb->mm, start, end, PAGE_SHIFT, tlb->freed_tables);
}

static void __tlb_reset_range(struct mmu_gather *tlb)
{
	if (tlb->fullmm) {
		tlb->start = tlb->end = ~0UL;
	} else {
		tlb->start = tlb->mm->task_size;
		tlb->end = 0;
	}
	tlb->freed_tables = 0;
	tlb->cleared_ptes = 0;
	tlb->cleared_pmds = 0;
}

void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb)
{
	/* Anything calling __tlb_adjust_range() also sets at least one of
	 * these bits. */
	if (!(tlb->freed_tables || tlb->cleared_ptes || tlb->cleared_pmds))
		return;
	tlb_flush(tlb);
	__tlb_reset_range(tlb);
}

static void tlb_flush_mmu_free(struct mmu_gather *tlb)
{
	tlb_table_flush(tlb);
	tlb_batch_pages_flush(tlb);
}

void tlb_flush_mmu(struct mmu_gather *tlb)
{
	if (bug_on(BUG_TLB_FREE_BEFORE_FLUSH)) {
		tlb_flush_mmu_free(tlb);	/* the pages go before the flush */
		tlb_flush_mmu_tlbonly(tlb);
		return;
	}
	tlb_flush_mmu_tlbonly(tlb);
	tlb_flush_mmu_free(tlb);
}

/* ---- a gather's life ---- */

static void __tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm, bool fullmm)
{
	struct tlb_world *tw = mm->tw;

	tlb->mm = mm;
	tlb->fullmm = fullmm;
	tlb->need_flush_all = 0;
	tlb->local.next = NULL;
	tlb->local.nr = 0;
	tlb->local.max = MMU_GATHER_BUNDLE;
	tlb->active = &tlb->local;
	tlb->batch_count = 0;
	tlb->delayed_rmap = 0;
	tlb->batch = NULL;
	tlb->vis_start = tlb->vis_end = 0;
	tlb->flushed_all = false;
	tlb->others = 0;
	__tlb_reset_range(tlb);
	count_tlb_event(TLB_GATHER);
	inc_tlb_flush_pending(tlb->mm);
	tlb->stamp = tlb_clock_tick(tw);
	HOOK(tlb, gather_begin, tlb);
	HOOK(tlb, state_gather, tlb, false);
}

/* A gather for a range of @mm: munmap, MADV_DONTNEED, mprotect. */
void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm)
{
	__tlb_gather_mmu(tlb, mm, false);
}

/* The whole of @mm, which nobody uses any more: exit_mmap. */
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm)
{
	__tlb_gather_mmu(tlb, mm, true);
}

void tlb_finish_mmu(struct mmu_gather *tlb)
{
	bool nested;

	tlb->flushed_all = false;
	/*
	 * If there are parallel threads are doing PTE changes on same range
	 * under non-exclusive lock (e.g., mmap_lock read-side) but defer TLB
	 * flush by batching, one thread may end up seeing inconsistent PTEs
	 * and result in having stale TLB entries.  So flush TLB forcefully if
	 * we detect parallel PTE batching threads.  Some syscalls, e.g.
	 * munmap(), may free page tables too: flush everything then.
	 */
	nested = mm_tlb_flush_nested(tlb->mm);
	/* the checker counts the gathers live at the read the decision is
	 * taken on (no yield point between): one that finished before it
	 * flushed what it cleared itself */
	HOOK(tlb, gather_finish, tlb);
	HOOK(tlb, state_gather, tlb, true);
	if (nested && !bug_on(BUG_TLB_NESTED_FLUSH_MISS)) {
		count_tlb_event(TLB_GATHER_NESTED);
		tlb->fullmm = 1;
		__tlb_reset_range(tlb);
		tlb->freed_tables = 1;
	}
	tlb_flush_mmu(tlb);
	tlb_batch_list_free(tlb);
	HOOK(tlb, gather_done, tlb);
	if (!bug_on(BUG_TLB_PENDING_LEAK))
		dec_tlb_flush_pending(tlb->mm);
}

void tlb_gather_pages(struct mmu_gather *tlb, void (*fn)(void *arg, struct page *page, int what),
		      void *arg)
{
	struct mmu_gather_batch *batch;
	unsigned int i;

	for (batch = &tlb->local; batch; batch = batch->next) {
		if (batch != &tlb->local)
			fn(arg, virt_to_page(batch), TLB_PAGE_BATCH);
		for (i = 0; i < batch->nr; i++)
			fn(arg, batch->encoded_pages[i], TLB_PAGE_GATHERED);
	}
	if (tlb->batch) {
		fn(arg, virt_to_page(tlb->batch), TLB_PAGE_TABLE_BATCH);
		for (i = 0; i < tlb->batch->nr; i++)
			fn(arg, pfn_to_page(tlb->batch->tables[i]), TLB_PAGE_TABLE);
	}
}

// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's bug switches (mmu_gather.c, memory.c, mmap.c),
 * their bits in tlb.h; overcommit_no_sync is util.c's.
 */
#include "tlb.h"

static const struct bug_info bug_tlb_pending_leak = {
	.bit = BUG_TLB_PENDING_LEAK,
	.name = "tlb_pending_leak", .layer = "tlb", .where = "tlb_finish_mmu",
	.caught_by = "I-TLB-1 (tlb_flush_pending not zero at quiescence)",
	.desc = "tlb_finish_mmu forgets dec_tlb_flush_pending(): mm->tlb_flush_pending "
		"never returns to zero, every later gather on the mm looks nested and "
		"ends in a full flush (seed 001: the 19% brk1 regression, fixed by "
		"e8f682574e45)",
};
BUG_SWITCH(bug_tlb_pending_leak);

static const struct bug_info bug_tlb_nested_flush_miss = {
	.bit = BUG_TLB_NESTED_FLUSH_MISS,
	.name = "tlb_nested_flush_miss", .layer = "tlb", .where = "tlb_finish_mmu",
	.caught_by = "I-TLB-3 (a nested gather ends without a full flush); stale-tlb",
	.desc = "tlb_finish_mmu does not force a full flush when another gather is live "
		"on the mm (before 99baac21e458): of two MADV_DONTNEEDs of one range, the "
		"one that finds the PTEs already clear returns before anyone flushed, and "
		"the user reads the old page through a stale TLB entry (seed 001's "
		"predecessor)",
};
BUG_SWITCH(bug_tlb_nested_flush_miss);

static const struct bug_info bug_tlb_free_before_flush = {
	.bit = BUG_TLB_FREE_BEFORE_FLUSH,
	.name = "tlb_free_before_flush", .layer = "tlb", .where = "tlb_flush_mmu",
	.caught_by = "I-TLB-2 (a page freed while a TLB still maps it); ASan: use-after-poison",
	.desc = "tlb_flush_mmu frees the gathered pages before it flushes the TLBs: "
		"another CPU still reaches a page the allocator already handed back",
};
BUG_SWITCH(bug_tlb_free_before_flush);

static const struct bug_info bug_tlb_table_free_no_gp = {
	.bit = BUG_TLB_TABLE_FREE_NO_GP,
	.name = "tlb_table_free_no_gp", .layer = "tlb", .where = "tlb_remove_table",
	.caught_by = "I-TLB-2 (a page table freed without a grace period or IPI sync); ASan",
	.desc = "page tables removed by free_pgtables are freed right after the TLB "
		"flush, without waiting for a grace period (or the sync IPI when no "
		"batch page could be had): gup_fast, walking them with IRQs off, reads "
		"freed memory",
};
BUG_SWITCH(bug_tlb_table_free_no_gp);

static const struct bug_info bug_fault_pte_nolock = {
	.bit = BUG_FAULT_PTE_NOLOCK,
	.name = "fault_pte_nolock", .layer = "tlb", .where = "do_anonymous_page",
	.caught_by = "I-CONS (a page owned by nobody), I-RSS",
	.desc = "do_anonymous_page checks the PTE is none and sets it without the PTE's "
		"lock: two threads faulting the same page both install one, and the "
		"first is lost, still counted in rss",
};
BUG_SWITCH(bug_fault_pte_nolock);

static const struct bug_info bug_committed_unacct_lost = {
	.bit = BUG_COMMITTED_UNACCT_LOST,
	.name = "committed_unacct_lost", .layer = "tlb", .where = "remove_mt",
	.caught_by = "I-COMMITTED (vm_committed_as above the accountable VMAs at quiescence)",
	.desc = "a munmap that splits a VMA leaves the piece __split_vma made for it out of "
		"remove_mt's nr_accounted: the pages it unmaps stay charged to vm_committed_as "
		"for ever, and overcommit never refuses mappings it has room for",
};
BUG_SWITCH(bug_committed_unacct_lost);

static const struct bug_info bug_zero_page_no_cow = {
	.bit = BUG_ZERO_PAGE_NO_COW,
	.name = "zero_page_no_cow", .layer = "tlb", .where = "do_wp_page",
	.caught_by = "I-ZERO (a write through the zero page's TLB entry; the zero page not zero)",
	.desc = "do_wp_page reuses the page a read-only PTE maps without asking vm_normal_page "
		"whether there is one: a write after a read fault makes the shared zero page "
		"writable in place, and every mapping of it in every mm reads what was written",
};
BUG_SWITCH(bug_zero_page_no_cow);

static const struct bug_info bug_zero_page_zap_normal = {
	.bit = BUG_ZERO_PAGE_ZAP_NORMAL,
	.name = "zero_page_zap_normal", .layer = "tlb", .where = "zap_pte_range",
	.caught_by = "bad_pte (the zero page's mapcount below zero), I-ZERO, I-RSS",
	.desc = "zap_pte_range takes the page a PTE maps from its pfn, without vm_normal_page: "
		"a PTE of the zero page is uncounted from rss it was never counted in, its rmap "
		"dropped, and the page gathered to be freed into the buddy",
};
BUG_SWITCH(bug_zero_page_zap_normal);

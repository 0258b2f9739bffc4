// SPDX-License-Identifier: MIT
#include "bugs.h"

#include <string.h>

uint64_t bugs_enabled;

const struct bug_info bug_table[NR_BUGS] = {
	[BUG_PCP_PICK_UNLOCKED] = {
		"pcp_pick_unlocked", "pcp", "free_pcppages_bulk",
		"I-PCP-1 / list-corruption; TSan: data race",
		"free_pcppages_bulk picks pages off the pcp lists in a first pass "
		"outside zone->lock (0a5f4e5b4562) but with pcp->lock dropped, as if "
		"IRQs off still made the lists CPU-local: a remote drain races the pick "
		"(seed 000)",
	},
	[BUG_PCP_FREE_NOLOCK] = {
		"pcp_free_nolock", "pcp", "free_unref_page",
		"I-PCP-1 / list-corruption; TSan: data race",
		"free_unref_page adds the page to this CPU's pcp list with preemption "
		"off but without pcp->lock (the pre-6.0 local_lock assumption): a "
		"remote drain under pcp->lock races it",
	},
	[BUG_FREE_ONE_PAGE_NOLOCK] = {
		"free_one_page_nolock", "buddy", "free_unref_page",
		"lockdep (zone->lock in __free_one_page)",
		"when pcp_spin_trylock fails, free_unref_page frees the page straight "
		"into the buddy lists without taking zone->lock",
	},
	[BUG_VMSTAT_LOST_UPDATE] = {
		"vmstat_lost_update", "vmstat", "zone_page_state_add",
		"I-BUD-4 (NR_FREE_PAGES against the free lists)",
		"folding a per-CPU diff into zone->vm_stat is a load and a store "
		"instead of atomic_long_add: a fold under zone->lock and a vmstat "
		"refresh on another CPU lose one update",
	},
	[BUG_PCP_COUNT_APART] = {
		"pcp_count_apart", "pcp", "free_unref_page",
		"I-PCP-1 (pcp->count against its lists)",
		"free_unref_page adds the page to the pcp list under pcp->lock but "
		"raises pcp->count only after unlocking: a drain in between sees a "
		"count that does not match the lists",
	},
	[BUG_PCP_LOCK_IRQ] = {
		"pcp_lock_irq", "pcp", "free_unref_page",
		"lock-irq (lockdep); deadlock with MMFUZZ_PROVE_LOCKING=0",
		"free_unref_page takes pcp->lock with spin_lock instead of "
		"pcp_spin_trylock: a free from an interrupt that arrives while this "
		"CPU holds pcp->lock spins forever (why 6.x uses trylock)",
	},
	[BUG_RCU_GP_EARLY] = {
		"rcu_gp_early", "rcu", "rcu_gp_kthread",
		"I-RCU (a reader sees an object freed under it); ASan/TSan",
		"the grace-period kthread ends a grace period as soon as all but one "
		"CPU have passed a quiescent state: a reader on the last CPU still "
		"holds what call_rcu() and synchronize_rcu() callers then free",
	},
	[BUG_LOCK_INVERSION_RARE] = {
		"lock_inversion_rare", "ktorture", "kt_slab_lock_path",
		"lockdep (lock-order@slab_lock->n->list_lock), before any deadlock",
		"a rare path (every 4th update of a slab's counters) takes "
		"n->list_lock while holding slab_lock, the reverse of the slab lock "
		"order (n->list_lock -> slab_lock): two CPUs on the two paths deadlock",
	},
	[BUG_COMPLETE_EARLY] = {
		"complete_early", "ktorture", "kt_handoff_produce",
		"I-COMP (the waiter reads unpublished work); TSan: data race",
		"the producer calls complete() before it writes the work the "
		"completion announces: a waiter woken in between reads the old value",
	},
	[BUG_CMPXCHG_DOUBLE_ONE_WORD] = {
		"cmpxchg_double_one_word", "kernel", "cmpxchg_double",
		"I-FREELIST (an object handed out twice)",
		"cmpxchg_double compares the first word only: SLUB's fast path "
		"(freelist, tid) loses its ABA guard, and a task preempted between "
		"reading the freelist and the cmpxchg installs a stale next pointer",
	},
	[BUG_PCP_FREE_BOOT_PAGESET] = {
		"pcp_free_boot_pageset", "pcp", "nr_pcp_free",
		"I-PCP-2 (pages left on a pcp while zone_pcp_disable() holds)",
		"nr_pcp_free without its check for a disabled pcp or the boot pageset "
		"(high < batch): the clamp's upper bound high - batch goes negative, "
		"a free to a disabled pcp frees nothing and its page stays there",
	},
	[BUG_REFILL_COUNTS_BATCH] = {
		"refill_counts_batch", "pcp", "__rmqueue_pcplist",
		"I-PCP-1 / I-READ (pcp->count against its lists)",
		"a refill adds the batch it asked rmqueue_bulk for to pcp->count, not "
		"the pages it got: wrong only when the buddy cannot supply a whole "
		"batch, a zone small against its batch (a configuration at the edge)",
	},
	[BUG_FREE_COUNT_AFTER_UNLOCK] = {
		"free_count_after_unlock", "vmstat", "rmqueue_bulk",
		"I-READ@zone_watermark_fast (a lockless watermark check)",
		"rmqueue_bulk takes its pages off the free lists under zone->lock but "
		"lowers NR_FREE_PAGES after dropping it (with the IRQ-safe "
		"mod_zone_page_state): right again at once, but a watermark check on "
		"another CPU in between reads free pages the lists no longer hold",
	},
	[BUG_TLB_PENDING_LEAK] = {
		"tlb_pending_leak", "tlb", "tlb_finish_mmu",
		"I-TLB-1 (tlb_flush_pending not zero at quiescence)",
		"tlb_finish_mmu forgets dec_tlb_flush_pending(): mm->tlb_flush_pending "
		"never returns to zero, every later gather on the mm looks nested and "
		"ends in a full flush (seed 001: the 19% brk1 regression, fixed by "
		"e8f682574e45)",
	},
	[BUG_TLB_NESTED_FLUSH_MISS] = {
		"tlb_nested_flush_miss", "tlb", "tlb_finish_mmu",
		"I-TLB-3 (a nested gather ends without a full flush); stale-tlb",
		"tlb_finish_mmu does not force a full flush when another gather is live "
		"on the mm (before 99baac21e458): of two MADV_DONTNEEDs of one range, the "
		"one that finds the PTEs already clear returns before anyone flushed, and "
		"the user reads the old page through a stale TLB entry (seed 001's "
		"predecessor)",
	},
	[BUG_TLB_FREE_BEFORE_FLUSH] = {
		"tlb_free_before_flush", "tlb", "tlb_flush_mmu",
		"I-TLB-2 (a page freed while a TLB still maps it); ASan: use-after-poison",
		"tlb_flush_mmu frees the gathered pages before it flushes the TLBs: "
		"another CPU still reaches a page the allocator already handed back",
	},
	[BUG_TLB_TABLE_FREE_NO_GP] = {
		"tlb_table_free_no_gp", "tlb", "tlb_remove_table",
		"I-TLB-2 (a page table freed without a grace period or IPI sync); ASan",
		"page tables removed by free_pgtables are freed right after the TLB "
		"flush, without waiting for a grace period (or the sync IPI when no "
		"batch page could be had): gup_fast, walking them with IRQs off, reads "
		"freed memory",
	},
	[BUG_FAULT_PTE_NOLOCK] = {
		"fault_pte_nolock", "tlb", "do_anonymous_page",
		"I-CONS (a page owned by nobody), I-RSS",
		"do_anonymous_page checks the PTE is none and sets it without the PTE's "
		"lock: two threads faulting the same page both install one, and the "
		"first is lost, still counted in rss",
	},
};

int bug_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_BUGS; i++)
		if (!strcmp(bug_table[i].name, name))
			return i;
	return -1;
}

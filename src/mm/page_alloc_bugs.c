// SPDX-License-Identifier: MIT
/*
 * The page allocator's bug switches (pcp lists, buddy, vmstat), their bits
 * in internal.h.  Each bites in the function .where names.
 */
#include "internal.h"

static const struct bug_info bug_pcp_pick_unlocked = {
	.bit = BUG_PCP_PICK_UNLOCKED,
	.name = "pcp_pick_unlocked", .layer = "pcp", .where = "free_pcppages_bulk",
	.caught_by = "I-PCP-1 / list-corruption; TSan: data race",
	.desc = "free_pcppages_bulk picks pages off the pcp lists in a first pass "
		"outside zone->lock (0a5f4e5b4562) but with pcp->lock dropped, as if "
		"IRQs off still made the lists CPU-local: a remote drain races the pick "
		"(seed 000)",
};
BUG_SWITCH(bug_pcp_pick_unlocked);

static const struct bug_info bug_pcp_free_nolock = {
	.bit = BUG_PCP_FREE_NOLOCK,
	.name = "pcp_free_nolock", .layer = "pcp", .where = "free_unref_page",
	.caught_by = "I-PCP-1 / list-corruption; TSan: data race",
	.desc = "free_unref_page adds the page to this CPU's pcp list with preemption "
		"off but without pcp->lock (the pre-6.0 local_lock assumption): a "
		"remote drain under pcp->lock races it",
};
BUG_SWITCH(bug_pcp_free_nolock);

static const struct bug_info bug_free_one_page_nolock = {
	.bit = BUG_FREE_ONE_PAGE_NOLOCK,
	.name = "free_one_page_nolock", .layer = "buddy", .where = "free_unref_page",
	.caught_by = "lockdep (zone->lock in __free_one_page)",
	.desc = "when pcp_spin_trylock fails, free_unref_page frees the page straight "
		"into the buddy lists without taking zone->lock",
};
BUG_SWITCH(bug_free_one_page_nolock);

static const struct bug_info bug_vmstat_lost_update = {
	.bit = BUG_VMSTAT_LOST_UPDATE,
	.name = "vmstat_lost_update", .layer = "vmstat", .where = "zone_page_state_add",
	.caught_by = "I-BUD-4 (NR_FREE_PAGES against the free lists)",
	.desc = "folding a per-CPU diff into zone->vm_stat is a load and a store "
		"instead of atomic_long_add: a fold under zone->lock and a vmstat "
		"refresh on another CPU lose one update",
};
BUG_SWITCH(bug_vmstat_lost_update);

static const struct bug_info bug_pcp_count_apart = {
	.bit = BUG_PCP_COUNT_APART,
	.name = "pcp_count_apart", .layer = "pcp", .where = "free_unref_page",
	.caught_by = "I-PCP-1 (pcp->count against its lists)",
	.desc = "free_unref_page adds the page to the pcp list under pcp->lock but "
		"raises pcp->count only after unlocking: a drain in between sees a "
		"count that does not match the lists",
};
BUG_SWITCH(bug_pcp_count_apart);

static const struct bug_info bug_pcp_lock_irq = {
	.bit = BUG_PCP_LOCK_IRQ,
	.name = "pcp_lock_irq", .layer = "pcp", .where = "free_unref_page",
	.caught_by = "lock-irq (lockdep); deadlock with MMFUZZ_PROVE_LOCKING=0",
	.desc = "free_unref_page takes pcp->lock with spin_lock instead of "
		"pcp_spin_trylock: a free from an interrupt that arrives while this "
		"CPU holds pcp->lock spins forever (why 6.x uses trylock)",
};
BUG_SWITCH(bug_pcp_lock_irq);

static const struct bug_info bug_pcp_free_boot_pageset = {
	.bit = BUG_PCP_FREE_BOOT_PAGESET,
	.name = "pcp_free_boot_pageset", .layer = "pcp", .where = "nr_pcp_free",
	.caught_by = "I-PCP-2 (pages left on a pcp while zone_pcp_disable() holds)",
	.desc = "nr_pcp_free without its check for a disabled pcp or the boot pageset "
		"(high < batch): the clamp's upper bound high - batch goes negative, "
		"a free to a disabled pcp frees nothing and its page stays there",
};
BUG_SWITCH(bug_pcp_free_boot_pageset);

static const struct bug_info bug_refill_counts_batch = {
	.bit = BUG_REFILL_COUNTS_BATCH,
	.name = "refill_counts_batch", .layer = "pcp", .where = "__rmqueue_pcplist",
	.caught_by = "I-PCP-1 / I-READ (pcp->count against its lists)",
	.desc = "a refill adds the batch it asked rmqueue_bulk for to pcp->count, not "
		"the pages it got: wrong only when the buddy cannot supply a whole "
		"batch, a zone small against its batch (a configuration at the edge)",
};
BUG_SWITCH(bug_refill_counts_batch);

static const struct bug_info bug_free_count_after_unlock = {
	.bit = BUG_FREE_COUNT_AFTER_UNLOCK,
	.name = "free_count_after_unlock", .layer = "vmstat", .where = "rmqueue_bulk",
	.caught_by = "I-READ@zone_watermark_fast (a lockless watermark check)",
	.desc = "rmqueue_bulk takes its pages off the free lists under zone->lock but "
		"lowers NR_FREE_PAGES after dropping it (with the IRQ-safe "
		"mod_zone_page_state): right again at once, but a watermark check on "
		"another CPU in between reads free pages the lists no longer hold",
};
BUG_SWITCH(bug_free_count_after_unlock);

static const struct bug_info bug_free_count_before_take = {
	.bit = BUG_FREE_COUNT_BEFORE_TAKE,
	.name = "free_count_before_take", .layer = "vmstat", .where = "rmqueue_bulk",
	.caught_by = "I-READ@__zone_watermark_ok (a lockless read while zone->lock is held)",
	.desc = "rmqueue_bulk lowers NR_FREE_PAGES by the whole batch before it takes "
		"the blocks off the free lists (and gives back what it did not get), "
		"all under zone->lock: 6.6 unlists first and accounts after, so a "
		"watermark check on another CPU in between reads fewer free pages "
		"than the lists hold and fails on pages that are there",
};
BUG_SWITCH(bug_free_count_before_take);

static const struct bug_info bug_free_count_before_list = {
	.bit = BUG_FREE_COUNT_BEFORE_LIST,
	.name = "free_count_before_list", .layer = "vmstat", .where = "free_pcppages_bulk",
	.caught_by = "I-READ@__zone_watermark_ok (the accounting above the lists by more than "
		     "the holder has in hand)",
	.desc = "free_pcppages_bulk raises NR_FREE_PAGES by the whole batch as it takes "
		"zone->lock, before freeing its blocks one by one (2.6.35's order, which "
		"72853e2 \"update free page counters after pages are placed on the "
		"free list\" fixed: \"the counters are misleading as the pages do not "
		"exist yet\"): right at the unlock, but a watermark check on another CPU "
		"while the drain works reads free pages still on the pcp",
};
BUG_SWITCH(bug_free_count_before_list);

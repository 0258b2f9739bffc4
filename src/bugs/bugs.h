/* SPDX-License-Identifier: MIT */
/*
 * The registry of bug switches: historical variants from the seed threads
 * and classes of concurrency bugs, each switched on at run time
 * (--inject NAME, or "bugs:" in a program) and each caught by a checker.
 */
#ifndef MMFUZZ_BUGS_BUGS_H
#define MMFUZZ_BUGS_BUGS_H

#include <stdbool.h>
#include <stdint.h>

/* Append only: a switch's number is its bit in the binary header, fixed
 * forever like an operation's code. */
enum bug_id {
	BUG_PCP_PICK_UNLOCKED,		/* seed 000 */
	BUG_PCP_FREE_NOLOCK,		/* missing lock on a pcp path */
	BUG_FREE_ONE_PAGE_NOLOCK,	/* missing lock on a buddy path */
	BUG_VMSTAT_LOST_UPDATE,		/* lost update on a free-page counter */
	BUG_PCP_COUNT_APART,		/* counter updated apart from its list */
	BUG_PCP_LOCK_IRQ,		/* spin_lock where IRQ reentrancy needs trylock */
	BUG_RCU_GP_EARLY,		/* a grace period ends one CPU early */
	BUG_LOCK_INVERSION_RARE,	/* two locks in the wrong order on a rare path */
	BUG_COMPLETE_EARLY,		/* complete() before the work is published */
	BUG_CMPXCHG_DOUBLE_ONE_WORD,	/* cmpxchg_double compares one word */
	BUG_PCP_FREE_BOOT_PAGESET,	/* a check for an edge of the kernel's ranges removed */
	BUG_REFILL_COUNTS_BATCH,	/* a count of what was asked, not what was got */
	BUG_FREE_COUNT_AFTER_UNLOCK,	/* a counter moved out of its lock: transiently wrong */
	BUG_TLB_PENDING_LEAK,		/* seed 001: tlb_finish_mmu without dec_tlb_flush_pending */
	BUG_TLB_NESTED_FLUSH_MISS,	/* seed 001's predecessor: no full flush when nested */
	BUG_TLB_FREE_BEFORE_FLUSH,	/* gathered pages freed before the TLB flush */
	BUG_TLB_TABLE_FREE_NO_GP,	/* page tables freed without the grace period */
	BUG_FAULT_PTE_NOLOCK,		/* a PTE changed without its ptlock */
	NR_BUGS
};

struct bug_info {
	const char *name;
	const char *layer;		/* "pcp", "buddy", "vmstat", ... */
	const char *where;		/* the model function it bites in */
	const char *caught_by;		/* the checker that should report it */
	const char *desc;
};

extern const struct bug_info bug_table[NR_BUGS];
extern uint64_t bugs_enabled;		/* bitmask of enum bug_id */

static inline bool bug_on(enum bug_id id)
{
	return __builtin_expect((bugs_enabled >> id) & 1, 0);
}

/* Look a switch up by name; -1 if there is none. */
int bug_lookup(const char *name);

#endif /* MMFUZZ_BUGS_BUGS_H */

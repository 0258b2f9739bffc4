/* SPDX-License-Identifier: MIT */
/*
 * The TLB gather layer's checker state, shared by its checkers (tlb.c) and
 * its page owners for I-CONS (tlb_owners.c).
 */
#ifndef MMFUZZ_CHECK_TLB_CHECK_H
#define MMFUZZ_CHECK_TLB_CHECK_H

#include <stdbool.h>

#include "check.h"
#include "../mm/tlb.h"

#define MAX_LIVE_GATHERS	64
/* done/ubc/faulted/zapped/cowed entries are tracked in chunks of 64, a bit each:
 * enough words for the largest mm_pages (65536) */
#define TLB_CHUNK_WORDS		(65536 / 64 / 64)

enum { TBL_NONE, TBL_REMOVED, TBL_BATCH };

/* a page table between its pmd_clear and its free; a table batch page */
struct table_shadow {
	unsigned char state;
	unsigned char flushed;		/* a freed_tables flush covered it */
	int slot;			/* the mm's slot */
	u64 ctx_id;			/* ... and ctx_id */
	u64 removed_at;			/* tlb_world->clock */
	unsigned long gp_begun;		/* grace periods begun before it was removed */
	unsigned long syncs;		/* sync IPIs done before */
};

/* the range a system call of a task was given (I-RANGE): TLB_RANGE_* */
struct user_range {
	int slot;			/* the mm's */
	int what;
	unsigned long start, end;
	u64 stamp;			/* tlb_world->clock as it began */
	/* a ptep_clear_flush() of the task's in flight (wp_page_copy): the
	 * PTE at @cf_addr of @cf_mm is clear and its flush not yet done */
	const struct mm_struct *cf_mm;
	unsigned long cf_addr;
};

struct tlb_check_world {
	struct table_shadow *tables;	/* [nr_pages] */
	unsigned long nr_pages;
	unsigned long task_pages;
	u64 *done;			/* [TLB_MAX_MMS][task_pages]: see stale-tlb */
	u64 *ubc;			/* [TLB_MAX_MMS][task_pages]: reclaim's deferred clears */
	u64 *faulted;			/* [TLB_MAX_MMS][task_pages]: when a fault installed it */
	u64 *zapped;			/* [TLB_MAX_MMS][task_pages]: a MADV_DONTNEED's begin */
	u64 *cowed;			/* [TLB_MAX_MMS][task_pages]: a copy of the zero page */
	u64 done_ctx[TLB_MAX_MMS];	/* the ctx_id done[] and ubc[] are for */
	unsigned long slots_open;	/* slots whose part of the four is unpoisoned */
	/* the chunks of each slot's four arrays written since slot_array last
	 * cleared them (every chunk after create: the arrays are not zeroed) */
	u64 chunk_dirty[TLB_MAX_MMS][TLB_CHUNK_WORDS];
	int live[TLB_MAX_MMS];		/* live gathers per mm slot */
	struct mmu_gather *gathers[MAX_LIVE_GATHERS];
	/* one past the highest slot of gathers[] used since they were last
	 * cleared (gather_begin): the slots from it on are NULL */
	u64 gathers_hw;			/* raised by stamp_max */
	struct user_range range[MAX_TASKS];	/* each task's system call's */
	int unflushed;			/* tables removed, not yet flushed */
	bool dirty;			/* tables[] may hold something */
	/* entries of tables[] that are not TBL_NONE, kept by table_state_set()
	 * (tlb.c), the one writer of a table's state after a memset: none, and
	 * a walk of tables[] for one finds none */
	int nr_tables;
};

extern struct world_layer tlb_check_layer;

/* tlb_state.c: the checker's state of the running world, and @mm's slot of
 * one of its four per-page arrays (to read; slot_entry: one entry, to be
 * written) */
struct tlb_check_world *tcw(void);
u64 *slot_array(struct tlb_check_world *s, u64 *base, struct mm_struct *mm);
u64 *slot_entry(struct tlb_check_world *s, u64 *base, struct mm_struct *mm, unsigned long vpn);

/* raise *@p to @v (a stamp only grows) */
static inline __sched_notsan void stamp_max(u64 *p, u64 v)
{
	u64 old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (old < v && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/* tlb.c: I-ZAP over [start, end) of a MADV_DONTNEED begun at @stamp;
 * tlb_range.c: I-RANGE's hooks */
void dontneed_done(struct mm_struct *mm, unsigned long start, unsigned long end, u64 stamp);
void user_range(struct mm_struct *mm, unsigned long start, unsigned long end, int what);
void pte_changed(struct mm_struct *mm, unsigned long addr, int what, bool fullmm);
void pte_clear_flush(struct mm_struct *mm, unsigned long addr, bool done);
/* another task's ptep_clear_flush() of @addr is in flight */
bool clear_flush_in_flight(const struct mm_struct *mm, unsigned long addr);

static inline bool tlb_mm_is_live(struct tlb_world *tw, int i)
{
	return !(tw->mm_free & (1UL << i)) && tw->mms[i].live;
}

/* tlb_zero.c: the zero page reserved, referenced once, unmapped, zero */
void zero_page_quiescent(struct world *w, const char *where, struct cfail *f);

/* tlb_committed.c: the overcommit accounting's checks */
void tlb_committed_read(struct mm_struct *mm, long pages, long read, long allowed);
void tlb_committed_quiescent(struct tlb_world *tw, const char *where, struct cfail *f);

#endif

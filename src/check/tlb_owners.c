// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's pages for I-CONS (check/cons.c): what the PTEs
 * map, the page tables, the tables waiting for their grace period, the
 * table batches, the pages and batch pages of every live gather, and the
 * zero page past the zones, an owner of its own: the PTEs that map it do
 * not own it, and it never reaches the buddy or a gather (which would then
 * own it twice).
 */
#include "tlb_check.h"

#include <stdio.h>

/* who: the mm's slot, and what (ptes: 0; tables: 1; a table waiting for
 * its grace period: 2; a table batch page: 3; a gathered page: 4 + kind;
 * the zero page: 8) */
#define WHO(slot, what)		((unsigned)(slot) << 4 | (unsigned)(what))

static void pte_collect(struct world *w, struct owner_sink *sk)
{
	struct tlb_world *tw = tlb_world_of(w);
	unsigned long addr;
	int i;

	if (!READ_ONCE(tw->used))
		return;
	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		if (!tlb_mm_is_live(tw, i))
			continue;
		for (addr = 0; addr < mm->task_size; addr += PMD_SIZE) {
			pmd_t pmd = pmdp_get_lockless(pmd_off(mm, addr));
			const pte_t *ptes;
			int k;

			if (!pmd_present(pmd))
				continue;
			owner_add(sk, pmd_pfn(pmd), 1, WHO(i, 1));
			ptes = pte_table_base(pmd_pfn(pmd));
			for (k = 0; k < PTRS_PER_PTE; k++)
				if (pte_present(ptep_get((pte_t *)&ptes[k])) &&
				    pte_pfn(ptes[k]) != empty_zero_pfn(pa_world(w)))
					owner_add(sk, pte_pfn(ptes[k]), 1, WHO(i, 0));
		}
	}
}

struct gather_walk {
	struct owner_sink *sk;
	const struct tlb_check_world *s;
};

static void gather_page(void *arg, struct page *page, int what)
{
	struct gather_walk *g = arg;
	unsigned long pfn = page_to_pfn(page);

	/* the tables are the table shadow's: the table batch's, and the
	 * native path's in the page batch */
	if (what != TLB_PAGE_TABLE &&
	    __atomic_load_n(&g->s->tables[pfn].state, __ATOMIC_RELAXED) == TBL_NONE)
		owner_add(g->sk, pfn, 1, WHO(0, 4 + what));
}

static void table_collect(struct world *w, struct owner_sink *sk)
{
	struct tlb_check_world *s = world_layer_state(w, &tlb_check_layer);
	int hw = (int)__atomic_load_n(&s->gathers_hw, __ATOMIC_RELAXED), i;
	struct gather_walk g = { sk, s };
	unsigned long pfn;

	/* the slots from gathers_hw on were not used since they were cleared
	 * (the full mode of the tests looks at every slot and every table:
	 * test_cons_full.c compares the two) */
	if (check_cons_full)
		hw = MAX_LIVE_GATHERS;
	for (i = 0; i < hw; i++) {
		struct mmu_gather *tlb = __atomic_load_n(&s->gathers[i], __ATOMIC_RELAXED);

		if (tlb)
			tlb_gather_pages(tlb, gather_page, &g);
	}
	/* every entry that is not TBL_NONE is counted (table_state_set): with
	 * none, the walk below adds nothing */
	if (!__atomic_load_n(&s->nr_tables, __ATOMIC_RELAXED) && !check_cons_full)
		return;
	for (pfn = 0; pfn < s->nr_pages; pfn++) {
		unsigned char st = __atomic_load_n(&s->tables[pfn].state, __ATOMIC_RELAXED);

		if (st != TBL_NONE)
			owner_add(sk, pfn, 1, st == TBL_BATCH ? WHO(0, 3) : WHO(s->tables[pfn].slot, 2));
	}
}

/* The kernel image's zero page, whether or not a PTE maps it. */
static void zero_page_collect(struct world *w, struct owner_sink *sk)
{
	owner_add(sk, empty_zero_pfn(pa_world(w)), 1, WHO(0, 8));
}

static void tlb_owner_describe(unsigned who, char *buf, size_t n)
{
	static const char *const what[] = {
		"a PTE", "the pgd", "a table waiting for its grace period", "a table batch",
		"a gather", "a gather's batch page", "a gather's table", "a gather's table batch",
	};

	if ((who & 15) == 8)
		snprintf(buf, n, "the zero page (the kernel image's, in no zone)");
	else
		snprintf(buf, n, "%s of mm %u", what[(who & 15) < 8 ? who & 15 : 0], who >> 4);
}

static const struct owner_source pte_owner = {
	.name = "tlb-ptes", .collect = pte_collect, .describe = tlb_owner_describe,
};
OWNER_SOURCE(pte_owner);

static const struct owner_source table_owner = {
	.name = "tlb-tables", .collect = table_collect, .describe = tlb_owner_describe,
};
OWNER_SOURCE(table_owner);

static const struct owner_source zero_page_owner = {
	.name = "tlb-zero-page", .collect = zero_page_collect, .describe = tlb_owner_describe,
};
OWNER_SOURCE(zero_page_owner);

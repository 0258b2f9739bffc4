// SPDX-License-Identifier: MIT
/*
 * The zero page, one task at a time (a real-mode task on two CPUs): a read
 * fault of anonymous memory maps the kernel image's zero page, shared by
 * every mm, with no allocation, no rmap, no rss and no reference; the zap,
 * MADV_FREE, reclaim, mprotect and gup_fast leave it alone, gup's slow
 * path returns it for a read; a write copies it (wp_page_copy) and flushes
 * the other CPU's entry for it.  The
 * checkers account for it (I-CONS: an owner of its own; I-ZERO: read only,
 * reserved, zero) and catch what breaks it: both switches, a zero-page PTE
 * without its special bit, a word written into it.
 *
 *   pfns: [0 .. 256) the zone's, 256 the zero page (in no zone)
 *   mm A: r0 = 2 pages, mm B: r1 = 1 page, each in a PTE table of its own
 */
#include <errno.h>
#include <string.h>

#include "mm/tlb.h"
#include "mm_world.h"
#include "tap.h"

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, 2);
	config_set(cfg, &ck_zone_pages, 256);
	config_set(cfg, &ck_pcp_high, 0);	/* pages pass straight through the pcps */
	config_set(cfg, &ck_pcp_batch, 1);
}

static long nr_free(struct world *w)
{
	return mm_zone0_free_pages(w);
}

static long rss(struct mm_struct *mm)
{
	return (long)percpu_counter_sum_all(&mm->rss_stat[MM_ANONPAGES]);
}

static pte_t *pte_of(struct mm_struct *mm, unsigned long addr)
{
	pmd_t pmd = __pmdp_get_lockless(pmd_off(mm, addr));

	return pmd_none(pmd) ? NULL : pte_table_base(pmd_pfn(pmd)) + pte_index(addr);
}

/* does @cpu's TLB hold an entry for @pfn at @addr? */
static bool tlb_holds(struct tlb_world *tw, int cpu, unsigned long addr, unsigned long pfn)
{
	int i;

	for (i = 0; i < tw->nr_entries; i++)
		if (tw->cpu[cpu].entries[i].asid && tw->cpu[cpu].entries[i].pfn == pfn &&
		    tw->cpu[cpu].entries[i].vpn == addr >> PAGE_SHIFT)
			return true;
	return false;
}

static void quiescent(void *arg)
{
	check_quiescent(arg, "test");
}

struct fault_arg {
	struct mm_struct *mm;
	unsigned long addr;
};

static void read_then_write(void *arg)
{
	struct fault_arg *f = arg;

	user_access(f->mm, f->addr, false);
	user_access(f->mm, f->addr, true);
}

static void read_then_dontneed(void *arg)
{
	struct fault_arg *f = arg;

	user_access(f->mm, f->addr, false);
	do_madvise(f->mm, f->addr, PAGE_SIZE, MADV_DONTNEED);
}

int main(void)
{
	struct world *w;
	struct tlb_world *tw;
	struct mm_struct *a, *b;
	struct page *zero, *pg[1];
	unsigned long r0, r1, zpfn, *word;
	struct fault_arg fa;
	const char *sig;
	long free0;
	pte_t pte;

	tap_plan(24);
	w = mm_test_boot(tune);
	if (!w || setjmp(mm_test_jb)) {
		diag("violation: %s: %s", g_violation.signature, g_violation.msg);
		return 1;
	}
	tw = tlb_world();
	zpfn = my_zero_pfn(0);
	zero = ZERO_PAGE(0);
	word = page_address(zero);
	ok(zpfn == pa_world(w)->nr_pages && PageReserved(zero) && page_ref_count(zero) == 1 &&
	   !page_mapcount(zero) && !word[0], "the zero page: past the zones, reserved, one "
	   "reference, no mapping counted, zero");

	a = mm_alloc();
	b = mm_alloc();
	r0 = vm_mmap(a, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	r1 = vm_mmap(b, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	free0 = nr_free(w);
	user_access(a, r0, false);
	mm_test_task.cpu = 1;
	user_access(a, r0, false);	/* cpu1 caches it too */
	mm_test_task.cpu = 0;
	user_access(a, r0 + PAGE_SIZE, false);
	user_access(b, r1, false);
	pte = *pte_of(a, r0);
	ok(pte_pfn(pte) == zpfn && pte_special(pte) && !pte_write(pte) &&
	   pte_pfn(*pte_of(a, r0 + PAGE_SIZE)) == zpfn && pte_pfn(*pte_of(b, r1)) == zpfn,
	   "read faults in two mms map the one zero page, special and read only");
	ok(!rss(a) && !rss(b) && nr_free(w) == free0 - 2,
	   "no rss, and nothing allocated but the two PTE tables");
	ok(page_ref_count(zero) == 1 && !page_mapcount(zero),
	   "the mappings take no reference and no mapcount");
	ok(tlb_holds(tw, 0, r0, zpfn) && tlb_holds(tw, 1, r0, zpfn), "both CPUs cache it");
	sig = mm_violation_of(quiescent, w);
	ok(!sig, "quiescence holds: I-CONS sees the zero page once, its own owner%s%s",
	   sig ? ": " : "", sig ? g_violation.msg : "");
	check_cons_full = true;
	sig = mm_violation_of(quiescent, w);
	check_cons_full = false;
	ok(!sig, "... and so do I-CONS's sorted intervals%s%s", sig ? ": " : "",
	   sig ? g_violation.msg : "");

	ok(!get_user_pages_fast_mm(a, r0, 1, 0, pg), "gup_fast leaves a special PTE to ordinary GUP");
	ok(get_user_pages_mm(a, r0, 1, 0, pg) == 1 && pg[0] == zero && page_ref_count(zero) == 2 &&
	   !rss(a), "get_user_pages_fast's slow path returns the zero page for a read, with a "
	   "reference (follow_page_pte)");
	put_user_page(a, pg[0]);
	ok(page_ref_count(zero) == 1, "put_user_page gives it back");
	is_int(reclaim_anon_page(a, r0), -EFAULT, "reclaim finds no page there (it is on no LRU)");
	ok(!do_madvise(a, r0, 2 * PAGE_SIZE, MADV_FREE) && pte_val(*pte_of(a, r0)) == pte_val(pte),
	   "MADV_FREE leaves the zero page's PTE as it was");
	ok(!do_mprotect_pkey(a, r0, 2 * PAGE_SIZE, PROT_READ, -1) &&
	   !do_mprotect_pkey(a, r0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, -1) &&
	   pte_special(*pte_of(a, r0)) && !pte_write(*pte_of(a, r0)),
	   "mprotect back to rw does not make it writable (can_change_pte_writable)");

	/* a write copies it: a zeroed page of its own, the old entries flushed */
	ok(!user_access(a, r0, true) && rss(a) == 1 && nr_free(w) == free0 - 3,
	   "a write fault copies it: one page allocated, rss 1");
	pte = *pte_of(a, r0);
	ok(pte_pfn(pte) != zpfn && pte_write(pte) && !pte_special(pte) &&
	   page_mapcount(pfn_to_page(pte_pfn(pte))) == 1, "the PTE maps the new page, writable");
	ok(!tlb_holds(tw, 1, r0, zpfn) && tlb_holds(tw, 0, r0, pte_pfn(pte)),
	   "cpu1's entry for the zero page went with the flush (ptep_clear_flush)");
	ok(!word[0] && !word[1], "the zero page is still zero");

	ok(get_user_pages_mm(a, r0 + PAGE_SIZE, 1, FOLL_WRITE, pg) == 1 && pg[0] != zero &&
	   rss(a) == 2 && pte_pfn(*pte_of(a, r0 + PAGE_SIZE)) == page_to_pfn(pg[0]),
	   "a write gup of the zero page faults a copy in (faultin_page) and returns it");
	put_user_page(a, pg[0]);

	/* munmap gives back the copy and the table, and nothing of the zero page */
	ok(!vm_munmap(a, r0, 2 * PAGE_SIZE) && !rss(a) && page_ref_count(zero) == 1 &&
	   !PageBuddy(zero), "munmap frees the copies, not the zero page");
	sig = mm_violation_of(quiescent, w);
	ok(!sig, "quiescence holds after%s%s", sig ? ": " : "", sig ? g_violation.msg : "");

	/* what the checkers catch */
	word[3] = 0x5a;
	sig = mm_violation_of(quiescent, w);
	word[3] = 0;
	ok(sig && !strcmp(sig, "I-ZERO@test"), "a word written into the zero page: %s",
	   sig ? sig : "no violation");
	pte = *pte_of(b, r1);
	WRITE_ONCE(pte_of(b, r1)->pte, pte_val(pte) & ~_PAGE_SPECIAL);
	sig = mm_violation_of(quiescent, w);
	WRITE_ONCE(pte_of(b, r1)->pte, pte_val(pte));
	ok(sig && !strcmp(sig, "I-ZERO@test"), "a zero-page PTE without its special bit: %s",
	   sig ? sig : "no violation");

	r0 = vm_mmap(a, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	fa = (struct fault_arg){ a, r0 };
	bugs_enabled |= 1ULL << BUG_ZERO_PAGE_NO_COW;
	sig = mm_violation_of(read_then_write, &fa);
	bugs_enabled &= ~(1ULL << BUG_ZERO_PAGE_NO_COW);
	ok(sig && !strcmp(sig, "I-ZERO@access") && !word[1],
	   "zero_page_no_cow: the write through the zero page is caught before it lands: %s",
	   sig ? sig : "no violation");

	/* the violation left IRQs off inside the access: a new world for the
	 * other switch (its own violation leaves the zap's PTE lock held) */
	w = mm_test_boot(tune);
	if (!w || setjmp(mm_test_jb)) {
		diag("violation: %s: %s", g_violation.signature, g_violation.msg);
		return 1;
	}
	b = mm_alloc();
	r1 = vm_mmap(b, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	fa = (struct fault_arg){ b, r1 };
	bugs_enabled |= 1ULL << BUG_ZERO_PAGE_ZAP_NORMAL;
	sig = mm_violation_of(read_then_dontneed, &fa);
	bugs_enabled &= ~(1ULL << BUG_ZERO_PAGE_ZAP_NORMAL);
	ok(sig && !strcmp(sig, "bad_pte@zap_pte_range"),
	   "zero_page_zap_normal: the zap that takes it for a page of its own: %s",
	   sig ? sig : "no violation");
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * The address space, one task at a time (a real-mode task, the other CPUs
 * idle): faults fill page tables and the TLB, munmap and MADV_DONTNEED
 * gather the pages and free them after the flush, the page tables after
 * the grace period, brk grows and shrinks, mprotect takes write access
 * away (and the stale writable TLB entry with it), MADV_FREE makes a page
 * reclaimable and reclaim frees it through its rmap with the batched flush,
 * a read after MADV_DONTNEED maps the zero page and a write copies it,
 * gup_fast pins a page across its unmap, and the last mmput gives
 * everything back.  Every checker runs at the end (check_final).
 *
 *   mm (64 pages = 8 PTE tables of 8):  [0 .. brk 16 ....... mmaps top-down .. 64)
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

/* entries of @cpu's TLB for @mm's loaded ASID */
static int tlb_entries_of(struct tlb_world *tw, int cpu)
{
	int i, n = 0;

	for (i = 0; i < tw->nr_entries; i++)
		n += tw->cpu[cpu].entries[i].asid != 0;
	return n;
}

static struct mm_struct *the_mm;

static void final_check(void *arg)
{
	check_final(arg);
}

/*
 * An mm of one faulted page whose rss count sits on CPU 2 (not online:
 * a CPU going down, whose count percpu_counter_cpu_dead has not folded
 * yet), then its last user and the CPUs let go of it: check_mm's
 * percpu_counter_sum() must count the dying CPU's s32 or it reads -1 for a
 * counter that sums to 0.
 */
static void drop_counted_on_cpu2(void *arg)
{
	struct mm_struct *mm = mm_alloc();
	struct percpu_counter *c;
	unsigned long a;

	(void)arg;
	a = vm_mmap(mm, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	user_access(mm, a, true);
	vm_munmap(mm, a, PAGE_SIZE);
	c = &mm->rss_stat[MM_ANONPAGES];
	c->counters[0].count -= 1;	/* cpu0's fault moved to cpu2 */
	c->counters[2].count += 1;
	mmput(mm);
	tlb_cpu_reset(tlb_world(), 0);
	tlb_cpu_reset(tlb_world(), 1);
}

int main(void)
{
	struct world *w;
	struct tlb_world *tw;
	struct mm_struct *mm;
	unsigned long a, b, brk0, free0;
	struct page *pg[4];
	const char *sig;
	int i, n;

	tap_plan(34);
	w = mm_test_boot(tune);
	if (!w || setjmp(mm_test_jb)) {
		diag("violation: %s: %s", g_violation.signature, g_violation.msg);
		return 1;
	}
	tw = tlb_world();
	free0 = (unsigned long)nr_free(w);

	mm = the_mm = mm_alloc();
	ok(mm && mm->task_size == 64 * PAGE_SIZE, "mm_alloc: an mm of 64 pages");

	/* mmap 8 pages: the top of the address space */
	a = vm_mmap(mm, 0, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	is_int((long)a, 56 * PAGE_SIZE, "mmap of 8 pages lands top-down");
	for (i = 0; i < 8; i++)
		user_access(mm, a + (unsigned long)i * PAGE_SIZE, true);
	is_int(rss(mm), 8, "eight write faults: MM_ANONPAGES 8");
	is_int(atomic_long_read(&mm->pgtables_bytes), MODEL_PAGE_SIZE, "one PTE table");
	is_int(tlb_entries_of(tw, 0), 8, "cpu0's TLB holds the eight");
	is_int(cpumask_weight(mm_cpumask(mm)), 1, "mm_cpumask: cpu0");
	n = (int)tlb_stat_sum(TLB_HIT);
	user_access(mm, a, false);
	is_int((long)tlb_stat_sum(TLB_HIT) - n, 1, "a read of a page just written hits");

	/* the other CPU touches two of them: both CPUs in mm_cpumask */
	mm_test_task.cpu = 1;
	user_access(mm, a, false);
	user_access(mm, a + PAGE_SIZE, false);
	mm_test_task.cpu = 0;
	is_int(cpumask_weight(mm_cpumask(mm)), 2, "mm_cpumask: cpu0 and cpu1");

	/* munmap half: a ranged flush on both CPUs, the pages freed */
	n = (int)tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED);
	ok(!vm_munmap(mm, a, 4 * PAGE_SIZE), "munmap of the first four");
	is_int(rss(mm), 4, "four left");
	is_int((long)tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED) - n, 1, "cpu1 got the flush IPI");
	is_int(tlb_entries_of(tw, 1), 0, "cpu1's entries for them are gone");
	is_int(tlb_entries_of(tw, 0), 4, "cpu0 keeps the other four");
	is_int(atomic_long_read(&mm->pgtables_bytes), MODEL_PAGE_SIZE,
	       "the table stays: the rest of the VMA uses it");
	ok(user_access(mm, a, false) == -EFAULT, "an access to the unmapped page faults: SIGSEGV");

	/* MADV_DONTNEED of one: it reads back as the zero page, a write copies it */
	ok(!do_madvise(mm, a + 4 * PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED), "MADV_DONTNEED of one page");
	is_int(rss(mm), 3, "three left");
	n = (int)nr_free(w);
	ok(!user_access(mm, a + 4 * PAGE_SIZE, false) && rss(mm) == 3 && nr_free(w) == n,
	   "the page faults back in as the zero page: no page allocated, no rss");
	ok(!user_access(mm, a + 4 * PAGE_SIZE, true) && rss(mm) == 4 && nr_free(w) == n - 1,
	   "a write copies it to a page of its own: four again");

	/* mprotect read-only: a write faults, a read does not */
	ok(!do_mprotect_pkey(mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ, -1),
	   "mprotect(PROT_READ) of the four");
	ok(user_access(mm, a + 5 * PAGE_SIZE, true) == -EFAULT &&
	   !user_access(mm, a + 5 * PAGE_SIZE, false), "then a write is SIGSEGV, a read is fine");
	ok(!do_mprotect_pkey(mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE, -1) &&
	   !user_access(mm, a + 5 * PAGE_SIZE, true), "writable again");

	/* MADV_FREE, then reclaim drops a clean lazyfree page */
	ok(!do_madvise(mm, a + 6 * PAGE_SIZE, 2 * PAGE_SIZE, MADV_FREE), "MADV_FREE of two pages");
	is_int(reclaim_anon_page(mm, a + 6 * PAGE_SIZE), 0, "reclaim frees a clean lazyfree page");
	user_access(mm, a + 7 * PAGE_SIZE, true);
	is_int(reclaim_anon_page(mm, a + 7 * PAGE_SIZE), -EBUSY,
	       "one written after MADV_FREE is dirty again: kept");
	is_int(rss(mm), 3, "three mapped");

	/* gup_fast pins a page; its unmap does not free it, the last put does */
	is_int(get_user_pages_fast_mm(mm, a + 4 * PAGE_SIZE, 1, FOLL_WRITE, pg), 1,
	       "gup_fast gets one page");
	ok(!vm_munmap(mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE) && page_ref_count(pg[0]) == 1,
	   "munmap of it: the pin keeps it");
	put_user_page(mm, pg[0]);

	/* brk: grow by two pages, touch them, shrink back */
	brk0 = sys_brk(mm, 0);
	b = sys_brk(mm, brk0 + 2 * PAGE_SIZE);
	user_access(mm, brk0, true);
	user_access(mm, brk0 + PAGE_SIZE, true);
	ok(b == brk0 + 2 * PAGE_SIZE && rss(mm) == 2, "brk grows by two pages, both faulted in");
	ok(sys_brk(mm, brk0) == brk0 && rss(mm) == 0, "brk shrinks back: none mapped");

	/* the last user goes: exit_mmap, then the CPUs let go of it */
	mmput(mm);
	tlb_cpu_reset(tw, 0);
	tlb_cpu_reset(tw, 1);
	rcu_barrier();
	mm_drain(w);
	is_int(nr_free(w), (long)free0, "every page back in the buddy lists");
	sig = mm_violation_of(final_check, w);
	ok(!sig, "the end checks hold%s%s", sig ? ": " : "", sig ? g_violation.msg : "");

	/* check_mm decides on its own percpu_counter_sum(): held exact */
	__cpumask_set_cpu(2, (struct cpumask *)cpu_dying_mask);
	sig = mm_violation_of(drop_counted_on_cpu2, NULL);
	ok(!sig, "check_mm: a dying CPU's rss count is in percpu_counter_sum()%s%s",
	   sig ? ": " : "", sig ? g_violation.msg : "");
	__cpumask_clear_cpu(2, (struct cpumask *)cpu_dying_mask);
	sig = mm_violation_of(drop_counted_on_cpu2, NULL);
	ok(sig && !strcmp(sig, "I-READ@percpu_counter_sum"),
	   "a count on a CPU neither online nor dying is missed by the sum: %s",
	   sig ? sig : "no violation");
	return tap_done();
}

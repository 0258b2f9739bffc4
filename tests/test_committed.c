// SPDX-License-Identifier: MIT
/*
 * The overcommit accounting, one task at a time (a real-mode task, the
 * other CPU idle), on 8192 pages and 2 CPUs at overcommit_ratio 10: what
 * each path charges to vm_committed_as and gives back, mm_compute_batch's
 * batches, overcommit_policy_handler's fold of every CPU, never's refusal
 * at the commit limit, and the checkers: a CPU left holding guess's batch
 * after a switch to never (overcommit_no_sync) turns a decision, which
 * I-READ@__vm_enough_memory reports; a lost unaccount is I-COMMITTED.
 */
#include <errno.h>
#include <string.h>

#include "mm/mman.h"
#include "mm/tlb.h"
#include "mm_world.h"
#include "tap.h"

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, 2);
	config_set(cfg, &ck_zone_pages, 8192);
	config_set(cfg, &ck_mm_pages, 1024);
	config_set(cfg, &ck_overcommit_ratio, 10);
}

static long committed(struct tlb_world *tw)
{
	return (long)percpu_counter_sum_all(&tw->vm_committed_as);
}

static unsigned long managed(struct world *w)
{
	unsigned long n = 0;
	struct zone *zone;

	(void)w;
	for_each_populated_zone(zone)
		n += zone_managed_pages(zone);
	return n;
}

static unsigned long map(struct mm_struct *mm, int pages, unsigned long prot)
{
	return vm_mmap(mm, 0, (unsigned long)pages * PAGE_SIZE, prot, MAP_PRIVATE | MAP_ANONYMOUS);
}

/* overcommit_no_sync: 600 pages charged on cpu1 under guess stay there
 * past the switch to never; cpu0's next map is admitted on the count. */
static struct mm_struct *mm_a, *mm_b;
static void no_sync_admits(void *arg)
{
	struct tlb_world *tw = arg;
	int i;

	mm_test_task.cpu = 1;
	for (i = 0; i < 10; i++)
		map(mm_b, 60, PROT_READ | PROT_WRITE);
	mm_test_task.cpu = 0;
	bugs_enabled |= 1ULL << BUG_OVERCOMMIT_NO_SYNC;
	overcommit_policy_handler(OVERCOMMIT_NEVER);
	bugs_enabled &= ~(1ULL << BUG_OVERCOMMIT_NO_SYNC);
	(void)tw;
	map(mm_a, 60, PROT_READ | PROT_WRITE);
}

/* a munmap whose unaccount is lost: I-COMMITTED once nothing is in flight */
static void lost_unacct(void *arg)
{
	struct mm_struct *mm = arg;
	unsigned long a = map(mm, 8, PROT_READ | PROT_WRITE);

	bugs_enabled |= 1ULL << BUG_COMMITTED_UNACCT_LOST;
	vm_munmap(mm, a + 2 * PAGE_SIZE, 2 * PAGE_SIZE);
	bugs_enabled &= ~(1ULL << BUG_COMMITTED_UNACCT_LOST);
	check_quiescent(mm_world, "test");
}

int main(void)
{
	struct world *w;
	struct tlb_world *tw;
	struct mm_struct *mm;
	unsigned long a, b, ram, brk0;
	long allowed, before;
	const char *sig;
	int i, n;

	tap_plan(19);
	w = mm_test_boot(tune);
	if (!w || setjmp(mm_test_jb)) {
		diag("violation: %s: %s", g_violation.signature, g_violation.msg);
		return 1;
	}
	tw = tlb_world();
	ram = managed(w);

	mm = mm_a = mm_alloc();
	ok(mm && tw->committed_live && committed(tw) == 0,
	   "the first mm_alloc makes vm_committed_as, at 0");
	is_int(tw->vm_committed_as_batch, (long)(ram / 2 / 4 > 32 ? ram / 2 / 4 : 32),
	       "guess's batch: totalram / CPUs / 4");

	a = map(mm, 8, PROT_READ | PROT_WRITE);
	is_int(committed(tw), 8, "a writable private mmap of 8 pages charges 8");
	b = map(mm, 4, PROT_READ);
	is_int(committed(tw), 8, "a read-only one charges nothing");
	ok(!do_mprotect_pkey(mm, b, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, -1) && committed(tw) == 10,
	   "mprotect to rw of 2 of its pages charges 2");
	ok(!vm_munmap(mm, a + 2 * PAGE_SIZE, 2 * PAGE_SIZE) && committed(tw) == 8,
	   "a munmap of 2 from the middle (two splits) gives 2 back");
	brk0 = sys_brk(mm, 0);
	ok(sys_brk(mm, brk0 + 3 * PAGE_SIZE) == brk0 + 3 * PAGE_SIZE && committed(tw) == 11,
	   "brk by 3 pages charges 3");
	ok(sys_brk(mm, brk0) == brk0 && committed(tw) == 8, "brk back gives them back");
	ok(!do_mprotect_pkey(mm, b, 2 * PAGE_SIZE, PROT_READ, -1) && committed(tw) == 6,
	   "mprotect to read of an unfaulted accountable VMA unaccounts it");
	is_int((long)mm->total_vm, 4 + 6, "total_vm: the pages mapped");
	is_int(percpu_counter_read(&tw->vm_committed_as), 0,
	       "all of it still in cpu0's s32: the read sees 0");

	/* cpu1 holds 500 of guess's batch: the switch to never folds it */
	mm_test_task.cpu = 1;
	for (i = 0; i < 10; i++)
		map(mm, 50, PROT_READ | PROT_WRITE);
	mm_test_task.cpu = 0;
	overcommit_policy_handler(OVERCOMMIT_NEVER);
	is_int(tw->vm_committed_as_batch, (long)(ram / 2 / 256 > 32 ? ram / 2 / 256 : 32),
	       "never's batch: max(32, totalram / CPUs / 256)");
	ok(tw->vm_committed_as.counters[0].count == 0 && tw->vm_committed_as.counters[1].count == 0 &&
	   percpu_counter_read(&tw->vm_committed_as) == 506,
	   "the handler folded both CPUs: the read is the exact 506");

	/* never refuses at the limit, on the count */
	allowed = (long)(ram * 10 / 100) - tw->admin_reserve_pages -
		  (long)(mm->total_vm / 32 < (unsigned long)tw->user_reserve_pages ?
			 mm->total_vm / 32 : (unsigned long)tw->user_reserve_pages);
	before = committed(tw);
	n = 0;
	while (n < 20 && !IS_ERR_VALUE(map(mm, 10, PROT_READ | PROT_WRITE)))
		n++;
	ok(n > 0 && n < 20, "never admits %d maps of 10 pages, then refuses", n);
	ok(committed(tw) == before + 10L * n && committed(tw) + 10 >= allowed - 32 &&
	   committed(tw) < allowed + 32,
	   "the refusal gives its charge back, within a batch of the limit (%ld of %ld)",
	   committed(tw), allowed);
	ok(IS_ERR_VALUE(map(mm, 10, PROT_READ | PROT_WRITE)) &&
	   !IS_ERR_VALUE(map(mm, 10, PROT_READ)), "a read-only map still passes");
	overcommit_policy_handler(OVERCOMMIT_GUESS);
	mmput(mm);
	tlb_cpu_reset(tw, 0);
	tlb_cpu_reset(tw, 1);
	is_int(committed(tw), 0, "exit_mmap gives back everything");

	/* the switches (each leaves the world as its violation found it) */
	sig = mm_violation_of(lost_unacct, mm_alloc());
	ok(sig && !strcmp(sig, "I-COMMITTED@test") && strstr(g_violation.msg, "is 8 pages with 6"),
	   "committed_unacct_lost: %s%s%s", sig ? sig : "no violation", sig ? ": " : "",
	   sig ? g_violation.msg : "");
	mm_a = mm_alloc();
	mm_b = mm_alloc();
	sig = mm_violation_of(no_sync_admits, tw);
	ok(sig && !strcmp(sig, "I-READ@__vm_enough_memory"),
	   "overcommit_no_sync: cpu1's 600 pages turn never's decision: %s%s%s",
	   sig ? sig : "no violation", sig ? ": " : "", sig ? g_violation.msg : "");
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's seeds reach the mechanisms they are for: each
 * seed in corpus/tlb/ runs clean under its own schedule, and the layer's
 * counters show its mechanism ran (a seed that stopped reaching it, after
 * a change to the model or to a yield site its schedule names, fails here
 * rather than silently).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/tlb.h"
#include "prog/exec.h"
#include "tap.h"

/* Run corpus/@dir/@name.mmf from its own schedule: clean, every decision fired? */
static bool run_file(struct exec *e, const char *dir, const char *name)
{
	static struct prog p;
	struct run_opts o = { .rec = REC_INPUT };
	struct run_result r;
	char path[256], err[512];
	char *text;
	bool clean;

	snprintf(path, sizeof(path), "corpus/%s/%s.mmf", dir, name);
	text = tap_slurp(path, NULL);
	if (!text || prog_parse_text(text, path, &p, err, sizeof(err))) {
		diag("%s: %s", path, text ? err : "cannot read");
		free(text);
		return false;
	}
	free(text);
	exec_run(e, &p, &o, &r);
	clean = r.outcome == RUN_CLEAN;
	if (!clean)
		diag("%s: %s: %s", path, r.v.signature, r.v.msg);
	if (r.ndec_fired != p.ndec)
		diag("%s: %d of its %d decisions fired", path, r.ndec_fired, p.ndec);
	return clean && r.ndec_fired == p.ndec;
}

/* A seed of corpus/tlb. */
static bool run_seed(struct exec *e, const char *name)
{
	return run_file(e, "tlb", name);
}

static unsigned long n(enum tlb_stat_item i)
{
	return tlb_stat_sum(i);
}

int main(void)
{
	struct exec *e = exec_create();

	tap_plan(26);
	ok(run_seed(e, "fault_munmap") && n(TLB_PGFAULT) == 5 && n(TLB_HIT) == 1 &&
	   n(TLB_LOCAL_FLUSH_ONE) >= 2 && n(TLB_TABLE_FREE) == 1 && !n(TLB_TABLE_RCU),
	   "fault_munmap: clean, 5 faults (two reads map the zero page, a write copies one), "
	   "1 TLB hit, ranged local flushes, the table freed through the page batch after the "
	   "flush (native)");
	/* zap_resched's need_resched() decision has no binary form: a readable
	 * regression, not a seed the engines get */
	ok(run_file(e, "regress", "zap_resched") && n(TLB_GATHER_NESTED) >= 1,
	   "zap_resched: clean, need_resched() broke T0's zap after one PTE (its decision fired) "
	   "and the other MADV_DONTNEED finished nested (%lu)", n(TLB_GATHER_NESTED));
	ok(run_seed(e, "threads_dontneed") && n(TLB_GATHER_NESTED) >= 1 &&
	   n(TLB_REMOTE_FLUSH_RECEIVED) >= 1,
	   "threads_dontneed: clean, a gather finished nested (full flush: %lu), IPIs received (%lu)",
	   n(TLB_GATHER_NESTED), n(TLB_REMOTE_FLUSH_RECEIVED));
	ok(run_seed(e, "brk1") && n(TLB_GATHER) >= 4 && n(TLB_LOCAL_FLUSH_ONE) >= 1 &&
	   !n(TLB_GATHER_NESTED),
	   "brk1: clean, every shrink a gather (%lu) with a one-page flush, none nested",
	   n(TLB_GATHER));
	ok(run_seed(e, "mprotect") && n(TLB_REMOTE_FLUSH_RECEIVED) >= 1 && n(TLB_HIT) >= 1,
	   "mprotect: clean, the other CPU's writable entries flushed by IPI (%lu)",
	   n(TLB_REMOTE_FLUSH_RECEIVED));
	ok(run_seed(e, "reclaim") && n(TLB_UBC_FLUSH) >= 1 && n(TLB_BATCHED_PENDING_FLUSH) >= 1,
	   "reclaim: clean, a deferred flush done by reclaim (%lu) and one by the munmap that "
	   "found it pending (%lu)", n(TLB_UBC_FLUSH), n(TLB_BATCHED_PENDING_FLUSH));
	ok(run_seed(e, "gup") && n(TLB_UBC_FLUSH) >= 1 && n(TLB_TABLE_FREE) == 1 &&
	   !n(TLB_TABLE_RCU),
	   "gup: clean, the pinned page's reclaim flushed and kept it, the table freed after the "
	   "flush IPI that waited for gup_fast (native)");
	ok(run_seed(e, "gup_zero") && n(TLB_PGFAULT) == 3 && n(TLB_REMOTE_FLUSH_RECEIVED) >= 1,
	   "gup_zero: clean, gup's slow path took the zero page for a read and faulted a copy for "
	   "a write, whose flush IPI reached the CPU holding the zero page (faults %lu)",
	   n(TLB_PGFAULT));
	ok(run_seed(e, "gup_recheck") && n(TLB_GUP_FAST_RECHECK) == 1,
	   "gup_recheck: clean, gup_fast found the PTE gone after taking its reference and put "
	   "the page back (%lu)", n(TLB_GUP_FAST_RECHECK));
	ok(run_seed(e, "exit_lazy") && n(TLB_LAZY_SWITCH) >= 1 && n(TLB_SWITCH_FLUSH) >= 2,
	   "exit_lazy: clean, a lazy CPU switched to init_mm on a flush (%lu), ASIDs flushed at "
	   "switch_mm (%lu)", n(TLB_LAZY_SWITCH), n(TLB_SWITCH_FLUSH));
	ok(run_seed(e, "edge_batches") && n(TLB_GATHER_FORCED_FLUSH) >= 1 &&
	   n(TLB_GATHER_BATCH_FAIL) >= 1 && n(TLB_FLUSH_REQUESTS_FULL) == n(TLB_FLUSH_REQUESTS),
	   "edge_batches: clean, the batch limit forced a flush mid-zap, every flush full at "
	   "ceiling 0");
	ok(run_seed(e, "table_sync") && n(TLB_TABLE_SYNC_ONE) >= 1 && !n(TLB_TABLE_RCU),
	   "table_sync: clean, no table batch page: the sync IPI, then the table freed");
	ok(run_seed(e, "zap_deferred_flush") && n(TLB_BATCHED_PENDING_FLUSH) == 1 &&
	   n(TLB_UBC_FLUSH) == 1,
	   "zap_deferred_flush: clean, the zap of the page whose flush reclaim deferred flushed "
	   "first (flush_tlb_batched_pending: %lu), reclaim's own flush after (%lu)",
	   n(TLB_BATCHED_PENDING_FLUSH), n(TLB_UBC_FLUSH));
	ok(run_seed(e, "zap_reclaim_window") && n(TLB_GATHER) >= 3 && !n(TLB_UBC_FLUSH),
	   "zap_reclaim_window: clean, the zap inside reclaim's clear and put-back (no deferred "
	   "flush: nobody has the mm loaded)");
	ok(run_seed(e, "prot_reclaim_window") && !n(TLB_UBC_FLUSH),
	   "prot_reclaim_window: clean, the mprotect inside reclaim's clear and put-back");
	ok(run_seed(e, "fault_race") && n(TLB_PGFAULT) == 2,
	   "fault_race: clean, two faults of one page (%lu), the second waited for the PTE lock "
	   "and found the page installed", n(TLB_PGFAULT));
	ok(run_seed(e, "fault_table_race") && n(TLB_PGFAULT) == 2,
	   "fault_table_race: clean, two faults under one missing PTE table (%lu), the second "
	   "install waited for page_table_lock", n(TLB_PGFAULT));
	ok(run_seed(e, "reclaim_isolate_race") && n(TLB_REMOTE_FLUSH_RECEIVED) >= 1,
	   "reclaim_isolate_race: clean, the zap waited for reclaim's isolation under the PTE "
	   "lock and freed the page once, after its flush reached the reclaimer's CPU (%lu)",
	   n(TLB_REMOTE_FLUSH_RECEIVED));
	ok(run_seed(e, "rmap_walk_unlink") && n(TLB_TABLE_FREE) == 1 && !n(TLB_UBC_FLUSH),
	   "rmap_walk_unlink: clean, munmap's unlink waited for the rmap walk, which found the PTE "
	   "zapped; the table freed after the flush");
	ok(run_seed(e, "fault_present_zap") && n(TLB_PGFAULT) == 2,
	   "fault_present_zap: clean, the second fault found the page present (%lu faults) and the "
	   "zap waited for its PTE lock", n(TLB_PGFAULT));
	ok(run_seed(e, "free_dontneed_race") && n(TLB_PGFAULT) == 1,
	   "free_dontneed_race: clean, MADV_DONTNEED right after MADV_FREE's PTE section zapped "
	   "the page it left clean");
	ok(run_seed(e, "range_edges") && n(TLB_PGFAULT) == 11,
	   "range_edges: clean, 11 faults (%lu): the 8 pages, the second mapping's, and pages 6 "
	   "and 7 again after the MADV_DONTNEED across the three VMAs", n(TLB_PGFAULT));
	ok(run_seed(e, "mmgrab_race") && n(TLB_PGFAULT) == 1,
	   "mmgrab_race: clean, the second CPU grabbed the mm while the first was parked at its "
	   "mmgrab, and found the page the first faulted in (faults %lu)", n(TLB_PGFAULT));
	ok(run_seed(e, "pending_race") && n(TLB_GATHER_NESTED) >= 1,
	   "pending_race: clean, a gather that began while the other's increment was pending "
	   "counted it and finished nested (full flush: %lu)", n(TLB_GATHER_NESTED));
	ok(run_seed(e, "switch_back_flush") && n(TLB_SWITCH_FLUSH) == 4 && n(TLB_PGFAULT) == 3,
	   "switch_back_flush: clean, the CPU switching back found its kept ASID a generation "
	   "behind and flushed it (ASID flushes %lu: one more than the three new ASIDs), then "
	   "faulted the page in again (faults %lu)", n(TLB_SWITCH_FLUSH), n(TLB_PGFAULT));
	ok(run_seed(e, "ubc_cmpxchg_window") && n(TLB_BATCHED_PENDING_FLUSH) == 2 &&
	   n(TLB_UBC_FLUSH) == 3,
	   "ubc_cmpxchg_window: clean, both zaps flushed the deferred flushes they found pending "
	   "(%lu: the second found the one deferred after the first read the count still "
	   "pending), the three reclaims flushed their own (%lu)", n(TLB_BATCHED_PENDING_FLUSH),
	   n(TLB_UBC_FLUSH));
	exec_destroy(e);
	return tap_done();
}

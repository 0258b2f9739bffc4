// SPDX-License-Identifier: MIT
/*
 * The page allocator's seeds reach the mechanisms they are for: each seed
 * in corpus/pagealloc/ named below runs clean, and the model's counters
 * show its mechanism ran (a seed that stopped reaching it, after a change
 * to the model or the format, fails here rather than silently).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/internal.h"
#include "prog/exec.h"
#include "tap.h"

/* Run corpus/pagealloc/@name.mmf from its own schedule: clean? */
static bool run_seed(struct exec *e, const char *name)
{
	static struct prog p;
	struct run_opts o = { 0 };
	struct run_result r;
	char path[256], err[512];
	char *text;
	bool clean;

	snprintf(path, sizeof(path), "corpus/pagealloc/%s.mmf", name);
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
	return clean;
}

static unsigned long nstat(enum mm_stat_item i)
{
	return mm_stat_sum(i);
}

int main(void)
{
	struct exec *e = exec_create();

	tap_plan(8);
	ok(run_seed(e, "highatomic") && nstat(MM_HIGHATOMIC_RESERVE) == 1 && nstat(MM_SLOWPATH) >= 1,
	   "highatomic: clean, one pageblock reserved in the slow path (%lu)",
	   nstat(MM_HIGHATOMIC_RESERVE));
	ok(run_seed(e, "nofragment") && nstat(MM_NOFRAGMENT_RETRY) == 1 &&
	   sum_vm_event(PGALLOC_DMA32) > 0,
	   "nofragment: clean, DMA32 used (%lu pages), one pass without ALLOC_NOFRAGMENT (%lu)",
	   sum_vm_event(PGALLOC_DMA32), nstat(MM_NOFRAGMENT_RETRY));
	ok(run_seed(e, "slowpath") && nstat(MM_DIRECT_RECLAIM) >= 1 && nstat(MM_OOM) >= 1 &&
	   nstat(MM_WARN_ALLOC) >= 1 && nstat(MM_NOFAIL_STOP) == 1,
	   "slowpath: clean, reclaim without progress (%lu), the OOM point (%lu), warnings (%lu), "
	   "a __GFP_NOFAIL stop (%lu)", nstat(MM_DIRECT_RECLAIM), nstat(MM_OOM),
	   nstat(MM_WARN_ALLOC), nstat(MM_NOFAIL_STOP));
	ok(run_seed(e, "reclaim_retry") && nstat(MM_RECLAIM_RETRY) == 16 &&
	   nstat(MM_HIGHATOMIC_RESERVE) == 1 && nstat(MM_HIGHATOMIC_UNRESERVE) == 1,
	   "reclaim_retry: clean, 16 retries (%lu), the reserve given back (%lu)",
	   nstat(MM_RECLAIM_RETRY), nstat(MM_HIGHATOMIC_UNRESERVE));
	ok(run_seed(e, "compound"), "compound: clean (folios freed through both paths)");
	ok(run_seed(e, "lowmem") && zone_by_idx(mm_world, 0)->lowmem_reserve[ZONE_NORMAL] == 1 &&
	   sum_vm_event(PGALLOC_DMA32) > 0 && nstat(MM_ALLOC_FAIL) >= 1,
	   "lowmem: clean, DMA32 keeps 1 page from Normal's allocations, both zones run dry");
	ok(run_seed(e, "drain_batches") && nstat(MM_PCP_DRAIN) == 4,
	   "drain_batches: clean, 6.6.45's drain re-reads the count after its relock: four "
	   "batches of at most 2 (%lu), the three pages freed in the window among them",
	   nstat(MM_PCP_DRAIN));
	ok(run_seed(e, "reclaim_active") && nstat(MM_PCP_BULK_FREE) >= 1,
	   "reclaim_active: clean, a free during balance_pgdat bulk-frees at batch << 2 = 8, "
	   "under high (32) (bulk frees: %lu)", nstat(MM_PCP_BULK_FREE));
	exec_destroy(e);
	return tap_done();
}

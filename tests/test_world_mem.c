// SPDX-License-Identifier: MIT
/*
 * World memory (src/world/world.c: world_calloc, world_free): a world's arrays are
 * kept for the next world instead of going back to malloc, so a fuzzing
 * campaign that builds a world at every miss of its world cache does not
 * fault its memory in again.  What a user relies on: a block comes back
 * zeroed whatever the last world wrote, a smaller array of the same class
 * reuses the block, a world built from the blocks of worlds that ran runs
 * the same program to the same trace as a world built from fresh memory,
 * and under ASan an access to a kept block, or past what was asked, is
 * still a report.  A block given back with world_free_zeroed (its layer
 * says it is zero again) is not cleared by the next world_calloc, but what
 * it did not promise is; a broken promise aborts when the tests check them
 * (wmem_verify_zero).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mm/internal.h"
#include "prog/exec.h"
#include "tap.h"

static int touch_freed(void *arg)
{
	volatile char *p = world_calloc(1000, 1);

	world_free((void *)p);
	p[10] = 1;	/* the block is kept, poisoned: a report */
	(void)arg;
	return 0;
}

static int touch_past(void *arg)
{
	volatile char *p = world_calloc(1000, 1);

	p[1000] = 1;	/* inside the 1024-byte class, past the 1000 asked */
	world_free((void *)p);
	(void)arg;
	return 0;
}

static int touch_zeroed(void *arg)
{
	volatile char *p = world_calloc(1000, 1);

	world_free_zeroed((void *)p);
	p[10] = 1;	/* kept, poisoned: a report */
	(void)arg;
	return 0;
}

static int touch_past_kept(void *arg)
{
	volatile char *p = world_calloc(1000, 1);

	world_free((void *)p);
	p = world_calloc(900, 1);	/* the same block, from the kept ones */
	p[950] = 1;	/* past the 900 asked this time */
	world_free((void *)p);
	(void)arg;
	return 0;
}

static int break_promise(void *arg)
{
	char *p = world_calloc(1000, 1);

	p[999] = 1;
	wmem_verify_zero = true;
	world_free_zeroed(p);	/* aborts */
	(void)arg;
	return 0;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* corpus/@path run at @zone_pages pages a zone: its trace hash, 0 if it
 * did not run clean */
static uint64_t run_at(struct exec *e, const char *path, long zone_pages)
{
	static struct prog p;
	struct run_opts o = { 0 };
	struct run_result r;
	char err[512], *text = tap_slurp(path, NULL);

	if (!text || prog_parse_text(text, path, &p, err, sizeof(err))) {
		diag("%s: %s", path, text ? err : "cannot read");
		free(text);
		return 0;
	}
	free(text);
	config_set(&p.cfg, &ck_zone_pages, zone_pages);
	if (exec_run(e, &p, &o, &r) || r.outcome != RUN_CLEAN) {
		diag("%s at zone_pages %ld: %s", path, zone_pages, r.v.signature);
		return 0;
	}
	return r.trace_hash;
}

int main(void)
{
	static const char *const seed[] = { "corpus/tlb/fault_munmap.mmf", "corpus/tlb/brk1.mmf" };
	static const long sizes[] = { 1024, 2048, 512, 4096, 1536, 3072, 768, 2560, 1280, 3584 };
	uint64_t fresh[2], again[2];
	unsigned char *a, *b, *c;
	unsigned long clean;
	struct exec *e;
	char out[4096];
	unsigned i, k;
	int st;

	tap_plan(10);

	a = world_calloc(3000, 1);
	ok(a && ((uintptr_t)a % PERCPU_SLOT_BYTES) == 0 && all_zero(a, 3000),
	   "world_calloc: zeroed, aligned to a pair of lines");
	memset(a, 0xa5, 3000);
	world_free(a);
	b = world_calloc(2500, 1);	/* the same 4096-byte class */
	ok(b == a && all_zero(b, 2500),
	   "a freed block is kept: the next array of its class gets it back, zeroed");
	world_free(b);

	/* the 4096-byte class again: 3000 bytes left dirty, 2500 of them
	 * cleared and promised zero, then 3000 asked */
	a = world_calloc(3000, 1);
	memset(a, 0xa5, 3000);
	world_free(a);
	b = world_calloc(2500, 1);
	world_free_zeroed(b);
	clean = wmem_clean_bytes;
	c = world_calloc(3000, 1);
	ok(c == a && all_zero(c, 3000) && wmem_clean_bytes - clean == 2500,
	   "world_free_zeroed: the next world_calloc of the class takes the 2500 bytes promised "
	   "zero as they are (%lu) and clears the 500 past them, dirty before",
	   wmem_clean_bytes - clean);
	world_free(c);
	st = tap_in_child(break_promise, NULL, out, sizeof(out));
	ok(st != 0 && strstr(out, "world_free_zeroed: byte 999 of 1000"),
	   "wmem_verify_zero: a block promised zero that is not aborts");

	/*
	 * Each seed at 2048 pages a zone in a new executor (the first worlds of
	 * the process: fresh memory), then, in another, after runs at ten other
	 * sizes, more than the world cache holds: the world it builds again
	 * takes blocks that worlds which ran left dirty.
	 */
	for (k = 0; k < 2; k++) {
		e = exec_create();
		fresh[k] = e ? run_at(e, seed[k], 2048) : 0;
		exec_destroy(e);
	}
	e = exec_create();
	for (i = 0; e && i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (k = 0; k < 2; k++)
			run_at(e, seed[k], sizes[i]);
	for (k = 0; k < 2; k++)
		again[k] = e ? run_at(e, seed[k], 2048) : 0;
	exec_destroy(e);
	ok(fresh[0] && fresh[0] == again[0] && fresh[1] == again[1],
	   "a world rebuilt from kept blocks runs each seed clean to the same trace hash as a fresh one "
	   "(%016llx %016llx)", (unsigned long long)again[0], (unsigned long long)again[1]);
	ok(fresh[0] != fresh[1], "the two seeds differ (the hash says something)");

	if (MMFUZZ_ASAN) {
		st = tap_in_child(touch_freed, NULL, out, sizeof(out));
		ok(st != 0 && strstr(out, "use-after-poison") && strstr(out, "touch_freed"),
		   "ASan: a write to a kept block is a use-after-poison report");
		st = tap_in_child(touch_past, NULL, out, sizeof(out));
		ok(st != 0 && strstr(out, "use-after-poison") && strstr(out, "touch_past"),
		   "ASan: a write past the size asked, inside the class, is a report");
		st = tap_in_child(touch_zeroed, NULL, out, sizeof(out));
		ok(st != 0 && strstr(out, "use-after-poison") && strstr(out, "touch_zeroed"),
		   "ASan: a write to a block given back zeroed is a report");
		st = tap_in_child(touch_past_kept, NULL, out, sizeof(out));
		ok(st != 0 && strstr(out, "use-after-poison") && strstr(out, "touch_past_kept"),
		   "ASan: a write past the size asked of a block taken again from the kept ones "
		   "is a report");
	} else {
		ok(1, "# SKIP ASan build only");
		ok(1, "# SKIP ASan build only");
		ok(1, "# SKIP ASan build only");
		ok(1, "# SKIP ASan build only");
	}
	return tap_done();
}

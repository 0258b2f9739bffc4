// SPDX-License-Identifier: MIT
/*
 * Deferred struct-page init (src/mm/deferred_init.c): a world booted with
 * it pending (defer_init's first_deferred_pfn after one section, holes and
 * reserved ranges from memblock, managed_pages earned by what boot freed,
 * the struct pages past it poisoned, watermarks zero, the static key on);
 * page_alloc_init_late run by one task initialising and freeing the rest;
 * then on fibers under PCT: pgdatinit kthreads with padata helpers racing
 * allocations from process and interrupt context (deferred_grow_zone), on
 * one node and on two, clean under every schedule; and each of the
 * layer's four bug switches caught by its checker.
 */
#include <errno.h>
#include <limits.h>

#include "check/deferred_check.h"
#include "mm/deferred.h"
#include "mm_world.h"
#include "tap.h"

static bool g_quiesce, g_two_waiters;
static int g_nodes = 1, g_cpus = 2, g_threads = DEFERRED_THREADS_ONE;
static long g_holes, g_reserved;

/*
 * 256 pages a zone, MAX_ORDER 3 (8-page blocks), sections of 16 pages;
 * pages pass straight through the pcps.  With holes 0xa5 (place 5, len
 * 5: 16 pages) and reserved 0x2a (place 10, len 1: 4 pages) on node 0:
 *   0 [16 initialised][ deferred 16..255: hole 47..62, reserved 87..90 ]
 */
static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, g_cpus);
	config_set(cfg, &ck_nodes, g_nodes);
	config_set(cfg, &ck_zone_pages, 256);
	config_set(cfg, &ck_max_order, 3);
	config_set(cfg, &ck_pageblock_order, 3);
	config_set(cfg, &ck_pcp_high, 0);
	config_set(cfg, &ck_pcp_batch, 1);
	config_set(cfg, &ck_deferred_init, 1);
	config_set(cfg, &ck_section_order, 1);
	config_set(cfg, &ck_memblock_holes, g_holes);
	config_set(cfg, &ck_memblock_reserved, g_reserved);
	config_set(cfg, &ck_deferred_threads, g_threads);
}

static void final_check(void *w)
{
	check_final(w);
}

static void claimed_init(void *arg)
{
	(void)arg;
	deferred_init_memmap(NODE_DATA(0));
	deferred_init_wait();
}

static void init_late(void *arg)
{
	(void)arg;
	page_alloc_init_late();
}

#define NHELD 16
static struct page *held[4][NHELD];
static unsigned int held_order[4][NHELD];
static int nheld[4];

/* The executor's rule (src/prog/exec.c quiescent()): no kthread inside
 * something it does with preemption or interrupts off. */
static __sched_notsan bool kthreads_quiet(struct task *self)
{
	int i;

	for (i = 0; i < self->fs->ntasks; i++) {
		const struct task *k = &self->fs->task[i];

		if (k != self && k->state != TASK_DONE &&
		    (k->preempt_count || k->irq_depth || k->irq_active))
			return false;
	}
	return true;
}

/* T0: page_alloc_init_late; T1 (and T3): allocations of order 0..3 that
 * exhaust the initialised pages; T2: GFP_ATOMIC in interrupt context */
static void body(struct task *t, void *arg)
{
	int i, id = t->id;

	(void)arg;
	if (id == 0 && g_quiesce) {
		/* page_alloc_init_late in two halves, the checks at quiescence
		 * between them: I-CONS and I-DI-1 while the kthreads run */
		deferred_init_start(t->fs);
		for (i = 0; i < 24; i++) {
			sched_point("quiescent");
			if (kthreads_quiet(t))
				check_quiescent(mm_world, "quiescence");
		}
		deferred_init_wait();
		return;
	}
	if (id == 0 || (id == 1 && g_two_waiters)) {
		page_alloc_init_late();
		return;
	}
	if (t->irq_ctx)
		fsched_irq_enter(t, NULL);
	for (i = 0; i < (t->irq_ctx ? 4 : 8) && nheld[id] < NHELD; i++) {
		unsigned int order = t->irq_ctx ? 0 : (unsigned int)(i % 4);
		struct page *p = alloc_pages((t->irq_ctx ? GFP_ATOMIC : GFP_KERNEL) | __GFP_NOWARN,
					     order);

		if (p) {
			held[id][nheld[id]] = p;
			held_order[id][nheld[id]++] = order;
		}
	}
	if (t->irq_ctx) {
		fsched_irq_exit(t);
		yield_point(YIELD_SITE(YP_IRQ, "irq_exit"));
	}
	sched_point("allocated");
	for (i = 0; i < nheld[id] / 2; i++)
		__free_pages(held[id][i], held_order[id][i]);
	memmove(held[id], held[id] + i, sizeof(held[id][0]) * (size_t)(nheld[id] - i));
	memmove(held_order[id], held_order[id] + i, sizeof(held_order[id][0]) * (size_t)(nheld[id] - i));
	nheld[id] -= i;
}

struct outcome {
	int clean, runs;
	unsigned long grows, grows_irq, nworks_max;
	const char *sig;		/* the first violation's signature */
	char msg[256];
};

/* @seeds PCT schedules of @ntasks tasks on the world @w; each ends with
 * every page given back and check_final. */
static enum sched_kind g_kind = POL_PCT;

static void schedules(struct world *w, int ntasks, int seeds, struct outcome *o)
{
	static const struct task_init init[4] = {
		{ 0, false }, { 1, false }, { 1, true }, { 0, false },
	};
	struct fsched *fs = fsched_create(ntasks + 8);
	struct sched_policy pol;
	int seed, k, i, nid, r;

	memset(o, 0, sizeof(*o));
	for (seed = 1; seed <= seeds; seed++) {
		world_reset(w);
		shadow_run_begin(w, (uint64_t)seed + 1);
		check_run_begin(w);
		current_task = &mm_test_task;
		memset(nheld, 0, sizeof(nheld));
		memset(&pol, 0, sizeof(pol));
		pol.kind = g_kind;
		pol.depth = 3;
		pol.seed = (uint64_t)seed;
		pol.horizon = 3000;
		violation_reset();
		o->runs++;
		r = fsched_run(fs, ntasks, g_cpus, init, &pol, body, NULL);
		current_task = &mm_test_task;
		mm_test_task.cpu = 0;
		if (r) {
			if (!o->sig) {
				o->sig = g_violation.signature;
				snprintf(o->msg, sizeof(o->msg), "seed %d: %s", seed, g_violation.msg);
			}
			continue;
		}
		for (nid = 0; nid < g_nodes; nid++) {
			struct deferred_node_stat st;

			deferred_node_stat_get(w, nid, &st);
			o->grows += st.nr_grows;
			o->grows_irq += st.nr_grows_irq;
			if ((unsigned long)st.nworks > o->nworks_max)
				o->nworks_max = (unsigned long)st.nworks;
		}
		for (k = 0; k < 4; k++)
			for (i = 0; i < nheld[k]; i++)
				__free_pages(held[k][i], held_order[k][i]);
		memset(nheld, 0, sizeof(nheld));
		mm_drain(w);
		world_drain(w);
		{
			const char *sig = mm_violation_of(final_check, w);

			if (!sig && !deferred_init_pending(w))
				o->clean++;
			else if (!o->sig) {
				o->sig = sig ? sig : "pending";
				snprintf(o->msg, sizeof(o->msg), "seed %d: %s", seed,
					 sig ? g_violation.msg : "init still pending");
			}
		}
	}
	fsched_destroy(fs);
}

static const char *switch_caught(int bit, const char *want1, const char *want2, int seeds,
				 struct world *w, int ntasks)
{
	static char buf[320];
	struct outcome o;

	bugs_enabled = 1ULL << bit;
	schedules(w, ntasks, seeds, &o);
	bugs_enabled = 0;
	snprintf(buf, sizeof(buf), "%s (%s)", o.sig ? o.sig : "not caught", o.msg);
	if (!o.sig || (strncmp(o.sig, want1, strlen(want1)) &&
		       (!want2 || strncmp(o.sig, want2, strlen(want2)))))
		return NULL;
	return buf;
}

/*
 * What a run may change and a reset must put back, as bytes: the memmap,
 * each zone's pageblock types and (ASan) which struct pages and which
 * pages of memory are poisoned.  Read past the sanitizer: the deferred
 * struct pages are poisoned on purpose.
 */
struct world_image {
	unsigned char *memmap, *pb, *poison;
	size_t memmap_len, pb_len, poison_len;
};

static __attribute__((no_sanitize("address"))) void image_take(struct world *w,
								struct world_image *im)
{
	struct pagealloc_world *pa = pa_world(w);
	const unsigned char *m = (const unsigned char *)pa->memmap;
	size_t i, at = 0;
	int z;

	im->memmap_len = pa->nr_pages * sizeof(struct page);
	im->pb_len = 0;
	for (z = 0; z < pa->nr_zones; z++)
		im->pb_len += zone_by_idx(w, z)->spanned_pages >> pa->pb_order;
	im->poison_len = 2 * pa->nr_pages;
	im->memmap = malloc(im->memmap_len);
	im->pb = malloc(im->pb_len);
	im->poison = calloc(im->poison_len, 1);
	if (!im->memmap || !im->pb || !im->poison)
		return;
	for (i = 0; i < im->memmap_len; i++)
		im->memmap[i] = m[i];
	for (z = 0; z < pa->nr_zones; z++) {
		size_t n = zone_by_idx(w, z)->spanned_pages >> pa->pb_order;

		memcpy(im->pb + at, zone_by_idx(w, z)->pageblock_mt, n);
		at += n;
	}
#if MMFUZZ_ASAN
	for (i = 0; i < pa->nr_pages; i++) {
		im->poison[2 * i] = __asan_region_is_poisoned(&pa->memmap[i], sizeof(struct page)) != NULL;
		im->poison[2 * i + 1] = __asan_region_is_poisoned(pa->mem + i * MODEL_PAGE_SIZE,
								  MODEL_PAGE_SIZE) != NULL;
	}
#endif
}

/* The first byte where @a and @b differ, as "memmap pfn N" etc., or NULL. */
static const char *image_diff(const struct world_image *a, const struct world_image *b)
{
	static char buf[96];
	size_t i;

	if (!a->memmap || !b->memmap || !a->pb || !b->pb || !a->poison || !b->poison)
		return "no memory for the images";
	for (i = 0; i < a->memmap_len; i++)
		if (a->memmap[i] != b->memmap[i]) {
			snprintf(buf, sizeof(buf), "struct page of pfn %zu, byte %zu",
				 i / sizeof(struct page), i % sizeof(struct page));
			return buf;
		}
	for (i = 0; i < a->pb_len; i++)
		if (a->pb[i] != b->pb[i]) {
			snprintf(buf, sizeof(buf), "pageblock %zu's migratetype", i);
			return buf;
		}
	for (i = 0; i < a->poison_len; i++)
		if (a->poison[i] != b->poison[i]) {
			snprintf(buf, sizeof(buf), "ASan poison of pfn %zu's %s", i / 2,
				 i % 2 ? "memory" : "struct page");
			return buf;
		}
	return NULL;
}

static void image_free(struct world_image *im)
{
	free(im->memmap);
	free(im->pb);
	free(im->poison);
}

/* memblock: a hole splits a region, a reserved range splits the free ones */
static void memblock_tests(void)
{
	struct memblock mb;
	unsigned long i = 0, s, e, got[8][2];
	int n = 0;

	memblock_init(&mb);
	memblock_add_node(&mb, 0, 100, 0);
	memblock_add_node(&mb, 100, 100, 1);
	memblock_remove(&mb, 40, 10);
	memblock_reserve(&mb, 60, 5);
	memblock_reserve(&mb, 95, 10);	/* across the nodes' boundary */
	while (n < 8 && memblock_next_free_range(&mb, 0, 200, &i, &s, &e)) {
		got[n][0] = s;
		got[n++][1] = e;
	}
	ok(n == 4 && got[0][0] == 0 && got[0][1] == 40 && got[1][0] == 50 && got[1][1] == 60 &&
	   got[2][0] == 65 && got[2][1] == 95 && got[3][0] == 105 && got[3][1] == 200,
	   "memblock: memory minus the hole and the reserved ranges, in pfn order (%d ranges)", n);
	ok(memblock_pfn_unavailable(&mb, 45) && memblock_pfn_unavailable(&mb, 62) &&
	   memblock_pfn_unavailable(&mb, 100) && !memblock_pfn_unavailable(&mb, 39) &&
	   !memblock_pfn_present(&mb, 45) && memblock_pfn_present(&mb, 62) &&
	   memblock_present_pages(&mb, 0, 200) == 190 && memblock_free_pages_in(&mb, 0, 200) == 175,
	   "memblock: a hole is not present, a reserved page is; 190 present, 175 free");
}

int main(void)
{
	struct deferred_node_stat st;
	struct outcome o;
	struct world *w;
	struct zone *zone;
	const char *sig;
	unsigned long free_before, touched;
	struct world_image fresh_img, reset_img;
	const char *diff;

	tap_plan(28);
	memblock_tests();

	/* ---- boot ---- */
	g_holes = 0xa5;
	g_reserved = 0x2a;
	w = mm_test_boot(tune);
	if (!w) {
		ok(0, "a deferred world boots");
		return tap_done();
	}
	zone = zone_by_idx(w, 0);
	deferred_node_stat_get(w, 0, &st);
	ok(NODE_DATA(0)->first_deferred_pfn == 16 && st.first_deferred_pfn_boot == 16,
	   "defer_init: first_deferred_pfn after one section, on its boundary (%lu)",
	   NODE_DATA(0)->first_deferred_pfn);
	ok(zone->present_pages == 256 - 16 && zone_managed_pages(zone) == 16 &&
	   zone_page_state_snapshot(zone, NR_FREE_PAGES) == 16 && mm_nr_free(w, 0, 3) == 2,
	   "managed_pages earned by what boot freed: %lu (present %lu: the hole is out)",
	   zone_managed_pages(zone), zone->present_pages);
	ok(st.pages_deferred == 256 - 16 - 16 - 4, "%lu free pages deferred (hole and reserved out)",
	   st.pages_deferred);
	ok(PageReserved(pfn_to_page(50)) && PageReserved(pfn_to_page(88)) &&
	   page_ref_count(pfn_to_page(88)) == 1,
	   "the hole's and the reserved range's struct pages are initialised PageReserved");
#if !MMFUZZ_ASAN
	ok(pfn_to_page(16)->flags == ~0UL && pfn_to_page(255)->private == ~0UL,
	   "the free struct pages past it hold the poison pattern");
#else
	ok(__asan_region_is_poisoned(pfn_to_page(16), sizeof(struct page)) &&
	   __asan_region_is_poisoned(pfn_to_page(255), sizeof(struct page)) &&
	   !__asan_region_is_poisoned(pfn_to_page(15), sizeof(struct page)) &&
	   !__asan_region_is_poisoned(pfn_to_page(50), sizeof(struct page)),
	   "the free struct pages past it are ASan-poisoned (a read is a report), the "
	   "initialised and the hole's are not");
#endif
	ok(deferred_pages_enabled() && zone->_watermark[WMARK_MIN] == 0,
	   "the deferred_pages static key is on, the watermarks zero");

	/* ---- page_alloc_init_late from one task, no scheduler ---- */
	sig = mm_violation_of(init_late, NULL);
	deferred_node_stat_get(w, 0, &st);
	ok(!sig && !deferred_pages_enabled() && NODE_DATA(0)->first_deferred_pfn == ULONG_MAX &&
	   zone_managed_pages(zone) == 256 - 16 - 4 && st.done &&
	   st.pages_initialised == 220 && st.nr_jobs == 3,
	   "page_alloc_init_late: 3 jobs (a free range each), %lu pages initialised, managed %lu, "
	   "key off (%s)", st.pages_initialised, zone_managed_pages(zone),
	   sig ? g_violation.msg : "clean");
	ok(zone->_watermark[WMARK_MIN] == 256 / 32, "the watermarks computed after it");
	mm_fold(w);
	free_before = (unsigned long)zone_page_state_snapshot(zone, NR_FREE_PAGES);
	ok(free_before == 256 - 20, "every free page in the buddy: %lu", free_before);
	sig = mm_violation_of(final_check, w);
	ok(!sig, "every checker passes after init (%s)", sig ? g_violation.msg : "clean");
	world_destroy(w);

	/* ---- fibers, one node: init racing allocations ---- */
	g_cpus = 4;
	g_threads = DEFERRED_THREADS_NODE_CPUS;
	w = mm_test_boot(tune);
	schedules(w, 4, 200, &o);
	ok(o.clean == o.runs, "one node, holes, node_cpus, allocations racing init: %d of %d "
	   "schedules clean (%s)", o.clean, o.runs, o.sig ? o.msg : "none caught");
	ok(o.grows > 0 && o.grows_irq > 0 && o.nworks_max >= 2,
	   "the schedules reach deferred_grow_zone (%lu grows, %lu from interrupt context) and "
	   "padata helpers (nworks of a node's jobs up to %lu)", o.grows, o.grows_irq,
	   o.nworks_max);

	/* ---- the switches ---- */
	sig = switch_caught(BUG_PADATA_CHUNK_OVERLAP, "I-DI-2", NULL, 20, w, 1);
	ok(sig != NULL, "padata_chunk_overlap caught: %s", sig ? sig : "no");
	sig = switch_caught(BUG_PADATA_CHUNK_GAP, "I-DI-3", "I-DI-2", 20, w, 1);
	ok(sig != NULL, "padata_chunk_gap caught: %s", sig ? sig : "no");
	sig = switch_caught(BUG_MAXORDER_FREE_BEFORE_INIT, "I-DI-3", NULL, 20, w, 1);
	ok(sig != NULL, "maxorder_free_before_init caught: %s", sig ? sig : "no");
	/* the lost update needs two helpers between one's read and its write:
	 * random schedules (a yield at every point) reach it */
	g_kind = POL_RANDOM;
	sig = switch_caught(BUG_MANAGED_PAGES_NONATOMIC, "I-DI-4", NULL, 60, w, 1);
	g_kind = POL_PCT;
	ok(sig != NULL, "managed_pages_nonatomic caught: %s", sig ? sig : "no");
	/* the last runs stopped at a violation, part of the way into the init */
	touched = deferred_check_record_touched();
	world_reset(w);
	shadow_run_begin(w, 1002);
	check_run_begin(w);
	ok(touched > 0 && !deferred_check_record_dirty(),
	   "after a run stopped by a violation mid-init (%lu granules written), the reset record "
	   "is a fresh one's (%lu entries set)", touched, deferred_check_record_dirty());
	world_destroy(w);

	/* ---- fibers, two nodes, reserved ranges on both ---- */
	g_nodes = 2;
	g_holes = 0x00a5;
	g_reserved = 0x4a2a;
	wmem_fresh = true;	/* memory of its own, not a reset world's from the pool */
	w = mm_test_boot(tune);
	wmem_fresh = false;
	image_take(w, &fresh_img);
	schedules(w, 4, 200, &o);
	ok(o.clean == o.runs, "two nodes, holes and reserved ranges: %d of %d schedules clean (%s)",
	   o.clean, o.runs, o.sig ? o.msg : "none caught");
	ok(o.nworks_max >= 2, "two pgdatinit kthreads with helpers (nworks up to %lu)", o.nworks_max);

	/* ---- the reset: back to the fresh world, at the cost of what the run touched ---- */
	touched = deferred_check_record_touched();
	world_reset(w);
	shadow_run_begin(w, 1000);
	check_run_begin(w);
	image_take(w, &reset_img);
	diff = image_diff(&fresh_img, &reset_img);
	ok(!diff && !deferred_check_record_dirty() && touched >= (256 - 16) * 2 / 64,
	   "after a run that initialised both nodes (%lu granules of 64 pfns in the checker's "
	   "record), the reset world's memmap, pageblocks and poison equal a fresh world's "
	   "(%s) and the checker's record is a fresh one's (%lu entries set)", touched,
	   diff ? diff : "the same", deferred_check_record_dirty());
	image_free(&reset_img);
	image_free(&fresh_img);
	/* a run that leaves deferred init alone (no kernel_init, allocations
	 * from the initialised section) leaves nothing for the next to clear */
	{
		struct page *p = alloc_pages(GFP_KERNEL, 0);

		touched = deferred_check_record_touched();
		if (p)
			__free_pages(p, 0);
	}
	mm_drain(w);
	world_reset(w);
	ok(touched == 0,
	   "a run that never touched the deferred range: %lu granules for the checker to clear",
	   touched);
	/* a run that grows node 0's zone: order-3 blocks until its 16
	 * initialised pages are gone, then deferred_grow_zone by a section
	 * (16 pages, in the first 64-pfn granule) */
	shadow_run_begin(w, 1001);
	check_run_begin(w);
	{
		struct page *p[4];
		int k;

		for (k = 0; k < 4; k++)
			p[k] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 3);
		deferred_node_stat_get(w, 0, &st);
		touched = deferred_check_record_touched();
		for (k = 0; k < 4; k++)
			if (p[k])
				__free_pages(p[k], 3);
	}
	mm_drain(w);
	world_reset(w);
	ok(st.nr_grows > 0 && touched > 0 && touched <= 2,
	   "a run that grew a zone %lu time(s) by %lu pages: %lu granule(s) to clear, of %lu "
	   "the init would write", st.nr_grows, st.pages_grown, touched,
	   2UL * (256 - 16) / 64 + 1);
	world_destroy(w);

	/* ---- quiescent checks while the kthreads run ---- */
	g_quiesce = true;
	w = mm_test_boot(tune);
	schedules(w, 1, 100, &o);
	ok(o.clean == o.runs, "I-CONS and I-DI-1 at quiescence while pgdatinit and padata run: "
	   "%d of %d schedules clean (%s)", o.clean, o.runs, o.sig ? o.msg : "none caught");
	g_quiesce = false;
	/* two tasks run page_alloc_init_late: one starts the kthreads, both wait */
	g_two_waiters = true;
	schedules(w, 2, 60, &o);
	g_two_waiters = false;
	ok(o.clean == o.runs, "two tasks in page_alloc_init_late: %d of %d schedules clean (%s)",
	   o.clean, o.runs, o.sig ? o.msg : "none caught");
	world_destroy(w);

	/* ---- one thread a node (6.6's generic default) ---- */
	g_nodes = 1;
	g_threads = DEFERRED_THREADS_ONE;
	w = mm_test_boot(tune);
	schedules(w, 3, 30, &o);
	ok(o.clean == o.runs && o.nworks_max == 3,
	   "deferred_page_init_max_threads one: %d of %d clean, one work a job (%lu for 3 jobs)",
	   o.clean, o.runs, o.nworks_max);

	/* the stress workload's way: claim, run each node's init itself, wait */
	world_reset(w);
	shadow_run_begin(w, 999);
	check_run_begin(w);
	current_task = &mm_test_task;
	mm_test_task.cpu = 0;
	{
		int first = deferred_init_claim(), second = deferred_init_claim();

		sig = mm_violation_of(claimed_init, NULL);
		if (!sig) {
			mm_drain(w);
			world_drain(w);
			sig = mm_violation_of(final_check, w);
		}
		deferred_node_stat_get(w, 0, &st);
		ok(first == 0 && second == -EBUSY && !sig && st.done && !deferred_pages_enabled() &&
		   zone_managed_pages(zone_by_idx(w, 0)) == 256 - 20,
		   "deferred_init_claim once (then -EBUSY), deferred_init_memmap by the caller, "
		   "deferred_init_wait: done, key off (%s)", sig ? g_violation.msg : "clean");
	}
	world_destroy(w);
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * struct page as 6.6 has it: page_type inverted in the _mapcount union,
 * references (get_page, put_page, folio_try_get) as yield points, compound
 * pages and folios, __free_pages freeing the rest of a non-compound block
 * whose first page someone else still holds, and the bad-page checks.
 * Then the same on fibers: a speculative reference racing __free_pages,
 * every schedule ending with every page free exactly once.
 */
#include "mm_world.h"
#include "tap.h"

static void pass_through(struct mm_config *cfg)
{
	config_set(cfg, &ck_zone_pages, 64);		/* two order-5 blocks */
	config_set(cfg, &ck_pcp_high, 0);		/* pages pass straight through the pcps */
	config_set(cfg, &ck_pcp_batch, 1);
}

static void two_cpus(struct mm_config *cfg)
{
	pass_through(cfg);
	config_set(cfg, &ck_cpus, 2);
}

static bool sig_is(const char *sig, const char *want)
{
	return sig && !strcmp(sig, want);
}

static void free_order0(void *page)
{
	__free_pages(page, 0);
}

static void free_order2(void *page)
{
	__free_pages(page, 2);
}

static void take_ref(void *arg)
{
	struct page *page = arg;

	get_page(page);
}

/* ---- on fibers ---- */

static struct page *racy_page;
static int got_ref;

/* T0 drops the only reference of an order-2 non-compound block; T1 tries
 * a speculative reference on its first page and drops it if it got one. */
static void race_body(struct task *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		__free_pages(racy_page, 2);
	} else if (get_page_unless_zero(racy_page)) {
		__atomic_store_n(&got_ref, 1, __ATOMIC_RELAXED);
		sched_point("holding");
		put_page(racy_page);
	}
}

int main(void)
{
	struct world *w;
	struct page *p, *q;
	struct folio *f;
	unsigned long pfn;
	int boot_ok = 1, got = 0, missed = 0, clean = 0, seed, r;
	struct fsched *fs;
	struct sched_policy pol;
	struct task_init init[2] = { { 0, false }, { 1, false } };

	tap_plan(28);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/* the boot state: two free order-5 blocks, heads PageBuddy */
	w = mm_test_boot(pass_through);
	for (pfn = 0; pfn < 64; pfn++) {
		struct page *pg = pfn_to_page(pfn);
		bool head = pfn % 32 == 0;

		if (page_ref_count(pg) != 0 || PageBuddy(pg) != head ||
		    pg->page_type != (head ? 0xffffff7fu : 0xffffffffu) ||
		    page_has_type(pg) != head)
			boot_ok = 0;
	}
	ok(boot_ok, "boot: refcount 0, page_type -1, the heads' PG_buddy bit cleared (0xffffff7f)");
	p = alloc_pages(GFP_KERNEL, 0);
	ok(page_ref_count(p) == 1 && atomic_read(&p->_mapcount) == -1 && !PageBuddy(p) &&
	   !page_has_type(p), "an allocated page: one reference, not mapped, no type");
	ok(mm_is_free_block(1, 0) && pfn_to_page(1)->page_type == 0xffffff7f,
	   "its buddy, split off, is a free block: PG_buddy cleared, private 0");
	get_page(p);
	ok(page_count(p) == 2, "get_page: 2 references");
	put_page(p);
	ok(page_count(p) == 1, "put_page: 1");
	__free_pages(p, 0);
	ok(mm_is_free_block(0, 5), "__free_pages drops the last: merged back to order 5");
	world_reset(w);
	check_run_begin(w);
	ok(page_ref_count(pfn_to_page(0)) == 0 && atomic_read(&pfn_to_page(3)->_mapcount) == -1 &&
	   PageBuddy(pfn_to_page(0)), "a reset rewrites touched struct pages to the boot state");

	/* folios: __GFP_COMP heads and tails */
	f = folio_alloc(GFP_KERNEL, 3);
	p = &f->page;
	ok(f && PageHead(p) && !PageTail(p) && PageTail(p + 1) && PageTail(p + 7) &&
	   PageCompound(p + 5), "folio_alloc order 3: a head and 7 tails");
	ok(compound_head(p + 6) == p && page_folio(p + 6) == f && page_folio(p) == f,
	   "compound_head and page_folio of a tail give the head");
	ok(folio_order(f) == 3 && folio_nr_pages(f) == 8 && compound_order(p) == 3 &&
	   compound_order(p + 1) == 0, "folio_order 3, folio_nr_pages 8");
	ok((p + 3)->mapping == TAIL_MAPPING && atomic_read(&f->_entire_mapcount) == -1 &&
	   !PageHead(p + 1), "tails carry TAIL_MAPPING; the order does not read as PG_head");
	get_page(p + 5);
	ok(folio_ref_count(f) == 2 && page_ref_count(p + 5) == 0,
	   "get_page on a tail takes a reference on the folio");
	put_page(p + 5);
	ok(folio_try_get(f) && folio_ref_count(f) == 2, "folio_try_get on a live folio: 2");
	folio_put(f);
	folio_put(f);
	ok(mm_is_free_block(0, 5) && !PageTail(pfn_to_page(3)) && !pfn_to_page(3)->mapping,
	   "the last folio_put frees all 8 pages, tails cleared");
	ok(!folio_try_get(f) && folio_ref_count(f) == 0,
	   "folio_try_get on a freed folio fails and takes nothing");
	q = alloc_pages(GFP_KERNEL, 0);
	f = folio_alloc(GFP_KERNEL, 0);
	ok(folio_order(f) == 0 && folio_nr_pages(f) == 1 && !PageHead(&f->page),
	   "an order-0 folio is a plain page");
	folio_put(f);
	__free_pages(q, 0);

	/*
	 * A non-compound order-2 block whose first page someone else holds:
	 *
	 *   [p|1|2 3]   __free_pages(p, 2) drops to 1 reference and frees
	 *                pfn 2-3 (order 1) and pfn 1 (order 0) now; put_page
	 *                frees p as an order-0 page later.
	 */
	p = alloc_pages(GFP_KERNEL, 2);
	pfn = page_to_pfn(p);
	ok(get_page_unless_zero(p) && page_ref_count(p) == 2, "a second reference on pfn %lu", pfn);
	__free_pages(p, 2);
	ok(page_ref_count(p) == 1 && mm_is_free_block(pfn + 2, 1) && mm_is_free_block(pfn + 1, 0),
	   "__free_pages: pfn %lu-%lu and %lu free, pfn %lu still held", pfn + 2, pfn + 3,
	   pfn + 1, pfn);
	put_page(p);
	ok(mm_is_free_block(0, 5), "put_page frees the first page: all merged back");
	/* the same on a compound page frees nothing until the last reference */
	p = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	get_page(p);
	__free_pages(p, 2);
	ok(page_ref_count(p) == 1 && !PageBuddy(p + 2) && PageTail(p + 2),
	   "a compound page with a second reference: __free_pages frees none of it");
	put_page(p);
	ok(mm_is_free_block(0, 5), "its last put_page frees all 4 pages");

	/* bad pages: freed while mapped, a broken tail, a reference on a free page */
	p = alloc_pages(GFP_KERNEL, 0);
	atomic_set(&p->_mapcount, 0);
	ok(sig_is(mm_violation_of(free_order0, p), "bad_page@free_pages_prepare"),
	   "a page freed while still mapped: %s (%s)", g_violation.signature, g_violation.msg);
	world_reset(w);
	check_run_begin(w);
	p = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	clear_compound_head(p + 3);
	ok(sig_is(mm_violation_of(free_order2, p), "bad_page@free_tail_page_prepare"),
	   "a tail that lost its head: %s (%s)", g_violation.signature, g_violation.msg);
	world_reset(w);
	check_run_begin(w);
	ok(sig_is(mm_violation_of(take_ref, pfn_to_page(9)), "VM_BUG_ON_PAGE@__folio_get"),
	   "get_page on a free page: %s", g_violation.signature);
	world_destroy(w);

	/* the references are yield points named after their callers */
	sites_init();
	ok(site_lookup("__free_pages:atomic(page->_refcount)") &&
	   site_lookup("race_body:cmpxchg(page->_refcount)") &&
	   site_lookup("race_body:atomic(page->_refcount)"),
	   "sites: __free_pages:atomic(page->_refcount), race_body:cmpxchg(page->_refcount), ...");

	/*
	 * On fibers, cpu0 and cpu1: T0 __free_pages(p, 2) of a non-compound
	 * block, T1 get_page_unless_zero(p) then put_page(p).  Either T1's
	 * reference comes first (the block goes in two frees) or after the
	 * count reached 0 (it fails).  PCT over 60 seeds: both happen, and
	 * every page ends free exactly once.
	 */
	w = mm_test_boot(two_cpus);
	fs = fsched_create(2);
	for (seed = 1; seed <= 60; seed++) {
		world_reset(w);
		check_run_begin(w);
		current_task = &mm_test_task;
		racy_page = alloc_pages(GFP_KERNEL, 2);
		got_ref = 0;
		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_PCT;
		pol.depth = 2;
		pol.seed = (uint64_t)seed;
		pol.horizon = 40;
		violation_reset();
		r = fsched_run(fs, 2, 2, init, &pol, race_body, NULL);
		current_task = &mm_test_task;
		if (r) {
			diag("seed %d: %s: %s", seed, g_violation.signature, g_violation.msg);
			continue;
		}
		mm_drain(w);
		mm_fold(w);
		if (mm_nr_free(w, 0, 5) == 2)
			clean++;
		if (__atomic_load_n(&got_ref, __ATOMIC_RELAXED))
			got++;
		else
			missed++;
	}
	fsched_destroy(fs);
	ok(clean == 60, "%d of 60 schedules end with the zone whole again", clean);
	ok(got > 0 && missed > 0, "the reference came first in %d schedules, too late in %d",
	   got, missed);
	world_drain(w);
	check_final(w);
	ok(1, "the end checks hold");
	world_destroy(w);
	current_task = NULL;
	return tap_done();
}

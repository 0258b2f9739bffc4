// SPDX-License-Identifier: MIT
/*
 * PF_POISONED_CHECK (src/mm/mmdebug.h, 6.6's CONFIG_DEBUG_VM_PGFLAGS): a
 * deferred world's struct pages past first_deferred_pfn hold
 * page_init_poison's pattern, and every page-flag accessor, page_zone and
 * its wrappers, compound_head, PageTail and PageBuddy that reads one
 * reports I-DI-3 at its caller's site, in every build, exactly once; on an
 * initialised struct page (boot's, a hole's, one __init_single_page just
 * wrote over the pattern) none does.  Before the check a plain build read
 * such a page through any of these and went on: only __free_pages_core's
 * pfns, the buddy merge's and the owner sources were checked.
 *
 *   0 [16 initialised][ deferred 16..255: hole 47..62, reserved 87..90 ]
 */
#include <limits.h>

#include "mm/deferred.h"
#include "mm/slab.h"
#include "mm/tlb.h"
#include "mm_world.h"
#include "tap.h"

#define PFN_DEFERRED	20

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_cpus, 1);
	config_set(cfg, &ck_zone_pages, 256);
	config_set(cfg, &ck_max_order, 3);
	config_set(cfg, &ck_pageblock_order, 3);
	config_set(cfg, &ck_deferred_init, 1);
	config_set(cfg, &ck_section_order, 1);
	config_set(cfg, &ck_memblock_holes, 0xa5);
	config_set(cfg, &ck_memblock_reserved, 0x2a);
}

/* each reader a function of its own: its name is the report's site */
#define READER(name, expr)							\
	static void name(void *arg)						\
	{									\
		struct page *page = arg;					\
		struct folio *folio = (struct folio *)page;			\
										\
		(void)folio;							\
		g_sink += (unsigned long)(expr);				\
	}
static volatile unsigned long g_sink;

READER(read_reserved, PageReserved(page))
READER(read_head, PageHead(page))
READER(read_compound, PageCompound(page))
READER(read_order, compound_order(page))
READER(read_tail, PageTail(page))
READER(read_compound_head, (unsigned long)compound_head(page))
READER(read_page_folio, (unsigned long)page_folio(page))
READER(read_buddy, PageBuddy(page))
READER(read_zone, (unsigned long)page_zone(page))
READER(read_nid, page_to_nid(page))
READER(read_zonenum, page_zonenum(page))
READER(read_pgdat, (unsigned long)page_pgdat(page))
READER(read_folio_large, folio_test_large(folio))
READER(read_folio_flag, folio_test_flag(folio, PG_dirty))
READER(read_count, page_count(page))
READER(read_slab, (unsigned long)virt_to_slab(page_address(page)))

/* the site: the reader, but for virt_to_slab, a function of slub.c */
static const struct {
	void (*fn)(void *);
	const char *name, *site;
} readers[] = {
#define R(f) { f, #f, #f }
	R(read_reserved), R(read_head), R(read_compound), R(read_order), R(read_tail),
	R(read_compound_head), R(read_page_folio), R(read_buddy), R(read_zone), R(read_nid),
	R(read_zonenum), R(read_pgdat), R(read_folio_large), R(read_folio_flag),
	R(read_count), { read_slab, "read_slab", "virt_to_slab" },
#undef R
};
#define NREADERS	((int)(sizeof(readers) / sizeof(readers[0])))

static void clear_reserved(void *arg)
{
	__ClearPageReserved((struct page *)arg);
}

static void set_flag(void *arg)
{
	folio_set_flag((struct folio *)arg, PG_dirty);
}

/* the hook counted, then the checker's own */
static void (*hook_checker)(const struct page *, const char *);
static int hook_calls;

static void hook_counting(const struct page *page, const char *site)
{
	hook_calls++;
	hook_checker(page, site);
}

/* the memmap's words, read past ASan: the pattern is poisoned on purpose */
static __attribute__((no_sanitize("address"))) bool all_ones(const struct page *page)
{
	const unsigned long *w = (const unsigned long *)page;
	size_t i;

	for (i = 0; i < sizeof(*page) / sizeof(*w); i++)
		if (w[i] != (unsigned long)PAGE_POISON_PATTERN)
			return false;
	return true;
}

int main(void)
{
	static char want[64];
	const char *sig;
	int poisoned_before = page_init_poisoned, i, bad;
	struct world *w;
	struct page *page;

	tap_plan(11);
	w = mm_test_boot(tune);
	if (!w) {
		ok(0, "a deferred world boots");
		return tap_done();
	}
	page = pfn_to_page(PFN_DEFERRED);
	ok(NODE_DATA(0)->first_deferred_pfn == 16 && all_ones(page) && all_ones(pfn_to_page(255)) &&
	   !all_ones(pfn_to_page(15)) && !all_ones(pfn_to_page(50)),
	   "past first_deferred_pfn every word of a free struct page is PAGE_POISON_PATTERN (-1l); "
	   "the initialised ones and the hole's are not");
	ok(page_init_poisoned == poisoned_before + 1, "page_init_poisoned counts the world (%d)",
	   page_init_poisoned);

	/* every reader on a deferred struct page: I-DI-3 at the reader */
	bad = -1;
	for (i = 0; i < NREADERS && bad < 0; i++) {
		snprintf(want, sizeof(want), "I-DI-3@%s", readers[i].site);
		sig = mm_violation_of(readers[i].fn, page);
		if (!sig || strcmp(sig, want))
			bad = i;
	}
	ok(bad < 0, "each of %d readers of a deferred struct page (page-flag accessors, "
	   "page_zone, page_to_nid, page_zonenum, compound_head, PageTail, PageBuddy, a folio "
	   "flag, page_count, virt_to_slab) reports I-DI-3 at its caller%s%s%s%s", NREADERS,
	   bad < 0 ? "" : ": ", bad < 0 ? "" : readers[bad].name, bad < 0 ? "" : " gave ",
	   bad < 0 ? "" : (sig ? sig : "nothing"));
	sig = mm_violation_of(clear_reserved, page);
	ok(sig && !strcmp(sig, "I-DI-3@clear_reserved"), "__ClearPageReserved (__free_pages_core's) "
	   "too: %s", sig ? sig : "nothing");
	sig = mm_violation_of(set_flag, page);
	ok(sig && !strcmp(sig, "I-DI-3@set_flag"), "a folio flag set too: %s", sig ? sig : "nothing");

	/* exactly once: compound_order asks PageHead, page_count page_folio */
	hook_checker = pagealloc_hooks.page_poisoned;
	pagealloc_hooks.page_poisoned = hook_counting;
	hook_calls = 0;
	sig = mm_violation_of(read_order, page);
	i = hook_calls;
	sig = mm_violation_of(read_count, page);
	ok(i == 1 && hook_calls == 2, "one report a read (compound_order: %d, page_count: %d)", i,
	   hook_calls - i);
	/* no checker: the model's own VM_BUG_ON_PGFLAGS */
	pagealloc_hooks.page_poisoned = NULL;
	sig = mm_violation_of(read_zone, page);
	ok(sig && !strcmp(sig, "VM_BUG_ON_PGFLAGS@read_zone"), "without the checker: %s",
	   sig ? sig : "nothing");
	pagealloc_hooks.page_poisoned = hook_checker;

	/* never on an initialised struct page: boot's, the hole's, the
	 * reserved range's */
	bad = -1;
	for (i = 0; i < NREADERS && bad < 0; i++) {
		if (mm_violation_of(readers[i].fn, pfn_to_page(15)) ||
		    mm_violation_of(readers[i].fn, pfn_to_page(50)) ||
		    mm_violation_of(readers[i].fn, pfn_to_page(88)))
			bad = i;
	}
	ok(bad < 0, "no reader reports on boot's, a hole's or a reserved struct page%s%s",
	   bad < 0 ? "" : ": ", bad < 0 ? "" : readers[bad].name);

	/* __init_single_page writes over the pattern without a report; the
	 * page reads clean after; the reset poisons it again */
	san_unpoison(page, sizeof(*page));
	__init_single_page(page, PFN_DEFERRED, 0, 0);
	world_touch_pfn(PFN_DEFERRED);
	bad = -1;
	for (i = 0; i < NREADERS && bad < 0; i++)
		if (mm_violation_of(readers[i].fn, page))
			bad = i;
	ok(bad < 0 && !all_ones(page), "__init_single_page over the pattern: no report, and every "
	   "reader then reads it clean%s%s", bad < 0 ? "" : ": ", bad < 0 ? "" : readers[bad].name);
	world_reset(w);
	ok(all_ones(page) && (sig = mm_violation_of(read_reserved, page)) &&
	   !strcmp(sig, "I-DI-3@read_reserved"),
	   "the reset writes the pattern back, and a read reports again");

	world_destroy(w);
	ok(page_init_poisoned == poisoned_before, "destroyed, the world is no longer counted (%d)",
	   page_init_poisoned);
	return tap_done();
}

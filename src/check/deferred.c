// SPDX-License-Identifier: MIT
/*
 * Deferred struct-page init's checkers (src/mm/deferred_init.c), through
 * the layer's hooks (deferred.h) and at quiescence and the end.
 *
 * The catalogue (kernel-mm.md section 2's I-DI rows, and what the model
 * adds):
 *   I-DI-1  first_deferred_pfn changes only under pgdat_resize_lock, only
 *           forward, to a section boundary, a free range's start past a
 *           hole or reserved range (where 6.6's deferred_grow_zone stops
 *           when a range ends) or ULONG_MAX; once
 *           deferred_init_memmap has taken it, it stays ULONG_MAX; at
 *           quiescence it holds what the last change under the lock set.
 *   I-DI-2  every deferred pfn (a free pfn past the node's boot
 *           first_deferred_pfn) is initialised exactly once and freed to
 *           the buddy exactly once: a second init or free is reported when
 *           it happens, a pfn left out when its node reports done; padata's
 *           chunks partition each job exactly (no overlap, no gap, every
 *           chunk end but the last a multiple of chunk_size) and
 *           nworks_fini == nworks when the job returns.
 *   I-DI-3  no struct page is read before it is initialised: a pfn handed
 *           to __free_pages_core (which reads and writes its struct page,
 *           and the buddy merge its neighbours') must have been
 *           initialised first.  The memmap past first_deferred_pfn holds
 *           page_init_poison's pattern and is ASan-poisoned: every
 *           page-flag accessor, page_zone (page_to_nid, page_zonenum),
 *           compound_head, PageTail and PageBuddy check it in every build
 *           (6.6's PF_POISONED_CHECK, src/mm/mmdebug.h) and report here,
 *           I-DI-3@the accessor's caller; an ASan build reports any other
 *           read.  The pfn walkers read no deferred struct page: the page allocator's
 *           move_freepages walks a pageblock of a free page (all of its
 *           MAX_ORDER block initialised, by boot or by one
 *           deferred_init_maxorder), __free_one_page's buddies stay in
 *           the MAX_ORDER block; the checkers walk the free lists, the
 *           pcps, the handles and their own per-pfn arrays (pagealloc.c,
 *           cons.c, tlb.c, page_alloc_stat.c), never the memmap by pfn.
 *   I-DI-4  managed_pages of every zone equals what boot freed plus what
 *           deferred init's __free_pages_core freed into it, when a node
 *           reports done (its zone has no free in flight then: a grow
 *           after init took first_deferred_pfn frees nothing) and at the
 *           end.  Not at any quiescence: __free_pages_core adds to
 *           managed_pages before it takes zone->lock.
 *   I-CONS  (cons.c) the pfns deferred at boot that have not reached the
 *           free lists (HOOK(pagealloc, core_freed), under zone->lock)
 *           are an owner source of their own ("deferred"), holes and
 *           reserved ranges another ("memblock"): every page has one owner
 *           at every quiescence while init runs.
 */
#include "check.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../mm/deferred.h"
#include "deferred_check.h"

#define MAX_CHUNKS	4096
/* the per-pfn record is cleared in granules of 64 pfns, those a run wrote */
#define TOUCH_SHIFT	6

static struct {
	struct world *w;
	unsigned char *inits, *frees;	/* per pfn: deferred init's counts */
	unsigned char *inbuddy;		/* per pfn: reached the free lists */
	unsigned long cap;
	/* the granules a run wrote (any of the three), each listed once: the
	 * next run begin clears those and nothing else */
	unsigned char *touched;
	unsigned long *touched_list, nr_touched;
	long managed_boot[MAX_ZONES_PER_ZONELIST];
	long freed[MAX_ZONES_PER_ZONELIST];	/* by deferred init's __free_pages_core */
	unsigned long fdp[MAX_NUMNODES];	/* the last value set under the lock */
	bool taken[MAX_NUMNODES];		/* deferred_init_memmap took it */
	/* the chunks of each node's current job (the nodes' jobs run side by side) */
	struct { unsigned long s, e; } ch[MAX_NUMNODES][MAX_CHUNKS];
	int nch[MAX_NUMNODES];
	bool active;			/* a deferred world: the arrays are in use */
} dc;

static struct deferred_world *dcw(void)
{
	return dc.w ? deferred_world(dc.w) : NULL;
}

/* The pfn is deferred at boot: free memory past its node's boot pfn. */
static bool pfn_deferred(unsigned long pfn)
{
	struct deferred_world *dw = dcw();
	struct pagealloc_world *pa = pa_world(dc.w);
	int nid;

	for (nid = 0; nid < pa->nodes_online; nid++) {
		const pg_data_t *pgdat = &pa->node_data[nid];

		if (pfn - pgdat->node_start_pfn < pgdat->node_spanned_pages)
			return pfn >= dw->stat[nid].first_deferred_pfn_boot &&
			       memblock_pfn_free(&pa->memblock, pfn);
	}
	return false;
}

__attribute__((format(printf, 2, 3)))
static void dfail(const char *sig, const char *fmt, ...);

static void dfail(const char *sig, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sched_violation(sig, current_task && current_task->name ? current_task->name : "deferred",
			"%s", msg);
}

/* [pfn, pfn + nr) of the record is about to be written (from the hooks,
 * on real threads too: a granule is listed by whoever marks it first) */
static __sched_notsan void record_touch(unsigned long pfn, unsigned long nr)
{
	unsigned long g, last;

	if (!nr || pfn >= dc.cap)
		return;
	last = (min(pfn + nr, dc.cap) - 1) >> TOUCH_SHIFT;
	for (g = pfn >> TOUCH_SHIFT; g <= last; g++)
		if (!__atomic_load_n(&dc.touched[g], __ATOMIC_RELAXED) &&
		    !__atomic_exchange_n(&dc.touched[g], 1, __ATOMIC_RELAXED))
			dc.touched_list[__atomic_fetch_add(&dc.nr_touched, 1, __ATOMIC_RELAXED)] = g;
}

/* Back to the record of a fresh checker: what the last run wrote, zero. */
static void record_clear(void)
{
	unsigned long i;

	for (i = 0; i < dc.nr_touched; i++) {
		unsigned long g = dc.touched_list[i], pfn = g << TOUCH_SHIFT;
		unsigned long n = min(1UL << TOUCH_SHIFT, dc.cap - pfn);

		memset(dc.inits + pfn, 0, n);
		memset(dc.frees + pfn, 0, n);
		memset(dc.inbuddy + pfn, 0, n);
		dc.touched[g] = 0;
	}
	dc.nr_touched = 0;
}

unsigned long deferred_check_record_dirty(void)
{
	unsigned long pfn, ng = (dc.cap + (1UL << TOUCH_SHIFT) - 1) >> TOUCH_SHIFT, dirty = 0;

	for (pfn = 0; pfn < dc.cap; pfn++)
		dirty += dc.inits[pfn] || dc.frees[pfn] || dc.inbuddy[pfn];
	for (pfn = 0; pfn < ng; pfn++)
		dirty += dc.touched[pfn];
	return dirty + dc.nr_touched;
}

unsigned long deferred_check_record_touched(void)
{
	return dc.nr_touched;
}

/* ---- the hooks ----
 * The checker's own bookkeeping is out of TSan's sight (__sched_notsan):
 * with a bug that lets two helpers meet on a pfn, the report is the
 * checker's I-DI-2, not a race on dc.inits between two fibers. */

static __sched_notsan void hk_init_pages(unsigned long pfn, unsigned long nr)
{
	unsigned long end = pfn + nr;

	if (!dc.active)
		return;
	record_touch(pfn, nr);
	for (; pfn < end; pfn++) {
		if (!pfn_deferred(pfn))
			dfail("I-DI-2", "pfn %lu initialised by deferred init is not deferred "
			      "(boot initialised it, or it is reserved or a hole)", pfn);
		if (dc.inits[pfn]++)
			dfail("I-DI-2", "pfn %lu initialised twice by deferred init", pfn);
	}
}

static __sched_notsan void hk_free_range(unsigned long pfn, unsigned long nr)
{
	unsigned long p, end = pfn + nr, blk;
	struct zone *zone;

	if (!dc.active)
		return;
	/* __free_one_page reads the buddies up to the MAX_ORDER block: all of
	 * its deferred struct pages must be initialised first (6.6's reason
	 * for deferred_init_maxorder's two passes) */
	record_touch(pfn, nr);
	blk = 1UL << pa_world(dc.w)->max_order;
	for (p = pfn & ~(blk - 1); p < ((end + blk - 1) & ~(blk - 1)); p++)
		if (!dc.inits[p] && pfn_deferred(p))
			dfail("I-DI-3", "pfn %lu handed to __free_pages_core before the struct page "
			      "of pfn %lu of its MAX_ORDER block was initialised", pfn, p);
	for (p = pfn; p < end; p++) {
		if (!dc.inits[p])
			dfail("I-DI-3", "pfn %lu handed to __free_pages_core before its struct "
			      "page was initialised", p);
		if (dc.frees[p]++)
			dfail("I-DI-2", "pfn %lu freed to the buddy twice by deferred init", p);
	}
	zone = page_zone(pfn_to_page(pfn));
	__atomic_add_fetch(&dc.freed[zone->idx], (long)nr, __ATOMIC_RELAXED);
}

/* PF_POISONED_CHECK fired: @site read an uninitialised struct page.  Any
 * world, active or not: the pattern is in no initialised struct page. */
static __sched_notsan void hk_page_poisoned(const struct page *page, const char *site)
{
	sched_violation("I-DI-3", site, "%s read the struct page of pfn %lu before it was "
			"initialised (page_init_poison's pattern: PF_POISONED_CHECK)", site,
			page_to_pfn(page));
}

static __sched_notsan void hk_chunk(const struct zone *zone, unsigned long start, unsigned long end)
{
	int i, nid = zone_to_nid(zone);

	if (!dc.active)
		return;
	if (end <= start)
		dfail("I-DI-2", "padata chunk [%lu, %lu) is empty", start, end);
	i = __atomic_fetch_add(&dc.nch[nid], 1, __ATOMIC_RELAXED);
	if (i < MAX_CHUNKS) {
		dc.ch[nid][i].s = start;
		dc.ch[nid][i].e = end;
	}
}

static __sched_notsan void hk_job_begin(const struct zone *zone, unsigned long start, unsigned long size)
{
	(void)start;
	(void)size;
	dc.nch[zone_to_nid(zone)] = 0;
}

static int cmp_chunk(const void *a, const void *b)
{
	const unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static __sched_notsan void hk_job_done(const struct zone *zone, unsigned long start, unsigned long size,
			const struct padata_stat *ps)
{
	unsigned long at = start, end = start + size;
	int i, nid = zone_to_nid(zone), n = dc.nch[nid];

	if (!dc.active || n > MAX_CHUNKS)
		return;
	if (ps->nworks_fini != ps->nworks)
		dfail("I-DI-2", "%s: padata job [%lu, %lu) returned with nworks_fini %d of %d",
		      zone->name, start, end, ps->nworks_fini, ps->nworks);
	qsort(dc.ch[nid], (size_t)n, sizeof(dc.ch[nid][0]), cmp_chunk);
	for (i = 0; i < n; i++) {
		if (dc.ch[nid][i].s < at)
			dfail("I-DI-2", "%s: padata chunks overlap: [%lu, %lu) starts before %lu "
			      "(job [%lu, %lu), chunk_size %lu)", zone->name, dc.ch[nid][i].s, dc.ch[nid][i].e,
			      at, start, end, ps->chunk_size);
		if (dc.ch[nid][i].s > at)
			dfail("I-DI-2", "%s: padata chunks leave a gap [%lu, %lu) (job [%lu, %lu), "
			      "chunk_size %lu)", zone->name, at, dc.ch[nid][i].s, start, end, ps->chunk_size);
		if (dc.ch[nid][i].e != end && ps->chunk_size > 1 && dc.ch[nid][i].e % ps->chunk_size)
			dfail("I-DI-2", "%s: padata chunk [%lu, %lu) ends off a multiple of "
			      "chunk_size %lu", zone->name, dc.ch[nid][i].s, dc.ch[nid][i].e, ps->chunk_size);
		at = dc.ch[nid][i].e;
	}
	if (at != end)
		dfail("I-DI-2", "%s: padata chunks end at %lu, the job at %lu", zone->name, at, end);
	dc.nch[nid] = 0;
}

static bool resize_lock_held(const pg_data_t *pgdat)
{
	return current_task &&
	       __atomic_load_n(&pgdat->node_size_lock.sl.owner, __ATOMIC_RELAXED) == current_task;
}

/*
 * Where deferred_grow_zone may stop: a section boundary, or the start of a
 * free range past a hole or a reserved range.  6.6's loop stops once
 * deferred_init_maxorder's spfn left the section it began in, and
 * deferred_init_maxorder leaves spfn at the next MAX_ORDER boundary inside
 * a range (a section boundary, when it is in another section) or, when
 * its range ended first, at the next range's start, wherever that lies.
 */
static bool free_range_start(unsigned long pfn)
{
	const struct memblock *mb = &pa_world(dc.w)->memblock;

	return pfn && memblock_pfn_free(mb, pfn) && !memblock_pfn_free(mb, pfn - 1);
}

static __sched_notsan void hk_fdp_set(const pg_data_t *pgdat, unsigned long old, unsigned long new)
{
	struct deferred_world *dw = dcw();
	int nid = pgdat->node_id;

	if (!dc.active)
		return;
	if (!resize_lock_held(pgdat))
		dfail("I-DI-1", "node %d's first_deferred_pfn %lu -> %lu without pgdat_resize_lock",
		      nid, old, new);
	if (dc.taken[nid] && new != ULONG_MAX)
		dfail("I-DI-1", "node %d's first_deferred_pfn set to %lu after deferred_init_memmap "
		      "took it", nid, new);
	if (new != ULONG_MAX && (new <= old || (new % dw->pages_per_section &&
						 !free_range_start(new))))
		dfail("I-DI-1", "node %d's first_deferred_pfn %lu -> %lu: not forward to a section "
		      "boundary or a free range's start", nid, old, new);
	if (old != dc.fdp[nid])
		dfail("I-DI-1", "node %d's first_deferred_pfn was %lu, the last change under the lock "
		      "set %lu", nid, old, dc.fdp[nid]);
	dc.fdp[nid] = new;
	/* deferred_init_memmap: the only ULONG_MAX from a pfn inside the node
	 * before its jobs (deferred_grow_zone's is at the zone's end) */
	if (new == ULONG_MAX)
		dc.taken[nid] = true;
}

static void managed_valid(const char *where, int nid)
{
	struct zone *zone;

	for_each_populated_zone(zone) {
		long want = dc.managed_boot[zone->idx] +
			    __atomic_load_n(&dc.freed[zone->idx], __ATOMIC_RELAXED);
		long have = raw_atomic_read(&zone->managed_pages);

		if (nid >= 0 && zone_to_nid(zone) != nid)
			continue;
		if (have != want)
			dfail("I-DI-4", "%s: %s's managed_pages %ld, but boot and __free_pages_core "
			      "freed %ld (%s)", where, zone->name, have, want, where);
	}
}

/* Every deferred pfn of @nid initialised and freed exactly once. */
static void node_complete(int nid, const char *where)
{
	struct deferred_world *dw = dcw();
	struct pagealloc_world *pa = pa_world(dc.w);
	const pg_data_t *pgdat = &pa->node_data[nid];
	unsigned long pfn, end = pgdat->node_start_pfn + pgdat->node_spanned_pages;

	if (dw->stat[nid].first_deferred_pfn_boot == ULONG_MAX)
		return;
	for (pfn = dw->stat[nid].first_deferred_pfn_boot; pfn < end; pfn++) {
		if (!memblock_pfn_free(&pa->memblock, pfn))
			continue;
		if (dc.inits[pfn] != 1 || dc.frees[pfn] != 1)
			dfail("I-DI-2", "%s: node %d's deferred pfn %lu initialised %d and freed %d "
			      "times", where, nid, pfn, dc.inits[pfn], dc.frees[pfn]);
	}
}

static __sched_notsan void hk_node_done(const pg_data_t *pgdat)
{
	if (!dc.active)
		return;
	node_complete(pgdat->node_id, "deferred_init_memmap done");
	managed_valid("deferred_init_memmap done", pgdat->node_id);
}

/* __free_pages_core's pages on the free lists (zone->lock held: a
 * quiescent check never sees a page between the owners) */
static __sched_notsan void hk_core_freed(const struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << order;

	if (!dc.active || pfn + n > dc.cap)
		return;
	record_touch(pfn, n);
	memset(dc.inbuddy + pfn, 1, n);
}

/* ---- the checker ---- */

static void deferred_attach(struct world *w)
{
	struct pagealloc_world *pa = pa_world(w);

	dc.w = w;
	if (dc.cap < pa->nr_pages) {
		unsigned long ng = (pa->nr_pages + (1UL << TOUCH_SHIFT) - 1) >> TOUCH_SHIFT;

		free(dc.inits);
		free(dc.frees);
		free(dc.inbuddy);
		free(dc.touched);
		free(dc.touched_list);
		dc.inits = calloc(pa->nr_pages, 1);
		dc.frees = calloc(pa->nr_pages, 1);
		dc.inbuddy = calloc(pa->nr_pages, 1);
		dc.touched = calloc(ng, 1);
		dc.touched_list = calloc(ng, sizeof(*dc.touched_list));
		dc.nr_touched = 0;
		dc.cap = dc.inits && dc.frees && dc.inbuddy && dc.touched && dc.touched_list ?
			 pa->nr_pages : 0;
	}
	pagealloc_hooks.core_freed = hk_core_freed;
	pagealloc_hooks.page_poisoned = hk_page_poisoned;
	deferred_hooks.init_pages = hk_init_pages;
	deferred_hooks.free_range = hk_free_range;
	deferred_hooks.chunk = hk_chunk;
	deferred_hooks.job_begin = hk_job_begin;
	deferred_hooks.job_done = hk_job_done;
	deferred_hooks.first_deferred_pfn_set = hk_fdp_set;
	deferred_hooks.node_done = hk_node_done;
}

static void deferred_run_begin(struct world *w)
{
	struct deferred_world *dw = deferred_world(w);
	struct pagealloc_world *pa = pa_world(w);
	struct zone *zone;
	int nid;

	dc.w = w;
	dc.active = false;
	memset(dc.nch, 0, sizeof(dc.nch));
	if (!dc.cap)
		return;
	/* what the last run counted, in whatever world it ran */
	record_clear();
	if (!dw)
		return;
	for_each_populated_zone(zone) {
		dc.managed_boot[zone->idx] = raw_atomic_read(&zone->managed_pages);
		dc.freed[zone->idx] = 0;
	}
	for (nid = 0; nid < pa->nodes_online; nid++) {
		const pg_data_t *pgdat = &pa->node_data[nid];

		dc.fdp[nid] = pgdat->first_deferred_pfn;
		dc.taken[nid] = false;
		if (dw->stat[nid].first_deferred_pfn_boot != ULONG_MAX)
			dc.active = true;
	}
}

static void deferred_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct pagealloc_world *pa = pa_world(w);
	int nid;

	(void)f;
	if (!dc.active)
		return;
	for (nid = 0; nid < pa->nodes_online; nid++) {
		unsigned long fdp = __atomic_load_n(&pa->node_data[nid].first_deferred_pfn,
						    __ATOMIC_RELAXED);

		if (fdp != dc.fdp[nid])
			cfail_set(f, "I-DI-1", where, "node %d's first_deferred_pfn is %lu, the last "
				  "change under pgdat_resize_lock set %lu", nid, fdp, dc.fdp[nid]);
	}
	/* (no I-DI-4 here: __free_pages_core adds to managed_pages before it
	 * takes zone->lock, so a helper between the two is no bug; a node's
	 * zone is checked when its init reports done, and at the end) */
}

/*
 * The struct pages of holes and reserved ranges are initialised at boot,
 * PageReserved with one reference, wherever they lie (6.6
 * init_unavailable_range, memmap_init_reserved_pages): the buddy merge
 * reads a free block's buddy, which may be one of them, past
 * first_deferred_pfn too.  An uninitialised one (the poison pattern, or
 * ASan's poison: checked first, so ASan builds see this report rather than
 * their own) is I-DI-3's: a struct page the page allocator may read before
 * anyone initialised it.
 */
static void memblock_pages_valid(struct world *w, struct cfail *f)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long i = 0, spfn, epfn, at = 0, pfn;
	bool more;

	if (!pa->memblock.memory.cnt)
		return;
	do {
		more = memblock_next_free_range(&pa->memblock, 0, pa->nr_pages, &i, &spfn, &epfn);
		if (!more)
			spfn = epfn = pa->nr_pages;
		for (pfn = at; pfn < spfn && !f->hit; pfn++) {
			const struct page *page = &pa->memmap[pfn];
#if MMFUZZ_ASAN
			if (__asan_region_is_poisoned((void *)page, sizeof(*page))) {
				cfail_set(f, "I-DI-3", "end", "pfn %lu (a hole or reserved) has an "
					  "uninitialised struct page (ASan-poisoned)", pfn);
				break;
			}
#endif
			if (PagePoisoned(page)) {	/* before PageReserved's own check */
				cfail_set(f, "I-DI-3", "end", "pfn %lu (a hole or reserved) has an "
					  "uninitialised struct page (page_init_poison's pattern)",
					  pfn);
				break;
			}
			if (!PageReserved(page) || page_ref_count(page) != 1)
				cfail_set(f, "I-DI-3", "end", "pfn %lu (a hole or reserved) has a "
					  "struct page not initialised reserved: flags %#lx, count %d",
					  pfn, page->flags, page_ref_count(page));
		}
		at = epfn;
	} while (more && !f->hit);
}

static void deferred_end(struct world *w, struct cfail *f)
{
	struct deferred_world *dw = deferred_world(w);
	int nid;

	if (dw)
		memblock_pages_valid(w, f);
	deferred_quiescent(w, "end", f);
	if (!dc.active || f->hit)
		return;
	tsan_ignore_end();
	managed_valid("end", -1);
	for (nid = 0; nid < pa_world(w)->nodes_online; nid++)
		if (dw->stat[nid].done)
			node_complete(nid, "end");
	tsan_ignore_begin();
}

static const struct checker deferred_checker = {
	.name = "I-DI-1..4", .layer = "deferred", .prio = 25,
	.attach = deferred_attach, .run_begin = deferred_run_begin,
	.quiescent = deferred_quiescent, .end = deferred_end,
};
CHECKER(deferred_checker);

/* ---- owners (I-CONS) ---- */

/* The pfns deferred at boot not yet in the buddy: uninitialised, or
 * initialised by a chunk that has not freed them yet. */
static void deferred_collect(struct world *w, struct owner_sink *s)
{
	struct deferred_world *dw = deferred_world(w);
	struct pagealloc_world *pa = pa_world(w);
	int nid;

	if (!dw)
		return;
	for (nid = 0; nid < pa->nodes_online; nid++) {
		const pg_data_t *pgdat = &pa->node_data[nid];
		unsigned long i = 0, spfn, epfn, pfn;
		unsigned long fdp = dw->stat[nid].first_deferred_pfn_boot;
		unsigned long end = pgdat->node_start_pfn + pgdat->node_spanned_pages;
		bool counted = dc.active && dc.w == w;

		if (fdp == ULONG_MAX)
			continue;
		while (memblock_next_free_range(&pa->memblock, fdp, end, &i, &spfn, &epfn)) {
			if (!counted) {
				owner_add(s, spfn, epfn - spfn, (unsigned)nid);
				continue;
			}
			/* runs of pfns not yet in the buddy, one interval each:
			 * a deferred zone is mostly one run until init frees it */
			for (pfn = spfn; pfn < epfn; ) {
				const unsigned char *in = memchr(dc.inbuddy + pfn, 1, epfn - pfn);
				unsigned long next = in ? (unsigned long)(in - dc.inbuddy) : epfn;

				if (next > pfn)
					owner_add(s, pfn, next - pfn, (unsigned)nid);
				for (pfn = next; pfn < epfn && dc.inbuddy[pfn]; pfn++)
					;
			}
		}
	}
}

static void deferred_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "node %u's deferred struct pages (not yet freed to the buddy)", who);
}

static const struct owner_source deferred_owner = {
	.name = "deferred", .collect = deferred_collect, .describe = deferred_describe,
};
OWNER_SOURCE(deferred_owner);

/* Holes and reserved ranges: memory no allocator has. */
static void memblock_collect(struct world *w, struct owner_sink *s)
{
	struct pagealloc_world *pa = pa_world(w);
	unsigned long i = 0, spfn, epfn, at = 0;

	while (memblock_next_free_range(&pa->memblock, 0, pa->nr_pages, &i, &spfn, &epfn)) {
		if (spfn > at)
			owner_add(s, at, spfn - at, 0);
		at = epfn;
	}
	if (at < pa->nr_pages && pa->memblock.memory.cnt)
		owner_add(s, at, pa->nr_pages - at, 0);
}

static void memblock_describe(unsigned who, char *buf, size_t n)
{
	(void)who;
	snprintf(buf, n, "memblock: a hole or a reserved range");
}

static const struct owner_source memblock_owner = {
	.name = "memblock", .collect = memblock_collect, .describe = memblock_describe,
};
OWNER_SOURCE(memblock_owner);

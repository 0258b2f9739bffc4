// SPDX-License-Identifier: MIT
/*
 * Deferred struct-page init as Linux 6.6.0 has it (mm/mm_init.c 666-698,
 * 1963-2325, 2375-2417; mm/page_alloc.c's deferred_pages), in a file of its
 * own because the model's mm_init.c is near 800 lines: defer_init at this
 * layer's create, the pgdatinit%d kthreads, padata jobs per free range,
 * the init-then-free per MAX_ORDER block, deferred_grow_zone for the page
 * allocator (through its pagealloc_ext hooks), page_alloc_init_late.
 * deferred.h says the locks and what boot leaves.
 */
#include "deferred.h"
#include "internal.h"
#include "mm.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#include "../bugs/bugs.h"
#include "../kernel/preempt.h"
#include "../sched/san.h"

/* ---- config keys (binary places 80..95) ---- */

static const char *const threads_names[NR_DEFERRED_THREADS_VARIANTS] = {
	[DEFERRED_THREADS_ONE] = "one",
	[DEFERRED_THREADS_NODE_CPUS] = "node_cpus",
};

struct config_key ck_deferred_init = {
	.name = "deferred_init", .layer = "deferred",
	.desc = "boot with deferred struct-page init pending (CONFIG_DEFERRED_STRUCT_PAGE_INIT): "
		"each node's highest zone initialised for one section, the rest by pgdatinit",
	.lo = 0, .hi = 1, .def = 0, .bin_off = 80, .bin_len = 1,
};
/* mmzone.h:1740 #error unless MAX_ORDER + PAGE_SHIFT <= SECTION_SIZE_BITS:
 * a section holds whole MAX_ORDER blocks, so the key counts above them */
struct config_key ck_section_order = {
	.name = "section_shift", .layer = "deferred",
	.desc = "log2(PAGES_PER_SECTION / MAX_ORDER_NR_PAGES): a section holds 2^this "
		"MAX_ORDER blocks (6.6 keeps it >= 0)",
	.lo = 0, .hi = 6, .def = 1, .bin_off = 81, .bin_len = 1, .shrink = true,
};
struct config_key ck_memblock_holes = {
	.name = "memblock_holes", .layer = "deferred",
	.desc = "a hole in each node's highest zone (byte n: node n; 0 none; bits 0..4 its place "
		"in 32nds of the zone plus (place & 3) pages, bits 5..7 len: 3 * len + 1 pages)",
	.lo = 0, .hi = 65535, .def = 0, .bin_off = 82, .bin_len = 2, .shrink = true,
};
struct config_key ck_memblock_reserved = {
	.name = "memblock_reserved", .layer = "deferred",
	.desc = "a reserved range in each node's highest zone, encoded as memblock_holes",
	.lo = 0, .hi = 65535, .def = 0, .bin_off = 84, .bin_len = 2, .shrink = true,
};
struct config_key ck_deferred_min_chunk = {
	.name = "deferred_min_chunk", .layer = "deferred",
	.desc = "padata min_chunk of deferred_init_memmap's jobs, in sections (6.6: 1)",
	.lo = 1, .hi = 16, .def = 1, .bin_off = 86, .bin_len = 1, .tune = true, .shrink = true,
};
struct config_key ck_deferred_threads = {
	.name = "deferred_page_init_max_threads", .layer = "deferred",
	.desc = "deferred_page_init_max_threads(): one (6.6's generic __weak) or node_cpus "
		"(x86 in 6.6; every architecture after seed 002)",
	.lo = 0, .hi = NR_DEFERRED_THREADS_VARIANTS - 1, .def = DEFERRED_THREADS_ONE,
	.names = threads_names, .bin_off = 87, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_deferred_init);
CONFIG_KEY(ck_section_order);
CONFIG_KEY(ck_memblock_holes);
CONFIG_KEY(ck_memblock_reserved);
CONFIG_KEY(ck_deferred_min_chunk);
CONFIG_KEY(ck_deferred_threads);

DEFINE_HOOKS(deferred);

static struct world_layer deferred_layer;

struct deferred_world *deferred_world(const struct world *w)
{
	/* (during create too: the state is allocated before any create) */
	return w && deferred_layer.id > 0 ? w->layer_state[deferred_layer.id] : NULL;
}

#define dw_cur()		deferred_world(mm_world)
#define PAGES_PER_SECTION	(dw_cur()->pages_per_section)
#define MAX_ORDER_NR_PAGES	(1UL << MAX_ORDER)
#define IS_MAX_ORDER_ALIGNED(pfn)	(((pfn) & (MAX_ORDER_NR_PAGES - 1)) == 0)
#define ALIGN_UP(x, a)		(((x) + (a) - 1) / (a) * (a))
#define pageblock_aligned(pfn)	(((pfn) & (pageblock_nr_pages - 1)) == 0)

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline unsigned long pgdat_end_pfn(const pg_data_t *pgdat)
{
	return pgdat->node_start_pfn + pgdat->node_spanned_pages;
}

/* The node's highest populated zone: the one 6.6 defers. */
static struct zone *node_last_zone(pg_data_t *pgdat)
{
	int zid;

	for (zid = MAX_NR_ZONES - 1; zid > 0; zid--)
		if (populated_zone(&pgdat->node_zones[zid]))
			break;
	return &pgdat->node_zones[zid];
}

void memblock_spec_range(unsigned char spec, unsigned long zone_start, unsigned long zone_pages,
			 unsigned long *start, unsigned long *end)
{
	unsigned long place = spec & 31, len = 3UL * (spec >> 5) + 1;

	*start = *end = zone_start;
	if (!spec)
		return;
	*start = zone_start + place * zone_pages / 32 + (place & 3);
	*end = min(*start + len, zone_start + zone_pages);
	if (*start >= *end)
		*start = *end;
}

bool deferred_pages_enabled(void)
{
	struct deferred_world *dw = dw_cur();

	/* a static key: patched code, not a data race */
	return dw && __atomic_load_n(&dw->deferred_pages, __ATOMIC_RELAXED);
}

/* ---- the memblock free ranges of a zone (6.6 __next_mem_pfn_range_in_zone) ---- */

/* The next free range of @zone after *@i, or *@spfn ULONG_MAX, *@epfn 0 and
 * *@i ULONG_MAX at the end. */
static void next_mem_pfn_range_in_zone(unsigned long *i, struct zone *zone, unsigned long *spfn,
				       unsigned long *epfn)
{
	if (*i == ULONG_MAX ||
	    !memblock_next_free_range(&mm_pa->memblock, zone->zone_start_pfn, zone_end_pfn(zone), i,
				      spfn, epfn)) {
		*i = ULONG_MAX;
		*spfn = ULONG_MAX;
		*epfn = 0;
	}
}

/* 6.6 mm_init.c deferred_init_mem_pfn_range_in_zone: skip the ranges
 * already initialised, clip the first one to @first_init_pfn. */
static bool deferred_init_mem_pfn_range_in_zone(unsigned long *i, struct zone *zone,
						unsigned long *spfn, unsigned long *epfn,
						unsigned long first_init_pfn)
{
	unsigned long j = 0;

	for (next_mem_pfn_range_in_zone(&j, zone, spfn, epfn); j != ULONG_MAX;
	     next_mem_pfn_range_in_zone(&j, zone, spfn, epfn)) {
		if (*epfn <= first_init_pfn)
			continue;
		if (*spfn < first_init_pfn)
			*spfn = first_init_pfn;
		*i = j;
		return true;
	}
	return false;
}

/* ---- init and free (6.6 mm_init.c 1963-2150) ---- */

/*
 * deferred_free_range: a whole aligned MAX_ORDER block at MAX_ORDER, else
 * page by page, each pageblock MOVABLE first; every __free_pages_core adds
 * to managed_pages and takes zone->lock.
 */
static void deferred_free_range(unsigned long pfn, unsigned long nr_pages)
{
	struct page *page;
	unsigned long i;

	if (!nr_pages)
		return;
	HOOK(deferred, free_range, pfn, nr_pages);
	page = pfn_to_page(pfn);

	/* Free a large naturally-aligned chunk if possible */
	if (nr_pages == MAX_ORDER_NR_PAGES && IS_MAX_ORDER_ALIGNED(pfn)) {
		for (i = 0; i < nr_pages; i += pageblock_nr_pages)
			set_pageblock_migratetype(page + i, MIGRATE_MOVABLE);
		__free_pages_core(page, (unsigned int)MAX_ORDER);
		return;
	}
	for (i = 0; i < nr_pages; i++, page++, pfn++) {
		if (pageblock_aligned(pfn))
			set_pageblock_migratetype(page, MIGRATE_MOVABLE);
		__free_pages_core(page, 0);
	}
}

/* Completion tracking for deferred_init_memmap() threads */
static void pgdat_init_report_one_done(struct deferred_world *dw)
{
	if (atomic_dec_and_test(&dw->pgdat_init_n_undone))
		complete(&dw->pgdat_init_all_done_comp);
}

/* 6.6 deferred_free_pages: aligned MAX_ORDER blocks, the rest as it comes
 * (every model pfn has a memmap: deferred_pfn_valid is always true). */
static void deferred_free_pages(unsigned long pfn, unsigned long end_pfn)
{
	unsigned long nr_free = 0;

	for (; pfn < end_pfn; pfn++) {
		if (IS_MAX_ORDER_ALIGNED(pfn)) {
			deferred_free_range(pfn - nr_free, nr_free);
			nr_free = 1;
		} else {
			nr_free++;
		}
	}
	/* Free the last block of pages to allocator */
	deferred_free_range(pfn - nr_free, nr_free);
}

/* 6.6 deferred_init_pages: __init_single_page on each; the count. */
static unsigned long deferred_init_pages(struct zone *zone, unsigned long pfn,
					 unsigned long end_pfn)
{
	int nid = zone_to_nid(zone);
	int zid = (int)zone_idx(zone);
	unsigned long nr_pages = 0;

	if (pfn < end_pfn)
		HOOK(deferred, init_pages, pfn, end_pfn - pfn);
	for (; pfn < end_pfn; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (IS_MAX_ORDER_ALIGNED(pfn) || !nr_pages)
			world_touch_pfn(pfn);	/* the reset poisons it again */
		san_unpoison(page, sizeof(*page));
		__init_single_page(page, pfn, (unsigned long)zid, nid);
		nr_pages++;
	}
	return nr_pages;
}

/*
 * 6.6 deferred_init_maxorder: "first we initialize struct page, then free
 * to buddy allocator, because while we are freeing pages we can access
 * pages that are ahead (computing buddy page in __free_one_page())".
 * (maxorder_free_before_init: the other way round.)
 */
static unsigned long deferred_init_maxorder(unsigned long *i, struct zone *zone,
					    unsigned long *start_pfn, unsigned long *end_pfn)
{
	unsigned long mo_pfn = ALIGN_UP(*start_pfn + 1, MAX_ORDER_NR_PAGES);
	unsigned long spfn = *start_pfn, epfn = *end_pfn;
	unsigned long nr_pages = 0, j = *i, t;
	bool free_first = bug_on(BUG_MAXORDER_FREE_BEFORE_INIT);

	if (free_first) {	/* the bug: free, then initialise */
		for (t = j; t != ULONG_MAX; next_mem_pfn_range_in_zone(&t, zone, &spfn, &epfn)) {
			if (mo_pfn <= spfn)
				break;
			deferred_free_pages(spfn, min(mo_pfn, epfn));
			if (mo_pfn <= epfn)
				break;
		}
	}

	/* First we loop through and initialize the page values */
	for (; j != ULONG_MAX; next_mem_pfn_range_in_zone(&j, zone, start_pfn, end_pfn)) {
		if (mo_pfn <= *start_pfn)
			break;
		t = min(mo_pfn, *end_pfn);
		nr_pages += deferred_init_pages(zone, *start_pfn, t);
		if (mo_pfn < *end_pfn) {
			*start_pfn = mo_pfn;
			break;
		}
	}

	/* Reset values and now loop through freeing pages as needed */
	t = j;
	j = *i;
	*i = t;
	if (free_first)
		return nr_pages;
	for (; j != ULONG_MAX; next_mem_pfn_range_in_zone(&j, zone, &spfn, &epfn)) {
		if (mo_pfn <= spfn)
			break;
		t = min(mo_pfn, epfn);
		deferred_free_pages(spfn, t);
		if (mo_pfn <= epfn)
			break;
	}
	return nr_pages;
}

/* padata's thread_fn: initialise and free [start_pfn, end_pfn) of a zone */
static void deferred_init_memmap_chunk(unsigned long start_pfn, unsigned long end_pfn, void *arg)
{
	struct zone *zone = arg;
	unsigned long spfn, epfn, i = 0, nr_pages = 0;

	HOOK(deferred, chunk, zone, start_pfn, end_pfn);
	HOOK(deferred, state_chunk, zone, start_pfn, end_pfn, PAGES_PER_SECTION);
	deferred_init_mem_pfn_range_in_zone(&i, zone, &spfn, &epfn, start_pfn);

	/*
	 * Initialize and free pages in MAX_ORDER sized increments so that we
	 * can avoid introducing any issues with the buddy allocator.
	 */
	while (spfn < end_pfn) {
		nr_pages += deferred_init_maxorder(&i, zone, &spfn, &epfn);
		cond_resched();
	}
	__atomic_add_fetch(&dw_cur()->stat[zone_to_nid(zone)].pages_initialised, nr_pages,
			   __ATOMIC_RELAXED);	/* the model's count, not a yield point */
}

/* 6.6: a __weak 1, x86's (and after seed 002 everyone's) the node's CPUs */
static int deferred_page_init_max_threads(const struct cpumask *node_cpumask)
{
	int n = 0, cpu;

	if (dw_cur()->threads_variant == DEFERRED_THREADS_ONE)
		return 1;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		n += cpumask_test_cpu(cpu, node_cpumask);
	return n > 1 ? n : 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Initialise remaining memory on a node (6.6 mm_init.c 2176-2246) */
int deferred_init_memmap(pg_data_t *pgdat)
{
	struct deferred_world *dw = dw_cur();
	struct deferred_node_stat *st = &dw->stat[pgdat->node_id];
	const struct cpumask *cpumask = cpumask_of_node(pgdat->node_id);
	unsigned long spfn = 0, epfn = 0, first_init_pfn, flags, i = 0;
	uint64_t start = now_ns();
	struct zone *zone;
	int zid, max_threads;

	pgdat_resize_lock(pgdat, flags);
	first_init_pfn = pgdat->first_deferred_pfn;
	if (first_init_pfn == ULONG_MAX) {
		pgdat_resize_unlock(pgdat, flags);
		st->done = true;
		pgdat_init_report_one_done(dw);
		return 0;
	}

	/* Sanity check boundaries */
	BUG_ON(pgdat->first_deferred_pfn < pgdat->node_start_pfn);
	BUG_ON(pgdat->first_deferred_pfn > pgdat_end_pfn(pgdat));
	HOOK(deferred, first_deferred_pfn_set, pgdat, first_init_pfn, ULONG_MAX);
	WRITE_ONCE(pgdat->first_deferred_pfn, ULONG_MAX);

	/*
	 * Once we unlock here, the zone cannot be grown anymore, thus if an
	 * interrupt thread must allocate this early in boot, zone must be
	 * pre-grown prior to start of deferred page initialization.
	 */
	pgdat_resize_unlock(pgdat, flags);

	/* Only the highest zone is deferred so find it */
	for (zid = 0; zid < MAX_NR_ZONES; zid++) {
		zone = pgdat->node_zones + zid;
		if (first_init_pfn < zone_end_pfn(zone))
			break;
	}

	/* If the zone is empty somebody else may have cleared out the zone */
	if (zid == MAX_NR_ZONES ||
	    !deferred_init_mem_pfn_range_in_zone(&i, zone, &spfn, &epfn, first_init_pfn))
		goto zone_empty;

	max_threads = deferred_page_init_max_threads(cpumask);
	st->max_threads = max_threads;

	while (spfn < epfn) {
		unsigned long epfn_align = ALIGN_UP(epfn, PAGES_PER_SECTION);
		struct padata_mt_job job = {
			.thread_fn = deferred_init_memmap_chunk,
			.fn_arg = zone,
			.start = spfn,
			.size = epfn_align - spfn,
			.align = PAGES_PER_SECTION,
			.min_chunk = PAGES_PER_SECTION * (unsigned long)dw->min_chunk_sections,
			.max_threads = max_threads,
		};
		struct padata_stat ps;

		HOOK(deferred, job_begin, zone, job.start, job.size);
		padata_do_multithreaded(&dw->padata, &job, &ps);
		HOOK(deferred, job_done, zone, spfn, epfn_align - spfn, &ps);
		st->nr_jobs++;
		st->nworks += ps.nworks;
		st->nworks_fini += ps.nworks_fini;
		deferred_init_mem_pfn_range_in_zone(&i, zone, &spfn, &epfn, epfn_align);
	}
zone_empty:
	/* pr_info("node %d deferred pages initialised in %ums\n", ...) */
	st->ns = now_ns() - start;
	st->done = true;
	HOOK(deferred, node_done, pgdat);
	pgdat_init_report_one_done(dw);
	return 0;
}

/*
 * If this zone has deferred pages, try to grow it by initializing enough
 * deferred pages to satisfy the allocation specified by order, rounded up
 * to the nearest PAGES_PER_SECTION boundary (6.6 mm_init.c 2259-2325).
 * Return true when zone was grown, otherwise return false.  We return
 * true even when we grow less than requested, to let the caller decide if
 * there are enough pages to satisfy the allocation.
 */
bool deferred_grow_zone(struct zone *zone, unsigned int order)
{
	struct deferred_world *dw = dw_cur();
	unsigned long nr_pages_needed = ALIGN_UP(1UL << order, PAGES_PER_SECTION);
	pg_data_t *pgdat = zone->zone_pgdat;
	/* racy: compared again under the lock */
	unsigned long first_deferred_pfn = READ_ONCE(pgdat->first_deferred_pfn);
	unsigned long spfn, epfn, flags, nr_pages = 0, i = 0;

	/* Only the last zone may have deferred pages */
	if (zone_end_pfn(zone) != pgdat_end_pfn(pgdat)) {
		HOOK(deferred, state_grow, zone, GROW_NOT_LAST_ZONE);
		return false;
	}

	pgdat_resize_lock(pgdat, flags);

	/*
	 * If someone grew this zone while we were waiting for spinlock, return
	 * true, as there might be enough pages already.
	 */
	if (first_deferred_pfn != pgdat->first_deferred_pfn) {
		pgdat_resize_unlock(pgdat, flags);
		HOOK(deferred, state_grow, zone, GROW_RACED);
		return true;
	}

	/* If the zone is empty somebody else may have cleared out the zone */
	if (!deferred_init_mem_pfn_range_in_zone(&i, zone, &spfn, &epfn, first_deferred_pfn)) {
		if (first_deferred_pfn != ULONG_MAX)
			HOOK(deferred, first_deferred_pfn_set, pgdat, first_deferred_pfn, ULONG_MAX);
		WRITE_ONCE(pgdat->first_deferred_pfn, ULONG_MAX);
		pgdat_resize_unlock(pgdat, flags);
		HOOK(deferred, state_grow, zone,
		     first_deferred_pfn != ULONG_MAX ? GROW_EMPTIED : GROW_TAKEN);
		/* Retry only once. */
		return first_deferred_pfn != ULONG_MAX;
	}

	/*
	 * Initialize and free pages in MAX_ORDER sized increments so that we
	 * can avoid introducing any issues with the buddy allocator.
	 */
	while (spfn < epfn) {
		/* update our first deferred PFN for this section */
		first_deferred_pfn = spfn;

		nr_pages += deferred_init_maxorder(&i, zone, &spfn, &epfn);

		/* We should only stop along section boundaries */
		if ((first_deferred_pfn ^ spfn) < PAGES_PER_SECTION)
			continue;

		/* If our quota has been met we can stop here */
		if (nr_pages >= nr_pages_needed)
			break;
	}

	HOOK(deferred, first_deferred_pfn_set, pgdat, pgdat->first_deferred_pfn, spfn);
	WRITE_ONCE(pgdat->first_deferred_pfn, spfn);
	pgdat_resize_unlock(pgdat, flags);
	if (nr_pages) {	/* the model's counts, outside the lock: relaxed atomics */
		struct deferred_node_stat *st = &dw->stat[pgdat->node_id];

		__atomic_add_fetch(&st->pages_grown, nr_pages, __ATOMIC_RELAXED);
		__atomic_add_fetch(&st->nr_grows, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&st->nr_grows_irq, current->irq_ctx, __ATOMIC_RELAXED);
	}
	HOOK(deferred, state_grow, zone, nr_pages ? GROW_GREW : GROW_NOTHING);
	return nr_pages > 0;
}

/* get_page_from_freelist's _deferred_grow_zone, through the page
 * allocator's pagealloc_ext hook */
static bool _deferred_grow_zone(struct zone *zone, unsigned int order)
{
	return deferred_pages_enabled() && deferred_grow_zone(zone, order);
}

__attribute__((constructor)) static void deferred_ext_attach(void)
{
	pagealloc_ext_hooks.deferred_grow_zone = _deferred_grow_zone;
}

/* ---- page_alloc_init_late (6.6 mm_init.c 2375-2417) ---- */

static const char *const pgdatinit_names[MAX_NUMNODES] = { "pgdatinit0", "pgdatinit1" };

static void pgdatinit_kthread(struct task *t, void *arg)
{
	(void)t;
	deferred_init_memmap(arg);
}

/*
 * The first online CPU of the node: set_cpus_allowed_ptr(current, cpumask).
 * A node without an online CPU (x86's cpumask_of_node holds the online
 * ones) has an empty mask, and 6.6 then sets no affinity: the kthread runs
 * where it was made, any online CPU; the first.
 */
static int node_first_cpu(struct fsched *fs, int nid)
{
	int cpu;

	for (cpu = 0; cpu < fs->ncpus; cpu++)
		if (cpumask_test_cpu(cpu, cpumask_of_node(nid)) && fsched_cpu_online(fs, cpu))
			return cpu;
	for (cpu = 0; cpu < fs->ncpus; cpu++)
		if (fsched_cpu_online(fs, cpu))
			return cpu;
	return 0;
}

int deferred_init_claim(void)
{
	struct deferred_world *dw = dw_cur();

	/* once a boot, whoever comes first (two operations may ask) */
	if (!dw || __atomic_exchange_n(&dw->init_started, true, __ATOMIC_ACQ_REL))
		return -EBUSY;
	/* There will be num_node_state(N_MEMORY) threads */
	atomic_set(&dw->pgdat_init_n_undone, nr_online_nodes);
	return 0;
}

int deferred_init_start(struct fsched *fs)
{
	int nid, rc = 0;

	if (deferred_init_claim())
		return 0;
	for_each_online_node(nid) {
		if (fs && fsched_kthread_run(fs, pgdatinit_kthread, NODE_DATA(nid), pgdatinit_names[nid],
					     node_first_cpu(fs, nid), false))
			continue;
		rc = -EAGAIN;
		deferred_init_memmap(NODE_DATA(nid));
	}
	return rc;
}

/*
 * init_per_zone_wmark_min's part: the watermarks boot kept at zero, put
 * back under zone->lock as __setup_per_zone_wmarks writes them (@locked:
 * from a task; boot runs outside any).
 */
static void deferred_watermarks(struct deferred_world *dw, bool zero, bool locked)
{
	struct zone *zone;
	unsigned long flags = 0;
	int z = 0, m;

	for_each_populated_zone(zone) {
		if (locked)
			spin_lock_irqsave(&zone->lock, flags);
		for (m = 0; m < NR_WMARK; m++)
			__WRITE_ONCE(zone->_watermark[m], zero ? 0 : dw->watermark[z][m]);
		if (locked)
			spin_unlock_irqrestore(&zone->lock, flags);
		z++;
	}
}

void deferred_init_wait(void)
{
	struct deferred_world *dw = dw_cur();

	if (!dw || !dw->enabled)
		return;
	if (!__atomic_load_n(&dw->init_started, __ATOMIC_ACQUIRE))
		deferred_init_start(current_task ? current_task->fs : NULL);
	/* Block until all are initialised */
	wait_for_completion(&dw->pgdat_init_all_done_comp);
	/* the model's: 6.6 has one waiter; a second task asking finds it done */
	complete(&dw->pgdat_init_all_done_comp);
	__atomic_store_n(&dw->init_done, true, __ATOMIC_RELEASE);
	/*
	 * We initialized the rest of the deferred pages.  Permanently disable
	 * on-demand struct page initialization.
	 */
	if (__atomic_load_n(&dw->deferred_pages, __ATOMIC_RELAXED)) {
		__atomic_store_n(&dw->deferred_pages, 0, __ATOMIC_RELAXED);
		deferred_watermarks(dw, false, current_task != NULL);
		HOOK(deferred, init_late_done);
	}
}

void page_alloc_init_late(void)
{
	deferred_init_start(current_task ? current_task->fs : NULL);
	deferred_init_wait();
}

bool deferred_init_pending(const struct world *w)
{
	const struct deferred_world *dw = deferred_world(w);

	return dw && dw->enabled && !__atomic_load_n(&dw->init_done, __ATOMIC_ACQUIRE);
}

void deferred_node_stat_get(const struct world *w, int nid, struct deferred_node_stat *st)
{
	const struct deferred_world *dw = deferred_world(w);

	if (dw && nid >= 0 && nid < MAX_NUMNODES)
		*st = dw->stat[nid];
	else
		memset(st, 0, sizeof(*st));
}

/* ---- the world layer ---- */

static void deferred_tune(struct world *w, const struct mm_config *c)
{
	struct deferred_world *dw = deferred_world(w);

	dw->min_chunk_sections = (int)config_get(c, &ck_deferred_min_chunk);
	dw->threads_variant = (int)config_get(c, &ck_deferred_threads);
}

/*
 * 6.6 defer_init (mm_init.c 666-698): the highest zone of the node gets
 * PAGES_PER_SECTION present pages initialised; the first section-aligned
 * pfn after them is the first deferred one.  ULONG_MAX: the zone is too
 * small to defer anything.
 */
static unsigned long defer_init_pfn(struct pagealloc_world *pa, struct zone *zone,
				    unsigned long pps)
{
	unsigned long pfn, nr_initialised = 0, end = zone_end_pfn(zone);

	for (pfn = zone->zone_start_pfn; pfn < end; pfn++) {
		if (!memblock_pfn_present(&pa->memblock, pfn))
			continue;	/* memmap_init_range runs per memory range */
		nr_initialised++;
		if (nr_initialised > pps && (pfn & (pps - 1)) == 0)
			return pfn;
	}
	return ULONG_MAX;
}

static int deferred_create(struct world *w, const struct mm_config *c)
{
	struct deferred_world *dw = deferred_world(w);
	struct pagealloc_world *pa = pa_world(w);
	long holes = config_get(c, &ck_memblock_holes), rsv = config_get(c, &ck_memblock_reserved);
	int nid, z = 0, m;
	struct zone *zone;

	dw->enabled = (int)config_get(c, &ck_deferred_init);
	dw->pages_per_section = 1UL << (config_get(c, &ck_section_order) + pa->max_order);
	deferred_tune(w, c);
	for (nid = 0; nid < pa->nodes_online; nid++) {
		pg_data_t *pgdat = &pa->node_data[nid];
		unsigned long s, e, blk = 1UL << pa->max_order;
		int zid;

		zone = &pgdat->node_zones[MAX_NR_ZONES - 1];
		dw->holes[nid] = (unsigned char)(holes >> (8 * nid));
		dw->reserved[nid] = (unsigned char)(rsv >> (8 * nid));
		/* the zone's first MAX_ORDER block stays free memory: a zone
		 * never empties */
		memblock_spec_range(dw->holes[nid], zone->zone_start_pfn + blk,
				    zone->spanned_pages - blk, &s, &e);
		if (s < e && memblock_remove(&pa->memblock, s, e - s))
			return -ENOMEM;
		memblock_spec_range(dw->reserved[nid], zone->zone_start_pfn + blk,
				    zone->spanned_pages - blk, &s, &e);
		if (s < e && memblock_reserve(&pa->memblock, s, e - s))
			return -ENOMEM;
		pgdat->node_present_pages = 0;
		for (zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *zz = &pgdat->node_zones[zid];

			if (!populated_zone(zz))
				continue;
			zz->present_pages = memblock_present_pages(&pa->memblock, zz->zone_start_pfn,
								   zone_end_pfn(zz));
			pgdat->node_present_pages += zz->present_pages;
		}
		if (dw->enabled) {
			unsigned long pfn = defer_init_pfn(pa, node_last_zone(pgdat),
							   dw->pages_per_section);

			if (pagealloc_defer_memmap(w, nid, pfn))
				return -EINVAL;
		}
	}
	for_each_zone(zone)
		if (zone->w == w && populated_zone(zone) && z < MAX_ZONES_PER_ZONELIST) {
			for (m = 0; m < NR_WMARK; m++)
				dw->watermark[z][m] = zone->_watermark[m];
			z++;
		}
	return 0;
}

static void deferred_boot(struct world *w)
{
	struct deferred_world *dw = deferred_world(w);
	struct pagealloc_world *pa = pa_world(w);
	bool any = false;
	int nid;

	memset(dw->stat, 0, sizeof(dw->stat));
	for (nid = 0; nid < pa->nodes_online; nid++) {
		pg_data_t *pgdat = &pa->node_data[nid];
		unsigned long fdp = pgdat->first_deferred_pfn;

		dw->stat[nid].first_deferred_pfn_boot = fdp;
		if (fdp != ULONG_MAX) {
			dw->stat[nid].pages_deferred =
				memblock_free_pages_in(&pa->memblock, fdp, pgdat_end_pfn(pgdat));
			any = true;
		}
	}
	dw->deferred_pages = dw->enabled && any;
	dw->init_started = false;
	dw->init_done = false;
	atomic_set(&dw->pgdat_init_n_undone, 0);
	init_completion_named(&dw->pgdat_init_all_done_comp, "pgdat_init_all_done_comp");
	padata_pool_init(&dw->padata, PADATA_MAX_WORKS);
	/* watermarks stay zero until page_alloc_init_late (6.6 computes them
	 * after it: init_per_zone_wmark_min is a postcore_initcall) */
	deferred_watermarks(dw, dw->deferred_pages, false);
}

/*
 * An operation that runs page_alloc_init_late does a node's init in it:
 * a few steps a page (the page-by-page frees of partial blocks, each
 * through zone->lock), the allocator's own budget on top.
 */
static uint64_t deferred_max_op_steps(const struct mm_config *c)
{
	uint64_t pages = (uint64_t)(config_get(c, &ck_zones) + config_get(c, &ck_nodes) - 1) *
			 (uint64_t)config_get(c, &ck_zone_pages);

	return config_get(c, &ck_deferred_init) ? pages * 32 : 0;
}

static struct world_layer deferred_layer = {
	.name = "deferred",
	.order = 2,
	.state_size = sizeof(struct deferred_world),
	.create = deferred_create,
	.boot = deferred_boot,
	.tune = deferred_tune,
	.max_op_steps = deferred_max_op_steps,
};
WORLD_LAYER(deferred_layer);

// SPDX-License-Identifier: MIT
/*
 * SLUB's invariants at quiescence (I-SL; docs/layer-slub.md), read from the
 * model's state and never changing it:
 *   I-SL-FROZEN       no frozen slab on the node's partial list; every
 *                     CPU's slab and CPU partial slab frozen
 *   I-SL-INUSE        a partial slab's freelist holds objects - inuse
 *   I-SL-OWNER        no object on a freelist has an owner cookie
 *   I-SL-NRPARTIAL    nr_partial equals the partial list's length
 *   I-SL-CPUFREELIST  a CPU's freelist stays inside the CPU's slab
 *   I-SL-CPUPARTIAL   a CPU partial chain's slabs count down by one to 1,
 *                     never past cpu_partial_slabs * 3/2 + 1 (get_partial_node
 *                     fills without the drain's bound)
 * Seed 004's counters (variants partial_counters*, src/mm/slub_partial.c;
 * the bound's derivation in docs/layer-slub.md), at every n->list_lock
 * acquisition (the lock's validator) and at quiescence:
 *   I-SL-PTOTAL       partial_total_objs equals the objects of the slabs on
 *                     the node's list
 *   I-SL-PFREE        the free counter S (the CPUs' partial_free_objs
 *                     summed, or the atomic) and what count_partial counts
 *                     F: 0 <= F - S <= P, P the objects of the __slab_free
 *                     calls from before their cmpxchg to their counter update
 *                     (the hooks free_pending / free_counted); without
 *                     the hooks (the stress runner) F - S >= 0 only: a
 *                     kernel thread's free may sit in its lockless
 *                     window at a quiescence that holds no lock
 *   I-SL-WALK         every slab count_partial reaches is on the list
 *                     when it reaches it (checked at each step)
 * A debug cache's slab counters (every change of them is under
 * n->list_lock there: alloc_single_from_new_slab, free_to_partial_list,
 * kmem_cache_shrink), at every n->list_lock acquisition and release and at
 * quiescence, with the executor's hooks attached:
 *   I-SL-NRSLABS      nr_slabs equals the slabs of the cache (the node's
 *                     lists, and the full slabs no list keeps), and
 *                     total_objects their objects
 * Held elsewhere: one owner per object at every alloc and free (the
 * cookie's exchange in slub.c); and, at each release of a CPU's
 * s->cpu_slab->lock (slab_run.c, the executor's):
 *   I-SL-TID          a section that changed the CPU's freelist or slab
 *                     moved its tid, and the tid is still the CPU's
 *                     (init_tid(cpu) + n * TID_STEP)
 *   I-CONS            (the "slab" owner source below) every slab page held
 *                     by one list, CPU, RCU callback, or full on no list
 */
#include <stdio.h>

#include "check.h"
#include "slab_check.h"
#include "../mm/slab.h"
#include "../mm/slub_world.h"

#include <limits.h>
#include <string.h>

/* ---- the slab heads a run's pages hold ----
 *
 * Every slab page was taken off a free list, and every take marks its
 * max-order block dirty (world_touch_pfn, mm_init.c) until the page
 * allocator's reset: the PG_slab heads are in the dirty blocks, so a walk
 * of those costs the memory the execution touched, not the memmap (a walk
 * of every pfn made a debug cache's I-SL-NRSLABS, run at each list_lock
 * acquisition and release, cost the zone's size: 50 times slower at 65536
 * pages than at 1024).  A struct page deferred init has not initialised yet
 * is poisoned (memmap_poison_deferred: all ones, and ASan-poisoned): it is
 * no slab, and is not read.
 */
#if MMFUZZ_ASAN
#include <sanitizer/asan_interface.h>
#endif

static bool page_memmap_poisoned(const struct page *page)
{
#if MMFUZZ_ASAN
	if (__asan_region_is_poisoned((void *)page, sizeof(*page)))
		return true;
#endif
	return page->flags == ~0UL;	/* 6.6's PagePoisoned */
}

/* The next slab head at or after *pos (a dirty block's index << max_order
 * | the pfn's offset in it), or NULL; *pos moves past its pages. */
static struct slab *next_touched_slab(unsigned long *pos)
{
	struct pagealloc_world *pa = mm_pa;
	unsigned long blk = 1UL << pa->max_order;

	for (; (*pos >> pa->max_order) < pa->nr_dirty; (*pos)++) {
		unsigned long off = *pos & (blk - 1);
		unsigned long pfn = (pa->dirty_list[*pos >> pa->max_order] << pa->max_order) + off;
		struct page *page = pfn_to_page(pfn);
		struct slab *slab;

		if (page_memmap_poisoned(page) || !(page->flags & (1UL << PG_slab)))
			continue;
		slab = page_slab(page);
		/* a slab of order k is k-aligned inside its block: skip its tails */
		*pos += 1UL << oo_order(slab->slab_cache->oo);
		return slab;
	}
	return NULL;
}

#define for_each_touched_slab(slab, pos) \
	for ((pos) = 0; ((slab) = next_touched_slab(&(pos))) != NULL;)

/* ---- the quiescent checks (I-SL) ---- */

long slub_objects_inuse(struct kmem_cache *s)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab;
	long x = 0;

	list_for_each_entry(slab, &n->partial, slab_list)
		x += slab->inuse;
	return x;
}

/* the node's partial list (at quiescence, and under n->list_lock: the
 * executor's validator at each acquisition, the validate operation) */
void validate_slab_node(struct kmem_cache *s, struct kmem_cache_node *n)
{
	struct slab *slab;
	unsigned long nr = 0;

	list_for_each_entry(slab, &n->partial, slab_list) {
		unsigned int nfree = 0;
		void *p;

		nr++;
		if (slab->frozen)
			sched_violation("I-SL-FROZEN", __func__, "%s: a frozen slab on the node's list",
					s->name);
		for (p = slab->freelist; p; p = get_freepointer(s, p)) {
			if (++nfree > slab->objects)
				break;
			if (*obj_cookie(s, p) != SLUB_COOKIE_FREE)
				sched_violation("I-SL-OWNER", __func__,
						"%s: object %p on a freelist is owned", s->name, p);
		}
		if (nfree != (unsigned int)(slab->objects - slab->inuse))
			sched_violation("I-SL-INUSE", __func__,
					"%s: %u objects free on the freelist, inuse %u of %u",
					s->name, nfree, slab->inuse, slab->objects);
	}
	if (nr != n->nr_partial)
		sched_violation("I-SL-NRPARTIAL", __func__, "%s: nr_partial %lu, list holds %lu",
				s->name, n->nr_partial, nr);
	slab_nr_slabs_check(s, n, __func__);
}

/*
 * I-SL-NRSLABS: a debug cache (kmem_cache_debug: no CPU slab, no lockless
 * free) counts a slab in nr_slabs under n->list_lock when it lists it
 * (alloc_single_from_new_slab) and uncounts it under the lock when it takes
 * it off its list to free it (free_to_partial_list, kmem_cache_shrink;
 * kmem_cache_destroy uncounts after its unlock, with nobody beside it, and
 * its release is not checked).  So whenever the
 * lock is free, nr_slabs is the partial list, plus the full list
 * (SLAB_STORE_USER) or else the full slabs no list keeps: found by a walk
 * of the PG_slab heads, as I-CONS does, taking the unfrozen ones with every
 * object in use.  A slab on its way in (allocate_slab's, frozen, then
 * inuse 1 before the lock) or out (inuse 0 once off its list, waiting for
 * free_slab or its grace period) is neither counted nor taken.  Without the
 * executor's hooks (the stress runner's real threads) another thread's
 * allocate_slab may be half written under the walk: not checked.
 */
void slab_nr_slabs_check(struct kmem_cache *s, struct kmem_cache_node *n, const char *where)
{
	unsigned long nr = 0, objs = 0, pos;
	long nr_slabs, total;
	struct slab *slab;

	if (!kmem_cache_debug(s) || !slub_partial_hooks.free_pending)
		return;
	list_for_each_entry(slab, &n->partial, slab_list) {
		nr++;
		objs += slab->objects;
	}
	if (s->flags & SLAB_STORE_USER) {
		list_for_each_entry(slab, &n->full, slab_list) {
			nr++;
			objs += slab->objects;
		}
	} else {
		for_each_touched_slab(slab, pos) {
			if (slab->slab_cache != s || slab->frozen || slab->inuse != slab->objects)
				continue;
			nr++;
			objs += slab->objects;
		}
	}
	nr_slabs = __atomic_load_n(&n->nr_slabs.counter, __ATOMIC_RELAXED);
	total = __atomic_load_n(&n->total_objects.counter, __ATOMIC_RELAXED);
	if (nr_slabs != (long)nr || total != (long)objs)
		sched_violation("I-SL-NRSLABS", where,
				"%s: nr_slabs %ld, total_objects %ld; the node's lists and the "
				"full slabs hold %lu slabs, %lu objects",
				s->name, nr_slabs, total, nr, objs);
}

void validate_slab_cache(struct kmem_cache *s)
{
	struct slab *slab;
	int cpu;

	validate_slab_node(s, get_node(s, 0));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
		unsigned int nfree = 0;
		void *p;

		if (c->slab && !c->slab->frozen)
			sched_violation("I-SL-FROZEN", __func__, "%s: cpu%d's slab not frozen",
					s->name, cpu);
		for (p = c->freelist; p; p = get_freepointer(s, p)) {
			if (++nfree > SLUB_MAX_OBJECTS || virt_to_slab(p) != c->slab) {
				sched_violation("I-SL-CPUFREELIST", __func__,
						"%s: cpu%d's freelist leaves its slab at %p",
						s->name, cpu, p);
				break;
			}
			if (*obj_cookie(s, p) != SLUB_COOKIE_FREE)
				sched_violation("I-SL-OWNER", __func__,
						"%s: object %p on cpu%d's freelist is owned",
						s->name, p, cpu);
		}
		for (slab = c->partial; slab; slab = slab->next) {
			if (!slab->frozen)
				sched_violation("I-SL-FROZEN", __func__,
						"%s: cpu%d's partial slab not frozen", s->name, cpu);
			if (slab->slabs != (slab->next ? slab->next->slabs + 1 : 1))
				sched_violation("I-SL-CPUPARTIAL", __func__,
						"%s: cpu%d's partial chain counts %d slabs, %d after",
						s->name, cpu, slab->slabs,
						slab->next ? slab->next->slabs : 0);
			/* drain pushes keep the chain within cpu_partial_slabs;
			 * get_partial_node's pushes (drain 0) add up to half of it
			 * + 1 on a chain that may have gained one meanwhile */
			if (slab->slabs > (int)(s->cpu_partial_slabs + s->cpu_partial_slabs / 2 + 1))
				sched_violation("I-SL-CPUPARTIAL", __func__,
						"%s: cpu%d's partial chain %d slabs, past %u",
						s->name, cpu, slab->slabs, s->cpu_partial_slabs);
		}
	}
	slab_partial_check(s, true, __func__);
}

/* ---- seed 004's counters ---- */

/* the frees in flight per node: free_pending to free_counted (atomics:
 * stress runs call the hooks from several threads) */
#define PEND_NODES	32
static struct {
	const struct kmem_cache_node *n;
	long objs;
} pfree_inflight[PEND_NODES];

static long *pend_slot(const struct kmem_cache_node *n, bool make)
{
	int i, free_i = -1;

	for (i = 0; i < PEND_NODES; i++) {
		const struct kmem_cache_node *m = __atomic_load_n(&pfree_inflight[i].n, __ATOMIC_ACQUIRE);

		if (m == n)
			return &pfree_inflight[i].objs;
		if (free_i < 0 && (!m || !__atomic_load_n(&pfree_inflight[i].objs, __ATOMIC_RELAXED)))
			free_i = i;
	}
	if (!make || free_i < 0)
		return NULL;
	__atomic_store_n(&pfree_inflight[free_i].objs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&pfree_inflight[free_i].n, n, __ATOMIC_RELEASE);
	return &pfree_inflight[free_i].objs;
}

static void partial_free_pending(const struct kmem_cache_node *n, long cnt)
{
	long *p = pend_slot(n, true);

	if (p)
		__atomic_fetch_add(p, cnt, __ATOMIC_RELAXED);
}

static void partial_free_counted(const struct kmem_cache_node *n, long cnt)
{
	long *p = pend_slot(n, false);

	if (p)
		__atomic_fetch_sub(p, cnt, __ATOMIC_RELAXED);
}

static bool on_partial_list(const struct kmem_cache_node *n, const struct list_head *pos)
{
	const struct list_head *p;
	unsigned long k = 0;

	if (pos == &n->partial)
		return true;
	for (p = __READ_ONCE(n->partial.next); p != &n->partial && k <= n->nr_partial + 1;
	     p = __READ_ONCE(p->next), k++)
		if (p == pos)
			return true;
	return false;
}

static void partial_walk(const struct kmem_cache_node *n, const struct list_head *pos)
{
	bool on;

	tsan_ignore_begin();
	on = on_partial_list(n, pos);
	tsan_ignore_end();
	if (!on)
		sched_violation("I-SL-WALK", "count_partial",
				"count_partial reaches %p, not on the node's partial list (%lu slabs)",
				(const void *)pos, n->nr_partial);
}

long slab_partial_inflight(const struct kmem_cache_node *n)
{
	long *p = pend_slot(n, false);

	return p ? __atomic_load_n(p, __ATOMIC_RELAXED) : 0;
}

void slab_partial_check(struct kmem_cache *s, bool quiescent, const char *where)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab;
	unsigned long total = 0;
	long free = 0, sum, *p, inflight = 0;

	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	list_for_each_entry(slab, &n->partial, slab_list) {
		struct slab c;

		c.counters = __READ_ONCE(slab->counters);
		total += c.objects;
		free += (long)c.objects - (long)c.inuse;
	}
	if (__READ_ONCE(n->partial_total_objs) != total)
		sched_violation("I-SL-PTOTAL", where,
				"%s: partial_total_objs %lu, the partial slabs hold %lu objects",
				s->name, __READ_ONCE(n->partial_total_objs), total);
	/*
	 * The frees in flight are known when the hooks are attached (the
	 * executor, the tests): 0 <= F - S <= P.  Without them (the stress
	 * runner's quiescence) only F - S >= 0: "quiescence" is no lock held
	 * and no program operation in flight, and a kernel thread's free
	 * (kfree_rcu's) may be inside its lockless window, between its cmpxchg
	 * and its add, holding nothing.
	 */
	(void)quiescent;
	sum = partial_free_sum(n);
	p = pend_slot(n, false);
	if (p)
		inflight = __atomic_load_n(p, __ATOMIC_RELAXED);
	if (!slub_partial_hooks.free_pending)
		inflight = LONG_MAX;
	if (free - sum < 0 || free - sum > inflight)
		sched_violation("I-SL-PFREE", where,
				"%s: the free counter %ld, count_partial %ld, %ld in flight (%s)",
				s->name, sum, free, inflight,
				slub_partial_variant_name(n->partial_variant));
}

/* n->list_lock's validator (at every acquisition: spinlock.h): the node
 * as the lock protects it, seed 004's counters within their bound */
/* n->list_lock's release validator (spinlock.h validate_release): the
 * counters exact whenever the lock is free (I-SL-NRSLABS).  But
 * kmem_cache_destroy's free_partial: it takes the empty slabs off the list
 * under the lock and uncounts them after it, in discard_slab (6.6's
 * __kmem_cache_shutdown; nobody else uses the cache by then, and nobody
 * takes its lock again) */
void slab_list_unlock_validate(void *arg, const char *fn)
{
	struct kmem_cache *s = arg;

	if (!strcmp(fn, "kmem_cache_destroy"))
		return;
	tsan_ignore_begin();
	slab_nr_slabs_check(s, get_node(s, 0), fn);
	tsan_ignore_end();
}

void slab_list_lock_validate(void *arg, const char *fn)
{
	struct kmem_cache *s = arg;

	/* a checker's look, hidden from TSan as check_after_op's (the
	 * fibers share a host thread; lockless frees race with it by design) */
	tsan_ignore_begin();
	validate_slab_node(s, get_node(s, 0));
	slab_partial_check(s, false, fn);
	tsan_ignore_end();
}

void slab_partial_attach(void)
{
	slub_partial_hooks.free_pending = partial_free_pending;
	slub_partial_hooks.free_counted = partial_free_counted;
	slub_partial_hooks.partial_walk = partial_walk;
}

void slab_partial_run_begin(void)
{
	memset(pfree_inflight, 0, sizeof(pfree_inflight));
}

/* ---- I-CONS: the pages SLUB holds ----
 *
 * A slab's pages (2^order from its head) are owned by the one place that
 * holds the slab: a node's partial list, its full list (SLAB_STORE_USER),
 * a CPU's slab, a CPU's partial chain, the RCU callback that frees a
 * SLAB_TYPESAFE_BY_RCU slab (slab_rcu_pending), or, for a full slab no
 * list keeps (6.6 lists full slabs only for SLAB_STORE_USER), nobody but
 * its objects: those are found by a walk of the PG_slab heads in the
 * blocks the run touched (for_each_touched_slab), taking the full,
 * unfrozen ones.  A slab on two of these is owned twice; a slab that
 * left them all without going back to the page allocator (an empty slab
 * dropped) is a page owned by nobody.  The walk costs the blocks the page
 * allocator handed out since its reset, only while some cache exists.  In a program's run the executor's source
 * ("slub", src/prog/ops_slub.c) owns every slab but the RCU-pending ones,
 * which stay this source's.  Real mode keeps no RCU record: its
 * pending slabs are checked after rcu_barrier only.
 */
enum { SLAB_OWN_PARTIAL, SLAB_OWN_FULL, SLAB_OWN_CPU, SLAB_OWN_CPU_PARTIAL, SLAB_OWN_RCU,
       SLAB_OWN_UNLISTED };
#define SLAB_WHO(cache, kind)	((unsigned)(cache) << 3 | (unsigned)(kind))
#define SLAB_RCU_MAX		4096	/* slub_debug.c's SLAB_RCU_DBG */

static void slab_add(struct owner_sink *sk, struct kmem_cache *s, struct slab *slab,
		     unsigned who)
{
	owner_add(sk, page_to_pfn(slab_page(slab)), 1UL << oo_order(s->oo), who);
}

static bool slab_pending(struct slab *const *pend, size_t n, const struct slab *slab)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pend[i] == slab)
			return true;
	return false;
}

static void slab_owner_collect(struct world *w, struct owner_sink *sk)
{
	static struct slab *pend[SLAB_RCU_MAX];
	struct kmem_cache *s;
	struct slab *slab;
	unsigned idx = 0;
	size_t npend, i;
	unsigned long pos;

	if (list_empty(&slab_caches))
		return;
	npend = slab_rcu_pending(pend, SLAB_RCU_MAX);
	if (npend > SLAB_RCU_MAX)
		npend = SLAB_RCU_MAX;
	for (i = 0; i < npend; i++) {
		s = pend[i]->slab_cache;
		slab_add(sk, s, pend[i], SLAB_WHO(0, SLAB_OWN_RCU));
	}
	/* a program's run: the executor's source (src/prog/ops_slub.c) owns the
	 * lists', the CPUs' and the held objects' slabs; only the RCU-pending
	 * ones are this source's */
	if (slub_world_of(w) && slub_world_of(w)->used)
		return;
	list_for_each_entry(s, &slab_caches, list) {
		struct kmem_cache_node *n = get_node(s, 0);
		int cpu;

		list_for_each_entry(slab, &n->partial, slab_list)
			slab_add(sk, s, slab, SLAB_WHO(idx, SLAB_OWN_PARTIAL));
		list_for_each_entry(slab, &n->full, slab_list)
			slab_add(sk, s, slab, SLAB_WHO(idx, SLAB_OWN_FULL));
		for (cpu = 0; cpu < w->cfg.ncpus && cpu < MAX_CPUS; cpu++) {
			struct kmem_cache_cpu *c = &s->cpu_slab[cpu];

			if (c->slab)
				slab_add(sk, s, c->slab, SLAB_WHO(idx, SLAB_OWN_CPU));
			for (slab = c->partial; slab; slab = slab->next)
				slab_add(sk, s, slab, SLAB_WHO(idx, SLAB_OWN_CPU_PARTIAL));
		}
		idx++;
	}
	for_each_touched_slab(slab, pos) {
		if (slab_pending(pend, npend, slab))
			continue;
		s = slab->slab_cache;
		if (!slab->frozen && slab->inuse == slab->objects &&
		    !(s->flags & SLAB_STORE_USER && kmem_cache_debug(s)))
			slab_add(sk, s, slab, SLAB_WHO(0, SLAB_OWN_UNLISTED));
	}
}

static void slab_owner_describe(unsigned who, char *buf, size_t n)
{
	static const char *const what[] = {
		"a node partial slab", "a node full slab", "a CPU slab", "a CPU partial slab",
		"a typesafe slab waiting for its grace period", "a full slab on no list",
	};
	unsigned kind = who & 7;

	snprintf(buf, n, "%s (cache %u)", kind < 6 ? what[kind] : "a slab", who >> 3);
}

static const struct owner_source slab_owner = {
	.name = "slab", .collect = slab_owner_collect, .describe = slab_owner_describe,
};
OWNER_SOURCE(slab_owner);

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
 *                     calls between their cmpxchg and their counter update
 *                     (the hooks free_pending / free_counted); at
 *                     quiescence P is 0 and they are equal
 *   I-SL-WALK         every slab count_partial reaches is on the list
 *                     when it reaches it (checked at each step)
 * Held elsewhere: one owner per object at every alloc and free (the
 * cookie's exchange in slub.c).
 *   I-CONS            (the "slab" owner source below) every slab page held
 *                     by one list, CPU, RCU callback, or full on no list
 */
#include <stdio.h>

#include "check.h"
#include "../mm/slab.h"
#include "../mm/slub_world.h"

#include <string.h>

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
	if (!on_partial_list(n, pos))
		sched_violation("I-SL-WALK", "count_partial",
				"count_partial reaches %p, not on the node's partial list (%lu slabs)",
				(const void *)pos, n->nr_partial);
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
	sum = partial_free_sum(n);
	p = pend_slot(n, false);
	if (p && !quiescent)
		inflight = __atomic_load_n(p, __ATOMIC_RELAXED);
	if (free - sum < 0 || free - sum > inflight)
		sched_violation("I-SL-PFREE", where,
				"%s: the free counter %ld, count_partial %ld, %ld in flight (%s)",
				s->name, sum, free, inflight,
				slub_partial_variant_name(n->partial_variant));
}

/* n->list_lock's validator (at every acquisition: spinlock.h): the node
 * as the lock protects it, seed 004's counters within their bound */
void slab_list_lock_validate(void *arg, const char *fn)
{
	struct kmem_cache *s = arg;

	validate_slab_node(s, get_node(s, 0));
	slab_partial_check(s, false, fn);
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
 * its objects: those are found by a walk of the PG_slab heads, taking the
 * full, unfrozen ones.  A slab on two of these is owned twice; a slab that
 * left them all without going back to the page allocator (an empty slab
 * dropped) is a page owned by nobody.  The walk costs the world's pages,
 * only while some cache exists.  In a program's run the executor's source
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
	unsigned long pfn;

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
	for (pfn = 0; pfn < mm_pa->nr_pages; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (!(page->flags & (1UL << PG_slab)))
			continue;
		slab = page_slab(page);
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

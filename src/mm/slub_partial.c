// SPDX-License-Identifier: MIT
/*
 * What /proc/slabinfo reads of a SLUB cache, and seed 004's counters.
 * Linux 6.6 keeps count_partial (2966-2978) and get_slabinfo in mm/slub.c;
 * so does the series this file models beside it (Xunlei Pang, "mm/slub:
 * Fix count_partial() problem", v1..v4, 2020-2021), which puts its counters
 * in mm/slub.c and mm/slab.h.  The model holds them here because slub.c is
 * near its size limit; slub.c and slab_common.c call the updates at the
 * places the series does.
 *
 * count_partial walks the node's partial list under n->list_lock with IRQs
 * off: on a node with long partial lists a reader of /proc/slabinfo holds
 * the lock every get_partial_node and every __slab_free that empties or
 * unfills a slab waits on (seed 004's stall: ~100 ms with IRQs off from
 * "ss" in the series' report).  The variants (config key slub_partial):
 *
 *   count_partial            6.6: the walk
 *   partial_counters         the series (v3/v4): n->partial_total_objs, the
 *                            objects of the partial slabs, changed with the
 *                            list under list_lock (add_partial,
 *                            remove_partial); n->partial_free_objs, per CPU,
 *                            their free objects: __slab_free adds what it
 *                            freed with this_cpu_add and no lock, the
 *                            list_lock paths add or take a slab's free
 *                            objects from the counters the cmpxchg wrote
 *                            (new.objects - new.inuse: v3's fix of v2's
 *                            re-read page->inuse); readers sum the CPUs and
 *                            clamp at zero (a CPU's own count may go
 *                            negative: freed on one CPU, taken on another)
 *   partial_counters_atomic  the same total, one shared atomic free counter
 *                            (the series' v1: every remote free on one line)
 *
 * Lock order: n->list_lock (slub.c); the per-CPU counters take none.
 */
#include "../bugs/bugs.h"
#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "../kernel/percpu.h"
#include "../world/config.h"
#include "internal.h"
#include "slab.h"

#include <stdlib.h>
#include <string.h>

DEFINE_HOOKS(slub_partial);

/* ---- the variant ---- */

static const char *const partial_variant_names[NR_SLUB_PARTIAL_VARIANTS] = {
	[PARTIAL_COUNT_WALK] = "count_partial",
	[PARTIAL_COUNTERS] = "partial_counters",
	[PARTIAL_COUNTERS_ATOMIC] = "partial_counters_atomic",
};

const char *slub_partial_variant_name(int v)
{
	return v >= 0 && v < NR_SLUB_PARTIAL_VARIANTS ? partial_variant_names[v] : "?";
}

/* the running world's: its config (a tune key: a cached world reset for
 * another value has it in w->config), read when a cache is created */
static int partial_variant_of_world(void)
{
	return mm_world ? (int)config_get(&mm_world->config, &ck_slub_partial) : PARTIAL_COUNT_WALK;
}

/* ---- the node's counters (init_kmem_cache_node, free_kmem_cache_nodes) ---- */

int init_kmem_cache_node_partial(struct kmem_cache *s, struct kmem_cache_node *n)
{
	(void)s;
	n->partial_variant = partial_variant_of_world();
	n->partial_total_objs = 0;
	atomic_long_set(&n->partial_free_atomic, 0);
	n->partial_free_objs = NULL;
	if (n->partial_variant == PARTIAL_COUNTERS) {
		/* alloc_percpu(unsigned long) */
		n->partial_free_objs = aligned_alloc(PERCPU_SLOT_BYTES,
						     MAX_CPUS * sizeof(struct partial_free_cpu));
		if (!n->partial_free_objs)
			return -1;
		memset(n->partial_free_objs, 0, MAX_CPUS * sizeof(struct partial_free_cpu));
	}
	return 0;
}

void free_kmem_cache_node_partial(struct kmem_cache_node *n)
{
	free(n->partial_free_objs);
	n->partial_free_objs = NULL;
}

/* ---- the updates ---- */

/* the series' __update_partial_total: with the list, under list_lock */
void __update_partial_total(struct kmem_cache_node *n, long delta)
{
	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	lockdep_assert_held(&n->list_lock);
	__WRITE_ONCE(n->partial_total_objs, __READ_ONCE(n->partial_total_objs) + (unsigned long)delta);
}

/* BUG_PARTIAL_TOTAL_UNLOCKED: the same read-modify-write with the lock
 * dropped, racing with the holders' */
void partial_total_add_unlocked(struct kmem_cache_node *n, long delta)
{
	unsigned long v;

	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	v = READ_ONCE(n->partial_total_objs);
	WRITE_ONCE(n->partial_total_objs, v + (unsigned long)delta);
}

/* the series' __update_partial_free: this_cpu_add(*n->partial_free_objs),
 * one instruction on whatever CPU the task is on (no lock, IRQs as they
 * are), or atomic_long_add on the shared counter */
void __update_partial_free(struct kmem_cache_node *n, long delta)
{
	switch (n->partial_variant) {
	case PARTIAL_COUNTERS:
		yield_point(YIELD_SITE(YP_ATOMIC, "this_cpu_add(*n->partial_free_objs)"));
		__atomic_fetch_add(&per_cpu_ptr(n->partial_free_objs, raw_smp_processor_id())->objs,
				   delta, __ATOMIC_RELAXED);
		break;
	case PARTIAL_COUNTERS_ATOMIC:
		atomic_long_add(delta, &n->partial_free_atomic);
		break;
	default:
		break;
	}
}

/* __slab_free's frees in flight, for the checkers' bound (no kernel code):
 * from before the (freelist, counters) update, since __update_freelist_slow
 * yields between its writes and its return (slab_unlock, the IRQ restore),
 * to the counter's add; an update that failed is taken back before the
 * retry */
void partial_free_begin(struct kmem_cache_node *n, long cnt)
{
	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	HOOK(slub_partial, free_pending, n, cnt);
}

void partial_free_cancel(struct kmem_cache_node *n, long cnt)
{
	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	HOOK(slub_partial, free_counted, n, cnt);
}

void partial_free_freed(struct kmem_cache_node *n, long cnt)
{
	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	__update_partial_free(n, cnt);
	HOOK(slub_partial, free_counted, n, cnt);
	HOOK(slub_partial, state_partial, n, PARTIAL_SITE_FREED);
}

/*
 * deactivate_slab's M_PARTIAL and __unfreeze_partials, under list_lock
 * after the unfreezing cmpxchg: the slab's free objects from the counters
 * the cmpxchg wrote (v3).  v2 re-read page->inuse here: a __slab_free to
 * the now unfrozen slab between the cmpxchg and the read (it takes no
 * list_lock: the slab stays on the list) is counted twice, once by the
 * re-read and once by its own __update_partial_free.
 */
void partial_free_unfrozen(struct kmem_cache_node *n, struct slab *slab, unsigned long counters)
{
	struct slab new;

	if (n->partial_variant == PARTIAL_COUNT_WALK)
		return;
	new.counters = counters;
	if (bug_on(BUG_PARTIAL_COUNTER_REREAD_INUSE))
		new.counters = READ_ONCE(slab->counters);
	__update_partial_free(n, (long)new.objects - (long)new.inuse);
	HOOK(slub_partial, state_partial, n, PARTIAL_SITE_UNFROZEN);
}

/* ---- the readers ---- */

long partial_free_sum(const struct kmem_cache_node *n)
{
	long x = 0;
	int cpu;

	switch (n->partial_variant) {
	case PARTIAL_COUNTERS:
		for (cpu = 0; cpu < MAX_CPUS; cpu++)	/* for_each_possible_cpu */
			x += __atomic_load_n(&n->partial_free_objs[cpu].objs, __ATOMIC_RELAXED);
		return x;
	case PARTIAL_COUNTERS_ATOMIC:
		return __atomic_load_n(&n->partial_free_atomic.counter, __ATOMIC_RELAXED);
	default:
		return 0;
	}
}

/* the series' partial_counter(): no lock; each CPU's count is a racy read
 * (a yield point), the sum clamped at zero */
unsigned long partial_counter(struct kmem_cache_node *n, enum partial_item item)
{
	long free = 0, total;
	int cpu;

	if (n->partial_variant == PARTIAL_COUNTERS) {
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			free += READ_ONCE(per_cpu_ptr(n->partial_free_objs, cpu)->objs);
	} else if (n->partial_variant == PARTIAL_COUNTERS_ATOMIC) {
		free = atomic_long_read(&n->partial_free_atomic);
	}
	total = (long)READ_ONCE(n->partial_total_objs);
	switch (item) {
	case PARTIAL_FREE:
		return free < 0 ? 0 : (unsigned long)free;
	case PARTIAL_TOTAL:
		return (unsigned long)total;
	default:
		return total - free < 0 ? 0 : (unsigned long)(total - free);
	}
}

int count_free(struct slab *slab)
{
	struct slab c;

	/* racy against __slab_free's cmpxchg, as in 6.6 (plain bitfields) */
	c.counters = __READ_ONCE(slab->counters);
	return (int)c.objects - (int)c.inuse;
}

/* count_partial (6.6 slub.c:2966-2978): the walk under list_lock, IRQs off.
 * Each step's read of the next slab is a yield point: others spin on the
 * lock meanwhile, which is seed 004's stall in the model's schedules. */
unsigned long count_partial(struct kmem_cache_node *n, int (*get_count)(struct slab *))
{
	unsigned long flags = 0, x = 0;
	bool nolock = bug_on(BUG_COUNT_PARTIAL_NOLOCK);
	struct list_head *pos;

	if (!nolock)
		spin_lock_irqsave(&n->list_lock, flags);
	for (pos = READ_ONCE(n->partial.next); ; pos = READ_ONCE(pos->next)) {
		HOOK(slub_partial, partial_walk, n, pos);
		if (pos == &n->partial)
			break;
		x += (unsigned long)get_count(list_entry(pos, struct slab, slab_list));
	}
	if (!nolock)
		spin_unlock_irqrestore(&n->list_lock, flags);
	return x;
}

/* get_slabinfo (6.6 mm/slub.c, CONFIG_SLABINFO): every node's slabs and
 * objects from its atomics, the free ones by the variant (CPU slabs and
 * CPU partial slabs count as fully in use, as in 6.6) */
void get_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo)
{
	unsigned long nr_slabs = 0;
	unsigned long nr_objs = 0;
	unsigned long nr_free = 0;
	struct kmem_cache_node *n = get_node(s, 0);

	/* for_each_kmem_cache_node: the model's one node */
	nr_slabs += node_nr_slabs(n);
	nr_objs += node_nr_objs(n);
	if (n->partial_variant == PARTIAL_COUNT_WALK)
		nr_free += count_partial(n, count_free);
	else
		nr_free += partial_counter(n, PARTIAL_FREE);

	/* a clamped or racy count may pass the objects */
	sinfo->active_objs = nr_objs > nr_free ? nr_objs - nr_free : 0;
	sinfo->num_objs = nr_objs;
	sinfo->active_slabs = nr_slabs;
	sinfo->num_slabs = nr_slabs;
	sinfo->shared_avail = 0;
	sinfo->limit = 0;
	sinfo->batchcount = 0;
	sinfo->shared = 0;
	sinfo->objects_per_slab = oo_objects(s->oo);
	sinfo->cache_order = oo_order(s->oo);
}

/* ---- the config key and the switches ---- */

struct config_key ck_slub_partial = {
	.name = "slub_partial", .layer = "slub",
	.desc = "what /proc/slabinfo counts the partial slabs' free objects with (seed 004): "
		"count_partial (6.6: the walk under list_lock), partial_counters (the "
		"series: per-node total under list_lock, per-CPU free counter), "
		"partial_counters_atomic (one shared atomic free counter)",
	.lo = 0, .hi = NR_SLUB_PARTIAL_VARIANTS - 1, .def = PARTIAL_COUNT_WALK,
	.names = partial_variant_names, .bin_off = 56, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_slub_partial);



static const struct bug_info bug_partial_counter_reread_inuse = {
	.bit = BUG_PARTIAL_COUNTER_REREAD_INUSE,
	.name = "partial_counter_reread_inuse", .layer = "slub",
	.where = "deactivate_slab, __unfreeze_partials (partial_free_unfrozen)",
	.caught_by = "I-SL-PFREE (the free counter off by more than the frees in flight at a "
		     "list_lock acquisition; off at all at quiescence)",
	.desc = "seed 004's series before v3: the partial free counter fed from slab->inuse "
		"re-read after the unfreezing cmpxchg instead of the cmpxchg's new.inuse: a "
		"lockless __slab_free in between is counted twice (variants partial_counters*)",
};
BUG_SWITCH(bug_partial_counter_reread_inuse);

static const struct bug_info bug_partial_total_unlocked = {
	.bit = BUG_PARTIAL_TOTAL_UNLOCKED,
	.name = "partial_total_unlocked", .layer = "slub", .where = "deactivate_slab",
	.caught_by = "I-SL-PTOTAL (partial_total_objs not the partial slabs' objects at a "
		     "list_lock acquisition)",
	.desc = "seed 004's total-objects counter updated after deactivate_slab drops "
		"list_lock (the free counter is meant to be lockless, the total is not): another "
		"task takes the lock and sees the list without the total, and the unlocked "
		"read-modify-write loses a holder's update (variants partial_counters*)",
};
BUG_SWITCH(bug_partial_total_unlocked);

static const struct bug_info bug_count_partial_nolock = {
	.bit = BUG_COUNT_PARTIAL_NOLOCK,
	.name = "count_partial_nolock", .layer = "slub", .where = "count_partial",
	.caught_by = "I-SL-WALK (count_partial reaches a slab no longer on the node's list)",
	.desc = "count_partial walks n->partial without n->list_lock (seed 004's stall "
		"\"fixed\" by dropping the lock): a slab taken off the list (acquire_slab, an "
		"emptied slab discarded, kmem_cache_shrink) under the walker, which follows its "
		"poisoned or reused slab_list (variant count_partial)",
};
BUG_SWITCH(bug_count_partial_nolock);

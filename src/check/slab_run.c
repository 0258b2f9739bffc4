// SPDX-License-Identifier: MIT
/*
 * The executor's SLUB checker: src/check/slab.c's I-SL checks at the points
 * they hold (docs/layer-slub.md, "Checks"):
 *   at each n->list_lock acquisition   validate_slab_node: the node's
 *       partial list, its slabs' freelists and owners, nr_partial (a slab
 *       frozen on the list inside acquire_slab is never seen: the check
 *       runs when the lock is got, not at every yield point)
 *   at each n->list_lock release       a debug cache's nr_slabs and
 *       total_objects (I-SL-NRSLABS): exact whenever the lock is free
 *   at quiescence                      validate_slab_cache of every cache of
 *       the run: the node and each CPU's slab, freelist and partial chain
 *   at each release of a CPU's s->cpu_slab->lock   I-SL-TID: if the
 *       section changed the CPU's freelist or slab, it moved the tid (a
 *       fast path that read the old pair must fail its cmpxchg), and the
 *       tid is still the CPU's (init_tid(cpu) plus whole TID_STEPs); the
 *       fast paths' own changes move it in the same cmpxchg
 * The validator goes on each cache's list_lock as kmem_cache_create makes
 * it (the slub_hooks.cache_created hook); the caches are the run's
 * (src/mm/slub_world.c).  Owners: the slab object space (slab_check.h),
 * whose source is the run's (src/prog/ops_slub.c).
 */
#include "slab_check.h"

#include <string.h>

#include "../mm/slub_world.h"

const struct owner_space slab_objects = {
	.name = "slab object",
};
OWNER_SPACE(slab_objects);

/* under n->list_lock, right after it was taken: the node as the lock
 * protects it (a debug cache's slab under slab_lock is mid-update: left) */
static __sched_notsan void list_lock_validate(void *arg, const char *fn)
{
	slab_list_lock_validate(arg, fn);	/* and seed 004's counters (slab.c) */
}

/* under n->list_lock, right before it is dropped: a debug cache's slab
 * counters (I-SL-NRSLABS, slab.c) */
static __sched_notsan void list_lock_release_validate(void *arg, const char *fn)
{
	slab_list_unlock_validate(arg, fn);
}

/* I-SL-TID: each CPU's (freelist, slab, tid) as its local lock found them */
#define TID_SNAPS	16
static struct tid_snap {
	const struct kmem_cache *s;
	void *freelist;
	const struct slab *slab;
	unsigned long tid;
} tid_snap[MAX_CPUS][TID_SNAPS];
static bool tid_snap_dirty;	/* an entry set since the last clearing (4 KB) */

static __sched_notsan void cpu_lock(struct kmem_cache *s, int cpu, bool held, const char *fn)
{
	const struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
	struct tid_snap *e = NULL;
	int i;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return;
	for (i = 0; i < TID_SNAPS && !e; i++)
		if (tid_snap[cpu][i].s == s)
			e = &tid_snap[cpu][i];
	if (held) {
		for (i = 0; i < TID_SNAPS && !e; i++)
			if (!tid_snap[cpu][i].s)
				e = &tid_snap[cpu][i];
		if (!e)
			e = &tid_snap[cpu][0];
		tid_snap_dirty = true;
		e->s = s;
		e->freelist = c->freelist;
		e->slab = c->slab;
		e->tid = c->tid;
		return;
	}
	if (!e)
		return;
	if ((c->freelist != e->freelist || c->slab != e->slab) && c->tid == e->tid)
		sched_violation("I-SL-TID", fn, "%s: cpu%d's %s changed under its local lock, "
				"its tid %lu did not move", s->name, cpu,
				c->slab != e->slab ? "slab" : "freelist", c->tid);
	if (c->tid % TID_STEP != (unsigned long)init_tid(cpu))
		sched_violation("I-SL-TID", fn, "%s: cpu%d's tid %lu is not the CPU's "
				"(init_tid %lu + n * TID_STEP %lu)", s->name, cpu, c->tid,
				init_tid(cpu), (unsigned long)TID_STEP);
}

static void cache_created(struct kmem_cache *s)
{
	struct kmem_cache_node *n = get_node(s, 0);

	n->list_lock.validate = list_lock_validate;
	n->list_lock.validate_release = list_lock_release_validate;
	n->list_lock.validate_arg = s;
}

static void slub_attach(struct world *w)
{
	(void)w;
	slub_hooks.cache_created = cache_created;
	slub_hooks.cpu_lock = cpu_lock;
	slab_partial_attach();
}

static void slub_run_begin(struct world *w)
{
	(void)w;
	slab_partial_run_begin();
	if (tid_snap_dirty)
		memset(tid_snap, 0, sizeof(tid_snap));
	tid_snap_dirty = false;
}

static void slub_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct slub_world *sw = slub_world_of(w);
	int i;

	(void)where;
	(void)f;
	if (!sw || !sw->used)
		return;
	for (i = 0; i < sw->n; i++)
		if (sw->cache[i])
			validate_slab_cache(sw->cache[i]);
}

static const struct checker slub_checker = {
	.name = "I-SL-FROZEN I-SL-INUSE I-SL-OWNER I-SL-NRPARTIAL I-SL-CPUFREELIST "
		"I-SL-CPUPARTIAL I-SL-PTOTAL I-SL-PFREE I-SL-WALK I-SL-NRSLABS I-SL-TID", .layer = "slub", .prio = 45,
	.attach = slub_attach, .run_begin = slub_run_begin, .quiescent = slub_quiescent,
};
CHECKER(slub_checker);

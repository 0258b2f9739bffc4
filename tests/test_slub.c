// SPDX-License-Identifier: MIT
/*
 * SLUB on the model's page allocator (src/mm/slub.c): struct slab over
 * struct page, slabs of >= 16 objects from alloc_pages(__GFP_COMP), the
 * fast and slow paths, cross-CPU frees through __slab_free and the CPU
 * partial list, flush_all, kmem_cache_shrink and destroy giving every
 * page back; the owner cookie catching a double free.  Then on fibers:
 * three tasks on two CPUs allocating and freeing each other's objects
 * under PCT, every schedule ending with the cache consistent and the zone
 * whole.
 */
#include "mm/slab.h"
#include "slub_world.h"
#include "tap.h"

#define NOBJ	40

static struct kmem_cache *cache;
static void *objs[3][NOBJ / 4];

static void validate(void *x)
{
	validate_slab_cache(x);
}

static void double_free(void *x)
{
	kmem_cache_free(cache, x);
}

/* I-SL-TID: an object taken off this CPU's freelist under its local lock,
 * the tid moved (@x: 1) or left (0: a fast path that read the old pair
 * would succeed with a stale next pointer); then given back, tid moved */
static void *tid_obj;
static int tid_move;

static void tid_take(void *x)
{
	struct kmem_cache_cpu *c;
	unsigned long flags;

	(void)x;
	slub_local_lock_irqsave(cache, flags);
	c = this_cpu_ptr(cache->cpu_slab);
	tid_obj = c->freelist;
	if (tid_obj)
		c->freelist = get_freepointer(cache, tid_obj);
	if (tid_move)
		c->tid = next_tid(c->tid);
	slub_local_unlock_irqrestore(cache, flags);
}

static void tid_give_back(void)
{
	struct kmem_cache_cpu *c;
	unsigned long flags;

	slub_local_lock_irqsave(cache, flags);
	c = this_cpu_ptr(cache->cpu_slab);
	set_freepointer(cache, tid_obj, c->freelist);
	c->freelist = tid_obj;
	c->tid = next_tid(c->tid);
	slub_local_unlock_irqrestore(cache, flags);
}

/* T<i> allocates its objects on its CPU, then frees T<i+1>'s (wrapping):
 * cross-CPU frees, to a slab another CPU has frozen or to the node. */
static void body(struct task *t, void *arg)
{
	int i, id = t->id;
	(void)arg;

	for (i = 0; i < NOBJ / 4; i++)
		__atomic_store_n(&objs[id][i], kmem_cache_alloc(cache, GFP_KERNEL), __ATOMIC_RELEASE);
	sched_point("allocated");
	if (id == 2)
		sched_migrate(t, 0, YIELD_SITE(YP_POINT, "migrate"));
	for (i = 0; i < NOBJ / 4; i++) {
		/* the next task's object if it has it yet (no waiting: PCT
		 * would starve the owner), taken so it is freed once */
		void *o = __atomic_exchange_n(&objs[(id + 1) % 3][i], NULL, __ATOMIC_ACQ_REL);

		if (o)
			kmem_cache_free(cache, o);
	}
}

int main(void)
{
	struct world *w;
	struct slab *slab;
	void *p[NOBJ];
	unsigned long free0;
	int i, j, distinct = 1, inslab = 1, seed, clean = 0, r;
	unsigned long st[NR_SLUB_STAT_ITEMS] = { 0 };
	struct fsched *fs;
	struct sched_policy pol;
	struct task_init init[3] = { { 0, false }, { 1, false }, { 1, false } };

	tap_plan(18);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	w = mm_test_boot(slub_tune);
	mm_drain(w);
	mm_fold(w);
	free0 = slub_zone_free(w);

	cache = kmem_cache_create("test16", 16, 0, 0, NULL);
	ok(cache && oo_objects(cache->oo) >= SLUB_MIN_OBJECTS,
	   "a 16-byte cache: order %u, %u objects a slab (>= 16)", oo_order(cache->oo),
	   oo_objects(cache->oo));
	for (i = 0; i < NOBJ; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (i = 0; i < NOBJ; i++) {
		slab = p[i] ? virt_to_slab(p[i]) : NULL;
		if (!slab || slab->slab_cache != cache ||
		    !(slab_page(slab)->flags & (1UL << PG_slab)))
			inslab = 0;
		for (j = 0; j < i; j++)
			if (p[i] == p[j])
				distinct = 0;
	}
	ok(inslab, "every object lies in a PG_slab page of its cache");
	slab = cache->cpu_slab[0].slab;
	if (slab) {
		slab->frozen = 0;	/* the CPU slab unfrozen behind its back */
		ok(mm_violation_of(validate, cache) &&
		   !strncmp(g_violation.signature, "I-SL-FROZEN@", 12),
		   "the CPU's slab not frozen: I-SL-FROZEN (%s)", g_violation.signature);
		slab->frozen = 1;
		violation_reset();
	} else {
		ok(0, "cpu0 has a slab after 40 allocations");
	}
	ok(distinct, "%d objects, all distinct", NOBJ);
	memset(p[0], 0xa5, 16);		/* the memory is the caller's */
	ok(mm_violation_of(double_free, p[0]) == NULL, "freeing an object once is clean");
	ok(mm_violation_of(double_free, p[0]) &&
	   !strncmp(g_violation.signature, "I-SL-OWNER@", 11), "freeing it again: I-SL-OWNER (%s)",
	   g_violation.signature);
	violation_reset();
	p[0] = kmem_cache_alloc(cache, GFP_KERNEL);
	ok(p[0] != NULL, "the freed object's slot is allocated again");
	tid_move = 1;
	ok(mm_violation_of(tid_take, NULL) == NULL && tid_obj,
	   "the CPU freelist changed under the local lock, the tid moved: clean");
	tid_give_back();
	tid_move = 0;
	ok(mm_violation_of(tid_take, NULL) && !strncmp(g_violation.signature, "I-SL-TID@", 9),
	   "... the tid not moved: I-SL-TID (%s)", g_violation.signature);
	violation_reset();
	tid_give_back();
	for (i = 0; i < NOBJ; i++)
		kfree(p[i]);
	flush_all(cache);
	validate_slab_cache(cache);
	ok(slub_objects_inuse(cache) == 0, "after kfree of all and flush_all: no object in use");
	ok(cache->node[0]->nr_partial <= cache->min_partial,
	   "empty slabs past min_partial were discarded (nr_partial %lu)",
	   cache->node[0]->nr_partial);
	/* the checker fails on what it must catch: a partial slab's inuse
	 * off by one, then nr_partial off by one */
	if (!list_empty(&cache->node[0]->partial)) {
		slab = list_first_entry(&cache->node[0]->partial, struct slab, slab_list);
		slab->inuse++;
		ok(mm_violation_of(validate, cache) &&
		   !strncmp(g_violation.signature, "I-SL-INUSE@", 11),
		   "inuse one too many: I-SL-INUSE (%s)", g_violation.signature);
		slab->inuse--;
		cache->node[0]->nr_partial++;
		ok(mm_violation_of(validate, cache) &&
		   !strncmp(g_violation.signature, "I-SL-NRPARTIAL@", 15),
		   "nr_partial one too many: I-SL-NRPARTIAL (%s)", g_violation.signature);
		cache->node[0]->nr_partial--;
		violation_reset();
	} else {
		ok(0, "a partial slab kept (min_partial) to corrupt");
		ok(0, "a partial slab kept (min_partial) to corrupt");
	}
	is_int(kmem_cache_alloc_bulk(cache, GFP_KERNEL, NOBJ, p), NOBJ, "alloc_bulk of 40");
	kmem_cache_free_bulk(cache, NOBJ, p);
	kmem_cache_shrink(cache);
	ok(cache->node[0]->nr_partial == 0, "kmem_cache_shrink frees the empty slabs");
	kmem_cache_destroy(cache);
	mm_drain(w);
	mm_fold(w);
	ok(slub_zone_free(w) == free0, "every slab page back in the zone (%lu of %lu)", slub_zone_free(w),
	   free0);
	world_destroy(w);

	/* on fibers: cross-CPU frees under PCT */
	w = mm_test_boot(slub_two_cpus);
	fs = fsched_create(3);
	for (seed = 1; seed <= 40; seed++) {
		world_reset(w);
		check_run_begin(w);
		current_task = &mm_test_task;
		mm_drain(w);
		mm_fold(w);
		free0 = slub_zone_free(w);
		cache = kmem_cache_create("fib24", 24, 0, 0, NULL);
		memset(objs, 0, sizeof(objs));
		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_PCT;
		pol.depth = 3;
		pol.seed = (uint64_t)seed;
		pol.horizon = 400;
		violation_reset();
		r = fsched_run(fs, 3, 2, init, &pol, body, NULL);
		current_task = &mm_test_task;
		if (r) {
			diag("seed %d: %s: %s", seed, g_violation.signature, g_violation.msg);
			continue;
		}
		for (i = 0; i < NR_SLUB_STAT_ITEMS; i++)
			st[i] += slub_stat_sum(cache, i);
		validate_slab_cache(cache);	/* the CPUs' slabs, freelists, partial chains */
		for (i = 0; i < 3; i++)	/* what the tasks did not take */
			for (j = 0; j < NOBJ / 4; j++)
				if (objs[i][j])
					kmem_cache_free(cache, objs[i][j]);
		flush_all(cache);
		validate_slab_cache(cache);
		if (slub_objects_inuse(cache) == 0) {
			kmem_cache_shrink(cache);
			kmem_cache_destroy(cache);
			mm_drain(w);
			mm_fold(w);
			if (slub_zone_free(w) == free0)
				clean++;
			else
				diag("seed %d: %lu pages free, %lu before", seed, slub_zone_free(w), free0);
		} else {
			diag("seed %d: %ld objects in use after all were freed", seed,
			     slub_objects_inuse(cache));
		}
	}
	fsched_destroy(fs);
	ok(st[CMPXCHG_DOUBLE_CPU_FAIL] > 0 && st[FREE_SLOWPATH] > 0 && st[FREE_FROZEN] > 0 &&
	   st[CPU_PARTIAL_FREE] > 0,
	   "the schedules reach the races: %lu fast-path cmpxchg failures, %lu __slab_free "
	   "(%lu to frozen slabs, %lu full slabs frozen for a CPU partial list), %lu "
	   "slab_update_freelist failures", st[CMPXCHG_DOUBLE_CPU_FAIL], st[FREE_SLOWPATH],
	   st[FREE_FROZEN], st[CPU_PARTIAL_FREE], st[CMPXCHG_DOUBLE_FAIL]);
	ok(clean == 40, "%d of 40 schedules: cache consistent, all objects free, zone whole", clean);
	world_destroy(w);
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * SLUB's debug caches, slab_lock and SLAB_TYPESAFE_BY_RCU (src/mm/slub_debug.c):
 *   - a SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER cache has no
 *     __CMPXCHG_DOUBLE and no CPU slab: its objects come one at a time from
 *     the node's lists, full slabs on n->full, nr_slabs counting them;
 *     validate_store("1") (the sysfs validate file) walks them under
 *     list_lock and reports a corrupted inuse or nr_slabs (I-SL-VALIDATE);
 *   - on fibers, PCT schedules of three tasks on two CPUs freeing each
 *     other's objects, for a debug cache and for a cache on slab_lock
 *     (system_has_freelist_aba off): consistent, the zone whole;
 *   - switch deactivate_slab_lost_inuse caught by I-SL-INUSE;
 *   - a typesafe cache's slab pages freed after a grace period: clean with
 *     a reader in its section under PCT; switch typesafe_free_no_gp caught
 *     by I-RCU-TYPESAFE in some schedule.
 */
#include <errno.h>

#include <stdlib.h>

#include "check/slab_check.h"
#include "mm/slab.h"
#include "bugs/bugs.h"
#include "slub_world.h"
#include "tap.h"

#define NOBJ	40
#define SEEDS	40

static struct kmem_cache *cache;

static void *objs[3][NOBJ / 4];
static long validated;
#define RCU_OBJS	96
static void *rcu_objs[RCU_OBJS];
static int rcu_done;

static void validate_file(void *x)
{
	validated = validate_store(x, "1");
}

static void destroy(void *x)
{
	kmem_cache_destroy(x);
}

static void quiesce(void *w)
{
	check_quiescent(w, "test");
}

static void validate(void *x)
{
	validate_slab_cache(x);
}

static void nr_slabs_check(void *x)
{
	slab_nr_slabs_check(x, get_node(x, 0), "test");
}

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
		void *o = __atomic_exchange_n(&objs[(id + 1) % 3][i], NULL, __ATOMIC_ACQ_REL);

		if (o)
			kmem_cache_free(cache, o);
	}
}

/* T0 reads under rcu_read_lock on cpu0; T1 on cpu1 frees its objects, the
 * typesafe cache discarding its empty slabs */
static void rcu_body(struct task *t, void *arg)
{
	int i;
	(void)arg;

	if (t->id == 0) {
		/* a section that lasts until T1 is done (bounded: PCT may
		 * never run T1 while this one spins) */
		rcu_read_lock();
		for (i = 0; i < 2000 && !__atomic_load_n(&rcu_done, __ATOMIC_ACQUIRE); i++)
			sched_point("reader");
		rcu_read_unlock();
		return;
	}
	/* six slabs' worth, all freed: the full slabs frozen onto cpu1's
	 * partial list, unfrozen past cpu_partial_slabs, the empty ones past
	 * min_partial discarded (not kmem_cache_shrink: its flush_all waits on
	 * each CPU for the reader, as 6.6's flush work would) */
	for (i = 0; i < RCU_OBJS; i++)
		rcu_objs[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (i = 0; i < RCU_OBJS; i++)
		kmem_cache_free(cache, rcu_objs[i]);
	__atomic_store_n(&rcu_done, 1, __ATOMIC_RELEASE);
}

/* one task: a typesafe cache's slabs discarded, then I-CONS while their
 * pages wait for the grace period */
static int pending_seen;
static struct world *cons_w;

static void rcu_cons_body(struct task *t, void *arg)
{
	struct slab *pend[8];
	int i;
	(void)t;
	(void)arg;

	for (i = 0; i < NOBJ / 4; i++)
		objs[0][i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (i = 0; i < NOBJ / 4; i++)
		kmem_cache_free(cache, objs[0][i]);
	kmem_cache_shrink(cache);
	pending_seen = (int)slab_rcu_pending(pend, 8);
	check_quiescent(cons_w, "test");
}

/* PCT runs of @fn over a fresh cache of @flags; the schedules that end
 * consistent with the zone whole; @caught: those reporting @sig */
static int pct_runs(struct world *w, unsigned long flags, void (*fn)(struct task *, void *),
		    int ntasks, const char *sig, int *caught, unsigned long *st)
{
	struct task_init init[3] = { { 0, false }, { 1, false }, { 1, false } };
	struct sched_policy pol;
	struct fsched *fs = fsched_create(ntasks);
	int seed, clean = 0, i, j;

	*caught = 0;
	for (seed = 1; seed <= SEEDS; seed++) {
		unsigned long free0;
		int r;

		world_reset(w);
		check_run_begin(w);
		current_task = &mm_test_task;
		mm_drain(w);
		mm_fold(w);
		free0 = slub_zone_free(w);
		cache = kmem_cache_create("pct24", 24, 0, flags, NULL);
		memset(objs, 0, sizeof(objs));
		rcu_done = 0;
		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_PCT;
		pol.depth = 3;
		pol.seed = (uint64_t)seed;
		pol.horizon = 400;
		violation_reset();
		r = fsched_run(fs, ntasks, 2, init, &pol, fn, NULL);
		current_task = &mm_test_task;
		if (r) {
			if (sig && !strncmp(g_violation.signature, sig, strlen(sig)))
				(*caught)++;
			else
				diag("seed %d: %s: %s", seed, g_violation.signature, g_violation.msg);
			violation_reset();
			slub_cache_forget(cache);
			continue;
		}
		for (i = 0; st && i < NR_SLUB_STAT_ITEMS; i++)
			st[i] += slub_stat_sum(cache, i);
		validate_slab_cache(cache);
		for (i = 0; i < 3; i++)
			for (j = 0; j < NOBJ / 4; j++)
				if (fn == body && objs[i][j])
					kmem_cache_free(cache, objs[i][j]);
		flush_all(cache);
		validate_slab_cache(cache);
		if (kmem_cache_debug(cache) && validate_store(cache, "1") < 0)
			diag("seed %d: validate refused", seed);
		if (slub_objects_inuse(cache) != 0) {
			diag("seed %d: %ld objects in use", seed, slub_objects_inuse(cache));
			continue;
		}
		kmem_cache_shrink(cache);
		kmem_cache_destroy(cache);
		mm_drain(w);
		mm_fold(w);
		if (slub_zone_free(w) == free0)
			clean++;
		else
			diag("seed %d: %lu pages free, %lu before", seed, slub_zone_free(w), free0);
	}
	fsched_destroy(fs);
	return clean;
}

int main(void)
{
	struct world *w;
	struct kmem_cache_node *n;
	struct slab *slab;
	void *p[NOBJ];
	unsigned long free0, st[NR_SLUB_STAT_ITEMS] = { 0 };
	int i, clean, caught, nfull = 0;

	tap_plan(30);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	w = mm_test_boot(slub_tune);
	mm_drain(w);
	mm_fold(w);
	free0 = slub_zone_free(w);

	/* the key slub_debug: what a program's debug cache is made with */
	ok(slub_debug_flags() == SLAB_CONSISTENCY_CHECKS,
	   "slub_debug: consistency_checks (the default) is SLAB_CONSISTENCY_CHECKS alone");
	config_set(&mm_world->config, &ck_slub_debug, 1);
	ok(slub_debug_flags() == (SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER),
	   "slub_debug: store_user adds SLAB_STORE_USER");
	config_set(&mm_world->config, &ck_slub_debug, 0);
	ok(kmem_cache_create("bad", 16, 0, 0x1, NULL) == NULL,
	   "kmem_cache_create refuses a flag outside SLAB_FLAGS_PERMITTED");
	cache = kmem_cache_create("dbg16", 16, 0, SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER, NULL);
	/* validate_store's own checks below, not the executor's validators at
	 * each list_lock acquisition and release (src/check/slab_run.c) */
	get_node(cache, 0)->list_lock.validate = NULL;
	get_node(cache, 0)->list_lock.validate_release = NULL;
	ok(cache && kmem_cache_debug(cache) && !(cache->flags & __CMPXCHG_DOUBLE),
	   "a SLAB_CONSISTENCY_CHECKS cache is a debug cache without __CMPXCHG_DOUBLE");
	for (i = 0; i < NOBJ; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	n = get_node(cache, 0);
	list_for_each_entry(slab, &n->full, slab_list)
		nfull++;
	ok(cache->cpu_slab[0].slab == NULL && nfull > 0 &&
	   atomic_long_read(&n->nr_slabs) == (long)(nfull + n->nr_partial),
	   "no CPU slab; %d full slabs on n->full, %lu partial, nr_slabs %ld", nfull,
	   n->nr_partial, atomic_long_read(&n->nr_slabs));
	ok(mm_violation_of(validate_file, cache) == NULL && validated == nfull + (long)n->nr_partial,
	   "validate_store(\"1\"): %ld slabs, clean", validated);
	check_run_begin(w);
	ok(mm_violation_of(quiesce, w) == NULL, "I-CONS: the slab pages owned once (%s)",
	   g_violation.signature);
	slab = list_first_entry(&n->full, struct slab, slab_list);
	list_del(&slab->slab_list);	/* a full slab dropped from n->full */
	ok(mm_violation_of(quiesce, w) && !strncmp(g_violation.signature, "I-CONS", 6),
	   "a full slab dropped from n->full: its pages owned by nobody (%s: %s)",
	   g_violation.signature, g_violation.msg);
	list_add(&slab->slab_list, &n->full);
	violation_reset();
	is_int(validate_store(cache, "0"), -EINVAL, "validate_store(\"0\") refused");
	slab = list_first_entry(&n->partial, struct slab, slab_list);
	slab->inuse++;
	ok(mm_violation_of(validate_file, cache) &&
	   !strncmp(g_violation.signature, "I-SL-VALIDATE@", 14),
	   "a partial slab's inuse one too many: I-SL-VALIDATE (%s)", g_violation.signature);
	slab->inuse--;
	violation_reset();
	atomic_long_inc(&n->nr_slabs);
	ok(mm_violation_of(validate_file, cache) &&
	   !strncmp(g_violation.signature, "I-SL-VALIDATE@", 14),
	   "nr_slabs one too many: I-SL-VALIDATE (%s)", g_violation.signature);
	atomic_long_sub(1, &n->nr_slabs);
	violation_reset();
	for (i = 0; i < NOBJ; i++)
		kmem_cache_free(cache, p[i]);
	ok(list_empty(&n->full) && slub_objects_inuse(cache) == 0 &&
	   n->nr_partial <= cache->min_partial &&
	   atomic_long_read(&n->nr_slabs) == (long)n->nr_partial,
	   "all freed: no full slab, %lu partial (min_partial %lu), nr_slabs %ld", n->nr_partial,
	   cache->min_partial, atomic_long_read(&n->nr_slabs));
	kmem_cache_destroy(cache);

	/* a debug cache without SLAB_STORE_USER keeps its full slabs on no
	 * list: I-SL-NRSLABS finds them by a walk of the slab heads in the
	 * blocks the page allocator handed out (src/check/slab.c) */
	cache = kmem_cache_create("dbgf", 16, 0, SLAB_CONSISTENCY_CHECKS, NULL);
	get_node(cache, 0)->list_lock.validate = NULL;
	get_node(cache, 0)->list_lock.validate_release = NULL;
	for (i = 0; i < NOBJ; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	n = get_node(cache, 0);
	ok(list_empty(&n->full) && atomic_long_read(&n->nr_slabs) > (long)n->nr_partial &&
	   mm_violation_of(nr_slabs_check, cache) == NULL,
	   "no SLAB_STORE_USER: n->full empty, nr_slabs %ld past the %lu partial, "
	   "the full slabs found on no list: I-SL-NRSLABS clean (%s)",
	   atomic_long_read(&n->nr_slabs), n->nr_partial, g_violation.signature);
	atomic_long_inc(&n->nr_slabs);
	ok(mm_violation_of(nr_slabs_check, cache) &&
	   !strncmp(g_violation.signature, "I-SL-NRSLABS@", 13),
	   "nr_slabs one too many: I-SL-NRSLABS (%s)", g_violation.signature);
	atomic_long_sub(1, &n->nr_slabs);
	violation_reset();
	for (i = 0; i < NOBJ; i++)
		kmem_cache_free(cache, p[i]);
	kmem_cache_destroy(cache);

	/* deactivate_slab_lost_inuse: a CPU slab with objects on its CPU
	 * freelist, flushed to the node's list */
	cache = kmem_cache_create("deact", 16, 0, 0, NULL);
	get_node(cache, 0)->list_lock.validate = NULL;	/* validate_slab_cache's turn */
	for (i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	bugs_enabled = 1ULL << BUG_DEACTIVATE_SLAB_LOST_INUSE;
	flush_all(cache);
	bugs_enabled = 0;
	ok(mm_violation_of(validate, cache) && !strncmp(g_violation.signature, "I-SL-INUSE@", 11),
	   "deactivate_slab_lost_inuse: I-SL-INUSE (%s)", g_violation.signature);
	violation_reset();
	for (i = 0; i < 5; i++)
		kmem_cache_free(cache, p[i]);
	ok(mm_violation_of(destroy, cache) && !strncmp(g_violation.signature, "I-SL-DESTROY@", 13),
	   "all its objects freed, the slab still counts them at destroy: I-SL-DESTROY (%s)",
	   g_violation.signature);
	violation_reset();
	slub_cache_forget(cache);
	cache = kmem_cache_create("deact2", 16, 0, 0, NULL);
	for (i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	flush_all(cache);
	ok(mm_violation_of(validate, cache) == NULL, "the same without the switch: clean");
	for (i = 0; i < 5; i++)
		kmem_cache_free(cache, p[i]);
	kmem_cache_shrink(cache);
	kmem_cache_destroy(cache);
	/* get_partial_node filling cpu0's partial list: six full slabs, one
	 * object of each freed on cpu1 (each frozen onto cpu1's partial list,
	 * the chain unfrozen to the node past cpu_partial_slabs), flush_all,
	 * then cpu0 allocates past its CPU slab */
	{
		void *q[6 * 32];
		unsigned int per, k, nr, chain;

		cache = kmem_cache_create("fill", 16, 0, 0, NULL);
		per = oo_objects(cache->oo);
		nr = 6 * per;
		for (k = 0; k < nr; k++)
			q[k] = kmem_cache_alloc(cache, GFP_KERNEL);
		flush_all(cache);
		mm_test_task.cpu = 1;
		for (k = 0; k < 6; k++) {
			kmem_cache_free(cache, q[k * per]);
			q[k * per] = NULL;
		}
		mm_test_task.cpu = 0;
		flush_all(cache);
		n = get_node(cache, 0);
		k = (unsigned int)n->nr_partial;
		p[0] = kmem_cache_alloc(cache, GFP_KERNEL);
		chain = cache->cpu_slab[0].partial ? (unsigned int)cache->cpu_slab[0].partial->slabs : 0;
		ok(slub_stat_sum(cache, CPU_PARTIAL_NODE) == cache->cpu_partial_slabs / 2 + 1 &&
		   chain == cache->cpu_partial_slabs / 2 + 1 &&
		   mm_violation_of(validate, cache) == NULL,
		   "get_partial_node: 1 of %u node slabs for the CPU, %lu to its partial list "
		   "(chain %u), consistent", k, slub_stat_sum(cache, CPU_PARTIAL_NODE), chain);
		kmem_cache_free(cache, p[0]);
		for (k = 0; k < nr; k++)
			if (q[k])
				kmem_cache_free(cache, q[k]);
		kmem_cache_shrink(cache);
		ok(slub_objects_inuse(cache) == 0 && get_node(cache, 0)->nr_partial == 0,
		   "all freed and shrunk: nothing in use, no partial slab");
		kmem_cache_destroy(cache);
	}
	/* kmem_cache_free_bulk: two slabs' objects, freed in two detached
	 * freelists (one do_slab_free each) */
	{
		void *q[64];
		unsigned int per;
		unsigned long frees;

		cache = kmem_cache_create("bulk", 16, 0, 0, NULL);
		per = oo_objects(cache->oo);
		is_int(kmem_cache_alloc_bulk(cache, GFP_KERNEL, 2 * per, q), (int)(2 * per),
		       "kmem_cache_alloc_bulk: two slabs' worth");
		flush_all(cache);
		frees = slub_stat_sum(cache, FREE_FASTPATH) + slub_stat_sum(cache, FREE_SLOWPATH);
		kmem_cache_free_bulk(cache, 2 * per, q);
		frees = slub_stat_sum(cache, FREE_FASTPATH) + slub_stat_sum(cache, FREE_SLOWPATH) - frees;
		ok(frees == 2 && slub_objects_inuse(cache) == 0 &&
		   mm_violation_of(validate, cache) == NULL,
		   "kmem_cache_free_bulk of %u objects: %lu do_slab_free calls, all free", 2 * per,
		   frees);
		kmem_cache_shrink(cache);
		kmem_cache_destroy(cache);
	}
	(void)free0;
	world_destroy(w);

	w = mm_test_boot(slub_two_cpus);
	clean = pct_runs(w, SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER, body, 3, NULL, &caught, NULL);
	ok(clean == SEEDS, "debug cache: %d of %d PCT schedules consistent, zone whole", clean,
	   SEEDS);
	system_has_freelist_aba = false;
	clean = pct_runs(w, 0, body, 3, NULL, &caught, st);
	system_has_freelist_aba = true;
	ok(clean == SEEDS, "slab_lock cache: %d of %d PCT schedules consistent, zone whole", clean,
	   SEEDS);
	ok(st[FREE_SLOWPATH] > 0 && st[CPU_PARTIAL_FREE] > 0,
	   "slab_lock cache: the schedules reach __slab_free (%lu) and the CPU partial freeze "
	   "(%lu); %lu update failures", st[FREE_SLOWPATH], st[CPU_PARTIAL_FREE],
	   st[CMPXCHG_DOUBLE_FAIL]);
	system_has_freelist_aba = false;
	cache = kmem_cache_create("flagchk", 16, 0, 0, NULL);
	system_has_freelist_aba = true;
	ok(!(cache->flags & __CMPXCHG_DOUBLE) && !kmem_cache_debug(cache),
	   "without freelist_aba a plain cache has no __CMPXCHG_DOUBLE (slab_lock)");
	kmem_cache_destroy(cache);

	clean = pct_runs(w, SLAB_TYPESAFE_BY_RCU, rcu_body, 2, "I-RCU-TYPESAFE@", &caught, st);
	ok(clean == SEEDS && caught == 0,
	   "typesafe cache, a reader beside the frees: %d of %d schedules clean", clean, SEEDS);
	{
		unsigned long b, e;

		rcu_gp_counts(&b, &e);
		ok(e > 0, "grace periods ran for the pages (%lu ended in the last run)", e);
	}
	bugs_enabled = 1ULL << BUG_TYPESAFE_FREE_NO_GP;
	clean = pct_runs(w, SLAB_TYPESAFE_BY_RCU, rcu_body, 2, "I-RCU-TYPESAFE@", &caught, NULL);
	bugs_enabled = 0;
	ok(caught > 0, "typesafe_free_no_gp: I-RCU-TYPESAFE in %d of %d schedules", caught, SEEDS);
	ok(caught + clean == SEEDS, "and no other report (%d clean)", clean);
	{
		struct task_init one = { 0, false };
		struct sched_policy pol = { .kind = POL_PCT, .depth = 1, .seed = 1, .horizon = 100 };
		struct fsched *fs = fsched_create(1);
		int r;

		world_reset(w);
		check_run_begin(w);
		current_task = &mm_test_task;
		cons_w = w;
		cache = kmem_cache_create("cons", 24, 0, SLAB_TYPESAFE_BY_RCU, NULL);
		violation_reset();
		r = fsched_run(fs, 1, 2, &one, &pol, rcu_cons_body, NULL);
		current_task = &mm_test_task;
		ok(r == 0 && pending_seen > 0,
		   "I-CONS with %d typesafe slabs waiting for their grace period: clean (%s)",
		   pending_seen, r ? g_violation.signature : "");
		fsched_destroy(fs);
		kmem_cache_destroy(cache);
	}
	world_destroy(w);
	return tap_done();
}

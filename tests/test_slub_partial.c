// SPDX-License-Identifier: MIT
/*
 * What /proc/slabinfo reads of a SLUB cache and seed 004's counters
 * (src/mm/slub_partial.c, checks in src/check/slab.c).  Sequentially:
 * get_slabinfo's slabs and objects from the node's atomics and its free
 * objects by each variant, equal to count_partial's walk.  On fibers, under
 * many PCT schedules: four tasks on two CPUs allocating, freeing each
 * other's objects and reading slabinfo (one shrinks the cache midway, so
 * deactivate_slab and __unfreeze_partials run against remote frees), every
 * list_lock acquisition checked (I-SL-PTOTAL, I-SL-PFREE) and every
 * count_partial step (I-SL-WALK): each variant clean in every PCT (depth
 * 3) and random schedule; each of the three switches caught by its checker
 * and by no other in random schedules (their windows are a few steps wide:
 * PCT's two change points seldom land in them, the fuzzer's input
 * decisions do).
 */
#include "mm/slab.h"
#include "slub_world.h"
#include "tap.h"

#define NOBJ	40
#define NSEEDS	600
#define TASKOBJ	48

static const char *const vname[NR_SLUB_PARTIAL_VARIANTS] = {
	"count_partial", "partial_counters", "partial_counters_atomic",
};

static unsigned long partial_free(struct kmem_cache *s)
{
	struct kmem_cache_node *n = s->node[0];

	return n->partial_variant == PARTIAL_COUNT_WALK ? count_partial(n, count_free)
							 : partial_counter(n, PARTIAL_FREE);
}

/* one variant, one task: slabinfo and the counters against the walk */
static void sequential(int variant)
{
	struct kmem_cache *cache;
	struct slabinfo si;
	void *p[NOBJ];
	unsigned int per;
	int i, good = 1;

	config_set(&mm_world->config, &ck_slub_partial, variant);
	cache = kmem_cache_create("info16", 16, 0, 0, NULL);
	per = oo_objects(cache->oo);
	for (i = 0; i < NOBJ; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	get_slabinfo(cache, &si);
	good &= si.num_slabs == (NOBJ + per - 1) / per && si.num_objs == si.num_slabs * per &&
		si.active_objs == si.num_objs && si.objects_per_slab == per &&
		si.cache_order == oo_order(cache->oo);
	diag("%s: after %d allocations: %lu slabs of %u, %lu objects, %lu active", vname[variant],
	     NOBJ, si.num_slabs, si.objects_per_slab, si.num_objs, si.active_objs);
	for (i = 0; i < NOBJ; i += 2)
		kfree(p[i]);
	flush_all(cache);
	validate_slab_cache(cache);
	get_slabinfo(cache, &si);
	good &= si.active_objs == NOBJ / 2 && si.active_objs == (unsigned long)slub_objects_inuse(cache);
	good &= si.num_objs - si.active_objs == count_partial(cache->node[0], count_free);
	good &= partial_free(cache) == count_partial(cache->node[0], count_free);
	diag("%s: half freed and flushed: %lu active of %lu, count_partial %lu, counters %lu",
	     vname[variant], si.active_objs, si.num_objs, count_partial(cache->node[0], count_free),
	     partial_free(cache));
	for (i = 1; i < NOBJ; i += 2)
		kfree(p[i]);
	flush_all(cache);
	validate_slab_cache(cache);
	kmem_cache_shrink(cache);
	validate_slab_cache(cache);
	get_slabinfo(cache, &si);
	good &= si.num_slabs == 0 && si.num_objs == 0 && si.active_objs == 0 &&
		partial_free(cache) == 0;
	ok(good, "%s: get_slabinfo's slabs, objects and active objects as the lists say, "
	   "the free count equal to count_partial's walk; all freed and shrunk: %lu slabs",
	   vname[variant], si.num_slabs);
	kmem_cache_destroy(cache);
}

/* ---- on fibers ---- */

static struct kmem_cache *cache;
static void *objs[3][TASKOBJ];
static unsigned long reads;
static unsigned long cache_flags;	/* SLAB_CONSISTENCY_CHECKS: a debug cache */

/* T0..T2 allocate on their CPUs, free the next task's objects (cross-CPU:
 * __slab_free to frozen slabs, to the node's list, CPU partial freezes),
 * allocate again (get_partial_node's acquire_slab) and free those; T3
 * reads slabinfo. */
static void body(struct task *t, void *arg)
{
	int i, id = t->id;
	void *mine[TASKOBJ / 2];
	struct slabinfo si;
	(void)arg;

	if (id == 3) {
		for (i = 0; i < 8; i++) {
			get_slabinfo(cache, &si);
			__atomic_fetch_add(&reads, 1, __ATOMIC_RELAXED);
			sched_point("reader");
		}
		return;
	}
	for (i = 0; i < TASKOBJ; i++)
		__atomic_store_n(&objs[id][i], kmem_cache_alloc(cache, GFP_KERNEL), __ATOMIC_RELEASE);
	sched_point("allocated");
	for (i = 0; i < TASKOBJ; i++) {
		/* across the slabs: each full one frozen onto this CPU's
		 * partial chain, the chain past cpu_partial_slabs unfrozen onto
		 * the node's list while the others free into its slabs */
		int k = (i % 3) * (TASKOBJ / 3) + i / 3;
		void *o = __atomic_exchange_n(&objs[(id + 1) % 3][k], NULL, __ATOMIC_ACQ_REL);

		if (o)
			kmem_cache_free(cache, o);
	}
	for (i = 0; i < TASKOBJ / 2; i++)
		mine[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (i = 0; i < TASKOBJ / 2; i++)
		kmem_cache_free(cache, mine[i]);
}

/* the executor's checker does this (src/check/slab_run.c) */
static void cache_created(struct kmem_cache *s)
{
	s->node[0]->list_lock.validate = slab_list_lock_validate;
	s->node[0]->list_lock.validate_arg = s;
}

/* the objects the tasks left, freed (the switches still on), then the
 * quiescent checks */
static void finish(void *arg)
{
	int i, j;

	(void)arg;
	for (i = 0; i < 3; i++)
		for (j = 0; j < TASKOBJ; j++)
			if (objs[i][j])
				kmem_cache_free(cache, objs[i][j]);
	flush_all(cache);
	validate_slab_cache(cache);
}

struct outcome {
	int clean, caught, other;
	char other_sig[96];
};

/* NSEEDS PCT schedules of @variant with @bugs; @want: the signature's
 * checker expected (NULL: none) */
static void schedules(struct world *w, int variant, uint64_t bugs, const char *want,
		      struct outcome *o, enum sched_kind kind)
{
	struct task_init init[4] = { { 0, false }, { 1, false }, { 1, false }, { 0, false } };
	struct sched_policy pol;
	struct fsched *fs = fsched_create(4);
	int seed, r;

	memset(o, 0, sizeof(*o));
	for (seed = 1; seed <= NSEEDS; seed++) {
		world_reset(w);
		check_run_begin(w);
		slab_partial_run_begin();
		current_task = &mm_test_task;
		mm_drain(w);
		mm_fold(w);
		config_set(&w->config, &ck_slub_partial, variant);
		bugs_enabled = 0;
		cache = kmem_cache_create("fib24", 24, 0, cache_flags, NULL);
		memset(objs, 0, sizeof(objs));
		memset(&pol, 0, sizeof(pol));
		pol.kind = kind;
		pol.depth = 5;
		pol.seed = (uint64_t)seed;
		pol.horizon = 3000;
		violation_reset();
		bugs_enabled = bugs;
		r = fsched_run(fs, 4, 2, init, &pol, body, NULL);
		current_task = &mm_test_task;
		/* what the tasks did not take, then quiescence */
		if (!r && mm_violation_of(finish, cache))
			r = 1;
		bugs_enabled = 0;
		if (!r) {
			o->clean++;
		} else if (want && !strncmp(g_violation.signature, want, strlen(want))) {
			o->caught++;
		} else {
			if (!o->other++)
				snprintf(o->other_sig, sizeof(o->other_sig), "%s: %s",
					 g_violation.signature, g_violation.msg);
		}
		violation_reset();
		if (r) {
			/* a violation unwound the test's task where it stood
			 * (locks, preemption, IRQs): a fresh one */
			jmp_buf *jb = mm_test_task.exit_jb;

			memset(&mm_test_task, 0, sizeof(mm_test_task));
			mm_test_task.exit_jb = jb;
		}
		/* the cache goes with the world's reset: its pages are the zone's */
		list_del(&cache->list);
		free_kmem_cache_node_partial(cache->node[0]);
		free(cache->cpu_slab);
		free(cache);
	}
	fsched_destroy(fs);
}

int main(void)
{
	struct world *w;
	struct outcome o;
	int v;
	static const struct {
		const char *name;
		int bit, variant;
		const char *want;
	} sw[] = {
		{ "partial_counter_reread_inuse", BUG_PARTIAL_COUNTER_REREAD_INUSE,
		  PARTIAL_COUNTERS, "I-SL-PFREE@" },
		{ "partial_counter_reread_inuse", BUG_PARTIAL_COUNTER_REREAD_INUSE,
		  PARTIAL_COUNTERS_ATOMIC, "I-SL-PFREE@" },
		{ "partial_total_unlocked", BUG_PARTIAL_TOTAL_UNLOCKED, PARTIAL_COUNTERS,
		  "I-SL-PTOTAL@" },
		{ "count_partial_nolock", BUG_COUNT_PARTIAL_NOLOCK, PARTIAL_COUNT_WALK,
		  "I-SL-WALK@" },
	};
	size_t k;

	tap_plan(1 + 3 + 6 + 2 + 4 + 2);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	/* the switches' bits are corpus files' (docs/adding-a-layer.md) */
	ok(bug_lookup("partial_counter_reread_inuse") == 20 &&
	   bug_lookup("partial_total_unlocked") == 21 && bug_lookup("count_partial_nolock") == 22,
	   "seed 004's switches keep bits 20..22");
	slab_partial_attach();
	slub_hooks.cache_created = cache_created;
	w = mm_test_boot(slub_tune);
	for (v = 0; v < NR_SLUB_PARTIAL_VARIANTS; v++)
		sequential(v);
	world_destroy(w);

	w = mm_test_boot(slub_two_cpus);
	for (v = 0; v < 2 * NR_SLUB_PARTIAL_VARIANTS; v++) {
		bool pct = v < NR_SLUB_PARTIAL_VARIANTS;

		reads = 0;
		schedules(w, v % NR_SLUB_PARTIAL_VARIANTS, 0, NULL, &o, pct ? POL_PCT : POL_RANDOM);
		ok(o.clean == NSEEDS, "%s: %d of %d %s schedules clean (%lu slabinfo reads)%s%s",
		   vname[v % NR_SLUB_PARTIAL_VARIANTS], o.clean, NSEEDS, pct ? "PCT" : "random",
		   reads, o.other ? "; first: " : "", o.other ? o.other_sig : "");
	}
	/* debug caches: alloc_single_from_partial and free_to_partial_list
	 * under list_lock keep the counters too */
	for (v = 1; v < NR_SLUB_PARTIAL_VARIANTS; v++) {
		cache_flags = SLAB_CONSISTENCY_CHECKS;
		schedules(w, v, 0, NULL, &o, POL_PCT);
		cache_flags = 0;
		ok(o.clean == NSEEDS, "%s, a debug cache: %d of %d PCT schedules clean%s%s",
		   vname[v], o.clean, NSEEDS, o.other ? "; first: " : "", o.other ? o.other_sig : "");
	}
	for (k = 0; k < sizeof(sw) / sizeof(sw[0]); k++) {
#if MMFUZZ_TSAN
		/* a switch's run ends in a violation that unwinds its fibers
		 * mid-operation; under TSan the next runs' accesses then race
		 * with the unwound ones (test_state skips switches so too) */
		ok(1, "%s (%s): not run under TSan", sw[k].name, vname[sw[k].variant]);
		continue;
#endif
		schedules(w, sw[k].variant, 1ULL << sw[k].bit, sw[k].want, &o, POL_RANDOM);
		ok(o.caught > 0 && o.other == 0,
		   "%s (%s): %s in %d of %d random schedules, %d clean, %d other%s%s", sw[k].name,
		   vname[sw[k].variant], sw[k].want, o.caught, NSEEDS, o.clean, o.other,
		   o.other ? ": " : "", o.other ? o.other_sig : "");
	}
	/* the checkers fail on what they must catch, directly */
	config_set(&w->config, &ck_slub_partial, PARTIAL_COUNTERS);
	world_reset(w);
	check_run_begin(w);
	current_task = &mm_test_task;
	cache = kmem_cache_create("direct", 24, 0, 0, NULL);
	{
		void *p[NOBJ];
		int i;

		for (i = 0; i < NOBJ; i++)
			p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
		for (i = 0; i < NOBJ; i += 3)
			kmem_cache_free(cache, p[i]);
		flush_all(cache);
		cache->node[0]->partial_free_objs[1].objs++;
		ok(mm_violation_of((void (*)(void *))validate_slab_cache, cache) &&
		   !strncmp(g_violation.signature, "I-SL-PFREE@", 11),
		   "a CPU's free counter one too many: %s", g_violation.signature);
		cache->node[0]->partial_free_objs[1].objs--;
		cache->node[0]->partial_total_objs--;
		ok(mm_violation_of((void (*)(void *))validate_slab_cache, cache) &&
		   !strncmp(g_violation.signature, "I-SL-PTOTAL@", 12),
		   "the total one too few: %s", g_violation.signature);
		cache->node[0]->partial_total_objs++;
		violation_reset();
	}
	world_destroy(w);
	return tap_done();
}

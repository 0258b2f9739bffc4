// SPDX-License-Identifier: MIT
/*
 * SLUB in interrupt context: T0 on cpu0 allocates and frees through the
 * fast paths, which run with preemption and IRQs on; T1 is an interrupt
 * on cpu0 whose operations (an allocation and a free each, GFP_ATOMIC)
 * come in wherever cpu0's task has IRQs on: between T0's reads of c->tid,
 * c->freelist and its this_cpu_cmpxchg_double, or inside ___slab_alloc's
 * unlocked stretches, never inside the local_lock_irqsave sections.  The
 * tid makes T0's cmpxchg fail and retry; every schedule must end with the
 * cache consistent and the zone whole, and some must show the failure (on
 * cpu0 only the interrupt can change cpu0's freelist).  Then the same with
 * a debug cache and a slab_lock cache, whose list_lock and slab_lock
 * sections are irqsave too.  Every third round T0 goes through the bulk
 * calls, whose CPU freelist drain has IRQs off.
 */
#include <stdlib.h>

#include "mm/slab.h"
#include "slub_world.h"
#include "tap.h"

#define ROUNDS	12
#define IRQS	6
#define SEEDS	40

static struct kmem_cache *cache;

static void *irq_objs[IRQS];

static void body(struct task *t, void *arg)
{
	void *o[4];
	int i, k;
	(void)arg;

	if (t->id == 0) {
		for (i = 0; i < ROUNDS; i++) {
			if (i % 3 == 2) {	/* the bulk calls: the drain with IRQs off */
				if (kmem_cache_alloc_bulk(cache, GFP_KERNEL, 4, o) == 4)
					kmem_cache_free_bulk(cache, 4, o);
				continue;
			}
			for (k = 0; k < 4; k++)
				o[k] = kmem_cache_alloc(cache, GFP_KERNEL);
			for (k = 0; k < 4; k++)
				kmem_cache_free(cache, o[k]);
		}
		return;
	}
	/* the interrupt: each operation enters and leaves interrupt context */
	for (i = 0; i < IRQS; i++) {
		t->irq_ctx = true;
		sched_op_begin(t, i, YIELD_SITE(YP_OP, "slub_irq"));
		fsched_irq_enter(t, NULL);
		irq_objs[i] = kmem_cache_alloc(cache, GFP_ATOMIC);
		if (i > 0 && irq_objs[i - 1]) {
			kmem_cache_free(cache, irq_objs[i - 1]);
			irq_objs[i - 1] = NULL;
		}
		fsched_irq_exit(t);
		yield_point(YIELD_SITE(YP_IRQ, "irq_exit"));
	}
}

static int runs(struct world *w, unsigned long flags, unsigned long *st)
{
	struct task_init init[2] = { { 0, false }, { 0, true } };
	struct sched_policy pol;
	struct fsched *fs = fsched_create(2);
	int seed, clean = 0, i;

	for (seed = 1; seed <= SEEDS; seed++) {
		unsigned long free0;
		int r;

		world_reset(w);
		check_run_begin(w);
		current_task = &mm_test_task;
		mm_drain(w);
		mm_fold(w);
		free0 = slub_zone_free(w);
		cache = kmem_cache_create("irq24", 24, 0, flags, NULL);
		memset(irq_objs, 0, sizeof(irq_objs));
		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_PCT;
		pol.depth = 3;
		pol.seed = (uint64_t)seed;
		pol.horizon = 600;
		violation_reset();
		r = fsched_run(fs, 2, 2, init, &pol, body, NULL);
		current_task = &mm_test_task;
		if (r) {
			diag("seed %d: %s: %s", seed, g_violation.signature, g_violation.msg);
			violation_reset();
			slub_cache_forget(cache);
			continue;
		}
		for (i = 0; i < NR_SLUB_STAT_ITEMS; i++)
			st[i] += slub_stat_sum(cache, i);
		validate_slab_cache(cache);
		for (i = 0; i < IRQS; i++)
			if (irq_objs[i])
				kmem_cache_free(cache, irq_objs[i]);
		flush_all(cache);
		validate_slab_cache(cache);
		kmem_cache_shrink(cache);
		if (slub_objects_inuse(cache) != 0) {
			diag("seed %d: %ld objects in use", seed, slub_objects_inuse(cache));
			slub_cache_forget(cache);
			continue;
		}
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
	unsigned long st[NR_SLUB_STAT_ITEMS] = { 0 };
	int clean;

	tap_plan(4);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	w = mm_test_boot(slub_two_cpus);
	clean = runs(w, 0, st);
	ok(clean == SEEDS, "interrupts on cpu0 beside its task's fast paths: %d of %d schedules "
	   "consistent, zone whole", clean, SEEDS);
	ok(st[CMPXCHG_DOUBLE_CPU_FAIL] > 0,
	   "the interrupt came in between a fast path's tid read and its cmpxchg: %lu failures "
	   "(%lu fast allocations, %lu fast frees)", st[CMPXCHG_DOUBLE_CPU_FAIL],
	   st[ALLOC_FASTPATH], st[FREE_FASTPATH]);
	clean = runs(w, SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER, st);
	ok(clean == SEEDS, "a debug cache: %d of %d schedules consistent", clean, SEEDS);
	system_has_freelist_aba = false;
	clean = runs(w, 0, st);
	system_has_freelist_aba = true;
	ok(clean == SEEDS, "a slab_lock cache: %d of %d schedules consistent", clean, SEEDS);
	world_destroy(w);
	return tap_done();
}

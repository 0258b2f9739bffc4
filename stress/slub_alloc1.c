// SPDX-License-Identifier: MIT
/*
 * slub_alloc1: each task allocates a batch of objects from one shared
 * 64-byte cache and frees them, on its own CPU, in allocation order: the
 * lockless fast paths (__slab_alloc_node and do_slab_free's
 * this_cpu_cmpxchg_double on the CPU slab), and when the batch outgrows
 * the CPU slab (28 objects a slab), ___slab_alloc taking a slab from the
 * node's partial list or new_slab, and __slab_free of the objects of the
 * slab the CPU left: the slow paths without a second CPU.  One op is one
 * object allocated and freed.
 */
#include "slub_stress.h"

#include <stdlib.h>
#include <string.h>

#define SLUB_ALLOC1_BATCH	64
#define SLUB_ALLOC1_SIZE	64

struct slub_alloc1 {
	struct slub_stress ss;		/* first: r->priv */
	struct kmem_cache *s;
};

static int slub_alloc1_prepare(struct stress_run *r, unsigned long tasks)
{
	struct slub_alloc1 *a = calloc(1, sizeof(*a));
	unsigned long i;

	if (!a)
		return -1;
	r->priv = a;
	if (slub_stress_init(r, &a->ss, tasks))
		return -1;
	a->s = slub_stress_cache(&a->ss, "slub_alloc1", SLUB_ALLOC1_SIZE, 0);
	if (!a->s)
		return -1;
	for (i = 0; i < tasks; i++) {
		r->tasks[i].priv = stress_task_calloc(SLUB_ALLOC1_BATCH, sizeof(void *));
		if (!r->tasks[i].priv)
			return -1;
	}
	return 0;
}

static void slub_alloc1_testcase(struct stress_task *t)
{
	struct slub_alloc1 *a = t->run->priv;
	void **obj = t->priv;
	unsigned long i, n;

	slub_stress_task_start(t);
	while (stress_continue(t)) {
		for (n = 0; n < SLUB_ALLOC1_BATCH; n++) {
			obj[n] = kmem_cache_alloc(a->s, GFP_KERNEL);
			if (unlikely(!obj[n]))
				break;
			memset(obj[n], (int)n, SLUB_ALLOC1_SIZE);	/* the caller uses it */
		}
		for (i = 0; i < n; i++)
			slub_stress_free(&a->ss, t, a->s, obj[i]);
		stress_count(t, n);
	}
}

/* between iterations a task holds no object */
static void slub_alloc1_quiesce(struct stress_run *r)
{
	slub_stress_quiesce(r, 0);
}

static void slub_alloc1_cleanup(struct stress_run *r)
{
	unsigned long i;

	slub_stress_cleanup(r);
	for (i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].priv);
		r->tasks[i].priv = NULL;
	}
	free(r->priv);
	r->priv = NULL;
}

static const struct stress_workload stress_slub_alloc1 = {
	.name = "slub_alloc1",
	.wl_opts = STRESS_WL_SLUB,
	.description = "SLUB objects allocated and freed by each task on its own CPU",
	.prepare = slub_alloc1_prepare,
	.testcase = slub_alloc1_testcase,
	.cleanup = slub_alloc1_cleanup,
	.quiesce = slub_alloc1_quiesce,
	.print_config = slub_stress_print_config,
	SLUB_STRESS_STAT_HOOKS,
};
STRESS_WORKLOAD(stress_slub_alloc1);

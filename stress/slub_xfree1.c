// SPDX-License-Identifier: MIT
/*
 * slub_xfree1: objects allocated on one CPU and freed on another, the
 * shape of hackbench (a sender allocates the skb, the receiver frees it
 * on its own CPU), which seed 004's figures came from.  Tasks pair up:
 * task 2k allocates 64-byte objects and passes them through a ring to task
 * 2k+1, which keeps the last XFREE1_POOL it received in a pool (a socket's
 * queued buffers: each new one takes a random place and the object there
 * is freed), so objects die in random order and slabs stay partly used.
 * The consumer's CPU never holds their slabs: every free is do_slab_free's
 * slow path, __slab_free, freezing a full slab onto the consumer's CPU
 * partial list (put_cpu_partial; past cpu_partial_slabs, the chain to the
 * node by __unfreeze_partials) or, for a slab on the node's list, the
 * speculative n->list_lock with add_partial / remove_partial and
 * discard_slab past min_partial; the producer's ___slab_alloc takes slabs
 * back from the node (get_partial_node).  Both sides meet on n->list_lock,
 * and so does the slabinfo reader (--reader-hz): with long partial lists
 * (--min-partial keeps empty slabs on them) count_partial holds the lock
 * for the whole walk.  A task without a partner allocates on its CPU,
 * migrates to a spare CPU and frees there.  One op is one object
 * allocated, or one freed.
 *
 * Each ring has one producer and one consumer: head and tail are
 * acquire/release, the slots between them belong to one side at a time.
 */
#include "slub_stress.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define XFREE1_RING	1024		/* a power of two */
#define XFREE1_CHUNK	64		/* objects moved per iteration */
#define XFREE1_POOL	4096		/* objects a consumer keeps */
#define XFREE1_SIZE	64

struct xring {
	_Alignas(STRESS_CACHELINE) unsigned long head;	/* consumer's */
	_Alignas(STRESS_CACHELINE) unsigned long tail;	/* producer's */
	void *slot[XFREE1_RING];
};

struct xpool {
	_Alignas(STRESS_CACHELINE) unsigned long n;	/* places taken */
	void *obj[XFREE1_POOL];
};

struct slub_xfree1 {
	struct slub_stress ss;		/* first: r->priv */
	struct kmem_cache *s;
	struct xring *rings;		/* one per pair */
	struct xpool *pools;		/* one per task (a consumer's, or a lone task's) */
	int spare_cpu;			/* the lone task's second CPU */
};

static int slub_xfree1_nr_cpus(unsigned long tasks)
{
	return (int)(tasks + (tasks & 1));
}

static int slub_xfree1_prepare(struct stress_run *r, unsigned long tasks)
{
	struct slub_xfree1 *x = calloc(1, sizeof(*x));

	if (!x)
		return -1;
	r->priv = x;
	if (slub_stress_init(r, &x->ss, tasks))
		return -1;
	x->s = slub_stress_cache(&x->ss, "slub_xfree1", XFREE1_SIZE, 0);
	x->rings = stress_task_calloc(tasks / 2 + 1, sizeof(struct xring));
	x->pools = stress_task_calloc(tasks, sizeof(struct xpool));
	if (!x->s || !x->rings || !x->pools)
		return -1;
	x->spare_cpu = stress_slot_cpu(r, tasks);
	return 0;
}

static void *xalloc(struct slub_xfree1 *x, unsigned long i)
{
	void *p = kmem_cache_alloc(x->s, GFP_KERNEL);

	if (p)
		memset(p, (int)i, XFREE1_SIZE);
	return p;
}

/* the object takes a random place of the pool; the one there is freed */
static void xkeep(struct stress_task *t, struct slub_xfree1 *x, struct xpool *pool, void *p)
{
	unsigned long k;
	void *old;

	if (pool->n < XFREE1_POOL) {
		pool->obj[pool->n++] = p;
		return;
	}
	k = (unsigned long)(rng_next(&t->rng) % XFREE1_POOL);
	old = pool->obj[k];
	pool->obj[k] = p;
	slub_stress_free(&x->ss, t, x->s, old);
}

static void produce(struct stress_task *t, struct slub_xfree1 *x, struct xring *ring)
{
	unsigned long head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	unsigned long tail = ring->tail;
	int i;

	if (XFREE1_RING - (tail - head) < XFREE1_CHUNK) {
		sched_yield();
		return;
	}
	for (i = 0; i < XFREE1_CHUNK; i++) {
		void *p = xalloc(x, (unsigned long)i);

		if (!p)
			break;
		ring->slot[tail++ % XFREE1_RING] = p;
	}
	__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	stress_count(t, (unsigned long long)i);
}

static void consume(struct stress_task *t, struct slub_xfree1 *x, struct xring *ring,
		    struct xpool *pool)
{
	unsigned long tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	unsigned long head = ring->head;
	int n = 0;

	if (tail == head) {
		sched_yield();
		return;
	}
	while (head != tail && n < XFREE1_CHUNK) {
		xkeep(t, x, pool, ring->slot[head++ % XFREE1_RING]);
		n++;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	stress_count(t, (unsigned long long)n);
}

/* No partner: allocate here, migrate (preemptible, between ops), free there. */
static void alone(struct stress_task *t, struct slub_xfree1 *x, struct xpool *pool)
{
	void *obj[XFREE1_CHUNK];
	int home = t->task.cpu;
	unsigned long i, n;

	for (n = 0; n < XFREE1_CHUNK; n++) {
		obj[n] = xalloc(x, n);
		if (!obj[n])
			break;
	}
	t->task.cpu = x->spare_cpu;
	for (i = 0; i < n; i++)
		xkeep(t, x, pool, obj[i]);
	t->task.cpu = home;
	stress_count(t, 2 * n);
}

static void slub_xfree1_testcase(struct stress_task *t)
{
	struct slub_xfree1 *x = t->run->priv;
	struct xring *ring = &x->rings[t->nr / 2];
	struct xpool *pool = &x->pools[t->nr];
	bool paired = (t->nr | 1) < t->run->ntasks;

	slub_stress_task_start(t);
	while (stress_continue(t)) {
		if (!paired)
			alone(t, x, pool);
		else if (t->nr & 1)
			consume(t, x, ring, pool);
		else
			produce(t, x, ring);
	}
}

static unsigned long xheld(struct stress_run *r)
{
	struct slub_xfree1 *x = r->priv;
	unsigned long k, n = 0;

	for (k = 0; k < r->ntasks / 2; k++)
		n += __atomic_load_n(&x->rings[k].tail, __ATOMIC_ACQUIRE) -
		     __atomic_load_n(&x->rings[k].head, __ATOMIC_ACQUIRE);
	for (k = 0; k < r->ntasks; k++)
		n += x->pools[k].n;
	return n;
}

static void slub_xfree1_quiesce(struct stress_run *r)
{
	slub_stress_quiesce(r, xheld(r));
}

static void slub_xfree1_cleanup(struct stress_run *r)
{
	struct slub_xfree1 *x = r->priv;
	unsigned long k, i;

	for (k = 0; k < r->ntasks / 2; k++) {
		struct xring *ring = &x->rings[k];

		while (ring->head != ring->tail)
			kmem_cache_free(x->s, ring->slot[ring->head++ % XFREE1_RING]);
	}
	for (k = 0; k < r->ntasks; k++) {
		for (i = 0; i < x->pools[k].n; i++)
			kmem_cache_free(x->s, x->pools[k].obj[i]);
		x->pools[k].n = 0;
	}
	slub_stress_cleanup(r);
	free(x->rings);
	free(x->pools);
	free(x);
	r->priv = NULL;
}

static const struct stress_workload stress_slub_xfree1 = {
	.name = "slub_xfree1",
	.wl_opts = STRESS_WL_SLUB,
	.description = "SLUB objects allocated on one CPU and freed on another (hackbench's shape)",
	.nr_cpus = slub_xfree1_nr_cpus,
	.prepare = slub_xfree1_prepare,
	.testcase = slub_xfree1_testcase,
	.cleanup = slub_xfree1_cleanup,
	.quiesce = slub_xfree1_quiesce,
	.print_config = slub_stress_print_config,
	SLUB_STRESS_STAT_HOOKS,
};
STRESS_WORKLOAD(stress_slub_xfree1);

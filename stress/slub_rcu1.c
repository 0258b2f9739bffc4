// SPDX-License-Identifier: MIT
/*
 * slub_rcu1: kfree_rcu() of SLUB objects with lookups under RCU readers,
 * on liburcu.  The tasks share a table of RCU-published objects (a hash
 * table's buckets, as the dentry or the file table is): one in sixteen of the
 * operations replace a random slot's object with a new one
 * (rcu_assign_pointer by an exchange) and kfree_rcu() the old one; the
 * rest look a random slot up in a read-side section and check what they
 * find: its key is its slot and the owner cookie says it is allocated.  A
 * free before the reader's grace period ended would show as a free object
 * (cookie 0) or one reused for another slot: I-RCU@slub_rcu1.
 * kfree_rcu's batching (src/kernel/kfree_rcu.c: per-CPU kfree_rcu_cpu,
 * bulk blocks and the head-list fallback, the polled shortcut, batches
 * behind call_rcu) frees the objects with kfree on whichever task runs its
 * work, so frees cross CPUs.  At every check kfree_rcu's queue is drained
 * (kfree_rcu_drain, rcu_barrier) before the objects are counted.
 *
 * Beside it a second table on a SLAB_TYPESAFE_BY_RCU cache, as
 * sighand_cachep or anon_vma's: an update frees the old object at once
 * (kmem_cache_free: the object is reused at once, only its slab page waits
 * for a grace period, free_slab's call_rcu(rcu_free_slab)), and a lookup
 * reads what it found inside its section and revalidates its identity (the
 * key is the slot it was found in: a mismatch is an object freed and
 * reused meanwhile, the lookup's miss, counted); what it may never see is
 * the object's page no longer a slab of the cache (I-RCU-TYPESAFE@
 * slub_rcu1: the page went back to the page allocator under the reader).
 * The typesafe table has 32 slots, so that its slabs empty and go back
 * through rcu_free_slab while readers hold objects of them.  An eighth of
 * the ops update, half of them each table; the rest look up, half in each.
 * One op is one update or one lookup.
 *
 * The readers' check does not catch typesafe_free_no_gp in short runs: the
 * page a discard frees goes back to this CPU's pcp list and the cache's
 * next new_slab takes it at once, a slab of the cache again (what the
 * check sees); the fiber runs' I-RCU-TYPESAFE checks the grace period
 * itself.
 */
#include "slub_stress.h"

#include <stdlib.h>
#include <string.h>

#define RCU1_SLOTS	1024
/* the typesafe table: few objects, so its slabs empty and are discarded
 * while readers hold objects of them (the window typesafe_free_no_gp opens) */
#define RCU1_TSLOTS	32
/* kfree_rcu's queue at most: past it an update waits a grace period first
 * (the model's 64-byte pages make an object a page; 6.6 has the
 * kfree_rcu shrinker and memory pressure for a flood of frees) */
#define RCU1_MAX_PENDING	4096

struct rcu1_obj {
	unsigned long key;		/* its slot */
	unsigned long gen;
	struct rcu_head rh;
};

struct slub_rcu1 {
	struct slub_stress ss;		/* first: r->priv */
	struct kmem_cache *s;
	struct kmem_cache *ts;		/* SLAB_TYPESAFE_BY_RCU */
	struct rcu1_obj *table[RCU1_SLOTS];
	struct rcu1_obj *ttable[RCU1_TSLOTS];	/* ts's objects */
};

static struct slub_rcu1 *rcu1_cur;	/* kvfree_rcu_ops are global */

/* kfree_rcu's free of an object: timed when a task runs it */
static void rcu1_kfree(void *p)
{
	struct slub_rcu1 *x = rcu1_cur;
	struct task *t = current;

	if (t && t->id >= 0 && (unsigned long)t->id < x->ss.run->ntasks &&
	    &x->ss.run->tasks[t->id].task == t)
		slub_stress_free(&x->ss, &x->ss.run->tasks[t->id], x->s, p);
	else
		kfree(p);
}

static void rcu1_kfree_bulk(size_t n, void **p)
{
	size_t i;

	for (i = 0; i < n; i++)
		rcu1_kfree(p[i]);
}

static const struct kvfree_rcu_ops rcu1_ops = { rcu1_kfree, rcu1_kfree_bulk };

static int slub_rcu1_prepare(struct stress_run *r, unsigned long tasks)
{
	struct slub_rcu1 *x = calloc(1, sizeof(*x));

	if (!x)
		return -1;
	r->priv = x;
	if (slub_stress_init(r, &x->ss, tasks))
		return -1;
	x->ss.uses_rcu = true;
	x->s = slub_stress_cache(&x->ss, "slub_rcu1", sizeof(struct rcu1_obj), 0);
	x->ts = slub_stress_cache(&x->ss, "slub_rcu1_typesafe", sizeof(struct rcu1_obj),
				  SLAB_TYPESAFE_BY_RCU);
	if (!x->s || !x->ts)
		return -1;
	rcu1_cur = x;
	kvfree_rcu_set_ops(&rcu1_ops);
	kfree_rcu_reset();
	return 0;
}

static void update(struct stress_task *t, struct slub_rcu1 *x, unsigned long slot,
		   unsigned long gen)
{
	struct kfree_rcu_stats st;
	struct rcu1_obj *n, *old;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		kfree_rcu_stats(&st);
		if (st.pending < RCU1_MAX_PENDING)
			break;
		__atomic_fetch_add(&x->ss.throttled, 1, __ATOMIC_RELAXED);
		synchronize_rcu();
	}
	n = kmem_cache_alloc(x->s, GFP_KERNEL);
	if (unlikely(!n))
		return;
	__atomic_store_n(&n->key, slot, __ATOMIC_RELAXED);
	__atomic_store_n(&n->gen, gen, __ATOMIC_RELAXED);
	/* rcu_assign_pointer, as an exchange: any task may replace the slot */
	old = __atomic_exchange_n(&x->table[slot], n, __ATOMIC_ACQ_REL);
	if (old)
		kfree_rcu(old, rh);
	(void)t;
}

static void lookup(struct slub_rcu1 *x, unsigned long slot)
{
	struct rcu1_obj *o;

	rcu_read_lock();
	o = rcu_dereference(x->table[slot]);
	if (o) {
		unsigned long key = __atomic_load_n(&o->key, __ATOMIC_RELAXED);
		unsigned long owner = __atomic_load_n(obj_cookie(x->s, o), __ATOMIC_RELAXED);

		if (key != slot || owner == SLUB_COOKIE_FREE) {
			rcu_read_unlock();
			sched_violation("I-RCU", "slub_rcu1", "slot %lu: object %p %s under a "
					"reader (key %lu)", slot, (void *)o,
					owner == SLUB_COOKIE_FREE ? "freed" : "reused", key);
		}
	}
	rcu_read_unlock();
}

/* the typesafe table: the old object freed at once, reused at once */
static void update_typesafe(struct stress_task *t, struct slub_rcu1 *x, unsigned long slot,
			    unsigned long gen)
{
	struct rcu1_obj *n, *old;

	n = kmem_cache_alloc(x->ts, GFP_KERNEL);
	if (unlikely(!n))
		return;
	/* a reader may still read this memory as the object it was: the
	 * fields are written and read as atomics, as the kernel's are with
	 * WRITE_ONCE/READ_ONCE under SLAB_TYPESAFE_BY_RCU */
	__atomic_store_n(&n->gen, gen, __ATOMIC_RELAXED);
	__atomic_store_n(&n->key, slot, __ATOMIC_RELEASE);
	old = __atomic_exchange_n(&x->ttable[slot], n, __ATOMIC_ACQ_REL);
	if (old) {
		__atomic_store_n(&old->key, ~0UL, __ATOMIC_RELAXED);	/* no longer slot's */
		slub_stress_free(&x->ss, t, x->ts, old);
	}
}

static void lookup_typesafe(struct stress_task *t, struct slub_rcu1 *x, unsigned long slot)
{
	struct slub_lat *l = &x->ss.lat[t->nr];
	struct rcu1_obj *o;

	rcu_read_lock();
	o = rcu_dereference(x->ttable[slot]);
	if (o) {
		unsigned long key = __atomic_load_n(&o->key, __ATOMIC_ACQUIRE);
		struct slab *slab = virt_to_slab(o);

		/* the memory is still an object of the cache, whatever it now is */
		if (!slab || __data_race(slab->slab_cache) != x->ts) {
			rcu_read_unlock();
			sched_violation("I-RCU-TYPESAFE", "slub_rcu1", "slot %lu: object %p's page "
					"is no slab of %s under a reader", slot, (void *)o,
					x->ts->name);
		}
		l->ts_lookups++;
		if (key != slot)
			l->ts_stale++;	/* freed and reused meanwhile: the lookup's miss */
	}
	rcu_read_unlock();
}

static void slub_rcu1_testcase(struct stress_task *t)
{
	struct slub_rcu1 *x = t->run->priv;
	unsigned long gen = 0;

	slub_stress_task_start(t);
	while (stress_continue(t)) {
		uint64_t v = rng_next(&t->rng);
		unsigned long slot = (unsigned long)(v >> 8) % RCU1_SLOTS;

		if ((v & 15) == 0)
			update(t, x, slot, ++gen);
		else if ((v & 15) == 1)
			update_typesafe(t, x, slot % RCU1_TSLOTS, ++gen);
		else if (v & 16)
			lookup_typesafe(t, x, slot % RCU1_TSLOTS);
		else
			lookup(x, slot);
		stress_count(t, 1);
	}
}

static unsigned long rcu1_live(struct slub_rcu1 *x)
{
	unsigned long i, n = 0;

	for (i = 0; i < RCU1_SLOTS; i++)
		n += (__atomic_load_n(&x->table[i], __ATOMIC_ACQUIRE) != NULL) +
		     (i < RCU1_TSLOTS && __atomic_load_n(&x->ttable[i], __ATOMIC_ACQUIRE) != NULL);
	return n;
}

/* kfree_rcu's queue drained (slub_stress_quiesce): the table's objects
 * are the only ones owned */
static void slub_rcu1_quiesce(struct stress_run *r)
{
	slub_stress_quiesce(r, rcu1_live(r->priv));
}

static void slub_rcu1_cleanup(struct stress_run *r)
{
	struct slub_rcu1 *x = r->priv;
	unsigned long i;

	/* what kfree_rcu still holds goes first, then the table (no readers) */
	rcu_register_thread();
	kfree_rcu_drain();
	rcu_barrier();
	rcu_unregister_thread();
	for (i = 0; i < RCU1_SLOTS; i++) {
		if (x->table[i])
			kmem_cache_free(x->s, x->table[i]);
		if (i < RCU1_TSLOTS && x->ttable[i])
			kmem_cache_free(x->ts, x->ttable[i]);
		x->table[i] = NULL;
		if (i < RCU1_TSLOTS)
			x->ttable[i] = NULL;
	}
	slub_stress_cleanup(r);
	rcu1_cur = NULL;
	free(x);
	r->priv = NULL;
}

static const struct stress_workload stress_slub_rcu1 = {
	.name = "slub_rcu1",
	.wl_opts = STRESS_WL_SLUB,
	.description = "SLUB objects replaced and freed by kfree_rcu, and typesafe-by-RCU ones "
		       "freed at once, under RCU lookups (liburcu)",
	.prepare = slub_rcu1_prepare,
	.testcase = slub_rcu1_testcase,
	.cleanup = slub_rcu1_cleanup,
	.quiesce = slub_rcu1_quiesce,
	.print_config = slub_stress_print_config,
	SLUB_STRESS_STAT_HOOKS,
};
STRESS_WORKLOAD(stress_slub_rcu1);

// SPDX-License-Identifier: MIT
/*
 * The SLUB layer's operations (binary codes 0x60-0x7f, fixed forever), its
 * handle kinds (sN: a slab object; bN: the objects of one bulk allocation),
 * its per-run state, its owner sources and the `slub` fuzz target.
 *
 * Caches: `cache=N` names the run's N-th cache (mod their number): the
 * header's caches (ops_slub_header.c) first, then the kmalloc classes
 * kmalloc-8 .. kmalloc-256; a cache kmem_cache_destroy took (or leaked)
 * is skipped for the next one.  Objects: any task may use any live object
 * handle (a free from another CPU is __slab_free's path); a handle of the
 * wrong kind, one never made or one already freed folds onto the live
 * object handle after it (wrapping), and the operation does nothing when
 * there is none (docs/layer-slub.md, "Handles").
 *
 * Each object's last word holds its identity (the handle's number, mixed):
 * rcu_lookup reads it back under rcu_read_lock from the object's published
 * slot, which every free clears before it frees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "handle.h"
#include "ops_slub.h"
#include "ops_slub_run.h"

#include "../check/check.h"
#include "../check/slab_check.h"
#include "../kernel/kfree_rcu.h"
#include "../kernel/rcupdate.h"

static struct op_layer slub_ops;
static struct slub_run *krc_run;	/* the running program's, for kfree_rcu's frees */

struct slub_run *slub_run_current(void)
{
	return __atomic_load_n(&krc_run, __ATOMIC_RELAXED);
}

static struct slub_run *run_state(struct op_ctx *c)
{
	return op_layer_state(c, &slub_ops);
}

static unsigned long *obj_ident(struct kmem_cache *s, void *p)
{
	return (unsigned long *)((char *)p + s->object_size - sizeof(unsigned long));
}

/* ---- caches ---- */

/* The cache cache=@n names (skipping the gone ones), -1 when none is left;
 * the operation using it counts in inflight until cache_put. */
static int cache_get(struct op_ctx *c, int n)
{
	struct slub_world *sw = slub_world();
	struct slub_run *r = run_state(c);
	int k, i;

	if (!sw->n)
		return -1;
	for (k = 0; k < sw->n; k++) {
		i = (n + k) % sw->n;
		if (slub_world_cache(sw, i) && !LD(r->gone[i])) {
			ADD(r->inflight[i], 1);
			return i;
		}
	}
	return -1;
}

static void cache_put(struct op_ctx *c, int ci)
{
	CACHE_RELEASE(run_state(c), ci);
	ADD(run_state(c)->inflight[ci], -1);
}

static int cache_index(struct kmem_cache *s)
{
	struct slub_world *sw = slub_world();
	int i;

	for (i = 0; i < sw->n; i++)
		if (slub_world_cache(sw, i) == s)
			return i;
	return -1;
}

static gfp_t op_gfp(struct op_ctx *c)
{
	return c->t->irq_ctx ? GFP_ATOMIC : GFP_KERNEL;
}

/* ---- handles ---- */

static const struct handle_kind hk_sobj, hk_sbulk;

static void obj_record(struct op_ctx *c, int h, void *p, int ci)
{
	struct slub_run *r = run_state(c);
	struct kmem_cache *s = slub_world_cache(slub_world(), ci);
	struct obj_rec *o = &r->obj[h];

	ST(*obj_ident(s, p), SLUB_ID_MAGIC ^ (unsigned long)h);
	ST(o->ptr, p);
	ST(o->ci, ci);
	ST(o->state, (unsigned char)SREC_LIVE);
	ADD(r->live[ci], 1);
	handle_set(h, op_handle_name(c), &hk_sobj, p, (unsigned long)ci);
	/* published: WRITE_ONCE's yield point, rcu_assign_pointer's release
	 * (what the allocation wrote, the page's last owner's writes
	 * included, happens before a reader's look at the object) */
	__racy_point(YP_RACY_WRITE, "o->pub");
	rcu_assign_pointer(o->pub, p);
}

/* The live object handle argument @k names, or the first live one after it
 * (wrapping); -1 when the run holds none. */
static int obj_arg(struct op_ctx *c, int k)
{
	int h = op_handle_arg(c, k), best = -1, first = -1, i, n, x;

	if (h >= 0 && handle_get(h, &hk_sobj, NULL))
		return h;
	n = handle_live_count();
	for (i = 0; i < n; i++) {
		x = handle_live_at(i);
		if (!handle_peek(x, &hk_sobj, NULL))
			continue;
		if (x > h && (best < 0 || x < best))
			best = x;
		if (first < 0 || x < first)
			first = x;
	}
	if (best < 0)
		best = first;
	if (best >= 0)
		handle_get(best, &hk_sobj, NULL);	/* the hand-off (TSan) */
	return best;
}

/* The object of handle @h leaves the program: unpublished, not live.
 * No yield point between the handle's lookup and this (another task could
 * free it twice). */
static struct obj_rec *obj_take(struct op_ctx *c, int h, unsigned char state)
{
	struct obj_rec *o = &run_state(c)->obj[h];

	handle_drop(h);
	ST(o->state, state);
	__WRITE_ONCE(o->pub, NULL);
	return o;
}

static void obj_gone(struct slub_run *r, int ci)
{
	CACHE_RELEASE(r, ci);
	ADD(r->live[ci], -1);
}

static void sobj_release(struct op_ctx *c, int h)
{
	struct obj_rec *o;

	if (!handle_get(h, &hk_sobj, NULL))
		return;
	o = obj_take(c, h, SREC_FREED);
	kfree(o->ptr);
	obj_gone(run_state(c), o->ci);
}

static const struct handle_kind hk_sobj = {
	.name = "slab object", .prefix = "s", .release = sobj_release,
};

static void sbulk_free(struct op_ctx *c, struct bulk_rec *b)
{
	struct slub_run *r = run_state(c);
	int ci = LD(b->ci), n = LD(b->n), i;
	struct kmem_cache *s = slub_world_cache(slub_world(), ci);
	void *p[SLUB_BULK_MAX];

	/* the caller's array is the task's own, as a kernel caller's is (the
	 * record is the harness's, shared by the tasks: atomics); the record
	 * is free again only once its objects are back (a bulk allocation
	 * meanwhile takes another) */
	for (i = 0; i < n; i++)
		p[i] = LD(b->p[i]);
	kmem_cache_free_bulk(s, (size_t)n, p);
	CACHE_RELEASE(r, ci);
	ADD(r->live[ci], -n);
	ST(b->used, false);
}

static void sbulk_release(struct op_ctx *c, int h)
{
	struct bulk_rec *b = handle_get(h, &hk_sbulk, NULL);

	if (!b)
		return;
	handle_drop(h);
	sbulk_free(c, b);
}

static const struct handle_kind hk_sbulk = {
	.name = "slab objects", .prefix = "b", .release = sbulk_release,
};

/* ---- kfree_rcu's frees (kvfree_rcu_ops): the object's record, then kfree ---- */

/* The record says freed before the object is (rcu_lookup then leaves it),
 * and the object stops counting as out only after (a kmem_cache_destroy
 * meanwhile sees it and leaks the cache). */
static void slub_krc_kfree(void *p)
{
	struct slub_run *r = __atomic_load_n(&krc_run, __ATOMIC_RELAXED);
	struct slab *slab = virt_to_slab(p);
	int ci = -1;	/* the record's handle */

	if (r && slab) {
		struct kmem_cache *s = slab->slab_cache;
		unsigned long h = LD(*obj_ident(s, p)) ^ SLUB_ID_MAGIC;

		if (h < PROG_MAX_HANDLES && LD(r->obj[h].ptr) == p &&
		    LD(r->obj[h].state) == SREC_RCU) {
			ST(r->obj[h].state, (unsigned char)SREC_FREEING);
			ci = (int)h;
		}
	}
	kfree(p);
	if (ci >= 0) {
		ST(r->obj[ci].state, (unsigned char)SREC_FREED);
		obj_gone(r, LD(r->obj[ci].ci));
	}
}

static void slub_krc_kfree_bulk(size_t n, void **p)
{
	size_t i;

	for (i = 0; i < n; i++)
		slub_krc_kfree(p[i]);
}

static const struct kvfree_rcu_ops slub_krc_ops = {
	.kfree = slub_krc_kfree, .kfree_bulk = slub_krc_kfree_bulk,
};

/* ---- the run ---- */

/* Before any task: the header's caches and the kmalloc classes (none for
 * a program with neither a cache line nor an operation of this layer: a
 * run pays for no cache it cannot touch). */
static void slub_run_begin(struct op_ctx *c)
{
	const struct slub_hdr *h = slub_hdr_of(op_prog(c));
	struct slub_cache_spec spec[SLUB_HDR_CACHES];
	int i;

	if (!h->n && !prog_has_op_layer(op_prog(c), &slub_ops))
		return;
	for (i = 0; i < h->n; i++) {
		spec[i].size = h->c[i].size;
		spec[i].order = h->c[i].order;
		spec[i].flags = (h->c[i].flags & SLUB_HC_DEBUG ? slub_debug_flags() : 0) |
				(h->c[i].flags & SLUB_HC_TYPESAFE ? SLAB_TYPESAFE_BY_RCU : 0);
	}
	slub_world_boot_caches(c->w, spec, h->n);
	__atomic_store_n(&krc_run, run_state(c), __ATOMIC_RELAXED);
	kvfree_rcu_set_ops(&slub_krc_ops);
}

/*
 * The last task to end waits for what kfree_rcu still holds
 * (kfree_rcu_drain: the kfree_rcu kthread frees it after its grace
 * period), so every deferred free happens inside the run, where I-RCU
 * sees it: once the tasks are done the kthreads stop, and the scheduler's
 * next run (the end's) starts kfree_rcu afresh.
 */
static void slub_task_exit(struct op_ctx *c)
{
	struct slub_run *r;
	struct kfree_rcu_stats st;

	/* no cache made (slub_run_begin): nothing of the layer's was queued
	 * on kfree_rcu, and a run that leaves its records alone is not made
	 * to zero them (7.6 KB) */
	if (!slub_hdr_of(op_prog(c))->n && !prog_has_op_layer(op_prog(c), &slub_ops))
		return;
	r = run_state(c);
	if (ADD(r->exited, 1) + 1 < op_prog(c)->ntasks)
		return;
	kfree_rcu_stats(&st);
	if (st.pending)
		kfree_rcu_drain();
}

static struct op_layer slub_ops = {
	.name = "slub",
	.state_size = sizeof(struct slub_run),
	.run_begin = slub_run_begin,
	.task_exit = slub_task_exit,
	.kthreads = true,	/* kfree_rcu, rcu_gp */
};
OP_LAYER(slub_ops);

/* ---- operations ---- */

#define CACHE_ARG { .name = "cache", .kind = ARG_INT, .lo = 0, .hi = SLUB_WORLD_CACHES - 1, \
		    .has_def = true, .def = 0 }

static void do_kmem_cache_alloc(struct op_ctx *c)
{
	int ci = cache_get(c, c->op->arg[0]);
	void *p;

	if (ci < 0)
		return;
	p = kmem_cache_alloc(slub_world_cache(slub_world(), ci), op_gfp(c));
	if (p)
		obj_record(c, op_handle_self(c), p, ci);
	cache_put(c, ci);
}

static struct op_desc op_kmem_cache_alloc = {
	OP_NAME("kmem_cache_alloc"), .code = 0x60, .layer = "slub", .irq_ok = true,
	.desc = "an object of a cache (GFP_ATOMIC in an interrupt): the lockless fast path on "
		"this CPU's freelist, else ___slab_alloc; the result is an object",
	.defines = &hk_sobj,
	.nargs = 1,
	.args = { CACHE_ARG },
	.exec = do_kmem_cache_alloc,
};
OP_DESC(op_kmem_cache_alloc);

static void do_kmem_cache_free(struct op_ctx *c)
{
	int h = obj_arg(c, 0);
	struct obj_rec *o;

	if (h < 0)
		return;
	o = obj_take(c, h, SREC_FREED);
	kmem_cache_free(slub_world_cache(slub_world(), o->ci), o->ptr);
	obj_gone(run_state(c), o->ci);
}

static struct op_desc op_kmem_cache_free = {
	OP_NAME("kmem_cache_free"), .code = 0x61, .layer = "slub", .irq_ok = true,
	.desc = "an object back to its cache from any task: the fast path when its slab is "
		"this CPU's, else __slab_free (a frozen slab, the CPU partial list, the node)",
	.nargs = 1,
	.args = { { .name = "s", .kind = ARG_HANDLE, .hk = &hk_sobj, .frees = true } },
	.exec = do_kmem_cache_free,
};
OP_DESC(op_kmem_cache_free);

static void do_kmalloc(struct op_ctx *c)
{
	struct kmem_cache *s = kmalloc_slab((size_t)c->op->arg[0]);
	int ci = s ? cache_index(s) : -1;
	struct slub_run *r = run_state(c);
	void *p;

	if (ci < 0 || LD(r->gone[ci]))
		return;
	ADD(r->inflight[ci], 1);
	p = kmalloc((size_t)c->op->arg[0], op_gfp(c));
	if (p)
		obj_record(c, op_handle_self(c), p, ci);
	cache_put(c, ci);
}

static struct op_desc op_kmalloc = {
	OP_NAME("kmalloc"), .code = 0x62, .layer = "slub", .irq_ok = true,
	.desc = "kmalloc of a size (1..256): the kmalloc class's cache (kmalloc_slab); the "
		"result is an object",
	.defines = &hk_sobj,
	.nargs = 1,
	.args = { { .name = "size", .kind = ARG_INT, .lo = 1, .hi = KMALLOC_MAX_CACHE_SIZE,
		    .bin_bytes = 2 } },
	.exec = do_kmalloc,
};
OP_DESC(op_kmalloc);

static void do_kfree(struct op_ctx *c)
{
	int h = obj_arg(c, 0);
	struct obj_rec *o;

	if (h < 0)
		return;
	o = obj_take(c, h, SREC_FREED);
	kfree(o->ptr);
	obj_gone(run_state(c), o->ci);
}

static struct op_desc op_kfree = {
	OP_NAME("kfree"), .code = 0x63, .layer = "slub", .irq_ok = true,
	.desc = "kfree of an object: its cache found from its slab (virt_to_slab), then "
		"kmem_cache_free's paths",
	.nargs = 1,
	.args = { { .name = "s", .kind = ARG_HANDLE, .hk = &hk_sobj, .frees = true } },
	.exec = do_kfree,
};
OP_DESC(op_kfree);

static void do_alloc_bulk(struct op_ctx *c)
{
	struct slub_run *r = run_state(c);
	struct bulk_rec *b = NULL;
	void *p[SLUB_BULK_MAX];
	int ci, i, n;

	for (i = 0; i < SLUB_BULK_RECS && !b; i++)
		if (!LD(r->bulk[i].used))
			b = &r->bulk[i];
	if (!b || (ci = cache_get(c, c->op->arg[0])) < 0)
		return;
	ST(b->used, true);
	n = kmem_cache_alloc_bulk(slub_world_cache(slub_world(), ci), op_gfp(c), (size_t)c->op->arg[1], p);
	for (i = 0; i < n; i++)
		ST(b->p[i], p[i]);	/* the task's array into the shared record */
	if (n > 0) {
		ST(b->n, n);
		ST(b->ci, ci);
		ADD(r->live[ci], n);
		handle_set(op_handle_self(c), op_handle_name(c), &hk_sbulk, b, (unsigned long)ci);
	} else {
		ST(b->used, false);
	}
	cache_put(c, ci);
}

static struct op_desc op_alloc_bulk = {
	OP_NAME("kmem_cache_alloc_bulk"), .code = 0x64, .layer = "slub",
	.desc = "nr objects of a cache at once (all or none; interrupts must be enabled, as "
		"6.6 says); the result is a bulk handle",
	.defines = &hk_sbulk,
	.nargs = 2,
	.args = { CACHE_ARG,
		  { .name = "nr", .kind = ARG_INT, .lo = 1, .hi = SLUB_BULK_MAX } },
	.exec = do_alloc_bulk,
};
OP_DESC(op_alloc_bulk);

static void do_free_bulk(struct op_ctx *c)
{
	int h = op_handle_arg(c, 0);
	struct bulk_rec *b = h >= 0 ? handle_get(h, &hk_sbulk, NULL) : NULL;

	if (!b)
		return;
	handle_drop(h);
	sbulk_free(c, b);
}

static struct op_desc op_free_bulk = {
	OP_NAME("kmem_cache_free_bulk"), .code = 0x65, .layer = "slub", .irq_ok = true,
	.desc = "the objects of a bulk handle back at once (a handle not live: nothing)",
	.nargs = 1,
	.args = { { .name = "b", .kind = ARG_HANDLE, .hk = &hk_sbulk, .frees = true } },
	.exec = do_free_bulk,
};
OP_DESC(op_free_bulk);

static void do_kfree_rcu(struct op_ctx *c)
{
	int h = obj_arg(c, 0);
	struct kmem_cache *s;
	struct obj_rec *o;
	bool head;

	if (h < 0)
		return;
	o = &run_state(c)->obj[h];
	s = slub_world_cache(slub_world(), o->ci);
	/* kfree_rcu(ptr, rhf) needs an rcu_head in the object (before its
	 * identity); a smaller one takes the single-argument kvfree_rcu(),
	 * which may sleep: from an interrupt nothing is done */
	head = s->object_size >= sizeof(struct rcu_head) + sizeof(unsigned long);
	if (!head && c->t->irq_ctx)
		return;
	o = obj_take(c, h, SREC_RCU);
	kvfree_call_rcu(head ? (struct rcu_head *)o->ptr : NULL, o->ptr);
}

static struct op_desc op_kfree_rcu = {
	OP_NAME("kfree_rcu"), .code = 0x66, .layer = "slub", .irq_ok = true,
	.desc = "an object freed after a grace period (kvfree_call_rcu: this CPU's bulk "
		"block or the head list; objects smaller than an rcu_head take kvfree_rcu)",
	.nargs = 1,
	.args = { { .name = "s", .kind = ARG_HANDLE, .hk = &hk_sobj, .frees = true } },
	.exec = do_kfree_rcu,
};
OP_DESC(op_kfree_rcu);

/*
 * rcu_lookup: a reader finds the object through its published slot and
 * checks its identity, as a lookup in an RCU-protected structure does.
 * The slot is cleared before every free, so a reader that finds it
 * started before the free: an object given to kfree_rcu stays readable
 * until the reader leaves its section (I-RCU holds kfree_rcu to that); one
 * freed at once is revalidated by its record (the program's knowledge, no
 * yield point between) and not read.  Typesafe-by-RCU reuse is the debug
 * layer's.  The handle is any object handle of the run, live or given to
 * kfree_rcu; one never made folds onto a live one.
 */
static void do_rcu_lookup(struct op_ctx *c)
{
	struct slub_run *r = run_state(c);
	int h = op_handle_arg(c, 0);
	struct obj_rec *o;
	void *p;

	if (h < 0 || LD(r->obj[h].state) == SREC_NONE)
		h = obj_arg(c, 0);
	if (h < 0)
		return;
	o = &r->obj[h];
	ADD(r->lookups, 1);
	rcu_read_lock();
	__racy_point(YP_RACY_READ, "o->pub");	/* READ_ONCE's yield point */
	p = rcu_dereference(o->pub);
	if (p) {
		yield_point(YIELD_SITE(YP_POINT, "rcu_lookup"));
		unsigned char st = LD(o->state);

		if (st == SREC_LIVE || st == SREC_RCU) {
			struct kmem_cache *s = slub_world_cache(slub_world(), LD(o->ci));

			if (s && LD(*obj_ident(s, p)) == (SLUB_ID_MAGIC ^ (unsigned long)h))
				ADD(r->lookup_hits, 1);
		}
	}
	rcu_read_unlock();
}

static struct op_desc op_rcu_lookup = {
	OP_NAME("rcu_lookup"), .code = 0x67, .layer = "slub", .irq_ok = true,
	.desc = "an RCU reader: the object's published slot under rcu_read_lock, its "
		"identity checked (an object given to kfree_rcu stays readable meanwhile)",
	.nargs = 1,
	.args = { { .name = "s", .kind = ARG_HANDLE, .hk = &hk_sobj } },
	.exec = do_rcu_lookup,
};
OP_DESC(op_rcu_lookup);

static void do_slabinfo(struct op_ctx *c)
{
	int ci = cache_get(c, c->op->arg[0]);
	struct slabinfo si;

	if (ci < 0)
		return;
	memset(&si, 0, sizeof(si));
	get_slabinfo(slub_world_cache(slub_world(), ci), &si);
	cache_put(c, ci);
}

static struct op_desc op_slabinfo = {
	OP_NAME("slabinfo"), .code = 0x68, .layer = "slub",
	.desc = "what /proc/slabinfo reads of a cache (get_slabinfo: the node's slab counts "
		"and the free objects by slub_partial: count_partial under list_lock, or "
		"seed 004's counters)",
	.nargs = 1,
	.args = { CACHE_ARG },
	.exec = do_slabinfo,
};
OP_DESC(op_slabinfo);

/* flush_all takes cpu_hotplug_lock (cpus_read_lock, a sleeping lock): a
 * task holding a lock across operations (zone_pcp_disable's
 * pcp_batch_high_lock, which nests inside it) does nothing, as cpu_down
 * does then */
static bool flush_allowed(struct op_ctx *c)
{
	return c->t->nheld == 0;
}

/* the node's lists as the validator reads them (what the lock does not
 * order, the lockless cmpxchg's fields, hidden from TSan as a checker's) */
static __sched_notsan void slab_validate_node_locked(struct kmem_cache *s,
						     struct kmem_cache_node *n)
{
	tsan_ignore_begin();
	validate_slab_node(s, n);
	tsan_ignore_end();
}

/* 6.6's validate_slab_cache (slub.c:5153, the sysfs validate file):
 * flush_all, then each node's lists under list_lock */
static void slab_validate_sysfs(struct kmem_cache *s)
{
	struct kmem_cache_node *n = get_node(s, 0);
	unsigned long flags;

	flush_all(s);
	spin_lock_irqsave(&n->list_lock, flags);
	slab_validate_node_locked(s, n);
	spin_unlock_irqrestore(&n->list_lock, flags);
}

static void do_slab_validate(struct op_ctx *c)
{
	int ci;

	if (!flush_allowed(c) || (ci = cache_get(c, c->op->arg[0])) < 0)
		return;
	slab_validate_sysfs(slub_world_cache(slub_world(), ci));
	cache_put(c, ci);
}

static struct op_desc op_slab_validate = {
	OP_NAME("slab_validate"), .code = 0x69, .layer = "slub",
	.desc = "the sysfs validate file: flush_all, then the node's partial list checked "
		"under list_lock (I-SL)",
	.nargs = 1,
	.args = { CACHE_ARG },
	.exec = do_slab_validate,
};
OP_DESC(op_slab_validate);

static void do_kmem_cache_shrink(struct op_ctx *c)
{
	int ci;

	if (!flush_allowed(c) || (ci = cache_get(c, c->op->arg[0])) < 0)
		return;
	kmem_cache_shrink(slub_world_cache(slub_world(), ci));
	cache_put(c, ci);
}

static struct op_desc op_kmem_cache_shrink = {
	OP_NAME("kmem_cache_shrink"), .code = 0x6a, .layer = "slub",
	.desc = "flush_all (each CPU in turn) and the node's empty slabs freed",
	.nargs = 1,
	.args = { CACHE_ARG },
	.exec = do_kmem_cache_shrink,
};
OP_DESC(op_kmem_cache_shrink);

/*
 * kmem_cache_destroy (6.6 slab_common.c:490): with objects still out
 * (or another operation inside the cache), shutdown_cache fails: 6.6
 * flushes, frees the empty partial slabs, WARNs "Slab cache still has
 * objects" and leaks the cache, which stays usable for what is out; the
 * model does the same and takes the cache out of cache=N's choice.  With
 * none, the cache is destroyed and its struct freed.
 */
static void do_kmem_cache_destroy(struct op_ctx *c)
{
	struct slub_run *r = run_state(c);
	int ci;
	struct kmem_cache *s;

	if (!flush_allowed(c) || (ci = cache_get(c, c->op->arg[0])) < 0)
		return;
	s = slub_world_cache(slub_world(), ci);
	ST(r->gone[ci], true);
	if (LD(r->live[ci]) || LD(r->inflight[ci]) > 1) {
		ADD(r->destroy_leaked, 1);
		kmem_cache_shrink(s);
		cache_put(c, ci);
		return;
	}
	cache_put(c, ci);
	CACHE_ACQUIRE(r, ci);
	/* gone[ci] keeps the other tasks off it meanwhile; the world forgets
	 * it once destroyed (a destroy that reports leaves it to the reset) */
	kmem_cache_destroy(s);
	slub_world_cache_gone(c->w, s);
}

static struct op_desc op_kmem_cache_destroy = {
	OP_NAME("kmem_cache_destroy"), .code = 0x6b, .layer = "slub",
	.desc = "destroy a cache: with objects out, 6.6's warning and a leaked cache (it "
		"stays for what is out); else its slabs freed",
	.nargs = 1,
	.args = { CACHE_ARG },
	.exec = do_kmem_cache_destroy,
};
OP_DESC(op_kmem_cache_destroy);

/* ---- the fuzz target ---- */

/* codes outside the target fold onto these: allocations and frees most,
 * then the RCU pair, then the whole-cache operations, a task's migration
 * (the fast path's CPU changing under it), CPU hotplug (slub_cpu_dead) and
 * an RCU reader of the kernel layer */
static const char *const slub_layers[] = { "pagealloc", "kernel", "slub", NULL };
static const unsigned char slub_fold[] = {
	0x60, 0x60, 0x60, 0x61, 0x61, 0x61, 0x62, 0x62, 0x63, 0x63, 0x64, 0x65,
	0x66, 0x66, 0x67, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x07, 0x07, 0x20, 0x21,
	0x22,
};
static const struct fuzz_target slub_target = {
	.name = "slub", .desc = "SLUB caches: allocations and frees from any CPU and from "
		"interrupts, bulk, kfree_rcu with RCU readers, slabinfo, validate, shrink, destroy",
	.layers = slub_layers, .fold = slub_fold, .nfold = (int)sizeof(slub_fold),
};
FUZZ_TARGET(slub_target);

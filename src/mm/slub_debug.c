// SPDX-License-Identifier: MIT
/*
 * SLUB's debug caches and the locked (freelist, counters) update (Linux 6.6
 * mm/slub.c, CONFIG_SLUB_DEBUG): the paths slub.c leaves to caches that
 * kmem_cache_debug() names.
 *
 * - slab_update_freelist: one 16-byte cmpxchg for caches with
 *   __CMPXCHG_DOUBLE (__update_freelist_fast); for the others (SLAB_NO_CMPXCHG
 *   debug caches, or every cache when !system_has_freelist_aba)
 *   __update_freelist_slow under slab_lock, the bit spinlock on the slab's
 *   PG_locked, with IRQs off (6.6.0 slub.c:544-625).
 * - Debug caches keep no CPU slab: ___slab_alloc takes one object at a time
 *   under list_lock (alloc_single_from_partial, alloc_single_from_new_slab,
 *   slub.c:2153-2208) and __slab_free hands the object to
 *   free_to_partial_list (3531-3590), also under list_lock; a full slab
 *   goes to the node's full list when SLAB_STORE_USER (add_full).
 * - nr_slabs and total_objects (inc_slabs_node/dec_slabs_node, 1381-1402):
 *   atomics, for every cache, changed outside list_lock on the normal paths
 *   (after new_slab, in discard_slab) and under it on the debug ones.
 * - free_slab: a SLAB_TYPESAFE_BY_RCU cache's slab page goes back to the
 *   page allocator from rcu_free_slab, after a grace period (call_rcu on the
 *   rcu_head in struct slab's union, 2097-2110); its objects were reused
 *   at once, only the page waits.
 * - validate_slab_cache as the sysfs validate file runs it (5290-5335):
 *   flush_all, then each node's partial (and with SLAB_STORE_USER full)
 *   list walked under list_lock; each slab's freelist counted against
 *   objects - inuse (on_freelist), the list against nr_partial, partial
 *   and full against nr_slabs.  6.6 prints and fixes up; the model reports
 *   I-SL-VALIDATE.
 *
 * Lock order as slub.c's: n->list_lock, then slab_lock.
 */
#include <errno.h>
#include <stdio.h>

#include "../bugs/bugs.h"
#include "../kernel/bit_spinlock.h"
#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "../sched/san.h"
#include "../world/config.h"
#include "internal.h"
#include "slab.h"

/* ---- system_has_freelist_aba (kmem_cache_open's test) ---- */

bool system_has_freelist_aba = true;

static const char *const freelist_update_names[] = { "cmpxchg_double", "slab_lock" };

/* x86-64 has it with CX16 (system_has_cmpxchg128), arm64 with LSE or
 * LL/SC pairs; without it (an early x86-64, a 32-bit arch without the
 * 64-bit cmpxchg) every cache runs on slab_lock */
struct config_key ck_freelist_update = {
	.name = "freelist_update", .layer = "slub",
	.desc = "system_has_freelist_aba() (6.6 kmem_cache_open): cmpxchg_double, a cache "
		"without SLAB_NO_CMPXCHG updates (freelist, counters) with one double-word "
		"cmpxchg; slab_lock, a machine without it: every cache updates them under "
		"slab_lock (__update_freelist_slow)",
	.lo = 0, .hi = 1, .def = 0, .names = freelist_update_names,
	.bin_off = 57, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_freelist_update);

/* the running world's key (a tune key: read when a cache is created), and
 * a unit test's switch beside it */
bool slub_system_has_freelist_aba(void)
{
	if (!system_has_freelist_aba)
		return false;
	return !mm_world || config_get(&mm_world->config, &ck_freelist_update) == 0;
}

/* ---- slub_debug= (the debug caches' flags) ---- */

static const char *const slub_debug_names[] = { "consistency_checks", "store_user" };

/*
 * 6.6's slub_debug= boot parameter for the caches a program marks debug
 * (setup_slub_debug, "slub_debug=F" or "=FU"): consistency_checks alone,
 * whose full slabs are on no list, or with SLAB_STORE_USER too, which keeps
 * them on n->full (add_full/remove_full) for validate_slab_node to walk.
 * Read when a program's caches are made (a tune key).
 */
struct config_key ck_slub_debug = {
	.name = "slub_debug", .layer = "slub",
	.desc = "the flags of a cache the caches line marks debug (6.6's slub_debug=): "
		"consistency_checks (F: SLAB_CONSISTENCY_CHECKS, full slabs on no list), "
		"store_user (FU: and SLAB_STORE_USER, full slabs on n->full)",
	.lo = 0, .hi = 1, .def = 0, .names = slub_debug_names,
	.bin_off = 58, .bin_len = 1, .tune = true,
};
CONFIG_KEY(ck_slub_debug);

unsigned long slub_debug_flags(void)
{
	bool u = mm_world && config_get(&mm_world->config, &ck_slub_debug) == 1;

	return SLAB_CONSISTENCY_CHECKS | (u ? SLAB_STORE_USER : 0);
}

/* ---- slab_lock and the (freelist, counters) update ---- */

/* slab_lock: PG_locked of the slab's head page (never a tail: 6.6's
 * VM_BUG_ON_PAGE(PageTail)) */
static void slab_lock(struct slab *slab)
{
	bit_spin_lock_named(PG_locked, &slab->__page_flags, "slab_lock");
}

static void slab_unlock(struct slab *slab)
{
	bit_spin_unlock_named(PG_locked, &slab->__page_flags, "slab_lock");
}

static bool __update_freelist_fast(struct slab *slab, void *freelist_old,
				   unsigned long counters_old, void *freelist_new,
				   unsigned long counters_new)
{
	return cmpxchg_double(&slab->freelist, &slab->counters, freelist_old, counters_old,
			      freelist_new, counters_new);
}

/* both words compared and written under slab_lock: every writer of a
 * no-cmpxchg cache's (freelist, counters) takes it, or list_lock on the
 * debug paths (where no CPU holds the slab) */
static bool __update_freelist_slow(struct slab *slab, void *freelist_old,
				   unsigned long counters_old, void *freelist_new,
				   unsigned long counters_new)
{
	bool ret = false;

	slab_lock(slab);
	if (__READ_ONCE(slab->freelist) == freelist_old &&
	    __READ_ONCE(slab->counters) == counters_old) {
		/* the window between the compare and the writes, which
		 * slab_lock closes to another CPU (IRQs are off here) */
		sched_point("__update_freelist_slow");
		__WRITE_ONCE(slab->freelist, freelist_new);
		__WRITE_ONCE(slab->counters, counters_new);
		ret = true;
	}
	slab_unlock(slab);
	return ret;
}

/* IRQs must be off (an _irqsave lock held): the slow variant's slab_lock
 * would deadlock against an interrupt's free to the same slab */
bool __slab_update_freelist(struct kmem_cache *s, struct slab *slab, void *freelist_old,
			    unsigned long counters_old, void *freelist_new,
			    unsigned long counters_new, const char *n)
{
	bool ret;

	(void)n;
	lockdep_assert_irqs_disabled();
	if (s->flags & __CMPXCHG_DOUBLE)
		ret = __update_freelist_fast(slab, freelist_old, counters_old, freelist_new,
					     counters_new);
	else
		ret = __update_freelist_slow(slab, freelist_old, counters_old, freelist_new,
					     counters_new);
	if (likely(ret))
		return true;
	stat(s, CMPXCHG_DOUBLE_FAIL);
	return false;
}

bool slab_update_freelist(struct kmem_cache *s, struct slab *slab, void *freelist_old,
			  unsigned long counters_old, void *freelist_new,
			  unsigned long counters_new, const char *n)
{
	bool ret;

	(void)n;
	if (s->flags & __CMPXCHG_DOUBLE) {
		ret = __update_freelist_fast(slab, freelist_old, counters_old, freelist_new,
					     counters_new);
	} else {
		unsigned long flags;

		local_irq_save(flags);
		ret = __update_freelist_slow(slab, freelist_old, counters_old, freelist_new,
					     counters_new);
		local_irq_restore(flags);
	}
	if (likely(ret))
		return true;
	stat(s, CMPXCHG_DOUBLE_FAIL);
	return false;
}

/* ---- the node's full list (nr_slabs: inc_slabs_node in slab.h) ---- */

/* full slabs are listed only for SLAB_STORE_USER (the tracking walk) */
static void add_full(struct kmem_cache *s, struct kmem_cache_node *n, struct slab *slab)
{
	if (!(s->flags & SLAB_STORE_USER))
		return;
	lockdep_assert_held(&n->list_lock);
	list_add(&slab->slab_list, &n->full);
}

static void remove_full(struct kmem_cache *s, struct kmem_cache_node *n, struct slab *slab)
{
	if (!(s->flags & SLAB_STORE_USER))
		return;
	lockdep_assert_held(&n->list_lock);
	list_del(&slab->slab_list);
}

/* ---- the debug checks (check_valid_pointer, on_freelist's count) ---- */

static bool check_valid_pointer(struct kmem_cache *s, struct slab *slab, void *object)
{
	char *base = slab_address(slab);

	if (!object)
		return true;
	if ((char *)object < base || (char *)object >= base + slab->objects * s->size ||
	    ((char *)object - base) % s->size)
		return false;
	return true;
}

static bool alloc_debug_processing(struct kmem_cache *s, struct slab *slab, void *object)
{
	if (!check_valid_pointer(s, slab, object) || slab->inuse > slab->objects) {
		sched_violation("I-SL-DEBUG", "alloc_debug_processing",
				"%s: freelist pointer %p outside its slab (inuse %u of %u)",
				s->name, object, slab->inuse, slab->objects);
		return false;
	}
	return true;
}

static bool free_debug_processing(struct kmem_cache *s, struct slab *slab, void *head,
				  int cnt)
{
	if (slab->slab_cache != s || !check_valid_pointer(s, slab, head) ||
	    slab->inuse < (unsigned int)cnt) {
		sched_violation("I-SL-DEBUG", "free_debug_processing",
				"%s: %p is no object of this slab (inuse %u, %d freed)", s->name,
				head, slab->inuse, cnt);
		return false;
	}
	return true;
}

/* ---- debug caches: one object at a time under list_lock ---- */

/* get_partial_node's debug branch; list_lock held */
void *alloc_single_from_partial(struct kmem_cache *s, struct kmem_cache_node *n,
				struct slab *slab)
{
	void *object;

	lockdep_assert_held(&n->list_lock);
	object = __READ_ONCE(slab->freelist);
	__WRITE_ONCE(slab->freelist, get_freepointer(s, object));
	{
		struct slab c = { .counters = __READ_ONCE(slab->counters) };

		c.inuse++;
		__WRITE_ONCE(slab->counters, c.counters);
	}
	__update_partial_free(n, -1);	/* seed 004 */
	if (!alloc_debug_processing(s, slab, object)) {
		remove_partial(n, slab);
		__update_partial_free(n, -((long)slab->objects - (long)slab->inuse));
		return NULL;
	}
	if (slab->inuse == slab->objects) {
		remove_partial(n, slab);
		add_full(s, n, slab);
	}
	return object;
}

/* a new slab nobody sees yet: its first object, then onto the node */
void *alloc_single_from_new_slab(struct kmem_cache *s, struct slab *slab)
{
	struct kmem_cache_node *n = get_node(s, 0);
	unsigned long flags;
	void *object;

	object = __READ_ONCE(slab->freelist);
	__WRITE_ONCE(slab->freelist, get_freepointer(s, object));
	{
		struct slab c = { .counters = __READ_ONCE(slab->counters) };

		c.inuse = 1;
		c.frozen = 0;		/* allocate_slab makes it frozen for a CPU */
		__WRITE_ONCE(slab->counters, c.counters);
	}
	if (!alloc_debug_processing(s, slab, object))
		return NULL;
	spin_lock_irqsave(&n->list_lock, flags);
	if (slab->inuse == slab->objects)
		add_full(s, n, slab);
	else {
		add_partial(n, slab, DEACTIVATE_TO_HEAD);
		__update_partial_free(n, (long)slab->objects - (long)slab->inuse);	/* seed 004 */
	}
	inc_slabs_node(s, 0, slab->objects);
	spin_unlock_irqrestore(&n->list_lock, flags);
	return object;
}

/* __slab_free's debug branch: the free done under list_lock */
void free_to_partial_list(struct kmem_cache *s, struct slab *slab, void *head, void *tail,
			  int bulk_cnt)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab_free = NULL;
	unsigned long flags;

	spin_lock_irqsave(&n->list_lock, flags);
	if (free_debug_processing(s, slab, head, bulk_cnt)) {
		void *prior = __READ_ONCE(slab->freelist);

		struct slab c = { .counters = __READ_ONCE(slab->counters) };

		c.inuse -= bulk_cnt;
		__WRITE_ONCE(slab->counters, c.counters);
		set_freepointer(s, tail, prior);
		__WRITE_ONCE(slab->freelist, head);
		/* empty and the node has enough: discarded from either list */
		if (slab->inuse == 0 && n->nr_partial >= s->min_partial)
			slab_free = slab;
		if (!prior) {
			/* was full */
			remove_full(s, n, slab);
			if (!slab_free) {
				add_partial(n, slab, DEACTIVATE_TO_TAIL);
				__update_partial_free(n, bulk_cnt);	/* seed 004 */
			}
		} else if (slab_free) {
			remove_partial(n, slab);
			/* seed 004: its free objects, before this free's */
			__update_partial_free(n, -((long)slab->objects - bulk_cnt));
		} else {
			__update_partial_free(n, bulk_cnt);	/* seed 004 */
		}
	}
	/* counters changed under list_lock: no spurious validate warning */
	if (slab_free)
		dec_slabs_node(s, 0, slab_free->objects);
	spin_unlock_irqrestore(&n->list_lock, flags);
	if (slab_free) {
		stat(s, FREE_SLAB);
		free_slab(s, slab_free);
	}
}

/* ---- validate_slab_cache, as /sys/kernel/slab/<cache>/validate runs it ---- */

/* what validate_slab_node found, reported after list_lock is dropped (a
 * violation unwinds the task: it must not leave the lock held) */
struct validate_fail {
	const char *fn;
	char msg[160];
};

#define VFAIL(f, func, ...) do {						\
	if (!(f)->fn) {								\
		(f)->fn = (func);						\
		snprintf((f)->msg, sizeof((f)->msg), __VA_ARGS__);		\
	}									\
} while (0)

/* check_slab and on_freelist: the freelist inside the slab, as long as
 * objects - inuse says; list_lock held */
static void validate_slab(struct kmem_cache *s, struct slab *slab, struct validate_fail *f)
{
	unsigned int nr = 0;
	void *fp;

	if (slab->objects > oo_objects(s->oo) || slab->inuse > slab->objects) {
		VFAIL(f, "check_slab", "%s: inuse %u, objects %u (max %u)", s->name, slab->inuse,
		      slab->objects, oo_objects(s->oo));
		return;
	}
	for (fp = __READ_ONCE(slab->freelist); fp && nr <= slab->objects;
	     fp = get_freepointer(s, fp)) {
		if (!check_valid_pointer(s, slab, fp)) {
			VFAIL(f, "on_freelist", "%s: freelist pointer %p outside its slab",
			      s->name, fp);
			return;
		}
		nr++;
	}
	if (nr != slab->objects - slab->inuse)
		VFAIL(f, "on_freelist", "%s: wrong object count: %u on the freelist, inuse %u of %u",
		      s->name, nr, slab->inuse, slab->objects);
}

/* 6.6's validate_slab_node (the plain name is src/check/slab.c's checker) */
static unsigned long __validate_slab_node(struct kmem_cache *s, struct kmem_cache_node *n)
{
	struct validate_fail f = { NULL, "" };
	unsigned long count = 0, flags;
	struct slab *slab;

	spin_lock_irqsave(&n->list_lock, flags);
	list_for_each_entry(slab, &n->partial, slab_list) {
		validate_slab(s, slab, &f);
		count++;
	}
	if (count != n->nr_partial)
		VFAIL(&f, "validate_slab_node", "%s: %lu partial slabs counted but counter=%lu",
		      s->name, count, n->nr_partial);
	if (!(s->flags & SLAB_STORE_USER))
		goto out;
	list_for_each_entry(slab, &n->full, slab_list) {
		validate_slab(s, slab, &f);
		count++;
	}
	if ((long)count != atomic_long_read(&n->nr_slabs))
		VFAIL(&f, "validate_slab_node", "%s: %lu slabs counted but counter=%ld", s->name,
		      count, atomic_long_read(&n->nr_slabs));
out:
	spin_unlock_irqrestore(&n->list_lock, flags);
	if (f.fn)
		sched_violation("I-SL-VALIDATE", f.fn, "%s", f.msg);
	return count;
}

static long __validate_slab_cache(struct kmem_cache *s)
{
	flush_all(s);
	return (long)__validate_slab_node(s, get_node(s, 0));
}

long validate_store(struct kmem_cache *s, const char *buf)
{
	if (buf[0] == '1' && kmem_cache_debug(s))
		return __validate_slab_cache(s);
	return -EINVAL;
}

/* ---- SLAB_TYPESAFE_BY_RCU: free_slab through a grace period ---- */

static void rcu_free_slab(struct rcu_head *h)
{
	struct slab *slab = container_of(h, struct slab, rcu_head);
	struct kmem_cache *s = slab->slab_cache;

	slab_rcu_check_free(s, slab, __func__);
	__free_slab(s, slab);
}

/* a typesafe cache's objects may be read until a grace period has passed:
 * the page waits for it, its objects were reused at once */
void free_slab(struct kmem_cache *s, struct slab *slab)
{
	if (unlikely(s->flags & SLAB_TYPESAFE_BY_RCU)) {
		slab_rcu_queued(slab);
		if (!bug_on(BUG_TYPESAFE_FREE_NO_GP)) {
			call_rcu(&slab->rcu_head, rcu_free_slab);
			return;
		}
		slab_rcu_check_free(s, slab, __func__);
	}
	__free_slab(s, slab);
}

/* ---- SLAB_TYPESAFE_BY_RCU: the grace period's check (fiber mode) ----
 *
 * I-RCU-TYPESAFE: a typesafe cache's slab page goes back to the page
 * allocator only when every task that was in an RCU read-side section at
 * its discard_slab has left that section (snapshot semantics, as
 * kfree_rcu.c checks its frees): a reader may still be looking at an object
 * of it, whose memory must stay an object of this cache until then.  The
 * record of each pending slab is the model's, apart from struct slab (whose
 * union the rcu_head fills); it also tells I-CONS which slab pages wait
 * for their grace period (slab_rcu_pending).  Real mode keeps no record.
 */
#define SLAB_RCU_DBG	4096	/* slabs waiting at once: 16384 pages at order 2 */

static struct slab_rcu_dbg {
	struct slab *slab;
	uint64_t sec_mark;		/* rcu_sections_begun() at the queueing */
	uint64_t readers;		/* the tasks then in a section */
} rcu_dbg[SLAB_RCU_DBG];
static unsigned int rcu_dbg_n;

static void slab_rcu_run_hook(struct fsched *fs)
{
	(void)fs;
	rcu_dbg_n = 0;
}

__attribute__((constructor)) static void slab_rcu_init(void)
{
	fsched_register_run_hook(slab_rcu_run_hook);
}

__sched_notsan void slab_rcu_queued(struct slab *slab)
{
	struct task *t = current_task;
	struct slab_rcu_dbg *d;
	int i;

	if (!t || !t->fs)
		return;
	if (rcu_dbg_n == SLAB_RCU_DBG)
		sched_violation("slab-rcu-record", "slab_rcu_queued",
				"more than %d typesafe slabs waiting for a grace period: the "
				"record (and I-CONS) cannot follow them", SLAB_RCU_DBG);
	d = &rcu_dbg[rcu_dbg_n++];
	d->slab = slab;
	d->sec_mark = rcu_sections_begun();
	d->readers = 0;
	for (i = 0; i < t->fs->ntasks && i < 64; i++)
		if (rcu_task_section(i))
			d->readers |= 1ULL << i;
}

__sched_notsan void slab_rcu_check_free(struct kmem_cache *s, struct slab *slab, const char *fn)
{
	unsigned int k;
	uint64_t m;

	for (k = 0; k < rcu_dbg_n; k++)
		if (rcu_dbg[k].slab == slab)
			break;
	if (k == rcu_dbg_n)
		return;
	for (m = rcu_dbg[k].readers; m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		uint64_t sec = rcu_task_section(i);

		if (sec && sec <= rcu_dbg[k].sec_mark)
			sched_violation("I-RCU-TYPESAFE", fn,
					"%s: slab page (pfn %lu) freed while task %d is still in "
					"the read-side section it was in at discard_slab", s->name,
					page_to_pfn(slab_page(slab)), i);
	}
	rcu_dbg[k] = rcu_dbg[--rcu_dbg_n];
}

__sched_notsan size_t slab_rcu_pending(struct slab **out, size_t max)
{
	size_t i;

	for (i = 0; i < rcu_dbg_n && i < max; i++)
		out[i] = rcu_dbg[i].slab;
	return rcu_dbg_n;
}

/* ---- the layer's bug switches ---- */

static const struct bug_info bug_deactivate_slab_lost_inuse = {
	.bit = BUG_DEACTIVATE_SLAB_LOST_INUSE,
	.name = "deactivate_slab_lost_inuse", .layer = "slub", .where = "deactivate_slab",
	.caught_by = "I-SL-INUSE (validate_slab_cache: the freelist longer than objects - inuse)",
	.desc = "deactivate_slab splices the CPU freelist back into the slab without "
		"subtracting its objects from inuse: the slab counts free objects as in use, "
		"never empties and is never discarded",
};
BUG_SWITCH(bug_deactivate_slab_lost_inuse);

static const struct bug_info bug_typesafe_free_no_gp = {
	.bit = BUG_TYPESAFE_FREE_NO_GP,
	.name = "typesafe_free_no_gp", .layer = "slub", .where = "free_slab",
	.caught_by = "I-RCU-TYPESAFE (a reader's section open at discard_slab still open at "
		     "the page's free)",
	.desc = "free_slab returns a SLAB_TYPESAFE_BY_RCU cache's slab page to the page "
		"allocator at once instead of through call_rcu(rcu_free_slab): a reader "
		"revalidating an object of it reads a page the allocator has reused",
};
BUG_SWITCH(bug_typesafe_free_no_gp);

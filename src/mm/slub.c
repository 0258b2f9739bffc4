// SPDX-License-Identifier: MIT
/*
 * SLUB (Linux 6.6 mm/slub.c) on the model's page allocator: slabs are
 * alloc_pages(__GFP_COMP) blocks at the cache's order, objects are real
 * memory with the free pointer inside the object (mid-object, as 6.6 puts
 * it for caches without a constructor), free objects ASan-poisoned but for
 * that word, and an owner cookie after each object (the task id + 1 that
 * holds it: one owner per object, I-SL).
 *
 * Kept from 6.6: the lockless fast paths (__slab_alloc_node, do_slab_free)
 * with preemption enabled, reading c, tid, freelist and slab and then
 * __update_cpu_freelist_fast (this_cpu_cmpxchg_double) on whatever CPU the
 * task is on by then; the
 * slow path ___slab_alloc under the local lock with the lock dropped around
 * new_slab; __slab_free's freelist+counters retry loop with the speculative
 * list_lock; put_cpu_partial and __unfreeze_partials; deactivate_slab with
 * the racy nr_partial read before the lock.  flush_slab, flush_all,
 * slub_cpu_dead and kmem_cache_shrink are src/mm/slub_flush.c; creation
 * and destruction are src/mm/slab_common.c; the quiescent
 * checks are src/check/slab.c; debug caches, slab_lock's
 * (freelist, counters) update and SLAB_TYPESAFE_BY_RCU's free_slab are
 * src/mm/slub_debug.c (docs/layer-slub.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "../kernel/cpu.h"
#include "../sched/san.h"
#include "internal.h"
#include "slab.h"




/* ---- objects ---- */


/* The word at @p without ASan's check: the object's slab may have been
 * flushed and freed to the page allocator meanwhile (a flush_all on this
 * CPU while the task was preempted in the fast path), and the kernel reads
 * it anyway: slub.c is not KASAN-instrumented (KASAN_SANITIZE_slub.o := n)
 * and the cmpxchg on the moved tid fails after. */
__attribute__((no_sanitize("address"))) static void *freepointer_nokasan(void **p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* the fast path's read of an object that may be allocated meanwhile (the
 * cmpxchg then fails): a racy read */
static inline void *get_freepointer_safe(struct kmem_cache *s, void *object)
{
	__racy_point(YP_RACY_READ, "*(void **)((char *)object + s->offset)");
	return freepointer_nokasan((void **)((char *)object + s->offset));
}



/* the object leaves the allocator: unpoisoned, owned by the caller */
void slab_post_alloc_hook(struct kmem_cache *s, void *object, const char *fn)
{
	unsigned long old;

	san_unpoison(object, s->object_size);
	old = __atomic_exchange_n(obj_cookie(s, object), (unsigned long)current->id + 1,
				  __ATOMIC_RELAXED);
	if (old != SLUB_COOKIE_FREE)
		sched_violation("I-SL-OWNER", fn, "%s object %p handed to %s while T%lu holds it",
				s->name, object, current->name, old - 1);
}

/* the object comes back: poisoned but for its free pointer; not a
 * SLAB_TYPESAFE_BY_RCU cache's, whose freed objects readers may still read
 * until a grace period (6.6's ____kasan_slab_free: "if (unlikely(cache->flags
 * & SLAB_TYPESAFE_BY_RCU)) return false;") */
void slab_free_hook(struct kmem_cache *s, void *object, const char *fn)
{
	unsigned long old = __atomic_exchange_n(obj_cookie(s, object), SLUB_COOKIE_FREE,
						__ATOMIC_RELAXED);

	if (old == SLUB_COOKIE_FREE)
		sched_violation("I-SL-OWNER", fn, "%s object %p freed twice (double free)",
				s->name, object);
	if (s->flags & SLAB_TYPESAFE_BY_RCU)
		return;
	san_poison(object, s->offset);
	san_poison((char *)object + s->offset + sizeof(void *),
		   s->object_size - s->offset - sizeof(void *));
}

/*
 * An object's slab: its page's compound head, PG_slab, and (the callers)
 * slab->slab_cache.  For a live object these are stable: set before the
 * object was first handed out and kept until its slab is freed, which a
 * live object prevents (I-SL-CACHE checks the cache; ASan poisons a freed
 * slab).  TSan does not see every order the kernel relies on for them (an
 * object taken from a slab another task made, a slab another task
 * discards after this free), so they are read as annotated races.
 */
struct slab *virt_to_slab(const void *x)
{
	unsigned long pfn = (unsigned long)((const unsigned char *)x - (const unsigned char *)mm_pa->mem) / MODEL_PAGE_SIZE;
	struct page *page = pfn_to_page(pfn);

	/* checked out of the annotation: a report inside it would leave
	 * TSan's ignore on */
	PF_POISONED_CHECK(page, __func__);
	page = __data_race(compound_head(page));

	/* PageSlab (6.6: PF_NO_TAIL, checked on the head) */
	if (!pf_test_flags(page, __func__, __data_race(__READ_ONCE(page->flags)),
			   1UL << PG_slab))	/* PG_locked beside it */
		return NULL;
	return page_slab(page);
}

/* ---- slabs ---- */

static struct slab *allocate_slab(struct kmem_cache *s, gfp_t flags, int node)
{
	struct page *page;
	struct slab *slab;
	char *start, *p;
	unsigned int i, nr = oo_objects(s->oo);
	(void)node;

	page = alloc_pages(flags | __GFP_COMP, oo_order(s->oo));
	if (!page)
		return NULL;
	slab = page_slab(page);
	slab->slab_cache = s;
	__atomic_fetch_or(&slab->__page_flags, 1UL << PG_slab, __ATOMIC_RELAXED);
	{
		struct slab c0;

		c0.counters = 0;
		c0.objects = nr;
		c0.inuse = nr;
		c0.frozen = 1;
		__WRITE_ONCE(slab->counters, c0.counters);
	}
	start = slab_address(slab);
	/* shuffle_freelist off: the objects in address order */
	for (i = 0, p = start; i < nr; i++, p += s->size) {
		set_freepointer(s, p, i + 1 < nr ? p + s->size : NULL);
		__atomic_store_n(obj_cookie(s, p), SLUB_COOKIE_FREE, __ATOMIC_RELAXED);
		san_poison(p, s->offset);
		san_poison(p + s->offset + sizeof(void *),
			   s->object_size - s->offset - sizeof(void *));
	}
	__WRITE_ONCE(slab->freelist, (void *)start);
	return slab;
}

static struct slab *new_slab(struct kmem_cache *s, gfp_t flags, int node)
{
	stat(s, ALLOC_SLAB);
	return allocate_slab(s, flags, node);
}

void __free_slab(struct kmem_cache *s, struct slab *slab)
{
	struct page *page = slab_page(slab);
	int order = (int)oo_order(s->oo);

	san_unpoison(slab_address(slab), MODEL_PAGE_SIZE << order);
	__atomic_fetch_and(&slab->__page_flags, ~(1UL << PG_slab), __ATOMIC_RELAXED);
	/* slab_cache overlays the head's lru.next, slab_list.prev mapping,
	 * freelist index, counters private, __unused _mapcount */
	page->mapping = NULL;
	page->index = 0;
	page->private = 0;
	atomic_set(&page->_mapcount, -1);
	INIT_LIST_HEAD(&page->lru);
	__free_pages(page, order);
}

void discard_slab(struct kmem_cache *s, struct slab *slab)
{
	dec_slabs_node(s, 0, slab->objects);
	stat(s, FREE_SLAB);
	free_slab(s, slab);
}

/* ---- the node's partial list, under n->list_lock ---- */

static void __add_partial(struct kmem_cache_node *n, struct slab *slab, int tail)
{
	lockdep_assert_held(&n->list_lock);
	__WRITE_ONCE(n->nr_partial, n->nr_partial + 1);	/* read racily: get_partial_node */
	HOOK(slub, state_node_partial, slab->slab_cache, n->nr_partial);
	if (tail)
		list_add_tail(&slab->slab_list, &n->partial);
	else
		list_add(&slab->slab_list, &n->partial);
}

void add_partial(struct kmem_cache_node *n, struct slab *slab, int tail)
{
	lockdep_assert_held(&n->list_lock);
	__add_partial(n, slab, tail);
	__update_partial_total(n, slab_objects_racy(slab));	/* seed 004 */
}

void remove_partial(struct kmem_cache_node *n, struct slab *slab)
{
	lockdep_assert_held(&n->list_lock);
	list_del(&slab->slab_list);
	__WRITE_ONCE(n->nr_partial, n->nr_partial - 1);
	__update_partial_total(n, -(long)slab_objects_racy(slab));	/* seed 004 */
}

/* acquire_slab: freeze a slab of the node's list; @mode: take its
 * freelist for the CPU (else it stays in the slab, for the CPU partial list) */
static void *acquire_slab(struct kmem_cache *s, struct kmem_cache_node *n, struct slab *slab,
			  int mode)
{
	void *freelist;
	unsigned long counters;
	struct slab new;

	lockdep_assert_held(&n->list_lock);
	freelist = READ_ONCE(slab->freelist);
	counters = READ_ONCE(slab->counters);
	new.counters = counters;
	if (mode) {
		new.inuse = new.objects;
		new.freelist = NULL;
	} else {
		new.freelist = freelist;
	}
	VM_BUG_ON(new.frozen);
	new.frozen = 1;
	if (!__slab_update_freelist(s, slab, freelist, counters, new.freelist, new.counters,
				    "acquire_slab"))
		return NULL;
	remove_partial(n, slab);
	new.counters = counters;	/* seed 004: its free objects leave the list */
	__update_partial_free(n, -((long)new.objects - (long)new.inuse));
	VM_WARN_ON(!freelist);
	return freelist;
}

static void put_cpu_partial(struct kmem_cache *s, struct slab *slab, int drain);

/* get_partial_node: the racy nr_partial read, then the first slab for the
 * CPU and up to cpu_partial_slabs / 2 + 1 more for its partial list */
static void *get_partial_node(struct kmem_cache *s, struct kmem_cache_node *n,
			      struct slab **ret_slab)
{
	struct slab *slab, *slab2;
	void *object = NULL;
	unsigned long flags;
	unsigned int partial_slabs = 0;

	if (!n || !READ_ONCE(n->nr_partial))
		return NULL;
	spin_lock_irqsave(&n->list_lock, flags);
	list_for_each_entry_safe(slab, slab2, &n->partial, slab_list) {
		void *t;

		if (kmem_cache_debug(s)) {
			object = alloc_single_from_partial(s, n, slab);
			if (object)
				break;
			continue;
		}
		t = acquire_slab(s, n, slab, object == NULL);
		if (!t)
			break;
		if (!object) {
			*ret_slab = slab;
			stat(s, ALLOC_FROM_PARTIAL);
			object = t;
		} else {
			put_cpu_partial(s, slab, 0);	/* under list_lock: its order */
			stat(s, CPU_PARTIAL_NODE);
			partial_slabs++;
		}
		if (!kmem_cache_has_cpu_partial(s) || partial_slabs > s->cpu_partial_slabs / 2)
			break;
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	return object;
}

/* deactivate_slab: a CPU slab and its CPU freelist back to the node */
void deactivate_slab(struct kmem_cache *s, struct slab *slab, void *freelist)
{
	struct kmem_cache_node *n = get_node(s, 0);
	int free_delta = 0;
	void *nextfree, *freelist_iter, *freelist_tail;
	int tail = 0;
	unsigned long flags = 0;
	struct slab new, old;
	enum { M_PARTIAL, M_FREE, M_FULL_NOLIST } mode;

	if (READ_ONCE(slab->freelist))
		tail = 1;
	/* stage one: count the CPU freelist's objects, find its tail */
	freelist_tail = NULL;
	freelist_iter = freelist;
	while (freelist_iter) {
		nextfree = get_freepointer(s, freelist_iter);
		freelist_tail = freelist_iter;
		free_delta++;
		freelist_iter = nextfree;
	}
	/* stage two: unfreeze, the CPU freelist spliced before the slab's */
redo:
	old.freelist = READ_ONCE(slab->freelist);
	old.counters = READ_ONCE(slab->counters);
	VM_BUG_ON(!old.frozen);
	new.counters = old.counters;
	new.frozen = 0;
	if (freelist_tail) {
		if (!bug_on(BUG_DEACTIVATE_SLAB_LOST_INUSE))
			new.inuse -= free_delta;
		set_freepointer(s, freelist_tail, old.freelist);
		new.freelist = freelist;
	} else {
		new.freelist = old.freelist;
	}
	if (!new.inuse && READ_ONCE(n->nr_partial) >= s->min_partial) {
		mode = M_FREE;
	} else if (new.freelist) {
		mode = M_PARTIAL;
		spin_lock_irqsave(&n->list_lock, flags);
	} else {
		mode = M_FULL_NOLIST;
		stat(s, DEACTIVATE_FULL);
	}
	if (!slab_update_freelist(s, slab, old.freelist, old.counters, new.freelist,
				  new.counters, "unfreezing slab")) {
		if (mode == M_PARTIAL)
			spin_unlock_irqrestore(&n->list_lock, flags);
		goto redo;
	}
	if (mode == M_PARTIAL) {
		/* seed 004: the total with the list, unless the switch moves it
		 * past the unlock */
		if (unlikely(bug_on(BUG_PARTIAL_TOTAL_UNLOCKED)))
			__add_partial(n, slab, tail);
		else
			add_partial(n, slab, tail);
		partial_free_unfrozen(n, slab, new.counters);
		spin_unlock_irqrestore(&n->list_lock, flags);
		if (unlikely(bug_on(BUG_PARTIAL_TOTAL_UNLOCKED)))
			partial_total_add_unlocked(n, new.objects);
	} else if (mode == M_FREE) {
		discard_slab(s, slab);
	}
}

/* __unfreeze_partials: a chain of CPU partial slabs to the node's list */
void __unfreeze_partials(struct kmem_cache *s, struct slab *partial_slab)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab, *slab_to_discard = NULL;
	unsigned long flags = 0;

	spin_lock_irqsave(&n->list_lock, flags);
	while (partial_slab) {
		struct slab new, old;

		slab = partial_slab;
		partial_slab = slab->next;
		do {
			old.freelist = __READ_ONCE(slab->freelist);
			old.counters = __READ_ONCE(slab->counters);
			VM_BUG_ON(!old.frozen);
			new.counters = old.counters;
			new.freelist = old.freelist;
			new.frozen = 0;
		} while (!__slab_update_freelist(s, slab, old.freelist, old.counters,
						 new.freelist, new.counters, "unfreezing slab"));
		if (unlikely(!new.inuse && n->nr_partial >= s->min_partial)) {
			slab->next = slab_to_discard;
			slab_to_discard = slab;
		} else {
			add_partial(n, slab, 1);
			partial_free_unfrozen(n, slab, new.counters);	/* seed 004 */
		}
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	while (slab_to_discard) {
		slab = slab_to_discard;
		slab_to_discard = slab_to_discard->next;
		discard_slab(s, slab);
	}
}

/* put_cpu_partial: a slab frozen by __slab_free onto this CPU's partial
 * chain; past cpu_partial_slabs the chain goes to the node first */
static void put_cpu_partial(struct kmem_cache *s, struct slab *slab, int drain)
{
	struct slab *oldslab, *slab_to_unfreeze = NULL;
	unsigned long flags;
	int slabs = 0;

	slub_local_lock_irqsave(s, flags);
	oldslab = __READ_ONCE(this_cpu_ptr(s->cpu_slab)->partial);
	if (oldslab) {
		if (drain && oldslab->slabs >= (int)s->cpu_partial_slabs) {
			slab_to_unfreeze = oldslab;
			oldslab = NULL;
		} else {
			slabs = oldslab->slabs;
		}
	}
	slabs++;
	slab->slabs = slabs;
	slab->next = oldslab;
	__WRITE_ONCE(this_cpu_ptr(s->cpu_slab)->partial, slab);
	HOOK(slub, state_cpu_partial, s, slabs, slab_to_unfreeze != NULL);
	slub_local_unlock_irqrestore(s, flags);
	if (slab_to_unfreeze)
		__unfreeze_partials(s, slab_to_unfreeze);
}

/* get_freelist: the CPU slab's freelist taken whole (under the local lock) */
static void *get_freelist(struct kmem_cache *s, struct slab *slab)
{
	struct slab new;
	unsigned long counters;
	void *freelist;

	lockdep_assert_held(&this_cpu_ptr(s->cpu_slab)->lock);
	do {
		freelist = __READ_ONCE(slab->freelist);
		counters = __READ_ONCE(slab->counters);
		new.counters = counters;
		VM_BUG_ON(!new.frozen);
		new.inuse = new.objects;
		new.frozen = freelist != NULL;
	} while (!__slab_update_freelist(s, slab, freelist, counters, NULL, new.counters,
					 "get_freelist"));
	return freelist;
}

/* ---- allocation ---- */

void *___slab_alloc(struct kmem_cache *s, gfp_t gfpflags, int node)
{
	struct kmem_cache_cpu *c;
	void *freelist;
	struct slab *slab;
	unsigned long flags;

reread_slab:
	c = &s->cpu_slab[raw_smp_processor_id()];
	slab = READ_ONCE(c->slab);
	if (!slab)
		goto new_slab;
	slub_local_lock_irqsave(s, flags);
	c = this_cpu_ptr(s->cpu_slab);
	if (unlikely(slab != __READ_ONCE(c->slab))) {
		slub_local_unlock_irqrestore(s, flags);
		goto reread_slab;
	}
	freelist = __READ_ONCE(c->freelist);
	if (freelist)
		goto load_freelist;
	freelist = get_freelist(s, slab);
	if (!freelist) {
		__WRITE_ONCE(c->slab, NULL);
		__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
		slub_local_unlock_irqrestore(s, flags);
		goto new_slab;
	}
load_freelist:
	lockdep_assert_held(&c->lock);
	VM_BUG_ON(!((struct slab){ .counters = __READ_ONCE(__READ_ONCE(c->slab)->counters) }).frozen);
	__WRITE_ONCE(c->freelist, (void **)get_freepointer(s, freelist));
	__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
	slub_local_unlock_irqrestore(s, flags);
	return freelist;

new_slab:
	if (READ_ONCE(c->partial)) {
		slub_local_lock_irqsave(s, flags);
		c = this_cpu_ptr(s->cpu_slab);
		if (unlikely(__READ_ONCE(c->slab))) {
			slub_local_unlock_irqrestore(s, flags);
			goto reread_slab;
		}
		if (unlikely(!__READ_ONCE(c->partial))) {
			slub_local_unlock_irqrestore(s, flags);
			goto new_objects;
		}
		slab = __READ_ONCE(c->partial);		/* slub_percpu_partial */
		__WRITE_ONCE(c->partial, slab->next);
		__WRITE_ONCE(c->slab, slab);
		freelist = get_freelist(s, slab);
		if (!freelist) {
			__WRITE_ONCE(c->slab, NULL);
			__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
			slub_local_unlock_irqrestore(s, flags);
			goto new_slab;
		}
		goto load_freelist;
	}
new_objects:
	slab = NULL;
	freelist = get_partial_node(s, get_node(s, node), &slab);
	if (freelist) {
		if (kmem_cache_debug(s))	/* check_new_slab: from the list */
			return freelist;
		goto retry_load_slab;
	}
	/* the local lock is not held: c re-fetched after */
	slab = new_slab(s, gfpflags, node);
	if (unlikely(!slab))
		return NULL;
	if (kmem_cache_debug(s)) {
		freelist = alloc_single_from_new_slab(s, slab);
		if (unlikely(!freelist))
			goto new_objects;
		return freelist;
	}
	inc_slabs_node(s, node, slab->objects);
	/* not published yet: nobody else sees the slab */
	freelist = __READ_ONCE(slab->freelist);
	__WRITE_ONCE(slab->freelist, NULL);
retry_load_slab:
	slub_local_lock_irqsave(s, flags);
	c = this_cpu_ptr(s->cpu_slab);
	if (unlikely(__READ_ONCE(c->slab))) {
		void *flush_freelist = __READ_ONCE(c->freelist);
		struct slab *flush_slab = __READ_ONCE(c->slab);

		__WRITE_ONCE(c->slab, NULL);
		__WRITE_ONCE(c->freelist, NULL);
		__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
		slub_local_unlock_irqrestore(s, flags);
		deactivate_slab(s, flush_slab, flush_freelist);
		goto retry_load_slab;
	}
	__WRITE_ONCE(c->slab, slab);
	goto load_freelist;
}

/*
 * 6.6's __update_cpu_freelist_fast(s, freelist_old, freelist_new, tid):
 * this_cpu_try_cmpxchg_freelist on this CPU's {freelist, tid}, the tid
 * advanced by one TID_STEP.  A macro, not a function, so that its yield
 * point stays its caller's site (__slab_alloc_node:cmpxchg_double(...),
 * do_slab_free:cmpxchg_double(...): the fuzzer tells the two apart and the
 * corpus names them); its @s must be spelled s.
 */
#define __update_cpu_freelist_fast(s, freelist_old, freelist_new, old_tid)		\
	this_cpu_cmpxchg_double(s->cpu_slab, freelist, tid, freelist_old, old_tid,	\
				freelist_new, next_tid(old_tid))

static void *__slab_alloc_node(struct kmem_cache *s, gfp_t gfpflags, int node)
{
	struct kmem_cache_cpu *c;
	struct slab *slab;
	unsigned long tid;
	void *object;

redo:
	/* preemption enabled: the CPU may change after any of these reads */
	c = &s->cpu_slab[raw_smp_processor_id()];
	tid = READ_ONCE(c->tid);
	barrier();
	object = READ_ONCE(c->freelist);
	slab = READ_ONCE(c->slab);
	if (unlikely(!object || !slab)) {
		stat(s, ALLOC_SLOWPATH);
		object = ___slab_alloc(s, gfpflags, node);
	} else {
		void *next_object = get_freepointer_safe(s, object);

		if (unlikely(!__update_cpu_freelist_fast(s, object, next_object, tid))) {
			stat(s, CMPXCHG_DOUBLE_CPU_FAIL);	/* note_cmpxchg_failure */
			goto redo;
		}
		stat(s, ALLOC_FASTPATH);
	}
	return object;
}

static void *slab_alloc_node(struct kmem_cache *s, gfp_t gfpflags, int node)
{
	void *object = __slab_alloc_node(s, gfpflags, node);

	if (object)
		slab_post_alloc_hook(s, object, __func__);
	return object;
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfpflags)
{
	return slab_alloc_node(s, gfpflags, 0);
}

/* ---- freeing ---- */

/* __slab_free: not this CPU's slab (or a race): to the slab itself */
static void __slab_free(struct kmem_cache *s, struct slab *slab, void *head, void *tail,
			int cnt)
{
	void *prior;
	int was_frozen;
	struct slab new;
	unsigned long counters;
	struct kmem_cache_node *n = NULL;
	unsigned long flags = 0;
	bool pending = false;	/* seed 004's checkers: a free to a listed slab */

	if (kmem_cache_debug(s)) {
		free_to_partial_list(s, slab, head, tail, cnt);
		return;
	}
	do {
		if (unlikely(pending)) {
			partial_free_cancel(get_node(s, 0), cnt);
			pending = false;
		}
		if (unlikely(n)) {
			spin_unlock_irqrestore(&n->list_lock, flags);
			n = NULL;
		}
		prior = READ_ONCE(slab->freelist);
		counters = READ_ONCE(slab->counters);
		set_freepointer(s, tail, prior);
		new.counters = counters;
		was_frozen = new.frozen;
		new.inuse -= cnt;
		if ((!new.inuse || !prior) && !was_frozen) {
			if (!prior) {
				/* a full slab: frozen for this CPU's partial list */
				new.frozen = 1;
			} else {
				/* speculative list_lock: the slab may be emptied */
				n = get_node(s, 0);
				spin_lock_irqsave(&n->list_lock, flags);
			}
		}
		/* seed 004: a slab on the node's list, n held or not; in flight
		 * from before the update (the slab_lock path yields after it) */
		if (!was_frozen && prior) {
			partial_free_begin(get_node(s, 0), cnt);
			pending = true;
		}
	} while (!slab_update_freelist(s, slab, prior, counters, head, new.counters,
				       "__slab_free"));
	if (pending)
		partial_free_freed(get_node(s, 0), cnt);

	if (likely(!n)) {
		if (likely(was_frozen)) {
			/* the slab is on a CPU: nothing else to do */
			stat(s, FREE_FROZEN);
		} else if (new.frozen) {
			put_cpu_partial(s, slab, 1);
			stat(s, CPU_PARTIAL_FREE);
		}
		return;
	}
	if (unlikely(!new.inuse && n->nr_partial >= s->min_partial))
		goto slab_empty;
	if (unlikely(!prior)) {
		add_partial(n, slab, 1);
		__update_partial_free(n, cnt);	/* seed 004 */
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	return;

slab_empty:
	if (prior) {
		remove_partial(n, slab);
		__update_partial_free(n, -(long)slab->objects);	/* seed 004 */
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	discard_slab(s, slab);
}

void do_slab_free(struct kmem_cache *s, struct slab *slab, void *head, void *tail, int cnt)
{
	void *tail_obj = tail ? tail : head;
	struct kmem_cache_cpu *c;
	unsigned long tid;
	void **freelist;

redo:
	c = &s->cpu_slab[raw_smp_processor_id()];
	tid = READ_ONCE(c->tid);
	barrier();
	if (unlikely(slab != READ_ONCE(c->slab))) {
		stat(s, FREE_SLOWPATH);
		__slab_free(s, slab, head, tail_obj, cnt);
		return;
	}
	freelist = READ_ONCE(c->freelist);
	set_freepointer(s, tail_obj, freelist);
	if (unlikely(!__update_cpu_freelist_fast(s, freelist, head, tid))) {
		stat(s, CMPXCHG_DOUBLE_CPU_FAIL);
		goto redo;
	}
	stat(s, FREE_FASTPATH);
}

void kmem_cache_free(struct kmem_cache *s, void *x)
{
	struct slab *slab = virt_to_slab(x);

	if (!slab || __data_race(slab->slab_cache) != s)
		sched_violation("I-SL-CACHE", __func__, "%p is not an object of %s", x, s->name);
	slab_free_hook(s, x, __func__);
	do_slab_free(s, slab, x, NULL, 1);
}

void kfree(const void *x)
{
	struct slab *slab;

	if (!x)
		return;
	slab = virt_to_slab(x);
	if (!slab)
		sched_violation("I-SL-CACHE", __func__, "%p is not a slab object", x);
	kmem_cache_free(__data_race(slab->slab_cache), (void *)x);
}

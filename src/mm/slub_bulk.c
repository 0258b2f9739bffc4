// SPDX-License-Identifier: MIT
/*
 * SLUB's bulk calls (Linux 6.6 mm/slub.c): kmem_cache_alloc_bulk through
 * __kmem_cache_alloc_bulk, which drains the CPU freelist under the local
 * lock with IRQs off (so neither a preempting task nor an interrupt's fast
 * path can run on this CPU meanwhile), bumps the tid before dropping the
 * lock for ___slab_alloc and once at the end (slub.c:3934-4002); and
 * kmem_cache_free_bulk through build_detached_freelist, which gathers the
 * objects of one slab (a look-ahead of 3) into a freelist freed in one
 * do_slab_free (4026-4093).
 *
 * Beside 6.6: no slub_get_cpu_ptr around the call.  6.6 keeps preemption
 * off across it; the model's ___slab_alloc runs preemptible (as from the
 * single-object slow path) and c is re-fetched after it, so a task may
 * move to another CPU between two objects.
 */
#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "internal.h"
#include "slab.h"

static int __kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags, size_t size, void **p)
{
	struct kmem_cache_cpu *c;
	unsigned long irqflags;
	size_t i;

	slub_local_lock_irqsave(s, irqflags);
	c = this_cpu_ptr(s->cpu_slab);
	for (i = 0; i < size; i++) {
		void *object = __READ_ONCE(c->freelist);

		if (unlikely(!object)) {
			/* an object may have left c->freelist above without a
			 * tid bump, and ___slab_alloc lets interrupts in */
			__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
			slub_local_unlock_irqrestore(s, irqflags);
			p[i] = ___slab_alloc(s, flags, 0);
			if (unlikely(!p[i]))
				goto error;
			slub_local_lock_irqsave(s, irqflags);
			c = this_cpu_ptr(s->cpu_slab);
			continue;
		}
		__WRITE_ONCE(c->freelist, (void **)get_freepointer(s, object));
		p[i] = object;
	}
	__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
	slub_local_unlock_irqrestore(s, irqflags);
	return (int)i;

error:
	for (size_t k = 0; k < i; k++)
		slab_post_alloc_hook(s, p[k], "__kmem_cache_alloc_bulk");
	kmem_cache_free_bulk(s, i, p);
	return 0;
}

int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags, size_t size, void **p)
{
	int i, k;

	if (!size)
		return 0;
	i = __kmem_cache_alloc_bulk(s, flags, size, p);
	for (k = 0; k < i; k++)
		slab_post_alloc_hook(s, p[k], __func__);
	return i;
}

struct detached_freelist {
	struct slab *slab;
	void *tail;
	void *freelist;
	int cnt;
	struct kmem_cache *s;
};

/* the objects at the end of p[] that share p[size - 1]'s slab, moved to the
 * end and chained; returns how many of p[] are left */
static size_t build_detached_freelist(struct kmem_cache *s, size_t size, void **p,
				      struct detached_freelist *df)
{
	int lookahead = 3;
	void *object;
	size_t same;

	object = p[--size];
	df->slab = virt_to_slab(object);
	if (!df->slab || (s && df->slab->slab_cache != s))
		sched_violation("I-SL-CACHE", "build_detached_freelist", "%p is not an object of %s",
				object, s ? s->name : "a slab cache");
	df->s = df->slab->slab_cache;
	df->tail = object;
	df->freelist = object;
	df->cnt = 1;
	set_freepointer(df->s, object, NULL);
	same = size;
	while (size) {
		object = p[--size];
		if (df->slab == virt_to_slab(object)) {
			set_freepointer(df->s, object, df->freelist);
			df->freelist = object;
			df->cnt++;
			same--;
			if (size != same) {
				void *t = p[size];

				p[size] = p[same];
				p[same] = t;
			}
			continue;
		}
		if (!--lookahead)
			break;
	}
	return same;
}

void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p)
{
	if (!size)
		return;
	do {
		struct detached_freelist df;
		void *o;
		int k;

		size = build_detached_freelist(s, size, p, &df);
		/* slab_free_freelist_hook: each object's hook, the chain kept */
		for (o = df.freelist, k = 0; k < df.cnt; k++) {
			void *next = get_freepointer(df.s, o);

			slab_free_hook(df.s, o, __func__);
			o = next;
		}
		do_slab_free(df.s, df.slab, df.freelist, df.tail, df.cnt);
	} while (likely(size));
}

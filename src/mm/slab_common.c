// SPDX-License-Identifier: MIT
/*
 * kmem_cache_create and kmem_cache_destroy (Linux 6.6 mm/slab_common.c,
 * with slub.c's calculate_order and kmem_cache_open folded in): a cache's
 * geometry, its per-CPU slabs with their tids and local locks, its node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "../sched/san.h"
#include "internal.h"
#include "slab.h"

/* every cache (6.6: under slab_mutex; the model makes them before tasks
 * run, so only the walk of CPU hotplug and the destroy take it) */
struct list_head slab_caches __attribute__((aligned(16))) = { &slab_caches, &slab_caches };
struct mutex slab_mutex;

/* made at start for the stress runner's caches; a world's boot makes it
 * again (a run stopped by a violation may have left it held) */
__attribute__((constructor)) static void slab_mutex_ctor(void)
{
	mutex_init_named(&slab_mutex, "slab_mutex");
}


/* calculate_order: the least order whose slab holds SLUB_MIN_OBJECTS */
static unsigned int calculate_order(unsigned int size)
{
	unsigned int order = 0;

	while ((MODEL_PAGE_SIZE << order) / size < SLUB_MIN_OBJECTS)
		order++;
	return order;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     unsigned long flags, void (*ctor)(void *))
{
	struct kmem_cache *s;
	unsigned int order, cpu;
	(void)align;

	if (size < sizeof(void *) || size > 1024 || ctor || (flags & ~SLAB_FLAGS_PERMITTED))
		return NULL;
	s = aligned_alloc(16, (sizeof(*s) + 15) / 16 * 16);
	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->cpu_slab = aligned_alloc(16, MAX_CPUS * sizeof(struct kmem_cache_cpu));
	if (!s->cpu_slab) {
		free(s);
		return NULL;
	}
	memset(s->cpu_slab, 0, MAX_CPUS * sizeof(struct kmem_cache_cpu));
	snprintf(s->name, sizeof(s->name), "%s", name);
	/* kmem_cache_open: system_has_freelist_aba() (config key freelist_update;
	 * a test may turn it off) */
	s->flags = flags;
	if (slub_system_has_freelist_aba() && !(flags & SLAB_NO_CMPXCHG))
		s->flags |= __CMPXCHG_DOUBLE;
	s->object_size = (size + sizeof(void *) - 1) & ~(unsigned int)(sizeof(void *) - 1);
	s->offset = (s->object_size / 2) & ~(unsigned int)(sizeof(void *) - 1);
	if (s->offset + sizeof(void *) > s->object_size)
		s->offset = 0;
	s->cookie = s->object_size;
	s->size = s->object_size + sizeof(unsigned long);
	order = calculate_order(s->size);
	s->oo.x = order << 16 | (MODEL_PAGE_SIZE << order) / s->size;
	s->min_partial = SLUB_MIN_PARTIAL;
	s->cpu_partial_slabs = SLUB_CPU_PARTIAL_SLABS;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct kmem_cache_cpu *c = &s->cpu_slab[cpu];

		local_lock_init_named(&c->lock, 1, "s->cpu_slab->lock");
		c->lock.sl.idx = (int)cpu;
		__WRITE_ONCE(c->tid, init_tid((int)cpu));
	}
	s->node[0] = &s->node0;
	spin_lock_init_named(&s->node0.list_lock, "n->list_lock", -1);
	INIT_LIST_HEAD(&s->node0.partial);
	INIT_LIST_HEAD(&s->node0.full);
	if (init_kmem_cache_node_partial(s, &s->node0)) {	/* seed 004's counters */
		free(s->cpu_slab);
		free(s);
		return NULL;
	}
	list_add(&s->list, &slab_caches);
	HOOK(slub, cache_created, s);
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	struct kmem_cache_node *n;
	struct slab *slab, *t;
	struct list_head discard __attribute__((aligned(16))) = { &discard, &discard };
	unsigned long flags;
	unsigned int remaining = 0;

	if (!s)
		return;
	flush_all(s);
	n = get_node(s, 0);
	/* free_partial: the empty slabs off the list under list_lock */
	spin_lock_irqsave(&n->list_lock, flags);
	list_for_each_entry_safe(slab, t, &n->partial, slab_list) {
		if (slab->inuse) {
			remaining = slab->inuse;
			continue;
		}
		remove_partial(n, slab);
		__update_partial_free(n, -((long)slab->objects - (long)slab->inuse));
		list_add(&slab->slab_list, &discard);
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	list_for_each_entry_safe(slab, t, &discard, slab_list)
		discard_slab(s, slab);
	if (remaining)
		sched_violation("I-SL-DESTROY", __func__, "%s: objects remaining (%u in a slab)",
				s->name, remaining);
	/* rcu_free_slab reads s: 6.6 waits in slab_caches_to_rcu_destroy_workfn */
	if (s->flags & SLAB_TYPESAFE_BY_RCU)
		rcu_barrier();
	/* 6.6 takes cpus_read_lock and slab_mutex for the whole destroy;
	 * the model's list change is what slub_cpu_dead's walk races with */
	mutex_lock(&slab_mutex);
	list_del(&s->list);
	mutex_unlock(&slab_mutex);
	free_kmem_cache_node_partial(n);
	free(s->cpu_slab);
	free(s);
}

/* ---- kmalloc (6.6 mm/slab_common.c: kmalloc_info, create_kmalloc_caches,
 * kmalloc_slab with size_index for the small sizes) ---- */

struct kmem_cache *kmalloc_caches[NR_KMALLOC_CLASSES];

static const struct {
	const char *name;
	unsigned int size;
} kmalloc_info[NR_KMALLOC_CLASSES] = {
	{ "kmalloc-8", 8 }, { "kmalloc-16", 16 }, { "kmalloc-32", 32 }, { "kmalloc-64", 64 },
	{ "kmalloc-96", 96 }, { "kmalloc-128", 128 }, { "kmalloc-192", 192 },
	{ "kmalloc-256", 256 },
};

/* create_kmalloc_caches (6.6 slab_common.c:906): one cache a class (the
 * model has KMALLOC_NORMAL only) */
void create_kmalloc_caches(unsigned long flags)
{
	int i;

	for (i = 0; i < NR_KMALLOC_CLASSES; i++)
		kmalloc_caches[i] = kmem_cache_create(kmalloc_info[i].name, kmalloc_info[i].size,
						      0, flags, NULL);
}

/* kmalloc_slab: size_index for sizes up to 192 (96 and 192 between the
 * powers of two), then the power of two */
struct kmem_cache *kmalloc_slab(size_t size)
{
	int i;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE)
		return NULL;
	for (i = 0; i < NR_KMALLOC_CLASSES; i++)
		if (size <= kmalloc_info[i].size)
			return kmalloc_caches[i];
	return NULL;
}

/* __kmalloc -> __do_kmalloc_node: the class's cache (kmalloc_large past it,
 * which the model does not have: NULL) */
void *kmalloc(size_t size, gfp_t flags)
{
	struct kmem_cache *s = kmalloc_slab(size);

	return s ? kmem_cache_alloc(s, flags) : NULL;
}

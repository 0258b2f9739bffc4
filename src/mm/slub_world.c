// SPDX-License-Identifier: MIT
/*
 * SLUB as a world layer ("slub"): the caches a run makes and what the world
 * does with them between runs.  The caches are a run's, not the world's:
 * the program's header names them (src/prog/ops_slub_header.c) and the
 * executor makes them with the kmalloc classes before any task runs
 * (slub_world_boot_caches, from the op layer's run_begin); the end of the
 * run (drain) destroys them, giving every slab page back to the page
 * allocator; a run a violation stopped leaves them, and reset frees their
 * structs (the page allocator's reset takes the pages back with its dirty
 * blocks).  So a reset costs the caches the last run made, nothing when it
 * made none, and a cached world carries no cache into the next run.
 *
 * CPU hotplug: slub_cpu_dead at CPUHP_SLUB_DEAD (6.6 slub.c:3119), the
 * dead CPU's slabs and partial slabs back to the node.
 */
#include <stdlib.h>
#include <string.h>

#include "../kernel/cpu.h"
#include "../kernel/kfree_rcu.h"
#include "internal.h"
#include "../world/layer.h"
#include "slab.h"
#include "slub_world.h"

DEFINE_HOOKS(slub);

static struct world_layer slub_layer;

static struct slub_world *sw_of(struct world *w)
{
	return world_layer_state(w, &slub_layer);
}

struct slub_world *slub_world_of(struct world *w)
{
	return sw_of(w);
}

struct slub_world *slub_world(void)
{
	return sw_of(mm_world);
}

static void sw_add(struct slub_world *sw, struct kmem_cache *s)
{
	if (s && sw->n < SLUB_WORLD_CACHES)
		sw->cache[sw->n++] = s;
}

static void sw_forget(struct slub_world *sw);

int slub_world_boot_caches(struct world *w, const struct slub_cache_spec *spec, int n)
{
	struct slub_world *sw = sw_of(w);
	char name[24];
	int i, made = 0;

	/* a run begun again on a world no reset came between (a run stopped
	 * before its drain, the codec's canonical runs): what the last one
	 * made goes first, or its caches would leak and the list overflow */
	if (sw->used)
		sw_forget(sw);

	for (i = 0; i < n && i < SLUB_HDR_CACHES; i++) {
		struct kmem_cache *s;

		snprintf(name, sizeof(name), "cache%d", i);
		s = kmem_cache_create(name, spec[i].size, 0, spec[i].flags, NULL);
		sw->hdr[i] = s;
		if (!s)
			continue;
		/* the sysfs order file (order_store -> calculate_sizes): a higher
		 * order than calculate_order's, before the cache has a slab */
		if (spec[i].order > oo_order(s->oo)) {
			unsigned int objs = (MODEL_PAGE_SIZE << spec[i].order) / s->size;

			if (objs > SLUB_MAX_OBJECTS)
				objs = SLUB_MAX_OBJECTS;
			s->oo.x = spec[i].order << 16 | objs;
		}
		sw_add(sw, s);
		made++;
	}
	sw->nhdr = i;
	create_kmalloc_caches(0);
	for (i = 0; i < NR_KMALLOC_CLASSES; i++)
		sw_add(sw, kmalloc_caches[i]);
	sw->used = true;
	return made;
}

void slub_world_cache_gone(struct world *w, struct kmem_cache *s)
{
	struct slub_world *sw = sw_of(w);
	int i;

	/* kmalloc_caches[] keeps the pointer (kmalloc_slab may read it from
	 * any task): the run's callers look it up here, NULL from now on; the
	 * others' entries (and the header's numbers below) are read as they
	 * are written, another task may be forgetting its cache beside this
	 * one: relaxed atomics, as TSan saw two destroys of two caches race
	 * on hdr[] */
	for (i = 0; i < sw->n; i++)
		if (slub_world_cache(sw, i) == s)
			__atomic_store_n(&sw->cache[i], NULL, __ATOMIC_RELAXED);
	for (i = 0; i < SLUB_HDR_CACHES; i++)
		if (__atomic_load_n(&sw->hdr[i], __ATOMIC_RELAXED) == s)
			__atomic_store_n(&sw->hdr[i], NULL, __ATOMIC_RELAXED);
}

/* forget the caches without touching their slabs (their pages are the page
 * allocator's to reset) */
static void sw_forget(struct slub_world *sw)
{
	int i;

	for (i = 0; i < sw->n; i++)
		if (sw->cache[i]) {
			free_kmem_cache_node_partial(get_node(sw->cache[i], 0));
			free(sw->cache[i]->cpu_slab);
			free(sw->cache[i]);
		}
	memset(sw, 0, sizeof(*sw));
	memset(kmalloc_caches, 0, sizeof(kmalloc_caches));
	INIT_LIST_HEAD(&slab_caches);
}

static __layer_nocov int slub_create(struct world *w, const struct mm_config *c)
{
	(void)w;
	(void)c;
	return 0;
}

static __layer_nocov void slub_boot(struct world *w)
{
	(void)w;
	/* no cache of another world's run stays on the list this run walks
	 * (slub_cpu_dead): each world frees its own at its reset */
	INIT_LIST_HEAD(&slab_caches);
	mutex_init_named(&slab_mutex, "slab_mutex");
}

static __layer_nocov void slub_reset(struct world *w)
{
	struct slub_world *sw = sw_of(w);

	if (sw->used)
		sw_forget(sw);
}

/* The end of a run: what kfree_rcu still holds freed, then every cache
 * destroyed (the handles were released before: a slab still in use here
 * is kmem_cache_destroy's I-SL-DESTROY). */
static void slub_drain(struct world *w)
{
	struct slub_world *sw = sw_of(w);
	int i;

	if (!sw->used)
		return;
	kfree_rcu_drain();
	for (i = sw->n - 1; i >= 0; i--) {
		struct kmem_cache *s = sw->cache[i];

		if (s) {
			/* out of the list only once destroyed: a destroy that
			 * reports (I-SL-DESTROY) leaves it to the reset to free */
			kmem_cache_destroy(s);
			sw->cache[i] = NULL;
		}
	}
	memset(sw, 0, sizeof(*sw));
	memset(kmalloc_caches, 0, sizeof(kmalloc_caches));
}

static __layer_nocov void slub_destroy(struct world *w)
{
	slub_reset(w);
}

/* a flush of every CPU's slab and partial chain, then a walk of the node's
 * partial list: slabs a CPU and the partial slabs times their objects */
static uint64_t slub_max_op_steps(const struct mm_config *c)
{
	uint64_t cpus = (uint64_t)config_get(c, &ck_cpus);

	return cpus * 64 * (SLUB_CPU_PARTIAL_SLABS + 2) + 4096;
}

static struct world_layer slub_layer = {
	.name = "slub",
	.order = 20,
	.state_size = sizeof(struct slub_world),
	.create = slub_create,
	.boot = slub_boot,
	.reset = slub_reset,
	.drain = slub_drain,
	.destroy = slub_destroy,
	.max_op_steps = slub_max_op_steps,
};
WORLD_LAYER(slub_layer);

__attribute__((constructor)) static void slub_layer_init(void)
{
	cpuhp_setup_state_nocalls(CPUHP_SLUB_DEAD, "slub:dead", NULL, slub_cpu_dead);
}

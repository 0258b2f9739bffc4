// SPDX-License-Identifier: MIT
/*
 * What /proc/slabinfo reads of a SLUB cache: count_partial and
 * get_slabinfo.  Linux 6.6 keeps both in mm/slub.c (count_partial at
 * 2966-2978, get_slabinfo under CONFIG_SLABINFO); the model holds them
 * here because slub.c is near its size limit.
 *
 * count_partial walks the node's partial list under n->list_lock with IRQs
 * off: on a node with long partial lists a reader of /proc/slabinfo holds
 * the lock that every allocation's get_partial_node and every free that
 * empties or unfills a slab waits on.  That is seed 004's stall.
 */
#include "../kernel/bug.h"
#include "../kernel/compiler.h"
#include "slab.h"

int count_free(struct slab *slab)
{
	return slab->objects - slab->inuse;
}

unsigned long count_partial(struct kmem_cache_node *n, int (*get_count)(struct slab *))
{
	unsigned long flags, x = 0;
	struct slab *slab;

	spin_lock_irqsave(&n->list_lock, flags);
	list_for_each_entry(slab, &n->partial, slab_list)
		x += (unsigned long)get_count(slab);
	spin_unlock_irqrestore(&n->list_lock, flags);
	return x;
}

/* get_slabinfo (6.6 mm/slub.c, CONFIG_SLABINFO): every node's slabs and
 * objects from its atomics, the free ones from count_partial (CPU slabs
 * count as fully in use, as in 6.6) */
void get_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo)
{
	unsigned long nr_slabs = 0;
	unsigned long nr_objs = 0;
	unsigned long nr_free = 0;
	struct kmem_cache_node *n = get_node(s, 0);

	/* for_each_kmem_cache_node: the model's one node */
	nr_slabs += node_nr_slabs(n);
	nr_objs += node_nr_objs(n);
	nr_free += count_partial(n, count_free);

	sinfo->active_objs = nr_objs - nr_free;
	sinfo->num_objs = nr_objs;
	sinfo->active_slabs = nr_slabs;
	sinfo->num_slabs = nr_slabs;
	sinfo->shared_avail = 0;
	sinfo->limit = 0;
	sinfo->batchcount = 0;
	sinfo->shared = 0;
	sinfo->objects_per_slab = oo_objects(s->oo);
	sinfo->cache_order = oo_order(s->oo);
}

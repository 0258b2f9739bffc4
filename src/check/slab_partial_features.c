// SPDX-License-Identifier: MIT
/*
 * Seed 004's state feature (state.h; slub_partial_hooks in mm/slab.h):
 *   key 11  a free-counter update of the partial_counters* variants: its
 *           site (__slab_free's lockless or locked add, the unfreeze of a
 *           slab onto the node's list), whether another task holds
 *           n->list_lock meanwhile, and the objects of other frees in
 *           flight, from just before their update (partial_free_begin) to
 *           their add (none, one, more): the windows the
 *           counters' switches live in (a lockless free beside an unfreeze
 *           under the lock; an update beside another's)
 */
#include "state.h"

#include "../mm/slab.h"

static struct state_feature sf_partial;

static __sched_notsan void partial_state(const struct kmem_cache_node *n, int site)
{
	unsigned long held = state_held_by_other(&n->list_lock);
	unsigned long inflight = slab_partial_inflight(n);

	state_feature(&sf_partial, (unsigned long)site << 3 | held << 2 | state_cap(inflight, 2));
}

static void partial_attach(void)
{
	slub_partial_hooks.state_partial = partial_state;
}

static void partial_detach(void)
{
	slub_partial_hooks.state_partial = NULL;
}

static struct state_feature sf_partial = {
	.name = "partial counters", .key = 11, .attach = partial_attach,
	.detach = partial_detach,
};
STATE_FEATURE(sf_partial);

// SPDX-License-Identifier: MIT
/*
 * The SLUB layer's state features (state.h; slub_hooks in mm/slab.h):
 *   key 9   the node's partial list length at add_partial, against
 *           min_partial (below, at, one and two past, more): where
 *           __slab_free and deactivate_slab start discarding empty slabs
 *   key 10  a CPU's partial chain at put_cpu_partial: its slabs against
 *           cpu_partial_slabs, and whether the old chain went to the node
 *           (__unfreeze_partials)
 */
#include "state.h"

#include "../mm/slab.h"

static struct state_feature sf_node_partial, sf_cpu_partial;

static __sched_notsan void node_partial_state(const struct kmem_cache *s, unsigned long nr)
{
	unsigned long min = s->min_partial, b;

	b = nr < min ? 0 : state_cap(nr - min + 1, 4);
	state_feature(&sf_node_partial, b);
}

static __sched_notsan void cpu_partial_state(const struct kmem_cache *s, int slabs, bool unfreeze)
{
	unsigned long over = slabs > (int)s->cpu_partial_slabs;

	state_feature(&sf_cpu_partial, state_cap((unsigned long)(slabs > 0 ? slabs : 0), 7) << 2 |
		      over << 1 | unfreeze);
}

static void node_partial_attach(void)
{
	slub_hooks.state_node_partial = node_partial_state;
}

static void node_partial_detach(void)
{
	slub_hooks.state_node_partial = NULL;
}

static void cpu_partial_attach(void)
{
	slub_hooks.state_cpu_partial = cpu_partial_state;
}

static void cpu_partial_detach(void)
{
	slub_hooks.state_cpu_partial = NULL;
}

static struct state_feature sf_node_partial = {
	.name = "node partial list", .key = 9, .attach = node_partial_attach,
	.detach = node_partial_detach,
};
STATE_FEATURE(sf_node_partial);

static struct state_feature sf_cpu_partial = {
	.name = "cpu partial chain", .key = 10, .attach = cpu_partial_attach,
	.detach = cpu_partial_detach,
};
STATE_FEATURE(sf_cpu_partial);

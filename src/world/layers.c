// SPDX-License-Identifier: MIT
/*
 * What is asked of every world layer beside its life cycle (world.c):
 * the livelock bound's share of each (max_op_steps), and the layers'
 * counters in one snapshot, their stat_size bytes side by side, each at an
 * offset rounded to 8, in layer order, so that the executor and the stress
 * runner know no layer by name.  The bound is asked at every execution:
 * its branches are the registry's, not the input's (__layer_nocov).
 */
#include "world.h"

#include <string.h>

__layer_nocov uint64_t layers_max_op_steps(const struct mm_config *c)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < layers_count(); i++)
		if (layer_by_id(i)->max_op_steps)
			sum += layer_by_id(i)->max_op_steps(c);
	return sum;
}

static size_t stat_off(int id)
{
	size_t off = 0;
	int i;

	for (i = 0; i < id; i++)
		off += (layer_by_id(i)->stat_size + 7) & ~(size_t)7;
	return off;
}

size_t layers_stat_size(void)
{
	return stat_off(layers_count());
}

void layers_stat_snap(struct world *w, void *snap)
{
	int i;

	memset(snap, 0, layers_stat_size());
	for (i = 0; i < layers_count(); i++) {
		const struct world_layer *l = layer_by_id(i);

		if (l->stat_snap)
			l->stat_snap(w, (char *)snap + stat_off(i));
	}
}

void layers_stat_print(FILE *out, const void *a, const void *b, const struct layer_stat_span *s)
{
	int i;

	for (i = 0; i < layers_count(); i++) {
		const struct world_layer *l = layer_by_id(i);

		if (l->stat_print)
			l->stat_print(out, (const char *)a + stat_off(i), (const char *)b + stat_off(i),
				      s);
	}
}

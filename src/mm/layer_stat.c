// SPDX-License-Identifier: MIT
/*
 * Every world layer's counters in one snapshot: the layers' stat_size
 * bytes side by side, each at an offset rounded to 8, in layer order, so
 * the stress runner prints a new layer's counters without knowing it.
 */
#include "mm.h"

#include <string.h>

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

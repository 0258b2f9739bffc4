// SPDX-License-Identifier: MIT
/*
 * The slub layer's owner source (I-CONS; docs/layer-slub.md, "Owners"):
 * every slab page of the run's caches once, and every object the run holds
 * in the slab object space, read from the run's records (ops_slub_run.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "ops_slub_run.h"

#include "../check/check.h"
#include "../check/slab_check.h"

static int cache_number(struct slub_world *sw, const struct kmem_cache *s)
{
	int i;

	for (i = 0; i < sw->n; i++)
		if (sw->cache[i] == s)
			return i;
	return -1;
}

static unsigned long obj_id(const void *p)
{
	return (unsigned long)((const char *)p - (const char *)mm_pa->mem) / sizeof(void *);
}

#define WHO_RCU		0xfffe

static int slab_cmp(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* every slab of every cache once: the CPUs' slabs and partial chains, the
 * node's lists, and the slabs of the objects the run holds (full slabs of a
 * cache without debug are on no list) */
static void slub_collect(struct world *w, struct owner_sink *sk)
{
	struct slub_world *sw = slub_world_of(w);
	struct slub_run *r = slub_run_current();
	static uintptr_t slabs[4096];
	size_t n = 0, i;
	int ci, h;

	if (!sw || !sw->used)
		return;
#define ADD_SLAB(sl) do { if ((sl) && n < sizeof(slabs) / sizeof(slabs[0])) slabs[n++] = (uintptr_t)(sl); } while (0)
	for (ci = 0; ci < sw->n; ci++) {
		struct kmem_cache *s = sw->cache[ci];
		struct kmem_cache_node *nd;
		struct slab *sl;
		int cpu;

		if (!s)
			continue;
		for (cpu = 0; cpu < MAX_CPUS; cpu++) {
			ADD_SLAB(s->cpu_slab[cpu].slab);
			for (sl = s->cpu_slab[cpu].partial; sl; sl = sl->next)
				ADD_SLAB(sl);
		}
		nd = get_node(s, 0);
		list_for_each_entry(sl, &nd->partial, slab_list)
			ADD_SLAB(sl);
		if (kmem_cache_debug(s))
			list_for_each_entry(sl, &nd->full, slab_list)
				ADD_SLAB(sl);
	}
	if (r) {
		for (h = 0; h < PROG_MAX_HANDLES; h++) {
			const struct obj_rec *o = &r->obj[h];

			if (o->state == SREC_FREEING)
				ADD_SLAB(virt_to_slab(o->ptr));
			if (o->state == SREC_LIVE || o->state == SREC_RCU) {
				ADD_SLAB(virt_to_slab(o->ptr));
				owner_add_obj(sk, &slab_objects, obj_id(o->ptr),
					      o->state == SREC_RCU ? WHO_RCU : (unsigned)h);
			}
		}
		for (h = 0; h < SLUB_BULK_RECS; h++) {
			const struct bulk_rec *b = &r->bulk[h];

			for (i = 0; LD(b->used) && i < (size_t)LD(b->n); i++) {
				ADD_SLAB(virt_to_slab(LD(b->p[i])));
				owner_add_obj(sk, &slab_objects, obj_id(LD(b->p[i])), 0x1000u | (unsigned)h);
			}
		}
	}
#undef ADD_SLAB
	qsort(slabs, n, sizeof(slabs[0]), slab_cmp);
	for (i = 0; i < n; i++) {
		struct slab *sl = (struct slab *)slabs[i];

		if (i && slabs[i] == slabs[i - 1])
			continue;
		owner_add(sk, page_to_pfn(slab_page(sl)), 1UL << oo_order(sl->slab_cache->oo),
			  (unsigned)(cache_number(sw, sl->slab_cache) & 0xfff));
	}
}

static void slub_describe(unsigned who, char *buf, size_t n)
{
	if (who == WHO_RCU)
		snprintf(buf, n, "kfree_rcu (waiting for a grace period)");
	else if (who & 0x1000)
		snprintf(buf, n, "bulk record %u", who & 0xfff);
	else
		snprintf(buf, n, "the run's slab cache %u or its handle of op %u", who, who);
}

static const struct owner_source slub_owner = {
	.name = "slub", .collect = slub_collect, .describe = slub_describe,
};
OWNER_SOURCE(slub_owner);

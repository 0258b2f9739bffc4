// SPDX-License-Identifier: MIT
/*
 * SLUB's invariants at quiescence (I-SL; docs/layer-slub.md), read from the
 * model's state and never changing it:
 *   I-SL-FROZEN       no frozen slab on the node's partial list; every
 *                     CPU's slab and CPU partial slab frozen
 *   I-SL-INUSE        a partial slab's freelist holds objects - inuse
 *   I-SL-OWNER        no object on a freelist has an owner cookie
 *   I-SL-NRPARTIAL    nr_partial equals the partial list's length
 *   I-SL-CPUFREELIST  a CPU's freelist stays inside the CPU's slab
 *   I-SL-CPUPARTIAL   a CPU partial chain's slabs count down by one to 1,
 *                     never past cpu_partial_slabs
 * Held elsewhere: one owner per object at every alloc and free (the
 * cookie's exchange in slub.c); page conservation (the page allocator's
 * checks: every slab page back in the zone after destroy).
 */
#include "../mm/slab.h"

/* ---- the quiescent checks (I-SL) ---- */

long slub_objects_inuse(struct kmem_cache *s)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab;
	long x = 0;

	list_for_each_entry(slab, &n->partial, slab_list)
		x += slab->inuse;
	return x;
}

/* the node's partial list (at quiescence, and under n->list_lock: the
 * executor's validator at each acquisition, the validate operation) */
void validate_slab_node(struct kmem_cache *s, struct kmem_cache_node *n)
{
	struct slab *slab;
	unsigned long nr = 0;

	list_for_each_entry(slab, &n->partial, slab_list) {
		unsigned int nfree = 0;
		void *p;

		nr++;
		if (slab->frozen)
			sched_violation("I-SL-FROZEN", __func__, "%s: a frozen slab on the node's list",
					s->name);
		for (p = slab->freelist; p; p = get_freepointer(s, p)) {
			if (++nfree > slab->objects)
				break;
			if (*obj_cookie(s, p) != SLUB_COOKIE_FREE)
				sched_violation("I-SL-OWNER", __func__,
						"%s: object %p on a freelist is owned", s->name, p);
		}
		if (nfree != (unsigned int)(slab->objects - slab->inuse))
			sched_violation("I-SL-INUSE", __func__,
					"%s: %u objects free on the freelist, inuse %u of %u",
					s->name, nfree, slab->inuse, slab->objects);
	}
	if (nr != n->nr_partial)
		sched_violation("I-SL-NRPARTIAL", __func__, "%s: nr_partial %lu, list holds %lu",
				s->name, n->nr_partial, nr);
}

void validate_slab_cache(struct kmem_cache *s)
{
	struct slab *slab;
	int cpu;

	validate_slab_node(s, get_node(s, 0));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
		unsigned int nfree = 0;
		void *p;

		if (c->slab && !c->slab->frozen)
			sched_violation("I-SL-FROZEN", __func__, "%s: cpu%d's slab not frozen",
					s->name, cpu);
		for (p = c->freelist; p; p = get_freepointer(s, p)) {
			if (++nfree > SLUB_MAX_OBJECTS || virt_to_slab(p) != c->slab) {
				sched_violation("I-SL-CPUFREELIST", __func__,
						"%s: cpu%d's freelist leaves its slab at %p",
						s->name, cpu, p);
				break;
			}
			if (*obj_cookie(s, p) != SLUB_COOKIE_FREE)
				sched_violation("I-SL-OWNER", __func__,
						"%s: object %p on cpu%d's freelist is owned",
						s->name, p, cpu);
		}
		for (slab = c->partial; slab; slab = slab->next) {
			if (!slab->frozen)
				sched_violation("I-SL-FROZEN", __func__,
						"%s: cpu%d's partial slab not frozen", s->name, cpu);
			if (slab->slabs != (slab->next ? slab->next->slabs + 1 : 1))
				sched_violation("I-SL-CPUPARTIAL", __func__,
						"%s: cpu%d's partial chain counts %d slabs, %d after",
						s->name, cpu, slab->slabs,
						slab->next ? slab->next->slabs : 0);
			if (slab->slabs > (int)s->cpu_partial_slabs)
				sched_violation("I-SL-CPUPARTIAL", __func__,
						"%s: cpu%d's partial chain %d slabs, past %u",
						s->name, cpu, slab->slabs, s->cpu_partial_slabs);
		}
	}
}

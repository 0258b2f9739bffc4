// SPDX-License-Identifier: MIT
/*
 * What /proc/slabinfo reads of a SLUB cache (src/mm/slub_partial.c):
 * get_slabinfo's slabs and objects from the node's atomics, the free
 * objects from count_partial (a CPU's slab counts as in use).
 */
#include "mm/slab.h"
#include "mm_world.h"
#include "tap.h"

#define NOBJ	40

static void tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_zone_pages, 256);
	config_set(cfg, &ck_pcp_high, 0);
	config_set(cfg, &ck_pcp_batch, 1);
}

int main(void)
{
	struct world *w;
	struct kmem_cache *cache;
	struct slabinfo si;
	void *p[NOBJ];
	unsigned int per;
	int i;

	tap_plan(4);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}
	w = mm_test_boot(tune);
	cache = kmem_cache_create("info16", 16, 0, 0, NULL);
	per = oo_objects(cache->oo);
	for (i = 0; i < NOBJ; i++)
		p[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	get_slabinfo(cache, &si);
	ok(si.num_slabs == (NOBJ + per - 1) / per && si.num_objs == si.num_slabs * per &&
	   si.active_objs == si.num_objs && si.objects_per_slab == per &&
	   si.cache_order == oo_order(cache->oo),
	   "after %d allocations: %lu slabs of %u, %lu objects, %lu active (CPU slab in use)",
	   NOBJ, si.num_slabs, si.objects_per_slab, si.num_objs, si.active_objs);
	for (i = 0; i < NOBJ; i += 2)
		kfree(p[i]);
	flush_all(cache);
	get_slabinfo(cache, &si);
	ok(si.active_objs == NOBJ / 2 && si.active_objs == (unsigned long)slub_objects_inuse(cache),
	   "half freed and flushed: %lu active of %lu (the partial slabs' inuse: %ld)",
	   si.active_objs, si.num_objs, slub_objects_inuse(cache));
	ok(si.num_objs - si.active_objs == count_partial(cache->node[0], count_free),
	   "free objects are count_partial's (%lu)", count_partial(cache->node[0], count_free));
	for (i = 1; i < NOBJ; i += 2)
		kfree(p[i]);
	flush_all(cache);
	kmem_cache_shrink(cache);
	get_slabinfo(cache, &si);
	ok(si.num_slabs == 0 && si.num_objs == 0 && si.active_objs == 0,
	   "all freed and shrunk: %lu slabs, %lu objects", si.num_slabs, si.num_objs);
	kmem_cache_destroy(cache);
	world_destroy(w);
	return tap_done();
}

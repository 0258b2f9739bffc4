/* SPDX-License-Identifier: MIT */
/*
 * What the SLUB unit tests share: the world they boot (one zone of 256
 * pages, pages straight through the pcps so a slab's pages are back in the
 * zone's count at once), its free pages, and the cache a violation left
 * half made.
 */
#ifndef MMFUZZ_TESTS_SLUB_WORLD_H
#define MMFUZZ_TESTS_SLUB_WORLD_H

#include <stdlib.h>

#include "mm/slab.h"
#include "mm_world.h"

static inline void slub_tune(struct mm_config *cfg)
{
	config_set(cfg, &ck_zone_pages, 256);
	config_set(cfg, &ck_pcp_high, 0);
	config_set(cfg, &ck_pcp_batch, 1);
}

static inline void slub_two_cpus(struct mm_config *cfg)
{
	slub_tune(cfg);
	config_set(cfg, &ck_cpus, 2);
}

static inline unsigned long slub_zone_free(struct world *w)
{
	return (unsigned long)zone_page_state(zone_by_idx(w, 0), NR_FREE_PAGES);
}

/* a cache a violation left in a state destroy would refuse: off
 * slab_caches and freed (its pages go with the world's reset) */
static inline void slub_cache_forget(struct kmem_cache *s)
{
	list_del(&s->list);
	free(s->cpu_slab);
	free(s);
}

#endif /* MMFUZZ_TESTS_SLUB_WORLD_H */

/* SPDX-License-Identifier: MIT */
/*
 * The slub world layer (slub_world.c): the caches of the running program,
 * made before any task runs and destroyed at its end.
 */
#ifndef MMFUZZ_MM_SLUB_WORLD_H
#define MMFUZZ_MM_SLUB_WORLD_H

#include <stdbool.h>

#include "slab.h"

#define SLUB_HDR_CACHES		4	/* the header's caches */
#define SLUB_WORLD_CACHES	(SLUB_HDR_CACHES + NR_KMALLOC_CLASSES)

/* a cache the header asks for (kmem_cache_create at boot) */
struct slub_cache_spec {
	unsigned int size;	/* 8..1024 */
	unsigned int order;	/* 0: calculate_order's; else at least it */
	unsigned long flags;	/* SLAB_CONSISTENCY_CHECKS, SLAB_TYPESAFE_BY_RCU */
};

struct slub_world {
	struct kmem_cache *cache[SLUB_WORLD_CACHES];	/* every cache of the run */
	struct kmem_cache *hdr[SLUB_HDR_CACHES];	/* the header's, by number */
	int n, nhdr;
	bool used;					/* a run made caches */
};

/* The running world's. */
struct slub_world *slub_world(void);
struct slub_world *slub_world_of(struct world *w);
/* The header's @n caches, then the kmalloc classes: the caches made */
int slub_world_boot_caches(struct world *w, const struct slub_cache_spec *spec, int n);
/* kmem_cache_destroy freed @s during the run. */
void slub_world_cache_gone(struct world *w, struct kmem_cache *s);

#endif /* MMFUZZ_MM_SLUB_WORLD_H */

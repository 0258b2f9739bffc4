/* SPDX-License-Identifier: MIT */
/*
 * The SLUB checker's surface for the layer's program side
 * (src/prog/ops_slub.c): the slab object owner space its owner source adds
 * the run's objects to; and for the executor's checker (slab_run.c) the
 * debug caches' slab counters, at n->list_lock's release.
 */
#ifndef MMFUZZ_CHECK_SLAB_CHECK_H
#define MMFUZZ_CHECK_SLAB_CHECK_H

#include "check.h"

/* slab objects, by their address in the world's memory over 8 (one owner
 * each: a handle, a bulk record or kfree_rcu) */
extern const struct owner_space slab_objects;

struct kmem_cache;
struct kmem_cache_node;
/* I-SL-NRSLABS of a debug cache (slab.c): nr_slabs and total_objects
 * against its lists and unlisted full slabs, reported at @where */
void slab_nr_slabs_check(struct kmem_cache *s, struct kmem_cache_node *n, const char *where);
/* n->list_lock's release validator (spinlock.h validate_release) */
void slab_list_unlock_validate(void *arg, const char *fn);

#endif /* MMFUZZ_CHECK_SLAB_CHECK_H */

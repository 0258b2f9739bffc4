/* SPDX-License-Identifier: MIT */
/*
 * The SLUB checker's surface for the layer's program side
 * (src/prog/ops_slub.c): the slab object owner space its owner source adds
 * the run's objects to.
 */
#ifndef MMFUZZ_CHECK_SLAB_CHECK_H
#define MMFUZZ_CHECK_SLAB_CHECK_H

#include "check.h"

/* slab objects, by their address in the world's memory over 8 (one owner
 * each: a handle, a bulk record or kfree_rcu) */
extern const struct owner_space slab_objects;

#endif /* MMFUZZ_CHECK_SLAB_CHECK_H */

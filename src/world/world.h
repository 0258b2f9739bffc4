/* SPDX-License-Identifier: MIT */
/*
 * A world: one simulated machine built from a config (config.h), its CPUs
 * and each registered layer's state (layer.h).  The world knows no layer
 * by name: the page allocator's nodes, zones and memmap are its layer's
 * (src/mm/mmzone.h: pagealloc_world), ktorture's its own (src/kernel), like
 * any later layer's.
 *
 *   world.c   the layer registry, a world's life (create, boot, reset,
 *             drain, destroy; the machine's key, cpus, is declared there),
 *             the memory a world's arrays are allocated from, and the cache
 *             of worlds a fuzzing campaign alternates between
 *   layers.c  what is asked of every layer beside its life cycle
 *   config.c  the config table (config.h)
 *
 * src/world depends on src/sched only (the registry, the sanitizers'
 * annotations, MAX_CPUS): the model (src/mm) and the kernel layer
 * (src/kernel/ktorture.c) register into it from above.
 */
#ifndef MMFUZZ_WORLD_WORLD_H
#define MMFUZZ_WORLD_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "layer.h"

struct machine_config {
	int ncpus;			/* 1..MAX_CPUS */
};

struct world {
	struct mm_config config;	/* the keys it was built from */
	struct machine_config cfg;
	void *layer_state[MAX_LAYERS];	/* world_layer_state() */
	int nr_layers_created;
};

/* The world the model runs in: like the kernel's globals. */
extern struct world *mm_world;

/* The machine's key (world.c). */
extern struct config_key ck_cpus;

/* A world for @cfg (config_check must pass), in its boot state. */
int world_create(const struct mm_config *cfg, struct world **out);
void world_destroy(struct world *w);
/* Back to the state right after boot, paying only for what was touched. */
void world_reset(struct world *w);
/* The end of a run, on the caller's task: every layer gives back what it
 * caches (later layers first). */
void world_drain(struct world *w);
void *world_layer_state(struct world *w, const struct world_layer *l);

/* ---- world memory (world.c) ---- */

/* The alignment of a world's arrays and of struct world: a pair of 64-byte
 * lines, the kernel's PERCPU_SLOT_BYTES (src/mm/mmzone.h asserts they
 * agree: the layers put ____percpu_aligned structures in them). */
#define WORLD_MEM_ALIGN		128

/*
 * A world's arrays: what a layer's create allocates and its destroy gives
 * back.  Zeroed, aligned to WORLD_MEM_ALIGN.  A freed block is kept mapped
 * for the next world (a fuzzing campaign builds one at every configuration
 * the world cache misses), poisoned for ASan until then; world_calloc
 * takes a kept block of the same power-of-two class.
 */
void *world_calloc(size_t n, size_t size);
/* The same, not zeroed: for a large array the layer initialises where it
 * uses it (a memset of all of it would touch pages no run does). */
void *world_malloc(size_t n, size_t size);
void world_free(void *p);
/*
 * world_free of an array whose bytes, all those its world_calloc or
 * world_malloc asked for, are zero again (its layer reset it by touch): the
 * next world_calloc of its class clears none of them.  A promise the tests
 * check (wmem_verify_zero: abort on a byte that is not zero).
 */
void world_free_zeroed(void *p);
/*
 * An array ASan keeps poisoned, all of it, until the layer unpoisons the
 * parts it uses (world_mem_open): a large array of which a run uses a few
 * parts pays ASan's shadow for those, not for all of it, at every world
 * built and destroyed.  world_free_poisoned: the layer has poisoned again
 * all it unpoisoned.  Without ASan, world_malloc and world_free.
 */
void *world_malloc_poisoned(size_t n, size_t size);
void world_free_poisoned(void *p);
/* Unpoison (open) and poison again (close) @n bytes at @p of such an
 * array: these, not san_*, from code that may be built without ASan. */
void world_mem_open(void *p, size_t n);
void world_mem_close(void *p, size_t n);
extern bool wmem_verify_zero;
/* the tests: world_calloc and world_malloc take new memory, no kept block */
extern bool wmem_fresh;
/* world_calloc's bytes so far: those it cleared, those a kept block had zero */
extern unsigned long wmem_zeroed_bytes, wmem_clean_bytes;

/* ---- the world cache (world.c) ---- */

/*
 * Worlds kept by configuration: a fuzzing campaign alternates between a few
 * configurations, and building a world costs more than resetting one.
 * world_get returns a world for @cfg in its boot state (a cached one of the
 * same shape reset and re-tuned, or a new one in place of the least
 * recently used) and makes it mm_world.
 */
#define WORLD_CACHE_SLOTS 16
struct world_cache {
	struct {
		struct world *w;
		struct mm_config cfg;
		unsigned long used;
	} slot[WORLD_CACHE_SLOTS];
	int nslots;			/* slots in use: WORLD_CACHE_SLOTS when 0 */
	unsigned long tick;
	/* world_get's answers: the same config, the same shape re-tuned, built */
	unsigned long hits, tuned, misses;
};
int world_get(struct world_cache *c, const struct mm_config *cfg, struct world **out);
void world_cache_destroy(struct world_cache *c);

#endif /* MMFUZZ_WORLD_WORLD_H */

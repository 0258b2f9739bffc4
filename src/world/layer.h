/* SPDX-License-Identifier: MIT */
/*
 * World layers.  Each kernel mechanism the model holds (the page allocator,
 * later TLB gather with its address spaces, SLUB, compaction, deferred init)
 * registers itself with WORLD_LAYER() in its own file, and the world calls it:
 *
 *   create   allocate the layer's state for a config (world_create)
 *   boot     the state right after boot; runs after create and after
 *            every reset, in layer order (a layer may boot partly
 *            uninitialised: deferred init)
 *   reset    undo what the last run touched, paying for what it touched
 *   tune     take the values of the config's tune keys (config.h) from
 *            @c: a cached world of the same shape is re-used for another
 *            config by reset, tune, boot; optional when a layer has none
 *   drain    end of a run, on the executor's task: give back everything
 *            the layer caches, so the final checks see an idle machine;
 *            later layers drain first (they allocate from earlier ones)
 *   destroy  free the state
 *   max_op_steps
 *            the yield points one of the layer's operations may pass
 *            without progress on the machine @c describes (a drain of
 *            every pcp, a sweep of a zone): the executor's livelock bound
 *            adds every layer's, so a large machine is not a livelock;
 *            optional (0)
 *   stat_snap, stat_print
 *            the layer's counters for the stress runner: stat_snap copies
 *            them into stat_size bytes while the tasks are parked (after
 *            the workload's quiesce), stat_print prints what changed from
 *            snapshot a to b as LKP "model.KEY: value" lines; every layer's,
 *            in layer order (layers.c); optional
 *
 * Layers are ordered by @order (the page allocator is 0); their ids follow
 * that order.  A layer's per-world state is world_layer_state(w, &layer).
 * Orders from LAYER_ORDER_CHECKER on are the checkers' memory for a world
 * (src/check): they come after every model layer and have a capacity of
 * their own, so a model layer and its checker state take one place of
 * MAX_MODEL_LAYERS, not two.  Two layers of one name, or more than a
 * capacity holds, stop the tool at start (registry.h).
 */
#ifndef MMFUZZ_WORLD_LAYER_H
#define MMFUZZ_WORLD_LAYER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "../sched/registry.h"

#define MAX_MODEL_LAYERS	8	/* orders below LAYER_ORDER_CHECKER */
#define MAX_CHECKER_LAYERS	8	/* orders from LAYER_ORDER_CHECKER on */
#define MAX_LAYERS		(MAX_MODEL_LAYERS + MAX_CHECKER_LAYERS)
#define LAYER_ORDER_CHECKER	1000

struct world;

/* What a stat_print compares over: the measurement between two snapshots. */
struct layer_stat_span {
	uint64_t run_ns;		/* its length */
	double ns_per_cycle;		/* the TSC's rate over it (lock hold times) */
	unsigned long long ops;		/* the workload's operations in it */
};

struct world_layer {
	const char *name;
	int order;
	size_t state_size;		/* zeroed bytes of per-world state, or 0 */
	int (*create)(struct world *w, const struct mm_config *c);	/* 0 or -errno */
	void (*boot)(struct world *w);
	void (*reset)(struct world *w);
	void (*tune)(struct world *w, const struct mm_config *c);
	void (*drain)(struct world *w);
	void (*destroy)(struct world *w);
	uint64_t (*max_op_steps)(const struct mm_config *c);
	size_t stat_size;
	void (*stat_snap)(struct world *w, void *snap);
	void (*stat_print)(FILE *out, const void *a, const void *b, const struct layer_stat_span *s);
	int id;				/* filled by layers_init() */
};

/*
 * A layer hook in a file the fuzz builds instrument for coverage: what it
 * does depends on the world before it (a world built or taken from the
 * cache, what the last run of the world destroyed touched), not on the
 * input, and an engine would take its branches for the input's coverage.
 * src/world/ (but layers.c) and src/mm/mm_init.c are not instrumented at all
 * (Makefile NOINST_SRCS).
 */
#define __layer_nocov __attribute__((no_sanitize("coverage")))

#define WORLD_LAYER(layer)							\
	REGISTER(mmfuzz_layers, const struct world_layer *, __wlp_##layer, &(layer))

void layers_init(void);
int layers_count(void);
const struct world_layer *layer_by_id(int id);
const struct world_layer *layer_lookup(const char *name);
/* The sum of every layer's max_op_steps(@c) (layers.c). */
uint64_t layers_max_op_steps(const struct mm_config *c);

/* Every layer's stat snapshot, side by side (layers.c): its bytes. */
size_t layers_stat_size(void);
void layers_stat_snap(struct world *w, void *snap);
void layers_stat_print(FILE *out, const void *a, const void *b, const struct layer_stat_span *s);

#endif /* MMFUZZ_WORLD_LAYER_H */

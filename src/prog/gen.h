/* SPDX-License-Identifier: MIT */
/*
 * The program generator: programs built from the descriptors (ops.h) with
 * the relations between operations, deterministic from a seed.  An op that
 * takes a handle of kind K gets one some op made (.defines == K), most
 * often one made in another task; an op with .frees ends a live handle,
 * most often another task's; ARG_ZONE args share the program's hot zone,
 * ARG_CPU args name a CPU some task runs on (a remote drain of a busy
 * CPU), two tasks share a CPU now and then (an irq op then interrupts the
 * other).  Nothing here names an operation: a new layer's descriptors with
 * .defines and handle args get the same treatment (docs/fuzzing.md,
 * "The generator").
 *
 * The mutations (gen_mutate) take a program and add one relation: an op
 * that uses a live handle of the right kind in another task, an arg
 * retargeted to another existing handle, or a producer/consumer pair spliced
 * across two tasks.  The schedule part is left as it is.
 */
#ifndef MMFUZZ_PROG_GEN_H
#define MMFUZZ_PROG_GEN_H

#include <stdint.h>

#include "prog.h"

/* A fresh program of target @t (NULL: "mm") from @seed: 2-4 tasks, up to
 * @nops operations (0: 24), fallback PCT; canonical. */
void gen_program(struct prog *p, const struct fuzz_target *t, uint64_t seed, int nops);

enum gen_mutation {
	GEN_INSERT,		/* a related op: a live handle's use, in another task */
	GEN_RETARGET,		/* a handle arg names another handle of its kind */
	GEN_SPLICE,		/* a producer in one task, its consumer in another */
	GEN_NMUTATIONS,
};

/* Apply one mutation @m (or a random one when @m < 0) to @p; false if
 * none applied (nothing to retarget, no room).  @p stays canonical. */
bool gen_mutate(struct prog *p, const struct fuzz_target *t, uint64_t *rng, int m);

/* Does some op use a handle that an op in another task made? */
bool gen_cross_task(const struct prog *p);

#endif /* MMFUZZ_PROG_GEN_H */

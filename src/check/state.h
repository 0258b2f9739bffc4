/* SPDX-License-Identifier: MIT */
/*
 * State as coverage: a layer's state features, registered from its own
 * checker files (STATE_FEATURE), as config keys and bug switches are.  A
 * feature is a key fixed forever (the engine hashes (key, bucket) into its
 * feature map: a key changed is every campaign's state features renamed),
 * a name the tests print, and the attach and detach functions that set and
 * clear its layer's state_* hook (HOOK(layer, state_..., ...) in the model,
 * the layer's hooks struct).  The hook buckets what it sees and calls
 * state_feature().  Two features of one key stop the tool at start.
 *
 *	static __sched_notsan void gather_state(const struct mmu_gather *tlb, bool finish)
 *	{
 *		state_feature(&sf_gather, ...bucket...);
 *	}
 *	static void gather_attach(void) { tlb_hooks.state_gather = gather_state; }
 *	static void gather_detach(void) { tlb_hooks.state_gather = NULL; }
 *	static struct state_feature sf_gather = {
 *		.name = "live gathers", .key = 6,
 *		.attach = gather_attach, .detach = gather_detach,
 *	};
 *	STATE_FEATURE(sf_gather);
 *
 * Only the fuzz harness attaches them (check_state_attach, check.h); nothing
 * here changes the model or yields: every look is STATE_LOAD (a relaxed,
 * uninstrumented load), so a run's steps and trace are the same with the
 * features or without.  Keys given: 1..5 the page allocator's
 * (pagealloc_features.c), 6 the TLB layer's (tlb_features.c), 7..8 the
 * kernel primitives' (state.c).
 */
#ifndef MMFUZZ_CHECK_STATE_H
#define MMFUZZ_CHECK_STATE_H

#include "../kernel/spinlock.h"
#include "../sched/registry.h"
#include "../sched/san.h"

struct state_feature {
	const char *name;		/* "watermarks" */
	unsigned key;			/* fixed forever, 1..STATE_MAX_KEY */
	void (*attach)(void);		/* set the layer's state_* hook */
	void (*detach)(void);		/* and clear it */
	unsigned long hits;		/* since start (check_state_hits) */
};
#define STATE_MAX_KEY	255
#define STATE_FEATURE(f)							\
	REGISTER(mmfuzz_state_features, struct state_feature *, __sfp_##f, &(f))

/* A look at the model's state: not TSan-instrumented, as the scheduler's
 * peeks at the model are not (sched/san.h): the fibers of a TSan build
 * share one host thread, and a look is no access of the model's. */
#define STATE_LOAD(x)	sched_peek(x)

/* Feed (f->key, @bucket) to the engine's feature sink (sched/ilv_state.c). */
void state_feature(struct state_feature *f, unsigned long bucket);
/* Another task holds @l: an update of what it protects is in flight. */
unsigned state_held_by_other(const spinlock_t *l);
/* @v, at most @max. */
static inline unsigned state_cap(unsigned long v, unsigned long max)
{
	return (unsigned)(v < max ? v : max);
}

/* The registered features, in key order. */
int check_state_count(void);
const struct state_feature *check_state_by_index(int i);
const struct state_feature *check_state_lookup(const char *name);

#endif /* MMFUZZ_CHECK_STATE_H */

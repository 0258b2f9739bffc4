// SPDX-License-Identifier: MIT
/*
 * State as coverage (the IJON idea): the model's hooks at the places where
 * allocator bugs live (their state_* members: mm/page_alloc_hooks.h,
 * mm/mm_types.h's tlb_hooks, kernel/hooks.h) see the state there, and a
 * layer's feature (state.h: registered from the layer's own checker file,
 * pagealloc_features.c, tlb_features.c, the kernel primitives' below) folds
 * it into a small bucket, a (key, bucket) feature the engine counts beside
 * the edges and the interleavings (sched/ilv_state.c).  A program that
 * brings a zone below its min watermark for the first time, or a pcp above
 * its high, or three gathers live on one mm, is progress to the engine even
 * when it took no new branch.
 *
 * This file is the registry, the sink and the kernel primitives' two
 * features.  Only the fuzz harness attaches them (check_state_attach,
 * unless MMFUZZ_STATE=0).
 */
#include "check.h"
#include "state.h"

#include <pthread.h>
#include <stdlib.h>

#include "../kernel/cpumask.h"
#include "../kernel/hooks.h"
#include "../kernel/percpu_counter.h"
#include "../sched/ilv.h"
#include "../sched/sched.h"

REGISTRY_SECTION(mmfuzz_state_features);

#define MAX_STATE_FEATURES	32
static struct state_feature *features[MAX_STATE_FEATURES];
static int nfeatures;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static int cmp_key(const void *a, const void *b)
{
	unsigned x = ((const struct state_feature *)a)->key;
	unsigned y = ((const struct state_feature *)b)->key;

	return x < y ? -1 : x > y;
}

static const char *feature_name(const void *e)
{
	return ((const struct state_feature *)e)->name;
}

static const struct registry features_registry = {
	.what = "state feature", .limit = "MAX_STATE_FEATURES in src/check/state.c",
	REGISTRY_BOUNDS(mmfuzz_state_features), .cap = MAX_STATE_FEATURES,
	.key = cmp_key, .keyname = "key", .name = feature_name,
};

static void features_collect(void)
{
	int i;

	nfeatures = (int)registry_collect(&features_registry, (const void **)features);
	for (i = 0; i < nfeatures; i++)
		if (features[i]->key < 1 || features[i]->key > STATE_MAX_KEY ||
		    !features[i]->attach || !features[i]->detach) {
			fprintf(stderr, "mmfuzz: state feature %s: a key from 1 to %d, attach "
				"and detach\n", features[i]->name, STATE_MAX_KEY);
			abort();
		}
}

static void features_init(void)
{
	pthread_once(&features_once, features_collect);
}

int check_state_count(void)
{
	features_init();
	return nfeatures;
}

const struct state_feature *check_state_by_index(int i)
{
	features_init();
	return i >= 0 && i < nfeatures ? features[i] : NULL;
}

const struct state_feature *check_state_lookup(const char *name)
{
	features_init();
	return registry_lookup(&features_registry, (const void *const *)features,
			       (size_t)nfeatures, name);
}

__sched_notsan void state_feature(struct state_feature *f, unsigned long bucket)
{
	f->hits++;	/* the fibers of one thread */
	ilv_state(f->key, bucket);
}

__sched_notsan unsigned state_held_by_other(const spinlock_t *l)
{
	struct task *owner = STATE_LOAD(l->sl.owner);

	return owner && owner != current_task;
}

void check_state_attach(void)
{
	int i;

	features_init();
	for (i = 0; i < nfeatures; i++)
		features[i]->attach();
}

void check_state_detach(void)
{
	int i;

	features_init();
	for (i = 0; i < nfeatures; i++)
		features[i]->detach();
}

/* ---- the kernel primitives' features: keys 7, 8 ---- */

static struct state_feature sf_cpuhp, sf_pcpu;

/* A hotplug callback: which state, which way, how many CPUs online */
static __sched_notsan void cpuhp_state(unsigned int cpu, int state, bool bringup)
{
	(void)cpu;
	state_feature(&sf_cpuhp, (unsigned long)state << 5 | bringup << 4 |
		      state_cap((unsigned long)__builtin_popcountl(STATE_LOAD(__cpu_online_mask.bits)),
				15));
}

/* A percpu counter's per-CPU count against its batch, in quarters, signed */
static __sched_notsan void pcpu_state(const struct percpu_counter *fbc, long long count, int batch)
{
	unsigned long q = batch > 0 ? (unsigned long)((count < 0 ? -count : count) * 4 / batch) : 0;

	(void)fbc;
	state_feature(&sf_pcpu, state_cap(q, 5) << 1 | (count < 0));
}

static void cpuhp_attach(void)
{
	kernel_hooks.state_cpuhp = cpuhp_state;
}

static void cpuhp_detach(void)
{
	kernel_hooks.state_cpuhp = NULL;
}

static void pcpu_attach(void)
{
	kernel_hooks.state_pcpu = pcpu_state;
}

static void pcpu_detach(void)
{
	kernel_hooks.state_pcpu = NULL;
}

static struct state_feature sf_cpuhp = {
	.name = "CPU hotplug", .key = 7, .attach = cpuhp_attach, .detach = cpuhp_detach,
};
STATE_FEATURE(sf_cpuhp);
static struct state_feature sf_pcpu = {
	.name = "percpu counter drift", .key = 8, .attach = pcpu_attach, .detach = pcpu_detach,
};
STATE_FEATURE(sf_pcpu);

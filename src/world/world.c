// SPDX-License-Identifier: MIT
/*
 * A world: one simulated machine built from a config, made of the layers
 * that registered themselves (layer.h), and the cache of worlds a fuzzing
 * campaign alternates between.  The world knows no layer by name: the page
 * allocator's memmap, zones and pcps are built by its layer
 * (src/mm/mm_init.c) like any other, and so is the kernel layer
 * (src/kernel/ktorture.c).  src/world uses src/sched only (world.h).
 *
 * The machine's own key, the number of CPUs, is declared here.
 */
#include "world.h"

#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sched/san.h"
#include "../sched/sched.h"	/* MAX_CPUS */

struct world *mm_world;

struct config_key ck_cpus = {
	.name = "cpus", .layer = "machine",
	.desc = "simulated CPUs (tasks run on them; per-CPU data is per simulated CPU)",
	.lo = 1, .hi = MAX_CPUS, .def = 2, .bin_off = 0, .bin_len = 1, .shrink = true,
};
CONFIG_KEY(ck_cpus);

/* ---- the layer registry ---- */

REGISTRY_SECTION(mmfuzz_layers);

static const struct world_layer *layers[MAX_LAYERS];
static int nlayers;
static pthread_once_t layers_once = PTHREAD_ONCE_INIT;

static int cmp_layer_name(const void *a, const void *b)
{
	return strcmp(((const struct world_layer *)a)->name, ((const struct world_layer *)b)->name);
}

static int cmp_layer(const void *a, const void *b)
{
	const struct world_layer *x = a, *y = b;

	return x->order != y->order ? x->order - y->order : strcmp(x->name, y->name);
}

static const char *layer_name(const void *e)
{
	return ((const struct world_layer *)e)->name;
}

static const struct registry layers_registry = {
	.what = "world layer", .limit = "MAX_MODEL_LAYERS + MAX_CHECKER_LAYERS in src/world/layer.h",
	REGISTRY_BOUNDS(mmfuzz_layers), .cap = MAX_LAYERS,
	.key = cmp_layer_name, .order = cmp_layer, .name = layer_name,
};

static void layers_build(void)
{
	size_t n = registry_collect(&layers_registry, (const void **)layers), i, model = 0;

	for (i = 0; i < n; i++) {
		model += layers[i]->order < LAYER_ORDER_CHECKER;
		((struct world_layer *)layers[i])->id = (int)i;
	}
	if (model > MAX_MODEL_LAYERS || n - model > MAX_CHECKER_LAYERS) {
		fprintf(stderr, "mmfuzz: registry of world layers: %zu model and %zu checker-state "
			"layers, more than the %d and %d this build holds (MAX_MODEL_LAYERS, "
			"MAX_CHECKER_LAYERS in src/world/layer.h)\n", model, n - model,
			MAX_MODEL_LAYERS, MAX_CHECKER_LAYERS);
		abort();
	}
	nlayers = (int)n;
}

void layers_init(void)
{
	pthread_once(&layers_once, layers_build);
}

int layers_count(void)
{
	layers_init();
	return nlayers;
}

const struct world_layer *layer_by_id(int id)
{
	layers_init();
	return id >= 0 && id < nlayers ? layers[id] : NULL;
}

const struct world_layer *layer_lookup(const char *name)
{
	layers_init();
	return registry_lookup(&layers_registry, (const void *const *)layers, (size_t)nlayers, name);
}

/* ---- a world ---- */

/*
 * World memory.  Each block has a header of one line pair before it: its
 * size class and the bytes last asked of it.  Kept blocks are whole-poisoned
 * (header too), so a layer that touches an array of a destroyed world is a
 * use-after-poison report, as a use-after-free was; a block in use has the
 * tail past what was asked poisoned (an overflow that stays inside the
 * class is still caught).  The kept blocks are listed here, not linked
 * through their poisoned headers, where LeakSanitizer would not see them.
 * At most WMEM_KEEP bytes and WMEM_PER_CLASS blocks a class are kept;
 * beyond that a freed block goes back to malloc.
 *
 * A kept block remembers how many of its leading bytes are known to be
 * zero: those its last user asked for when it gave the block back with
 * world_free_zeroed (an array its layer keeps at zero between runs, reset
 * by touch: the block is as world_calloc would make it), none after
 * world_free.  world_calloc takes the kept block of the class with the most
 * known zeros and clears only the rest, so a world built in place of
 * another of a different shape pays for what the last one touched, not for
 * the size of its arrays.  wmem_verify_zero (the tests) checks each such
 * promise and aborts on a broken one.
 */
#define WMEM_HDR	WORLD_MEM_ALIGN
#define WMEM_MIN_SHIFT	7		/* 128 bytes: the smallest class */
#define WMEM_CLASSES	40
#define WMEM_PER_CLASS	64
#define WMEM_KEEP	(256UL << 20)

struct wmem_hdr {
	unsigned int cls;
	size_t asked;			/* bytes the block's user asked for */
	size_t zero;			/* leading bytes zero as it was taken */
};

static struct wmem_kept {
	void *h;			/* the header */
	size_t zero;			/* leading bytes known to be zero */
} wmem_kept[WMEM_CLASSES][WMEM_PER_CLASS];
static int wmem_nkept[WMEM_CLASSES];
static size_t wmem_kept_bytes;
static pthread_mutex_t wmem_lock = PTHREAD_MUTEX_INITIALIZER;

bool wmem_verify_zero, wmem_fresh;
/* world_calloc's bytes: cleared, and found zero in a kept block */
unsigned long wmem_zeroed_bytes, wmem_clean_bytes;

static unsigned int wmem_class(size_t bytes)
{
	unsigned int cls = WMEM_MIN_SHIFT;

	while (cls < WMEM_CLASSES - 1 && (1UL << cls) < bytes)
		cls++;
	return cls;
}

/* The kept block of class @cls to use for @bytes: for world_calloc the one
 * with the most known zeros (the first that has enough), for world_malloc
 * the one with the fewest (it keeps the others for a calloc). */
static int wmem_pick(unsigned int cls, size_t bytes, bool zero)
{
	int i, best = wmem_nkept[cls] - 1;

	for (i = best; i >= 0; i--) {
		size_t z = wmem_kept[cls][i].zero, b = wmem_kept[cls][best].zero;

		if (zero ? b >= bytes : !b)
			break;
		if (zero ? z > b : z < b)
			best = i;
	}
	return best;
}

/* @poisoned: the bytes asked for stay poisoned (world_malloc_poisoned) */
static void *wmem_alloc(size_t n, size_t size, bool zero, bool poisoned)
{
	size_t bytes = n * size > 0 ? n * size : 1, known = 0;
	struct wmem_hdr *h = NULL;
	bool kept = false;
	unsigned int cls;
	void *p;
	int at;

	if (size && n > SIZE_MAX / size)
		return NULL;
	cls = wmem_class(bytes);
	if ((1UL << cls) < bytes)
		return NULL;
	pthread_mutex_lock(&wmem_lock);
	if (wmem_nkept[cls] && !wmem_fresh) {
		at = wmem_pick(cls, bytes, zero);
		h = wmem_kept[cls][at].h;
		known = wmem_kept[cls][at].zero;
		wmem_kept[cls][at] = wmem_kept[cls][--wmem_nkept[cls]];
		wmem_kept_bytes -= WMEM_HDR + (1UL << cls);
		kept = true;
	}
	pthread_mutex_unlock(&wmem_lock);
	if (!kept) {
		if (posix_memalign((void **)&h, WORLD_MEM_ALIGN, WMEM_HDR + (1UL << cls)))
			return NULL;
	} else {
		san_unpoison(h, WMEM_HDR);
	}
	h->cls = cls;
	h->asked = bytes;
	h->zero = known;		/* bytes past @bytes stay as they were */
	san_poison(h, WMEM_HDR);
	p = (char *)h + WMEM_HDR;
	if (poisoned) {
		if (!kept)
			san_poison(p, 1UL << cls);
		return p;
	}
	san_unpoison(p, bytes);
	if (zero && known < bytes) {
		memset((char *)p + known, 0, bytes - known);
		__atomic_fetch_add(&wmem_zeroed_bytes, bytes - known, __ATOMIC_RELAXED);
	}
	if (zero)
		__atomic_fetch_add(&wmem_clean_bytes, known < bytes ? known : bytes,
				   __ATOMIC_RELAXED);
	/* a kept block's tail is poisoned already (whole-poisoned) */
	if (!kept)
		san_poison((char *)p + bytes, (1UL << cls) - bytes);
	return p;
}

void *world_calloc(size_t n, size_t size)
{
	return wmem_alloc(n, size, true, false);
}

void *world_malloc(size_t n, size_t size)
{
	return wmem_alloc(n, size, false, false);
}

void *world_malloc_poisoned(size_t n, size_t size)
{
	return wmem_alloc(n, size, false, true);
}

/* @poisoned: the user poisoned again all it unpoisoned (world_free_poisoned) */
static void wmem_free(void *p, bool zeroed, bool poisoned)
{
	struct wmem_hdr *h;
	size_t cap, asked, known, plen;
	unsigned int cls;

	if (!p)
		return;
	h = (struct wmem_hdr *)((char *)p - WMEM_HDR);
	san_unpoison(h, sizeof(*h));
	cls = h->cls;
	asked = h->asked;
	/* zeroed: what the user asked for, and what was zero past it */
	known = zeroed ? (asked > h->zero ? asked : h->zero) : 0;
	cap = 1UL << cls;
	/* what is unpoisoned */
	plen = poisoned ? 0 : zeroed && wmem_verify_zero ? known : asked;
	if (zeroed && wmem_verify_zero) {
		const unsigned char *b = p;
		size_t i;

		san_unpoison(p, known);		/* poisoned again below */
		for (i = 0; i < known; i++)
			if (b[i]) {
				fprintf(stderr, "mmfuzz: world_free_zeroed: byte %zu of %zu (%zu asked) "
					"is %#x\n", i, known, asked, b[i]);
				abort();
			}
	}
	pthread_mutex_lock(&wmem_lock);
	if (wmem_nkept[cls] < WMEM_PER_CLASS && wmem_kept_bytes + WMEM_HDR + cap <= WMEM_KEEP) {
		wmem_kept[cls][wmem_nkept[cls]++] = (struct wmem_kept){ h, known };
		wmem_kept_bytes += WMEM_HDR + cap;
		/* the tail past what was asked has been poisoned since the
		 * block was taken: the header and the rest make it whole
		 * (ASan's granules are 8 bytes, the class at least 128) */
		san_poison(h, WMEM_HDR + ((plen + 7) & ~7UL));
		h = NULL;
	}
	pthread_mutex_unlock(&wmem_lock);
	if (h) {
		san_unpoison(h, WMEM_HDR + cap);
		free(h);
	}
}

void world_free(void *p)
{
	wmem_free(p, false, false);
}

void world_free_zeroed(void *p)
{
	wmem_free(p, true, false);
}

void world_free_poisoned(void *p)
{
	wmem_free(p, false, true);
}

/* here, in the model's objects: the checkers' are not compiled for ASan
 * in the fuzz builds, where their san_poison would be nothing */
void world_mem_open(void *p, size_t n)
{
	san_unpoison(p, n);
}

void world_mem_close(void *p, size_t n)
{
	san_poison(p, n);
}

static void world_boot(struct world *w)
{
	int i;

	mm_world = w;
	for (i = 0; i < nlayers; i++)
		if (layers[i]->boot)
			layers[i]->boot(w);
}

int world_create(const struct mm_config *cfg, struct world **out)
{
	struct world *w;
	int i, rc;

	layers_init();
	if (config_check(cfg, NULL, (char[128]){ 0 }, 128))
		return -EINVAL;
	w = world_calloc(1, sizeof(*w));	/* WORLD_MEM_ALIGN */
	if (!w)
		return -ENOMEM;
	w->config = *cfg;
	w->cfg.ncpus = (int)config_get(cfg, &ck_cpus);
	mm_world = w;
	for (i = 0; i < nlayers; i++) {
		if (layers[i]->state_size) {
			w->layer_state[i] = world_calloc(1, layers[i]->state_size);
			if (!w->layer_state[i])
				goto out_nomem;
		}
		rc = layers[i]->create ? layers[i]->create(w, cfg) : 0;
		if (rc) {
			/* layers up to this one clean up after themselves */
			w->nr_layers_created = i + 1;
			world_destroy(w);
			return rc;
		}
	}
	w->nr_layers_created = nlayers;
	world_boot(w);
	*out = w;
	return 0;

out_nomem:
	w->nr_layers_created = i;
	world_destroy(w);
	return -ENOMEM;
}

void world_destroy(struct world *w)
{
	int i;

	if (!w)
		return;
	for (i = w->nr_layers_created - 1; i >= 0; i--) {
		if (layers[i]->destroy)
			layers[i]->destroy(w);
		world_free(w->layer_state[i]);
	}
	if (mm_world == w)
		mm_world = NULL;
	world_free(w);
}

/* Back to boot, with @cfg's tune keys when @cfg is not NULL (the same
 * shape as w->config: world_get). */
static void __world_reset(struct world *w, const struct mm_config *cfg)
{
	int i;

	mm_world = w;
	for (i = nlayers - 1; i >= 0; i--)
		if (layers[i]->reset)
			layers[i]->reset(w);
	if (cfg) {
		w->config = *cfg;
		for (i = 0; i < nlayers; i++)
			if (layers[i]->tune)
				layers[i]->tune(w, cfg);
	}
	world_boot(w);
}

void world_reset(struct world *w)
{
	__world_reset(w, NULL);
}

void world_drain(struct world *w)
{
	int i;

	for (i = nlayers - 1; i >= 0; i--)
		if (layers[i]->drain)
			layers[i]->drain(w);
}

void *world_layer_state(struct world *w, const struct world_layer *l)
{
	return w->layer_state[l->id];
}

/* ---- the cache ---- */

/*
 * The same shape: every key but the tune keys equal.  A tune key sizes
 * nothing and its layer's tune() sets it at a reset, so a world of the same
 * shape serves another tuning (a campaign's corpus holds about three
 * configurations for each shape: pcp_high, stat_threshold, variant, ...).
 */
static bool same_shape(const struct mm_config *a, const struct mm_config *b)
{
	int id, n = config_nkeys();

	for (id = 0; id < n; id++)
		if (!config_key_by_id(id)->tune && a->v[id] != b->v[id])
			return false;
	return true;
}

int world_get(struct world_cache *c, const struct mm_config *cfg, struct world **out)
{
	int i, victim = 0, n = c->nslots > 0 && c->nslots < WORLD_CACHE_SLOTS ? c->nslots
									  : WORLD_CACHE_SLOTS;

	c->tick++;
	for (i = 0; i < n; i++) {
		if (c->slot[i].w && same_shape(&c->slot[i].cfg, cfg)) {
			if (memcmp(&c->slot[i].cfg, cfg, sizeof(*cfg))) {
				__world_reset(c->slot[i].w, cfg);
				c->slot[i].cfg = *cfg;
				c->tuned++;
			} else {
				world_reset(c->slot[i].w);
				c->hits++;
			}
			c->slot[i].used = c->tick;
			*out = c->slot[i].w;
			return 0;
		}
		if (!c->slot[i].w || (c->slot[victim].w && c->slot[i].used < c->slot[victim].used))
			victim = i;
	}
	c->misses++;
	world_destroy(c->slot[victim].w);
	c->slot[victim].w = NULL;
	if (world_create(cfg, &c->slot[victim].w))
		return -1;
	c->slot[victim].cfg = *cfg;
	c->slot[victim].used = c->tick;
	*out = c->slot[victim].w;
	return 0;
}

void world_cache_destroy(struct world_cache *c)
{
	int i;

	for (i = 0; i < WORLD_CACHE_SLOTS; i++) {
		world_destroy(c->slot[i].w);
		c->slot[i].w = NULL;
	}
}

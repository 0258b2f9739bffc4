// SPDX-License-Identifier: MIT
/*
 * The shadow of what the program holds: each live page handle's block,
 * the handle owning each pfn, and the owner cookie in the block's memory.
 * A block handed out while a handle holds it is I-CONS at that allocation;
 * a cookie someone else overwrote is `owner-cookie` when the block is given
 * back.  The model may move a handle's block (migration): shadow_page_moved.
 *
 * The executor's handle table (src/prog/handle.c) is the program's store;
 * the shadow observes it: the page kind's hooks (taken, released, moved,
 * forget in src/prog/ops_pagealloc.c) call shadow_page_take, _drop, _moved
 * and _forget, and the shadow keeps what its checks need (which handle
 * owns each pfn, each handle's block for I-CONS's owner source).
 *
 * Shared by every task fiber without happens-before: relaxed atomics, and
 * under TSan the hand-off of a block from its allocator to whoever frees it
 * is a release/acquire, as a real caller's queue or lock would give.
 */
#include "check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define COOKIE_MAGIC 0x6d6d667aU	/* "mmfz" */

struct cookie {
	uint32_t magic;
	uint32_t handle;
	uint64_t run;
};

static struct world_layer shadow_layer;

struct shadow_handle {
	struct page *page;
	unsigned int order;
	int name;			/* N of hN in the text form */
	bool live;
};

/* Each world's owner array, from its creation: a world layer of the
 * checkers', so that switching worlds costs nothing. */
struct shadow_world {
	int *owner;			/* handle + 1 owning each pfn, 0: none */
};

static int shadow_create(struct world *w, const struct mm_config *c)
{
	struct shadow_world *sw = world_layer_state(w, &shadow_layer);

	(void)c;
	sw->owner = world_calloc(pa_world(w)->nr_pages, sizeof(*sw->owner));
	return sw->owner ? 0 : -ENOMEM;
}

static bool shadow_in_run(struct world *w);

static void shadow_destroy(struct world *w)
{
	struct shadow_world *sw = world_layer_state(w, &shadow_layer);

	/* zero again at the end of every run (shadow_run_end) */
	if (shadow_in_run(w))
		world_free(sw->owner);
	else
		world_free_zeroed(sw->owner);
}

static struct world_layer shadow_layer = {
	.name = "shadow", .order = 1000, .state_size = sizeof(struct shadow_world),
	.create = shadow_create, .destroy = shadow_destroy,
};
WORLD_LAYER(shadow_layer);

static struct {
	struct world *w;
	uint64_t run_no;
	struct shadow_handle h[SHADOW_MAX_HANDLES];
	int *owner;			/* the world's */
	int nlive;
	short live[SHADOW_MAX_HANDLES];	/* the live handles, in no order */
	short live_at[SHADOW_MAX_HANDLES];	/* each live handle's place in live[] */
} sh;

/* The harness's bookkeeping, shared by the task fibers: not the model. */
static __sched_notsan void live_add(int h)
{
	int n = __atomic_fetch_add(&sh.nlive, 1, __ATOMIC_RELAXED);

	tsan_ignore_begin();
	sh.live[n] = (short)h;
	sh.live_at[h] = (short)n;
	tsan_ignore_end();
}

static __sched_notsan void live_del(int h)
{
	int n = __atomic_sub_fetch(&sh.nlive, 1, __ATOMIC_RELAXED), at;

	tsan_ignore_begin();
	at = sh.live_at[h];
	sh.live[at] = sh.live[n];
	sh.live_at[sh.live[n]] = (short)at;
	tsan_ignore_end();
}

/* a run on @w began and has not ended: its owner array may hold handles */
static bool shadow_in_run(struct world *w)
{
	return sh.w == w && sh.nlive;
}

__sched_notsan void shadow_run_begin(struct world *w, uint64_t run_no)
{
	while (sh.nlive)
		sh.h[sh.live[--sh.nlive]] = (struct shadow_handle){ 0 };
	sh.w = w;
	sh.owner = ((struct shadow_world *)world_layer_state(w, &shadow_layer))->owner;
	sh.run_no = run_no;
	sh.nlive = 0;
}

__sched_notsan void shadow_run_end(void)
{
	unsigned long i, nr;
	int k;

	/* a run a violation ended leaves handles live: the owner array is
	 * the world's, kept for its next run, so it goes back to all zero */
	while (sh.nlive) {
		k = sh.live[--sh.nlive];
		nr = 1UL << sh.h[k].order;
		for (i = 0; i < nr; i++)
			sh.owner[page_to_pfn(sh.h[k].page) + i] = 0;
		sh.h[k].live = false;
	}
}

void shadow_page_take(int h, int name, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), i, nr = 1UL << order;
	struct cookie *c = page_address(page);

	for (i = 0; i < nr; i++) {
		int o = __atomic_load_n(&sh.owner[pfn + i], __ATOMIC_RELAXED);

		if (o)
			sched_violation("I-CONS", "alloc_pages",
					"pfn %lu handed to h%d while h%d holds it", pfn + i, name,
					sh.h[o - 1].name);
	}
	for (i = 0; i < nr; i++)
		__atomic_store_n(&sh.owner[pfn + i], h + 1, __ATOMIC_RELAXED);
	c->magic = COOKIE_MAGIC;
	c->handle = (uint32_t)h;
	c->run = sh.run_no;
	sh.h[h].page = page;
	sh.h[h].order = order;
	sh.h[h].name = name;
	__atomic_store_n(&sh.h[h].live, true, __ATOMIC_RELAXED);
	live_add(h);
#if MMFUZZ_TSAN
	__tsan_release(&sh.h[h]);
#endif
}

struct page *shadow_page(int h, unsigned int *order)
{
	if (h < 0 || h >= SHADOW_MAX_HANDLES || !__atomic_load_n(&sh.h[h].live, __ATOMIC_RELAXED))
		return NULL;
#if MMFUZZ_TSAN
	__tsan_acquire(&sh.h[h]);
#endif
	*order = sh.h[h].order;
	return sh.h[h].page;
}

void shadow_page_drop(int h)
{
	struct shadow_handle *s = &sh.h[h];
	unsigned long pfn = page_to_pfn(s->page), i, nr = 1UL << s->order;
	const struct cookie *c = page_address(s->page);

	if (c->magic != COOKIE_MAGIC || c->handle != (uint32_t)h || c->run != sh.run_no)
		sched_violation("owner-cookie", "free_pages",
				"pfn %lu (h%d) carries cookie %08x/%u: someone else wrote it",
				pfn, s->name, c->magic, c->handle);
	for (i = 0; i < nr; i++)
		__atomic_store_n(&sh.owner[pfn + i], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->live, false, __ATOMIC_RELAXED);
	live_del(h);
}

void shadow_page_forget(int h)
{
	unsigned long i, nr;

	if (h < 0 || h >= SHADOW_MAX_HANDLES || !sh.h[h].live)
		return;
	nr = 1UL << sh.h[h].order;
	for (i = 0; i < nr; i++)
		sh.owner[page_to_pfn(sh.h[h].page) + i] = 0;
	sh.h[h].live = false;
	live_del(h);
}

void shadow_page_moved(struct page *from, struct page *to)
{
	unsigned long src = page_to_pfn(from), dst = page_to_pfn(to), i, nr;
	int h = __atomic_load_n(&sh.owner[src], __ATOMIC_RELAXED) - 1;

	if (h < 0 || sh.h[h].page != from)
		sched_violation("I-CONS", "migrate", "pfn %lu moved but no handle holds it", src);
	nr = 1UL << sh.h[h].order;
	for (i = 0; i < nr; i++) {
		__atomic_store_n(&sh.owner[src + i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh.owner[dst + i], h + 1, __ATOMIC_RELAXED);
	}
	sh.h[h].page = to;
}

int shadow_live_count(void)
{
	return __atomic_load_n(&sh.nlive, __ATOMIC_RELAXED);
}

/* ---- the owner source: blocks the program holds ---- */

static __sched_notsan void handle_collect(struct world *w, struct owner_sink *s)
{
	int i, n = __atomic_load_n(&sh.nlive, __ATOMIC_RELAXED);

	(void)w;
	for (i = 0; i < n; i++) {
		const struct shadow_handle *h = &sh.h[sh.live[i]];

		owner_add(s, page_to_pfn(h->page), 1UL << h->order, (unsigned)h->name);
	}
}

static void handle_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "handle h%u", who);
}

static const struct owner_source handle_owner = {
	.name = "handle", .collect = handle_collect, .describe = handle_describe,
};
OWNER_SOURCE(handle_owner);

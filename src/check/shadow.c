// SPDX-License-Identifier: MIT
/*
 * The shadow of what the program holds: each live page handle's block,
 * the handle owning each pfn, and the owner cookie in the block's memory.
 * A block handed out while a handle holds it is I-CONS at that allocation;
 * a cookie someone else overwrote is `owner-cookie` when the block is given
 * back.  The model may move a handle's block (migration): shadow_page_moved.
 *
 * The executor's handle table (src/prog/handle.c) is the program's store,
 * the one copy of each handle's block: the page kind's hooks (taken,
 * released, moved, forget in src/prog/ops_pagealloc.c) call
 * shadow_page_take, _drop, _moved and _forget with what the table holds,
 * and I-CONS's owner source reads the table through the view the executor
 * gives (shadow_table_set).  The shadow keeps only which handle owns each
 * pfn and how many page handles are live.
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
	int *owner;			/* the world's */
	int nlive;			/* page handles live */
	const struct shadow_table *t;	/* the executor's table, or NULL */
} sh;

void shadow_table_set(const struct shadow_table *t)
{
	sh.t = t;
}

/* a run on @w began and has not ended: its owner array may hold handles */
static bool shadow_in_run(struct world *w)
{
	return sh.w == w && sh.nlive;
}

__sched_notsan void shadow_run_begin(struct world *w, uint64_t run_no)
{
	sh.w = w;
	sh.owner = ((struct shadow_world *)world_layer_state(w, &shadow_layer))->owner;
	sh.run_no = run_no;
	sh.nlive = 0;
}

__sched_notsan void shadow_run_end(void)
{
	/* the table forgets its live handles first (handle_run_end): what is
	 * left was taken without it (a test's own takes), and the owner array,
	 * the world's, kept for its next run, goes back to all zero */
	if (sh.nlive)
		memset(sh.owner, 0, pa_world(sh.w)->nr_pages * sizeof(*sh.owner));
	sh.nlive = 0;
}

/* N of hN of the handle @h (its number when there is no table) */
static int handle_name_of(int h)
{
	unsigned int order;
	int name = h;

	if (sh.t)
		sh.t->page(h, &order, &name);
	return name;
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
					handle_name_of(o - 1));
	}
	for (i = 0; i < nr; i++)
		__atomic_store_n(&sh.owner[pfn + i], h + 1, __ATOMIC_RELAXED);
	c->magic = COOKIE_MAGIC;
	c->handle = (uint32_t)h;
	c->run = sh.run_no;
	__atomic_fetch_add(&sh.nlive, 1, __ATOMIC_RELAXED);
}

void shadow_page_drop(int h, int name, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), i, nr = 1UL << order;
	const struct cookie *c = page_address(page);

	if (c->magic != COOKIE_MAGIC || c->handle != (uint32_t)h || c->run != sh.run_no)
		sched_violation("owner-cookie", "free_pages",
				"pfn %lu (h%d) carries cookie %08x/%u: someone else wrote it",
				pfn, name, c->magic, c->handle);
	for (i = 0; i < nr; i++)
		__atomic_store_n(&sh.owner[pfn + i], 0, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&sh.nlive, 1, __ATOMIC_RELAXED);
}

void shadow_page_forget(int h, struct page *page, unsigned int order)
{
	unsigned long i, nr = 1UL << order, pfn = page_to_pfn(page);

	if (!sh.nlive)	/* a handle of a run before shadow_run_begin */
		return;
	for (i = 0; i < nr; i++)
		if (sh.owner[pfn + i] == h + 1)
			sh.owner[pfn + i] = 0;
	sh.nlive--;
}

void shadow_page_moved(int h, struct page *from, struct page *to, unsigned int order)
{
	unsigned long src = page_to_pfn(from), dst = page_to_pfn(to), i, nr;

	if (h < 0 || __atomic_load_n(&sh.owner[src], __ATOMIC_RELAXED) != h + 1)
		sched_violation("I-CONS", "migrate", "pfn %lu moved but no handle holds it", src);
	nr = 1UL << order;
	for (i = 0; i < nr; i++) {
		__atomic_store_n(&sh.owner[src + i], 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh.owner[dst + i], h + 1, __ATOMIC_RELAXED);
	}
}

int shadow_live_count(void)
{
	return __atomic_load_n(&sh.nlive, __ATOMIC_RELAXED);
}

/* ---- the owner source: blocks the program holds ---- */

static __sched_notsan void handle_collect(struct world *w, struct owner_sink *s)
{
	struct shadow_block b[64];
	int from = 0, n, i;

	(void)w;
	if (!sh.t)
		return;
	do {
		n = sh.t->pages(from, b, (int)(sizeof(b) / sizeof(b[0])), &from);
		for (i = 0; i < n; i++)
			owner_add(s, page_to_pfn(b[i].page), 1UL << b[i].order, (unsigned)b[i].name);
	} while (n == (int)(sizeof(b) / sizeof(b[0])));
}

static void handle_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "handle h%u", who);
}

static const struct owner_source handle_owner = {
	.name = "handle", .collect = handle_collect, .describe = handle_describe,
};
OWNER_SOURCE(handle_owner);

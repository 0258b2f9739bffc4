// SPDX-License-Identifier: MIT
/*
 * The shadow of what the program holds: each live page handle's block,
 * the handle owning each pfn, and the owner cookie in the block's memory.
 * A block handed out while a handle holds it is I-CONS at that allocation;
 * a cookie someone else overwrote is `owner-cookie` when the block is given
 * back.  The model may move a handle's block (migration): shadow_page_moved.
 *
 * Shared by every task fiber without happens-before: relaxed atomics, and
 * under TSan the hand-off of a block from its allocator to whoever frees it
 * is a release/acquire, as a real caller's queue or lock would give.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define COOKIE_MAGIC 0x6d6d667aU	/* "mmfz" */

struct cookie {
	uint32_t magic;
	uint32_t handle;
	uint64_t run;
};

struct shadow_handle {
	struct page *page;
	unsigned int order;
	int name;			/* N of hN in the text form */
	bool live;
};

static struct {
	struct world *w;
	uint64_t run_no;
	struct shadow_handle h[SHADOW_MAX_HANDLES];
	int *owner;			/* handle + 1 owning each pfn, 0: none */
	unsigned long owner_cap;
	int nlive;
} sh;

void shadow_run_begin(struct world *w, uint64_t run_no)
{
	int k;

	if (w->nr_pages > sh.owner_cap) {
		free(sh.owner);
		sh.owner = calloc(w->nr_pages, sizeof(*sh.owner));
		if (!sh.owner)
			abort();
		sh.owner_cap = w->nr_pages;
	} else if (sh.w != w || sh.nlive) {
		memset(sh.owner, 0, w->nr_pages * sizeof(*sh.owner));
	}
	/* else the last run ended with nothing live on this world: every
	 * owner it set was cleared when its handle was released */
	for (k = 0; k < SHADOW_MAX_HANDLES; k++)
		if (sh.h[k].live || sh.h[k].page)
			sh.h[k] = (struct shadow_handle){ 0 };
	sh.w = w;
	sh.run_no = run_no;
	sh.nlive = 0;
	page_moved_hook = shadow_page_moved;
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
	__atomic_fetch_add(&sh.nlive, 1, __ATOMIC_RELAXED);
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
	__atomic_fetch_sub(&sh.nlive, 1, __ATOMIC_RELAXED);
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

static void handle_collect(struct world *w, struct owner_sink *s)
{
	int k;

	(void)w;
	for (k = 0; k < SHADOW_MAX_HANDLES; k++)
		if (__atomic_load_n(&sh.h[k].live, __ATOMIC_RELAXED))
			owner_add(s, page_to_pfn(sh.h[k].page), 1UL << sh.h[k].order,
				  (unsigned)sh.h[k].name);
}

static void handle_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "handle h%u", who);
}

static const struct owner_source handle_owner = {
	.name = "handle", .collect = handle_collect, .describe = handle_describe,
};
OWNER_SOURCE(handle_owner);

// SPDX-License-Identifier: MIT
/*
 * I-CONS: every page has exactly one owner.  Every registered owner source
 * (the buddy lists, each pcp list, the program's handles; later slab pages,
 * page tables, gather batches, compaction lists) adds the pfn intervals it
 * owns; the intervals must tile the world with no gap (a lost page) and no
 * overlap (a page owned twice).
 *
 * Cost: the intervals are bucketed by max-order block (no owner's interval
 * is larger than a max-order block, and a bucket's intervals all start
 * before the next bucket's), then each bucket is sorted: O(intervals +
 * blocks), where a global sort cost O(intervals log intervals) at every
 * quiescence.  The order the buckets are walked in is the global pfn order,
 * so the first failure found is the lowest pfn's, as with a sort.
 */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern const struct owner_source *__start_mmfuzz_owners[];
extern const struct owner_source *__stop_mmfuzz_owners[];

#define MAX_SOURCES 16

struct owner_iv {
	unsigned long start, len;
	unsigned short src;
	unsigned who;
};

struct owner_sink {
	struct owner_iv *iv;
	size_t n, cap;
	unsigned short src;
};

static const struct owner_source *sources[MAX_SOURCES];
static int nsources;
static pthread_once_t sources_once = PTHREAD_ONCE_INIT;

static struct owner_sink sink;
static struct owner_iv *sorted;
static size_t sorted_cap;
static unsigned *bucket;		/* start of each block's run in sorted[] */
static size_t bucket_cap;

static int cmp_source(const void *a, const void *b)
{
	return strcmp((*(const struct owner_source *const *)a)->name,
		      (*(const struct owner_source *const *)b)->name);
}

static void sources_build(void)
{
	size_t n = (size_t)(__stop_mmfuzz_owners - __start_mmfuzz_owners), i;

	if (n > MAX_SOURCES)
		abort();
	for (i = 0; i < n; i++)
		sources[i] = __start_mmfuzz_owners[i];
	qsort(sources, n, sizeof(sources[0]), cmp_source);
	nsources = (int)n;
}

void owner_add(struct owner_sink *s, unsigned long pfn, unsigned long len, unsigned who)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->iv = realloc(s->iv, s->cap * sizeof(*s->iv));
		if (!s->iv)
			abort();
	}
	s->iv[s->n].start = pfn;
	s->iv[s->n].len = len;
	s->iv[s->n].src = s->src;
	s->iv[s->n].who = who;
	s->n++;
}

static const char *iv_name(const struct owner_iv *iv, char *buf, size_t n)
{
	sources[iv->src]->describe(iv->who, buf, n);
	return buf;
}

static void sort_small(struct owner_iv *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct owner_iv x = a[i];

		for (j = i; j > 0 && a[j - 1].start > x.start; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

static int cmp_iv(const void *a, const void *b)
{
	const struct owner_iv *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Bucket the intervals by max-order block into sorted[], each run sorted. */
static void bucket_sort(struct world *w)
{
	size_t nblocks = (w->nr_pages >> w->max_order) + 1, i, b;

	if (sorted_cap < sink.n) {
		sorted_cap = sink.cap;
		sorted = realloc(sorted, sorted_cap * sizeof(*sorted));
	}
	if (bucket_cap < nblocks + 1) {
		bucket_cap = nblocks + 1;
		bucket = realloc(bucket, bucket_cap * sizeof(*bucket));
	}
	if (!sorted || !bucket)
		abort();
	memset(bucket, 0, (nblocks + 1) * sizeof(*bucket));
	/* out of the world: the last bucket, after every block */
	for (i = 0; i < sink.n; i++) {
		b = sink.iv[i].start >> w->max_order;
		bucket[(b < nblocks - 1 ? b : nblocks - 1) + 1]++;
	}
	for (b = 1; b <= nblocks; b++)
		bucket[b] += bucket[b - 1];
	for (i = 0; i < sink.n; i++) {
		b = sink.iv[i].start >> w->max_order;
		sorted[bucket[b < nblocks - 1 ? b : nblocks - 1]++] = sink.iv[i];
	}
	/* bucket[b] is now the end of block b's run */
	for (b = 0; b < nblocks; b++) {
		size_t lo = b ? bucket[b - 1] : 0, n = bucket[b] - lo;

		if (n > 16)
			qsort(sorted + lo, n, sizeof(*sorted), cmp_iv);
		else if (n > 1)
			sort_small(sorted + lo, n);
	}
}

static void conservation(struct world *w, const char *site, struct cfail *f)
{
	unsigned long pos = 0;
	char x[64], y[64];
	size_t k;
	int i;

	pthread_once(&sources_once, sources_build);
	sink.n = 0;
	for (i = 0; i < nsources; i++) {
		sink.src = (unsigned short)i;
		sources[i]->collect(w, &sink);
	}
	bucket_sort(w);
	for (k = 0; k < sink.n && !f->hit; k++) {
		const struct owner_iv *iv = &sorted[k];

		if (iv->start < pos)
			cfail_set(f, "I-CONS", site, "pfn %lu is owned twice: by %s and by %s",
				  iv->start, iv_name(&sorted[k - 1], x, sizeof(x)), iv_name(iv, y, sizeof(y)));
		else if (iv->start > pos)
			cfail_set(f, "I-CONS", site,
				  "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
				  "(%s lost %lu pages)", pos, w->zones[pos / w->cfg.zone_pages].name,
				  iv->start - pos);
		pos = iv->start + iv->len;
	}
	if (!f->hit && pos != w->nr_pages)
		cfail_set(f, "I-CONS", site,
			  "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
			  "(%lu pages lost at the end)", pos, w->nr_pages - pos);
}

static void cons_quiescent(struct world *w, const char *where, struct cfail *f)
{
	conservation(w, where, f);
}

static void cons_end(struct world *w, struct cfail *f)
{
	conservation(w, "end", f);
}

/* After the page allocator's structural checks, before its counters. */
static const struct checker cons_checker = {
	.name = "I-CONS", .layer = "all", .prio = 20,
	.quiescent = cons_quiescent, .end = cons_end,
};
CHECKER(cons_checker);

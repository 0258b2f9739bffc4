// SPDX-License-Identifier: MIT
/*
 * I-CONS: every page has exactly one owner.  Every registered owner source
 * (the buddy lists, each pcp list, the program's handles, the zero page past
 * the zones; later slab pages,
 * page tables, gather batches, compaction lists) adds the pfn intervals it
 * owns; the intervals must tile the world with no gap (a lost page) and no
 * overlap (a page owned twice).
 *
 * Cost: the sources' intervals are marked straight into a bitmap of the
 * world's pages (a word covers 64 pages): a bit already set is an overlap,
 * fewer bits than pages a gap.  That is all a clean check does: no list of
 * intervals, no sort.  An interval that starts where the one before it
 * ended (a pcp list's pages split from one block, an mm's PTEs in a row)
 * extends a pending run, marked as one interval when the next does not
 * follow on: the bits a run sets and finds set are those its intervals
 * would set and find one by one (they are disjoint, so none of them can
 * find another's), so the verdict is the same.  Only when it finds something are the intervals
 * collected again, bucketed by max-order block and sorted, to name the
 * lowest pfn at fault and its two owners.
 *
 * Objects that are not pages live in owner spaces (OWNER_SPACE): a source
 * adds (space, id) pairs with owner_add_obj() in the same collect().  They
 * are few (none in the page allocator), so they are simply kept, sorted by
 * space and id when the pages tile, and walked: an id twice is an object
 * owned twice, a missing id of a space that says how many it has one owned
 * by nobody.  Pages are checked first: their failure is the signature.
 */
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_owners);
/* weak: a build may register no space at all (the section is then absent) */
extern void *__start_mmfuzz_owner_spaces[] __attribute__((weak));
extern void *__stop_mmfuzz_owner_spaces[] __attribute__((weak));

#define MAX_SPACES 16

#define MAX_SOURCES 16
/* a source's number rides in owner_iv.src */
_Static_assert(MAX_SOURCES <= UINT16_MAX + 1, "owner_iv.src holds a source's number");

struct owner_iv {
	uint32_t start, len;		/* pfns: a world has at most 2^17 pages */
	uint16_t src;
	uint16_t who;
};

struct owner_obj {
	const struct owner_space *sp;
	unsigned long id;
	uint16_t src, who;
};

struct owner_sink {
	bool fast;			/* mark the bitmap, keep no intervals */
	bool bad;			/* fast: an overlap or an interval out of the world */
	uint64_t *bits;
	unsigned long nr_pages, marked;
	unsigned long run_start, run_len;	/* fast: the pending run, not yet marked */
	struct owner_iv *iv;
	size_t n, cap;
	unsigned short src;
	struct owner_obj *obj;		/* both passes: every object added */
	size_t nobj, objcap;
};

static uint64_t *bitmap;
static size_t bitmap_words;

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
	return strcmp(((const struct owner_source *)a)->name, ((const struct owner_source *)b)->name);
}

static const char *source_name(const void *e)
{
	return ((const struct owner_source *)e)->name;
}

static const struct registry sources_registry = {
	.what = "owner source", .limit = "MAX_SOURCES in src/check/cons.c",
	REGISTRY_BOUNDS(mmfuzz_owners), .cap = MAX_SOURCES,
	.key = cmp_source, .name = source_name,
};

static const struct owner_space *spaces[MAX_SPACES];
static int nspaces;
static int nspaces_counted;	/* spaces that say how many objects they have */

static int cmp_space(const void *a, const void *b)
{
	return strcmp(((const struct owner_space *)a)->name, ((const struct owner_space *)b)->name);
}

static const char *space_name(const void *e)
{
	return ((const struct owner_space *)e)->name;
}

static const struct registry spaces_registry = {
	.what = "owner space", .limit = "MAX_SPACES in src/check/cons.c",
	REGISTRY_BOUNDS(mmfuzz_owner_spaces), .cap = MAX_SPACES,
	.key = cmp_space, .name = space_name,
};

static void sources_build(void)
{
	int i;

	nsources = (int)registry_collect(&sources_registry, (const void **)sources);
	nspaces = (int)registry_collect(&spaces_registry, (const void **)spaces);
	for (i = 0; i < nspaces; i++)
		nspaces_counted += !!spaces[i]->nr;
}

/* Set the bits of [pfn, pfn + len); false if one was set already. */
static bool mark(struct owner_sink *s, unsigned long pfn, unsigned long len)
{
	unsigned long end = pfn + len;
	uint64_t seen = 0;
	bool clean = true;

	/* whole words: a free block of order 6 or more */
	if (!(pfn % 64) && !(len % 64)) {
		uint64_t *b = &s->bits[pfn / 64], *e = b + len / 64;

		for (; b < e; b++) {
			seen |= *b;
			*b = ~0ULL;
		}
		return !seen;
	}
	while (pfn < end) {
		unsigned long w = pfn / 64, lo = pfn % 64, n = end - pfn < 64 - lo ? end - pfn : 64 - lo;
		uint64_t m = (n == 64 ? ~0ULL : ((1ULL << n) - 1)) << lo;

		clean &= !(s->bits[w] & m);
		s->bits[w] |= m;
		pfn += n;
	}
	return clean;
}

/* Mark the pending run. */
static void run_flush(struct owner_sink *s)
{
	unsigned long pfn = s->run_start, len = s->run_len;

	if (!len)
		return;
	s->run_len = 0;
	if (pfn >= s->nr_pages || len > s->nr_pages - pfn || !mark(s, pfn, len))
		s->bad = true;
	else
		s->marked += len;
}

void owner_add(struct owner_sink *s, unsigned long pfn, unsigned long len, unsigned who)
{
	if (s->fast) {
		if (!len) {	/* marks nothing: only its place is checked */
			if (pfn >= s->nr_pages)
				s->bad = true;
			return;
		}
		/* a run is at most the world's pages plus one interval (then
		 * it is out of the world): no wrap */
		if (s->run_len && pfn == s->run_start + s->run_len && s->run_len <= s->nr_pages &&
		    len <= s->nr_pages) {
			s->run_len += len;
			return;
		}
		run_flush(s);
		s->run_start = pfn;
		s->run_len = len;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->iv = realloc(s->iv, s->cap * sizeof(*s->iv));
		if (!s->iv)
			abort();
	}
	s->iv[s->n].start = (uint32_t)pfn;
	s->iv[s->n].len = (uint32_t)len;
	s->iv[s->n].src = s->src;
	s->iv[s->n].who = (uint16_t)who;
	s->n++;
}

void owner_add_obj(struct owner_sink *s, const struct owner_space *space, unsigned long id,
		   unsigned who)
{
	if (s->nobj == s->objcap) {
		s->objcap = s->objcap ? s->objcap * 2 : 64;
		s->obj = realloc(s->obj, s->objcap * sizeof(*s->obj));
		if (!s->obj)
			abort();
	}
	s->obj[s->nobj].sp = space;
	s->obj[s->nobj].id = id;
	s->obj[s->nobj].src = s->src;
	s->obj[s->nobj].who = (uint16_t)who;
	s->nobj++;
}

void owner_add_blocks(struct owner_sink *s, const struct owner_block *b, size_t n)
{
	size_t i;

	if (!s->fast) {
		for (i = 0; i < n; i++)
			owner_add(s, b[i].pfn, 1UL << b[i].order, b[i].who);
		return;
	}
	/*
	 * Each block marked alone, not joined into runs: a run's bits are its
	 * intervals' bits, so the verdict (an overlap, a block out of the
	 * world, the count of pages marked) is the one owner_add() gives.  An
	 * aligned block of fewer than 64 pages lies in one word.
	 */
	run_flush(s);
	for (i = 0; i < n && !s->bad; i++) {
		unsigned long pfn = b[i].pfn, len = 1UL << b[i].order;

		if (b[i].order >= 6 || (pfn & (len - 1))) {
			s->run_start = pfn;
			s->run_len = len;
			run_flush(s);
		} else if (pfn >= s->nr_pages || len > s->nr_pages - pfn) {
			s->bad = true;
		} else {
			uint64_t m = ((1ULL << len) - 1) << (pfn % 64), *w = &s->bits[pfn / 64];

			if (*w & m)
				s->bad = true;
			*w |= m;
			s->marked += len;
		}
	}
}

static const char *iv_name(const struct owner_iv *iv, char *buf, size_t n)
{
	sources[iv->src]->describe(iv->who, buf, n);
	return buf;
}

static const char *obj_name(const struct owner_obj *o, char *buf, size_t n)
{
	sources[o->src]->describe(o->who, buf, n);
	return buf;
}

/* The space's place among the registered ones (sorted by name), or
 * nspaces + its address's rank for one nobody registered: stable order. */
static int space_rank(const struct owner_space *sp)
{
	int i;

	for (i = 0; i < nspaces; i++)
		if (spaces[i] == sp)
			return i;
	return nspaces;
}

static int cmp_obj(const void *a, const void *b)
{
	const struct owner_obj *x = a, *y = b;
	int rx = space_rank(x->sp), ry = space_rank(y->sp);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (x->sp != y->sp)
		return (uintptr_t)x->sp < (uintptr_t)y->sp ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->src != y->src ? (x->src < y->src ? -1 : 1) : (x->who > y->who) - (x->who < y->who);
}

/* Every object of sink.obj[] once; each space that counts its objects full. */
static void objects(struct world *w, const char *site, struct cfail *f)
{
	char x[64], y[64];
	size_t k = 0;
	int i;

	if (sink.nobj > 1)
		qsort(sink.obj, sink.nobj, sizeof(*sink.obj), cmp_obj);
	for (i = 0; i <= nspaces && !f->hit; i++) {
		const struct owner_space *sp = i < nspaces ? spaces[i] : NULL;
		unsigned long nr = sp && sp->nr ? sp->nr(w) : 0, next = 0;

		for (; k < sink.nobj && !f->hit && (!sp || sink.obj[k].sp == sp); k++) {
			const struct owner_obj *o = &sink.obj[k];

			if (k && o->sp == o[-1].sp && o->id == o[-1].id)
				cfail_set(f, "I-CONS", site, "%s %lu is owned twice: by %s and by %s",
					  o->sp->name, o->id, obj_name(&o[-1], x, sizeof(x)),
					  obj_name(o, y, sizeof(y)));
			else if (sp && sp->nr && o->id >= nr)
				cfail_set(f, "I-CONS", site, "%s %lu is owned by %s but the space has %lu",
					  sp->name, o->id, obj_name(o, x, sizeof(x)), nr);
			else if (sp && sp->nr && o->id > next)
				cfail_set(f, "I-CONS", site, "%s %lu is owned by nobody", sp->name, next);
			else
				next = o->id + 1;
		}
		if (!f->hit && sp && sp->nr && next < nr)
			cfail_set(f, "I-CONS", site, "%s %lu is owned by nobody", sp->name, next);
	}
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
	size_t nblocks = (world_nr_pfns(pa_world(w)) >> pa_world(w)->max_order) + 1, i, b;

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
		b = sink.iv[i].start >> pa_world(w)->max_order;
		bucket[(b < nblocks - 1 ? b : nblocks - 1) + 1]++;
	}
	for (b = 1; b <= nblocks; b++)
		bucket[b] += bucket[b - 1];
	for (i = 0; i < sink.n; i++) {
		b = sink.iv[i].start >> pa_world(w)->max_order;
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

/* The quick pass: true when the intervals tile the world. */
static bool tiles(struct world *w)
{
	size_t words = (world_nr_pfns(pa_world(w)) + 63) / 64;
	int i;

	if (bitmap_words < words) {
		free(bitmap);
		bitmap = calloc(words, sizeof(*bitmap));
		if (!bitmap)
			abort();
		bitmap_words = words;
	} else {
		memset(bitmap, 0, words * sizeof(*bitmap));
	}
	sink.fast = true;
	sink.bad = false;
	sink.bits = bitmap;
	sink.nr_pages = world_nr_pfns(pa_world(w));
	sink.marked = 0;
	sink.run_len = 0;
	sink.nobj = 0;
	for (i = 0; i < nsources && !sink.bad; i++) {
		sink.src = (unsigned short)i;
		sources[i]->collect(w, &sink);
		run_flush(&sink);
	}
	sink.fast = false;
	return !sink.bad && sink.marked == world_nr_pfns(pa_world(w));
}

bool check_cons_full;

/* The zone a pfn of the world is in (the zero page past them is in none). */
static const char *pfn_zone_name(struct world *w, unsigned long pfn)
{
	int z;

	if (pfn == empty_zero_pfn(pa_world(w)))
		return "the kernel image's zero page";
	/* by the zones' ranges: page_zone would read the struct page, which
	 * past first_deferred_pfn may be uninitialised */
	for (z = 0; z < pa_world(w)->nr_zones; z++)
		if (zone_spans_pfn(zone_by_idx(w, z), pfn))
			return zone_by_idx(w, z)->name;
	return "no zone";
}

static void conservation(struct world *w, const char *site, struct cfail *f)
{
	struct cfail g;
	unsigned long pos = 0;
	char x[64], y[64];
	bool fast_ok;
	size_t k;
	int i;

	cfail_init(&g);
	pthread_once(&sources_once, sources_build);
	fast_ok = tiles(w);
	if (fast_ok && !check_cons_full) {
		/* no object added: only a space that counts its objects can
		 * have one owned by nobody */
		if (sink.nobj || nspaces_counted)
			objects(w, site, f);
		return;
	}
	/* something is wrong (or the tests ask): every interval, in pfn order */
	sink.n = 0;
	sink.nobj = 0;
	for (i = 0; i < nsources; i++) {
		sink.src = (unsigned short)i;
		sources[i]->collect(w, &sink);
	}
	bucket_sort(w);
	for (k = 0; k < sink.n && !g.hit; k++) {
		const struct owner_iv *iv = &sorted[k];

		if (iv->start < pos)
			cfail_set(&g, "I-CONS", site, "pfn %lu is owned twice: by %s and by %s",
				  (unsigned long)iv->start, iv_name(&sorted[k - 1], x, sizeof(x)),
				  iv_name(iv, y, sizeof(y)));
		else if (iv->start > pos)
			cfail_set(&g, "I-CONS", site,
				  "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
				  "(%s lost %lu pages)", pos, pfn_zone_name(w, pos), iv->start - pos);
		pos = (unsigned long)iv->start + iv->len;
	}
	if (!g.hit && pos != world_nr_pfns(pa_world(w)))
		cfail_set(&g, "I-CONS", site,
			  "pfn %lu is owned by nobody: not free, not on a pcp list, not allocated "
			  "(%lu pages lost at the end)", pos, world_nr_pfns(pa_world(w)) - pos);
	if (fast_ok && g.hit)
		cfail_set(f, "I-CONS-FULL", site,
			  "the sorted intervals found what the bitmap pass did not: %s", g.msg);
	else if (!fast_ok && !g.hit)
		cfail_set(f, "I-CONS-FULL", site,
			  "the bitmap pass found a page owned twice or by nobody, the sorted "
			  "intervals none");
	else if (g.hit && !f->hit)
		*f = g;
	if (!f->hit)
		objects(w, site, f);
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

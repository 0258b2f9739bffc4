// SPDX-License-Identifier: MIT
/*
 * The memblock-like range table (memblock.h): memory with holes, reserved
 * ranges, and the free ranges they leave.
 */
#include "memblock.h"

#include <errno.h>
#include <string.h>

void memblock_init(struct memblock *mb)
{
	memset(mb, 0, sizeof(*mb));
}

static int type_add(struct memblock_type *t, unsigned long base, unsigned long size, int nid)
{
	if (!size)
		return 0;
	if (t->cnt >= INIT_MEMBLOCK_REGIONS)
		return -ENOSPC;
	t->regions[t->cnt++] = (struct memblock_region){ .base = base, .size = size, .nid = nid };
	return 0;
}

int memblock_add_node(struct memblock *mb, unsigned long base, unsigned long size, int nid)
{
	int rc = type_add(&mb->memory, base, size, nid);

	memblock_build_free(mb);
	return rc;
}

/* Cut [base, base + size) out of every region of @t. */
static int type_cut(struct memblock_type *t, unsigned long base, unsigned long size)
{
	unsigned long end = base + size;
	int i, rc = 0;

	for (i = 0; i < t->cnt; i++) {
		struct memblock_region *r = &t->regions[i];
		unsigned long rend = r->base + r->size;

		if (end <= r->base || base >= rend)
			continue;
		if (base > r->base && end < rend) {	/* split in two */
			rc = type_add(t, end, rend - end, r->nid);
			r->size = base - r->base;
		} else if (base <= r->base) {
			r->size = end >= rend ? 0 : rend - end;
			r->base = end >= rend ? r->base : end;
		} else {
			r->size = base - r->base;
		}
	}
	return rc;
}

int memblock_remove(struct memblock *mb, unsigned long base, unsigned long size)
{
	int rc = type_cut(&mb->memory, base, size);

	rc = rc ? rc : type_cut(&mb->reserved, base, size);
	memblock_build_free(mb);
	return rc;
}

int memblock_reserve(struct memblock *mb, unsigned long base, unsigned long size)
{
	int rc = type_add(&mb->reserved, base, size, -1);

	memblock_build_free(mb);
	return rc;
}

static bool in_type(const struct memblock_type *t, unsigned long pfn)
{
	int i;

	for (i = 0; i < t->cnt; i++)
		if (pfn - t->regions[i].base < t->regions[i].size)
			return true;
	return false;
}

bool memblock_pfn_present(const struct memblock *mb, unsigned long pfn)
{
	return in_type(&mb->memory, pfn);
}

bool memblock_pfn_unavailable(const struct memblock *mb, unsigned long pfn)
{
	return in_type(&mb->reserved, pfn) || (mb->memory.cnt && !in_type(&mb->memory, pfn));
}

bool memblock_pfn_free(const struct memblock *mb, unsigned long pfn)
{
	return in_type(&mb->free, pfn);
}

/* Append [base, base + size) of node @nid to the free ranges, merged with
 * the last one when they touch on the same node (a full table drops it). */
static void free_append(struct memblock_type *f, unsigned long base, unsigned long size, int nid)
{
	struct memblock_region *last = f->cnt ? &f->regions[f->cnt - 1] : NULL;

	if (last && last->base + last->size == base && last->nid == nid)
		last->size += size;
	else if (f->cnt < INIT_MEMBLOCK_REGIONS)
		f->regions[f->cnt++] = (struct memblock_region){ .base = base, .size = size, .nid = nid };
}

/* Memory minus reserved, region by region: each memory region's span with
 * the reserved ranges (sorted) cut out, merged into runs. */
void memblock_build_free(struct memblock *mb)
{
	struct memblock_region res[INIT_MEMBLOCK_REGIONS];
	struct memblock_type *f = &mb->free;
	int i, j, nres = mb->reserved.cnt;

	f->cnt = 0;
	/* the memory regions and the reserved ones in pfn order (insertion
	 * sort: a few) */
	for (i = 1; i < mb->memory.cnt; i++)
		for (j = i; j > 0 && mb->memory.regions[j - 1].base > mb->memory.regions[j].base; j--) {
			struct memblock_region r = mb->memory.regions[j];

			mb->memory.regions[j] = mb->memory.regions[j - 1];
			mb->memory.regions[j - 1] = r;
		}
	memcpy(res, mb->reserved.regions, sizeof(res[0]) * (size_t)nres);
	for (i = 1; i < nres; i++)
		for (j = i; j > 0 && res[j - 1].base > res[j].base; j--) {
			struct memblock_region r = res[j];

			res[j] = res[j - 1];
			res[j - 1] = r;
		}
	for (i = 0; i < mb->memory.cnt; i++) {
		const struct memblock_region *r = &mb->memory.regions[i];
		unsigned long pfn = r->base, end = r->base + r->size;

		for (j = 0; j < nres && pfn < end; j++) {
			unsigned long rs = res[j].base, re = res[j].base + res[j].size;

			if (!res[j].size || re <= pfn)
				continue;
			if (rs >= end)
				break;
			if (rs > pfn)
				free_append(f, pfn, rs - pfn, r->nid);
			pfn = re;
		}
		if (pfn < end)
			free_append(f, pfn, end - pfn, r->nid);
	}
}

unsigned long memblock_present_pages(const struct memblock *mb, unsigned long start,
				     unsigned long end)
{
	unsigned long n = 0;
	int i;

	for (i = 0; i < mb->memory.cnt; i++) {
		unsigned long s = mb->memory.regions[i].base, e = s + mb->memory.regions[i].size;

		s = s > start ? s : start;
		e = e < end ? e : end;
		if (s < e)
			n += e - s;
	}
	return n;
}

unsigned long memblock_free_pages_in(const struct memblock *mb, unsigned long start,
				     unsigned long end)
{
	unsigned long i = 0, s, e, n = 0;

	while (memblock_next_free_range(mb, start, end, &i, &s, &e))
		n += e - s;
	return n;
}

bool memblock_next_free_range(const struct memblock *mb, unsigned long start,
			      unsigned long end, unsigned long *i, unsigned long *spfn,
			      unsigned long *epfn)
{
	for (; *i < (unsigned long)mb->free.cnt; (*i)++) {
		const struct memblock_region *r = &mb->free.regions[*i];
		unsigned long s = r->base > start ? r->base : start;
		unsigned long e = r->base + r->size < end ? r->base + r->size : end;

		if (s < e) {
			*spfn = s;
			*epfn = e;
			(*i)++;
			return true;
		}
	}
	return false;
}

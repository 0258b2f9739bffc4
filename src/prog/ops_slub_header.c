// SPDX-License-Identifier: MIT
/*
 * The SLUB layer's header section (id 4): the caches kmem_cache_create
 * makes at boot, before any task runs, in the order the operations' cache=N
 * numbers them (the kmalloc classes follow: docs/layer-slub.md).
 *
 * Text: "caches: 24, 40 debug, 64 order=5 typesafe_by_rcu": up to
 * SLUB_HDR_CACHES caches apart by commas, each a size (8..1024 bytes), an
 * optional order=N (0..MODEL_MAX_ORDER; an order below calculate_order's
 * is refused, one equal to it is printed as nothing) and the flags debug
 * (SLAB_CONSISTENCY_CHECKS) and typesafe_by_rcu (SLAB_TYPESAFE_BY_RCU).
 *
 * Binary (v3 section 4's state bytes): two bytes a cache, in order, until
 * one whose size field is 0: byte 0 and bits 0..1 of byte 1 are the size
 * field r (1..1023: size 8 + (r - 1) % 1017), bits 2..5 of byte 1 the order
 * (0 calculate_order's; a value past MODEL_MAX_ORDER or below the least
 * order folds to the least), bit 6 debug, bit 7 typesafe_by_rcu.  Any bytes
 * decode.
 */
#include "ops_slub.h"

#include "text_parse.h"

static void hc_canonicalize(void *area, const struct prog *p)
{
	struct slub_hdr *h = area;
	int i;

	(void)p;
	if (h->n > SLUB_HDR_CACHES)
		h->n = SLUB_HDR_CACHES;
	for (i = 0; i < SLUB_HDR_CACHES; i++) {
		if (i >= h->n) {
			h->c[i].size = 0;
			h->c[i].order = 0;
			h->c[i].flags = 0;
			continue;
		}
		if (h->c[i].size < 8 || h->c[i].size > 1024)
			h->c[i].size = (uint16_t)(8 + h->c[i].size % 1017);
		if (h->c[i].order > MODEL_MAX_ORDER ||
		    h->c[i].order <= slub_hdr_min_order(h->c[i].size))
			h->c[i].order = 0;
		h->c[i].flags &= SLUB_HC_DEBUG | SLUB_HC_TYPESAFE;
	}
}

static void hc_decode(void *area, const uint8_t *b, size_t n, const struct prog *p)
{
	struct slub_hdr *h = area;
	size_t k;

	for (k = 0; k + 1 < n + 1 && h->n < SLUB_HDR_CACHES; k += 2) {
		unsigned b0 = k < n ? b[k] : 0, b1 = k + 1 < n ? b[k + 1] : 0;
		unsigned r = b0 | (b1 & 3) << 8;

		if (!r)
			break;
		h->c[h->n].size = (uint16_t)(8 + (r - 1) % 1017);
		h->c[h->n].order = (uint8_t)(b1 >> 2 & 0xf);
		h->c[h->n].flags = (uint8_t)((b1 >> 6 & 1 ? SLUB_HC_DEBUG : 0) |
					     (b1 >> 7 ? SLUB_HC_TYPESAFE : 0));
		h->n++;
	}
	hc_canonicalize(area, p);
}

static size_t hc_encode(const void *area, const struct prog *p, uint8_t *b, size_t cap)
{
	const struct slub_hdr *h = area;
	size_t n = 0;
	int i;

	(void)p;
	for (i = 0; i < h->n && i < SLUB_HDR_CACHES && n + 2 <= cap; i++) {
		unsigned r = h->c[i].size - 7u;

		b[n++] = (uint8_t)(r & 0xff);
		b[n++] = (uint8_t)((r >> 8 & 3) | (h->c[i].order & 0xf) << 2 |
				   (h->c[i].flags & SLUB_HC_DEBUG ? 0x40 : 0) |
				   (h->c[i].flags & SLUB_HC_TYPESAFE ? 0x80 : 0));
	}
	return n;
}

static int hc_parse(struct hdr_parse *hp, const char *name, const char *k)
{
	struct parser *ps = hp->ps;
	struct slub_hdr *h = hp->area;

	if (strcmp(name, "caches"))
		return 1;
	if (*hp->seen)
		return perr(ps, k, "'caches' given twice");
	*hp->seen = true;
	for (;;) {
		const char *w, *end;
		char *e;
		long v;
		int i;

		skip_ws(ps);
		if (!*ps->pos)
			return h->n ? 0 : perr(ps, ps->pos, "caches: expected a cache's size, like "
					       "'caches: 24, 64 debug'");
		if (h->n >= SLUB_HDR_CACHES)
			return perr(ps, ps->pos, "more than %d caches", SLUB_HDR_CACHES);
		i = h->n;
		w = ps->pos;
		errno = 0;
		v = strtol(w, &e, 10);
		if (e == w || errno || (*e && !isspace((unsigned char)*e) && *e != ','))
			return perr(ps, w, "a cache's size: expected a number of bytes");
		if (v < 8 || v > 1024)
			return perr(ps, w, "cache size %ld: expected 8..1024", v);
		h->c[i].size = (uint16_t)v;
		ps->pos = e;
		for (;;) {
			skip_ws(ps);
			if (!*ps->pos || *ps->pos == ',')
				break;
			w = ps->pos;
			while (*ps->pos && *ps->pos != ',' && !isspace((unsigned char)*ps->pos))
				ps->pos++;
			end = ps->pos;
			if ((size_t)(end - w) == 5 && !strncmp(w, "debug", 5)) {
				h->c[i].flags |= SLUB_HC_DEBUG;
			} else if ((size_t)(end - w) == 15 && !strncmp(w, "typesafe_by_rcu", 15)) {
				h->c[i].flags |= SLUB_HC_TYPESAFE;
			} else if (end - w > 6 && !strncmp(w, "order=", 6)) {
				unsigned int lo = slub_hdr_min_order(h->c[i].size);

				errno = 0;
				v = strtol(w + 6, &e, 10);
				if (e != end || errno || e == w + 6)
					return perr(ps, w + 6, "order: expected a number");
				if (v < (long)lo || v > MODEL_MAX_ORDER)
					return perr(ps, w + 6, "order %ld for a %u-byte cache: expected "
						    "%u..%d (at least %d objects a slab)", v,
						    h->c[i].size, lo, MODEL_MAX_ORDER, SLUB_MIN_OBJECTS);
				h->c[i].order = v == (long)lo ? 0 : (uint8_t)v;
			} else {
				return perr(ps, w, "'%.*s': expected order=N, debug or "
					    "typesafe_by_rcu", (int)(end - w), w);
			}
		}
		h->n++;
		if (*ps->pos == ',') {
			ps->pos++;
			skip_ws(ps);
			if (!*ps->pos)
				return perr(ps, ps->pos, "caches: a cache expected after ','");
		}
	}
}

static void hc_print(const void *area, const struct prog *p, char *buf, size_t n)
{
	const struct slub_hdr *h = area;
	size_t len = 0;
	int i;

	(void)p;
	buf[0] = 0;
	for (i = 0; i < h->n && len < n; i++) {
		len += (size_t)snprintf(buf + len, n - len, "%s %u", i ? "," : "caches:",
					h->c[i].size);
		if (h->c[i].order && len < n)
			len += (size_t)snprintf(buf + len, n - len, " order=%u", h->c[i].order);
		if (h->c[i].flags & SLUB_HC_DEBUG && len < n)
			len += (size_t)snprintf(buf + len, n - len, " debug");
		if (h->c[i].flags & SLUB_HC_TYPESAFE && len < n)
			len += (size_t)snprintf(buf + len, n - len, " typesafe_by_rcu");
	}
	if (h->n && len < n)
		snprintf(buf + len, n - len, "\n");
}

/* The minimizer: a cache's flags, then its order, then the last cache. */
static int hc_shrink(void *area, const struct prog *p, int k)
{
	struct slub_hdr *h = area;
	int i;

	(void)p;
	for (i = 0; i < h->n; i++) {
		if (k-- == 0) {
			if (!h->c[i].flags)
				return -1;
			h->c[i].flags = 0;
			return 1;
		}
		if (k-- == 0) {
			if (!h->c[i].order)
				return -1;
			h->c[i].order = 0;
			return 1;
		}
	}
	if (k == 0 && h->n) {
		h->n--;
		hc_canonicalize(area, p);
		return 1;
	}
	return 0;
}

/* The executor makes the caches (and the kmalloc classes) when the header
 * has one or an operation is the layer's. */
static bool hc_run_begin(const void *area, const struct prog *p)
{
	const struct slub_hdr *h = area;
	int i;

	if (h->n)
		return true;
	for (i = 0; i < p->nops; i++) {
		const struct op_desc *d = op_desc_of(&p->ops[i]);

		if (d && d->code >= 0x60 && d->code <= 0x7f)
			return true;
	}
	return false;
}

struct hdr_section slub_section = {
	.layer = "slub", .id = 4, .cfg_base = 48,
	.area_size = sizeof(struct slub_hdr),
	.decode = hc_decode, .encode = hc_encode,
	.parse = hc_parse, .print = hc_print, .canonicalize = hc_canonicalize,
	.shrink = hc_shrink, .run_begin = hc_run_begin,
};
HEADER_SECTION(slub_section);

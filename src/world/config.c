// SPDX-License-Identifier: MIT
/*
 * The config table (config.h): the registry of keys, defaults, ranges and
 * the binary config block.
 *
 * Binary: a key of bin_len bytes holds k, the index of its value in its
 * range (value = lo + k * unit), little endian, XORed with the default's k
 * so that zero bytes mean the default.  Any bytes decode: k is folded into
 * the range.  With fuzz_n, the first 15/16 of the raw values fold onto
 * the first fuzz_n values and the last 16th onto the whole range: a mutated header
 * stays small and fast most of the time, every value stays reachable.
 */
#include "config.h"
#include "../sched/registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_config);

static const struct config_key *keys[MM_CONFIG_MAX];
static int nkeys;
static uint32_t defraw[MM_CONFIG_MAX];	/* each key's default, raw */
/* the value zero bytes decode to, for a key whose range depends on no
 * other key's value (no k->range): what config_decode_block would compute */
static long zero_value[MM_CONFIG_MAX];
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void compute_default_raw(void);

static int cmp_bin_off(const void *a, const void *b)
{
	return (int)((const struct config_key *)a)->bin_off - (int)((const struct config_key *)b)->bin_off;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct config_key *)a)->name, ((const struct config_key *)b)->name);
}

static const char *key_name(const void *e)
{
	return ((const struct config_key *)e)->name;
}

static const struct registry config_registry = {
	.what = "config key", .limit = "MM_CONFIG_MAX in src/world/config.h",
	REGISTRY_BOUNDS(mmfuzz_config), .cap = MM_CONFIG_MAX,
	.key = cmp_name, .order = cmp_bin_off, .name = key_name,
};

static void config_build(void)
{
	size_t n = registry_collect(&config_registry, (const void **)keys), i;

	for (i = 0; i < n; i++) {
		struct config_key *k = (struct config_key *)keys[i];

		/* a place taken twice, or out of the block, is a programming
		 * error that would change old corpus files: refuse to start.
		 * Sorted by bin_off, two keys overlap only if some neighbours
		 * do (a key begins before the one before it ends). */
		if (k->bin_len < 1 || k->bin_len > 3 || k->bin_off + k->bin_len > CONFIG_PLACES ||
		    (k->fuzz_n && (uint64_t)(k->hi - k->lo + 1) > 1ULL << (8 * k->bin_len - 4))) {
			fprintf(stderr, "mmfuzz: registry of config keys: config key %s: bad binary place "
				"%u+%u (1 to 3 bytes inside the %d-byte block, wide enough for fuzz_n)\n",
				k->name, k->bin_off, k->bin_len, CONFIG_PLACES);
			abort();
		}
		if (i && keys[i - 1]->bin_off + keys[i - 1]->bin_len > k->bin_off) {
			const struct config_key *p = keys[i - 1];

			fprintf(stderr, "mmfuzz: registry of config keys: config keys %s (bytes %u..%u) "
				"and %s (bytes %u..%u) overlap in the binary config block\n", p->name,
				p->bin_off, p->bin_off + p->bin_len - 1, k->name, k->bin_off,
				k->bin_off + k->bin_len - 1);
			abort();
		}
		k->id = (int)i;
	}
	nkeys = (int)n;
	/* --variant NAME finds its key by the name alone: two enumerated tune
	 * keys may not share a value name */
	for (i = 0; i < n; i++) {
		size_t j;
		long a, b;

		for (j = i + 1; j < n; j++) {
			if (!keys[i]->tune || !keys[i]->names || !keys[j]->tune || !keys[j]->names)
				continue;
			for (a = keys[i]->lo; a <= keys[i]->hi; a++)
				for (b = keys[j]->lo; b <= keys[j]->hi; b++)
					if (!strcmp(keys[i]->names[a], keys[j]->names[b])) {
						fprintf(stderr, "mmfuzz: registry of config keys: "
							"config keys %s and %s both have the value "
							"%s (--variant finds a key by its value's "
							"name)\n", keys[i]->name, keys[j]->name,
							keys[i]->names[a]);
						abort();
					}
		}
	}
	compute_default_raw();
}

void config_init(void)
{
	pthread_once(&config_once, config_build);
}

int config_nkeys(void)
{
	config_init();
	return nkeys;
}

const struct config_key *config_key_by_id(int id)
{
	config_init();
	return id >= 0 && id < nkeys ? keys[id] : NULL;
}

const struct config_key *config_key_lookup(const char *name)
{
	config_init();
	return registry_lookup(&config_registry, (const void *const *)keys, (size_t)nkeys, name);
}

void config_default(struct mm_config *c)
{
	int i;

	config_init();
	memset(c, 0, sizeof(*c));
	for (i = 0; i < nkeys; i++)
		c->v[i] = keys[i]->def;
}

void config_range(const struct mm_config *c, const struct config_key *k, long *lo, long *hi,
		  long *unit)
{
	*lo = k->lo;
	*hi = k->hi;
	*unit = 1;
	if (k->range)
		k->range(c, lo, hi, unit);
}

const char *config_check(const struct mm_config *c, const struct config_key **bad, char *msg,
			 size_t n)
{
	int i;

	config_init();
	for (i = 0; i < nkeys; i++) {
		const struct config_key *k = keys[i];
		long lo, hi, unit, v = c->v[i];

		config_range(c, k, &lo, &hi, &unit);
		if (v >= lo && v <= hi && (v - lo) % unit == 0)
			continue;
		if (bad)
			*bad = k;
		if (k->names)
			snprintf(msg, n, "%s: no such value", k->name);
		else if (unit > 1)
			snprintf(msg, n, "%s (%ld) must be a multiple of %ld from %ld to %ld", k->name,
				 v, unit, lo, hi);
		else
			snprintf(msg, n, "%s must be between %ld and %ld, not %ld", k->name, lo, hi, v);
		if (k->range_why && strlen(msg) + 1 < n)
			snprintf(msg + strlen(msg), n - strlen(msg), " (%s)", k->range_why);
		return msg;
	}
	return NULL;
}

long config_enum_lookup(const struct config_key *k, const char *name)
{
	long v;

	if (!k->names)
		return -1;
	for (v = k->lo; v <= k->hi; v++)
		if (!strcmp(k->names[v], name))
			return v;
	return -1;
}

const struct config_key *config_variant_lookup(const char *name, long *v)
{
	int i;

	config_init();
	for (i = 0; i < nkeys; i++) {
		if (!keys[i]->tune || !keys[i]->names)
			continue;
		*v = config_enum_lookup(keys[i], name);
		if (*v >= 0)
			return keys[i];
	}
	return NULL;
}

const char *config_value_str(const struct config_key *k, long v, char *buf, size_t n)
{
	if (k->names && v >= k->lo && v <= k->hi)
		snprintf(buf, n, "%s", k->names[v]);
	else
		snprintf(buf, n, "%ld", v);
	return buf;
}

/* ---- the binary block ---- */

static uint32_t rd_le(const uint8_t *b, int len)
{
	uint32_t v = 0;
	int i;

	for (i = len - 1; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static void wr_le(uint8_t *b, int len, uint32_t v)
{
	int i;

	for (i = 0; i < len; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

/* Number of values of @k given @c, and how many of them the narrow part
 * of the raw space covers. */
static void key_counts(const struct mm_config *c, const struct config_key *k, long *lo,
		       long *unit, uint32_t *nvals, uint32_t *nfuzz)
{
	long hi;

	config_range(c, k, lo, &hi, unit);
	*nvals = hi >= *lo ? (uint32_t)((hi - *lo) / *unit + 1) : 1;
	*nfuzz = *nvals;
	if (k->fuzz_n > 0 && (uint32_t)k->fuzz_n < *nvals)
		*nfuzz = (uint32_t)k->fuzz_n;
}

/* Raw values from here on fold onto the whole range (the last 16th). */
static uint32_t wide_cut(const struct config_key *k)
{
	uint64_t space = 1ULL << (8 * k->bin_len);

	return (uint32_t)(space - space / 16);
}

/* The raw form of value index @idx. */
static uint32_t raw_of_index(const struct config_key *k, uint32_t idx, uint32_t nfuzz,
			     uint32_t nvals)
{
	if (nfuzz == nvals || idx < nfuzz)
		return idx;
	return wide_cut(k) + idx;
}

static uint32_t index_of_raw(const struct config_key *k, uint32_t raw, uint32_t nfuzz,
			     uint32_t nvals)
{
	if (nfuzz == nvals)
		return raw % nvals;
	if (raw < wide_cut(k))
		return raw % nfuzz;
	return (raw - wide_cut(k)) % nvals;
}

/* The value of @k that raw form @raw (bin_len bytes) means under @c. */
static long decode_raw(const struct mm_config *c, const struct config_key *k, uint32_t raw)
{
	uint32_t nvals, nfuzz;
	long lo, unit;

	if (k->bin_len < 4)
		raw &= (1u << (8 * k->bin_len)) - 1;
	key_counts(c, k, &lo, &unit, &nvals, &nfuzz);
	return lo + (long)index_of_raw(k, raw, nfuzz, nvals) * unit;
}

/* The raw form of each key's default value under the default config. */
static void compute_default_raw(void)
{
	struct mm_config d;
	int i;

	memset(&d, 0, sizeof(d));
	for (i = 0; i < nkeys; i++)
		d.v[i] = keys[i]->def;
	for (i = 0; i < nkeys; i++) {
		uint32_t nvals, nfuzz;
		long lo, unit;

		key_counts(&d, keys[i], &lo, &unit, &nvals, &nfuzz);
		defraw[i] = raw_of_index(keys[i], (uint32_t)((keys[i]->def - lo) / unit), nfuzz,
					 nvals);
	}
	for (i = 0; i < nkeys; i++)
		if (!keys[i]->range)
			zero_value[i] = decode_raw(&d, keys[i], defraw[i]);
}

static uint32_t default_raw(const struct config_key *k)
{
	return defraw[k->id];
}

void config_decode_block(const uint8_t *b, struct mm_config *c)
{
	int i;

	config_default(c);
	for (i = 0; i < nkeys; i++) {
		const struct config_key *k = keys[i];
		uint32_t stored = rd_le(b + k->bin_off, k->bin_len);

		/* most bytes of a block are zero: a fixed range's value for them
		 * is known (zero_value) */
		c->v[i] = !stored && !k->range ? zero_value[i] : decode_raw(c, k, stored ^ default_raw(k));
	}
}

void config_encode_block(const struct mm_config *c, uint8_t *b)
{
	int i;

	memset(b, 0, CONFIG_PLACES);
	for (i = 0; i < nkeys; i++) {
		const struct config_key *k = keys[i];
		uint32_t nvals, nfuzz, idx;
		long lo, unit;

		key_counts(c, k, &lo, &unit, &nvals, &nfuzz);
		idx = (uint32_t)((c->v[i] - lo) / unit);
		wr_le(b + k->bin_off, k->bin_len, raw_of_index(k, idx, nfuzz, nvals) ^ default_raw(k));
	}
}

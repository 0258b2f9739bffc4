/* SPDX-License-Identifier: MIT */
/*
 * The config table: every key a world is built from (the machine's CPUs,
 * the page allocator's zones and pcp sizes, and each later layer's own),
 * declared once, in the file of its layer, with its name, range, default and
 * its place in the binary header.  The text parser and printer, the binary
 * header, the minimizer's machine shrinking and the stress mode all read
 * this one table.
 *
 * A key is registered with CONFIG_KEY(); config_init() collects them (link
 * order does not matter) in the order of their binary places, which is also
 * the order the text form prints them in.  A key's range may depend on the
 * keys before it (pageblock_order <= max_order; zone_pages a multiple of
 * 2^max_order): range() says so.
 */
#ifndef MMFUZZ_MM_CONFIG_H
#define MMFUZZ_MM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sched/registry.h"

#define MM_CONFIG_MAX		32	/* keys, all layers */
#define CONFIG_BIN_BYTES	44	/* v2's config block: places 0..43 */
#define CONFIG_PLACES		256	/* every place a key may have: v3's header
					 * sections hold them all (prog/header.h) */

/* The values of every key, indexed by the key's id. */
struct mm_config {
	long v[MM_CONFIG_MAX];
};

struct config_key {
	const char *name;		/* text form: "pcp_high: 12" */
	const char *layer;		/* "machine", "pagealloc", ... */
	const char *desc;
	long lo, hi, def;		/* the range given nothing else */
	/*
	 * Binary: 15/16 of the raw values fall on the first fuzz_n values of
	 * the range (lo, lo + unit, ...), so that a mutated header stays
	 * small and fast most of the time while every value up to hi stays
	 * reachable (0: uniform over the range).  zone_pages counts in
	 * max-order blocks this way, whatever max_order is.
	 */
	long fuzz_n;
	const char *const *names;	/* an enumerated key's value names, else NULL */
	bool shrink;			/* smaller is a smaller machine: the minimizer tries it */
	/* The key sizes nothing: a world built for another value serves once
	 * its layer's tune() has set this one (the world cache keys on the
	 * other keys, the machine's shape). */
	bool tune;
	/* place in the config block: fixed forever (v2 files have only the
	 * places below CONFIG_BIN_BYTES: a key past them reads its default) */
	unsigned char bin_off, bin_len;
	/* The range given the keys with smaller binary places: values are
	 * lo, lo + unit, ..., up to hi.  NULL: lo..hi, unit 1. */
	void (*range)(const struct mm_config *c, long *lo, long *hi, long *unit);
	/* what range() takes from the other keys, said when a value is out of
	 * it ("at most one node per CPU"), or NULL */
	const char *range_why;
	int id;				/* index in mm_config.v (config_init) */
};

/* Register @key (a struct config_key defined in the layer's file). */
#define CONFIG_KEY(key)								\
	REGISTER(mmfuzz_config, const struct config_key *, __ckp_##key, &(key))

void config_init(void);
int config_nkeys(void);
/* The keys in binary order (= id order = the text form's order). */
const struct config_key *config_key_by_id(int id);
const struct config_key *config_key_lookup(const char *name);

static inline long config_get(const struct mm_config *c, const struct config_key *k)
{
	return c->v[k->id];
}

static inline void config_set(struct mm_config *c, const struct config_key *k, long v)
{
	c->v[k->id] = v;
}

void config_default(struct mm_config *c);
/* The range of @k given the other keys of @c. */
void config_range(const struct mm_config *c, const struct config_key *k, long *lo, long *hi,
		  long *unit);
/* Is every key in its range?  NULL, or a message naming the first key out
 * of range (and *bad = that key). */
const char *config_check(const struct mm_config *c, const struct config_key **bad,
			 char *msg, size_t n);
/* An enumerated key's value by name, or -1. */
long config_enum_lookup(const struct config_key *k, const char *name);
/* The enumerated tune key with a value named @name, and that value in *@v
 * (a name is one key's at most: config_init refuses two), or NULL: what
 * mmfuzz stress --variant NAME sets. */
const struct config_key *config_variant_lookup(const char *name, long *v);
/* "pcp_high", value 12 -> "12"; an enum's name for enums. */
const char *config_value_str(const struct config_key *k, long v, char *buf, size_t n);

/* The binary config block, CONFIG_PLACES bytes: zero bytes mean the
 * defaults; any bytes decode to a valid config (each key folded into its
 * range). */
void config_decode_block(const uint8_t *b, struct mm_config *c);
void config_encode_block(const struct mm_config *c, uint8_t *b);

#endif /* MMFUZZ_MM_CONFIG_H */

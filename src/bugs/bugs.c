// SPDX-License-Identifier: MIT
/*
 * The registry of bug switches (bugs.h): each layer registers its own with
 * BUG_SWITCH() beside the code it bites in; here they are collected, by
 * bit, once.
 */
#include "bugs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t bugs_enabled;

REGISTRY_SECTION(mmfuzz_bugs);

static const struct bug_info *switches[BUGS_MAX];	/* by bit order */
static const struct bug_info *by_bit[BUGS_MAX];
static int nswitches;
static uint64_t known;
static pthread_once_t bugs_once = PTHREAD_ONCE_INIT;

static int cmp_bit(const void *a, const void *b)
{
	return ((const struct bug_info *)a)->bit - ((const struct bug_info *)b)->bit;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct bug_info *)a)->name, ((const struct bug_info *)b)->name);
}

static const char *switch_name(const void *e)
{
	return ((const struct bug_info *)e)->name;
}

/* A bit is a switch's forever (corpus files hold the bits): two of one bit
 * are refused, and two of one name, which the text form could not tell apart. */
static const struct registry bits_registry = {
	.what = "bug switch", .plural = "bug switches", .limit = "BUGS_MAX, the 64 bits of the binary header",
	REGISTRY_BOUNDS(mmfuzz_bugs), .cap = BUGS_MAX,
	.key = cmp_bit, .keyname = "bit", .name = switch_name,
};

static __attribute__((noreturn)) void bugs_bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "mmfuzz: registry of bug switches: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n");
	abort();
}

static void bugs_build(void)
{
	struct registry names = bits_registry;
	const void *tmp[BUGS_MAX];
	size_t n, i;

	names.key = cmp_name;
	names.keyname = NULL;
	registry_collect(&names, tmp);
	n = registry_collect(&bits_registry, (const void **)switches);
	for (i = 0; i < n; i++) {
		const struct bug_info *b = switches[i];

		if (b->bit < 0 || b->bit >= BUGS_MAX)
			bugs_bad("bug switch %s: a bit outside 0..63%s", b->name, "");
		by_bit[b->bit] = b;
		known |= 1ULL << b->bit;
	}
	nswitches = (int)n;
}

static inline void bugs_init(void)
{
	pthread_once(&bugs_once, bugs_build);
}

int bugs_count(void)
{
	bugs_init();
	return nswitches;
}

const struct bug_info *bug_by_index(int i)
{
	bugs_init();
	return i >= 0 && i < nswitches ? switches[i] : NULL;
}

const struct bug_info *bug_by_bit(int bit)
{
	bugs_init();
	return bit >= 0 && bit < BUGS_MAX ? by_bit[bit] : NULL;
}

const char *bug_name(int bit)
{
	const struct bug_info *b = bug_by_bit(bit);

	return b ? b->name : NULL;
}

uint64_t bugs_known(void)
{
	bugs_init();
	return known;
}

int bug_lookup(const char *name)
{
	const struct bug_info *b;

	bugs_init();
	b = registry_lookup(&bits_registry, (const void *const *)switches, (size_t)nswitches, name);
	return b ? b->bit : -1;
}

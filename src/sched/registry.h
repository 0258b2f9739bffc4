/* SPDX-License-Identifier: MIT */
/*
 * Registries: what a layer's own files register (config keys, world layers,
 * operations, checkers, owner sources, yield sites, stress workloads, bug
 * switches) is a pointer left in a linker section of its own, which the
 * linker brackets with __start_<section> and __stop_<section>.  A registry
 * collects its section once, at start: it counts the entries against the
 * capacity the build holds, sorts them (link order differs between
 * compilers and builds), and refuses two entries that are equal under its
 * key.  A refusal is a programming error that would change the meaning of
 * old corpus files or lose an entry: the tool says which entry and which
 * limit, and stops before anything runs.
 *
 * The registry is freestanding (libc only) and sits at the bottom of the
 * arrows, so that every layer, the scheduler's yield sites included, can
 * include it.
 *
 *	REGISTRY_SECTION(mmfuzz_checkers);	(once, in the collecting file)
 *	static const struct registry checkers_reg = {
 *		.what = "checker", .limit = "MAX_CHECKERS in src/check/run.c",
 *		REGISTRY_BOUNDS(mmfuzz_checkers), .cap = MAX_CHECKERS,
 *		.key = cmp_name, .order = cmp_prio, .name = checker_name,
 *	};
 *	n = registry_collect(&checkers_reg, (const void **)checkers);
 *
 * An entry is registered with REGISTER(mmfuzz_checkers, type, var, &x) or
 * the registry's own macro over it (CONFIG_KEY, WORLD_LAYER, CHECKER, ...).
 */
#ifndef MMFUZZ_SCHED_REGISTRY_H
#define MMFUZZ_SCHED_REGISTRY_H

#include <stddef.h>

/* The attribute of a pointer in section @sec. */
#define __registry(sec)	__attribute__((section(#sec), used))

/* Leave @ptr, of type @type (a pointer), in section @sec, as @var. */
#define REGISTER(sec, type, var, ptr)	static type var __registry(sec) = (ptr)

/* The linker's brackets of section @sec (declared once per file). */
#define REGISTRY_SECTION(sec)	extern void *__start_##sec[], *__stop_##sec[]
#define REGISTRY_BOUNDS(sec)	.start = __start_##sec, .stop = __stop_##sec

struct registry {
	const char *what;		/* the entries' noun: "config key" */
	const char *plural;		/* NULL: what + "s" */
	const char *limit;		/* where the capacity is set, for the message */
	void **start, **stop;		/* the section (REGISTRY_BOUNDS) */
	size_t cap;			/* entries the caller's array holds */
	/* Entries equal under key are duplicates, refused (NULL: none are);
	 * order sorts the collected array (NULL: key's order; both NULL:
	 * link order).  Both compare two entries, not pointers to them. */
	int (*key)(const void *a, const void *b);
	int (*order)(const void *a, const void *b);
	const char *keyname;		/* what key compares: "code", "bit" (messages) */
	const char *(*name)(const void *e);	/* for messages and lookup */
};

/* Entries in @r's section. */
size_t registry_count(const struct registry *r);

/*
 * Collect @r's section into @out (r->cap entries), sorted; the number of
 * entries.  Too many entries, or two equal under r->key: a message naming
 * the entry and the limit on stderr, and abort(), before anything runs.
 */
size_t registry_collect(const struct registry *r, const void **out);

/* registry_collect() that says why not in @err instead: 0 or -1. */
int registry_try_collect(const struct registry *r, const void **out, size_t *n, char *err,
			 size_t errlen);

/* The entry of @v[0..n) that r->name calls @name, or NULL. */
const void *registry_lookup(const struct registry *r, const void *const *v, size_t n,
			    const char *name);

#endif /* MMFUZZ_SCHED_REGISTRY_H */

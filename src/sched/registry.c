// SPDX-License-Identifier: MIT
/* Registries over linker sections (registry.h). */
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_key(const void *a, const void *b, void *arg)
{
	const struct registry *r = arg;

	return r->key(*(const void *const *)a, *(const void *const *)b);
}

static int cmp_order(const void *a, const void *b, void *arg)
{
	const struct registry *r = arg;

	return r->order(*(const void *const *)a, *(const void *const *)b);
}

static const char *entry_name(const struct registry *r, const void *e)
{
	const char *s = r->name ? r->name(e) : NULL;

	return s ? s : "(unnamed)";
}

/* "config keys" */
static const char *plural(const struct registry *r, char *buf, size_t n)
{
	if (r->plural)
		return r->plural;
	snprintf(buf, n, "%ss", r->what);
	return buf;
}

size_t registry_count(const struct registry *r)
{
	return (size_t)(r->stop - r->start);
}

int registry_try_collect(const struct registry *r, const void **out, size_t *n, char *err,
			 size_t errlen)
{
	size_t i, count = registry_count(r);
	char pl[64];

	*n = 0;
	if (count > r->cap) {
		snprintf(err, errlen, "%zu %s registered, more than the %zu this build holds (%s)",
			 count, plural(r, pl, sizeof(pl)), r->cap, r->limit ? r->limit : "its registry's capacity");
		return -1;
	}
	for (i = 0; i < count; i++) {
		if (!r->start[i]) {
			snprintf(err, errlen, "%s %zu of the section is NULL", r->what, i);
			return -1;
		}
		out[i] = r->start[i];
	}
	if (r->key) {
		qsort_r(out, count, sizeof(*out), cmp_key, (void *)r);
		for (i = 1; i < count; i++)
			if (!r->key(out[i - 1], out[i])) {
				const char *a = entry_name(r, out[i - 1]), *b = entry_name(r, out[i]);

				if (!strcmp(a, b))
					snprintf(err, errlen, "%s %s registered twice", r->what, a);
				else
					snprintf(err, errlen, "%s %s and %s have the same %s",
						 plural(r, pl, sizeof(pl)), a, b, r->keyname ? r->keyname : "key");
				return -1;
			}
	}
	if (r->order)
		qsort_r(out, count, sizeof(*out), cmp_order, (void *)r);
	*n = count;
	return 0;
}

size_t registry_collect(const struct registry *r, const void **out)
{
	char err[256], pl[64];
	size_t n;

	if (registry_try_collect(r, out, &n, err, sizeof(err))) {
		fprintf(stderr, "mmfuzz: registry of %s: %s\n", plural(r, pl, sizeof(pl)), err);
		abort();
	}
	return n;
}

const void *registry_lookup(const struct registry *r, const void *const *v, size_t n,
			    const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(entry_name(r, v[i]), name))
			return v[i];
	return NULL;
}

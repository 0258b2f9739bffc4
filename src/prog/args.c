// SPDX-License-Identifier: MIT
/*
 * Operation arguments by kind (ops.h): their ranges under a config, their
 * binary folding, and their text.
 */
#include "prog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int arg_lo(const struct op_arg *a)
{
	switch (a->kind) {
	case ARG_INT:
		return a->lo;
	case ARG_ZONE:
		return a->all ? -1 : 0;
	default:
		return 0;
	}
}

int arg_hi(const struct op_arg *a, const struct mm_config *c)
{
	int hi;

	switch (a->kind) {
	case ARG_INT:
		hi = a->hi;
		if (a->hi_key && config_get(c, a->hi_key) < hi)
			hi = (int)config_get(c, a->hi_key);
		return hi;
	case ARG_ENUM:
		return a->nnames - 1;
	case ARG_FLAGS:
		return (1 << a->nnames) - 1;
	case ARG_ZONE:	/* the world's zones: node 0's, a Normal on each other node */
		return (int)(config_get(c, &ck_zones) + config_get(c, &ck_nodes) - 1) - 1;
	case ARG_CPU:
		return (int)config_get(c, &ck_cpus) - 1;
	default:
		return 0x7fffffff;
	}
}

int arg_from_raw(const struct op_arg *a, unsigned raw, const struct mm_config *c)
{
	int lo = arg_lo(a), hi = arg_hi(a, c);

	switch (a->kind) {
	case ARG_FLAGS:
		return (int)(raw & (unsigned)hi);
	case ARG_HANDLE:
		return (int)raw;
	default:
		return lo + (int)(raw % (unsigned)(hi - lo + 1));
	}
}

unsigned arg_to_raw(const struct op_arg *a, int v)
{
	switch (a->kind) {
	case ARG_FLAGS:
	case ARG_HANDLE:
		return (unsigned)v;
	default:
		return (unsigned)(v - arg_lo(a));
	}
}

bool arg_valid(const struct op_arg *a, int v, const struct mm_config *c)
{
	if (a->kind == ARG_FLAGS)
		return (v & ~arg_hi(a, c)) == 0;
	if (a->kind == ARG_HANDLE)
		return v >= 0;
	return v >= arg_lo(a) && v <= arg_hi(a, c);
}

const char *arg_str(const struct op_arg *a, int v, char *buf, size_t n)
{
	size_t len = 0;
	int i;

	switch (a->kind) {
	case ARG_ENUM:
		snprintf(buf, n, "%s", v >= 0 && v < a->nnames ? a->names[v] : "?");
		return buf;
	case ARG_ZONE:
		if (v < 0) {
			snprintf(buf, n, "all");
			return buf;
		}
		break;
	case ARG_FLAGS: {
		const struct flag_alias *al;
		int rest = v;

		buf[0] = 0;
		/* the first alias that is all set, then the bits left */
		for (al = a->aliases; al && al->name; al++)
			if ((v & al->bits) == al->bits) {
				len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s", al->name);
				rest &= ~al->bits;
				break;
			}
		for (i = 0; i < a->nnames; i++)
			if (rest & (1 << i))
				len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
							len ? "|" : "", a->names[i]);
		if (!len)
			snprintf(buf, n, "0");
		return buf;
	}
	default:
		break;
	}
	snprintf(buf, n, "%d", v);
	return buf;
}

/* A decimal or 0x hexadecimal number (no octal: "010" is ten). */
static int parse_int(const char *s, size_t n, long *out)
{
	char tmp[32], *end;
	int base = 10;

	if (!n || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s, n);
	tmp[n] = 0;
	if (n > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X'))
		base = 16;
	else if (tmp[0] == '+' || (tmp[0] == '-' && n == 1))
		return -1;
	errno = 0;
	*out = strtol(tmp, &end, base);
	return *end || errno || (base == 16 && end == tmp + 2) ? -1 : 0;
}

int arg_parse(const struct op_arg *a, const char *s, size_t n, const struct mm_config *c, int *out,
	      char *err, size_t errlen)
{
	long v;
	int i, lo = arg_lo(a), hi = arg_hi(a, c);

	switch (a->kind) {
	case ARG_ENUM:
		for (i = 0; i < a->nnames; i++)
			if (strlen(a->names[i]) == n && !strncmp(a->names[i], s, n)) {
				*out = i;
				return 0;
			}
		{
			size_t len = (size_t)snprintf(err, errlen, "%s is", a->name);

			for (i = 0; i < a->nnames && len < errlen; i++)
				len += (size_t)snprintf(err + len, errlen - len, "%s %s",
							i ? (i + 1 == a->nnames ? " or" : ",") : "",
							a->names[i]);
		}
		return -1;
	case ARG_FLAGS: {
		const char *p = s, *e = s + n;
		int bits = 0;

		while (p < e) {
			const char *q = memchr(p, '|', (size_t)(e - p));
			const struct flag_alias *al;
			size_t len;
			bool found = false;

			if (!q)
				q = e;
			len = (size_t)(q - p);
			if (len == 1 && *p == '0')
				found = true;
			for (al = a->aliases; !found && al && al->name; al++)
				if (strlen(al->name) == len && !strncmp(al->name, p, len)) {
					bits |= al->bits;
					found = true;
				}
			for (i = 0; !found && i < a->nnames; i++)
				if (strlen(a->names[i]) == len && !strncmp(a->names[i], p, len)) {
					bits |= 1 << i;
					found = true;
				}
			if (!found) {
				snprintf(err, errlen, "unknown %s flag '%.*s'", a->name, (int)len, p);
				return -1;
			}
			p = q + 1;
		}
		*out = bits;
		return 0;
	}
	case ARG_ZONE:
		if (a->all && n == 3 && !strncmp(s, "all", 3)) {
			*out = -1;
			return 0;
		}
		lo = 0;
		break;
	default:
		break;
	}
	if (parse_int(s, n, &v)) {
		snprintf(err, errlen, "'%.*s' is not a number (%s)", (int)n, s, a->name);
		return -1;
	}
	if (v < lo || v > hi) {
		if (a->kind == ARG_ZONE && a->all)
			snprintf(err, errlen, "%s must be all or between 0 and %d, not %ld", a->name, hi, v);
		else
			snprintf(err, errlen, "%s must be between %d and %d, not %ld", a->name, lo, hi, v);
		return -1;
	}
	*out = (int)v;
	return 0;
}

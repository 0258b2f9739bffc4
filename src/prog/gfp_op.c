// SPDX-License-Identifier: MIT
/*
 * The gfp of a program's alloc_pages operation (gfp_op.h): its eight bits in
 * the binary form and its names in the text form, printed the way the
 * kernel's %pGg prints a mask (include/trace/events/mmflags.h: the
 * combinations first, then the single flags).
 *
 * No state, no lock.
 */
#include "gfp_op.h"

#include <stdio.h>
#include <string.h>

/* Bit i of the binary form is gfp_op_bit[i]; the order is fixed forever. */
const gfp_t gfp_op_bit[GFP_OP_BITS] = {
	__GFP_HIGH,
	__GFP_DIRECT_RECLAIM,
	__GFP_KSWAPD_RECLAIM,
	__GFP_COMP,
	__GFP_ZERO,
	__GFP_NOWARN,
	__GFP_MEMALLOC,
	__GFP_NOFAIL,
};

const struct gfp_name gfp_op_names[] = {
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
	{ GFP_NOWAIT, "GFP_NOWAIT" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_COMP, "__GFP_COMP" },
	{ __GFP_ZERO, "__GFP_ZERO" },
	{ __GFP_MEMALLOC, "__GFP_MEMALLOC" },
	{ __GFP_DIRECT_RECLAIM, "__GFP_DIRECT_RECLAIM" },
	{ __GFP_KSWAPD_RECLAIM, "__GFP_KSWAPD_RECLAIM" },
	{ 0, NULL }
};

/* A program's gfp: both reclaim bits are GFP_KERNEL (no I/O or FS reclaim
 * in the model to tell it from GFP_NOIO). */
gfp_t gfp_from_op_bits(uint8_t bits)
{
	gfp_t gfp = 0;
	int i;

	for (i = 0; i < GFP_OP_BITS; i++)
		if (bits & (1u << i))
			gfp |= gfp_op_bit[i];
	if ((gfp & __GFP_RECLAIM) == __GFP_RECLAIM)
		gfp |= __GFP_IO | __GFP_FS;
	return gfp;
}

uint8_t gfp_to_op_bits(gfp_t gfp)
{
	uint8_t bits = 0;
	int i;

	for (i = 0; i < GFP_OP_BITS; i++)
		if (gfp & gfp_op_bit[i])
			bits |= (uint8_t)(1u << i);
	return bits;
}

int gfp_op_format(char *buf, size_t n, gfp_t gfp)
{
	const struct gfp_name *f;
	size_t len = 0;
	int k;

	gfp = gfp_from_op_bits(gfp_to_op_bits(gfp));
	if (n)
		buf[0] = '\0';
	if (!gfp)
		return snprintf(buf, n, "0");
	for (f = gfp_op_names; f->name; f++) {
		if ((gfp & f->mask) != f->mask)
			continue;
		gfp &= ~f->mask;
		k = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "%s%s",
			     len ? "|" : "", f->name);
		len += (size_t)k;
	}
	return (int)len;
}

int gfp_op_parse(const char *s, size_t len, gfp_t *out, size_t *bad)
{
	size_t i = 0;
	gfp_t gfp = 0;

	if (len == 1 && s[0] == '0') {
		*out = 0;
		return 0;
	}
	for (;;) {
		const struct gfp_name *f;
		size_t j = i;

		while (j < len && s[j] != '|')
			j++;
		for (f = gfp_op_names; f->name; f++)
			if (strlen(f->name) == j - i && !memcmp(f->name, s + i, j - i))
				break;
		if (!f->name) {
			*bad = i;
			return -1;
		}
		gfp |= f->mask;
		if (j == len)
			break;
		i = j + 1;
	}
	*out = gfp_from_op_bits(gfp_to_op_bits(gfp));
	return 0;
}

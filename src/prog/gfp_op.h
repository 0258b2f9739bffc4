/* SPDX-License-Identifier: MIT */
/* The program encoding of a gfp mask (gfp_op.c): the program's, not the model's. */
#ifndef MMFUZZ_PROG_GFP_OP_H
#define MMFUZZ_PROG_GFP_OP_H

#include <stddef.h>
#include <stdint.h>

#include "../mm/gfp.h"

/*
 * The gfp of a program's alloc_pages operation: eight bits in the binary
 * form, in this fixed order, and these names in the text form (the
 * combinations first, the way the kernel's %pGg prints them).  The model
 * has no I/O or filesystem reclaim, so both reclaim bits read back as
 * GFP_KERNEL.  (gfp_op.c)
 */
#define GFP_OP_BITS	8
extern const gfp_t gfp_op_bit[GFP_OP_BITS];
struct gfp_name {
	gfp_t mask;
	const char *name;
};
extern const struct gfp_name gfp_op_names[];	/* ends with { 0, NULL } */
gfp_t gfp_from_op_bits(uint8_t bits);
uint8_t gfp_to_op_bits(gfp_t gfp);
/* "GFP_ATOMIC|__GFP_COMP" ("0" for none); the length snprintf would return */
int gfp_op_format(char *buf, size_t n, gfp_t gfp);
/* Parse names joined by '|' (or "0"): 0, or -1 with *bad at the first
 * character of the name that is not one. */
int gfp_op_parse(const char *s, size_t len, gfp_t *out, size_t *bad);

#endif /* MMFUZZ_PROG_GFP_OP_H */

/* SPDX-License-Identifier: MIT */
/*
 * The SLUB layer's program side: its header section (ops_slub_header.c:
 * the caches made at boot) and its operations (ops_slub.c).
 */
#ifndef MMFUZZ_PROG_OPS_SLUB_H
#define MMFUZZ_PROG_OPS_SLUB_H

#include <stdint.h>

#include "header.h"
#include "prog.h"

#include "../mm/slub_world.h"

/* header cache flags (text: debug, typesafe_by_rcu) */
#define SLUB_HC_DEBUG		1
#define SLUB_HC_TYPESAFE	2

/* the section's area: the header's caches, in order */
struct slub_hdr {
	unsigned char n;
	struct {
		uint16_t size;		/* 8..1024 */
		uint8_t order;		/* 0: calculate_order's */
		uint8_t flags;		/* SLUB_HC_* */
	} c[SLUB_HDR_CACHES];
};
_Static_assert(sizeof(struct slub_hdr) <= HDR_AREA_BYTES, "the caches fit the area");

extern struct hdr_section slub_section;

static inline const struct slub_hdr *slub_hdr_of(const struct prog *p)
{
	return prog_area_c(p, &slub_section);
}

/* calculate_order (slab_common.c) for a cache of @size: the least order
 * whose slab holds SLUB_MIN_OBJECTS slots of the object and its cookie */
static inline unsigned int slub_hdr_min_order(unsigned int size)
{
	unsigned int slot = ((size + 7) & ~7U) + 8, order = 0;

	while ((MODEL_PAGE_SIZE << order) / slot < SLUB_MIN_OBJECTS)
		order++;
	return order;
}

#endif /* MMFUZZ_PROG_OPS_SLUB_H */

/* SPDX-License-Identifier: MIT */
/* The TLB layer's header section (ops_tlb_header.c): the header mms. */
#ifndef MMFUZZ_PROG_OPS_TLB_H
#define MMFUZZ_PROG_OPS_TLB_H

#include "prog.h"

extern struct hdr_section tlb_section;

/*
 * The header's address spaces ("mms: T0 T1, T2"), a byte a task: 0, the
 * task gets a private mm at its first operation that needs one; g, it runs
 * in the header's mm g-1 from its first operation (made before any task
 * runs).  Canonical: mms numbered in the order of their first task.
 */
static inline unsigned char *tlb_mm_of(struct prog *p)
{
	return prog_area(p, &tlb_section);
}

static inline const unsigned char *tlb_mm_of_c(const struct prog *p)
{
	return prog_area_c(p, &tlb_section);
}

/* Number the header's mms in the order of their first task; forget the
 * mms of tasks the program does not have. */
void prog_canonical_mms(struct prog *p);
/* How many mms the header makes. */
int prog_nmms(const struct prog *p);

#endif /* MMFUZZ_PROG_OPS_TLB_H */

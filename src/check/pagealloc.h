/* SPDX-License-Identifier: MIT */
/* Between the page allocator's checker files (pagealloc.c, pagealloc_read.c). */
#ifndef MMFUZZ_CHECK_PAGEALLOC_H
#define MMFUZZ_CHECK_PAGEALLOC_H

/* The zones I-PCP-2 holds for: every one not disabled by a disable whose
 * drain met 6.6's known race. */
unsigned int pcp2_zones(void);

#endif /* MMFUZZ_CHECK_PAGEALLOC_H */

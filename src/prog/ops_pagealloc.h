/* SPDX-License-Identifier: MIT */
/* The page allocator's operations (ops_pagealloc.c): what other layers use. */
#ifndef MMFUZZ_PROG_OPS_PAGEALLOC_H
#define MMFUZZ_PROG_OPS_PAGEALLOC_H

#include "ops.h"

/* A block of pages the program holds (h3 = alloc_pages ...). */
extern const struct handle_kind hk_page;

#endif /* MMFUZZ_PROG_OPS_PAGEALLOC_H */

/* SPDX-License-Identifier: MIT */
/* The page allocator's operations (ops_pagealloc.c): what other layers use. */
#ifndef MMFUZZ_PROG_OPS_PAGEALLOC_H
#define MMFUZZ_PROG_OPS_PAGEALLOC_H

#include "ops.h"

/* A block of pages the program holds (h3 = alloc_pages ...). */
extern const struct handle_kind hk_page;
struct shadow_table;
/* the shadow's view of the executor's handle table (check.h) */
extern const struct shadow_table page_table;
/* pagealloc_hooks.page_moved while a program runs: handle_moved(&hk_page) */
void pagealloc_page_moved(struct page *from, struct page *to);

#endif /* MMFUZZ_PROG_OPS_PAGEALLOC_H */

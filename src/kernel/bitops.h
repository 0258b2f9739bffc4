/* SPDX-License-Identifier: MIT */
/*
 * Atomic bit operations on an unsigned long of flags (the kernel's
 * set_bit, clear_bit, test_bit).  set_bit and clear_bit are atomic RMWs:
 * a yield point each.  test_bit is a relaxed load and no yield point: the
 * flags it reads (zone->flags) are tested on paths every run takes (a pcp
 * free), and a point there would move every schedule; a switch right
 * before the change is the setter's own point.
 */
#ifndef MMFUZZ_KERNEL_BITOPS_H
#define MMFUZZ_KERNEL_BITOPS_H

#include "compiler.h"

#define set_bit(nr, addr) do {							\
	__racy_point(YP_ATOMIC, #addr);						\
	__atomic_fetch_or((addr), 1UL << (nr), __ATOMIC_RELAXED);		\
} while (0)

#define clear_bit(nr, addr) do {						\
	__racy_point(YP_ATOMIC, #addr);						\
	__atomic_fetch_and((addr), ~(1UL << (nr)), __ATOMIC_RELAXED);		\
} while (0)

#define test_bit(nr, addr)	((__atomic_load_n((addr), __ATOMIC_RELAXED) >> (nr)) & 1UL)

#endif /* MMFUZZ_KERNEL_BITOPS_H */

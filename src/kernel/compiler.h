/* SPDX-License-Identifier: MIT */
/* The kernel's compiler helpers, as the model needs them. */
#ifndef MMFUZZ_KERNEL_COMPILER_H
#define MMFUZZ_KERNEL_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "../sched/san.h"

/*
 * READ_ONCE/WRITE_ONCE are relaxed atomics: the kernel reads some fields
 * racily on purpose (pcp->count in drain_all_pages, pcp->high), and TSan must
 * not report those.  A plain access in the model means "protected by a lock".
 */
/* the access alone, for the model's own bookkeeping */
#define __READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define __WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define data_race(x)		READ_ONCE(x)

#define barrier()		__asm__ __volatile__("" ::: "memory")

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)

#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi)	min(max((v), (lo)), (hi))

#define BIT(n)			(1UL << (n))

#define SMP_CACHE_BYTES		64
#define ____cacheline_aligned	__attribute__((aligned(SMP_CACHE_BYTES)))

/*
 * One CPU's copy of a per-CPU variable.  In the kernel it lives in that
 * CPU's per-CPU unit, far from every other CPU's copy; the model keeps the
 * copies in an array indexed by CPU.  A line apart is not apart enough:
 * x86's adjacent-line prefetchers (AMD's and Intel's) fetch 128-byte pairs
 * of lines, so CPU 0 writing its copy pulls in CPU 1's from the line beside
 * it, and two CPUs counting events each on their own line still trade the
 * pair on every event.  Two lines a slot keeps every pair to one CPU.
 */
#define PERCPU_SLOT_BYTES	(2 * SMP_CACHE_BYTES)
#define ____percpu_aligned	__attribute__((aligned(PERCPU_SLOT_BYTES)))

#endif /* MMFUZZ_KERNEL_COMPILER_H */

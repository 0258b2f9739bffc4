/* SPDX-License-Identifier: MIT */
/* The kernel's compiler helpers, as the model needs them. */
#ifndef MMFUZZ_KERNEL_COMPILER_H
#define MMFUZZ_KERNEL_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#include "../sched/san.h"

/*
 * READ_ONCE/WRITE_ONCE are relaxed atomics: the kernel reads some fields
 * racily on purpose (pcp->high, the pageblock bits), and TSan must not report
 * those.  data_race(expr) is the kernel's annotated race: expr read as it is,
 * hidden from TSan.  A plain access in the model means "protected by a lock".
 *
 * In the model's own files (src/mm, compiled with MMFUZZ_MODEL) each racy
 * access is also a typed yield point, racy_read(x) or racy_write(x), placed
 * before the access (WRITE_ONCE evaluates its value first): a schedule can
 * run another task between a racy load and the store that follows it, or
 * between two racy reads.  Everywhere else (checkers, executor, tests) they
 * are the bare accesses: a checker never yields.
 *
 * __READ_ONCE/__WRITE_ONCE are the access without the yield point: for a
 * field written under its lock and read racily elsewhere (the writer side:
 * no other task can see the state between two steps of a locked section
 * except through a racy read, which is the yield point), for per-CPU data
 * this CPU changes with IRQs off (__this_cpu_*), and for the model's own
 * bookkeeping.
 */
#define __READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define __WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#ifdef MMFUZZ_MODEL
#include "../sched/sched.h"
#define __racy_point(type, what)	yield_point(YIELD_SITE(type, what))
#else
#define __racy_point(type, what)	do { } while (0)
#endif

#define READ_ONCE(x) ({ __racy_point(YP_RACY_READ, #x); __READ_ONCE(x); })
#define WRITE_ONCE(x, v) do {							\
	__typeof__(x) __wo_v = (v);						\
	__racy_point(YP_RACY_WRITE, #x);					\
	__WRITE_ONCE(x, __wo_v);						\
} while (0)

/* __data_race(expr): the annotated race without the yield point */
#if MMFUZZ_TSAN
#define __data_race(expr) ({							\
	__typeof__(expr) __dr_v;						\
	AnnotateIgnoreReadsBegin(__FILE__, __LINE__);				\
	__dr_v = (expr);							\
	AnnotateIgnoreReadsEnd(__FILE__, __LINE__);				\
	__dr_v; })
#else
#define __data_race(expr)	(expr)
#endif
#define data_race(expr) ({ __racy_point(YP_RACY_READ, #expr); __data_race(expr); })

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

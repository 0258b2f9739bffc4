/* SPDX-License-Identifier: MIT */
/*
 * cmpxchg_double() and this_cpu_cmpxchg_double(): compare two adjacent
 * words and replace both at once (SLUB's (freelist, tid) per CPU and
 * (freelist, counters) per slab).  6.6 spells them
 * this_cpu_try_cmpxchg128 on a freelist_aba_t and cmpxchg128 on a
 * freelist_counters union (6.5's "slub: Replace cmpxchg_double()"); the
 * operation is the same, this header keeps the older names the fuzzing
 * literature uses.
 *
 * One yield point before it; the compare-and-swap itself is one atomic
 * step, a real 16-byte lock cmpxchg16b on the pthreads (TSan: its 128-bit
 * atomic).  this_cpu_cmpxchg_double() needs no preemption off: it works
 * on the CPU the task is on when it runs, after the yield point where a
 * task may be preempted and migrated; that is what SLUB's tid is for.
 *
 * Bug switch cmpxchg_double_one_word: only the first word is compared.
 */
#ifndef MMFUZZ_KERNEL_CMPXCHG_DOUBLE_H
#define MMFUZZ_KERNEL_CMPXCHG_DOUBLE_H

#include <stdbool.h>

#include "../bugs/bugs.h"
#include "preempt.h"

/* cmpxchg_double's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_CMPXCHG_DOUBLE_ONE_WORD = 9,       /* cmpxchg_double compares one word */
};

#if MMFUZZ_TSAN
#include <sanitizer/tsan_interface_atomic.h>
#endif

typedef unsigned __int128 u128;

#define __cmpxchg_double_pair(w1, w2)	(((u128)(w2) << 64) | (u128)(w1))

/* lock cmpxchg16b: both words or neither (TSan: its 128-bit atomic) */
static inline bool __cmpxchg16(void *p, u128 old, u128 new)
{
#if MMFUZZ_TSAN
	__tsan_atomic128 o = (__tsan_atomic128)old;

	return __tsan_atomic128_compare_exchange_strong((volatile __tsan_atomic128 *)p, &o,
							 (__tsan_atomic128)new,
							 __tsan_memory_order_seq_cst,
							 __tsan_memory_order_relaxed);
#else
	unsigned long lo = (unsigned long)old, hi = (unsigned long)(old >> 64);
	bool ok;

	__asm__ __volatile__("lock cmpxchg16b %1"
			     : "=@ccz"(ok), "+m"(*(volatile u128 *)p), "+a"(lo), "+d"(hi)
			     : "b"((unsigned long)new), "c"((unsigned long)(new >> 64))
			     : "memory");
	return ok;
#endif
}

/* @p1 16-byte aligned, @p2 == @p1 + 1: both words or neither. */
static inline bool __cmpxchg_double(unsigned long *p1, unsigned long o1, unsigned long o2,
				    unsigned long n1, unsigned long n2)
{
	if (bug_on(BUG_CMPXCHG_DOUBLE_ONE_WORD)) {
		/* the second word is not compared: whatever it holds now */
		o2 = __atomic_load_n(p1 + 1, __ATOMIC_RELAXED);
	}
	return __cmpxchg16(p1, __cmpxchg_double_pair(o1, o2), __cmpxchg_double_pair(n1, n2));
}

#define __cmpxchg_double_check(p1, p2) do {					\
	BUILD_BUG_ON(sizeof(*(p1)) != sizeof(unsigned long) ||			\
		     sizeof(*(p2)) != sizeof(unsigned long));			\
	if (unlikely((unsigned long *)(p2) != (unsigned long *)(p1) + 1 ||	\
		     ((uintptr_t)(p1) & 15)))					\
		sched_violation("cmpxchg_double", __func__,			\
				"%s and %s: not two adjacent words, 16-byte aligned", \
				#p1, #p2);					\
} while (0)

#define cmpxchg_double(p1, p2, o1, o2, n1, n2) ({				\
	__cmpxchg_double_check(p1, p2);						\
	yield_point(YIELD_SITE(YP_CMPXCHG_DOUBLE, #p1));			\
	__cmpxchg_double((unsigned long *)(p1), (unsigned long)(o1),		\
			 (unsigned long)(o2), (unsigned long)(n1),		\
			 (unsigned long)(n2)); })

/* @base: a per-CPU array; @m1, @m2: its two adjacent members. */
#define this_cpu_cmpxchg_double(base, m1, m2, o1, o2, n1, n2) ({		\
	__typeof__(&(base)[0]) __pc;						\
	yield_point(YIELD_SITE(YP_CMPXCHG_DOUBLE, #base "->" #m1));		\
	__pc = &(base)[raw_smp_processor_id()];					\
	__cmpxchg_double_check(&__pc->m1, &__pc->m2);				\
	__cmpxchg_double((unsigned long *)&__pc->m1, (unsigned long)(o1),	\
			 (unsigned long)(o2), (unsigned long)(n1),		\
			 (unsigned long)(n2)); })

#endif /* MMFUZZ_KERNEL_CMPXCHG_DOUBLE_H */

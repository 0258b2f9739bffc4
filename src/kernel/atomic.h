/* SPDX-License-Identifier: MIT */
/*
 * atomic_t / atomic_long_t.  Read-modify-writes and cmpxchg are yield
 * points (the interleavings around a lockless counter are what the model is
 * for); in the model's files (MMFUZZ_MODEL, compiler.h) reads and sets are
 * too, racy_read / racy_write, so a read-modify-write open-coded as a read
 * and a set can be torn.  Relaxed ordering, like the kernel's non-returning
 * atomics.
 */
#ifndef MMFUZZ_KERNEL_ATOMIC_H
#define MMFUZZ_KERNEL_ATOMIC_H

#include <stdbool.h>

#include "../sched/sched.h"
#include "compiler.h"

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i) { (i) }

#define atomic_read(v) ({							\
	__racy_point(YP_RACY_READ, #v);						\
	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED); })
#define atomic_set(v, i) do {							\
	__typeof__((v)->counter) __as_i = (i);					\
	__racy_point(YP_RACY_WRITE, #v);					\
	__atomic_store_n(&(v)->counter, __as_i, __ATOMIC_RELAXED);		\
} while (0)
#define atomic_long_read(v)	atomic_read(v)
#define atomic_long_set(v, i)	atomic_set(v, i)
/* The bare access, never a yield point (the kernel's raw_atomic_*: no
 * instrumentation): state whose only writer is the one reading it. */
#define raw_atomic_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
#define raw_atomic_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)

#define __atomic_rmw_yield(v)	yield_point(YIELD_SITE(YP_ATOMIC, #v))

/*
 * The same with the yield site named by @site (a string literal, the text
 * the expression once had) instead of the expression: a variable that moved
 * keeps the site names the corpus's schedules give it (mm/vmstat.c's
 * vm_zone_stat, once struct world's, now the page allocator's).
 */
#define atomic_long_read_site(v, site) ({					\
	__racy_point(YP_RACY_READ, site);					\
	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED); })
#define atomic_long_set_site(v, i, site) do {					\
	__typeof__((v)->counter) __as_i = (i);					\
	__racy_point(YP_RACY_WRITE, site);					\
	__atomic_store_n(&(v)->counter, __as_i, __ATOMIC_RELAXED);		\
} while (0)
#define atomic_long_add_site(i, v, site) do {					\
	yield_point(YIELD_SITE(YP_ATOMIC, site));				\
	__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED);		\
} while (0)

#define atomic_add(i, v) do {							\
	__atomic_rmw_yield(v);							\
	__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED);		\
} while (0)
#define atomic_sub(i, v)	atomic_add(-(i), v)
#define atomic_inc(v)		atomic_add(1, v)
#define atomic_dec(v)		atomic_add(-1, v)
#define atomic_long_add(i, v)	atomic_add(i, v)
#define atomic_long_sub(i, v)	atomic_add(-(i), v)
#define atomic_long_inc(v)	atomic_add(1, v)
#define atomic_long_dec(v)	atomic_add(-1, v)

/* Returning atomics are fully ordered in the kernel. */
#define atomic_add_return(i, v) ({						\
	__atomic_rmw_yield(v);							\
	__atomic_add_fetch(&(v)->counter, (i), __ATOMIC_SEQ_CST); })
#define atomic_dec_and_test(v)	(atomic_add_return(-1, v) == 0)
#define atomic_long_add_return(i, v) atomic_add_return(i, v)

#define atomic_cmpxchg(v, old, new) ({						\
	__typeof__((v)->counter) __old = (old);					\
	yield_point(YIELD_SITE(YP_CMPXCHG, #v));				\
	__atomic_compare_exchange_n(&(v)->counter, &__old, (new), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);	\
	__old; })

#endif /* MMFUZZ_KERNEL_ATOMIC_H */

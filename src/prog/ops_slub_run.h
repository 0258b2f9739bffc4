/* SPDX-License-Identifier: MIT */
/*
 * The slub layer's per-run records (src/prog/ops_slub.c), shared with its
 * owner source (ops_slub_owners.c).
 */
#ifndef MMFUZZ_PROG_OPS_SLUB_RUN_H
#define MMFUZZ_PROG_OPS_SLUB_RUN_H

#include <stdbool.h>

#include "handle.h"
#include "ops_slub.h"

#define SLUB_BULK_MAX	8	/* objects a bulk handle holds */
#define SLUB_BULK_RECS	16	/* bulk handles a run may hold at once */
#define SLUB_ID_MAGIC	0x51ab0b1ec7000000UL

/* the run's records are shared by the task fibers (and kfree_rcu's
 * kthread) without happens-before: relaxed atomics, as handle.h's table */
#define LD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define ST(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ADD(x, v)	__atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)
/*
 * TSan: what an operation did with a cache, and every free of its objects,
 * happens before kmem_cache_destroy frees it (the caller's guarantee in the
 * kernel: nobody uses a cache being destroyed), through the cache's
 * inflight word: released when an operation puts the cache or an object
 * goes, acquired by the destroy.
 */
#if MMFUZZ_TSAN
#define CACHE_RELEASE(r, ci)	__tsan_release(&(r)->inflight[ci])
#define CACHE_ACQUIRE(r, ci)	__tsan_acquire(&(r)->inflight[ci])
#else
#define CACHE_RELEASE(r, ci)	do { (void)(r); (void)(ci); } while (0)
#define CACHE_ACQUIRE(r, ci)	do { (void)(r); (void)(ci); } while (0)
#endif

/* FREEING: kfree_rcu's kthread is freeing it (a quiescent check may come
 * in between: its slab is still the run's) */
enum { SREC_NONE, SREC_LIVE, SREC_RCU, SREC_FREEING, SREC_FREED };

struct obj_rec {
	void *pub;		/* the published slot rcu_lookup reads (NULL: none) */
	void *ptr;
	int ci;			/* its cache's index in the world's */
	unsigned char state;	/* SREC_* */
};

struct bulk_rec {
	void *p[SLUB_BULK_MAX];
	int n, ci;
	bool used;
};

struct slub_run {
	struct obj_rec obj[PROG_MAX_HANDLES];		/* by handle number */
	struct bulk_rec bulk[SLUB_BULK_RECS];
	long live[SLUB_WORLD_CACHES];	/* objects out (handles, kfree_rcu) */
	int inflight[SLUB_WORLD_CACHES];	/* operations using the cache now */
	bool gone[SLUB_WORLD_CACHES];	/* destroyed, or leaked by destroy */
	unsigned long lookups, lookup_hits, destroy_leaked;
	int exited;			/* tasks that ended */
};

/* The running program's records (NULL before the layer's first run). */
struct slub_run *slub_run_current(void);

#endif /* MMFUZZ_PROG_OPS_SLUB_RUN_H */

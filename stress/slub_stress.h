/* SPDX-License-Identifier: MIT */
/*
 * What the SLUB workloads share (slub_common.c): their caches, made with
 * the command line's min_partial and cpu_partial_slabs (--min-partial,
 * --cpu-partial: /sys/kernel/slab/<cache>/min_partial and cpu_partial in
 * 6.6); the slab pages they hold at quiescence, found in the memmap by
 * PG_slab; a check that the objects owned (the owner cookie set) are the
 * ones the workload holds; the frees' latency, in a histogram per task; the
 * slabinfo reader (--reader-hz N: a thread that reads every cache's
 * partial counts N times a second, as `cat /proc/slabinfo` in a loop does:
 * get_slabinfo() -> count_partial(n, count_free) under n->list_lock with
 * IRQs off, or whatever the seed 004 variant makes of it); and the counters (CONFIG_SLUB_STATS' items, n->list_lock's
 * statistics, the reader's, kfree_rcu's and RCU's), printed after the
 * layers' as model.slub.* and model.rcu.* lines.
 *
 * A workload's r->priv starts with a struct slub_stress.
 */
#ifndef MMFUZZ_STRESS_SLUB_STRESS_H
#define MMFUZZ_STRESS_SLUB_STRESS_H

#include "stress.h"

#include "../src/kernel/kfree_rcu.h"
#include "../src/mm/slab.h"

#define SLUB_STRESS_CACHES	2
#define SLUB_LAT_BUCKETS	304	/* 16 exact, then 8 a power of two up to 2^40 */

/* The frees' latency in TSC cycles: one task's, on lines of its own; and
 * its typesafe lookups (slub_rcu1), those whose identity had changed */
struct slub_lat {
	_Alignas(STRESS_CACHELINE) unsigned long long n[SLUB_LAT_BUCKETS];
	unsigned long ts_lookups, ts_stale;
};

static inline unsigned int slub_lat_bucket(uint64_t c)
{
	unsigned int e;

	if (c < 16)
		return (unsigned int)c;
	e = 63u - (unsigned int)__builtin_clzll(c);
	if (e > 39)
		return SLUB_LAT_BUCKETS - 1;
	return 16 + (e - 4) * 8 + (unsigned int)((c >> (e - 3)) & 7);
}

/* Only the task writes its histogram; the runner reads it while parked. */
static inline void slub_lat_add(struct slub_lat *l, uint64_t cycles)
{
	l->n[slub_lat_bucket(cycles)]++;
}

struct slub_reader {
	pthread_t thread;
	bool started;			/* the thread exists */
	int go;				/* a task ran: start reading (atomic) */
	int exit;			/* cleanup: stop (atomic) */
	unsigned long hz;
	struct task task;		/* the reader, to the model: on a CPU of its own */
	jmp_buf jb;
	/* held around each read: the runner takes it before a check or a
	 * snapshot, and the reader reads nothing while the tasks are parked */
	pthread_mutex_t gate;
	/* the reader's figures, written under gate */
	unsigned long reads;
	uint64_t read_cycles, read_max;	/* a whole slabinfo read */
	/* get_slabinfo's nr_free (count_partial(n, count_free)) and
	 * num_slabs, summed over reads; the largest nr_free */
	unsigned long long free_sum, slabs_sum, free_max;
};

struct slub_stress {
	struct stress_run *run;
	struct kmem_cache *cache[SLUB_STRESS_CACHES];
	int ncaches;
	struct slub_lat *lat;		/* [ntasks] */
	struct slub_reader rd;
	bool uses_rcu;			/* kfree_rcu: drained at quiesce */
	unsigned long throttled;	/* updates that waited for kfree_rcu (atomic) */
};

/* Set up @ss (r->priv points to the workload's struct, which starts with
 * it): the tasks' histograms, the reader if --reader-hz asks.  0 or -1. */
int slub_stress_init(struct stress_run *r, struct slub_stress *ss, unsigned long tasks);
/* A cache of @size bytes with the command line's knobs, or NULL. */
struct kmem_cache *slub_stress_cache(struct slub_stress *ss, const char *name, unsigned int size,
				     unsigned long flags);
/* A task's first iteration: the reader may start. */
void slub_stress_task_start(struct stress_task *t);
/* kmem_cache_free(@s, @p), timed into @t's histogram */
static inline void slub_stress_free(struct slub_stress *ss, struct stress_task *t,
				    struct kmem_cache *s, void *p)
{
	uint64_t t0 = __lock_tsc();

	kmem_cache_free(s, p);
	slub_lat_add(&ss->lat[t->nr], __lock_tsc() - t0);
}

/* quiesce: the reader out of its read, kfree_rcu's queue drained, each
 * cache validated (validate_slab_cache), and the objects owned counted
 * against @expect_live (I-SL-OWNER@slub_stress) */
void slub_stress_quiesce(struct stress_run *r, unsigned long expect_live);
/* cleanup: the reader stopped, the caches destroyed (their objects freed
 * by the workload first), kfree_rcu drained */
void slub_stress_cleanup(struct stress_run *r);
void slub_stress_print_config(struct stress_run *r, FILE *out);

/* the stat hooks of a struct stress_workload */
size_t slub_stress_stat_size(void);
void slub_stress_stat_snap(struct stress_run *r, void *snap);
void slub_stress_stat_print(FILE *out, const void *a, const void *b,
			    const struct layer_stat_span *span);

#define SLUB_STRESS_STAT_HOOKS						\
	.stat_size = sizeof(struct slub_stress_stat),			\
	.stat_snap = slub_stress_stat_snap,				\
	.stat_print = slub_stress_stat_print

struct slub_stress_stat {
	unsigned long stat[NR_SLUB_STAT_ITEMS];
	unsigned long ll_acquired, ll_contended;
	uint64_t ll_hold, ll_hold_max;	/* hold_max: since the last snapshot */
	unsigned long nr_partial, partial_free;	/* state at the snapshot */
	unsigned int slab_pages;	/* pages a slab (the first cache's) */
	unsigned long reads;
	uint64_t read_cycles, read_max;
	unsigned long long free_sum, slabs_sum, free_max;
	struct kfree_rcu_stats krc;
	unsigned long rcu_cbs_pending;
	unsigned long gp_cookie;	/* get_state_synchronize_rcu() */
	unsigned long throttled;
	unsigned long long lat[SLUB_LAT_BUCKETS];
	unsigned long ts_lookups, ts_stale;
};

#endif /* MMFUZZ_STRESS_SLUB_STRESS_H */

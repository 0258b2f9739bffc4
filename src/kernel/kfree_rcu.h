/* SPDX-License-Identifier: MIT */
/*
 * kfree_rcu() as Linux 6.6 batches it (kernel/rcu/tree.c): kvfree_call_rcu()
 * puts the pointer in this CPU's struct kfree_rcu_cpu, under its lock
 * (krc_this_cpu_lock), into a bulk block (struct kfree_rcu_bulk_data) or,
 * when no block can be had, on the krcp->head list through the object's
 * rcu_head; each block and the list carry a get_state_synchronize_rcu()
 * cookie.  The monitor (kfree_rcu_monitor, delayed work in 6.6) first frees
 * what poll_state_synchronize_rcu() says is past its grace period
 * (kvfree_rcu_drain_ready), then moves the channels into a free one of the
 * KFREE_N_BATCHES struct kfree_rcu_cpu_work batches and queues it with
 * queue_rcu_work(): after a grace period kfree_rcu_work() frees them.
 *
 * The model (docs/kfree-rcu.md): one channel (kmalloc'ed objects; the
 * model has no vmalloc); bulk blocks of KVFREE_BULK_MAX_ENTR pointers come
 * from a per-world pool of KRC_POOL_BNODES (6.6's __get_free_page(): the
 * kernel layer cannot call the page allocator), and the pool running dry
 * is the allocation failure.  Fiber mode: the monitor, the batches' work
 * and the page-cache refill are work items of one kernel thread
 * "kfree_rcu", there being no workqueue; a delayed work's delay is the
 * schedule's.  Real mode: they run on the calling task (the monitor when a
 * block fills, and kfree_rcu_drain()).  The objects' free is the owning
 * layer's (kvfree_rcu_set_ops()).
 */
#ifndef MMFUZZ_KERNEL_KFREE_RCU_H
#define MMFUZZ_KERNEL_KFREE_RCU_H

#include <stddef.h>

#include "rcupdate.h"

enum {
	BUG_KFREE_RCU_POLL_EARLY = 30,	/* a block's cookie is its first record's */
};

#define KVFREE_BULK_MAX_ENTR	8	/* 509 in 6.6's 4 KiB page */
#define KFREE_N_BATCHES		2
#define KRC_POOL_BNODES		6	/* pages the world lends to the blocks */
#define RCU_MIN_CACHED_OBJS	2	/* rcu_min_cached_objs: 5 in 6.6 */

struct kvfree_rcu_ops {
	void (*kfree)(void *obj);
	void (*kfree_bulk)(size_t n, void **objs);
};

/* The layer that owns the objects registers how they are freed. */
void kvfree_rcu_set_ops(const struct kvfree_rcu_ops *ops);

/* kfree_rcu(ptr, rhf) / kvfree_rcu(ptr) (single argument: head NULL,
 * may sleep) */
void kvfree_call_rcu(struct rcu_head *head, void *ptr);
#define kfree_rcu(ptr, rhf)	kvfree_call_rcu(&(ptr)->rhf, (void *)(ptr))
#define kfree_rcu_mightsleep(ptr) kvfree_call_rcu(NULL, (void *)(ptr))

struct kfree_rcu_stats {
	unsigned long calls;		/* kvfree_call_rcu() */
	unsigned long pending;		/* queued, not yet freed */
	unsigned long bnodes_out;	/* pool blocks in use or cached */
	unsigned long freed_polled;	/* by kvfree_rcu_drain_ready() */
	unsigned long freed_batch;	/* by kfree_rcu_work() */
	unsigned long freed_inline;	/* synchronize_rcu(); kvfree() */
	unsigned long head_list;	/* queued on krcp->head */
	unsigned long batches;		/* queue_rcu_work() */
};
void kfree_rcu_stats(struct kfree_rcu_stats *st);

/* Free everything queued, after its grace period (the end of a run; a
 * fiber task: waits for the kthread; real mode: synchronize_rcu() and the
 * work inline).  Might sleep. */
void kfree_rcu_drain(void);
/* Real mode: forget the state (a new stress run); fiber runs reset it. */
void kfree_rcu_reset(void);

#endif /* MMFUZZ_KERNEL_KFREE_RCU_H */

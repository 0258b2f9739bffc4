/* SPDX-License-Identifier: MIT */
/*
 * ktorture: a small "kernel" layer on the primitives of src/kernel, in the
 * manner of rcutorture and locktorture, for the operations that will drive
 * them (readers and updaters of an RCU-protected object, a percpu_counter,
 * a completion handshake, a SLUB-like per-CPU freelist on cmpxchg_double,
 * a slab lock under a list lock, an rwsem like mmap_lock, a local_lock and
 * cross-CPU calls).  Its own assertions check what a user of each primitive
 * relies on; the checkers at quiescence are src/check/ktorture.c.
 *
 * Lock order: n->list_lock -> slab_lock
 * Lock order: percpu_counters_lock -> kt->counter.lock
 * (the counter's fbc->lock; kt->lock, mmap_lock and kt->cpu_lock are each
 * taken alone.)
 *   kt->lock        the object pool (in_use) and the RCU pointer's updates
 *   n->list_lock    kt->nr_partial;  slab_lock: kt->slab_counters
 *   mmap_lock       kt->sem_data (written under the write lock)
 *   kt->cpu_lock    this CPU's kt->cpu_pair
 *   kt->cpu_fl      each CPU's (freelist, tid), changed by
 *                   this_cpu_cmpxchg_double only (lockless, as SLUB's)
 */
#ifndef MMFUZZ_KERNEL_KTORTURE_H
#define MMFUZZ_KERNEL_KTORTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "../world/world.h"
#include "completion.h"
#include "cpumask.h"
#include "local_lock.h"
#include "percpu_counter.h"
#include "rcupdate.h"
#include "rwsem.h"

/* ktorture's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_LOCK_INVERSION_RARE = 7,           /* two locks in the wrong order on a rare path */
	BUG_COMPLETE_EARLY = 8,                /* complete() before the work is published */
};

#define KT_NOBJ		8	/* RCU-protected objects */
#define KT_NFL		16	/* freelist objects */
#define KT_BATCH	4	/* the percpu_counter's batch: folds often */

/* An RCU-protected object: data[1] == ~data[0] while it is live. */
struct kt_obj {
	unsigned long data[2];
	struct rcu_head rh;
	struct ktorture *kt;
	/* debug object (CONFIG_DEBUG_OBJECTS_RCU_HEAD-like): rcu_clock() at
	 * its free, 0 while live; read by the checker before an access */
	uint64_t freed_at;
	bool in_use;			/* under kt->lock */
	bool call_rcu_pending;		/* under kt->lock */
};

/* An object on the per-CPU freelists: next is the free pointer. */
struct kt_fl_obj {
	struct kt_fl_obj *next;		/* READ_ONCE/WRITE_ONCE */
	int owner;			/* atomic: task id + 1, 0 when free */
};

/* kmem_cache_cpu's (freelist, tid): two adjacent words for cmpxchg_double */
struct kt_cpu_freelist {
	struct kt_fl_obj *freelist;
	unsigned long tid;
} ____percpu_aligned;

struct kt_cpu_pair {
	long a, b;			/* a == b whenever kt->cpu_lock is free */
} ____percpu_aligned;

struct ktorture {
	int ncpus;
	bool used;			/* an operation ran since kt_init: boot re-inits */

	/* RCU */
	spinlock_t lock;
	struct kt_obj *rcu_obj;		/* rcu_assign_pointer under kt->lock */
	struct kt_obj pool[KT_NOBJ];
	unsigned long seq;		/* under kt->lock */
	unsigned long rcu_reads;	/* atomic: objects a reader saw */
	void (*check_rcu_access)(struct ktorture *kt, const struct kt_obj *o);

	/* percpu_counter: the counter and the sum of every delta added */
	struct percpu_counter counter;
	long counter_deltas;		/* atomic */

	/* completion handshake: work published before complete() */
	struct completion done;
	unsigned long published;	/* atomic */
	unsigned long consumed;		/* atomic */

	/* a SLUB-like per-CPU freelist */
	struct kt_cpu_freelist cpu_fl[MAX_CPUS];
	struct kt_fl_obj fl_objs[KT_NFL];
	struct kt_fl_obj *partial;	/* under n->list_lock: refills */

	/* a slab's lock inside the node's list lock */
	spinlock_t list_lock;
	unsigned long nr_partial;	/* under n->list_lock */
	unsigned long slab_flags;	/* bit KT_PG_LOCKED: slab_lock */
	unsigned long slab_counters;	/* under slab_lock */
	unsigned long slab_updates;	/* atomic: which update is the rare one */

	/* rw_semaphore */
	struct rw_semaphore sem;
	int sem_readers, sem_writers;	/* atomic shadow of the holders */
	long sem_data;			/* written under the write lock */

	/* local_lock */
	local_lock_t cpu_lock[MAX_CPUS];
	struct kt_cpu_pair cpu_pair[MAX_CPUS];

	/* cross-CPU calls: functions run on each CPU */
	unsigned long ipi_hits[MAX_CPUS];	/* atomic */
};

#define KT_PG_LOCKED	0

/* Boot state (outside any task, or in one): @kt zeroed the first time,
 * kt_init again resets it; kt_destroy before freeing. */
void kt_init(struct ktorture *kt, int ncpus);
void kt_destroy(struct ktorture *kt);

/*
 * The world layer "kernel": each world holds one ktorture, booted with the
 * world (and the CPUs all online again: cpu_hotplug_boot).  kt_world()
 * is that world's.
 */
struct ktorture *kt_world(struct world *w);

/* RCU: read the current object (@nreads accesses inside one section);
 * replace it, freeing the old one after synchronize_rcu() (@sync) or
 * through call_rcu().  0, or -EBUSY when every object waits for a GP. */
void kt_rcu_read(struct ktorture *kt, int nreads);
int kt_rcu_update(struct ktorture *kt, bool sync);
void kt_rcu_barrier(struct ktorture *kt);

/* percpu_counter_add_batch(delta), and the exact sum of deltas */
void kt_counter_add(struct ktorture *kt, long delta);

/*
 * A handoff as kernel code does one: start a kthread on @cpu that does the
 * work, publishes it and complete()s, and wait_for_completion() for it;
 * the work must be there (I-COMP).  @h must outlive the kthread (it does
 * not live on the waiter's stack).  With no task left for the kthread, or
 * in real mode, the work is done in line.
 */
struct kt_handoff {
	struct completion done;
	int published;			/* atomic */
	struct ktorture *kt;
};
void kt_handoff(struct ktorture *kt, struct kt_handoff *h, int cpu);

/* completion between tasks (the stress mode): publish one unit of work
 * then complete(); wait for one and check it was published (I-COMP) */
void kt_handoff_produce(struct ktorture *kt);
void kt_handoff_consume(struct ktorture *kt);
/* the same without sleeping (try_wait_for_completion): true if it took one */
bool kt_handoff_try_consume(struct ktorture *kt);

/* the freelist fast paths: an object (NULL if none), and its free */
struct kt_fl_obj *kt_fl_alloc(struct ktorture *kt);
void kt_fl_free(struct ktorture *kt, struct kt_fl_obj *o);

/* a slab counters update: n->list_lock then slab_lock (the bug switch
 * lock_inversion_rare: the other way round on every 4th) */
void kt_slab_update(struct ktorture *kt);

/* rwsem: a reader; a writer, downgrading to a reader when asked */
void kt_rwsem_read(struct ktorture *kt);
void kt_rwsem_write(struct ktorture *kt, bool downgrade);

/* local_lock (irqsave when asked) around this CPU's pair */
void kt_local_lock(struct ktorture *kt, bool irqsave);

/* on_each_cpu_mask(@mask, ..., @wait); with @wait, every online CPU of the
 * mask ran it before this returns (I-IPI) */
void kt_ipi(struct ktorture *kt, unsigned long mask, bool wait);

#endif /* MMFUZZ_KERNEL_KTORTURE_H */

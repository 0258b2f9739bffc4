// SPDX-License-Identifier: MIT
/*
 * ktorture: torture operations on the kernel primitives (ktorture.h says
 * what each does and the lock order).  The assertions here are the
 * torture's own, as rcutorture's and locktorture's are: each names the
 * invariant a user of the primitive relies on.
 */
#include "ktorture.h"

#include <errno.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "bit_spinlock.h"
#include "cmpxchg_double.h"
#include "cpu.h"
#include "percpu.h"
#include "smp.h"

/* SLUB's tid: the CPU in its low bits, advanced by a power of two. */
#define TID_STEP	8
BUILD_BUG_ON(TID_STEP < MAX_CPUS);

static unsigned long next_tid(unsigned long tid)
{
	return tid + TID_STEP;
}

static int fl_index(const struct ktorture *kt, const struct kt_fl_obj *o)
{
	return (int)(o - kt->fl_objs);
}

/* the CPU whose "slab" an object is in */
static int fl_home(const struct ktorture *kt, const struct kt_fl_obj *o)
{
	return fl_index(kt, o) % kt->ncpus;
}

void kt_init(struct ktorture *kt, int ncpus)
{
	int i;

	san_unpoison(kt, sizeof(*kt));
	if (kt->ncpus)		/* again: off the list of counters first */
		percpu_counter_destroy(&kt->counter);
	memset(kt, 0, sizeof(*kt));
	kt->ncpus = ncpus;
	spin_lock_init_named(&kt->lock, "kt->lock", -1);
	spin_lock_init_named(&kt->list_lock, "n->list_lock", -1);
	init_rwsem_named(&kt->sem, "mmap_lock");
	local_lock_init_named(kt->cpu_lock, MAX_CPUS, "kt->cpu_lock");
	init_completion_named(&kt->done, "kt->done");
	percpu_counter_init_named(&kt->counter, 0, "kt->counter.lock");
	for (i = 0; i < KT_NOBJ; i++)
		kt->pool[i].kt = kt;
	for (i = 0; i < MAX_CPUS; i++)
		kt->cpu_fl[i].tid = (unsigned long)i;
	/* every freelist object starts on the node's partial list */
	for (i = KT_NFL - 1; i >= 0; i--) {
		kt->fl_objs[i].next = kt->partial;
		kt->partial = &kt->fl_objs[i];
	}
	kt->nr_partial = KT_NFL;
}

void kt_destroy(struct ktorture *kt)
{
	percpu_counter_destroy(&kt->counter);
	san_unpoison(kt, sizeof(*kt));
	kt->ncpus = 0;
}

/* ---- the world layer ---- */

static void kt_layer_boot(struct world *w);
static void kt_layer_drain(struct world *w);
static void kt_layer_destroy(struct world *w);

static struct world_layer kt_layer = {
	.name = "kernel",
	.order = 1,
	.state_size = sizeof(struct ktorture),
	.boot = kt_layer_boot,
	.drain = kt_layer_drain,
	.destroy = kt_layer_destroy,
};
WORLD_LAYER(kt_layer);

struct ktorture *kt_world(struct world *w)
{
	return world_layer_state(w, &kt_layer);
}

/* After create and every reset: the CPUs all up, the torture state new
 * (untouched since its last boot, it still is: most runs use no kernel
 * operation, and a fuzz execution pays only for what it touched). */
static void kt_layer_boot(struct world *w)
{
	struct ktorture *kt = kt_world(w);

	cpu_hotplug_boot(w->cfg.ncpus);
	percpu_counter_instance = w;	/* this world is the kernel running */
	if (kt->used || kt->ncpus != w->cfg.ncpus)
		kt_init(kt, w->cfg.ncpus);
}

/* An operation is about to change the torture state. */
static inline void kt_touch(struct ktorture *kt)
{
	if (!READ_ONCE(kt->used))
		WRITE_ONCE(kt->used, true);
}

/* The end of a run: every call_rcu() callback has run (fiber mode: the
 * grace-period thread ran them before the run ended), and the CPUs taken
 * down come back up, so that what the later drains give back (on the
 * executor's task, which has a CPU of its own) lands on an online CPU. */
static void kt_layer_drain(struct world *w)
{
	int cpu;

	for (cpu = 0; cpu < w->cfg.ncpus; cpu++)
		if (!cpu_online(cpu))
			cpu_up((unsigned int)cpu);
	/* real mode: liburcu wants a registered thread (the stress runner's
	 * own is not; registering twice is not done: a task registers once) */
	if (!current->fs)
		rcu_register_thread();
	rcu_barrier();
	if (!current->fs)
		rcu_unregister_thread();
}

static void kt_layer_destroy(struct world *w)
{
	kt_destroy(kt_world(w));
}

/* ---- RCU ---- */

void kt_rcu_read(struct ktorture *kt, int nreads)
{
	struct kt_obj *p;
	int i;

	kt_touch(kt);

	rcu_read_lock();
	p = rcu_dereference(kt->rcu_obj);
	if (p) {
		__atomic_fetch_add(&kt->rcu_reads, 1, __ATOMIC_RELAXED);
		for (i = 0; i < nreads; i++) {
			unsigned long d0, d1;

			if (kt->check_rcu_access)
				kt->check_rcu_access(kt, p);
			d0 = p->data[0];
			sched_point("rcu_reader");
			if (kt->check_rcu_access)
				kt->check_rcu_access(kt, p);
			d1 = p->data[1];
			if (d1 != ~d0)
				sched_violation("I-RCU", __func__,
						"object %d reads %lx / %lx inside an RCU read-side "
						"section: changed under the reader",
						(int)(p - kt->pool), d0, d1);
		}
	}
	rcu_read_unlock();
}

/* The object back to the pool: poisoned, as freed memory is. */
static void kt_obj_free(struct kt_obj *o)
{
	struct ktorture *kt = o->kt;

	o->data[0] = 0xdeadUL;
	o->data[1] = 0xdeadUL;
	WRITE_ONCE(o->freed_at, rcu_clock_tick());
	san_poison(o->data, sizeof(o->data));
	spin_lock(&kt->lock);
	o->in_use = false;
	o->call_rcu_pending = false;
	spin_unlock(&kt->lock);
}

static void kt_obj_free_rcu(struct rcu_head *rh)
{
	kt_obj_free(container_of(rh, struct kt_obj, rh));
}

int kt_rcu_update(struct ktorture *kt, bool sync)
{
	struct kt_obj *n = NULL, *old;
	int i;

	kt_touch(kt);

	spin_lock(&kt->lock);
	for (i = 0; i < KT_NOBJ && !n; i++)
		if (!kt->pool[i].in_use)
			n = &kt->pool[i];
	if (!n) {
		spin_unlock(&kt->lock);
		return -EBUSY;
	}
	san_unpoison(n->data, sizeof(n->data));
	n->data[0] = ++kt->seq;
	n->data[1] = ~n->data[0];
	WRITE_ONCE(n->freed_at, 0);
	n->in_use = true;
	old = rcu_dereference_protected(kt->rcu_obj, 1);
	rcu_assign_pointer(kt->rcu_obj, n);
	if (old && !sync)
		old->call_rcu_pending = true;
	spin_unlock(&kt->lock);
	if (old) {
		if (sync) {
			synchronize_rcu();
			kt_obj_free(old);
		} else {
			call_rcu(&old->rh, kt_obj_free_rcu);
		}
	}
	return 0;
}

void kt_rcu_barrier(struct ktorture *kt)
{
	(void)kt;
	rcu_barrier();
}

/* ---- percpu_counter ---- */

void kt_counter_add(struct ktorture *kt, long delta)
{
	kt_touch(kt);

	percpu_counter_add_batch(&kt->counter, delta, KT_BATCH);
	__atomic_fetch_add(&kt->counter_deltas, delta, __ATOMIC_RELAXED);
}

/* ---- completion ---- */

/* The handoff's kthread: the work, published, then complete(). */
static void kt_handoff_work(struct kt_handoff *h)
{
	if (bug_on(BUG_COMPLETE_EARLY)) {
		complete(&h->done);
		sched_point("publish");
		__atomic_store_n(&h->published, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&h->published, 1, __ATOMIC_RELEASE);
	sched_point("publish");
	complete(&h->done);
}

static void kt_handoff_kthread(struct task *t, void *arg)
{
	kthread_op_begin(t, YIELD_SITE(YP_KTHREAD, "kt_handoff_kthread"));
	kt_handoff_work(arg);
}

void kt_handoff(struct ktorture *kt, struct kt_handoff *h, int cpu)
{
	struct task *t = current;

	kt_touch(kt);

	init_completion_named(&h->done, "handoff->done");
	__atomic_store_n(&h->published, 0, __ATOMIC_RELAXED);
	h->kt = kt;
	/*
	 * A handoff's kthread ends with its work, but its task slot stays
	 * taken for the run: it leaves the kthreads started once a run (an
	 * IPI handler per CPU, the grace-period kthread) their slots, which
	 * have no in-line fallback.
	 */
	if (!t->fs || !fsched_cpu_online(t->fs, cpu) ||
	    fsched_tasks_left(t->fs) <= MAX_CPUS + 1 ||
	    !fsched_kthread_run(t->fs, kt_handoff_kthread, h, "handoff", cpu, false)) {
		kt_handoff_work(h);	/* no kthread: in line */
	}
	wait_for_completion(&h->done);
	if (!__atomic_load_n(&h->published, __ATOMIC_ACQUIRE))
		sched_violation("I-COMP", "kt_handoff",
				"%s woke from wait_for_completion() before the work it waits for "
				"was published: complete() came first", t->name);
}

void kt_handoff_produce(struct ktorture *kt)
{
	kt_touch(kt);

	if (bug_on(BUG_COMPLETE_EARLY)) {
		complete(&kt->done);
		sched_point("publish");
		__atomic_fetch_add(&kt->published, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_fetch_add(&kt->published, 1, __ATOMIC_RELEASE);
	sched_point("publish");
	complete(&kt->done);
}

static void handoff_check(struct ktorture *kt)
{
	unsigned long c, p;

	kt_touch(kt);

	c = __atomic_add_fetch(&kt->consumed, 1, __ATOMIC_RELAXED);
	p = __atomic_load_n(&kt->published, __ATOMIC_ACQUIRE);
	/* the c-th completion taken: c pieces of work were announced */
	if (p < c)
		sched_violation("I-COMP", "kt_handoff_consume",
				"completion %lu taken but only %lu pieces of work published: "
				"complete() came before the work it announces", c, p);
}

void kt_handoff_consume(struct ktorture *kt)
{
	wait_for_completion(&kt->done);
	handoff_check(kt);
}

bool kt_handoff_try_consume(struct ktorture *kt)
{
	if (!try_wait_for_completion(&kt->done))
		return false;
	handoff_check(kt);
	return true;
}

/* ---- the per-CPU freelist (SLUB's fast paths) ---- */

static void fl_take(struct kt_fl_obj *o, struct ktorture *kt, const char *fn)
{
	struct task *t = current;
	int old = __atomic_exchange_n(&o->owner, t->id + 1, __ATOMIC_RELAXED);

	if (old)
		sched_violation("I-FREELIST", fn, "object %d handed to %s while T%d holds it",
				fl_index(kt, o), t->name, old - 1);
}

/* ___slab_alloc(): one object from the node's partial list onto this
 * CPU's freelist, under the local lock (tid advanced: a fast path caught
 * in between fails its cmpxchg). */
static bool fl_refill(struct ktorture *kt)
{
	struct kt_fl_obj *o;
	struct kt_cpu_freelist *c;
	unsigned long flags;

	spin_lock_irqsave(&kt->list_lock, flags);
	o = kt->partial;
	if (o) {
		kt->partial = READ_ONCE(o->next);
		kt->nr_partial--;
	}
	spin_unlock_irqrestore(&kt->list_lock, flags);
	if (!o)
		return false;
	local_lock_irqsave(kt->cpu_lock, flags);
	c = this_cpu_ptr(kt->cpu_fl);
	WRITE_ONCE(o->next, READ_ONCE(c->freelist));
	WRITE_ONCE(c->freelist, o);
	WRITE_ONCE(c->tid, next_tid(READ_ONCE(c->tid)));
	local_unlock_irqrestore(kt->cpu_lock, flags);
	return true;
}

struct kt_fl_obj *kt_fl_alloc(struct ktorture *kt)
{
	struct kt_fl_obj *object, *next;
	unsigned long tid;
	int tries = 0;

	kt_touch(kt);

redo:
	if (++tries > 64)
		return NULL;
	{
		/* preemptible: the CPU may change after any of these */
		struct kt_cpu_freelist *c = &kt->cpu_fl[raw_smp_processor_id()];

		tid = READ_ONCE(c->tid);
		sched_point("slab_alloc_tid");
		object = READ_ONCE(c->freelist);
	}
	if (!object) {
		if (!fl_refill(kt))
			return NULL;
		goto redo;
	}
	next = READ_ONCE(object->next);
	if (!this_cpu_cmpxchg_double(kt->cpu_fl, freelist, tid, object, tid, next,
				     next_tid(tid)))
		goto redo;
	fl_take(object, kt, __func__);
	return object;
}

void kt_fl_free(struct ktorture *kt, struct kt_fl_obj *o)
{
	unsigned long tid, flags;
	struct kt_fl_obj *head;
	int cpu;

	kt_touch(kt);

	__atomic_store_n(&o->owner, 0, __ATOMIC_RELAXED);
redo:
	cpu = raw_smp_processor_id();
	if (fl_home(kt, o) != cpu) {
		/* not this CPU's slab: __slab_free() to the node */
		spin_lock_irqsave(&kt->list_lock, flags);
		WRITE_ONCE(o->next, kt->partial);
		kt->partial = o;
		kt->nr_partial++;
		spin_unlock_irqrestore(&kt->list_lock, flags);
		return;
	}
	tid = READ_ONCE(kt->cpu_fl[cpu].tid);
	head = READ_ONCE(kt->cpu_fl[cpu].freelist);
	WRITE_ONCE(o->next, head);
	if (!this_cpu_cmpxchg_double(kt->cpu_fl, freelist, tid, head, tid, o, next_tid(tid)))
		goto redo;
}

/* ---- slab_lock inside n->list_lock ---- */

void kt_slab_update(struct ktorture *kt)
{
	unsigned long n = __atomic_add_fetch(&kt->slab_updates, 1, __ATOMIC_RELAXED);
	unsigned long flags;

	kt_touch(kt);

	if (bug_on(BUG_LOCK_INVERSION_RARE) && n % 4 == 0) {
		/* the rare path, the wrong way round */
		local_irq_save(flags);
		bit_spin_lock_named(KT_PG_LOCKED, &kt->slab_flags, "slab_lock");
		spin_lock(&kt->list_lock);
		kt->slab_counters++;
		kt->nr_partial += 0;
		spin_unlock(&kt->list_lock);
		bit_spin_unlock_named(KT_PG_LOCKED, &kt->slab_flags, "slab_lock");
		local_irq_restore(flags);
		return;
	}
	spin_lock_irqsave(&kt->list_lock, flags);
	bit_spin_lock_named(KT_PG_LOCKED, &kt->slab_flags, "slab_lock");
	kt->slab_counters++;
	bit_spin_unlock_named(KT_PG_LOCKED, &kt->slab_flags, "slab_lock");
	spin_unlock_irqrestore(&kt->list_lock, flags);
}

/* ---- rw_semaphore ---- */

static void sem_check(struct ktorture *kt, bool write, const char *fn)
{
	int r = __atomic_load_n(&kt->sem_readers, __ATOMIC_RELAXED);
	int w = __atomic_load_n(&kt->sem_writers, __ATOMIC_RELAXED);

	if (write ? (w != 1 || r) : w)
		sched_violation("I-RWSEM", fn, "%s holds mmap_lock with %d readers and %d writers",
				current->name, r, w);
}

void kt_rwsem_read(struct ktorture *kt)
{
	long v;

	kt_touch(kt);

	down_read(&kt->sem);
	__atomic_fetch_add(&kt->sem_readers, 1, __ATOMIC_RELAXED);
	sem_check(kt, false, __func__);
	v = kt->sem_data;
	sched_point("reading");
	if (kt->sem_data != v)
		sched_violation("I-RWSEM", __func__, "mmap_lock data changed under a reader");
	__atomic_fetch_sub(&kt->sem_readers, 1, __ATOMIC_RELAXED);
	up_read(&kt->sem);
}

void kt_rwsem_write(struct ktorture *kt, bool downgrade)
{
	long v;

	kt_touch(kt);

	down_write(&kt->sem);
	__atomic_fetch_add(&kt->sem_writers, 1, __ATOMIC_RELAXED);
	sem_check(kt, true, __func__);
	v = ++kt->sem_data;
	sched_point("writing");
	if (!downgrade) {
		__atomic_fetch_sub(&kt->sem_writers, 1, __ATOMIC_RELAXED);
		up_write(&kt->sem);
		return;
	}
	__atomic_fetch_sub(&kt->sem_writers, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&kt->sem_readers, 1, __ATOMIC_RELAXED);
	downgrade_write(&kt->sem);
	sem_check(kt, false, __func__);
	sched_point("downgraded");
	if (kt->sem_data != v)
		sched_violation("I-RWSEM", __func__, "mmap_lock data changed after downgrade_write");
	__atomic_fetch_sub(&kt->sem_readers, 1, __ATOMIC_RELAXED);
	up_read(&kt->sem);
}

/* ---- local_lock ---- */

void kt_local_lock(struct ktorture *kt, bool irqsave)
{
	struct kt_cpu_pair *p;
	unsigned long flags = 0;

	kt_touch(kt);

	if (irqsave)
		local_lock_irqsave(kt->cpu_lock, flags);
	else
		local_lock(kt->cpu_lock);
	p = this_cpu_ptr(kt->cpu_pair);
	if (p->a != p->b)
		sched_violation("I-LOCAL", __func__, "cpu%d's pair %ld / %ld under kt->cpu_lock",
				smp_processor_id(), p->a, p->b);
	p->a++;
	sched_point("local_locked");
	p->b++;
	if (irqsave)
		local_unlock_irqrestore(kt->cpu_lock, flags);
	else
		local_unlock(kt->cpu_lock);
}

/* ---- cross-CPU calls ---- */

static void kt_ipi_func(void *info)
{
	struct ktorture *kt = info;

	__atomic_fetch_add(&kt->ipi_hits[smp_processor_id()], 1, __ATOMIC_RELAXED);
}

void kt_ipi(struct ktorture *kt, unsigned long mask, bool wait)
{
	unsigned long before[MAX_CPUS], online;
	struct cpumask m = { mask & ((1UL << kt->ncpus) - 1) };
	int cpu;

	kt_touch(kt);

	for (cpu = 0; cpu < kt->ncpus; cpu++)
		before[cpu] = __atomic_load_n(&kt->ipi_hits[cpu], __ATOMIC_RELAXED);
	online = READ_ONCE(cpu_online_mask->bits);
	on_each_cpu_mask(&m, kt_ipi_func, kt, wait);
	if (!wait)
		return;
	/* every CPU online throughout ran it */
	online &= READ_ONCE(cpu_online_mask->bits);
	for_each_cpu(cpu, &m)
		if ((online & (1UL << cpu)) &&
		    __atomic_load_n(&kt->ipi_hits[cpu], __ATOMIC_RELAXED) == before[cpu])
			sched_violation("I-IPI", __func__,
					"on_each_cpu_mask(wait) returned before cpu%d ran it", cpu);
}

/* ---- bug switches (bits in ktorture.h) ---- */

static const struct bug_info bug_lock_inversion_rare = {
	.bit = BUG_LOCK_INVERSION_RARE,
	.name = "lock_inversion_rare", .layer = "ktorture", .where = "kt_slab_lock_path",
	.caught_by = "lockdep (lock-order@slab_lock->n->list_lock), before any deadlock",
	.desc = "a rare path (every 4th update of a slab's counters) takes "
		"n->list_lock while holding slab_lock, the reverse of the slab lock "
		"order (n->list_lock -> slab_lock): two CPUs on the two paths deadlock",
};
BUG_SWITCH(bug_lock_inversion_rare);

static const struct bug_info bug_complete_early = {
	.bit = BUG_COMPLETE_EARLY,
	.name = "complete_early", .layer = "ktorture", .where = "kt_handoff_produce",
	.caught_by = "I-COMP (the waiter reads unpublished work); TSan: data race",
	.desc = "the producer calls complete() before it writes the work the "
		"completion announces: a waiter woken in between reads the old value",
};
BUG_SWITCH(bug_complete_early);

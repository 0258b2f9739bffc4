// SPDX-License-Identifier: MIT
/*
 * kvfree_call_rcu() and its batching, after 6.6's kernel/rcu/tree.c
 * (kfree_rcu.h says what is modelled and how).  The checker I-RCU for
 * deferred frees is here too (kfree_rcu_check_*): it reads which tasks are
 * in a read-side section at the kvfree_call_rcu() and, at the free, that
 * none of them is still in that same section.
 */
#include "kfree_rcu.h"
#include "cpumask.h"

#include <string.h>

#include "../bugs/bugs.h"
#include "compiler.h"
#include "list.h"
#include "spinlock.h"

struct kfree_rcu_bulk_data {
	struct list_head list;
	unsigned long gp_snap;		/* the newest record's cookie */
	unsigned long nr_records;
	void *records[KVFREE_BULK_MAX_ENTR];
	struct kfree_rcu_bulk_data *cache_next;	/* on bkvcache or the pool */
};

struct kfree_rcu_cpu;

struct kfree_rcu_cpu_work {
	struct rcu_head rcu;		/* queue_rcu_work()'s */
	bool queued, ready;		/* its call_rcu is pending; GP over */
	struct rcu_head *head_free;
	unsigned long head_free_gp_snap;
	struct list_head bulk_head_free;
	struct kfree_rcu_cpu *krcp;
};

struct kfree_rcu_cpu {
	struct rcu_head *head;		/* channel 3: objects through their heads */
	unsigned long head_gp_snap;
	unsigned long head_count;
	struct list_head bulk_head;	/* channel 1: newest block first */
	unsigned long bulk_count;
	struct kfree_rcu_cpu_work krw_arr[KFREE_N_BATCHES];
	spinlock_t lock;		/* raw_spinlock_t in 6.6 */
	bool monitor_pending;		/* the delayed monitor work is queued */
	bool fill_pending;		/* run_page_cache_worker() asked */
	struct kfree_rcu_bulk_data *bkvcache;
	int nr_bkv_objs;
	bool initialized;
};

static struct kfree_rcu_cpu krc[MAX_CPUS];
static struct kfree_rcu_bulk_data pool_mem[KRC_POOL_BNODES];
static struct kfree_rcu_bulk_data *pool;	/* free pool blocks */
static spinlock_t pool_lock;
static const struct kvfree_rcu_ops *krc_ops;
static struct kfree_rcu_stats krc_st;
static struct task *krc_kthread;
static bool krc_used;			/* this run queued: the next resets */

void kvfree_rcu_set_ops(const struct kvfree_rcu_ops *ops)
{
	krc_ops = ops;
}

static void stat_add(unsigned long *c, long d)
{
	__atomic_fetch_add(c, (unsigned long)d, __ATOMIC_RELAXED);
}

void kfree_rcu_stats(struct kfree_rcu_stats *st)
{
	const unsigned long *from = (const unsigned long *)&krc_st;
	unsigned long *to = (unsigned long *)st;
	size_t i;

	for (i = 0; i < sizeof(*st) / sizeof(unsigned long); i++)
		to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
}

/* ---- I-RCU for deferred frees (fiber mode) ---- */

#define KRC_DBG_SLOTS 1024

static struct krc_dbg {
	void *ptr;
	uint64_t sec_mark;		/* sections begun at the call */
	uint64_t readers;		/* tasks in a section at the call */
} krc_dbg[KRC_DBG_SLOTS];

static __sched_notsan struct krc_dbg *dbg_slot(void *ptr, bool insert)
{
	size_t i = ((uintptr_t)ptr >> 4) % KRC_DBG_SLOTS, n;

	for (n = 0; n < KRC_DBG_SLOTS; n++, i = (i + 1) % KRC_DBG_SLOTS) {
		if (krc_dbg[i].ptr == ptr)
			return &krc_dbg[i];
		if (!krc_dbg[i].ptr)
			return insert ? &krc_dbg[i] : NULL;
	}
	return NULL;
}

static __sched_notsan void kfree_rcu_check_queue(struct task *t, void *ptr)
{
	struct krc_dbg *d;
	int i;

	if (!t->fs || !(d = dbg_slot(ptr, true)))
		return;
	d->ptr = ptr;
	d->sec_mark = rcu_sections_begun();
	d->readers = 0;
	for (i = 0; i < t->fs->ntasks && i < 64; i++)
		if (rcu_task_section(i))
			d->readers |= 1ULL << i;
}

static __sched_notsan void kfree_rcu_check_free(void *ptr, const char *fn)
{
	struct task *t = current_task;
	struct krc_dbg *d;
	uint64_t m;
	int i;

	if (!t || !t->fs || !(d = dbg_slot(ptr, false)))
		return;
	for (m = d->readers; m; m &= m - 1) {
		uint64_t s;

		i = __builtin_ctzll(m);
		s = rcu_task_section(i);
		if (s && s <= d->sec_mark)
			sched_violation("I-RCU", fn,
					"object %p freed by kfree_rcu while task %d is still in the "
					"read-side section it was in at the kfree_rcu() call",
					ptr, i);
	}
	/* delete with backward shift: the probe chain stays whole */
	{
		size_t j = (size_t)(d - krc_dbg), k;

		for (;;) {
			krc_dbg[j].ptr = NULL;
			k = j;
			for (;;) {
				size_t h;

				k = (k + 1) % KRC_DBG_SLOTS;
				if (!krc_dbg[k].ptr)
					return;
				h = ((uintptr_t)krc_dbg[k].ptr >> 4) % KRC_DBG_SLOTS;
				if ((j < k) ? (h <= j || h > k) : (h <= j && h > k))
					break;
			}
			krc_dbg[j] = krc_dbg[k];
			j = k;
		}
	}
}

/* ---- the objects' free ---- */

static void krc_free_one(void *ptr, const char *fn)
{
	kfree_rcu_check_free(ptr, fn);
	stat_add(&krc_st.pending, -1);
	if (krc_ops && krc_ops->kfree)
		krc_ops->kfree(ptr);
}

/* ---- bulk blocks: the pool (6.6's pages) and the per-CPU cache ---- */

static struct kfree_rcu_bulk_data *pool_get(void)
{
	struct kfree_rcu_bulk_data *b;
	unsigned long flags;

	spin_lock_irqsave(&pool_lock, flags);
	b = pool;
	if (b) {
		pool = b->cache_next;
		stat_add(&krc_st.bnodes_out, 1);
	}
	spin_unlock_irqrestore(&pool_lock, flags);
	return b;
}

static void pool_put(struct kfree_rcu_bulk_data *b)
{
	unsigned long flags;

	spin_lock_irqsave(&pool_lock, flags);
	b->cache_next = pool;
	pool = b;
	stat_add(&krc_st.bnodes_out, -1);
	spin_unlock_irqrestore(&pool_lock, flags);
}

static struct kfree_rcu_bulk_data *get_cached_bnode(struct kfree_rcu_cpu *krcp)
{
	struct kfree_rcu_bulk_data *b = krcp->bkvcache;

	if (!b)
		return NULL;
	krcp->bkvcache = b->cache_next;
	krcp->nr_bkv_objs--;
	return b;
}

static bool put_cached_bnode(struct kfree_rcu_cpu *krcp, struct kfree_rcu_bulk_data *b)
{
	if (krcp->nr_bkv_objs >= RCU_MIN_CACHED_OBJS)
		return false;
	b->cache_next = krcp->bkvcache;
	krcp->bkvcache = b;
	krcp->nr_bkv_objs++;
	return true;
}

/* fill_page_cache_func(): the cache up to rcu_min_cached_objs */
static void fill_page_cache(struct kfree_rcu_cpu *krcp)
{
	unsigned long flags;
	bool pushed;
	int i;

	for (i = 0; i < RCU_MIN_CACHED_OBJS; i++) {
		struct kfree_rcu_bulk_data *b = pool_get();

		if (!b)
			break;
		spin_lock_irqsave(&krcp->lock, flags);
		pushed = put_cached_bnode(krcp, b);
		spin_unlock_irqrestore(&krcp->lock, flags);
		if (!pushed) {
			pool_put(b);
			break;
		}
	}
}

/* ---- per-run state ---- */

static void krc_init_all(void)
{
	int c, i;

	krc_used = false;
	memset(krc, 0, sizeof(krc));
	memset(krc_dbg, 0, sizeof(krc_dbg));
	memset(&krc_st, 0, sizeof(krc_st));
	__atomic_store_n(&krc_kthread, NULL, __ATOMIC_RELAXED);
	pool = NULL;
	for (i = KRC_POOL_BNODES - 1; i >= 0; i--) {
		pool_mem[i].cache_next = pool;
		pool = &pool_mem[i];
	}
	spin_lock_init_named(&pool_lock, "krc_pool_lock", -1);
	for (c = 0; c < MAX_CPUS; c++) {
		struct kfree_rcu_cpu *krcp = &krc[c];

		spin_lock_init_named(&krcp->lock, "krcp->lock", c);
		INIT_LIST_HEAD(&krcp->bulk_head);
		for (i = 0; i < KFREE_N_BATCHES; i++) {
			INIT_LIST_HEAD(&krcp->krw_arr[i].bulk_head_free);
			krcp->krw_arr[i].krcp = krcp;
		}
		krcp->initialized = true;
	}
}

/* Every write to the per-run state goes through a path that marks it:
 * the next run hook resets what it finds marked, nothing else, so a run
 * that left no mark must have left the state as krc_init_all() makes it
 * (a mark missed is state the next run inherits: its replay differs). */
static void krc_mark_used(void)
{
	if (!__atomic_load_n(&krc_used, __ATOMIC_RELAXED))
		__atomic_store_n(&krc_used, true, __ATOMIC_RELAXED);
}

/* a run that did not queue costs nothing here */
static void krc_run_hook(struct fsched *fs)
{
	(void)fs;
	if (krc_used)
		krc_init_all();
}

__attribute__((constructor)) static void krc_ctor(void)
{
	krc_init_all();
	fsched_register_run_hook(krc_run_hook);
}

void kfree_rcu_reset(void)
{
	krc_init_all();
}

/* ---- the work items (fiber mode: the "kfree_rcu" kthread's) ---- */

static void krc_kthread_ensure(struct task *t);

static void krc_wake(void)
{
	struct task *t = current_task;

	if (t && t->fs)
		fsched_wake(t);
}

static void list_replace_init(struct list_head *old, struct list_head *new)
{
	INIT_LIST_HEAD(new);
	list_splice(old, new);
	INIT_LIST_HEAD(old);
}

/* kvfree_rcu_bulk(): one block's objects, then the block to the cache or
 * back to the pool (free_page()) */
static void kvfree_rcu_bulk(struct kfree_rcu_cpu *krcp, struct kfree_rcu_bulk_data *b,
			    unsigned long *freed)
{
	unsigned long flags, i;
	bool cached;

	for (i = 0; i < b->nr_records; i++) {
		kfree_rcu_check_free(b->records[i], "kvfree_rcu_bulk");
		stat_add(&krc_st.pending, -1);
	}
	stat_add(freed, (long)b->nr_records);
	if (krc_ops && krc_ops->kfree_bulk)
		krc_ops->kfree_bulk(b->nr_records, b->records);
	else if (krc_ops && krc_ops->kfree)
		for (i = 0; i < b->nr_records; i++)
			krc_ops->kfree(b->records[i]);
	spin_lock_irqsave(&krcp->lock, flags);
	cached = put_cached_bnode(krcp, b);
	spin_unlock_irqrestore(&krcp->lock, flags);
	if (!cached)
		pool_put(b);
}

/* kvfree_rcu_list(): channel 3, each object through its head */
static void kvfree_rcu_list(struct rcu_head *head, unsigned long *freed)
{
	while (head) {
		struct rcu_head *next = head->next;

		yield_point(YIELD_SITE(YP_POINT, "kvfree_rcu_list"));
		krc_free_one((void *)head->func, "kvfree_rcu_list");
		stat_add(freed, 1);
		head = next;
	}
}

static bool need_offload_krc(struct kfree_rcu_cpu *krcp)
{
	return !list_empty(&krcp->bulk_head) || READ_ONCE(krcp->head);
}

static bool need_wait_for_krwp_work(struct kfree_rcu_cpu_work *krwp)
{
	return krwp->head_free || !list_empty(&krwp->bulk_head_free) || krwp->queued;
}

/* kvfree_rcu_drain_ready(): the polled shortcut, blocks oldest first */
static void kvfree_rcu_drain_ready(struct kfree_rcu_cpu *krcp)
{
	struct list_head ready;
	struct kfree_rcu_bulk_data *b, *n;
	struct rcu_head *head_ready = NULL;
	unsigned long flags;

	INIT_LIST_HEAD(&ready);
	spin_lock_irqsave(&krcp->lock, flags);
	while (!list_empty(&krcp->bulk_head)) {
		b = list_last_entry(&krcp->bulk_head, struct kfree_rcu_bulk_data, list);
		if (!poll_state_synchronize_rcu(b->gp_snap))
			break;
		krcp->bulk_count -= b->nr_records;
		list_move(&b->list, &ready);
	}
	if (krcp->head && poll_state_synchronize_rcu(krcp->head_gp_snap)) {
		head_ready = krcp->head;
		krcp->head_count = 0;
		WRITE_ONCE(krcp->head, NULL);
	}
	spin_unlock_irqrestore(&krcp->lock, flags);

	list_for_each_entry_safe(b, n, &ready, list)
		kvfree_rcu_bulk(krcp, b, &krc_st.freed_polled);
	if (head_ready)
		kvfree_rcu_list(head_ready, &krc_st.freed_polled);
}

/* rcu_work_rcufn(): queue_rcu_work()'s callback queues the work */
static void rcu_work_rcufn(struct rcu_head *rh)
{
	struct kfree_rcu_cpu_work *krwp = container_of(rh, struct kfree_rcu_cpu_work, rcu);

	__atomic_store_n(&krwp->ready, true, __ATOMIC_RELEASE);
	krc_wake();
}

static void queue_rcu_work(struct kfree_rcu_cpu_work *krwp)
{
	if (krwp->queued)
		return;
	krwp->queued = true;
	stat_add(&krc_st.batches, 1);
	call_rcu(&krwp->rcu, rcu_work_rcufn);
}

/* kfree_rcu_monitor() */
static void kfree_rcu_monitor(struct kfree_rcu_cpu *krcp)
{
	unsigned long flags;
	int i;

	kvfree_rcu_drain_ready(krcp);

	spin_lock_irqsave(&krcp->lock, flags);
	WRITE_ONCE(krcp->monitor_pending, false);
	for (i = 0; i < KFREE_N_BATCHES; i++) {
		struct kfree_rcu_cpu_work *krwp = &krcp->krw_arr[i];

		if (need_wait_for_krwp_work(krwp))
			continue;
		if (need_offload_krc(krcp)) {
			if (list_empty(&krwp->bulk_head_free)) {
				krcp->bulk_count = 0;
				list_replace_init(&krcp->bulk_head, &krwp->bulk_head_free);
			}
			if (!krwp->head_free) {
				krwp->head_free = krcp->head;
				krwp->head_free_gp_snap = get_state_synchronize_rcu();
				krcp->head_count = 0;
				WRITE_ONCE(krcp->head, NULL);
			}
			queue_rcu_work(krwp);
		}
	}
	/* still something to detach: rearm (6.6 re-queues the delayed work) */
	if (need_offload_krc(krcp))
		WRITE_ONCE(krcp->monitor_pending, true);
	spin_unlock_irqrestore(&krcp->lock, flags);
}

/* kfree_rcu_work(): a batch after its grace period */
static void kfree_rcu_work(struct kfree_rcu_cpu_work *krwp)
{
	struct kfree_rcu_cpu *krcp = krwp->krcp;
	struct kfree_rcu_bulk_data *b, *n;
	struct list_head bulk;
	struct rcu_head *head;
	unsigned long flags, snap;

	spin_lock_irqsave(&krcp->lock, flags);
	/* not ready: in real mode another task ran it.  ready is set by
	 * rcu_work_rcufn outside krcp->lock (6.6's queue_work from the
	 * callback), so it is read as it is written */
	if (!__atomic_load_n(&krwp->ready, __ATOMIC_ACQUIRE)) {
		spin_unlock_irqrestore(&krcp->lock, flags);
		return;
	}
	list_replace_init(&krwp->bulk_head_free, &bulk);
	head = krwp->head_free;
	krwp->head_free = NULL;
	snap = krwp->head_free_gp_snap;
	__atomic_store_n(&krwp->ready, false, __ATOMIC_RELAXED);
	krwp->queued = false;
	spin_unlock_irqrestore(&krcp->lock, flags);

	list_for_each_entry_safe(b, n, &bulk, list)
		kvfree_rcu_bulk(krcp, b, &krc_st.freed_batch);
	if (head) {
		/* fiber mode: the batch's grace period passed the cookie
		 * (real mode's callbacks do not advance the polled sequence) */
		if (unlikely(current->fs && !poll_state_synchronize_rcu(snap)))
			sched_violation("kfree_rcu", "kfree_rcu_work",
					"a batch's head list runs before its grace period");
		kvfree_rcu_list(head, &krc_st.freed_batch);
	}
}

static __sched_notsan bool krc_monitor_runnable(struct kfree_rcu_cpu *krcp)
{
	int i;

	if (!krcp->monitor_pending)
		return false;
	for (i = 0; i < KFREE_N_BATCHES; i++)
		if (!krcp->krw_arr[i].head_free && !krcp->krw_arr[i].queued &&
		    list_empty(&krcp->krw_arr[i].bulk_head_free))
			return true;
	return false;
}

/* One work item, the first runnable: a batch past its grace period, a
 * monitor with a free batch, a cache refill.  False if none. */
static bool krc_run_one(void)
{
	int c, i;

	for (c = 0; c < MAX_CPUS; c++) {
		struct kfree_rcu_cpu *krcp = &krc[c];

		for (i = 0; i < KFREE_N_BATCHES; i++)
			if (__atomic_load_n(&krcp->krw_arr[i].ready, __ATOMIC_ACQUIRE)) {
				kfree_rcu_work(&krcp->krw_arr[i]);
				return true;
			}
	}
	for (c = 0; c < MAX_CPUS; c++) {
		struct kfree_rcu_cpu *krcp = &krc[c];

		/* a racy look, the monitor looks again under the lock */
		if (krc_monitor_runnable(krcp)) {
			kfree_rcu_monitor(krcp);
			return true;
		}
		if (READ_ONCE(krcp->fill_pending)) {
			WRITE_ONCE(krcp->fill_pending, false);
			fill_page_cache(krcp);
			return true;
		}
	}
	return false;
}

/* Real mode: the runnable items, a bounded number (a monitor with both
 * batches busy re-arms itself) */
static void krc_run_some(void)
{
	int n;

	for (n = 0; n < 4 * MAX_CPUS && krc_run_one(); n++)
		;
}

static __sched_notsan bool krc_has_work(void *arg)
{
	int c, i;

	(void)arg;
	for (c = 0; c < MAX_CPUS; c++) {
		struct kfree_rcu_cpu *krcp = &krc[c];
		bool free_batch = false;

		for (i = 0; i < KFREE_N_BATCHES; i++) {
			if (krcp->krw_arr[i].ready)
				return true;
			if (!krcp->krw_arr[i].head_free && !krcp->krw_arr[i].queued &&
			    list_empty(&krcp->krw_arr[i].bulk_head_free))
				free_batch = true;
		}
		if ((krcp->monitor_pending && free_batch) || krcp->fill_pending)
			return true;
	}
	return false;
}

static void krc_kthread_fn(struct task *t, void *arg)
{
	struct sched_wait idle = { krc_has_work, NULL, "kfree_rcu work", NULL, true };
	const struct yield_site *s_idle = YIELD_SITE(YP_KTHREAD, "kfree_rcu_wait");

	(void)arg;
	for (;;) {
		while (!krc_has_work(NULL) && !kthread_should_stop(t))
			fsched_wait(t, &idle, s_idle);
		if (!krc_has_work(NULL))
			return;
		kthread_op_begin(t, YIELD_SITE(YP_KTHREAD, "kfree_rcu_work"));
		krc_run_one();
	}
}

static void krc_kthread_ensure(struct task *t)
{
	struct task *k;

	if (__atomic_load_n(&krc_kthread, __ATOMIC_RELAXED))
		return;
	/* on CPU 0, or the caller's when CPU 0 is down (a kthread made on an
	 * offline CPU would never run: cpu_down moved only the tasks it had) */
	k = fsched_kthread_run(t->fs, krc_kthread_fn, NULL, "kfree_rcu",
			       cpu_online(0) ? 0 : t->cpu, false);
	if (!k)
		sched_violation("kthread", "kfree_rcu", "no task left for kfree_rcu (%d tasks)",
				MAX_TASKS);
	__atomic_store_n(&krc_kthread, k, __ATOMIC_RELAXED);
}

/* ---- kvfree_call_rcu() ---- */

static struct kfree_rcu_cpu *krc_this_cpu_lock(unsigned long *flags)
{
	struct task *t = current;
	struct kfree_rcu_cpu *krcp;

	yield_point(YIELD_SITE(YP_SPIN_LOCK, "krcp->lock"));
	*flags = __local_irq_save(t);
	__preempt_disable(t);
	krcp = &krc[t->cpu >= 0 && t->cpu < MAX_CPUS ? t->cpu : 0];
	__spin_acquire(&krcp->lock, t, YIELD_SITE(YP_SPIN_LOCK, "krcp->lock"), __func__, false);
	return krcp;
}

static bool add_ptr_to_bulk_krc_lock(struct kfree_rcu_cpu **krcp, unsigned long *flags,
				     void *ptr, bool can_alloc)
{
	struct kfree_rcu_bulk_data *b;

	*krcp = krc_this_cpu_lock(flags);
	if (unlikely(!(*krcp)->initialized))
		return false;
	b = list_first_entry_or_null(&(*krcp)->bulk_head, struct kfree_rcu_bulk_data, list);
	if (!b || b->nr_records == KVFREE_BULK_MAX_ENTR) {
		b = get_cached_bnode(*krcp);
		if (!b && can_alloc) {
			/* __get_free_page() with the lock dropped: another
			 * task may queue on this krcp meanwhile */
			spin_unlock_irqrestore(&(*krcp)->lock, *flags);
			b = pool_get();
			spin_lock_irqsave(&(*krcp)->lock, *flags);
		}
		if (!b)
			return false;
		b->nr_records = 0;
		list_add(&b->list, &(*krcp)->bulk_head);
	}
	b->records[b->nr_records++] = ptr;
	if (!bug_on(BUG_KFREE_RCU_POLL_EARLY) || b->nr_records == 1)
		b->gp_snap = get_state_synchronize_rcu();
	(*krcp)->bulk_count++;
	return true;
}

/* run_page_cache_worker() */
static void run_page_cache_worker(struct kfree_rcu_cpu *krcp)
{
	WRITE_ONCE(krcp->fill_pending, true);
}

/* schedule_delayed_monitor_work() */
static void schedule_delayed_monitor_work(struct kfree_rcu_cpu *krcp)
{
	krc_mark_used();
	WRITE_ONCE(krcp->monitor_pending, true);
}

void kvfree_call_rcu(struct rcu_head *head, void *ptr)
{
	struct task *t = __cur_task("kvfree_call_rcu");
	struct kfree_rcu_cpu *krcp;
	unsigned long flags;
	bool success, full;

	if (!head && unlikely(!preemptible_task(t)))
		sched_violation("might_sleep", "kvfree_call_rcu",
				"kvfree_rcu() without a head in atomic context");
	krc_mark_used();
	stat_add(&krc_st.calls, 1);
	stat_add(&krc_st.pending, 1);
	kfree_rcu_check_queue(t, ptr);
	success = add_ptr_to_bulk_krc_lock(&krcp, &flags, ptr, !head);
	if (!success) {
		run_page_cache_worker(krcp);
		if (!head)
			goto unlock_return;
		head->func = (rcu_callback_t)ptr;
		head->next = krcp->head;
		WRITE_ONCE(krcp->head, head);
		krcp->head_count++;
		krcp->head_gp_snap = get_state_synchronize_rcu();
		stat_add(&krc_st.head_list, 1);
		success = true;
	}
	schedule_delayed_monitor_work(krcp);
unlock_return:
	full = krcp->bulk_count >= KVFREE_BULK_MAX_ENTR ||
	       krcp->head_count >= KVFREE_BULK_MAX_ENTR;
	spin_unlock_irqrestore(&krcp->lock, flags);
	if (t->fs) {
		krc_kthread_ensure(t);
		fsched_wake(t);
	} else if (preemptible_task(t)) {
		/* real mode: the work items on the caller; the monitor when a
		 * channel holds a block's worth (6.6's one-jiffy delay) */
		if (READ_ONCE(krcp->fill_pending)) {
			WRITE_ONCE(krcp->fill_pending, false);
			fill_page_cache(krcp);
		}
		if (full)
			krc_run_some();
	}
	if (!success) {
		synchronize_rcu();
		krc_free_one(ptr, "kvfree_call_rcu");
		stat_add(&krc_st.freed_inline, 1);
	}
}

/* ---- the end of a run ---- */

static __sched_notsan bool krc_drained(void *arg)
{
	(void)arg;
	return __atomic_load_n(&krc_st.pending, __ATOMIC_ACQUIRE) == 0;
}

void kfree_rcu_drain(void)
{
	struct task *t = __cur_task("kfree_rcu_drain");
	int c;

	/* Nothing held: nothing to wait for, and nothing written.  The end of
	 * a run drains on a scheduler run of its own, whose run hook already
	 * reset the state: monitors armed here with nothing queued would be
	 * left armed, unmarked, for the next run (its kfree_rcu kthread then
	 * found work at once, and a replay in the same process differed from
	 * a fresh one). */
	if (!__atomic_load_n(&krc_st.pending, __ATOMIC_ACQUIRE))
		return;
	if (t->fs) {
		struct sched_wait w = { krc_drained, NULL, "kfree_rcu_drain", NULL, false };
		const struct yield_site *s = YIELD_SITE(YP_KTHREAD, "kfree_rcu_drain");

		if (!__atomic_load_n(&krc_kthread, __ATOMIC_RELAXED) &&
		    __atomic_load_n(&krc_st.pending, __ATOMIC_RELAXED))
			krc_kthread_ensure(t);
		for (c = 0; c < MAX_CPUS; c++)
			schedule_delayed_monitor_work(&krc[c]);
		fsched_wake(t);
		while (!krc_drained(NULL))
			fsched_wait(t, &w, s);
		return;
	}
	/* real mode: batches wait for a grace period of their own */
	while (__atomic_load_n(&krc_st.pending, __ATOMIC_ACQUIRE)) {
		for (c = 0; c < MAX_CPUS; c++)
			schedule_delayed_monitor_work(&krc[c]);
		krc_run_some();
		if (!__atomic_load_n(&krc_st.pending, __ATOMIC_ACQUIRE))
			break;
		rcu_barrier();
	}
}

/* ---- bug switch (bit in kfree_rcu.h) ---- */

static const struct bug_info bug_kfree_rcu_poll_early = {
	.bit = BUG_KFREE_RCU_POLL_EARLY,
	.name = "kfree_rcu_poll_early", .layer = "rcu", .where = "add_ptr_to_bulk_krc_lock",
	.caught_by = "I-RCU (kfree_rcu: a deferred free while a reader of the call runs)",
	.desc = "a bulk block keeps the get_state_synchronize_rcu() cookie of its first "
		"record: the monitor's polled shortcut (kvfree_rcu_drain_ready) frees a later "
		"record as soon as the first one's grace period has passed, under a reader "
		"that began between the two",
};
BUG_SWITCH(bug_kfree_rcu_poll_early);

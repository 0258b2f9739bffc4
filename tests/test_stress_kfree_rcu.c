// SPDX-License-Identifier: MIT
/*
 * kfree_rcu in real mode with liburcu (the stress runner's backend): three
 * threads replace a published object and kfree_rcu() the old one while a
 * reader thread reads the current one in read-side sections; a freed
 * object is marked dead by the owner's free, so a reader that sees one
 * saw a free before its grace period.  Every object is freed once after
 * kfree_rcu_drain(); TSan sees the whole thing (make test's TSan pass).
 */
#include <pthread.h>
#include <string.h>

#include "kernel/kfree_rcu.h"
#include "sched/sched.h"
#include "tap.h"

void stress_rcu_install(int cpu);

#define NW 3
#define PER 400

struct obj {
	int v;
	struct rcu_head rh;
};

static struct obj objs[NW][PER + 1];
static struct obj *cur[NW];
static int freed_n, dead_seen, reads, done;

static void obj_kfree(void *p)
{
	struct obj *o = p;

	__atomic_store_n(&o->v, -1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&freed_n, 1, __ATOMIC_RELAXED);
}

static void obj_kfree_bulk(size_t n, void **p)
{
	size_t i;

	for (i = 0; i < n; i++)
		obj_kfree(p[i]);
}

static const struct kvfree_rcu_ops ops = { obj_kfree, obj_kfree_bulk };
static struct task tasks[NW + 1];

static void *writer(void *arg)
{
	int w = (int)(long)arg, i;
	struct obj *old;

	current_task = &tasks[w];
	rcu_register_thread();
	for (i = 1; i <= PER; i++) {
		objs[w][i].v = i;
		old = cur[w];
		rcu_assign_pointer(cur[w], &objs[w][i]);
		kfree_rcu(old, rh);
	}
	rcu_unregister_thread();
	return NULL;
}

static void *reader(void *arg)
{
	int w;

	(void)arg;
	current_task = &tasks[NW];
	rcu_register_thread();
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		rcu_read_lock();
		for (w = 0; w < NW; w++) {
			struct obj *o = rcu_dereference(cur[w]);

			if (__atomic_load_n(&o->v, __ATOMIC_RELAXED) < 0)
				__atomic_fetch_add(&dead_seen, 1, __ATOMIC_RELAXED);
			reads++;
		}
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t th[NW + 1];
	struct kfree_rcu_stats st;
	int w;

	tap_plan(3);
	stress_rcu_install(0);
	kvfree_rcu_set_ops(&ops);
	kfree_rcu_reset();
	for (w = 0; w <= NW; w++) {
		memset(&tasks[w], 0, sizeof(tasks[w]));
		tasks[w].id = w;
		tasks[w].cpu = w % 2;
	}
	for (w = 0; w < NW; w++) {
		objs[w][0].v = 0;
		cur[w] = &objs[w][0];
	}
	pthread_create(&th[NW], NULL, reader, NULL);
	for (w = 0; w < NW; w++)
		pthread_create(&th[w], NULL, writer, (void *)(long)w);
	for (w = 0; w < NW; w++)
		pthread_join(th[w], NULL);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(th[NW], NULL);

	current_task = &tasks[0];
	rcu_register_thread();
	kfree_rcu_drain();
	kfree_rcu_stats(&st);
	rcu_unregister_thread();
	current_task = NULL;
	ok(dead_seen == 0, "no reader saw an object freed under it (%d reads)", reads);
	ok(freed_n == NW * PER && st.pending == 0,
	   "kfree_rcu_drain: all %d freed (%d), %lu pending", NW * PER, freed_n, st.pending);
	ok(st.freed_batch + st.freed_polled + st.freed_inline == (unsigned long)NW * PER,
	   "batches %lu, polled %lu, inline %lu, head list %lu", st.freed_batch, st.freed_polled,
	   st.freed_inline, st.head_list);
	return tap_done();
}

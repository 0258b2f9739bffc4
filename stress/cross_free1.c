// SPDX-License-Identifier: MIT
/*
 * cross_free1: pages allocated on one CPU and freed on another, the
 * producer/consumer pattern of mimalloc-bench's xmalloc-test.  Tasks pair
 * up: task 2k allocates order-0 pages on its CPU and passes them through a
 * ring to task 2k+1, which frees them on its own.  The consumer's pcp list
 * only grows and goes back to the buddy with free_pcppages_bulk; the
 * producer's only shrinks and refills with rmqueue_bulk: both sides meet on
 * zone->lock.  Every 64th chunk the producer drains every CPU's pcp lists,
 * as direct reclaim does when a producer runs the zone low, so a drain
 * takes the consumer's pcp->lock while the consumer frees into it.  A task
 * without a partner (one task, or the last of an odd number) allocates on
 * its CPU, migrates to a spare CPU and frees there.  One op is one page
 * allocated, or one page freed.
 *
 * Each ring has one producer and one consumer: head and tail are
 * acquire/release, the slots between them belong to one side at a time.
 */
#include "stress.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define RING_SLOTS	1024		/* a power of two */
#define CROSS_CHUNK	64		/* pages moved per iteration */
#define CROSS_DRAIN_EVERY 64		/* chunks between drain_all_pages() */

struct ring {
	_Alignas(STRESS_CACHELINE) unsigned long head;	/* consumer's */
	_Alignas(STRESS_CACHELINE) unsigned long tail;	/* producer's */
	struct page *slot[RING_SLOTS];
};

struct cross_free1 {
	struct ring *rings;		/* one per pair */
	int spare_cpu;			/* the lone task's second CPU */
};

static int cross_free1_nr_cpus(unsigned long tasks)
{
	return (int)(tasks + (tasks & 1));
}

static int cross_free1_prepare(struct stress_run *r, unsigned long tasks)
{
	struct cross_free1 *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->rings = aligned_alloc(STRESS_CACHELINE, (tasks / 2 + 1) * sizeof(struct ring));
	if (!c->rings) {
		free(c);
		return -1;
	}
	memset(c->rings, 0, (tasks / 2 + 1) * sizeof(struct ring));
	/* the slot after the last task's: a CPU of its own while there are enough */
	c->spare_cpu = stress_slot_cpu(r, tasks);
	r->priv = c;
	return 0;
}

static void produce(struct stress_task *t, struct ring *ring, unsigned long *chunks)
{
	unsigned long head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	unsigned long tail = ring->tail;
	int i;

	if (RING_SLOTS - (tail - head) < CROSS_CHUNK) {
		sched_yield();
		return;
	}
	for (i = 0; i < CROSS_CHUNK; i++) {
		struct page *page = stress_alloc_pages(GFP_HIGHUSER_MOVABLE, 0);

		if (!page)
			break;
		stress_touch(page, 0);
		ring->slot[tail++ % RING_SLOTS] = page;
	}
	__atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
	stress_count(t, (unsigned long long)i);
	if (++*chunks % CROSS_DRAIN_EVERY == 0)
		drain_all_pages(NULL);
}

static void consume(struct stress_task *t, struct ring *ring)
{
	unsigned long tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	unsigned long head = ring->head;
	int n = 0;

	if (tail == head) {
		sched_yield();
		return;
	}
	while (head != tail && n < CROSS_CHUNK) {
		__free_pages(ring->slot[head++ % RING_SLOTS], 0);
		n++;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	stress_count(t, (unsigned long long)n);
}

/* No partner: allocate here, migrate (preemptible, between ops), free there. */
static void alone(struct stress_task *t, struct cross_free1 *c, struct page **pages,
		  unsigned long chunk)
{
	int home = t->task.cpu;
	unsigned long i, n;

	for (n = 0; n < CROSS_CHUNK; n++) {
		pages[n] = stress_alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
		if (!pages[n])
			break;
		stress_touch(pages[n], 0);
	}
	t->task.cpu = c->spare_cpu;
	for (i = 0; i < n; i++)
		__free_pages(pages[i], 0);
	t->task.cpu = home;
	stress_count(t, 2 * n);
	if (chunk % CROSS_DRAIN_EVERY == 0)
		drain_all_pages(NULL);
}

static void cross_free1_testcase(struct stress_task *t)
{
	struct cross_free1 *c = t->run->priv;
	struct ring *ring = &c->rings[t->nr / 2];
	bool paired = (t->nr | 1) < t->run->ntasks;
	struct page *pages[CROSS_CHUNK];
	unsigned long chunk = 0;

	while (stress_continue(t)) {
		if (!paired)
			alone(t, c, pages, ++chunk);
		else if (t->nr & 1)
			consume(t, ring);
		else
			produce(t, ring, &chunk);
	}
}

static void cross_free1_held(struct stress_run *r, struct stress_held *h)
{
	struct cross_free1 *c = r->priv;
	unsigned long k, i;

	for (k = 0; k < r->ntasks / 2; k++) {
		struct ring *ring = &c->rings[k];
		unsigned long tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);

		for (i = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE); i != tail; i++)
			stress_held_add(h, ring->slot[i % RING_SLOTS], 0);
	}
}

static void cross_free1_cleanup(struct stress_run *r)
{
	struct cross_free1 *c = r->priv;
	unsigned long k;

	for (k = 0; k < r->ntasks / 2; k++) {
		struct ring *ring = &c->rings[k];

		while (ring->head != ring->tail)
			__free_pages(ring->slot[ring->head++ % RING_SLOTS], 0);
	}
	free(c->rings);
	free(c);
	r->priv = NULL;
}

static const struct stress_workload stress_cross_free1 = {
	.name = "cross_free1",
	.description = "Pages allocated on one CPU and freed on another (producer/consumer)",
	.nr_cpus = cross_free1_nr_cpus,
	.prepare = cross_free1_prepare,
	.testcase = cross_free1_testcase,
	.held = cross_free1_held,
	.cleanup = cross_free1_cleanup,
};
STRESS_WORKLOAD(stress_cross_free1);

// SPDX-License-Identifier: MIT
/*
 * Kernel threads on real threads for stress mode: the model's kthreads are
 * fiber tasks (fsched_kthread_run), which a stress run has none of, so the
 * runner keeps a pool of worker pthreads and runs kernel-thread work on
 * them: padata's helpers (6.6 queues them on system_unbound_wq; padata
 * gets this pool through padata_set_real_ops) and the threads a workload
 * starts itself (deferred_init1's pgdatinit%d, kthread_create_on_node).
 *
 * A work runs as a task of the simulated CPU it was queued for: the
 * worker's struct task takes that CPU, current_task is set, and a model
 * violation in the work unwinds to the worker, which marks the run failed
 * as a task thread does (runner.c).  Workers are made when a work finds
 * none idle (an unbound workqueue's pool grows as works wait), up to
 * STRESS_WQ_MAX; then queue_work says no and padata runs the work's helper
 * in the caller, as it does when its works pool runs dry.
 *
 * Several threads act as one simulated CPU here (a worker, the task of
 * that CPU), so a run that uses the pool sets real_cpu_shared: a task
 * holds its CPU while preemption or IRQs are off (sched.c real_cpu_enter).
 *
 * Lock order: wq.lock is a leaf, never held while a work runs.
 */
#include "stress.h"

#include <alloca.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/kernel/padata.h"

#define STRESS_WQ_MAX	32

struct wq_worker {
	_Alignas(STRESS_CACHELINE) struct task task;
	pthread_t thread;
	jmp_buf jb;
	void (*fn)(void *arg);		/* the work given, under wq.lock */
	void *arg;
	int cpu;
	const char *name;
	bool busy;
	struct wq_state *wq;
};

struct wq_state {
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a worker has a work, or stop */
	pthread_cond_t idle;		/* a work ended */
	struct stress_run *r;
	struct wq_worker *w[STRESS_WQ_MAX];
	int nw, nbusy;
	unsigned long queued, refused;
	bool stop;
};

static struct wq_state wq = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
};

/* fn(arg) below 64 KiB of stack that a violation's unwinding leaves the
 * worker to use, so the frames of fn stay as other threads may see them */
static __attribute__((noinline)) void wq_run_padded(void (*fn)(void *), void *arg)
{
	char *pad = alloca(65536);

	/* the compiler may neither drop nor shrink it */
	__asm__ volatile("" : : "r"(pad) : "memory");
	fn(arg);
	__asm__ volatile("" : : "r"(pad) : "memory");
}

static void *wq_worker_main(void *arg)
{
	struct wq_worker *k = arg;
	struct wq_state *q = k->wq;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		void (*fn)(void *);
		void *fa;

		while (!k->fn && !q->stop)
			pthread_cond_wait(&q->work, &q->lock);
		if (!k->fn)
			break;
		fn = k->fn;
		fa = k->arg;
		k->task.cpu = k->cpu;
		k->task.name = k->name;
		pthread_mutex_unlock(&q->lock);

		current_task = &k->task;
		k->task.exit_jb = &k->jb;
		if (setjmp(k->jb)) {
			/*
			 * A model violation in the work (g_violation says
			 * which).  Other threads may still use what its frames
			 * hold (padata's job state lives on the caller's
			 * stack): the worker says so and stays here, on the
			 * stack the pad kept free above those frames.
			 */
			__atomic_store_n(&q->r->failed, 1, __ATOMIC_RELEASE);
			stress_wake_runner();
			for (;;)
				pause();
		}
		wq_run_padded(fn, fa);
		current_task = NULL;

		pthread_mutex_lock(&q->lock);
		k->fn = NULL;
		k->busy = false;
		q->nbusy--;
		pthread_cond_broadcast(&q->idle);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* A new idle worker, or NULL at the limit; wq.lock held. */
static struct wq_worker *wq_spawn(void)
{
	struct wq_worker *k;

	if (wq.nw == STRESS_WQ_MAX || wq.stop)
		return NULL;
	k = aligned_alloc(STRESS_CACHELINE, sizeof(*k));
	if (!k)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->wq = &wq;
	k->task.id = (int)wq.r->ntasks + 1 + wq.nw;	/* after the runner's */
	if (pthread_create(&k->thread, NULL, wq_worker_main, k)) {
		free(k);
		return NULL;
	}
	wq.w[wq.nw++] = k;
	return k;
}

/* queue_work: @fn(@arg) on an idle worker, or a new one; false at the limit. */
static bool wq_queue(void (*fn)(void *arg), void *arg, int cpu, const char *name)
{
	struct wq_worker *k = NULL;
	int i;

	pthread_mutex_lock(&wq.lock);
	for (i = 0; i < wq.nw && !k; i++)
		if (!wq.w[i]->busy)
			k = wq.w[i];
	if (!k)
		k = wq_spawn();
	if (!k) {
		wq.refused++;
		pthread_mutex_unlock(&wq.lock);
		return false;
	}
	k->busy = true;
	k->fn = fn;
	k->arg = arg;
	k->cpu = cpu;
	k->name = name;
	wq.nbusy++;
	wq.queued++;
	pthread_cond_broadcast(&wq.work);
	pthread_mutex_unlock(&wq.lock);
	return true;
}

static bool wq_padata_queue(void (*fn)(void *arg), void *arg, int cpu)
{
	return wq_queue(fn, arg, cpu, "padata");
}

static const struct padata_real_ops wq_padata_ops = {
	.queue_work = wq_padata_queue,
};

void stress_wq_start(struct stress_run *r)
{
	pthread_mutex_lock(&wq.lock);
	wq.r = r;
	wq.stop = false;
	wq.queued = wq.refused = 0;
	pthread_mutex_unlock(&wq.lock);
	real_cpu_shared = true;
	padata_set_real_ops(&wq_padata_ops);
}

void stress_wq_prestart(int n)
{
	pthread_mutex_lock(&wq.lock);
	while (wq.nw < n && wq_spawn())
		;
	pthread_mutex_unlock(&wq.lock);
}

bool stress_kthread_run(void (*fn)(void *arg), void *arg, int cpu, const char *name)
{
	return wq_queue(fn, arg, cpu, name);
}

void stress_wq_flush(void)
{
	pthread_mutex_lock(&wq.lock);
	while (wq.nbusy)
		pthread_cond_wait(&wq.idle, &wq.lock);
	pthread_mutex_unlock(&wq.lock);
}

int stress_wq_workers(void)
{
	int n;

	pthread_mutex_lock(&wq.lock);
	n = wq.nw;
	pthread_mutex_unlock(&wq.lock);
	return n;
}

void stress_wq_stop(void)
{
	int i, n;

	padata_set_real_ops(NULL);
	stress_wq_flush();
	pthread_mutex_lock(&wq.lock);
	wq.stop = true;
	pthread_cond_broadcast(&wq.work);
	n = wq.nw;
	pthread_mutex_unlock(&wq.lock);
	for (i = 0; i < n; i++) {
		pthread_join(wq.w[i]->thread, NULL);
		free(wq.w[i]);
	}
	pthread_mutex_lock(&wq.lock);
	wq.nw = 0;
	pthread_mutex_unlock(&wq.lock);
}

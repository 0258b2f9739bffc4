// SPDX-License-Identifier: MIT
/*
 * The stress barrier: the runner stops every task between two iterations,
 * checks the model's global invariants at quiescence, and lets them go on.
 *
 * A task parks only in stress_continue(), where it holds no model lock and
 * no page in transit, so what the checkers see is a state the model must be
 * consistent in.  The barrier's mutex gives the runner happens-before over
 * everything the tasks wrote (TSan sees the checks as ordered, not racing).
 *
 * run->bar_lock protects parked, bar_gen and each task's parked flag;
 * run->stop is written under it and read racily by the tasks.
 */
#include "stress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/kernel/smp.h"

void stress_barrier_init(struct stress_run *r)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&r->bar_lock, NULL);
	pthread_cond_init(&r->bar_tasks, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->bar_runner, &ca);
	pthread_condattr_destroy(&ca);
	__atomic_store_n(&r->stop, STOP_NONE, __ATOMIC_RELAXED);
}

bool __stress_park(struct stress_task *t)
{
	struct stress_run *r = t->run;
	int stop;

	pthread_mutex_lock(&r->bar_lock);
	stop = __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
	if (stop == STOP_PARK) {
		unsigned long gen = r->bar_gen;

		/* parked, its CPU is idle: a cross-CPU call to it runs at once */
		smp_real_attach(t->task.cpu, false);

		t->parked = true;
		if (++r->parked == r->ntasks)
			pthread_cond_signal(&r->bar_runner);
		while (r->bar_gen == gen)
			pthread_cond_wait(&r->bar_tasks, &r->bar_lock);
		t->parked = false;
		smp_real_attach(t->task.cpu, true);
		stop = __atomic_load_n(&r->stop, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&r->bar_lock);
	return stop != STOP_EXIT;
}

static void stress_report_stall(struct stress_run *r)
{
	char who[256] = "";
	unsigned long i, n = 0;

	for (i = 0; i < r->ntasks && strlen(who) < sizeof(who) - 16; i++)
		if (!r->tasks[i].parked)
			snprintf(who + strlen(who), sizeof(who) - strlen(who), "%s%lu",
				 n++ ? "," : "", i);
	fprintf(stderr, "mmfuzz stress: %s: Assertion `stall@barrier' failed.\n", r->o->wl->name);
	fprintf(stderr, "mmfuzz stress: task(s) %s did not reach an iteration boundary within "
		"%lu ms: a deadlock, a livelock or a corrupted list\n", who, r->o->stall_ms);
}

int stress_barrier_stop(struct stress_run *r)
{
	struct timespec deadline;
	bool stalled = false;
	int failed;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += (time_t)(r->o->stall_ms / 1000);
	deadline.tv_nsec += (long)(r->o->stall_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->bar_lock);
	r->parked = 0;
	__atomic_store_n(&r->stop, STOP_PARK, __ATOMIC_RELAXED);
	while (r->parked < r->ntasks && !__atomic_load_n(&r->failed, __ATOMIC_ACQUIRE)) {
		if (pthread_cond_timedwait(&r->bar_runner, &r->bar_lock, &deadline) == ETIMEDOUT &&
		    r->parked < r->ntasks) {
			stalled = true;
			break;
		}
	}
	failed = __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE);
	if (stalled && !failed)
		stress_report_stall(r);
	pthread_mutex_unlock(&r->bar_lock);
	if (failed) {
		stress_report_violation(r);
		return -1;
	}
	return stalled ? -1 : 0;
}

void stress_barrier_resume(struct stress_run *r, bool exit)
{
	pthread_mutex_lock(&r->bar_lock);
	__atomic_store_n(&r->stop, exit ? STOP_EXIT : STOP_NONE, __ATOMIC_RELAXED);
	r->bar_gen++;
	pthread_cond_broadcast(&r->bar_tasks);
	pthread_mutex_unlock(&r->bar_lock);
}

void stress_held_add(struct stress_held *h, struct page *page, unsigned int order)
{
	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 256;
		struct stress_held_block *a = realloc(h->a, (size_t)cap * sizeof(*a));

		if (!a)
			abort();
		h->a = a;
		h->cap = cap;
	}
	h->a[h->n].pfn = page_to_pfn(page);
	h->a[h->n].order = order;
	h->n++;
}

/*
 * I-CONS's owner source for what the workload's tasks hold (registered
 * like the layers' sources; empty outside a stress check).
 */
static const struct stress_held *held_now;

static void stress_held_collect(struct world *w, struct owner_sink *s)
{
	int i;

	(void)w;
	for (i = 0; held_now && i < held_now->n; i++)
		owner_add(s, held_now->a[i].pfn, 1UL << held_now->a[i].order, (unsigned)i);
}

static void stress_held_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "the workload's block #%u", who);
}

static const struct owner_source stress_owner = {
	.name = "stress", .collect = stress_held_collect, .describe = stress_held_describe,
};
OWNER_SOURCE(stress_owner);

void stress_report_violation(struct stress_run *r)
{
	const struct violation *v = &g_violation;
	char who[48];

	if (v->task >= 0 && (unsigned long)v->task < r->ntasks)
		snprintf(who, sizeof(who), "task %d (cpu %d)", v->task, r->tasks[v->task].task.cpu);
	else
		snprintf(who, sizeof(who), "the check at quiescence");
	/* glibc's assert() form: LKP turns "Assertion .* failed" into a stat */
	fprintf(stderr, "mmfuzz stress: %s: Assertion `%s' failed.\n", r->o->wl->name,
		v->signature);
	fprintf(stderr, "mmfuzz stress: %s: %s\n", who, v->msg);
	fflush(stderr);
}

int stress_as_runner(struct stress_run *r, void (*fn)(struct stress_run *r, void *arg), void *arg)
{
	current_task = &r->runner;
	if (setjmp(r->runner_jb)) {
		current_task = NULL;
		r->runner.cpu = 0;
		r->violations++;
		stress_report_violation(r);
		return -1;
	}
	fn(r, arg);
	current_task = NULL;
	r->runner.cpu = 0;
	return 0;
}

static void check_quiescent_fn(struct stress_run *r, void *arg)
{
	const struct stress_held *h = arg;

	if (r->o->wl->quiesce)
		r->o->wl->quiesce(r);
	r->checks++;
	held_now = h;
	check_quiescent(r->w, "stress");
	held_now = NULL;
}

int stress_check_quiescent(struct stress_run *r)
{
	struct stress_held h = { 0 };
	int ret;

	if (r->o->wl->held)
		r->o->wl->held(r, &h);
	ret = stress_as_runner(r, check_quiescent_fn, &h);
	free(h.a);
	return ret;
}

static void check_final_fn(struct stress_run *r, void *arg)
{
	(void)arg;
	if (r->o->wl->cleanup)
		r->o->wl->cleanup(r);
	world_drain(r->w);
	r->runner.cpu = 0;
	r->checks++;
	check_final(r->w);
}

int stress_check_final(struct stress_run *r)
{
	return stress_as_runner(r, check_final_fn, NULL);
}

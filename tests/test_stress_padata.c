// SPDX-License-Identifier: MIT
/*
 * padata_do_multithreaded in real mode, on the stress runner's worker pool
 * (stress/unbound_wq.c as padata's system_unbound_wq): the helpers are
 * threads of their own, each a task of the CPU padata queued it for.  Jobs
 * of several shapes; each checks that every unit of the job ran exactly
 * once, that padata gave the works it computed (nworks_fini == nworks, the
 * pool whole again), that the workers ran chunks beside the caller (the
 * caller's first chunk waits, up to 10 s, for one to run elsewhere), and
 * that a worker ran as a task of a CPU other than the caller's.  Without
 * the pool installed, real mode runs the job in the caller alone.  TSan
 * sees it all (make test's TSan pass).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../stress/stress.h"
#include "kernel/cpu.h"
#include "kernel/padata.h"
#include "tap.h"

#define MAXU	4096

static unsigned char hits[MAXU];
static pthread_t caller;
static int other_thread_chunks, other_task_chunks, other_cpu_chunks, caller_waited;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void unit_fn(unsigned long start, unsigned long end, void *arg)
{
	unsigned long i;

	(void)arg;
	if (!pthread_equal(pthread_self(), caller)) {
		if (current_task && strcmp(current_task->name, "caller"))
			__atomic_fetch_add(&other_task_chunks, 1, __ATOMIC_RELAXED);
		if (current_task && current_task->cpu != 0)
			__atomic_fetch_add(&other_cpu_chunks, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&other_thread_chunks, 1, __ATOMIC_RELEASE);
	} else if (!__atomic_exchange_n(&caller_waited, 1, __ATOMIC_RELAXED)) {
		uint64_t until = now_ns() + 10000000000ull;

		while (!__atomic_load_n(&other_thread_chunks, __ATOMIC_ACQUIRE) && now_ns() < until)
			sched_yield();
	}
	for (i = start; i < end; i++)
		__atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

static int run_job(struct padata_pool *pool, unsigned long start, unsigned long size,
		   unsigned long align, unsigned long min_chunk, int max_threads,
		   struct padata_stat *st, bool wait)
{
	struct padata_mt_job job = {
		.thread_fn = unit_fn, .start = start, .size = size, .align = align,
		.min_chunk = min_chunk, .max_threads = max_threads,
	};
	unsigned long i;
	int bad = 0;

	memset(hits, 0, sizeof(hits));
	other_thread_chunks = other_task_chunks = other_cpu_chunks = 0;
	caller_waited = !wait;
	padata_do_multithreaded(pool, &job, st);
	stress_wq_flush();
	for (i = 0; i < MAXU; i++)
		if (hits[i] != (i >= start && i < start + size))
			bad++;
	return bad;
}

int main(void)
{
	static struct stress_run run;
	static struct task me = { .id = 0, .name = "caller", .cpu = 0 };
	struct padata_pool pool;
	struct padata_stat st;
	static const struct { unsigned long start, size, align, min_chunk; int threads; } shape[] = {
		{ 0, 4096, 64, 64, 8 },		/* aligned */
		{ 37, 3000, 64, 64, 4 },	/* unaligned start and end */
		{ 0, 2048, 1, 16, 16 },		/* align 1, the pool's limit */
		{ 128, 1024, 128, 256, 2 },	/* min_chunk above align */
	};
	unsigned int i;

	tap_plan(6 * 4 + 2);
	caller = pthread_self();
	cpu_hotplug_boot(MAX_CPUS);
	current_task = &me;
	run.ntasks = 1;
	padata_pool_init(&pool, PADATA_MAX_WORKS);

	/* no pool installed: the caller alone */
	ok(run_job(&pool, 0, 1024, 64, 64, 8, &st, false) == 0 && st.nworks == 1 &&
	   other_thread_chunks == 0, "real mode without a workqueue: the caller runs the job alone "
	   "(nworks %d)", st.nworks);

	stress_wq_start(&run);
	for (i = 0; i < sizeof(shape) / sizeof(shape[0]); i++) {
		int bad = run_job(&pool, shape[i].start, shape[i].size, shape[i].align,
				  shape[i].min_chunk, shape[i].threads, &st, true);
		unsigned long div = shape[i].min_chunk > shape[i].align ? shape[i].min_chunk
									: shape[i].align;
		long want = (long)(shape[i].size / div);

		if (want < 1)
			want = 1;
		if (want > shape[i].threads)
			want = shape[i].threads;
		ok(bad == 0, "job %u [%lu, +%lu): every unit once (%d wrong)", i, shape[i].start,
		   shape[i].size, bad);
		ok(st.nworks_asked == want, "job %u: nworks asked %d, want %ld", i, st.nworks_asked,
		   want);
		ok(st.nworks == st.nworks_asked && st.nworks_fini == st.nworks,
		   "job %u: the pool gave every work (%d of %d), all finished (%d)", i, st.nworks,
		   st.nworks_asked, st.nworks_fini);
		ok(padata_pool_free(&pool) == PADATA_MAX_WORKS, "job %u: every work back in the pool",
		   i);
		ok(other_thread_chunks > 0, "job %u: workers ran %d chunks beside the caller", i,
		   other_thread_chunks);
		/*
		 * Each worker runs as the task of the CPU padata queued it on:
		 * padata_next_cpu from the caller's CPU 0 round the MAX_CPUS, so
		 * a job of fewer works than CPUs has every worker on another
		 * CPU; one of more wraps to CPU 0, and which workers get chunks
		 * is the machine's scheduling.
		 */
		ok(other_task_chunks == other_thread_chunks &&
		   (shape[i].threads > MAX_CPUS || other_cpu_chunks == other_thread_chunks),
		   "job %u: as tasks of their own, of other CPUs unless the works wrap to CPU 0 "
		   "(%d of %d chunks as worker tasks, %d on other CPUs)", i, other_task_chunks,
		   other_thread_chunks, other_cpu_chunks);
	}
	ok(stress_wq_workers() >= 1 && stress_wq_workers() <= PADATA_MAX_WORKS,
	   "the pool made %d worker threads", stress_wq_workers());
	stress_wq_stop();
	current_task = NULL;
	return 0;
}

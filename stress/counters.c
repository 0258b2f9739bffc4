// SPDX-License-Identifier: MIT
/*
 * The model's counters as LKP-style "key: value" stats, printed after
 * average: so will-it-scale's parsers skip them: each world layer's own
 * (its stat_snap and stat_print, layer.h: the page allocator's mm_stat
 * items, vm events and lock statistics, the TLB gather layer's flushes),
 * in layer order, then the task threads' CPU time.
 *
 * Snapshots are taken while the tasks are parked (quiesce.c), so the plain
 * counters the lock holders update are read in order, not racily.  Lock
 * hold time is kept in TSC cycles and turned into ns with the TSC rate
 * measured between the two snapshots.
 */
#include "stress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * The CPU time the task threads used (their thread CPU clocks).  On a
 * machine other jobs share, ops/s falls with the time the tasks wait for
 * a CPU; operations per CPU second of the tasks do not, and the ratio of
 * that at 2 tasks to 1 task is how well the model scales when each task
 * has a CPU: shared lines and spinning waits cost CPU time, waiting for a
 * CPU costs none.
 */
static uint64_t stress_task_cpu_ns(const struct stress_run *r)
{
	uint64_t sum = 0;
	unsigned long i;

	for (i = 0; i < r->nstarted; i++) {
		struct timespec ts;
		clockid_t cid;

		if (pthread_getcpuclockid(r->tasks[i].thread, &cid) ||
		    clock_gettime(cid, &ts))
			continue;
		sum += (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	return sum;
}

uint64_t stress_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void snap_quiesce(struct stress_run *r, void *arg)
{
	(void)arg;
	r->o->wl->quiesce(r);
}

void stress_snap_take(struct stress_run *r, struct stress_snap *s)
{
	/* the tasks are parked (or not yet made), but what they left to other
	 * threads (RCU callbacks freeing page tables) may still run: finish it,
	 * so the reads below come after its writes */
	if (r->o->wl->quiesce)
		stress_as_runner(r, snap_quiesce, NULL);
	memset(s, 0, sizeof(*s));
	if (layers_stat_size() > sizeof(s->layers)) {
		fprintf(stderr, "mmfuzz stress: the world layers' stat snapshots take %zu bytes, "
			"more than STRESS_LAYER_STATS (%zu) in stress/stress.h\n",
			layers_stat_size(), sizeof(s->layers));
		abort();
	}
	layers_stat_snap(r->w, s->layers);
	if (r->o->wl->stat_snap) {
		if (r->o->wl->stat_size > sizeof(s->wl_stats)) {
			fprintf(stderr, "mmfuzz stress: %s's stat snapshot takes %zu bytes, more "
				"than STRESS_WL_STATS (%zu) in stress/stress.h\n", r->o->wl->name,
				r->o->wl->stat_size, sizeof(s->wl_stats));
			abort();
		}
		s->wl = r->o->wl;
		s->wl->stat_snap(r, s->wl_stats);
	}
	s->task_cpu_ns = stress_task_cpu_ns(r);
	s->ntasks = r->nstarted;
	s->tsc = __lock_tsc();
	s->ns = stress_now_ns();
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* How much of the run the tasks had a CPU, and what they did with it. */
static void stress_cpu_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			     uint64_t run_ns, unsigned long long ops)
{
	double cpu_ns = (double)(b->task_cpu_ns - a->task_cpu_ns);
	unsigned long ntasks = b->ntasks ? b->ntasks : 1;

	/* 100: every task on a CPU all the time; less: they waited for one */
	fprintf(out, "stress.task_cpu%%: %.1f\n", pct(cpu_ns, (double)run_ns * (double)ntasks));
	fprintf(out, "stress.ops_per_task_cpu_s: %.0f\n",
		cpu_ns > 0 ? (double)ops * 1e9 / cpu_ns : 0.0);
}

void stress_counters_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			   uint64_t run_ns, unsigned long long ops)
{
	struct layer_stat_span span = {
		.run_ns = run_ns,
		.ns_per_cycle = b->tsc > a->tsc ? (double)(b->ns - a->ns) / (double)(b->tsc - a->tsc)
						: 0.0,
		.ops = ops,
	};

	layers_stat_print(out, a->layers, b->layers, &span);
	if (a->wl && b->wl == a->wl)
		a->wl->stat_print(out, a->wl_stats, b->wl_stats, &span);
	stress_cpu_print(out, a, b, run_ns, ops);
}

// SPDX-License-Identifier: MIT
/*
 * make bench: what the deterministic scheduler costs.
 *
 *  - a fiber switch, against a plain function call;
 *  - a fixed set of programs run on the scheduler (their schedules: input
 *    decisions, then PCT) against the same operations run one after another
 *    on one real-mode task with no scheduler.  Both run every checker.
 *
 * Medians of several rounds; the machine is shared and noisy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ucontext.h>

#include "kernel/spinlock.h"
#include "sched/fiber.h"
#include "prog/exec.h"
#include "prog/ops.h"

#define ROUNDS 7
#define NPROGS 64

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

__attribute__((noinline)) static void empty_call(long i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
}

static double call_ns(long iters)
{
	double t0 = now_ns();
	long i;

	for (i = 0; i < iters; i++)
		empty_call(i);
	return (now_ns() - t0) / (double)iters;
}

/* A fiber switch: round trips between the main fiber and one other. */
static struct fiber bench_main, bench_f;
static long bench_left;

static void bench_entry(void *arg)
{
	(void)arg;
	for (;;) {
		__atomic_fetch_sub(&bench_left, 1, __ATOMIC_RELAXED);
		fiber_switch(&bench_f, &bench_main, false, false);
	}
}

/* ns per switch (a round trip is two), or -1 if the fiber cannot be made */
static double fiber_switch_ns(long iters)
{
	static bool made;
	double t0;

	if (!made) {
		fiber_init_main(&bench_main);
		if (fiber_create(&bench_f, 64 * 1024, bench_entry, NULL, "bench"))
			return -1;
		/* first entry */
		fiber_switch(&bench_main, &bench_f, true, false);
		made = true;
	}
	__atomic_store_n(&bench_left, iters, __ATOMIC_RELAXED);
	t0 = now_ns();
	while (__atomic_load_n(&bench_left, __ATOMIC_RELAXED) > 0)
		fiber_switch(&bench_main, &bench_f, false, false);
	return (now_ns() - t0) / (2.0 * (double)iters);
}

/* swapcontext, for comparison: it pays a sigprocmask system call per switch */
static ucontext_t uc_main, uc_f;
static long uc_left;

static void uc_entry(void)
{
	for (;;) {
		uc_left--;
		swapcontext(&uc_f, &uc_main);
	}
}

static double swapcontext_ns(long iters)
{
	static char stack[64 * 1024];
	double t0;

	getcontext(&uc_f);
	uc_f.uc_stack.ss_sp = stack;
	uc_f.uc_stack.ss_size = sizeof(stack);
	makecontext(&uc_f, uc_entry, 0);
	uc_left = iters;
	t0 = now_ns();
	while (uc_left > 0)
		swapcontext(&uc_main, &uc_f);
	return (now_ns() - t0) / (2.0 * (double)iters);
}

/* Run every program once; returns ns. */
static double run_all(struct exec *e, struct prog *progs, const struct run_opts *o, int *bad)
{
	struct run_result r;
	double t0 = now_ns();
	int i;

	for (i = 0; i < NPROGS; i++) {
		exec_run(e, &progs[i], o, &r);
		*bad += r.outcome != RUN_CLEAN;
	}
	return now_ns() - t0;
}

/* A fixed pseudo-random program: 2..4 tasks, 24..64 ops, no bug switch. */
static void make_prog(struct prog *p, uint64_t seed)
{
	uint64_t s = rng_seed(seed);
	int t, i, nallocs = 0;

	prog_init(p);
	p->ntasks = 2 + (int)(rng_next(&s) % 3);
	config_set(&p->cfg, &ck_cpus, 2);
	for (t = 0; t < p->ntasks; t++)
		p->task_cpu[t] = t % 2;
	p->nops = 24 + (int)(rng_next(&s) % 41);
	for (i = 0; i < p->nops; i++) {
		struct op *op = &p->ops[i];
		unsigned r = (unsigned)(rng_next(&s) % 100);

		memset(op, 0, sizeof(*op));
		op->task = (unsigned char)(rng_next(&s) % (uint64_t)p->ntasks);
		if (r < 45 || !nallocs) {
			op->code = op_lookup("alloc_pages")->code;
			op->arg[0] = (int)(rng_next(&s) % 4 ? 0 : rng_next(&s) % 4);
			op->arg[1] = (int)(rng_next(&s) % 3);
			op->arg[2] = op_lookup("alloc_pages")->args[2].def;
			nallocs++;
		} else if (r < 85) {
			op->code = op_lookup("free_pages")->code;
			op->arg[0] = (int)(rng_next(&s) % (uint64_t)nallocs);
		} else if (r < 92) {
			op->code = op_lookup("drain_all")->code;
			op->arg[1] = -1;
		} else if (r < 96) {
			op->code = op_lookup("drain_local")->code;
		} else {
			op->code = op_lookup("vmstat_refresh")->code;
		}
	}
	prog_canonicalize(p);
	p->fallback_depth = 2;
	p->seed = (uint32_t)rng_next(&s);
}

/* "det" or "seq": one model-only pass of every program, for callgrind. */
static int one_mode(const char *mode)
{
	static struct prog progs[NPROGS];
	struct exec *e = exec_create();
	struct run_opts o = { 0 };
	int i, bad = 0;

	if (!e)
		return 1;
	for (i = 0; i < NPROGS; i++)
		make_prog(&progs[i], (uint64_t)i + 1);
	o.sequential = !strcmp(mode, "seq");
	o.no_quiescent = true;
	lock_validate_enabled = false;
	run_all(e, progs, &o, &bad);
	exec_destroy(e);
	return bad != 0;
}

int main(int argc, char **argv)
{
	static struct prog progs[NPROGS];
	double sw[ROUNDS], call[ROUNDS], uc[ROUNDS], det[ROUNDS], seq[ROUNDS], rr[ROUNDS];
	double det0[ROUNDS], seq0[ROUNDS], ops = 0;
	struct exec *e = exec_create();
	struct run_opts od = { 0 }, os = { 0 }, orr = { 0 }, od0, os0;
	struct run_result r;
	unsigned long switches = 0, rr_switches = 0;
	int i, k, bad = 0;

	if (argc == 2)
		return one_mode(argv[1]);
	if (!e)
		return 1;
	for (i = 0; i < NPROGS; i++) {
		make_prog(&progs[i], (uint64_t)i + 1);
		exec_run(e, &progs[i], &od, &r);
		ops += r.ops_run;
		switches += r.switches;
		orr.sched = SCHED_RR;
		exec_run(e, &progs[i], &orr, &r);
		rr_switches += r.switches;
	}
	os.sequential = true;
	od0 = od;
	os0 = os;
	od0.no_quiescent = os0.no_quiescent = true;
	for (k = 0; k < ROUNDS; k++) {
		sw[k] = fiber_switch_ns(2000000);
		call[k] = call_ns(20000000);
		uc[k] = swapcontext_ns(200000);
		lock_validate_enabled = true;
		det[k] = run_all(e, progs, &od, &bad);
		seq[k] = run_all(e, progs, &os, &bad);
		rr[k] = run_all(e, progs, &orr, &bad);
		lock_validate_enabled = false;
		det0[k] = run_all(e, progs, &od0, &bad);
		seq0[k] = run_all(e, progs, &os0, &bad);
	}
	lock_validate_enabled = true;
	printf("fiber_switch_ns: %.1f\n", median(sw, ROUNDS));
	printf("swapcontext_ns: %.1f\n", median(uc, ROUNDS));
	printf("function_call_ns: %.1f\n", median(call, ROUNDS));
	printf("switch/call: %.1f\n", median(sw, ROUNDS) / median(call, ROUNDS));
	printf("programs: %d, %.0f ops; %lu switches a round under their schedules, %lu under rr\n",
	       NPROGS, ops, switches, rr_switches);
	printf("with every checker: deterministic %.0f ns/op, sequential %.0f ns/op, rr %.0f ns/op\n",
	       median(det, ROUNDS) / ops, median(seq, ROUNDS) / ops, median(rr, ROUNDS) / ops);
	printf("model only (no validators, no quiescent checks): deterministic %.0f ns/op, "
	       "sequential %.0f ns/op\n", median(det0, ROUNDS) / ops, median(seq0, ROUNDS) / ops);
	printf("deterministic/sequential (checkers on): %.2f\n",
	       median(det, ROUNDS) / median(seq, ROUNDS));
	printf("deterministic/sequential: %.2f\n", median(det0, ROUNDS) / median(seq0, ROUNDS));
	if (bad)
		printf("warning: %d runs reported a violation\n", bad);
	exec_destroy(e);
	return bad ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Stress mode: will-it-scale style workloads on the page allocator model,
 * one pthread per task, all tasks on one world.
 *
 * A workload is a will-it-scale testcase: a description, a loop that counts
 * iterations, and optional prepare and cleanup.  The loop asks
 * stress_continue() before every iteration; that is where the runner parks
 * the tasks to check the invariants at quiescence, so an iteration must end
 * holding no lock and no page in transit (pages it keeps across iterations
 * are listed by its held() callback).
 *
 * Lock order of the runner itself: run->bar_lock is never held while a
 * model lock is held (tasks park only between iterations).
 */
#ifndef MMFUZZ_STRESS_STRESS_H
#define MMFUZZ_STRESS_STRESS_H

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../src/check/check.h"
#include "../src/mm/mm.h"
#include "../src/mm/mm_types.h"
#include "../src/sched/sched.h"

#define STRESS_MAX_TASKS	2048	/* will-it-scale's MAX_TASKS */
#define WARMUP_ITERATIONS	5	/* samples 0..5 are warmup, as in main.c */
#define STRESS_CACHELINE	256	/* will-it-scale's MAX_CACHELINE_SIZE */

struct stress_run;
struct stress_opts;

/* One task's iteration counter, alone on its cache lines. */
struct stress_counter {
	_Alignas(STRESS_CACHELINE) unsigned long long iterations;
};

/* Aligned like the counters: a task's hot fields never share a line. */
struct stress_task {
	_Alignas(STRESS_CACHELINE) struct task task;	/* the model's view: id, cpu */
	struct stress_run *run;
	struct stress_counter *counter;
	unsigned long nr;		/* will-it-scale's task number */
	uint64_t rng;			/* per-task PRNG for the workload */
	jmp_buf jb;			/* a model violation unwinds here */
	pthread_t thread;
	bool parked;			/* under run->bar_lock */
	void *priv;			/* the workload's per-task state */
};

/* The pages the tasks hold at quiescence, for the conservation check. */
struct stress_held_block {
	unsigned long pfn;
	unsigned int order;
};

struct stress_held {
	struct stress_held_block *a;
	int n, cap;
};

void stress_held_add(struct stress_held *h, struct page *page, unsigned int order);

struct stress_workload {
	const char *name;
	const char *description;	/* printed as testcase:<description> */
	/* CPU slots for @tasks tasks (NULL: one per task; see stress_slot_cpu) */
	int (*nr_cpus)(unsigned long tasks);
	int (*prepare)(struct stress_run *r, unsigned long tasks);
	void (*testcase)(struct stress_task *t);
	/* pages held between iterations (tasks are parked) */
	void (*held)(struct stress_run *r, struct stress_held *h);
	/* free what held() lists; runs on the runner after the tasks ended */
	void (*cleanup)(struct stress_run *r);
	/* the machine this workload needs, after the runner's (mm_config keys) */
	void (*configure)(const struct stress_opts *o, struct mm_config *cfg);
	/* tasks parked, before each check and counter snapshot: finish what
	 * the workload left in flight on other threads (RCU callbacks) that no
	 * owner source lists; the runner's thread runs it */
	void (*quiesce)(struct stress_run *r);
	/* its own config.* lines (after the tasks ended and cleanup ran) */
	void (*print_config)(struct stress_run *r, FILE *out);
	/*
	 * A one-shot workload (a boot, not a loop): the runner builds the
	 * world, starts the tasks (each runs testcase() until the run is
	 * over, as ever), and instead of sampling calls run(r, out) on its own
	 * thread, which measures and prints its own lines and returns the
	 * operations it did in *ops over *ns; then average: (ops per second),
	 * the counters over the run and the final check as for any workload.
	 * Returns 0, or 1 after a violation (reported).
	 */
	int (*run)(struct stress_run *r, FILE *out, unsigned long long *ops, uint64_t *ns);
	/* the options of its own this workload takes (STRESS_WL_*) */
	unsigned int wl_opts;
	/* its own counters, as a world layer's (layer.h): stat_snap copies
	 * them into stat_size bytes (<= STRESS_WL_STATS) while the tasks are
	 * parked, after quiesce; stat_print prints b - a after the layers'
	 * lines; optional */
	size_t stat_size;
	void (*stat_snap)(struct stress_run *r, void *snap);
	void (*stat_print)(FILE *out, const void *a, const void *b,
			   const struct layer_stat_span *span);
};

/* Options one workload takes (stress_opts.wl_*). */
#define STRESS_WL_ALLOC_DURING_INIT	0x1	/* --alloc-during-init */
#define STRESS_WL_SIM_CPUS		0x2	/* --sim-cpus LIST */
#define STRESS_WL_SLUB			0x4	/* --reader-hz, --min-partial, --cpu-partial */

/* Register @wl (a static struct stress_workload in the workload's own file). */
#define STRESS_WORKLOAD(wl)							\
	REGISTER(mmfuzz_stress, const struct stress_workload *, __swp_##wl, &(wl))
#define STRESS_MAX_WORKLOADS	64
/* The registered workloads, by name. */
int stress_workloads_count(void);
const struct stress_workload *stress_workload_by_index(int i);
const struct stress_workload *stress_workload_lookup(const char *name);

/* ---- options ---- */

enum stress_affinity { AFF_CORES, AFF_SMT, AFF_NONE };

/* A config key the command line set (--set KEY=VALUE, --pcp-high, ...). */
struct stress_set {
	const struct config_key *k;
	long v;
};

struct stress_opts {
	const struct stress_workload *wl;
	unsigned long tasks;
	unsigned long seconds;		/* 0: until interrupted, as will-it-scale */
	unsigned long warmup;		/* samples discarded; WARMUP_ITERATIONS + 1 */
	unsigned long sample_ms;	/* one sample; 1000 */
	unsigned long check_every;	/* samples between quiescent checks; 0: at the end only */
	unsigned long stall_ms;		/* a barrier not reached in this long is a stall */
	enum stress_affinity affinity;
	bool verbose;
	bool process_mode;		/* will-it-scale's _processes binary (see docs) */
	bool host;			/* the machine's kernel, not the model (host.c) */
	int variant;			/* enum pcp_bulk_variant */
	int drain;			/* enum drain_variant */
	uint64_t inject;		/* bug switches */
	int cpu_stride;			/* task i on simulated CPU i * stride; 0: spread */
	/* deferred_init1's (wl_opts): tasks allocate while the init runs;
	 * the simulated nodes' CPU counts (0 ends the list) */
	bool alloc_during_init;
	unsigned int sim_cpus[8];
	/* the SLUB workloads (slub_stress.h): a slabinfo reader's reads a
	 * second (0: none), and the caches' min_partial and cpu_partial_slabs
	 * as /sys/kernel/slab/<cache>/ sets them (-1: the cache's own) */
	unsigned long reader_hz;
	long slub_min_partial, slub_cpu_partial;
	/* config keys given on the command line: they win over the runner's
	 * machine and the workload's configure; in the order given, a key
	 * given twice once (its last value) */
	struct stress_set set[MM_CONFIG_MAX];
	int nset;
};

void stress_opts_default(struct stress_opts *o);
/* Set @k to @v (the last --set of a key wins). */
void stress_opts_set(struct stress_opts *o, const struct config_key *k, long v);
/* Did the command line set @k?  Its value in *v. */
bool stress_opts_get(const struct stress_opts *o, const struct config_key *k, long *v);
/* The machine of a run with @o is a valid config: 0, or -1 with why not in @msg. */
int stress_config_check(const struct stress_opts *o, char *msg, size_t n);

/* ---- the runner (runner.c) ---- */

/* Bytes of the world layers' stat snapshots a stress_snap holds. */
#define STRESS_LAYER_STATS	4096

/* Bytes of a workload's own stat snapshot. */
#define STRESS_WL_STATS		4096

struct stress_snap {
	/* every world layer's counters (layers_stat_snap, layer.h) */
	_Alignas(8) unsigned char layers[STRESS_LAYER_STATS];
	/* the workload's (its stat_snap), NULL when it has none */
	_Alignas(8) unsigned char wl_stats[STRESS_WL_STATS];
	const struct stress_workload *wl;
	uint64_t tsc;
	uint64_t ns;			/* CLOCK_MONOTONIC */
	uint64_t task_cpu_ns;		/* the task threads' CPU time, summed */
	unsigned long ntasks;		/* ... over this many threads */
};

enum stress_stop { STOP_NONE, STOP_PARK, STOP_EXIT };

struct stress_run {
	const struct stress_opts *o;
	struct world *w;
	unsigned long ntasks;
	int ncpus;			/* simulated: MAX_CPUS */
	int cpu_stride;			/* task i runs on CPU i * cpu_stride */
	struct stress_task *tasks;
	unsigned long nstarted;		/* threads created */
	struct stress_counter *counters;
	int gate_fd, gate_wfd;		/* the start pipe: tasks poll, the runner writes */
	void *priv;			/* the workload's shared state */

	/* the barrier (quiesce.c) */
	int stop;			/* enum stress_stop, read racily by tasks */
	pthread_mutex_t bar_lock;
	pthread_cond_t bar_tasks;	/* tasks wait here while parked */
	pthread_cond_t bar_runner;	/* the runner waits for the last to park */
	unsigned long parked;
	unsigned long bar_gen;
	int failed;			/* a task hit a model violation */
	struct task runner;		/* the runner's own task, for the checks */
	jmp_buf runner_jb;
	unsigned long checks, violations;
	bool host;			/* the host kernel's tasks (host.c): no world, no park */

	/* the runner's own (runner.c) */
	unsigned long long *prev;	/* each task's count at the last sample */
	struct stress_snap snap_start, snap_a;	/* before the start, at measurement */
	bool have_snap_a;
};

/* rcu_urcu.c: liburcu behind the model's RCU on the task threads; call_rcu's
 * callbacks run as a task on @cpu */
void stress_rcu_install(int cpu);

/* Run @o->wl as will-it-scale does and print its output to @out.
 * Returns the exit status (0, 1 on a violation, 130 when interrupted). */
int stress_run(const struct stress_opts *o, FILE *out);
/* The run's machine as a text program's header (--emit-config). */
int stress_emit_config(const struct stress_opts *o, FILE *out);

/* The simulated CPU of task slot @slot (the workload's nr_cpus() slots). */
int stress_slot_cpu(const struct stress_run *r, unsigned long slot);

/* A task failed or Ctrl-C came: the runner stops sleeping. */
void stress_wake_runner(void);

/* ---- the sampling loop, shared with the host kernel's runs (host.c) ---- */

struct sample_state {
	unsigned long long *prev;
	unsigned long idx;		/* main.c's "iterations" */
	unsigned long measured;		/* samples summed into total */
	unsigned long long total;
	unsigned long long total_all;	/* every sample, for an early Ctrl-C */
	uint64_t run_ns;		/* time the tasks ran while measured */
};

/* The wake pipe and the Ctrl-C handlers of a run: 0, or -1. */
int stress_signals_begin(void);
void stress_signals_end(void);
/* One min:max:total line, with main.c's warmup arithmetic. */
void stress_sample(struct stress_run *r, struct sample_state *s, FILE *out, uint64_t interval_ns);
/* main.c's loop: 0 after the last sample, 130 on Ctrl-C, 1 on a failed task. */
int stress_measure(struct stress_run *r, struct sample_state *s, FILE *out);
/* average: (and what an interrupted run measured); @rc is stress_measure's */
void stress_print_average(struct stress_run *r, const struct sample_state *s, FILE *out, int rc);

/* ---- the host kernel beside the model (host.c, host_tests.c) ---- */

/*
 * will-it-scale's own testcase of a model workload, run on the machine's
 * kernel: registered by the model workload's name with STRESS_HOST() in
 * host_tests.c, run by stress_host_run() on real processes (fork: an mm
 * each) or threads (one mm), pinned, released and sampled as the model's
 * tasks are.  The loop is will-it-scale's with while (1) read as
 * while (stress_host_continue()).
 */
struct stress_host {
	const char *name;		/* the model workload it stands beside */
	const char *description;	/* will-it-scale's testcase_description */
	/* can this kernel and machine run @tasks of it?  0, or -1 with why
	 * not in @msg (the run exits 2) */
	int (*probe)(unsigned long tasks, char *msg, size_t n);
	void (*testcase)(unsigned long long *iterations, unsigned long nr);
};

#define STRESS_HOST(h)								\
	REGISTER(mmfuzz_stress_host, const struct stress_host *, __shp_##h, &(h))
#define STRESS_MAX_HOSTS	16
const struct stress_host *stress_host_lookup(const char *name);
int stress_hosts_count(void);
const struct stress_host *stress_host_by_index(int i);

/* The testcase's while (1): false when the runner ends the run. */
bool stress_host_continue(void);
/* (*iterations) += n, as stress_count */
static inline void stress_host_count(unsigned long long *it, unsigned long long n)
{
	__atomic_store_n(it, __atomic_load_n(it, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}
/* A system call of task @nr failed with @err (errno): the machine cannot
 * run the testcase; the run says so and exits 2.  @err 0: will-it-scale's
 * assert() failed (exit 1).  The task stops here. */
__attribute__((noreturn))
void stress_host_fail(unsigned long nr, const char *what, int err);
/* Run @o->wl's host testcase and print will-it-scale's output: 0, 1 (an
 * assert in the loop), 2 (the machine cannot run it: said why), 130. */
int stress_host_run(const struct stress_opts *o, FILE *out);

/* Park here when the runner asks; false when the run is over. */
bool __stress_park(struct stress_task *t);

static inline bool stress_continue(struct stress_task *t)
{
	if (likely(!__atomic_load_n(&t->run->stop, __ATOMIC_RELAXED)))
		return true;
	return __stress_park(t);
}

/* (*iterations) += n, read by the runner with a relaxed load */
static inline void stress_count(struct stress_task *t, unsigned long long n)
{
	unsigned long long *p = &t->counter->iterations;

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/*
 * A task's own array, zeroed, in lines of its own: allocated side by side
 * with calloc, the end of one task's array and the start of the next share
 * a line that both write on every pass (will-it-scale keeps each task's
 * state apart for the same reason).  free() releases it.
 */
void *stress_task_calloc(size_t n, size_t size);

/*
 * alloc_pages() as a caller in the kernel sees it: when the fast path fails,
 * __alloc_pages_direct_reclaim drains every pcp and tries once more.
 */
struct page *stress_alloc_pages(gfp_t gfp, unsigned int order);

/* Touch a block as a fault would: write a byte of each page. */
void stress_touch(struct page *page, unsigned int order);
/* Allocate @n order-@order blocks into @pages, touch them, free them in
 * allocation order (what munmap's batched free does); the blocks done. */
unsigned long stress_alloc_free_batch(struct page **pages, unsigned long n, unsigned int order);
/*
 * Fault in each task's region once, task after task, on the task's CPU,
 * before the start (the workload's prepare; @priv is the task's page
 * array).  Its pages then stay on that CPU's pcp list as one run of pfns.
 * Left to the start race, the first refills of all the CPUs interleave in
 * runs of pcp->batch pages, a different interleaving every run, and
 * walking its own struct pages each CPU's prefetchers pull in the lines of
 * the other CPUs' runs beside them: the 2-task figure then depended on the
 * run (1.0-1.2 or 1.9 times the 1-task figure).
 * 0, or -1 on a model violation (reported).
 */
int stress_prefault(struct stress_run *r, unsigned long n, unsigned int order);

/* ---- the address-space workloads (mm_tasks.c) ---- */

/*
 * page_fault1, brk1, mmap1 and tlb_flush2 run on the TLB gather layer's
 * address spaces.  Process mode: each task has an mm of its own; thread
 * mode: one mm for all (will-it-scale's _processes and _threads).  Each
 * mm maps the loop's own code (a read-only page every task reads) and a
 * stack page per task (written): the user half of will-it-scale's loop,
 * which touches both around every system call, so its CPU has the mm
 * loaded and a flush costs it TLB misses as on a machine.
 */
struct stress_mm_task {
	struct mm_struct *mm;
	unsigned long text;		/* the loop's code: read */
	unsigned long stack;		/* this task's stack page: written */
	bool exited;			/* exit_mm done */
};

#define STRESS_MM_TASK(t)	((struct stress_mm_task *)(t)->priv)

/* The machine for @o's tasks, each mapping @region_pages at most at once
 * (configure hooks): the mm's virtual size and a zone that holds them all. */
void stress_mm_configure(const struct stress_opts *o, struct mm_config *cfg,
			 unsigned long region_pages);
/* The mms and the tasks' text and stack pages (prepare hooks): 0, or -1
 * after saying why not (more processes than the layer has mms, more
 * regions than the zone holds). */
int stress_mm_prepare(struct stress_run *r, unsigned long tasks, unsigned long region_pages);
/* The user half of the loop: the code read, the stack written. */
void stress_mm_user(struct stress_task *t);
/* do_exit's exit_mm() on the task's CPU: the end of its testcase. */
void stress_mm_exit(struct stress_task *t);
void stress_mm_quiesce(struct stress_run *r);
void stress_mm_cleanup(struct stress_run *r);
void stress_mm_print_config(struct stress_run *r, FILE *out, unsigned long region_pages);
/* will-it-scale's assert() failed in the loop: a violation of the task */
__attribute__((noreturn, format(printf, 2, 3)))
void stress_mm_assert(struct stress_task *t, const char *fmt, ...);

/* ---- the barrier and the checks (quiesce.c) ---- */

void stress_barrier_init(struct stress_run *r);
/* Stop every task at an iteration boundary.  0, or -1 on a stall or a
 * failed task (reported). */
int stress_barrier_stop(struct stress_run *r);
void stress_barrier_resume(struct stress_run *r, bool exit);
/*
 * Run fn(r, arg) as the runner's own task (the model's view of the runner
 * thread; fn may move it between CPUs, it is back on CPU 0 after).  A model
 * violation in fn unwinds here and is counted and reported.  0, or -1.
 */
int stress_as_runner(struct stress_run *r, void (*fn)(struct stress_run *r, void *arg), void *arg);
/* Check the invariants while parked; 0 or -1 (reported as an Assertion). */
int stress_check_quiescent(struct stress_run *r);
/* After the tasks ended: free what they hold, drain, fold, check_final. */
int stress_check_final(struct stress_run *r);
/* A model violation (g_violation) on stderr, in glibc's assert() form. */
void stress_report_violation(struct stress_run *r);

/* ---- kernel threads on real threads (unbound_wq.c) ---- */

/* The worker pool of @r, and padata's system_unbound_wq on it (sets
 * real_cpu_shared: workers share the simulated CPUs with the tasks). */
void stress_wq_start(struct stress_run *r);
/* Make @n workers now (a pool's kworkers exist before the works come),
 * so that a timed run does not pay for thread creation. */
void stress_wq_prestart(int n);
/* Run fn(arg) on a worker as kernel thread @name of simulated CPU @cpu;
 * false when the pool is at its limit. */
bool stress_kthread_run(void (*fn)(void *arg), void *arg, int cpu, const char *name);
/* Wait until no worker runs a work. */
void stress_wq_flush(void);
/* Workers made so far (threads). */
int stress_wq_workers(void);
/* padata back to running in the caller; every worker joined. */
void stress_wq_stop(void);

/* ---- model counters (counters.c) ---- */

uint64_t stress_now_ns(void);
/* Read the counters; the tasks must be parked. */
void stress_snap_take(struct stress_run *r, struct stress_snap *s);
/* The counters between two snapshots as "key: value" lines; @run_ns is the
 * time the tasks ran in between, @ops the operations they counted. */
void stress_counters_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			   uint64_t run_ns, unsigned long long ops);

/* ---- affinity (affinity.c) ---- */

/* The CPUs tasks are pinned to, in will-it-scale's order: one per core
 * (AFF_CORES) or per hardware thread (AFF_SMT).  Returns how many. */
int stress_cpu_list(enum stress_affinity aff, int *cpus, int max);

/* ---- scaling, compare (scaling.c, compare.c, spawn.c) ---- */

struct stress_child_out {
	char *text;			/* everything it printed on stdout */
	int status;			/* exit status, or 128 + signal */
};

/* Run this binary with @argv, capturing stdout.  0, or -1 if it could not. */
int stress_spawn(char *const argv[], struct stress_child_out *res);
/* The number after "KEY:" at the start of a line of @text, or -1. */
double stress_output_value(const char *text, const char *key);
/* setarch linux64 -R for the children, as runtest.py */
void stress_no_aslr(void);
/* Ctrl-C in scaling and compare: the child reports, the parent stops. */
void stress_parent_signals(void);
extern volatile int stress_parent_interrupted;

struct scaling_opts {
	const char *workload;
	bool host;			/* the host kernel's curves beside the model's */
	char **host_args;		/* passed to every host run */
	int nhost_args;
	unsigned long max_tasks;	/* 0: nproc */
	const char *csv_path;		/* NULL: WORKLOAD.csv */
	bool want_processes, want_threads;
	char **child_args;		/* passed to every run */
	int nchild_args;
};

int stress_scaling(const struct scaling_opts *so);

struct compare_config {
	char label[64];
	char *args[4];			/* "--variant" NAME, "--inject" NAME */
	int nargs;
};

struct compare_opts {
	const char *workload;
	unsigned long tasks;
	int runs;
	bool process_mode;
	struct compare_config cfg[8];
	int ncfg;
	char **child_args;
	int nchild_args;
};

int stress_compare(const struct compare_opts *co);

/* LKP's table from per-run values: the formatting alone, for tests. */
struct compare_stat {
	const char *key;
	double *v[8];			/* v[cfg][run] */
	int n[8];
};

void lkp_print_table(FILE *out, const char *const *labels, int ncfg,
		     const struct compare_stat *st, int nstat);
/* changed_stat.rb: do the runs @a and @b separate? */
bool lkp_changed(const double *a, int na, const double *b, int nb);

/* "plain", "asan" or "tsan": the build these figures come from */
const char *stress_build_kind(void);

#endif /* MMFUZZ_STRESS_STRESS_H */

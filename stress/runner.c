// SPDX-License-Identifier: MIT
/*
 * The stress runner: will-it-scale's main.c over the model.  One pthread
 * per task, pinned as will-it-scale pins them, released together through a
 * pipe, counting iterations in per-task counters 256 bytes apart; the
 * runner samples them every second and prints what main.c prints, with the
 * same warmup arithmetic:
 *
 *	testcase:<description>
 *	warmup
 *	min:%llu max:%llu total:%llu	samples 0..5, discarded
 *	measurement
 *	min:%llu max:%llu total:%llu	-s of them, summed
 *	average:%llu			their mean, per second (a sample is
 *					one unless --sample-ms says otherwise)
 *
 * then the model's counters over the measurement as "key: value" lines and
 * "invariant_violations: N".  At every check interval the runner parks the
 * tasks between iterations (quiesce.c), checks the invariants, and lets them
 * go on; the time they are parked is not part of any sample.
 *
 * Runner and tasks share only: the counters (relaxed atomics), run->stop
 * (relaxed, the barrier's mutex orders the rest) and run->failed.
 */
#include "stress.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <time.h>
#include <unistd.h>

#include "../src/bugs/bugs.h"
#include "../src/kernel/cpu.h"
#include "../src/kernel/rcu_real.h"
#include "../src/kernel/smp.h"

static volatile sig_atomic_t stress_interrupted;
static int wake_pipe[2] = { -1, -1 };

static void stress_sigint(int sig)
{
	int saved = errno;
	char c = 0;

	(void)sig;
	stress_interrupted = 1;
	if (write(wake_pipe[1], &c, 1) < 0) {
		/* the runner polls the flag as well */
	}
	errno = saved;
}

const char *stress_build_kind(void)
{
	if (MMFUZZ_TSAN)
		return "tsan";
	if (MMFUZZ_ASAN)
		return "asan";
	return "plain";
}

void stress_opts_default(struct stress_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tasks = 1;
	o->warmup = WARMUP_ITERATIONS + 1;
	o->sample_ms = 1000;
	o->check_every = 1;
	o->stall_ms = 10000;
	o->affinity = AFF_CORES;
	o->variant = PCP_BULK_SINGLE_PASS;
	o->slub_min_partial = o->slub_cpu_partial = -1;
}

/*
 * The machine the workloads run on.  A zone of 32768 pages (128 MB of 4 KB
 * pages; the model keeps 64 bytes behind each), max order 10, pageblocks of
 * order 9, batch 63 (zone_batchsize() of a large zone since "double zone's
 * batchsize") and high = 6 * batch (the rule of 4.16, when seed 000's patch
 * went in), the vmstat threshold by calculate_normal_threshold().
 */
void stress_opts_set(struct stress_opts *o, const struct config_key *k, long v)
{
	int i;

	for (i = 0; i < o->nset; i++)
		if (o->set[i].k == k) {
			o->set[i].v = v;
			return;
		}
	/* one entry a key: nset never passes the number of keys */
	o->set[o->nset].k = k;
	o->set[o->nset++].v = v;
}

bool stress_opts_get(const struct stress_opts *o, const struct config_key *k, long *v)
{
	int i;

	for (i = 0; i < o->nset; i++)
		if (o->set[i].k == k) {
			*v = o->set[i].v;
			return true;
		}
	return false;
}

static void stress_config_apply(const struct stress_opts *o, struct mm_config *cfg)
{
	int i;

	for (i = 0; i < o->nset; i++)
		config_set(cfg, o->set[i].k, o->set[i].v);
}

static void stress_config(const struct stress_opts *o, int ncpus, struct mm_config *cfg)
{
	int fls_cpus = 0, fls_mem = 0;
	unsigned long mem_128m, zone_pages;
	long batch = 63;

	config_default(cfg);
	config_set(cfg, &ck_cpus, ncpus);
	config_set(cfg, &ck_zones, 1);
	config_set(cfg, &ck_max_order, 10);
	config_set(cfg, &ck_pageblock_order, 9);
	config_set(cfg, &ck_zone_pages, 32768);
	stress_opts_get(o, &ck_pcp_batch, &batch);
	config_set(cfg, &ck_pcp_batch, batch);
	config_set(cfg, &ck_pcp_high, 6 * batch);
	config_set(cfg, &ck_variant, o->variant);
	config_set(cfg, &ck_drain, o->drain);
	/* what the command line set, before the workload sizes what it needs
	 * from it, and again after: it wins */
	stress_config_apply(o, cfg);
	if (o->wl->configure)
		o->wl->configure(o, cfg);
	zone_pages = (unsigned long)config_get(cfg, &ck_zone_pages);
	while ((1 << fls_cpus) <= ncpus)
		fls_cpus++;
	mem_128m = zone_pages / 32768;
	while ((1UL << fls_mem) <= mem_128m)
		fls_mem++;
	config_set(cfg, &ck_stat_threshold, min(2 * fls_cpus * (1 + fls_mem), 125));
	stress_config_apply(o, cfg);
}

int stress_config_check(const struct stress_opts *o, char *msg, size_t n)
{
	struct mm_config cfg;

	stress_config(o, MAX_CPUS, &cfg);
	return config_check(&cfg, NULL, msg, n) ? -1 : 0;
}

/*
 * The machine a stress run builds, as the header of a text program: add
 * tasks and operations and `mmfuzz run` replays on the same machine.
 */
int stress_emit_config(const struct stress_opts *o, FILE *out)
{
	struct mm_config cfg, def;
	char buf[64];
	int i;

	stress_config(o, MAX_CPUS, &cfg);
	config_default(&def);
	fprintf(out, "mmfuzz 1\n# the machine of: mmfuzz stress %s (config keys that differ from the "
		"defaults)\n", o->wl->name);
	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);

		if (config_get(&cfg, k) != config_get(&def, k))
			fprintf(out, "%s: %s\n", k->name,
				config_value_str(k, config_get(&cfg, k), buf, sizeof(buf)));
	}
	fprintf(out, "# task T0 cpu=0 ... (the tasks and their operations)\n");
	return ferror(out) ? -1 : 0;
}

int stress_slot_cpu(const struct stress_run *r, unsigned long slot)
{
	return (int)((slot * (unsigned long)r->cpu_stride) % (unsigned long)r->ncpus);
}

static void *stress_task_main(void *arg)
{
	struct stress_task *t = arg;
	struct stress_run *r = t->run;
	struct pollfd pfd = { r->gate_fd, POLLIN, 0 };
	volatile int cpu;

	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	current_task = &t->task;
	t->task.exit_jb = &t->jb;
	cpu = t->task.cpu;
	/* the kernel primitives' real-mode side: liburcu's reader
	 * registration, the CPU's cross-CPU calls (src/kernel/smp.c) */
	rcu_register_thread();
	smp_real_attach(cpu, true);
	if (setjmp(t->jb)) {
		/* a model assertion fired in this task: g_violation says which */
		smp_real_attach(cpu, false);
		rcu_real_task_exit(&t->task);
		current_task = NULL;
		pthread_mutex_lock(&r->bar_lock);
		__atomic_store_n(&r->failed, 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&r->bar_runner);
		pthread_mutex_unlock(&r->bar_lock);
		stress_wake_runner();
		return NULL;
	}
	r->o->wl->testcase(t);
	smp_real_attach(cpu, false);
	rcu_unregister_thread();
	current_task = NULL;
	return NULL;
}

void stress_wake_runner(void)
{
	char c = 1;

	if (write(wake_pipe[1], &c, 1) < 0) {
		/* the pipe is full: the runner is awake already */
	}
}

static int stress_start_tasks(struct stress_run *r)
{
	const struct stress_opts *o = r->o;
	int cpus[1024], ncpu_list = 0;
	sigset_t block, old;
	unsigned long i;
	int err = 0;

	if (o->affinity != AFF_NONE) {
		ncpu_list = stress_cpu_list(o->affinity, cpus, 1024);
		if (ncpu_list <= 0) {
			fprintf(stderr, "mmfuzz stress: no %s found; try %s\n",
				o->affinity == AFF_SMT ? "hardware threads" : "cores",
				o->affinity == AFF_SMT ? "without -m" : "-m or -n");
			return -1;
		}
	}
	/* Ctrl-C goes to the runner, never to a task in the middle of an op */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < r->ntasks && !err; i++) {
		struct stress_task *t = &r->tasks[i];
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		if (ncpu_list) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpus[i % (unsigned long)ncpu_list], &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		err = pthread_create(&t->thread, &attr, stress_task_main, t);
		pthread_attr_destroy(&attr);
		if (err) {
			fprintf(stderr, "mmfuzz stress: pthread_create: %s\n", strerror(err));
			r->nstarted = i;
			break;
		}
	}
	if (!err)
		r->nstarted = r->ntasks;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}

static int stress_setup(struct stress_run *r, const struct stress_opts *o)
{
	const struct stress_workload *wl = o->wl;
	struct mm_config cfg;
	char msg[160];
	int want, err, gate[2], rcu_cpu;
	unsigned long i, used = 0;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->ntasks = o->tasks;
	/*
	 * The model's machine has MAX_CPUS CPUs; task i runs on CPU i * stride
	 * (default 1).  Each CPU's copy of the per-CPU data has its own pair
	 * of cache lines (____percpu_aligned), as the kernel's per-CPU areas
	 * are apart, so neighbouring CPUs share no lines.
	 */
	want = wl->nr_cpus ? wl->nr_cpus(o->tasks) : (int)o->tasks;
	r->ncpus = MAX_CPUS;
	r->cpu_stride = o->cpu_stride ? o->cpu_stride : 1;
	cpu_hotplug_boot(r->ncpus);
	/* more tasks than simulated CPUs: they take turns on each CPU */
	real_cpu_shared = want * r->cpu_stride > MAX_CPUS;
	/* call_rcu's thread on a CPU no task runs on, or sharing CPU 0 */
	for (i = 0; i < (unsigned long)want && i < MAX_CPUS; i++)
		used |= 1UL << stress_slot_cpu(r, i);
	for (rcu_cpu = r->ncpus - 1; rcu_cpu > 0 && (used & (1UL << rcu_cpu)); rcu_cpu--)
		;
	if (used & (1UL << rcu_cpu))
		real_cpu_shared = true;
	stress_rcu_install(rcu_cpu);
	stress_config(o, r->ncpus, &cfg);
	if (config_check(&cfg, NULL, msg, sizeof(msg))) {
		fprintf(stderr, "mmfuzz stress: %s\n", msg);
		return -1;
	}
	violation_reset();
	lock_stat_enabled = true;
	/* the per-acquisition validators are for deterministic runs */
	lock_validate_enabled = false;
	bugs_enabled = o->inject;
	err = world_create(&cfg, &r->w);
	if (err) {
		fprintf(stderr, "mmfuzz stress: cannot build the world: %s\n", strerror(-err));
		return -1;
	}
	r->tasks = aligned_alloc(STRESS_CACHELINE, r->ntasks * sizeof(*r->tasks));
	r->counters = aligned_alloc(STRESS_CACHELINE, r->ntasks * sizeof(*r->counters));
	if (!r->tasks || !r->counters) {
		fprintf(stderr, "mmfuzz stress: out of memory\n");
		return -1;
	}
	if (pipe(gate)) {
		fprintf(stderr, "mmfuzz stress: pipe: %s\n", strerror(errno));
		return -1;
	}
	memset(r->tasks, 0, r->ntasks * sizeof(*r->tasks));
	memset(r->counters, 0, r->ntasks * sizeof(*r->counters));
	r->gate_fd = gate[0];
	r->gate_wfd = gate[1];
	for (i = 0; i < r->ntasks; i++) {
		struct stress_task *t = &r->tasks[i];

		t->task.id = (int)i;
		t->task.cpu = stress_slot_cpu(r, i);
		t->task.name = "stress task";	/* the reports say which: "task N (cpu C)" */
		t->run = r;
		t->counter = &r->counters[i];
		t->nr = i;
		t->rng = rng_seed(i + 1);
	}
	r->runner.id = (int)r->ntasks;
	r->runner.name = "runner";
	r->runner.cpu = 0;
	r->runner.exit_jb = &r->runner_jb;
	stress_barrier_init(r);
	if (wl->prepare) {
		current_task = &r->runner;
		err = wl->prepare(r, r->ntasks);
		current_task = NULL;
		if (err)
			return -1;
	}
	return 0;
}

/* Wait until @deadline (CLOCK_MONOTONIC ns), Ctrl-C or a failed task. */
static void stress_sleep_until(struct stress_run *r, uint64_t deadline)
{
	for (;;) {
		uint64_t now = stress_now_ns();
		struct pollfd pfd = { wake_pipe[0], POLLIN, 0 };
		struct timespec ts;
		char buf[64];

		if (now >= deadline || stress_interrupted ||
		    __atomic_load_n(&r->failed, __ATOMIC_ACQUIRE))
			return;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
		if (ppoll(&pfd, 1, &ts, NULL) > 0) {
			while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
				;
		}
	}
}

/* One line of main.c: per-task deltas since the last sample. */
void stress_sample(struct stress_run *r, struct sample_state *s, FILE *out, uint64_t interval_ns)
{
	unsigned long long sum = 0, mn = -1ULL, mx = 0;
	unsigned long i;

	for (i = 0; i < r->ntasks; i++) {
		unsigned long long val = __atomic_load_n(&r->counters[i].iterations,
							 __ATOMIC_RELAXED);
		unsigned long long diff = val - s->prev[i];

		if (r->o->verbose)
			fprintf(out, "%4lu -> %llu\n", i, diff);
		if (diff < mn)
			mn = diff;
		if (diff > mx)
			mx = diff;
		sum += diff;
		s->prev[i] = val;
	}
	fprintf(out, "min:%llu max:%llu total:%llu\n", mn, mx, sum);
	s->total_all += sum;
	if (s->idx >= r->o->warmup) {
		s->total += sum;
		s->measured++;
		s->run_ns += interval_ns;
	}
	s->idx++;
	if (s->idx == r->o->warmup)
		fprintf(out, "measurement\n");
	fflush(out);
}

/* runtest.py runs the tests under setarch -R; say whether this one was */
static bool stress_aslr_on(void)
{
	int pers = personality(0xffffffff);
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	int v = 2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v != 0 && (pers == -1 || !(pers & ADDR_NO_RANDOMIZE));
}

static void stress_print_config(struct stress_run *r, FILE *out)
{
	const struct stress_opts *o = r->o;
	const struct pagealloc_config *c = &pa_world(r->w)->cfg;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	char inject[256] = "";
	int i;

	for (i = 0; i < BUGS_MAX; i++)
		if ((o->inject & (1ULL << i)) && bug_name(i))
			snprintf(inject + strlen(inject), sizeof(inject) - strlen(inject), "%s%s",
				 *inject ? "," : "", bug_name(i));
	fprintf(out, "config.tasks: %lu\n", r->ntasks);
	fprintf(out, "config.tasks_percent_of_cpus: %.0f\n",
		nproc > 0 ? 100.0 * (double)r->ntasks / (double)nproc : 0.0);
	fprintf(out, "config.mode: %s\n", o->process_mode ? "process" : "thread");
	fprintf(out, "config.affinity: %s\n",
		o->affinity == AFF_NONE ? "none" : o->affinity == AFF_SMT ? "smt" : "cores");
	fprintf(out, "config.sim_cpus: %d\n", r->w->cfg.ncpus);
	fprintf(out, "config.sim_cpu_stride: %d\n", r->cpu_stride);
	fprintf(out, "config.zone_pages: %lu\n", c->zone_pages);
	fprintf(out, "config.max_order: %d\n", c->max_order);
	fprintf(out, "config.pageblock_order: %d\n", c->pb_order);
	fprintf(out, "config.pcp_high: %d\n", c->pcp_high);
	fprintf(out, "config.pcp_batch: %d\n", c->pcp_batch);
	fprintf(out, "config.stat_threshold: %d\n", c->stat_threshold);
	fprintf(out, "config.variant: %s\n", pcp_bulk_variant_name(c->variant));
	fprintf(out, "config.inject: %s\n", *inject ? inject : "none");
	if (o->wl->print_config)
		o->wl->print_config(r, out);
	fprintf(out, "config.kernel: 6.6\n");
	fprintf(out, "config.aslr: %s\n", stress_aslr_on() ? "on" : "off");
	fprintf(out, "config.build: %s\n", stress_build_kind());
}

static void stress_teardown(struct stress_run *r)
{
	unsigned long i;

	for (i = 0; i < r->nstarted; i++)
		pthread_join(r->tasks[i].thread, NULL);
	r->nstarted = 0;
}

/* A task or a check failed: say so in LKP's form and leave the tasks be. */
static int stress_fail(struct stress_run *r, FILE *out)
{
	fprintf(out, "model.invariant_checks: %lu\n", r->checks);
	fprintf(out, "invariant_violations: %lu\n", r->violations ? r->violations : 1);
	fflush(out);
	return 1;
}

/*
 * main.c's sampling loop.  The tasks are parked at the sample boundaries
 * where a check is due, where the measurement starts and at the end, so
 * those samples count exactly the iterations of their interval.  Returns 0
 * after the last sample (tasks parked), 130 on Ctrl-C (tasks parked), or 1
 * after a violation (reported).  The host kernel's tasks (r->host, host.c)
 * run will-it-scale's loops, which never park: their samples are read on
 * the fly, as main.c reads them, and a failed task is host.c's to report.
 */
int stress_measure(struct stress_run *r, struct sample_state *s, FILE *out)
{
	const struct stress_opts *o = r->o;
	uint64_t t_mark = stress_now_ns(), t_read;

	for (;;) {
		bool last, park, check;

		stress_sleep_until(r, t_mark + o->sample_ms * 1000000u);
		if (__atomic_load_n(&r->failed, __ATOMIC_ACQUIRE)) {
			if (!r->host)
				stress_report_violation(r);
			return 1;
		}
		if (stress_interrupted) {
			/* the partial sample is not printed: it never completed */
			if (!r->host && stress_barrier_stop(r))
				return 1;
			if (s->idx >= o->warmup)
				s->run_ns += stress_now_ns() - t_mark;
			return 130;
		}
		last = o->seconds && s->idx + 1 >= o->warmup + o->seconds;
		check = !r->host && o->check_every && (s->idx + 1) % o->check_every == 0;
		park = !r->host && (check || last || s->idx + 1 == o->warmup);
		if (park && stress_barrier_stop(r))
			return 1;
		t_read = stress_now_ns();
		stress_sample(r, s, out, t_read - t_mark);
		if (park && s->idx == o->warmup) {
			stress_snap_take(r, &r->snap_a);
			r->have_snap_a = true;
		}
		if (check && stress_check_quiescent(r))
			return 1;
		if (last)
			return 0;
		if (park) {
			stress_barrier_resume(r, false);
			t_mark = stress_now_ns();
		} else {
			t_mark = t_read;
		}
	}
}

/* average: is operations per second whatever --sample-ms is (the lines
 * before it are per sample) */
static void print_average(const struct stress_run *r, FILE *out, unsigned long long total,
			  unsigned long samples)
{
	fprintf(out, "average:%llu\n",
		total * 1000 / ((unsigned long long)samples * r->o->sample_ms));
}

void stress_print_average(struct stress_run *r, const struct sample_state *s, FILE *out, int rc)
{
	if (rc == 0) {
		print_average(r, out, s->total, r->o->seconds);
		return;
	}
	if (s->measured)
		print_average(r, out, s->total, s->measured);
	else if (s->idx)
		print_average(r, out, s->total_all, s->idx);
	fprintf(stderr, "mmfuzz stress: interrupted after %lu samples, %lu of them measured%s\n",
		s->idx, s->measured, s->measured ? "" : s->idx ?
		"; the average is over the warmup samples" : "; no average");
}

/* The run holds on to everything it allocated: a run that ends on a
 * violation leaves its tasks where they stopped, and they may still use it. */
static struct stress_run *stress_current;

static struct sigaction old_int, old_term;

int stress_signals_begin(void)
{
	struct sigaction sa;

	if (pipe2(wake_pipe, O_NONBLOCK | O_CLOEXEC))
		return -1;
	stress_interrupted = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stress_sigint;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	return 0;
}

void stress_signals_end(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
}

static int __stress_run(const struct stress_opts *o, FILE *out)
{
	struct sample_state s = { 0 };
	struct stress_snap snap_b;
	struct stress_run *r;
	int rc;

	if (o->host)
		return stress_host_run(o, out);
	if (MMFUZZ_TSAN || MMFUZZ_ASAN)
		fprintf(stderr, "warning: mmfuzz stress in a %s build: the model is checked, "
			"but these figures are not a benchmark\n", stress_build_kind());
	r = stress_current = calloc(1, sizeof(*r));
	if (!r || stress_setup(r, o))
		return 2;
	s.prev = r->prev = calloc(r->ntasks, sizeof(*s.prev));
	if (!s.prev || stress_signals_begin())
		return 2;

	/* before the threads exist: pthread_create orders it before their writes */
	stress_snap_take(r, &r->snap_start);
	if (o->warmup == 0) {
		r->snap_a = r->snap_start;
		r->have_snap_a = true;
	}
	if (stress_start_tasks(r)) {
		rc = 2;
		goto out_abort;
	}
	/* all tasks start together: one byte makes the pipe readable to all */
	if (write(r->gate_wfd, "", 1) != 1) {
		rc = 2;
		goto out_abort;
	}
	if (o->wl->run) {
		/* a one-shot workload: its own measurement, the tasks beside it */
		unsigned long long ops = 0;
		uint64_t ns = 0;

		fprintf(out, "testcase:%s\n", o->wl->description);
		fflush(out);
		rc = o->wl->run(r, out, &ops, &ns);
		if (rc || stress_barrier_stop(r))
			return stress_fail(r, out);
		fprintf(out, "average:%llu\n", ns ? (unsigned long long)((double)ops * 1e9 / (double)ns) : 0);
		stress_snap_take(r, &snap_b);
		stress_counters_print(out, &r->snap_start, &snap_b, ns, ops);
		fflush(out);
		goto out_end;
	}
	fprintf(out, "testcase:%s\nwarmup\n", o->wl->description);
	if (o->warmup == 0)
		fprintf(out, "measurement\n");
	fflush(out);

	rc = stress_measure(r, &s, out);
	if (rc == 1)
		return stress_fail(r, out);
	stress_print_average(r, &s, out, rc);
	stress_snap_take(r, &snap_b);
	if (!r->have_snap_a) {
		/* interrupted in the warmup: the counters of the whole run */
		r->snap_a = r->snap_start;
		s.run_ns = snap_b.ns - r->snap_start.ns;
	}
	stress_counters_print(out, &r->snap_a, &snap_b, s.run_ns,
			      rc == 0 || s.measured ? s.total : s.total_all);
	fflush(out);
out_end:
	stress_barrier_resume(r, true);
	stress_teardown(r);
	if (stress_check_final(r))
		return stress_fail(r, out);
	fprintf(out, "model.invariant_checks: %lu\n", r->checks);
	fprintf(out, "invariant_violations: %lu\n", r->violations);
	stress_print_config(r, out);
	fflush(out);
	goto out_free;

out_abort:
	/* tasks that started see STOP_EXIT as soon as the gate opens */
	stress_barrier_resume(r, true);
	if (write(r->gate_wfd, "", 1) != 1)
		fprintf(stderr, "mmfuzz stress: cannot open the start gate\n");
	stress_teardown(r);
out_free:
	stress_signals_end();
	close(r->gate_fd);
	close(r->gate_wfd);
	world_destroy(r->w);
	bugs_enabled = 0;
	free(r->prev);
	free(r->tasks);
	free(r->counters);
	free(r);
	stress_current = NULL;
	return rc;
}

/* The model's threads run concurrently from here to the end of the run
 * (sched.h, real_threads_concurrent); after a failure the tasks are left
 * be, still running (stress_fail), and it stays set. */
int stress_run(const struct stress_opts *o, FILE *out)
{
	int rc;

	__atomic_store_n(&real_threads_concurrent, true, __ATOMIC_RELAXED);
	rc = __stress_run(o, out);
	if (rc != 1)
		__atomic_store_n(&real_threads_concurrent, false, __ATOMIC_RELAXED);
	return rc;
}

// SPDX-License-Identifier: MIT
/*
 * stress --host: will-it-scale's own testcase of a model workload on the
 * machine's kernel, run as the model's tasks are run.  The tasks are real
 * processes (fork: an mm each, will-it-scale's _processes binary) or
 * threads of this process (one mm, _threads), pinned to the CPUs
 * stress_cpu_list() gives the model's tasks, held at the same start pipe
 * until the runner writes its byte, counting in counters 256 bytes apart;
 * the runner samples them with the model's own loop (stress_measure, with
 * its warmup arithmetic) and prints what main.c prints.  A testcase never
 * parks: the samples are read on the fly, as main.c reads them, and the
 * run ends by telling the loops to stop (stress_host_continue).
 *
 * Processes see the runner's state through one MAP_SHARED mapping (the run,
 * the counters and why a task failed), as will-it-scale's counters are
 * shared; the stop flag and the counters are relaxed atomics.
 *
 * A kernel or machine that cannot run the testcase is said so, exit 2:
 * no counterpart, a probe that fails (mmap, brk, too little memory), more
 * tasks than CPUs to pin them to, a task whose system call fails or that
 * dies.  will-it-scale's assert() in a loop is exit 1.
 */
#include "stress.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

REGISTRY_SECTION(mmfuzz_stress_host);

static const struct stress_host *hosts[STRESS_MAX_HOSTS];
static int nhosts;
static pthread_once_t hosts_once = PTHREAD_ONCE_INIT;

static int cmp_host(const void *a, const void *b)
{
	return strcmp(((const struct stress_host *)a)->name, ((const struct stress_host *)b)->name);
}

static const char *host_name(const void *e)
{
	return ((const struct stress_host *)e)->name;
}

static const struct registry hosts_registry = {
	.what = "host testcase", .limit = "STRESS_MAX_HOSTS in stress/stress.h",
	REGISTRY_BOUNDS(mmfuzz_stress_host), .cap = STRESS_MAX_HOSTS,
	.key = cmp_host, .name = host_name,
};

static void hosts_build(void)
{
	nhosts = (int)registry_collect(&hosts_registry, (const void **)hosts);
}

int stress_hosts_count(void)
{
	pthread_once(&hosts_once, hosts_build);
	return nhosts;
}

const struct stress_host *stress_host_by_index(int i)
{
	return i >= 0 && i < stress_hosts_count() ? hosts[i] : NULL;
}

const struct stress_host *stress_host_lookup(const char *name)
{
	return registry_lookup(&hosts_registry, (const void *const *)hosts,
			       (size_t)stress_hosts_count(), name);
}

/* What the runner and every task (process or thread) share. */
struct host_shared {
	struct stress_run run;		/* run.stop, run.failed */
	int fail_claimed;		/* the first failure is the one said */
	int fail_err;			/* errno; 0: an assert */
	unsigned long fail_nr;
	char fail_what[160];
};

static struct host_shared *host_sh;
static const struct stress_host *host_tc;

bool stress_host_continue(void)
{
	return __atomic_load_n(&host_sh->run.stop, __ATOMIC_RELAXED) != STOP_EXIT;
}

void stress_host_fail(unsigned long nr, const char *what, int err)
{
	if (!__atomic_exchange_n(&host_sh->fail_claimed, 1, __ATOMIC_ACQ_REL)) {
		host_sh->fail_err = err;
		host_sh->fail_nr = nr;
		snprintf(host_sh->fail_what, sizeof(host_sh->fail_what), "%s", what);
		__atomic_store_n(&host_sh->run.failed, 1, __ATOMIC_RELEASE);
	}
	stress_wake_runner();
	if (host_sh->run.o->process_mode)
		_exit(3);
	pthread_exit(NULL);
}

static void host_wait_gate(struct stress_run *r)
{
	struct pollfd pfd = { r->gate_fd, POLLIN, 0 };

	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

static void *host_thread_main(void *arg)
{
	struct stress_task *t = arg;

	host_wait_gate(t->run);
	host_tc->testcase(&t->counter->iterations, t->nr);
	return NULL;
}

/* will-it-scale's child: pinned, dead with its parent, started by the gate */
static void host_process_main(struct stress_task *t, int cpu, pid_t parent)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			stress_host_fail(t->nr, "sched_setaffinity", errno);
	}
	host_wait_gate(t->run);
	host_tc->testcase(&t->counter->iterations, t->nr);
	_exit(0);
}

static pid_t *host_pids;

/* The tasks, pinned as stress_start_tasks pins the model's. */
static int host_start(struct stress_run *r, const int *cpus, int ncpus)
{
	const struct stress_opts *o = r->o;
	pid_t parent = getpid();
	unsigned long i;
	int err;

	for (i = 0; i < r->ntasks; i++) {
		struct stress_task *t = &r->tasks[i];
		int cpu = ncpus ? cpus[i % (unsigned long)ncpus] : -1;

		if (o->process_mode) {
			pid_t pid;

			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				fprintf(stderr, "mmfuzz stress: --host: fork: %s\n", strerror(errno));
				return -1;
			}
			if (pid == 0)
				host_process_main(t, cpu, parent);
			host_pids[i] = pid;
		} else {
			pthread_attr_t attr;

			pthread_attr_init(&attr);
			if (cpu >= 0) {
				cpu_set_t set;

				CPU_ZERO(&set);
				CPU_SET(cpu, &set);
				pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
			}
			err = pthread_create(&t->thread, &attr, host_thread_main, t);
			pthread_attr_destroy(&attr);
			if (err) {
				fprintf(stderr, "mmfuzz stress: --host: pthread_create: %s\n",
					strerror(err));
				return -1;
			}
		}
		r->nstarted = i + 1;
	}
	return 0;
}

/* Stop the loops and reap the tasks: 0, or -1 if one died (said). */
static int host_stop(struct stress_run *r)
{
	uint64_t deadline = stress_now_ns() + r->o->stall_ms * 1000000u;
	unsigned long i;
	int rc = 0;

	__atomic_store_n(&r->stop, STOP_EXIT, __ATOMIC_RELAXED);
	/* a task that never passed the gate is released to see it */
	if (write(r->gate_wfd, "", 1) != 1) {
		/* the gate is open already */
	}
	for (i = 0; i < r->nstarted; i++) {
		int st;
		pid_t got;

		if (!r->o->process_mode) {
			pthread_join(r->tasks[i].thread, NULL);
			continue;
		}
		while ((got = waitpid(host_pids[i], &st, WNOHANG)) == 0 && stress_now_ns() < deadline)
			usleep(1000);
		if (got == 0) {
			kill(host_pids[i], SIGKILL);
			got = waitpid(host_pids[i], &st, 0);
			fprintf(stderr, "mmfuzz stress: --host: task %lu did not stop within %lu ms; "
				"killed\n", i, r->o->stall_ms);
			rc = -1;
			continue;
		}
		if (got > 0 && WIFSIGNALED(st)) {
			fprintf(stderr, "mmfuzz stress: --host: task %lu (pid %d) died of signal %d "
				"(%s)%s\n", i, (int)host_pids[i], WTERMSIG(st), strsignal(WTERMSIG(st)),
				WTERMSIG(st) == SIGKILL ? ": the OOM killer?" : "");
			rc = -1;
		}
	}
	r->nstarted = 0;
	return rc;
}

/*
 * The machine's TLB shootdown and function-call IPIs (the TLB: and CAL:
 * lines of /proc/interrupts, summed over the CPUs): what a flush costs the
 * kernel, beside the model's model.tlb_ipi_sent.  Machine-wide: other
 * processes' flushes count too.  -1 if the kernel has no such lines.
 */
static void host_irqs(long long *tlb, long long *cal)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[4096];

	*tlb = *cal = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		long long sum = 0, *dst;

		while (*p == ' ')
			p++;
		if (!strncmp(p, "TLB:", 4))
			dst = tlb;
		else if (!strncmp(p, "CAL:", 4))
			dst = cal;
		else
			continue;
		for (p += 4;; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		*dst = sum;
	}
	fclose(f);
}

static void host_print_irqs(FILE *out, const long long a[2], const long long b[2],
			    unsigned long long ops)
{
	static const char *const key[2] = { "host.tlb_shootdowns", "host.function_call_ipis" };
	int i;

	for (i = 0; i < 2; i++) {
		if (a[i] < 0 || b[i] < 0)
			continue;
		fprintf(out, "%s: %lld\n", key[i], b[i] - a[i]);
		fprintf(out, "%s_per_op: %.4f\n", key[i],
			ops ? (double)(b[i] - a[i]) / (double)ops : 0.0);
	}
}

static void host_print_config(struct stress_run *r, FILE *out)
{
	const struct stress_opts *o = r->o;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	fprintf(out, "config.tasks: %lu\n", r->ntasks);
	fprintf(out, "config.tasks_percent_of_cpus: %.0f\n",
		nproc > 0 ? 100.0 * (double)r->ntasks / (double)nproc : 0.0);
	fprintf(out, "config.mode: %s\n", o->process_mode ? "process" : "thread");
	fprintf(out, "config.affinity: %s\n",
		o->affinity == AFF_NONE ? "none" : o->affinity == AFF_SMT ? "smt" : "cores");
	fprintf(out, "config.target: host\n");
	fprintf(out, "config.host_testcase: will-it-scale tests/%s.c\n", o->wl->name);
	fprintf(out, "config.kernel: %s %s\n", u.sysname, u.release);
	fprintf(out, "config.nproc: %ld\n", nproc);
	fprintf(out, "config.build: %s\n", stress_build_kind());
}

/* The CPUs to pin to, or 0 tasks' worth for -n: -1 after saying why not. */
static int host_cpus(const struct stress_opts *o, int *cpus, int max)
{
	int n;

	if (o->affinity == AFF_NONE)
		return 0;
	n = stress_cpu_list(o->affinity, cpus, max);
	if (n <= 0) {
		fprintf(stderr, "mmfuzz stress: --host: no %s to pin to\n",
			o->affinity == AFF_SMT ? "hardware threads" : "cores");
		return -1;
	}
	if ((unsigned long)n < o->tasks) {
		fprintf(stderr, "mmfuzz stress: --host: %lu tasks pinned one per %s, but this "
			"process may run on %d %s: fewer tasks, %s-n (no affinity)\n", o->tasks,
			o->affinity == AFF_SMT ? "hardware thread" : "core", n,
			o->affinity == AFF_SMT ? "hardware threads" : "cores",
			o->affinity == AFF_SMT ? "" : "-m (hardware threads) or ");
		return -1;
	}
	return n;
}

static void host_say_failure(const struct stress_run *r)
{
	const struct host_shared *sh = host_sh;

	if (sh->fail_err)
		fprintf(stderr, "mmfuzz stress: --host: %s: task %lu: %s: %s: this machine cannot "
			"run the testcase\n", r->o->wl->name, sh->fail_nr, sh->fail_what,
			strerror(sh->fail_err));
	else
		fprintf(stderr, "mmfuzz stress: --host: %s: task %lu: Assertion `%s' failed.\n",
			r->o->wl->name, sh->fail_nr, sh->fail_what);
}

int stress_host_run(const struct stress_opts *o, FILE *out)
{
	struct sample_state s = { 0 };
	long long irq_a[2], irq_b[2];
	struct stress_run *r;
	int cpus[1024], ncpus, gate[2], rc;
	size_t len;
	char msg[256];
	unsigned long i;

	host_tc = stress_host_lookup(o->wl->name);
	if (!host_tc) {
		fprintf(stderr, "mmfuzz stress: --host: %s has no will-it-scale counterpart to run on "
			"this kernel; these have:", o->wl->name);
		for (i = 0; i < (unsigned long)stress_hosts_count(); i++)
			fprintf(stderr, " %s", stress_host_by_index((int)i)->name);
		fprintf(stderr, "\n");
		return 2;
	}
	if (MMFUZZ_TSAN || MMFUZZ_ASAN)
		fprintf(stderr, "warning: mmfuzz stress --host in a %s build: the kernel's figures "
			"are measured, but the sanitizer slows this loop too\n", stress_build_kind());
	ncpus = host_cpus(o, cpus, 1024);
	if (ncpus < 0)
		return 2;
	if (host_tc->probe && host_tc->probe(o->tasks, msg, sizeof(msg))) {
		fprintf(stderr, "mmfuzz stress: --host: %s: %s\n", o->wl->name, msg);
		return 2;
	}
	/* the run and the counters, seen by every process */
	len = (sizeof(*host_sh) + STRESS_CACHELINE - 1) & ~(size_t)(STRESS_CACHELINE - 1);
	host_sh = mmap(NULL, len + o->tasks * sizeof(struct stress_counter),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (host_sh == MAP_FAILED) {
		fprintf(stderr, "mmfuzz stress: --host: mmap of the counters: %s\n", strerror(errno));
		return 2;
	}
	r = &host_sh->run;
	r->o = o;
	r->host = true;
	r->ntasks = o->tasks;
	r->counters = (struct stress_counter *)((char *)host_sh + len);
	r->tasks = aligned_alloc(STRESS_CACHELINE, r->ntasks * sizeof(*r->tasks));
	host_pids = calloc(r->ntasks, sizeof(*host_pids));
	s.prev = r->prev = calloc(r->ntasks, sizeof(*s.prev));
	if (!r->tasks || !host_pids || !s.prev || pipe(gate) || stress_signals_begin()) {
		fprintf(stderr, "mmfuzz stress: --host: out of memory or descriptors\n");
		return 2;
	}
	memset(r->tasks, 0, r->ntasks * sizeof(*r->tasks));
	r->gate_fd = gate[0];
	r->gate_wfd = gate[1];
	for (i = 0; i < r->ntasks; i++) {
		r->tasks[i].run = r;
		r->tasks[i].counter = &r->counters[i];
		r->tasks[i].nr = i;
	}
	/* before the tasks: brk1's threads move this process's break, and the
	 * runner must not grow its heap under them (stdout's buffer is made
	 * at the first write) */
	fprintf(out, "testcase:%s\nwarmup\n", host_tc->description);
	if (o->warmup == 0)
		fprintf(out, "measurement\n");
	fflush(out);
	if (host_start(r, cpus, ncpus)) {
		host_stop(r);
		rc = 2;
		goto out;
	}
	host_irqs(&irq_a[0], &irq_a[1]);
	if (write(r->gate_wfd, "", 1) != 1) {
		host_stop(r);
		rc = 2;
		goto out;
	}
	rc = stress_measure(r, &s, out);
	/* fopen mallocs: not while brk1's threads move this process's break */
	if (host_stop(r) && rc != 1) {
		rc = 2;
		goto out;
	}
	if (rc == 1) {
		host_say_failure(r);
		rc = host_sh->fail_err ? 2 : 1;
		goto out;
	}
	host_irqs(&irq_b[0], &irq_b[1]);
	stress_print_average(r, &s, out, rc);
	/* over the whole run, warmup too: the samples were not parked */
	host_print_irqs(out, irq_a, irq_b, s.total_all);
	host_print_config(r, out);
	fflush(out);
out:
	stress_signals_end();
	close(gate[0]);
	close(gate[1]);
	free(r->tasks);
	free(host_pids);
	free(s.prev);
	munmap(host_sh, len + o->tasks * sizeof(struct stress_counter));
	host_sh = NULL;
	return rc;
}

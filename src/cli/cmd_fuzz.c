// SPDX-License-Identifier: MIT
/*
 * mmfuzz fuzz: a campaign on an existing engine.  It builds the fuzz
 * target it needs, runs libFuzzer (in process for one job, restarted on its
 * corpus after a sanitizer report; fork mode for more), AFL++, or the seeded
 * random scheduler (no coverage guidance, the baseline), shows progress,
 * classifies every crash file by signature as it appears, and at the end
 * writes one minimized readable reproducer per signature.  Model violations
 * do not stop the engine: the target saves them (MMFUZZ_CRASHES) and goes
 * on.  Killed at any moment, it loses nothing: the crash files stay in
 * DIR/crashes for mmfuzz triage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../bugs/bugs.h"
#include "../sched/ilv.h"
#include "cli.h"
#include "triage.h"

static const char fuzz_usage[] =
	"usage: mmfuzz fuzz [options]\n"
	"\n"
	"Run a fuzzing campaign on the model, from the shipped seed corpus, and\n"
	"write one minimized readable reproducer (.mmf) per finding under DIR.\n"
	"Exit 0 when nothing was found, 1 when something was.\n"
	"\n"
	"  --engine E        libfuzzer (default), afl, or random (the seeded random\n"
	"                    scheduler on the seeds: no coverage guidance, the baseline)\n"
	"  --target T        mm (default), pagealloc, text\n"
	"  --sanitizer S     address (default: ASan+UBSan), thread, none (afl, random)\n"
	"  --time SECONDS    how long (default 60)\n"
	"  --jobs N          parallel engine processes (default 1)\n"
	"  --inject NAME     a bug switch on (repeatable)\n"
	"  --out DIR         where findings go (default findings/)\n"
	"  --no-ilv          no interleaving coverage (for the benchmark)\n"
	"  --seed N          the engine's seed (default: time)\n"
	"  --until-found     stop at the first finding, print the time it took\n"
	"  --engine-arg ARG  one more argument for the engine (repeatable), e.g.\n"
	"                    --engine-arg=-use_value_profile=1, --engine-arg=-pexplore\n"
	"  -q, --quiet       no progress lines\n";

#define MAX_ENGINE_ARGS 16

struct campaign {
	const char *engine, *target, *sanitizer, *out;
	const char *engine_args[MAX_ENGINE_ARGS];
	int nengine_args;
	int jobs;
	long seconds;
	uint32_t inject;
	bool ilv, until_found, quiet;
	unsigned long seed;
	char root[4096];
	char bin[4096];
	char seeds[4096];
	char crashes[4096];
	/* progress */
	unsigned long execs, execs_base, cov, ft, ilv_seen;
	double exec_rate;
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The source tree: the directory above the build directory of this binary. */
static int find_root(struct campaign *c)
{
	char exe[4096], mk[4200], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("MMFUZZ_ROOT");

	if (env) {
		snprintf(c->root, sizeof(c->root), "%s", env);
	} else {
		if (n <= 0)
			return -1;
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(c->root, sizeof(c->root), "%s", exe);
	}
	snprintf(mk, sizeof(mk), "%s/Makefile", c->root);
	return access(mk, R_OK) ? -1 : 0;
}

static int run_make(struct campaign *c, const char *args, const char *log)
{
	char cmd[12288];
	int rc;

	snprintf(cmd, sizeof(cmd), "make -C '%s' --no-print-directory %s > '%s' 2>&1", c->root,
		 args, log);
	rc = system(cmd);
	if (rc) {
		fprintf(stderr, "mmfuzz fuzz: building failed (make %s); see %s\n", args, log);
		return -1;
	}
	return 0;
}

static const char *san_dir(const struct campaign *c)
{
	if (!strcmp(c->sanitizer, "address"))
		return "address-undefined";
	if (!strcmp(c->sanitizer, "thread"))
		return "thread";
	return "plain";
}

static int build(struct campaign *c)
{
	char args[1024], log[4200];

	snprintf(log, sizeof(log), "%s/build.log", c->out);
	if (run_make(c, "corpus", log))
		return -1;
	/* the program targets start from the binary twins, the parser from
	 * copies of the readable programs (build/corpus/text) */
	if (snprintf(c->seeds, sizeof(c->seeds), "%s/build/corpus/%s", c->root, c->target) >=
	    (int)sizeof(c->seeds))
		return -1;
	if (!strcmp(c->engine, "random"))
		return 0;
	snprintf(args, sizeof(args), "ENGINE=%s %s fuzz-bins", c->engine,
		 !strcmp(c->sanitizer, "none") ? "SANITIZER=" :
		 !strcmp(c->sanitizer, "address") ? "SANITIZER=address,undefined" :
						    "SANITIZER=thread");
	if (run_make(c, args, log))
		return -1;
	if (snprintf(c->bin, sizeof(c->bin), "%s/build-fuzz-%s-%s/fuzz/fuzz_%s", c->root, c->engine,
		     san_dir(c), c->target) >= (int)sizeof(c->bin))
		return -1;
	return 0;
}

static void inject_env(const struct campaign *c)
{
	char inj[512] = "";
	int i, k = 0;

	for (i = 0; i < NR_BUGS; i++)
		if (c->inject & (1u << i))
			k += snprintf(inj + k, sizeof(inj) - (size_t)k, "%s%s", k ? "," : "",
				      bug_table[i].name);
	setenv("MMFUZZ_INJECT", inj, 1);
	setenv("MMFUZZ_ILV", c->ilv ? "1" : "0", !c->ilv);	/* MMFUZZ_ILV=edges stays */
	/* as the harness's defaults (fuzz/fuzz_prog.c); a user's TSAN_OPTIONS stay */
	setenv("TSAN_OPTIONS", "halt_on_error=0:report_signal_unsafe=0", 0);
}

/*
 * Start one engine process with its output on a pipe (*outfd), or, for the
 * AFL++ secondaries (instance > 0), appended to DIR/afl-secN.log; returns
 * the pid.  --jobs N on AFL++ is one main (-M main) and N-1 secondaries
 * (-S secN) on one sync directory, DIR/afl.
 */
static pid_t start_engine(struct campaign *c, int *outfd, long seconds, unsigned long seed,
			  int instance)
{
	char arg[16 + MAX_ENGINE_ARGS][4352];
	char *argv[17 + MAX_ENGINE_ARGS];
	int fds[2], n = 0, i;
	pid_t pid;

	if (instance == 0 && pipe(fds))
		return -1;
	if (instance > 0) {
		char log[4200];

		snprintf(log, sizeof(log), "%s/afl-sec%d.log", c->out, instance);
		fds[0] = -1;
		fds[1] = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fds[1] < 0)
			return -1;
	}
	if (!strcmp(c->engine, "libfuzzer")) {
		snprintf(arg[n++], sizeof(arg[0]), "%s", c->bin);
		if (c->jobs > 1) {
			snprintf(arg[n++], sizeof(arg[0]), "-fork=%d", c->jobs);
			snprintf(arg[n++], sizeof(arg[0]), "-ignore_crashes=1");
			snprintf(arg[n++], sizeof(arg[0]), "-ignore_timeouts=1");
		}
		snprintf(arg[n++], sizeof(arg[0]), "-max_total_time=%ld", seconds);
		snprintf(arg[n++], sizeof(arg[0]), "-artifact_prefix=%s/", c->crashes);
		/* as fuzz/fuzz_*.options say: programs of ~40 ops, texts of a page */
		snprintf(arg[n++], sizeof(arg[0]), "-max_len=%d",
			 !strcmp(c->target, "text") ? 4096 : 512);
		snprintf(arg[n++], sizeof(arg[0]), "-seed=%lu", seed);
		snprintf(arg[n++], sizeof(arg[0]), "-dict=%s/fuzz/%s.dict", c->root,
			 !strcmp(c->target, "text") ? "text" : "mm");
		snprintf(arg[n++], sizeof(arg[0]), "-detect_leaks=0");
		for (i = 0; i < c->nengine_args; i++)
			snprintf(arg[n++], sizeof(arg[0]), "%s", c->engine_args[i]);
		snprintf(arg[n++], sizeof(arg[0]), "%s/corpus", c->out);
		snprintf(arg[n++], sizeof(arg[0]), "%s", c->seeds);
	} else {
		snprintf(arg[n++], sizeof(arg[0]), "afl-fuzz");
		snprintf(arg[n++], sizeof(arg[0]), "-i%s", c->seeds);
		snprintf(arg[n++], sizeof(arg[0]), "-o%s/afl", c->out);
		snprintf(arg[n++], sizeof(arg[0]), "-V%ld", seconds);
		snprintf(arg[n++], sizeof(arg[0]), "-s%lu", seed);
		snprintf(arg[n++], sizeof(arg[0]), "-mnone");
		if (c->jobs > 1 && instance == 0)
			snprintf(arg[n++], sizeof(arg[0]), "-Mmain");
		else if (c->jobs > 1)
			snprintf(arg[n++], sizeof(arg[0]), "-Ssec%d", instance);
		snprintf(arg[n++], sizeof(arg[0]), "-x%s/fuzz/%s.dict", c->root,
			 !strcmp(c->target, "text") ? "text" : "mm");
		for (i = 0; i < c->nengine_args; i++)
			snprintf(arg[n++], sizeof(arg[0]), "%s", c->engine_args[i]);
		snprintf(arg[n++], sizeof(arg[0]), "--");
		snprintf(arg[n++], sizeof(arg[0]), "%s", c->bin);
		setenv("AFL_NO_UI", "1", 1);
		setenv("AFL_SKIP_CPUFREQ", "1", 1);
		setenv("AFL_NO_AFFINITY", "1", 1);
		setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
		setenv("AFL_SUPPRESS_WARNINGS", "1", 1);
		setenv("AFL_FAST_CAL", "1", 1);
	}
	for (i = 0; i < n; i++)
		argv[i] = arg[i];
	argv[n] = NULL;
	inject_env(c);
	pid = fork();
	if (pid == 0) {
		if (fds[0] >= 0)
			close(fds[0]);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		setpgid(0, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	if (fds[0] >= 0) {
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		*outfd = fds[0];
	}
	return pid;
}

/* libFuzzer's fork-mode lines: "#123: cov: 45 ft: 67 corp: ... exec/s: 89 ..." */
static void parse_engine_output(struct campaign *c, int fd, FILE *log)
{
	static char buf[65536];
	static size_t have;
	ssize_t k;

	while ((k = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		char *line, *nl;

		have += (size_t)k;
		buf[have] = 0;
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			unsigned long v;
			char *p;

			*nl = 0;
			if (log)
				fprintf(log, "%s\n", line);
			if (line[0] == '#') {
				if (sscanf(line + 1, "%lu", &v) == 1)
					c->execs = c->execs_base + v;
				if ((p = strstr(line, "cov: ")))
					c->cov = strtoul(p + 5, NULL, 10);
				if ((p = strstr(line, "ft: ")))
					c->ft = strtoul(p + 4, NULL, 10);
				if ((p = strstr(line, "exec/s")))
					c->exec_rate = strtod(p + 6 + strspn(p + 6, ": "), NULL);
			}
			line = nl + 1;
		}
		have = strlen(line);
		memmove(buf, line, have);
	}
	if (log)
		fflush(log);
}

/* The value of "KEY VALUE" or "KEY : VALUE" on line, or -1. */
static long stat_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != ':'))
		return -1;
	line += n;
	while (*line == ' ' || *line == ':')
		line++;
	return *line >= '0' && *line <= '9' ? strtol(line, NULL, 10) : -1;
}

/*
 * Over every entry of dir (its file name, or name/sub when sub is given):
 * the sum of key sum_key's values into *sum and their maximum of max_key
 * into *max.
 */
static void sum_stats_dir(const char *dir, const char *sub, const char *sum_key,
			  const char *max_key, unsigned long *sum, unsigned long *max)
{
	char path[4200], line[256];
	struct dirent *de;
	DIR *d = opendir(dir);

	*sum = *max = 0;
	while (d && (de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s%s%s", dir, de->d_name, sub ? "/" : "",
			 sub ? sub : "");
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			long v;

			if ((v = stat_value(line, sum_key)) >= 0)
				*sum += (unsigned long)v;
			else if ((v = stat_value(line, max_key)) >= 0 && (unsigned long)v > *max)
				*max = (unsigned long)v;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
}

static void read_stats_file(struct campaign *c)
{
	char path[4200];
	unsigned long execs, max;

	if (!strcmp(c->engine, "afl")) {
		snprintf(path, sizeof(path), "%s/afl", c->out);
		sum_stats_dir(path, "fuzzer_stats", "execs_done", "edges_found", &execs, &max);
		if (execs) {
			c->execs = c->execs_base + execs;
			c->cov = max;
		}
	}
	snprintf(path, sizeof(path), "%s/stats", c->out);
	sum_stats_dir(path, NULL, "execs", "interleavings", &execs, &max);
	if (max > c->ilv_seen)
		c->ilv_seen = max;
	/* AFL++ writes its stats once a minute: count from the harnesses */
	if (!strcmp(c->engine, "afl") && execs > c->execs)
		c->execs = execs;
}

static void progress(const struct campaign *c, const struct triage *t, double elapsed)
{
	int i;

	if (c->quiet)
		return;
	/* libFuzzer reports its rate; for the others it is the mean so far */
	double rate = !strcmp(c->engine, "libfuzzer") ? c->exec_rate
						       : (double)c->execs / (elapsed > 1 ? elapsed : 1);

	fprintf(stderr, "[%5.0fs] execs %lu (%.0f/s) cov %lu", elapsed, c->execs, rate, c->cov);
	if (!strcmp(c->engine, "libfuzzer"))
		fprintf(stderr, " ft %lu", c->ft);
	fprintf(stderr, " interleavings %lu | findings:", c->ilv_seen);
	if (!t->n)
		fprintf(stderr, " none");
	for (i = 0; i < t->n; i++)
		fprintf(stderr, " %s x%d", t->f[i].signature, t->f[i].count);
	fputc('\n', stderr);
}

/*
 * The baseline: the seed programs as they are, each run again and again
 * under the seeded random scheduler (a uniformly random runnable task at
 * every yield point), with no mutation and no coverage feedback: how a
 * fibers harness with a random scheduler (XNU's) would look for the bug.
 */
static int campaign_random(struct campaign *c, struct triage *t, double t0, double *first)
{
	struct prog *progs = calloc(256, sizeof(*progs)), *p = malloc(sizeof(*p));
	struct run_opts o = { 0 };
	struct run_result r;
	struct dirent *de;
	double last = 0;
	DIR *d = opendir(c->seeds);
	uint64_t i;
	int n = 0;

	if (!progs || !p || !d)
		return -1;
	while ((de = readdir(d)) && n < 256) {
		struct input in;
		char path[8192];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", c->seeds, de->d_name);
		if (input_load(&in, path))
			continue;
		progs[n++] = *in.prog;
		input_free(&in);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "mmfuzz fuzz: no seeds in %s\n", c->seeds);
		return -1;
	}
	o.sched = SCHED_RANDOM;
	o.max_steps = 20000;
	ilv_enabled = true;	/* counted only: nothing is guided by it */
	for (i = 0; !interrupted; i++) {
		double now = now_s() - t0;

		if (now >= (double)c->seconds || (c->until_found && t->n))
			break;
		*p = progs[i % (uint64_t)n];
		p->bugs = c->inject;
		o.seed = c->seed + i;
		exec_run(t->e, p, &o, &r);
		c->execs++;
		c->ilv_seen = ilv_seen();
		if (r.outcome == RUN_VIOLATION) {
			char path[4200], *text = exec_program_text(t->e, p, &o, &r);

			snprintf(path, sizeof(path), "%s/crash-random-%llu", c->crashes,
				 (unsigned long long)i);
			if (text)
				write_atomic(path, text, strlen(text));
			free(text);
			if (triage_scan(t, c->crashes) && *first < 0)
				*first = now_s() - t0;
			progress(c, t, now);
		}
		if (now - last >= 5.0) {
			c->exec_rate = (double)c->execs / (now > 0 ? now : 1);
			progress(c, t, now);
			last = now;
		}
	}
	free(progs);
	free(p);
	return 0;
}

/*
 * Watch the engine processes until they end, the campaign's time is up, or
 * (--until-found) something was found.  Returns true when they ended on
 * their own before the time was up: a sanitizer report stopped libFuzzer.
 */
static bool watch_engine(struct campaign *c, struct triage *t, double t0, double *first,
			 const pid_t *pid, int npid, int fd, FILE *log, int *status)
{
	double last = 0, last_scan = 0;
	int i, running = npid;
	bool alive[64];

	for (i = 0; i < npid; i++)
		alive[i] = true;
	for (;;) {
		double now = now_s() - t0;

		for (i = 0; i < npid; i++) {
			int st;

			if (alive[i] && waitpid(pid[i], &st, WNOHANG) == pid[i]) {
				alive[i] = false;
				running--;
				if (i == 0)
					*status = st;
			}
		}
		parse_engine_output(c, fd, log);
		/* --until-found measures the first finding: look every 100 ms */
		if (now - last_scan >= 1.0 || c->until_found || !running) {
			int before = t->n;

			last_scan = now;
			read_stats_file(c);
			if (triage_scan(t, c->crashes) && *first < 0)
				*first = now_s() - t0;
			if (!strcmp(c->engine, "afl")) {
				char afl[4200];

				snprintf(afl, sizeof(afl), "%s/afl", c->out);
				if (triage_scan(t, afl) && *first < 0)
					*first = now_s() - t0;
			}
			if (t->n != before || (now - last >= 5.0 && !c->until_found) || !running)
				progress(c, t, now);
			if (now - last >= 5.0 || t->n != before)
				last = now;
		}
		if (!running)
			return !interrupted && now < (double)c->seconds - 1;
		if (interrupted || (c->until_found && t->n) || now > (double)c->seconds + 30) {
			for (i = 0; i < npid; i++)
				if (alive[i])
					kill(-pid[i], SIGINT);
			usleep(300000);
			for (i = 0; i < npid; i++) {
				if (!alive[i])
					continue;
				kill(-pid[i], SIGKILL);
				waitpid(pid[i], i == 0 ? status : NULL, 0);
			}
			parse_engine_output(c, fd, log);
			triage_scan(t, c->crashes);
			return false;
		}
		usleep(100000);
	}
}

/* Entries in @dir that are not hidden (temporary files are). */
static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* The engine ended early without a finding: say so, with its last words. */
static void engine_failed(const char *log_path)
{
	char lines[8][512], buf[512];
	int n = 0, i;
	FILE *f = fopen(log_path, "r");

	fprintf(stderr, "mmfuzz fuzz: the engine stopped early without a finding; the end of %s:\n",
		log_path);
	while (f && fgets(buf, sizeof(buf), f))
		snprintf(lines[n++ % 8], sizeof(lines[0]), "%s", buf);
	for (i = n > 8 ? n - 8 : 0; i < n; i++)
		fprintf(stderr, "  %s", lines[i % 8]);
	if (f)
		fclose(f);
}

static int campaign_engine(struct campaign *c, struct triage *t, double t0, double *first)
{
	char log_path[4200];
	FILE *log;
	int round, rc = 0;

	snprintf(log_path, sizeof(log_path), "%s/engine.log", c->out);
	log = fopen(log_path, "a");
	for (round = 0;; round++) {
		long left = c->seconds - (long)(now_s() - t0);
		int fd = -1, status = 0, i, npid, crash_files;
		pid_t pid[64];
		bool stopped;

		if (left <= 0 || interrupted || (c->until_found && t->n))
			break;
		/* libFuzzer's -fork=N is one process; AFL++ runs one per job */
		npid = !strcmp(c->engine, "afl") ? c->jobs : 1;
		for (i = 0; i < npid; i++) {
			pid[i] = start_engine(c, &fd, left, c->seed + (unsigned long)(round + i), i);
			if (pid[i] < 0)
				break;
		}
		if (i < npid) {
			while (i-- > 0) {
				kill(-pid[i], SIGKILL);
				waitpid(pid[i], NULL, 0);
			}
			rc = -1;
			break;
		}
		crash_files = count_files(c->crashes);
		stopped = watch_engine(c, t, t0, first, pid, npid, fd, log, &status);
		close(fd);
		c->execs_base = c->execs;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
			fprintf(stderr, "mmfuzz fuzz: the engine did not start; see %s\n", log_path);
			rc = -1;
			break;
		}
		if (!stopped)
			break;
		/* one in-process libFuzzer stops at a sanitizer report and leaves
		 * its crash file: start it again on the corpus it grew.  Any other
		 * early end is the engine failing, not the model passing. */
		if (strcmp(c->engine, "libfuzzer") || c->jobs > 1 ||
		    count_files(c->crashes) == crash_files) {
			if (log)
				fflush(log);
			engine_failed(log_path);
			rc = -1;
			break;
		}
		if (round > 1000) {
			fprintf(stderr, "mmfuzz fuzz: the engine keeps stopping; see %s\n", log_path);
			rc = -1;
			break;
		}
	}
	if (log)
		fclose(log);
	return rc;
}

int cmd_fuzz(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "engine", required_argument, 0, 'E' }, { "target", required_argument, 0, 'T' },
		{ "sanitizer", required_argument, 0, 'S' }, { "time", required_argument, 0, 't' },
		{ "jobs", required_argument, 0, 'j' }, { "inject", required_argument, 0, 'i' },
		{ "out", required_argument, 0, 'o' }, { "no-ilv", no_argument, 0, 'n' },
		{ "seed", required_argument, 0, 's' }, { "until-found", no_argument, 0, 'u' },
		{ "engine-arg", required_argument, 0, 'A' },
		{ "quiet", no_argument, 0, 'q' }, { "help", no_argument, 0, 'h' }, { 0 } };
	struct campaign c = { .engine = "libfuzzer", .target = "mm", .out = "findings", .jobs = 1,
				.seconds = 60, .ilv = true };
	struct run_opts ro = { 0 };
	struct triage *t;
	double t0, first = -1;
	uint64_t v;
	int opt, rc;

	c.seed = (unsigned long)time(NULL);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "qh", lo, NULL)) != -1) {
		switch (opt) {
		case 'E': c.engine = optarg; break;
		case 'T': c.target = optarg; break;
		case 'S': c.sanitizer = optarg; break;
		case 'o': c.out = optarg; break;
		case 'n': c.ilv = false; break;
		case 'u': c.until_found = true; break;
		case 'A':
			if (c.nengine_args == MAX_ENGINE_ARGS) {
				fprintf(stderr, "mmfuzz fuzz: at most %d --engine-arg\n", MAX_ENGINE_ARGS);
				return EXIT_USAGE;
			}
			c.engine_args[c.nengine_args++] = optarg;
			break;
		case 'q': c.quiet = true; break;
		case 't':
			if (parse_u64(optarg, &v) || !v) {
				fprintf(stderr, "mmfuzz fuzz: bad --time '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.seconds = (long)v;
			break;
		case 'j':
			if (parse_u64(optarg, &v) || !v || v > 64) {
				fprintf(stderr, "mmfuzz fuzz: bad --jobs '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.jobs = (int)v;
			break;
		case 's':
			if (parse_u64(optarg, &v)) {
				fprintf(stderr, "mmfuzz fuzz: bad --seed '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.seed = (unsigned long)v;
			break;
		case 'i':
			if (parse_inject(optarg, &ro))
				return EXIT_USAGE;
			c.inject = ro.inject;
			break;
		case 'h':
			fputs(fuzz_usage, stdout);
			return EXIT_CLEAN;
		default:
			fputs(fuzz_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "mmfuzz fuzz: unexpected argument '%s'\n%s", argv[optind], fuzz_usage);
		return EXIT_USAGE;
	}
	if (strcmp(c.engine, "libfuzzer") && strcmp(c.engine, "afl") && strcmp(c.engine, "random")) {
		fprintf(stderr, "mmfuzz fuzz: --engine is libfuzzer, afl or random, not '%s'\n",
			c.engine);
		return EXIT_USAGE;
	}
	if (strcmp(c.target, "mm") && strcmp(c.target, "pagealloc") && strcmp(c.target, "text")) {
		fprintf(stderr, "mmfuzz fuzz: --target is mm, pagealloc or text, not '%s'\n", c.target);
		return EXIT_USAGE;
	}
	if (!c.sanitizer)
		c.sanitizer = !strcmp(c.engine, "random") ? "none" : "address";
	if (strcmp(c.sanitizer, "address") && strcmp(c.sanitizer, "thread") &&
	    strcmp(c.sanitizer, "none")) {
		fprintf(stderr, "mmfuzz fuzz: --sanitizer is address, thread or none, not '%s'\n",
			c.sanitizer);
		return EXIT_USAGE;
	}
	if (!strcmp(c.engine, "libfuzzer") && !strcmp(c.sanitizer, "none")) {
		fprintf(stderr, "mmfuzz fuzz: the libFuzzer builds are address or thread\n");
		return EXIT_USAGE;
	}
	if (!strcmp(c.engine, "random") && (strcmp(c.target, "mm") || strcmp(c.sanitizer, "none"))) {
		fprintf(stderr, "mmfuzz fuzz: the random engine runs the mm seeds in this process "
			"(--target mm, --sanitizer none)\n");
		return EXIT_USAGE;
	}
	if (find_root(&c)) {
		fprintf(stderr, "mmfuzz fuzz: cannot find the source tree (set MMFUZZ_ROOT)\n");
		return EXIT_USAGE;
	}
	mkdir(c.out, 0755);
	snprintf(c.crashes, sizeof(c.crashes), "%s/crashes", c.out);
	mkdir(c.crashes, 0755);
	{
		char corpus[4200];

		snprintf(corpus, sizeof(corpus), "%s/corpus", c.out);
		mkdir(corpus, 0755);
	}
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: building the %s %s target (%s)...\n", c.engine, c.target,
			c.sanitizer);
	if (build(&c))
		return EXIT_USAGE;
	campaign_note_write(c.out, c.inject, c.target, c.engine, c.sanitizer);
	{
		char stats[4200];

		snprintf(stats, sizeof(stats), "%s/stats", c.out);
		mkdir(stats, 0755);
		setenv("MMFUZZ_STATS", stats, 1);
	}
	setenv("MMFUZZ_CRASHES", c.crashes, 1);
	t = calloc(1, sizeof(*t));
	if (!t)
		return EXIT_USAGE;
	t->e = exec_create();
	t->inject = c.inject;
	t->sanitizer_bin = c.bin[0] && strcmp(c.target, "text") ? c.bin : NULL;
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: %s on %s for %lds, %d job(s), seeds %s, findings in %s\n",
			c.engine, c.target, c.seconds, c.jobs, c.seeds, c.out);
	t0 = now_s();
	rc = !strcmp(c.engine, "random") ? campaign_random(&c, t, t0, &first)
					 : campaign_engine(&c, t, t0, &first);
	signal(SIGINT, SIG_DFL);
	if (rc) {
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	if (!c.execs && !t->n) {
		fprintf(stderr, "mmfuzz fuzz: the engine ran nothing; see %s/engine.log\n", c.out);
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	if (c.until_found)
		printf("first_finding_seconds: %.2f\n", first < 0 ? -1.0 : first);
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: %d crash file(s), %d signature(s)%s%s\n", t->files_seen,
			t->n, t->not_reproduced ? " (the others did not reproduce alone)" : "",
			t->n ? "; minimizing one of each" : "");
	triage_write(t, c.out, false);
	rc = t->n ? EXIT_FOUND : EXIT_CLEAN;
	exec_destroy(t->e);
	free(t);
	return rc;
}

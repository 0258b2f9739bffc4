// SPDX-License-Identifier: MIT
/*
 * A fuzzing campaign while it runs: the engine processes and the random
 * baseline, progress, and the crash files classified as they appear (see
 * campaign.h).  Model violations do not stop the engine: the target saves
 * them (MMFUZZ_CRASHES) and goes on.
 */
#include "campaign.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../sched/ilv.h"
#include "campaign_dir.h"
#include "cli.h"

static volatile sig_atomic_t interrupted;

void campaign_on_signal(int sig)
{
	interrupted = sig;
}

int campaign_signal(void)
{
	return interrupted;
}

double campaign_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void inject_env(const struct campaign *c)
{
	char inj[512];

	cdir_inject_names(c->inject, inj, sizeof(inj));
	setenv("MMFUZZ_INJECT", strcmp(inj, "none") ? inj : "", 1);
	setenv("MMFUZZ_ILV", c->ilv ? "1" : "0", !c->ilv);	/* MMFUZZ_ILV=edges stays */
	/* as the harness's defaults (fuzz/fuzz_prog.c); a user's TSAN_OPTIONS stay */
	setenv("TSAN_OPTIONS", "halt_on_error=0:report_signal_unsafe=0", 0);
}

/*
 * The options the tree ships for the target's libFuzzer runs,
 * fuzz/fuzz_<target>.options (libFuzzer's options-file format, as
 * ClusterFuzz reads it: "key = value" lines under [libfuzzer]), as
 * "-key=value" arguments before the user's --engine-arg, which win.  One
 * file says how the target is run, for the campaign and for make bench-exec.
 * 0, or -1 after saying what is wrong (FILE:LINE:COL for a bad line).
 */
int campaign_engine_options(struct campaign *c)
{
	char path[4200], line[256];
	int lineno = 0, in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fuzz/fuzz_%s.options", c->root, c->target);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "mmfuzz fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	c->nengine_opts = 0;
	while (fgets(line, sizeof(line), f)) {
		char *k = line, *eq, *v, *e;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "%s:%d:%zu: line too long\n", path, lineno, sizeof(line) - 1);
			goto bad;
		}
		line[strcspn(line, "\r\n")] = 0;
		while (*k == ' ' || *k == '\t')
			k++;
		if (!*k || *k == '#' || *k == ';')
			continue;
		if (*k == '[') {
			in = !strcmp(k, "[libfuzzer]");
			continue;
		}
		eq = strchr(k, '=');
		if (!eq) {
			fprintf(stderr, "%s:%d:%d: expected 'key = value'\n", path, lineno,
				(int)(k - line) + 1);
			goto bad;
		}
		if (!in)
			continue;
		for (e = eq; e > k && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		for (v = eq + 1; *v == ' ' || *v == '\t'; v++)
			;
		if (e == k || strspn(k, "abcdefghijklmnopqrstuvwxyz_0123456789") != (size_t)(e - k)) {
			fprintf(stderr, "%s:%d:%d: expected a libFuzzer flag name\n", path, lineno,
				(int)(k - line) + 1);
			goto bad;
		}
		if (!*v) {
			fprintf(stderr, "%s:%d:%d: expected a value\n", path, lineno, (int)(v - line) + 1);
			goto bad;
		}
		if (c->nengine_opts == MAX_ENGINE_OPTS) {
			fprintf(stderr, "%s:%d:1: more than %d options\n", path, lineno, MAX_ENGINE_OPTS);
			goto bad;
		}
		snprintf(c->engine_opts[c->nengine_opts++], sizeof(c->engine_opts[0]), "-%.*s=%s",
			 (int)(e - k), k, v);
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	return -1;
}

/*
 * Start one engine process with its output on a pipe (*outfd), or, for the
 * AFL++ secondaries (instance > 0), appended to DIR/logs/rN-afl-secK.log;
 * returns the pid, or -1 after saying why not.  --jobs N on AFL++ is one
 * main (-M rN-main) and N-1 secondaries (-S rN-secK) on one sync
 * directory, DIR/afl; one job is -S rN, so that every campaign's instances
 * keep their own directories there.
 */
static pid_t start_engine(struct campaign *c, int *outfd, long seconds, unsigned long seed,
			  int instance)
{
	char arg[16 + MAX_ENGINE_OPTS + MAX_ENGINE_ARGS][4352];
	char *argv[17 + MAX_ENGINE_OPTS + MAX_ENGINE_ARGS];
	int fds[2], n = 0, i;
	pid_t pid;

	if (instance == 0 && pipe(fds)) {
		fprintf(stderr, "mmfuzz fuzz: pipe: %s\n", strerror(errno));
		return -1;
	}
	if (instance > 0) {
		char log[4200];

		snprintf(log, sizeof(log), "%s/logs/%s-afl-sec%d.log", c->out, c->tag, instance);
		fds[0] = -1;
		fds[1] = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fds[1] < 0) {
			fprintf(stderr, "mmfuzz fuzz: %s: %s\n", log, strerror(errno));
			return -1;
		}
	}
	if (!strcmp(c->engine, "libfuzzer")) {
		snprintf(arg[n++], sizeof(arg[0]), "%s", c->bin);
		if (c->jobs > 1) {
			snprintf(arg[n++], sizeof(arg[0]), "-fork=%d", c->jobs);
			snprintf(arg[n++], sizeof(arg[0]), "-ignore_crashes=1");
			snprintf(arg[n++], sizeof(arg[0]), "-ignore_timeouts=1");
		}
		snprintf(arg[n++], sizeof(arg[0]), "-max_total_time=%ld", seconds);
		/* an execution is bounded by its steps: one that takes seconds is
		 * a hang of the tool, saved as timeout-* (libFuzzer's default is
		 * 1200 s) */
		snprintf(arg[n++], sizeof(arg[0]), "-timeout=%d", CAMPAIGN_EXEC_TIMEOUT);
		snprintf(arg[n++], sizeof(arg[0]), "-artifact_prefix=%s/%s-", c->crashes, c->tag);
		for (i = 0; i < c->nengine_opts; i++)
			snprintf(arg[n++], sizeof(arg[0]), "%s", c->engine_opts[i]);
		snprintf(arg[n++], sizeof(arg[0]), "-seed=%u", (unsigned)seed);
		snprintf(arg[n++], sizeof(arg[0]), "-dict=%s/fuzz/%s.dict", c->root,
			 !strcmp(c->target, "text") ? "text" : "mm");
		for (i = 0; i < c->nengine_args; i++)
			snprintf(arg[n++], sizeof(arg[0]), "%s", c->engine_args[i]);
		snprintf(arg[n++], sizeof(arg[0]), "%s/corpus", c->out);
		snprintf(arg[n++], sizeof(arg[0]), "%s", c->seeds);
	} else {
		snprintf(arg[n++], sizeof(arg[0]), "afl-fuzz");
		snprintf(arg[n++], sizeof(arg[0]), "-i%s", c->seeds);
		snprintf(arg[n++], sizeof(arg[0]), "-o%s/afl", c->out);
		snprintf(arg[n++], sizeof(arg[0]), "-V%ld", seconds);
		snprintf(arg[n++], sizeof(arg[0]), "-s%u", (unsigned)seed);
		snprintf(arg[n++], sizeof(arg[0]), "-mnone");
		snprintf(arg[n++], sizeof(arg[0]), "-t%d", CAMPAIGN_EXEC_TIMEOUT * 1000);
		if (c->jobs > 1 && instance == 0)
			snprintf(arg[n++], sizeof(arg[0]), "-M%s-main", c->tag);
		else if (c->jobs > 1)
			snprintf(arg[n++], sizeof(arg[0]), "-S%s-sec%d", c->tag, instance);
		else
			snprintf(arg[n++], sizeof(arg[0]), "-S%s", c->tag);
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
	if (pid < 0) {
		fprintf(stderr, "mmfuzz fuzz: fork: %s\n", strerror(errno));
		if (fds[0] >= 0)
			close(fds[0]);
		close(fds[1]);
		return -1;
	}
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
 * Over every entry of dir (its file name, or name/sub when sub is given),
 * those named tag or tag-... when tag is given: the sum of key sum_key's
 * values into *sum and their maximum of max_key into *max.
 */
static void sum_stats_dir(const char *dir, const char *sub, const char *tag, const char *sum_key,
			  const char *max_key, unsigned long *sum, unsigned long *max)
{
	char path[4200], line[256];
	struct dirent *de;
	DIR *d = opendir(dir);

	*sum = *max = 0;
	while (d && (de = readdir(d))) {
		size_t k = tag ? strlen(tag) : 0;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		if (tag && (strncmp(de->d_name, tag, k) || (de->d_name[k] && de->d_name[k] != '-')))
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
	unsigned long execs, max, known;

	if (!strcmp(c->engine, "afl")) {
		snprintf(path, sizeof(path), "%s/afl", c->out);
		sum_stats_dir(path, "fuzzer_stats", c->tag, "execs_done", "edges_found", &execs, &max);
		if (execs) {
			c->execs = c->execs_base + execs;
			c->cov = max;
		}
	}
	sum_stats_dir(c->stats, NULL, NULL, "execs", "interleavings", &execs, &max);
	if (max > c->ilv_seen)
		c->ilv_seen = max;
	sum_stats_dir(c->stats, NULL, NULL, "known", "known", &known, &max);
	if (known > c->known)
		c->known = known;
	/* AFL++ writes its stats once a minute: count from the harnesses */
	if (!strcmp(c->engine, "afl") && execs > c->execs)
		c->execs = execs;
}

static void progress(struct campaign *c, const struct triage *t, double elapsed)
{
	double rate;
	int i;

	if (c->quiet)
		return;
	/* since the last line (libFuzzer's own exec/s starts at 0) */
	rate = elapsed > c->last_elapsed ? (double)(c->execs - c->last_execs) /
						   (elapsed - c->last_elapsed) : 0;
	c->last_execs = c->execs;
	c->last_elapsed = elapsed;
	fprintf(stderr, "[%5.0fs] execs %lu (%.0f/s) cov %lu", elapsed, c->execs, rate, c->cov);
	if (!strcmp(c->engine, "libfuzzer"))
		fprintf(stderr, " ft %lu", c->ft);
	fprintf(stderr, " interleavings %lu | findings:", c->ilv_seen);
	if (!t->n)
		fprintf(stderr, " none");
	for (i = 0; i < t->n; i++)
		fprintf(stderr, " %s x%d", t->f[i].signature, t->f[i].count);
	/* known races of the kernel pinned: counted, not findings */
	if (c->known)
		fprintf(stderr, " | known: known-6.6@drain_pages_zone x%lu", c->known);
	fputc('\n', stderr);
}

/*
 * The baseline: the seed programs as they are, each run again and again
 * under the seeded random scheduler (a uniformly random runnable task at
 * every yield point), with no mutation and no coverage feedback: how a
 * fibers harness with a random scheduler (XNU's) would look for the bug.
 */
int campaign_random(struct campaign *c, struct triage *t, double t0, double *first)
{
	struct prog *progs = calloc(256, sizeof(*progs)), *p = malloc(sizeof(*p));
	struct run_opts o = { 0 };
	struct run_result r;
	struct dirent *de;
	double last = 0;
	DIR *d = opendir(c->seeds);
	uint64_t i;
	int n = 0;

	if (!progs || !p || !d) {
		fprintf(stderr, "mmfuzz fuzz: %s: %s\n", c->seeds, d ? "out of memory" : strerror(errno));
		free(progs);
		free(p);
		if (d)
			closedir(d);
		return -1;
	}
	while ((de = readdir(d)) && n < 256) {
		struct input in;
		char path[8192];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", c->seeds, de->d_name);
		if (input_load(&in, path, INPUT_AUTO))
			continue;
		progs[n++] = *in.prog;
		input_free(&in);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "mmfuzz fuzz: no seeds in %s\n", c->seeds);
		free(progs);
		free(p);
		return -1;
	}
	o.sched = SCHED_RANDOM;
	o.max_steps = 20000;
	ilv_enabled = true;	/* counted only: nothing is guided by it */
	for (i = 0; !interrupted; i++) {
		double now = campaign_now() - t0;

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

			snprintf(path, sizeof(path), "%s/%s-crash-random-%llu", c->crashes, c->tag,
				 (unsigned long long)i);
			if (text)
				write_output(path, text, strlen(text));
			free(text);
			if (triage_scan(t, c->crashes) && *first < 0)
				*first = campaign_now() - t0;
			progress(c, t, now);
		}
		if (now - last >= 5.0) {
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
	bool alive[MAX_JOBS];

	for (i = 0; i < npid; i++)
		alive[i] = true;
	for (;;) {
		double now = campaign_now() - t0;

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
				*first = campaign_now() - t0;
			if (!strcmp(c->engine, "afl")) {
				char afl[4200];

				snprintf(afl, sizeof(afl), "%s/afl", c->out);
				if (triage_scan(t, afl) && *first < 0)
					*first = campaign_now() - t0;
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

int campaign_engine(struct campaign *c, struct triage *t, double t0, double *first)
{
	const char *log_path = c->engine_log;
	FILE *log;
	int round, rc = 0;

	log = fopen(log_path, "w");
	if (!log) {
		fprintf(stderr, "mmfuzz fuzz: %s: %s\n", log_path, strerror(errno));
		return -1;
	}
	for (round = 0;; round++) {
		long left = c->seconds - (long)(campaign_now() - t0);
		int fd = -1, status = 0, i, npid, crash_files;
		pid_t pid[MAX_JOBS];
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

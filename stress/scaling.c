// SPDX-License-Identifier: MIT
/*
 * stress --scaling: will-it-scale's runtest.py.  For 1..nproc tasks it runs
 * the workload in process mode and in thread mode (each a child "mmfuzz
 * stress -t N"), brackets every run with /proc/stat to get the idle time,
 * and prints the same CSV:
 *
 *	tasks,processes,processes_idle,threads,threads_idle,linear
 *	0,0,100,0,100,0
 *	1,<ops/s>,<idle%>,<ops/s>,<idle%>,<linear>
 *
 * linear is the better of the two 1-task results times the task count.  A
 * mode left out prints 0 and 0.00, as LKP's runtest.py does with mode=thread.
 * Then the CSV goes to a file and gnuplot draws it: ops/s against tasks with
 * the linear line dotted, idle % on the right axis (postprocess.py's plot).
 */
#include "stress.h"

#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

struct cpu_times {
	unsigned long long busy, idle;
};

/* runtest.py's linux_stat: the "cpu" line, iowait counted as idle */
static int cpu_times_read(struct cpu_times *t)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (n < 7)
		return -1;
	t->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7] + v[8] + v[9];
	t->idle = v[3] + v[4];
	return 0;
}

static double idle_percent(const struct cpu_times *a, const struct cpu_times *b)
{
	unsigned long long busy = b->busy - a->busy, idle = b->idle - a->idle;

	return busy + idle ? 100.0 * (double)idle / (double)(busy + idle) : 0.0;
}

/* runtest.py counts the "processor" lines of /proc/cpuinfo */
static unsigned long nr_cores(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	unsigned long n = 0;
	char line[256];

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "processor", 9))
				n++;
		fclose(f);
	}
	return n ? n : (unsigned long)sysconf(_SC_NPROCESSORS_ONLN);
}

/* setarch linux64 -R: children run without address-space randomization */
void stress_no_aslr(void)
{
	int cur = personality(0xffffffff);

	if (cur == -1 || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) == -1)
		fprintf(stderr, "WARNING: setarch -R failed, address space randomization may "
			"cause variability\n");
}

/* One run: its average: and the idle time around it.  0, 1 (failed), 130;
 * @host: the kernel's testcase (--host) instead of the model. */
static int scaling_run(const struct scaling_opts *so, unsigned long tasks, const char *mode,
		       bool host, long long *avg, double *idle)
{
	struct cpu_times before, after;
	struct stress_child_out res;
	char t[32], *argv[64];
	int n = 0, i;

	snprintf(t, sizeof(t), "%lu", tasks);
	argv[n++] = "mmfuzz";
	argv[n++] = "stress";
	argv[n++] = (char *)so->workload;
	argv[n++] = "-t";
	argv[n++] = t;
	argv[n++] = "--mode";
	argv[n++] = (char *)mode;
	for (i = 0; !host && i < so->nchild_args && n < 60; i++)
		argv[n++] = so->child_args[i];
	for (i = 0; host && i < so->nhost_args && n < 60; i++)
		argv[n++] = so->host_args[i];
	argv[n] = NULL;
	if (cpu_times_read(&before) || stress_spawn(argv, &res))
		return 1;
	if (cpu_times_read(&after)) {
		free(res.text);
		return 1;
	}
	*idle = idle_percent(&before, &after);
	*avg = (long long)stress_output_value(res.text, "average");
	if (res.status == 130 || stress_parent_interrupted) {
		free(res.text);
		return 130;
	}
	if (res.status || *avg < 0) {
		fprintf(stderr, "mmfuzz stress: %s -t %lu (%s%s) exited with status %d; its "
			"output:\n%s", so->workload, tasks, mode, host ? ", host kernel" : "",
			res.status, res.text);
		/* the kernel cannot run it: the reason is on stderr, exit 2 */
		if (host && res.status == 2) {
			free(res.text);
			return 2;
		}
		free(res.text);
		return 1;
	}
	free(res.text);
	return 0;
}

static int scaling_plot(const char *csv, const char *png, const char *title,
			unsigned long max_tasks)
{
	FILE *g = popen("gnuplot", "w");

	if (!g)
		return -1;
	fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
		"set terminal pngcairo size 900,600; else set terminal png size 900,600\n"
		"set output '%s'\n"
		"set datafile separator ','\n"
		"set title \"%s\" noenhanced\n"
		"set xlabel 'tasks'\n"
		"set ylabel 'operations per second'\n"
		"set y2label 'idle %%'\n"
		"set y2range [0:100]\n"
		"set ytics nomirror\n"
		"set y2tics\n"
		"set yrange [0:*]\n"
		"set key top left\n"
		"set grid\n"
		"set xrange [0:%lu]\n"
		"%s"
		"plot '%s' every ::1 using 1:2 with linespoints lc rgb '#9400d3' title 'processes', "
		"'' every ::1 using 1:4 with linespoints lc rgb '#009e73' title 'threads', "
		"'' every ::1 using 1:6 with lines dashtype 2 lc rgb '#56b4e9' title 'linear', "
		"'' every ::1 using 1:3 axes x1y2 with lines dashtype 3 lw 2 lc rgb '#9400d3' "
		"title 'processes idle', "
		"'' every ::1 using 1:5 axes x1y2 with lines dashtype 3 lw 2 lc rgb '#009e73' "
		"title 'threads idle'\n",
		png, title, max_tasks, max_tasks <= 16 ? "set xtics 1\n" : "", csv);
	return pclose(g) ? -1 : 0;
}

static int write_file(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fputs(text, f);
	if (fclose(f) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * --scaling --host: one PNG of the shapes, each curve over its own 1-task
 * figure (the model runs slower than the kernel; what is compared is how
 * each scales), with linear as tasks.  @one: the 1-task figures, model
 * processes, model threads, host processes, host threads (0: not run).
 */
static int scaling_plot_host(const char *csv, const char *png, const char *title,
			     unsigned long max_tasks, const long long one[4])
{
	static const char *const what[4] = { "model processes", "model threads",
					     "host processes", "host threads" };
	static const char *const style[4] = { "lc rgb '#9400d3'", "lc rgb '#009e73'",
					      "dashtype 4 lc rgb '#9400d3'",
					      "dashtype 4 lc rgb '#009e73'" };
	static const int col[4] = { 2, 4, 7, 9 };
	FILE *g = popen("gnuplot", "w");
	int i;

	if (!g)
		return -1;
	fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
		"set terminal pngcairo size 900,600; else set terminal png size 900,600\n"
		"set output '%s'\n"
		"set datafile separator ','\n"
		"set title \"%s\" noenhanced\n"
		"set xlabel 'tasks'\n"
		"set ylabel 'operations per second over the 1-task run'\n"
		"set yrange [0:*]\n"
		"set key top left\n"
		"set grid\n"
		"set xrange [0:%lu]\n"
		"%s"
		"plot x with lines dashtype 2 lc rgb '#56b4e9' title 'linear'",
		png, title, max_tasks, max_tasks <= 16 ? "set xtics 1\n" : "");
	for (i = 0; i < 4; i++)
		if (one[i] > 0)
			fprintf(g, ", '%s' every ::1 using 1:($%d/%lld.0) with linespoints %s "
				"title '%s'", csv, col[i], one[i], style[i], what[i]);
	fprintf(g, "\n");
	return pclose(g) ? -1 : 0;
}

static void loadavg(char *buf, size_t n)
{
	FILE *f = fopen("/proc/loadavg", "r");

	if (!f || !fgets(buf, (int)n, f))
		snprintf(buf, n, "unknown");
	if (f)
		fclose(f);
	buf[strcspn(buf, " ")] = 0;
}

/* The fidelity figure: each curve over its 1-task run, model against host. */
static void scaling_fidelity(const struct scaling_opts *so, unsigned long rows,
			     long long (*v)[4], const char *load0)
{
	static const char *const mode[2] = { "processes", "threads" };
	char load1[64];
	unsigned long i;
	int m;

	loadavg(load1, sizeof(load1));
	fprintf(stderr, "mmfuzz stress: %s, throughput over the 1-task run, model and host kernel "
		"(load average %s at the start, %s at the end; an idle machine is what these "
		"figures want):\n", so->workload, load0, load1);
	for (m = 0; m < 2; m++) {
		if (!(m ? so->want_threads : so->want_processes))
			continue;
		for (i = 2; i <= rows; i++) {
			double model = v[1][m] > 0 ? (double)v[i][m] / (double)v[1][m] : 0;
			double host = v[1][2 + m] > 0 ? (double)v[i][2 + m] / (double)v[1][2 + m] : 0;

			fprintf(stderr, "  %-9s %lu tasks: model %.2f  host %.2f  model/host %.2f\n",
				mode[m], i, model, host, host > 0 ? model / host : 0.0);
		}
	}
}

int stress_scaling(const struct scaling_opts *so)
{
	const struct stress_workload *wl = stress_workload_lookup(so->workload);
	unsigned long max_tasks = so->max_tasks ? so->max_tasks : nr_cores(), i, rows = 0;
	char csv_default[256], png[4096], title[256], load0[64];
	const char *csv = so->csv_path;
	size_t cap = 4096, len = 0;
	char *text = malloc(cap);
	long long (*v)[4] = calloc(max_tasks + 1, sizeof(*v));
	long long linear = 0, hlinear = 0;
	int rc = 0;

	if (!text || !v) {
		free(text);
		free(v);
		return 2;
	}
	if (!csv) {
		snprintf(csv_default, sizeof(csv_default), "%s.csv", so->workload);
		csv = csv_default;
	}
	loadavg(load0, sizeof(load0));
	stress_parent_signals();
	stress_no_aslr();
	len += (size_t)snprintf(text, cap, "tasks,processes,processes_idle,threads,threads_idle,"
				"linear%s\n0,0,100,0,100,0%s\n",
				so->host ? ",host_processes,host_processes_idle,host_threads,"
				"host_threads_idle,host_linear" : "",
				so->host ? ",0,100,0,100,0" : "");
	fputs(text, stdout);
	fflush(stdout);
	for (i = 1; i <= max_tasks && !rc; i++) {
		long long p = 0, t = 0, hp = 0, ht = 0;
		double p_idle = 0, t_idle = 0, hp_idle = 0, ht_idle = 0;
		char row[320];
		int k;

		if (so->want_processes)
			rc = scaling_run(so, i, "process", false, &p, &p_idle);
		if (!rc && so->want_threads)
			rc = scaling_run(so, i, "thread", false, &t, &t_idle);
		if (!rc && so->host && so->want_processes)
			rc = scaling_run(so, i, "process", true, &hp, &hp_idle);
		if (!rc && so->host && so->want_threads)
			rc = scaling_run(so, i, "thread", true, &ht, &ht_idle);
		if (rc)
			break;
		if (i == 1) {
			linear = p > t ? p : t;
			hlinear = hp > ht ? hp : ht;
		}
		v[i][0] = p;
		v[i][1] = t;
		v[i][2] = hp;
		v[i][3] = ht;
		rows = i;
		k = snprintf(row, sizeof(row), "%lu,%lld,%0.2f,%lld,%0.2f,%lld", i, p, p_idle, t,
			     t_idle, linear * (long long)i);
		if (so->host)
			k += snprintf(row + k, sizeof(row) - (size_t)k, ",%lld,%0.2f,%lld,%0.2f,%lld",
				      hp, hp_idle, ht, ht_idle, hlinear * (long long)i);
		k += snprintf(row + k, sizeof(row) - (size_t)k, "\n");
		fputs(row, stdout);
		fflush(stdout);
		if (len + (size_t)k + 1 > cap) {
			char *bigger = realloc(text, cap * 2);

			if (!bigger)
				break;
			text = bigger;
			cap *= 2;
		}
		memcpy(text + len, row, (size_t)k + 1);
		len += (size_t)k;
	}
	if (rc == 130)
		fprintf(stderr, "mmfuzz stress: interrupted: the CSV has the rows completed so far\n");
	if (write_file(csv, text)) {
		fprintf(stderr, "mmfuzz stress: cannot write %s\n", csv);
		free(text);
		free(v);
		return 2;
	}
	snprintf(png, sizeof(png), "%.*s.png",
		 (int)(strlen(csv) > 4 && !strcmp(csv + strlen(csv) - 4, ".csv") ?
		       strlen(csv) - 4 : strlen(csv)), csv);
	if (so->host) {
		snprintf(title, sizeof(title), "%s: the model and the host kernel, each over its "
			 "1-task run", so->workload);
		if (rows >= 1 && scaling_plot_host(csv, png, title, max_tasks, v[1]))
			fprintf(stderr, "mmfuzz stress: gnuplot failed; %s has the data (make deps "
				"installs gnuplot-nox)\n", csv);
		else
			fprintf(stderr, "mmfuzz stress: wrote %s and %s\n", csv, png);
		if (rows >= 2)
			scaling_fidelity(so, rows, v, load0);
	} else {
		snprintf(title, sizeof(title), "%s: %s", so->workload, wl ? wl->description : "");
		if (scaling_plot(csv, png, title, max_tasks))
			fprintf(stderr, "mmfuzz stress: gnuplot failed; %s has the data (make deps "
				"installs gnuplot-nox)\n", csv);
		else
			fprintf(stderr, "mmfuzz stress: wrote %s and %s\n", csv, png);
	}
	free(text);
	free(v);
	return rc;
}

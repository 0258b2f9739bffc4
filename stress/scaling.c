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

/* One run: its average: and the idle time around it.  0, 1 (failed), 130. */
static int scaling_run(const struct scaling_opts *so, unsigned long tasks, const char *mode,
		       long long *avg, double *idle)
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
	for (i = 0; i < so->nchild_args && n < 60; i++)
		argv[n++] = so->child_args[i];
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
		fprintf(stderr, "mmfuzz stress: %s -t %lu (%s) exited with status %d; its output:\n%s",
			so->workload, tasks, mode, res.status, res.text);
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

int stress_scaling(const struct scaling_opts *so)
{
	const struct stress_workload *wl = stress_workload_lookup(so->workload);
	unsigned long max_tasks = so->max_tasks ? so->max_tasks : nr_cores(), i;
	char csv_default[256], png[4096], title[256];
	const char *csv = so->csv_path;
	size_t cap = 4096, len = 0;
	char *text = malloc(cap);
	long long linear = 0;
	int rc = 0;

	if (!text)
		return 2;
	if (!csv) {
		snprintf(csv_default, sizeof(csv_default), "%s.csv", so->workload);
		csv = csv_default;
	}
	stress_parent_signals();
	stress_no_aslr();
	len += (size_t)snprintf(text, cap, "tasks,processes,processes_idle,threads,threads_idle,"
				"linear\n0,0,100,0,100,0\n");
	fputs(text, stdout);
	fflush(stdout);
	for (i = 1; i <= max_tasks && !rc; i++) {
		long long p = 0, t = 0;
		double p_idle = 0, t_idle = 0;
		char row[160];
		int k;

		if (so->want_processes)
			rc = scaling_run(so, i, "process", &p, &p_idle);
		if (!rc && so->want_threads)
			rc = scaling_run(so, i, "thread", &t, &t_idle);
		if (rc)
			break;
		if (i == 1)
			linear = p > t ? p : t;
		k = snprintf(row, sizeof(row), "%lu,%lld,%0.2f,%lld,%0.2f,%lld\n", i, p, p_idle, t,
			     t_idle, linear * (long long)i);
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
		return 2;
	}
	snprintf(png, sizeof(png), "%.*s.png",
		 (int)(strlen(csv) > 4 && !strcmp(csv + strlen(csv) - 4, ".csv") ?
		       strlen(csv) - 4 : strlen(csv)), csv);
	snprintf(title, sizeof(title), "%s: %s", so->workload, wl ? wl->description : "");
	if (scaling_plot(csv, png, title, max_tasks))
		fprintf(stderr, "mmfuzz stress: gnuplot failed; %s has the data (make deps "
			"installs gnuplot-nox)\n", csv);
	else
		fprintf(stderr, "mmfuzz stress: wrote %s and %s\n", csv, png);
	free(text);
	return rc;
}

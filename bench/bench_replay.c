// SPDX-License-Identifier: MIT
/*
 * One fuzz execution without an engine: decode each binary input of a
 * directory and run it as the fuzz target does (every checker on), ROUNDS
 * times over the directory.  Prints executions per second; under
 * `valgrind --tool=callgrind` it gives the instruction cost of an
 * execution, function by function, stable on a noisy machine.
 *
 *   bench_replay DIR [ROUNDS] [TARGET]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "prog/exec.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	static struct prog p;
	struct run_opts o = { 0 };
	struct run_result r;
	const struct fuzz_target *t;
	struct dirent **names;
	struct timespec t0, t1;
	uint8_t **in;
	size_t *len;
	struct exec *e;
	int n, i, k, rounds, nin = 0, viol = 0;
	const char *mode = argc > 4 ? argv[4] : "";
	bool fresh = !strcmp(mode, "fresh"), full = !strcmp(mode, "full");
	bool hashes = fresh || full || !strcmp(mode, "hashes");
	double secs;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [ROUNDS] [TARGET] [hashes|fresh|full]\n", argv[0]);
		return 2;
	}
	rounds = argc > 2 ? atoi(argv[2]) : 1;
	ops_init();
	t = target_lookup(argc > 3 ? argv[3] : "mm");
	n = scandir(argv[1], &names, NULL, alphasort);
	if (n < 0 || !t) {
		perror(argv[1]);
		return 2;
	}
	in = calloc((size_t)n, sizeof(*in));
	len = calloc((size_t)n, sizeof(*len));
	for (i = 0; i < n; i++) {
		char path[4096];

		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", argv[1], names[i]->d_name);
			in[nin] = slurp(path, &len[nin]);
			if (in[nin])
				nin++;
		}
		free(names[i]);
	}
	free(names);
	check_cons_full = full;
	e = exec_create();
	o.max_steps = 20000;	/* as the fuzz target */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < rounds; k++)
		for (i = 0; i < nin; i++) {
			prog_decode_binary_target(in[i], len[i], &p, t);
			p.bugs = 0;
			if (fresh) {
				exec_destroy(e);
				e = exec_create();
			}
			exec_run(e, &p, &o, &r);
			viol += r.outcome == RUN_VIOLATION;
			if (hashes)
				printf("%d %d %016llx %s\n", i, (int)r.outcome,
				       (unsigned long long)r.trace_hash,
				       r.outcome == RUN_VIOLATION ? r.v.signature : "");
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%d inputs x %d rounds: %.0f executions/s (%.1f us each), %d violations\n", nin, rounds,
	       (double)nin * rounds / secs, secs * 1e6 / ((double)nin * rounds), viol);
	printf("world cache: %lu hits, %lu re-tuned, %lu built; world_calloc: %lu bytes cleared, "
	       "%lu found zero\n", exec_worlds(e)->hits, exec_worlds(e)->tuned,
	       exec_worlds(e)->misses, wmem_zeroed_bytes, wmem_clean_bytes);
	exec_destroy(e);
	for (i = 0; i < nin; i++)
		free(in[i]);
	free(in);
	free(len);
	return 0;
}

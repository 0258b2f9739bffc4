// SPDX-License-Identifier: MIT
/*
 * A property of the command line: mmfuzz run (and decode) on any mutation
 * of a corpus program exits 0 (clean), 1 (a violation) or 2 (bad input, and
 * then its first line of stderr names the file), and nothing else: no
 * crash, no sanitizer report, no leak.  The programs are the shipped corpus
 * (every corpus/<target>/ and corpus/regress) mutated by a seeded mutator: bytes flipped,
 * inserted, deleted; lines duplicated, dropped, swapped; numbers replaced
 * by boundary values; tokens of fuzz/text.dict inserted; NUL, BOM, CR, tab
 * and '#' dropped in.  Each runs in its own mmfuzz process, as a user's.
 *
 *   MMFUZZ_BUILD      the build under test (default build)
 *   MMFUZZ_PROP_N     how many programs (default: 2000 in the ASan build,
 *                     500 in the plain one; ci/text-prop runs millions)
 *   MMFUZZ_PROP_JOBS  processes at once (default 2)
 *   MMFUZZ_PROP_SEED  the mutator's seed (default 1)
 *
 * A failing input is kept as $MMFUZZ_BUILD/prop-fail-N.mmf.  The TSan build
 * skips it: a mutation may switch a racy bug on, and then TSan's report
 * (exit 66) is the right answer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/sched/san.h"
#include "tap.h"

extern char **environ;

#define MAX_SEEDS	256
#define MAX_TOKENS	512
#define MAX_LEN		(64 << 10)
#define MAX_JOBS	64

static struct seed {
	char *data;
	size_t len;
} seeds[MAX_SEEDS];
static int nseeds;
static char *tokens[MAX_TOKENS];
static int ntokens;
static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

static void load_seeds(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];

	while (d && (de = readdir(d)) && nseeds < MAX_SEEDS) {
		size_t n = strlen(de->d_name);

		if (n < 5 || strcmp(de->d_name + n - 4, ".mmf"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		seeds[nseeds].data = tap_slurp(path, &seeds[nseeds].len);
		if (seeds[nseeds].data)
			nseeds++;
	}
	if (d)
		closedir(d);
}

/* the quoted tokens of a libFuzzer dictionary, \xNN and \" undone */
static void load_tokens(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f) && ntokens < MAX_TOKENS) {
		char *q = strchr(line, '"'), *end = strrchr(line, '"'), *out, *p;

		if (!q || end == q || line[0] == '#')
			continue;
		out = tokens[ntokens] = malloc((size_t)(end - q) + 1);
		if (!out)
			break;
		for (p = q + 1; p < end; p++) {
			if (*p == '\\' && p[1] == 'x' && p + 3 < end) {
				char hex[3] = { p[2], p[3], 0 };

				*out++ = (char)strtol(hex, NULL, 16);
				p += 3;
			} else if (*p == '\\' && p + 1 < end) {
				*out++ = *++p;
			} else {
				*out++ = *p;
			}
		}
		*out = 0;
		ntokens++;
	}
	if (f)
		fclose(f);
}

static void insert(char *buf, size_t *len, size_t at, const char *s, size_t n)
{
	if (*len + n > MAX_LEN)
		return;
	memmove(buf + at + n, buf + at, *len - at);
	memcpy(buf + at, s, n);
	*len += n;
}

static void erase(char *buf, size_t *len, size_t at, size_t n)
{
	if (at + n > *len)
		n = *len - at;
	memmove(buf + at, buf + at + n, *len - at - n);
	*len -= n;
}

/* the start of line @k (from 0) and its length with its newline */
static size_t line_at(const char *buf, size_t len, size_t k, size_t *n)
{
	size_t i = 0, start = 0;

	for (; i < len && k; i++)
		if (buf[i] == '\n') {
			k--;
			start = i + 1;
		}
	for (i = start; i < len && buf[i] != '\n'; i++)
		;
	*n = i - start + (i < len);
	return start;
}

static size_t nlines(const char *buf, size_t len)
{
	size_t i, n = 1;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

static void mutate(char *buf, size_t *len)
{
	static const char *const numbers[] = {
		"0", "1", "-1", "7", "8", "9", "255", "256", "65535", "65536", "2147483647",
		"2147483648", "4294967295", "4294967296", "9223372036854775807",
		"18446744073709551616", "99999999999999999999999", "0x", "0xffffffff", "010",
		"1e3", "+1", " ", "",
	};
	static const char *const bits[] = {
		"\0", "\xef\xbb\xbf", "\r", "\t", "#", "# c\n", "\n", "\n\n", " ", "=", ":", "->",
		"#1", "h", "T", "@", "\xff", "\x80",
	};
	size_t at = below(*len + 1), n, m, a = 0, b;
	char tmp[MAX_LEN];
	char c;

	switch (below(10)) {
	case 0:	/* a byte */
		if (*len)
			buf[below(*len)] = (char)below(256);
		break;
	case 1:	/* random bytes */
		for (n = 1 + below(8), m = 0; m < n; m++) {
			c = (char)(below(2) ? 32 + below(95) : below(256));
			insert(buf, len, at, &c, 1);
		}
		break;
	case 2:	/* a range gone */
		erase(buf, len, at, 1 + below(below(2) ? 4 : 64));
		break;
	case 3:	/* a line twice */
		a = line_at(buf, *len, below(nlines(buf, *len)), &n);
		if (n < sizeof(tmp)) {
			memcpy(tmp, buf + a, n);
			insert(buf, len, a, tmp, n);
		}
		break;
	case 4:	/* a line gone */
		a = line_at(buf, *len, below(nlines(buf, *len)), &n);
		erase(buf, len, a, n);
		break;
	case 5:	/* two lines swapped */
		a = line_at(buf, *len, below(nlines(buf, *len)), &n);
		b = line_at(buf, *len, below(nlines(buf, *len)), &m);
		if (a < b && a + n <= b && n + m < sizeof(tmp)) {
			memcpy(tmp, buf + b, m);
			memcpy(tmp + m, buf + a, n);
			erase(buf, len, b, m);
			erase(buf, len, a, n);
			insert(buf, len, a, tmp, m);
			insert(buf, len, a + m + (b - a - n), tmp + m, n);
		}
		break;
	case 6:	/* a number replaced */
		for (n = 0; n < 64 && *len; n++) {
			a = below(*len);
			if (buf[a] >= '0' && buf[a] <= '9')
				break;
		}
		if (*len && buf[a] >= '0' && buf[a] <= '9') {
			for (b = a; b < *len && ((buf[b] >= '0' && buf[b] <= '9') || buf[b] == 'x'); b++)
				;
			while (a > 0 && buf[a - 1] >= '0' && buf[a - 1] <= '9')
				a--;
			erase(buf, len, a, b - a);
			n = below(sizeof(numbers) / sizeof(numbers[0]));
			insert(buf, len, a, numbers[n], strlen(numbers[n]));
		}
		break;
	case 7:	/* a dictionary token */
		if (ntokens) {
			const char *t = tokens[below((size_t)ntokens)];

			insert(buf, len, at, t, strlen(t));
		}
		break;
	case 8:	/* a character that means something to the lexer */
		n = below(sizeof(bits) / sizeof(bits[0]));
		insert(buf, len, at, bits[n], n ? strlen(bits[n]) : 1);
		break;
	default: /* cut short */
		*len = at;
		break;
	}
}

struct job {
	pid_t pid;
	int idx;
	char in[4200], err[4200];
};

static int first_line_names(const char *err, const char *file)
{
	char line[8192];
	FILE *f = fopen(err, "r");
	int ok;

	ok = f && fgets(line, sizeof(line), f) && !strncmp(line, file, strlen(file)) &&
	     line[strlen(file)] == ':';
	if (f)
		fclose(f);
	return ok;
}

static int has_report(const char *err)
{
	char line[8192];
	FILE *f = fopen(err, "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, "Sanitizer") || strstr(line, "runtime error") ||
			strstr(line, "mmfuzz: internal error");
	if (f)
		fclose(f);
	return found;
}

int main(void)
{
	const char *build = getenv("MMFUZZ_BUILD") ? getenv("MMFUZZ_BUILD") : "build";
	long total = MMFUZZ_ASAN ? 2000 : 500, jobs = 2, i, done = 0, started = 0;
	long count[3] = { 0 }, bad = 0, unnamed = 0;
	char bin[4096], dir[] = "/tmp/mmfuzz-prop.XXXXXX";
	struct job job[MAX_JOBS];
	int running = 0;
	time_t t0 = time(NULL);

	if (MMFUZZ_TSAN) {
		printf("1..0 # SKIP a mutation may switch a racy bug on: TSan's exit 66 is right\n");
		return 0;
	}
	if (getenv("MMFUZZ_PROP_N"))
		total = atol(getenv("MMFUZZ_PROP_N"));
	if (getenv("MMFUZZ_PROP_JOBS"))
		jobs = atol(getenv("MMFUZZ_PROP_JOBS"));
	if (jobs < 1 || jobs > MAX_JOBS)
		jobs = 2;
	rng = getenv("MMFUZZ_PROP_SEED") ? strtoull(getenv("MMFUZZ_PROP_SEED"), NULL, 0) : 1;
	rng = rng * 0x9e3779b97f4a7c15ull + 1;
	snprintf(bin, sizeof(bin), "%s/mmfuzz", build);
	{
		DIR *d = opendir("corpus");
		struct dirent *de;
		char sub[4096];

		while (d && (de = readdir(d)))
			if (de->d_name[0] != '.') {
				snprintf(sub, sizeof(sub), "corpus/%s", de->d_name);
				load_seeds(sub);
			}
		if (d)
			closedir(d);
	}
	load_tokens("fuzz/text.dict");
	printf("1..2\n");
	if (!nseeds || access(bin, X_OK) || !mkdtemp(dir)) {
		printf("not ok 1 - no corpus, no %s, or no temporary directory\nnot ok 2\n", bin);
		return 1;
	}
	setenv("ASAN_OPTIONS", "detect_leaks=1:exitcode=86", 1);
	setenv("UBSAN_OPTIONS", "halt_on_error=1:exitcode=87", 1);
	while (done < total) {
		while (running < jobs && started < total) {
			static char buf[MAX_LEN];
			const struct seed *s = &seeds[below((size_t)nseeds)];
			struct job *j = &job[running];
			size_t len = s->len < MAX_LEN ? s->len : MAX_LEN, k, nm = 1 + below(below(2) ? 2 : 8);
			posix_spawn_file_actions_t fa;
			/* run and decode: both load, decode also prints */
			char *run[] = { bin, "run", "-q", "--max-steps", "20000", j->in, NULL };
			char *decode[] = { bin, "decode", j->in, NULL };
			char **argv = started & 1 ? decode : run;
			FILE *f;

			memcpy(buf, s->data, len);
			for (k = 0; k < nm; k++)
				mutate(buf, &len);
			j->idx = (int)started;
			snprintf(j->in, sizeof(j->in), "%s/in%ld.mmf", dir, started);
			snprintf(j->err, sizeof(j->err), "%s/err%ld", dir, started);
			f = fopen(j->in, "wb");
			if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
				printf("not ok 1 - cannot write %s\nnot ok 2\n", j->in);
				return 1;
			}
			posix_spawn_file_actions_init(&fa);
			posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
			posix_spawn_file_actions_addopen(&fa, 2, j->err, O_WRONLY | O_CREAT | O_TRUNC,
							 0644);
			if (posix_spawn(&j->pid, bin, &fa, NULL, argv, environ)) {
				printf("not ok 1 - cannot run %s\nnot ok 2\n", bin);
				return 1;
			}
			posix_spawn_file_actions_destroy(&fa);
			started++;
			running++;
		}
		{
			int status, rc;
			pid_t pid = wait(&status);

			if (pid < 0 && errno == EINTR)
				continue;
			for (i = 0; i < running && job[i].pid != pid; i++)
				;
			if (i == running)
				continue;
			rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
			if (rc <= 2 && !has_report(job[i].err)) {
				count[rc]++;
				if (rc == 2 && !first_line_names(job[i].err, job[i].in)) {
					unnamed++;
					if (unnamed <= 5)
						printf("# input %d: exit 2 without the file's name first\n",
						       job[i].idx);
				}
			} else {
				char keep[4300];

				bad++;
				snprintf(keep, sizeof(keep), "%s/prop-fail-%d.mmf", build, job[i].idx);
				rename(job[i].in, keep);
				printf("# input %d: exit %d, kept as %s; its stderr:\n", job[i].idx, rc,
				       keep);
				{
					FILE *f = fopen(job[i].err, "r");
					char line[512];
					int k = 0;

					while (f && k++ < 8 && fgets(line, sizeof(line), f))
						printf("#   %s", line);
					if (f)
						fclose(f);
				}
			}
			unlink(job[i].in);
			unlink(job[i].err);
			job[i] = job[--running];
			done++;
		}
	}
	rmdir(dir);
	printf("%sok 1 - %ld mutated corpus programs run or decoded: exit 0 %ld, 1 %ld, 2 %ld, "
	       "anything else %ld "
	       "(%ld s, %ld at once)\n", bad ? "not " : "", total, count[0], count[1], count[2], bad,
	       (long)(time(NULL) - t0), jobs);
	printf("%sok 2 - every exit 2 says the file's name first (%ld did not)\n",
	       unnamed ? "not " : "", unnamed);
	return bad || unnamed;
}

/* SPDX-License-Identifier: MIT */
/* A tiny TAP producer for the C tests: prove reads what it prints. */
#ifndef MMFUZZ_TESTS_TAP_H
#define MMFUZZ_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

__attribute__((format(printf, 2, 3)))
static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

/* A comment for prove; a message of several lines stays a comment. */
__attribute__((format(printf, 1, 2)))
static inline void diag(const char *fmt, ...)
{
	char buf[4096], *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("# ");
	for (p = buf; *p; p++) {
		putchar(*p);
		if (*p == '\n')
			printf("# ");
	}
	printf("\n");
}

#define is_int(a, b, name) ({							\
	long long __a = (a), __b = (b);						\
	int __r = ok(__a == __b, "%s", name);					\
	if (!__r)								\
		diag("  got %lld, expected %lld", __a, __b);			\
	__r; })

/* A test's input file, whole and NUL-terminated (its length in @len when
 * not NULL), or NULL. */
static inline char *tap_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = n < 0 ? NULL : malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (len)
		*len = (size_t)n;
	return buf;
}

/* Run fn(arg) in a child with its stdout and stderr in @buf (NUL-terminated,
 * cut at @len - 1): its exit status, or 128 + the signal that ended it. */
static inline int tap_in_child(int (*fn)(void *), void *arg, char *buf, size_t len)
{
	int fds[2], status = 0;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		exit(fn(arg));	/* exit, not _exit: TSan sets the status at exit */
	}
	close(fds[1]);
	while (got < len - 1 && (n = read(fds[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static inline int tap_done(void)
{
	if (tap_n == 0)
		printf("1..0\n");
	return tap_failed ? 1 : 0;
}

#endif /* MMFUZZ_TESTS_TAP_H */

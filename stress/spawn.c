// SPDX-License-Identifier: MIT
/*
 * Scaling and compare run every measurement as a child "mmfuzz stress"
 * and read its stdout, the way runtest.py runs the testcase binaries: each
 * run gets a fresh world and fresh lock statistics, and what is parsed is
 * exactly what a will-it-scale tool would see.  The child's stderr (the
 * sanitizer warning, an Assertion line) passes through.
 */
#include "stress.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int stress_spawn(char *const argv[], struct stress_child_out *res)
{
	posix_spawn_file_actions_t fa;
	char self[4096];
	size_t len = 0, cap = 8192;
	int fd[2], st, err;
	pid_t pid;
	ssize_t k;

	memset(res, 0, sizeof(*res));
	k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k <= 0)
		return -1;
	self[k] = 0;
	if (pipe(fd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	posix_spawn_file_actions_addclose(&fa, fd[1]);
	err = posix_spawn(&pid, self, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (err) {
		fprintf(stderr, "mmfuzz stress: cannot run myself: %s\n", strerror(err));
		close(fd[0]);
		return -1;
	}
	res->text = malloc(cap);
	while (res->text) {
		if (len + 1 >= cap) {
			char *t = realloc(res->text, cap * 2);

			if (!t) {
				free(res->text);
				res->text = NULL;
				break;
			}
			res->text = t;
			cap *= 2;
		}
		k = read(fd[0], res->text + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		len += (size_t)k;
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!res->text)
		return -1;
	res->text[len] = 0;
	res->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

/* The value of "@key:" on a line of its own in @text, or -1. */
double stress_output_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtod(p + n + 1, NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

volatile int stress_parent_interrupted;

static void parent_sigint(int sig)
{
	(void)sig;
	stress_parent_interrupted = 1;
}

void stress_parent_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = parent_sigint;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

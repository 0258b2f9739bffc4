// SPDX-License-Identifier: MIT
/*
 * mmfuzz stress --variant NAME finds its config key by the value's name
 * among the enumerated tune keys (config_variant_lookup), so two such keys
 * may not share a name: this binary adds a tune key one of whose values
 * is the page allocator's locked_rr, and the registry stops the tool at
 * start naming both keys and the name.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "../src/mm/config.h"

static const char *const dup_names[] = { "some_other", "locked_rr" };
static struct config_key dup_variant_key = {
	.name = "dup_variant_key", .layer = "test", .desc = "a value named as a pcp variant",
	.lo = 0, .hi = 1, .names = dup_names, .bin_off = 250, .bin_len = 1, .tune = true,
};
CONFIG_KEY(dup_variant_key);

int main(void)
{
	static const char want[] = "mmfuzz: registry of config keys: config keys variant and "
				   "dup_variant_key both have the value locked_rr (--variant "
				   "finds a key by its value's name)";
	char msg[512];
	int fd[2], status;
	ssize_t got;
	pid_t pid;

	tap_plan(1);
	fflush(stdout);
	if (pipe(fd))
		return 1;
	pid = fork();
	if (!pid) {
		dup2(fd[1], 2);
		close(fd[0]);
		config_init();
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], msg, sizeof(msg) - 1);
	msg[got > 0 ? got : 0] = 0;
	msg[strcspn(msg, "\n")] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && !strcmp(msg, want),
	   "a value name in two tune keys stops the tool: %s", msg);
	return tap_failed ? 1 : 0;
}

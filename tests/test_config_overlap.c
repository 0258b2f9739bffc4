// SPDX-License-Identifier: MIT
/*
 * The config registry refuses two keys whose binary places overlap, by
 * name, at start: this binary adds a key on byte 21, the second byte of
 * tlb_single_page_flush_ceiling (20+2), a place neither key's name
 * collides on.  Two branches that each take the next free byte agree on
 * it; merged, the tool must stop before a binary file means two values.
 * (tests/test_registry_dup.c cannot hold it: its second pcp_high stops the
 * same registry first.)
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "../src/world/config.h"

static struct config_key overlap_key = {
	.name = "overlap_key", .layer = "test", .desc = "on the TLB ceiling's second byte",
	.lo = 0, .hi = 1, .bin_off = 21, .bin_len = 1,
};
CONFIG_KEY(overlap_key);

int main(void)
{
	static const char want[] = "mmfuzz: registry of config keys: config keys "
				   "tlb_single_page_flush_ceiling (bytes 20..21) and overlap_key "
				   "(bytes 21..21) overlap in the binary config block";
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
	   "two keys on one binary byte stop the tool: %s", msg);
	return tap_failed ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * The tool's own registries refuse a duplicate at start: this binary adds,
 * in sections the whole archive also fills, a bug switch on a bit the TLB
 * layer has, a second world layer named "pagealloc", a config key named
 * "pcp_high" and a stress-free operation on the code of alloc_pages (0x00).
 * Each registry, first used in a child, stops it with a message naming
 * both entries (or the one registered twice).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "../src/bugs/bugs.h"
#include "../src/world/layer.h"
#include "../src/prog/prog.h"

static const struct bug_info dup_switch = {
	.bit = 13, .name = "dup_switch", .layer = "test", .where = "nowhere",
	.caught_by = "nothing", .desc = "a switch on tlb_pending_leak's bit",
};
BUG_SWITCH(dup_switch);

static struct world_layer dup_layer = { .name = "pagealloc", .order = 500 };
WORLD_LAYER(dup_layer);

static struct config_key dup_key = {
	.name = "pcp_high", .layer = "test", .desc = "a second pcp_high",
	.lo = 0, .hi = 1, .bin_off = 43, .bin_len = 1,
};
CONFIG_KEY(dup_key);

static void do_nothing(struct op_ctx *c)
{
	(void)c;
}

static struct op_desc dup_op = {
	OP_NAME("dup_op"), .code = 0x00, .layer = "pagealloc", .desc = "on alloc_pages' code",
	.exec = do_nothing,
};
OP_DESC(dup_op);

/* @fn() in a child: true if it aborted with @want on stderr. */
static bool stops(void (*fn)(void), const char *want, char *msg, size_t len)
{
	int fd[2], status;
	ssize_t got;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd))
		return false;
	pid = fork();
	if (!pid) {
		dup2(fd[1], 2);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], msg, len - 1);
	msg[got > 0 ? got : 0] = 0;
	msg[strcspn(msg, "\n")] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(msg, want);
}

static void use_bugs(void)
{
	bug_lookup("tlb_pending_leak");
}

static void use_layers(void)
{
	layers_init();
}

static void use_config(void)
{
	config_init();
}

static void use_ops(void)
{
	ops_init();
}

int main(void)
{
	char msg[512];

	tap_plan(4);
	ok(stops(use_bugs, "bug switches tlb_pending_leak and dup_switch have the same bit", msg,
		 sizeof(msg)) ||
	   stops(use_bugs, "bug switches dup_switch and tlb_pending_leak have the same bit", msg,
		 sizeof(msg)), "two switches of one bit: %s", msg);
	ok(stops(use_layers, "registry of world layers: world layer pagealloc registered twice",
		 msg, sizeof(msg)), "two world layers of one name: %s", msg);
	ok(stops(use_config, "registry of config keys: config key pcp_high registered twice",
		 msg, sizeof(msg)), "two config keys of one name: %s", msg);
	ok(stops(use_ops, "operations alloc_pages and dup_op have the same code", msg,
		 sizeof(msg)) ||
	   stops(use_ops, "operations dup_op and alloc_pages have the same code", msg,
		 sizeof(msg)), "two operations of one code: %s", msg);
	return tap_failed ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The registry of bug switches: historical variants from the seed threads
 * and classes of concurrency bugs, each switched on at run time
 * (--inject NAME, or "bugs:" in a program) and each caught by a checker.
 *
 * A layer declares its switches' bits in its own header
 * (enum { BUG_TLB_PENDING_LEAK = 13, ... }) and registers each with
 * BUG_SWITCH() in its own file, where the switch bites.  A bit is the
 * switch's forever, like an operation's code: corpus files store the
 * switches as bits of the binary header.  Two switches of one bit or of
 * one name, or a bit past 63, stop the tool at start.
 */
#ifndef MMFUZZ_BUGS_BUGS_H
#define MMFUZZ_BUGS_BUGS_H

#include <stdbool.h>
#include <stdint.h>

#include "../sched/registry.h"

#define BUGS_MAX	64		/* the bits of the header's switches */

struct bug_info {
	int bit;			/* the layer's BUG_* constant: fixed forever */
	const char *name;
	const char *layer;		/* "pcp", "buddy", "vmstat", ... */
	const char *where;		/* the model function it bites in */
	const char *caught_by;		/* the checker that should report it */
	const char *desc;
};

/* Register @sw, a static struct bug_info in the layer's file. */
#define BUG_SWITCH(sw)								\
	REGISTER(mmfuzz_bugs, const struct bug_info *, __bugp_##sw, &(sw))

extern uint64_t bugs_enabled;		/* bitmask of the switches' bits */

static inline bool bug_on(int bit)
{
	return __builtin_expect((bugs_enabled >> bit) & 1, 0);
}

/* The registered switches, by bit. */
int bugs_count(void);
const struct bug_info *bug_by_index(int i);
/* The switch of @bit, or NULL; its name, or NULL. */
const struct bug_info *bug_by_bit(int bit);
const char *bug_name(int bit);
/* The bits some switch has: what a decoded header keeps. */
uint64_t bugs_known(void);
/* Look a switch up by name: its bit, or -1 if there is none. */
int bug_lookup(const char *name);

#endif /* MMFUZZ_BUGS_BUGS_H */

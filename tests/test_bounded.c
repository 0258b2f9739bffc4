// SPDX-License-Identifier: MIT
/*
 * Bounded everywhere: a loop in the end-of-run drain is a livelock report
 * with the trace, not a hang.  A test-only world layer, registered from this
 * file as a layer's own would be, spins in its drain (a count that never
 * reaches its list's length, as a broken free_pcppages_bulk would) when
 * told to; the run must end with livelock@ at its loop, within the step
 * bound, and the minimizer on it must end too.
 */
#include <string.h>

#include "kernel/preempt.h"
#include "prog/exec.h"
#include "tap.h"

static bool spin;

static void spin_drain(struct world *w)
{
	(void)w;
	while (__atomic_load_n(&spin, __ATOMIC_RELAXED))
		loop_point("test_drain");
}

static struct world_layer spin_layer = {
	.name = "test_spin", .order = 500, .drain = spin_drain,
};
WORLD_LAYER(spin_layer);

int main(void)
{
	static const char text[] =
		"mmfuzz 1\n"
		"task T0 cpu=0\n"
		"  h0 = alloc_pages order=0 mt=movable\n"
		"task T1 cpu=1\n"
		"  drain_local\n";
	struct exec *e = exec_create();
	struct run_opts o = { 0 };
	struct run_result r;
	struct min_stats st;
	struct prog p;
	char err[256];

	tap_plan(5);
	if (!ok(!prog_parse_text(text, "t", &p, err, sizeof(err)), "the program parses"))
		diag("%s", err);
	exec_run(e, &p, &o, &r);
	ok(r.outcome == RUN_CLEAN, "a layer whose drain ends: clean");
	spin = true;
	o.max_steps = 5000;
	exec_run(e, &p, &o, &r);
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.signature, "livelock@spin_drain"),
	   "a drain that never ends: %s after %llu steps (bound 5000)",
	   r.outcome == RUN_VIOLATION ? r.v.signature : "clean", (unsigned long long)r.steps);
	ok(strstr(r.v.yield, "test_drain") != NULL, "reported at its loop (%s)", r.v.yield);
	ok(!prog_minimize_budget(e, &p, &o, 200, 30, &st) && !strcmp(st.signature, "livelock@spin_drain"),
	   "and minimize ends on it: %d ops, %d runs", st.ops, st.runs);
	spin = false;
	exec_destroy(e);
	return tap_done();
}

/* SPDX-License-Identifier: MIT */
/*
 * The executor: runs a program on a world under a schedule, with the
 * checkers, and says what happened.  One executor owns one scheduler (its
 * fiber pool) and one world, rebuilt only when the config changes and reset
 * between runs.
 */
#ifndef MMFUZZ_PROG_EXEC_H
#define MMFUZZ_PROG_EXEC_H

#include "prog.h"

enum sched_override {
	SCHED_FROM_INPUT,	/* the program's decisions, then its fallback */
	SCHED_PCT,
	SCHED_RANDOM,
	SCHED_RR,
};

struct run_opts {
	enum sched_override sched;
	int depth;			/* PCT depth for SCHED_PCT */
	uint64_t seed;			/* SCHED_PCT / SCHED_RANDOM */
	uint64_t inject;		/* bug switches on top of the program's */
	uint64_t max_steps;		/* livelock bound; 0: the default */
	enum sched_record rec;
	trace_fn trace;
	bool sequential;		/* no scheduler: every op in program order */
	bool no_quiescent;		/* skip the quiescent checks (bench only) */
	bool ring;			/* keep the recent events from the start (a
					 * violation replays the run to get them anyway) */
};

enum run_outcome { RUN_CLEAN, RUN_VIOLATION };

struct run_result {
	enum run_outcome outcome;
	struct violation v;
	uint64_t trace_hash;
	uint64_t steps;
	unsigned long switches;
	int ops_run;
	int ndec_fired;			/* input decisions that fired (REC_INPUT) */
	int ntasks;			/* the program's tasks and the kernel
					 * threads the run started */
};

struct exec;

struct exec *exec_create(void);
void exec_destroy(struct exec *e);
int exec_run(struct exec *e, const struct prog *p, const struct run_opts *o,
	     struct run_result *r);
/* The executor's world cache (its hit counts). */
const struct world_cache *exec_worlds(const struct exec *e);
/* Keep at most @n worlds (1..WORLD_CACHE_SLOTS; the tests: a new shape
 * builds its world in the memory of the last one). */
void exec_set_world_slots(struct exec *e, int n);
/* The scheduler of the last run (traces, recorded decisions). */
const struct fsched *exec_sched(const struct exec *e);
/* Replace the step decisions of @p by the keys they fired at, from the
 * recording of the last run (REC_INPUT) or every non-default choice
 * (REC_ALL, then the fallback is cleared). */
void exec_keyed_decisions(const struct exec *e, struct prog *p, bool all);
/* The step form of @p's keyed decisions, from the recording of a run of
 * them (REC_INPUT): what encode writes. */
void exec_step_decisions(const struct exec *e, struct prog *p);

/*
 * The program as text, with decisions keyed to yield points: step decisions
 * are replayed once to name them, and a schedule override's choices become
 * explicit decisions.  With @outcome, "expect:" says what happened.  The
 * caller frees it.
 */
char *exec_program_text(struct exec *e, const struct prog *p, const struct run_opts *o,
			const struct run_result *outcome);

/* ---- minimize.c ---- */

struct min_stats {
	int ops_before, ops;
	int tasks_before, tasks;
	int preemptions;		/* decisions that preempt a runnable task: the bug depth */
	int decisions;
	int runs;
	bool out_of_time;		/* the time budget ended it: the best so far */
	char signature[128];
};

/*
 * Shrink a failing program while it keeps failing with the same signature:
 * its schedule first becomes explicit decisions (every choice the default
 * policy would not make, fallback none), then tasks, operations,
 * decisions and the header's mms are dropped and arguments and the config
 * shrunk until nothing more goes.  Returns 0 with @p minimized, or -1 if @p runs clean.
 */
int prog_minimize(struct exec *e, struct prog *p, const struct run_opts *o, int max_runs,
		  struct min_stats *st);
/* The same within @seconds of wall clock (0: no limit): when they are up,
 * the program is the smallest found so far (each run is bounded by the
 * step bound, so a candidate cannot hang it). */
int prog_minimize_budget(struct exec *e, struct prog *p, const struct run_opts *o, int max_runs,
			 unsigned seconds, struct min_stats *st);

#endif /* MMFUZZ_PROG_EXEC_H */

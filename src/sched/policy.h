/* SPDX-License-Identifier: MIT */
/* The scheduler's policies (policy.c) and deadlock reports (deadlock.c),
 * for sched.c and run.c only; and the task fibers' body, sched.c's, that
 * run.c's pool creates them with. */
#ifndef MMFUZZ_SCHED_POLICY_H
#define MMFUZZ_SCHED_POLICY_H

#include "sched.h"

#define STEP_NEVER	UINT64_MAX

/* May @t run now: its CPU allows it and it is not blocked. */
bool sched_task_runnable(const struct fsched *fs, const struct task *t);
/* The task to run next after @cur (NULL at the start), -1 if none can. */
int sched_choose(struct fsched *fs, struct task *cur);
/* The step at which the fast path must next consult sched_choose. */
void sched_update_next_event(struct fsched *fs);
void sched_pct_start(struct fsched *fs, int depth, uint64_t seed, uint64_t base);
/* The input's decisions ran out: PCT seeded from the input goes on. */
void sched_fallback_begin(struct fsched *fs);

/* deadlock.c: nobody can run */
/* A kthread waiting for work, or one bound to a CPU taken down. */
bool idle_kthread(const struct task *t);
/* Every task left is an idle kthread: stop them all and return the first
 * that can run; -1 if some task is not one (a deadlock) or none is left. */
int stop_idle_kthreads(struct fsched *fs);
/* The wait-for cycle through @from, as a "deadlock" violation. */
__attribute__((noreturn)) void report_deadlock(struct fsched *fs, struct task *from);
/* The same from a task that is not an idle kthread, if there is one. */
__attribute__((noreturn)) void report_deadlock_any(struct fsched *fs);

/* sched.c: a task fiber's body (fiber_create's), parked at P between runs */
void task_worker(void *arg);

#endif /* MMFUZZ_SCHED_POLICY_H */

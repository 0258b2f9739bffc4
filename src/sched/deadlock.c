// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler's deadlock reports: when no task
 * can run, walk the wait-for edges (a lock's owner, the task that has the
 * CPU, a wait condition's holder) and name the cycle; or, when every task
 * left is a kthread waiting for work, stop them (kthread_stop) and go on.
 *
 * Called from sched.c's slow step on a task fiber, so like it everything
 * here is __sched_notsan (the scheduler's bookkeeping is shared by all
 * fibers without happens-before: fuzz-ecosystem.md section 1).
 */
#include "sched.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a task that cannot run waits for: the holder of its lock, or the
 * task that has its CPU; NULL when nothing (it could run). */
static __sched_notsan struct task *waits_for(struct fsched *fs, struct task *t, char *what,
					      size_t n)
{
	struct sched_cpu *c = &fs->cpu[t->cpu];
	struct task *o;

	if (t->state == TASK_BLOCKED && t->wait) {
		o = sched_peek(t->wait->owner);
		snprintf(what, n, "%s", t->wait->name);
		if (o)
			return o;
	} else if (t->state == TASK_BLOCKED && t->wcond) {
		snprintf(what, n, "%s", t->wcond->name);
		if (!t->wcond->cond(t->wcond->arg))
			return t->wcond->holder ? t->wcond->holder(t->wcond->arg) : NULL;
	}
	o = c->irq_task ? c->irq_task : c->preempt_owner;
	snprintf(what, n, "cpu");
	return o == t ? NULL : o;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static __sched_notsan void describe_wait(struct fsched *fs, const struct task *t, char *buf,
					 size_t n)
{
	if (t->state == TASK_BLOCKED && t->wait && t->wait->idx >= 0)
		snprintf(buf, n, "%s[%d]", t->wait->name, t->wait->idx);
	else if (t->state == TASK_BLOCKED && t->wait)
		snprintf(buf, n, "%s", t->wait->name);
	else if (t->state == TASK_BLOCKED && t->wcond)
		snprintf(buf, n, "%s", t->wcond->name);
	else
		snprintf(buf, n, "cpu%d", t->cpu);
	(void)fs;
}

/*
 * Every task is blocked: walk the wait-for edges from @from until a task
 * repeats (a cycle) or the chain ends at a holder that exited.  The signature
 * names the kinds of resource on the cycle, sorted: "deadlock@cpu+pcp->lock".
 */
__sched_notsan __attribute__((noreturn)) void report_deadlock(struct fsched *fs, struct task *from)
{
	char msg[900], kinds[MAX_TASKS + 1][48], sig[128];
	struct task *chain[MAX_TASKS + 1], *t = from;
	int n = 0, i, cyc = 0, nk = 0;
	size_t len = 0;

	while (t && t->state != TASK_DONE && n < MAX_TASKS) {
		for (i = 0; i < n; i++)
			if (chain[i] == t)
				break;
		if (i < n) {
			cyc = i;
			break;
		}
		chain[n++] = t;
		t = waits_for(fs, t, kinds[n - 1], sizeof(kinds[0]));
	}
	msg[0] = 0;
	for (i = cyc; i < n; i++) {
		struct task *o = i + 1 < n ? chain[i + 1] : t;
		char res[64];

		describe_wait(fs, chain[i], res, sizeof(res));
		len += (size_t)snprintf(len < sizeof(msg) ? msg + len : NULL,
					len < sizeof(msg) ? sizeof(msg) - len : 0,
					"%s%s%s on cpu%d waits for %s held by %s%s",
					i > cyc ? "; " : "", chain[i]->irq_active ? "irq " : "",
					chain[i]->name, chain[i]->cpu, res,
					o ? o->name : "nobody",
					o && o->state == TASK_DONE ? " (exited)" : "");
		memmove(kinds[nk++], kinds[i], sizeof(kinds[0]));
	}
	qsort(kinds, (size_t)nk, sizeof(kinds[0]), cmp_str);
	len = 0;
	sig[0] = 0;
	for (i = 0; i < nk; i++)
		if (!i || strcmp(kinds[i], kinds[i - 1]))
			len += (size_t)snprintf(len < sizeof(sig) ? sig + len : NULL,
						len < sizeof(sig) ? sizeof(sig) - len : 0,
						"%s%s", len ? "+" : "", kinds[i]);
	sched_violation("deadlock", sig, "%s", msg);
}

/* A kthread waiting for work, or one bound to a CPU taken down (its work
 * there was flushed before it went: it can only be stopped). */
__sched_notsan bool idle_kthread(const struct task *t)
{
	return t->kfn && t->state != TASK_DONE &&
	       ((t->state == TASK_BLOCKED && t->wcond && t->wcond->idle) ||
		!fsched_cpu_online(t->fs, t->cpu));
}

/* Start from a task that is not an idle kthread if there is one. */
__sched_notsan __attribute__((noreturn)) void report_deadlock_any(struct fsched *fs)
{
	int i;

	for (i = 0; i < fs->ntasks; i++)
		if (fs->task[i].state != TASK_DONE && !idle_kthread(&fs->task[i]))
			report_deadlock(fs, &fs->task[i]);
	for (i = 0; i < fs->ntasks; i++)
		if (fs->task[i].state != TASK_DONE)
			report_deadlock(fs, &fs->task[i]);
	abort();
}

/*
 * Nobody can run.  If every task left is a kthread waiting for work, the
 * run is over: kthread_stop() them all (each returns from its wait and
 * exits; one on a CPU taken down finishes on the first online CPU) and
 * pick the first.  -1 otherwise: a deadlock, or nothing left at all.
 */
__sched_notsan int stop_idle_kthreads(struct fsched *fs)
{
	int i, n = 0, first_online = 0;

	for (i = 0; i < fs->ntasks; i++) {
		if (fs->task[i].state == TASK_DONE)
			continue;
		if (!idle_kthread(&fs->task[i]))
			return -1;
		n++;
	}
	if (!n)
		return -1;
	fs->kthread_stop = true;
	while (first_online < fs->ncpus - 1 && !fsched_cpu_online(fs, first_online))
		first_online++;
	for (i = 0; i < fs->ntasks; i++) {
		struct task *u = &fs->task[i];

		if (u->state != TASK_DONE && !fsched_cpu_online(fs, u->cpu))
			fsched_move_task(fs, u, first_online);
	}
	for (i = 0; i < fs->ntasks; i++)
		if (sched_task_runnable(fs, &fs->task[i]))
			return i;
	return -1;
}

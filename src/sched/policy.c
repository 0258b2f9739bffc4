// SPDX-License-Identifier: MIT
/*
 * The scheduler's choice at a yield point: who may run (CPU ownership, locks
 * held), and the policies: decisions from the input (by step, or keyed to a
 * named yield site), PCT with depth d (Burckhardt et al.), seeded random,
 * round-robin; when the input's decisions run out, PCT seeded from the input
 * takes over.  Recording turns a run's choices into decisions.
 *
 * Runs on task fibers: __sched_notsan like the rest of the scheduler.
 */
#include "policy.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* who may run                                                         */

static __sched_notsan bool cpu_allows(const struct fsched *fs, const struct task *t)
{
	const struct sched_cpu *c = &fs->cpu[t->cpu];
	const struct task *owner = c->preempt_owner;

	if (!fsched_cpu_online(fs, t->cpu))
		return false;		/* an offline CPU runs nothing */
	if (c->irq_task)
		return c->irq_task == t;
	if (!owner || owner == t)
		return true;
	/* an interrupt may come in while the owner only has preemption off */
	return t->irq_ctx && !t->irq_active && owner->irq_depth == 0;
}

__sched_notsan bool sched_task_runnable(const struct fsched *fs, const struct task *t)
{
	if (t->state == TASK_DONE || t->state == TASK_IDLE)
		return false;
	if (t->state == TASK_BLOCKED) {
		if (t->wait && sched_peek(t->wait->owner))
			return false;
		if (t->wcond && !(t->wcond->idle && fs->kthread_stop) &&
		    !t->wcond->cond(t->wcond->arg))
			return false;
	}
	return cpu_allows(fs, t);
}

/* Continue the current task if it can, else the next runnable after it. */
static __sched_notsan int default_pick(const struct fsched *fs, const struct task *cur)
{
	int i, n = fs->ntasks, start = cur ? cur->id : n - 1;

	if (cur && sched_task_runnable(fs, cur))
		return cur->id;
	for (i = 1; i <= n; i++) {
		const struct task *t = &fs->task[(start + i) % n];

		if (sched_task_runnable(fs, t))
			return t->id;
	}
	return -1;
}

static __sched_notsan int rr_pick(const struct fsched *fs, const struct task *cur)
{
	int i, n = fs->ntasks, start = cur ? cur->id : n - 1;

	for (i = 1; i <= n; i++) {
		const struct task *t = &fs->task[(start + i) % n];

		if (sched_task_runnable(fs, t))
			return t->id;
	}
	return -1;
}

static __sched_notsan int random_pick(struct fsched *fs)
{
	int ids[MAX_TASKS], n = 0, i;

	for (i = 0; i < fs->ntasks; i++)
		if (sched_task_runnable(fs, &fs->task[i]))
			ids[n++] = i;
	if (!n)
		return -1;
	return ids[rng_next(&fs->rng) % (uint64_t)n];
}

/* PCT (Burckhardt et al., ASPLOS 2010): run the highest-priority runnable
 * task; at change point i the running task drops to priority depth-i. */
__sched_notsan void sched_pct_start(struct fsched *fs, int depth, uint64_t seed, uint64_t base)
{
	int i, n = fs->ntasks, perm[MAX_TASKS];
	uint64_t k = fs->pol.horizon ? fs->pol.horizon : 1000;

	if (depth < 1)
		depth = 1;
	if (depth > PCT_MAX_DEPTH)
		depth = PCT_MAX_DEPTH;
	fs->rng = rng_seed(seed);
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		int j = (int)(rng_next(&fs->rng) % (uint64_t)(i + 1)), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (i = 0; i < n; i++)
		fs->prio[i] = depth + perm[i];
	fs->nchange = depth - 1;
	for (i = 0; i < fs->nchange; i++)
		fs->change[i] = 1 + rng_next(&fs->rng) % k;
	/* sort the change points */
	for (i = 1; i < fs->nchange; i++) {
		uint64_t x = fs->change[i];
		int j = i - 1;

		while (j >= 0 && fs->change[j] > x) {
			fs->change[j + 1] = fs->change[j];
			j--;
		}
		fs->change[j + 1] = x;
	}
	fs->next_change = 0;
	fs->fb_base = base;
}

static __sched_notsan int pct_pick(struct fsched *fs, struct task *cur)
{
	int i, best = -1;
	uint64_t rel = fs->step - fs->fb_base;

	while (cur && fs->next_change < fs->nchange && rel >= fs->change[fs->next_change]) {
		fs->next_change++;
		fs->prio[cur->id] = fs->nchange + 1 - fs->next_change;
	}
	for (i = 0; i < fs->ntasks; i++)
		if (sched_task_runnable(fs, &fs->task[i]) && (best < 0 || fs->prio[i] > fs->prio[best]))
			best = i;
	return best;
}

/* ------------------------------------------------------------------ */
/* decisions                                                           */

static __sched_notsan bool dec_missed(const struct fsched *fs, const struct sched_decision *d)
{
	const struct task *t;

	if (d->task < 0)
		return fs->step > 0;
	if (d->task >= MAX_TASKS)
		return true;
	if (d->task >= fs->ntasks)
		return false;	/* a kthread that has not started yet */
	t = &fs->task[d->task];
	if (t->state == TASK_DONE || t->op > d->op)
		return true;
	return t->op == d->op && t->occ[d->site] > d->occ;
}

static __sched_notsan bool dec_matches(const struct fsched *fs, const struct task *cur,
				       const struct sched_decision *d)
{
	if (!fs->pol.keyed)
		return fs->step >= fs->dec_base + d->step;
	if (d->task < 0)
		return fs->step == 0;
	return cur && d->task == cur->id && d->op == cur->op && cur->site &&
	       d->site == cur->site->id && d->occ == cur->occ[d->site];
}

/*
 * A decision's migration: the running task moves to another CPU, if it
 * could be preempted here (preemption and IRQs on, not in an interrupt)
 * and that CPU is online.  Dropped otherwise, the same way in every run.
 */
static __sched_notsan void dec_migrate(struct fsched *fs, struct task *cur,
				       const struct sched_decision *d)
{
	int cpu = d->mig - 1;

	if (!d->mig || !cur || cpu >= fs->ncpus || cpu == cur->cpu ||
	    !fsched_cpu_online(fs, cpu) || cur->state == TASK_DONE ||
	    cur->preempt_count || cur->irq_depth || cur->irq_active || cur->irq_ctx)
		return;
	fsched_move_task(fs, cur, cpu);
	fs->migrations++;
	fs->mig_fired = true;
	fs->hash = (fs->hash ^ (0x6d69u + (uint64_t)cpu)) * 0x100000001b3ULL;
}

static __sched_notsan void record(struct fsched *fs, const struct task *cur, int target)
{
	struct sched_decision *r;

	if (fs->nrec >= MAX_DECISIONS) {
		fs->rec_overflow = 1;
		return;
	}
	r = &fs->recd[fs->nrec++];
	memset(r, 0, sizeof(*r));
	r->step = fs->step;
	r->target = (short)target;
	r->mig = fs->mig_fired && cur ? (unsigned char)(cur->cpu + 1) : 0;
	if (!cur || fs->step == 0) {
		r->task = -1;
		return;
	}
	r->task = (short)cur->id;
	r->op = (short)cur->op;
	r->site = cur->site ? cur->site->id : 0;
	r->occ = cur->site ? cur->occ[cur->site->id] : 0;
}

/*
 * need_resched() at @s: the input's next decision, keyed to this task at
 * this site, sets it (recorded like a yield point's); nothing else does.
 */
__sched_notsan bool fsched_need_resched(struct task *t, const struct yield_site *s)
{
	struct fsched *fs = t->fs;
	const struct sched_decision *d;
	const struct yield_site *last = t->site;

	if (t->resched)
		return true;
	if (fs->pol.kind != POL_INPUT || fs->fallback || !fs->pol.keyed ||
	    fs->next_dec >= fs->pol.ndec)
		return false;
	/* this site's occurrences, as a yield point's (keyed runs are slow) */
	if (!t->occ[s->id]++)
		t->occ_touched[t->nocc_touched++] = s->id;
	d = &fs->pol.dec[fs->next_dec];
	if (d->task != t->id || d->op != t->op || d->site != s->id || d->occ != t->occ[s->id])
		return false;
	fs->next_dec++;
	t->resched = (short)(d->target + 1);
	fs->hash = (fs->hash ^ (s->hash + 0x6e72u + (uint64_t)t->id)) * 0x100000001b3ULL;
	if (fs->rec == REC_INPUT) {
		t->site = s;
		record(fs, t, d->target);
		t->site = last;
	}
	if (fs->next_dec >= fs->pol.ndec)
		sched_fallback_begin(fs);
	return true;
}

__sched_notsan void sched_fallback_begin(struct fsched *fs)
{
	fs->fallback = true;
	if (fs->pol.depth > 0) {
		sched_pct_start(fs, fs->pol.depth, fs->pol.seed, fs->step);
		/* PCT runs the highest-priority runnable task: an unblocked one
		 * may have to run at once.  The default policy never switches
		 * on that. */
		fs->resched_matters = true;
	}
}

/* The choice at the current step: the task that runs next, -1 if none can. */
__sched_notsan int sched_choose(struct fsched *fs, struct task *cur)
{
	int pick = -2;

	fs->mig_fired = false;
	if (fs->pol.kind == POL_INPUT && !fs->fallback) {
		/* a decision for this very step is never missed, even when its
		 * task is past it in every other way (at its exit it is done) */
		while (fs->next_dec < fs->pol.ndec && fs->pol.keyed &&
		       !dec_matches(fs, cur, &fs->pol.dec[fs->next_dec]) &&
		       dec_missed(fs, &fs->pol.dec[fs->next_dec]))
			fs->next_dec++;
		if (fs->next_dec < fs->pol.ndec) {
			const struct sched_decision *d = &fs->pol.dec[fs->next_dec];

			if (dec_matches(fs, cur, d)) {
				fs->next_dec++;
				fs->dec_base = fs->step + 1;
				dec_migrate(fs, cur, d);
				if (fs->rec == REC_INPUT)
					record(fs, cur, d->target);
				if (d->target >= 0 && d->target < fs->ntasks &&
				    sched_task_runnable(fs, &fs->task[d->target]))
					pick = d->target;
				else
					pick = default_pick(fs, cur);
				if (cur && pick != cur->id && sched_task_runnable(fs, cur))
					fs->preemptions++;
			}
		}
		if (fs->next_dec >= fs->pol.ndec)
			sched_fallback_begin(fs);
	}
	if (pick == -2) {
		switch (fs->pol.kind) {
		case POL_INPUT:
			pick = fs->fallback && fs->pol.depth > 0 ? pct_pick(fs, cur)
								 : default_pick(fs, cur);
			break;
		case POL_PCT:
			pick = pct_pick(fs, cur);
			break;
		case POL_RANDOM:
			pick = random_pick(fs);
			break;
		case POL_RR:
			pick = rr_pick(fs, cur);
			if (pick < 0)
				pick = default_pick(fs, cur);
			break;
		}
	}
	if (fs->rec == REC_ALL && pick >= 0 && (pick != default_pick(fs, cur) || fs->mig_fired))
		record(fs, cur, pick);
	return pick;
}

__sched_notsan void sched_update_next_event(struct fsched *fs)
{
	uint64_t ev = STEP_NEVER;

	if (fs->slow) {
		ev = fs->step + 1;
	} else if (fs->pol.kind == POL_INPUT && !fs->fallback) {
		if (fs->next_dec < fs->pol.ndec)
			ev = fs->dec_base + fs->pol.dec[fs->next_dec].step;
	} else if (fs->fallback || fs->pol.kind == POL_PCT) {
		if (fs->next_change < fs->nchange)
			ev = fs->fb_base + fs->change[fs->next_change];
		/* the step that began the fallback picked by the last decision:
		 * PCT's own first pick is the next step's, fast path or not */
		if (fs->fallback && fs->step == fs->fb_base && fs->pol.depth > 0)
			ev = fs->step + 1;
	}
	if (ev > fs->livelock_at)
		ev = fs->livelock_at;
	fs->next_event = ev;
	fs->need_resched = false;
}


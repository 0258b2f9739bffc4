// SPDX-License-Identifier: MIT
/*
 * decode and encode as programs (codec.h).  A text's keyed decision that
 * never fires changes nothing but the fallback's start (it holds it off
 * while pending), so dropping it and, if it was pending at the end,
 * setting the fallback to none keeps the run as it was; the step form
 * encode writes holds only what fired.
 */
#include "codec.h"

#include <string.h>

/* The bug switches every run here has on (prog_codec_inject). */
static uint64_t codec_inject;

void prog_codec_inject(uint64_t inject)
{
	codec_inject = inject;
}

/* One run on the program's own schedule, recording its decisions; which
 * of them fired (they fire in order: the next recorded one is this one,
 * or this one was passed by). */
static int run_recorded(struct exec *e, const struct prog *p, struct run_result *r, bool *fired)
{
	struct run_opts o = { .inject = codec_inject };
	const struct sched_decision *rec;
	int nrec, i, j = 0;

	o.rec = REC_INPUT;
	if (exec_run(e, p, &o, r))
		return -1;
	nrec = fsched_recorded(exec_sched(e), &rec);
	for (i = 0; i < p->ndec && fired; i++) {
		const struct sched_decision *d = &p->dec[i];
		bool hit;

		if (p->keyed)
			hit = j < nrec && d->task == rec[j].task && d->target == rec[j].target &&
			      (d->task < 0 || (d->op == rec[j].op && d->site == rec[j].site &&
					       d->occ == rec[j].occ));
		else
			hit = i < nrec;
		j += hit;
		fired[i] = hit;
	}
	return 0;
}

/*
 * The schedule of a text whose decisions did not all fire, as the run had
 * it.  One still pending at the end kept the fallback from ever starting:
 * fallback none says the same.  One passed by (its yield point never came
 * while it was next) held the fallback off until then: with a PCT fallback
 * that moves PCT's start, which no decision list can say, so the run's
 * every choice is made an explicit decision instead (fallback none), as
 * the minimizer does.  1 when the schedule was made explicit.
 */
static int canonical_schedule(struct exec *e, struct prog *p, struct run_result *r,
			      const bool *fired)
{
	struct run_opts o = { .inject = codec_inject };
	int i;

	for (i = 0; p->keyed && p->fallback_depth && i < r->ndec_fired && i < p->ndec; i++)
		if (!fired[i])
			break;
	if (p->keyed && p->fallback_depth && i < r->ndec_fired && i < p->ndec) {
		o.rec = REC_ALL;
		if (exec_run(e, p, &o, r))
			return -1;
		exec_keyed_decisions(e, p, true);
		return 1;
	}
	if (r->ndec_fired < p->ndec) {
		p->fallback_depth = 0;
		p->seed = 0;
	}
	/* what fired, as recorded: keyed to the yield points they fired at */
	if (p->ndec)
		exec_keyed_decisions(e, p, false);
	p->keyed = true;
	return 0;
}

int prog_decode_canonical(struct exec *e, struct prog *p, struct run_result *r, bool *fired)
{
	static bool own[PROG_MAX_DEC];
	int rc;

	if (!fired)
		fired = own;
	if (run_recorded(e, p, r, fired))
		return -1;
	rc = canonical_schedule(e, p, r, fired);
	if (rc < 0)
		return -1;
	p->expect = r->outcome == RUN_CLEAN ? EXPECT_CLEAN : EXPECT_VIOLATION;
	snprintf(p->expect_sig, sizeof(p->expect_sig), "%s",
		 r->outcome == RUN_CLEAN ? "" : r->v.signature);
	return rc;
}

long prog_encode_canonical(struct exec *e, struct prog *p, uint8_t *out, size_t cap,
			   struct run_result *r, bool *fired, int *bad)
{
	static bool own[PROG_MAX_DEC], all[PROG_MAX_DEC];
	int i;

	if (!fired)
		fired = own;
	if (p->keyed) {
		/* v3 holds a decision to a kernel thread as it is (v2 could
		 * not: it stored targets modulo the tasks); one at need_resched()
		 * it cannot: decisions are step counts, and need_resched() is a
		 * step only for a decision named at its site (kernel/preempt.h) */
		if (run_recorded(e, p, r, fired))
			return -1;
		for (i = 0; i < p->ndec; i++) {
			const struct yield_site *s = site_by_id(p->dec[i].site);

			if (fired[i] && s && s->type == YP_POINT && !strcmp(s->what, "need_resched")) {
				*bad = i;
				return -3;
			}
		}
		if (canonical_schedule(e, p, r, fired) < 0)
			return -1;
		/* the step counts, from a run of the keyed decisions */
		if (run_recorded(e, p, r, all))
			return -1;
		exec_step_decisions(e, p);
	}
	return prog_encode_binary(p, out, cap);
}

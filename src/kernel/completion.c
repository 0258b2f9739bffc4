// SPDX-License-Identifier: MIT
/* struct completion: see completion.h. */
#include "completion.h"

#include <sched.h>

void __complete(struct completion *x, bool all, const struct yield_site *s)
{
	struct task *t = current_task;

	yield_point(s);
	if (all) {
		__atomic_store_n(&x->done, UINT_MAX, __ATOMIC_RELEASE);
	} else {
		unsigned int d = __atomic_load_n(&x->done, __ATOMIC_RELAXED);

		/* complete_all() is for good; done never wraps into it */
		while (d != UINT_MAX && d != UINT_MAX - 1 &&
		       !__atomic_compare_exchange_n(&x->done, &d, d + 1, false, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED))
			;
	}
	fsched_wake(t);
}

static __sched_notsan bool completion_cond(void *arg)
{
	const struct completion *x = arg;

	return __atomic_load_n(&x->done, __ATOMIC_RELAXED) != 0;
}

/* Take one "done", or see complete_all()'s; false if there is none. */
static bool completion_take(struct completion *x)
{
	unsigned int d = __atomic_load_n(&x->done, __ATOMIC_ACQUIRE);

	while (d) {
		if (d == UINT_MAX)
			return true;
		if (__atomic_compare_exchange_n(&x->done, &d, d - 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE))
			return true;
	}
	return false;
}

void __wait_for_completion(struct completion *x, const struct yield_site *s, const char *fn)
{
	struct task *t = __cur_task(fn);
	struct sched_wait w = { completion_cond, x, x->name, NULL, false };

	if (unlikely(!preemptible_task(t)))
		sched_violation("might_sleep", fn, "wait_for_completion(%s) in atomic context",
				x->name);
	if (t->fs) {
		yield_point(s);
		while (!completion_take(x))
			fsched_wait(t, &w, s);
	} else {
		while (!completion_take(x))
			sched_yield();
	}
}

bool try_wait_for_completion(struct completion *x)
{
	return completion_take(x);
}

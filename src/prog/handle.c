// SPDX-License-Identifier: MIT
/*
 * The run's handle table (handle.h): the executor's store of what the
 * program holds, every kind in one table, observed by the checkers through
 * the kind's hooks.
 */
#include "handle.h"

#include "../sched/sched.h"

struct handle {
	const struct handle_kind *kind;
	void *obj;
	unsigned long aux;
	int name;			/* N of hN in the text form */
	bool live;
};

static struct {
	struct handle h[PROG_MAX_HANDLES];
	int nlive;
	short live[PROG_MAX_HANDLES];	/* the live handles, in no order */
	short live_at[PROG_MAX_HANDLES];	/* each live handle's place in live[] */
} ht;

/* The harness's bookkeeping, shared by the task fibers: not the model. */
static __sched_notsan void live_add(int h)
{
	int n = __atomic_fetch_add(&ht.nlive, 1, __ATOMIC_RELAXED);

	tsan_ignore_begin();
	ht.live[n] = (short)h;
	ht.live_at[h] = (short)n;
	tsan_ignore_end();
}

static __sched_notsan void live_del(int h)
{
	int n = __atomic_sub_fetch(&ht.nlive, 1, __ATOMIC_RELAXED), at;

	tsan_ignore_begin();
	at = ht.live_at[h];
	ht.live[at] = ht.live[n];
	ht.live_at[ht.live[n]] = (short)at;
	tsan_ignore_end();
}

__sched_notsan void handle_run_end(void)
{
	while (ht.nlive) {
		struct handle *x = &ht.h[ht.live[--ht.nlive]];

		if (x->kind->forget)
			x->kind->forget(ht.live[ht.nlive], x->obj, x->aux);
		*x = (struct handle){ 0 };
	}
}

__sched_notsan void handle_run_begin(void)
{
	handle_run_end();
}

void handle_set(int h, int name, const struct handle_kind *k, void *obj, unsigned long aux)
{
	struct handle *x = &ht.h[h];

	if (k->taken)
		k->taken(h, name, obj, aux);
	x->kind = k;
	x->obj = obj;
	x->aux = aux;
	x->name = name;
	__atomic_store_n(&x->live, true, __ATOMIC_RELAXED);
	live_add(h);
#if MMFUZZ_TSAN
	__tsan_release(x);
#endif
}

void *handle_get(int h, const struct handle_kind *k, unsigned long *aux)
{
	struct handle *x;

	if (h < 0 || h >= PROG_MAX_HANDLES)
		return NULL;
	x = &ht.h[h];
	if (!__atomic_load_n(&x->live, __ATOMIC_RELAXED))
		return NULL;
#if MMFUZZ_TSAN
	__tsan_acquire(x);
#endif
	if (x->kind != k)
		return NULL;
	if (aux)
		*aux = x->aux;
	return x->obj;
}

__sched_notsan void *handle_peek(int h, const struct handle_kind *k, unsigned long *aux)
{
	struct handle *x;
	void *obj = NULL;

	if (h < 0 || h >= PROG_MAX_HANDLES)
		return NULL;
	x = &ht.h[h];
	tsan_ignore_begin();
	if (__atomic_load_n(&x->live, __ATOMIC_RELAXED) && x->kind == k) {
		if (aux)
			*aux = x->aux;
		obj = x->obj;
	}
	tsan_ignore_end();
	return obj;
}

void handle_drop(int h)
{
	struct handle *x = &ht.h[h];

	if (x->kind->released)
		x->kind->released(h, x->name, x->obj, x->aux);
	__atomic_store_n(&x->live, false, __ATOMIC_RELAXED);
	live_del(h);
}

__sched_notsan void handle_moved(const struct handle_kind *k, void *from, void *to)
{
	int i, n = __atomic_load_n(&ht.nlive, __ATOMIC_RELAXED), h = -1;

	tsan_ignore_begin();
	for (i = 0; i < n && h < 0; i++)
		if (ht.h[ht.live[i]].kind == k && ht.h[ht.live[i]].obj == from)
			h = ht.live[i];
	tsan_ignore_end();
	if (k->moved)
		k->moved(h, from, to, h < 0 ? 0 : ht.h[h].aux);
	if (h >= 0)
		ht.h[h].obj = to;
}

__sched_notsan int handle_live_of(const struct handle_kind *k, int from, struct handle_view *out,
				  int cap, int *next)
{
	int i, n = 0, nlive = __atomic_load_n(&ht.nlive, __ATOMIC_RELAXED);

	tsan_ignore_begin();
	for (i = from; i < nlive && n < cap; i++) {
		int h = ht.live[i];
		const struct handle *x = &ht.h[h];

		if (__atomic_load_n(&x->live, __ATOMIC_RELAXED) && x->kind == k) {
			out[n].h = h;
			out[n].obj = x->obj;
			out[n].aux = x->aux;
			out[n].name = x->name;
			n++;
		}
	}
	tsan_ignore_end();
	*next = i;
	return n;
}

int handle_name(int h)
{
	return ht.h[h].name;
}

int handle_live_count(void)
{
	return __atomic_load_n(&ht.nlive, __ATOMIC_RELAXED);
}

__sched_notsan int handle_live_at(int i)
{
	int h;

	tsan_ignore_begin();
	h = ht.live[i];
	tsan_ignore_end();
	return h;
}

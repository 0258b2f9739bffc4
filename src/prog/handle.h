/* SPDX-License-Identifier: MIT */
/*
 * The run's handle table: what the program holds, one typed table for
 * every layer.  A handle is numbered by the run (its defining op's index,
 * op_handle_self()) and holds a kind, an object (a struct page, an mm, a
 * layer's own record), an auxiliary word (a page block's order, a range's
 * length) and its N of hN in the text form.  The executor keeps it; the
 * checkers observe it through the kind's hooks (struct handle_kind: taken,
 * released, moved, forget), so that a layer with objects that are not pages
 * stores them here and its checker sees them the same way.
 *
 * Shared by the task fibers without happens-before, like the checkers'
 * bookkeeping: relaxed atomics, and under TSan the hand-off of a handle from
 * the op that set it to the one that uses it is a release/acquire.
 */
#ifndef MMFUZZ_PROG_HANDLE_H
#define MMFUZZ_PROG_HANDLE_H

#include "ops.h"
#include "prog.h"

/* handles are numbered by op index */
#define PROG_MAX_HANDLES	PROG_MAX_OPS

/* A new run: every handle of the last one is forgotten (kind->forget of
 * those still live: a violation ended it), none is live. */
void handle_run_begin(void);
/* The run is over: kind->forget of every handle still live. */
void handle_run_end(void);
/* Handle @h (op_handle_self) now holds @obj of kind @k; N of hN @name;
 * kind->taken observes it. */
void handle_set(int h, int name, const struct handle_kind *k, void *obj, unsigned long aux);
/* The object of live handle @h of kind @k (and its aux word), or NULL. */
void *handle_get(int h, const struct handle_kind *k, unsigned long *aux);
/* handle_get for a checker's look (the shadow's owner source): no
 * hand-off, so no TSan acquire that would order what the program did not. */
void *handle_peek(int h, const struct handle_kind *k, unsigned long *aux);
/* kind->released observes it; @h is no longer live (the caller gives the
 * object back to the model). */
void handle_drop(int h);
/* The model moved the object a live handle of @k holds from @from to @to
 * (migration): the handle follows, kind->moved observes it (with -1 when no
 * live handle of @k holds @from: the observer says what that means). */
void handle_moved(const struct handle_kind *k, void *from, void *to);
/* N of hN of live handle @h. */
int handle_name(int h);
int handle_live_count(void);
/* The @i'th live handle (0 <= i < handle_live_count()), in no order. */
int handle_live_at(int i);
/* What a checker sees of a live handle (handle_live_of). */
struct handle_view {
	int h;
	void *obj;
	unsigned long aux;
	int name;
};
/* The live handles of kind @k from the @from'th live handle on, in
 * handle_live_at's order, into @out (at most @cap), and where to go on
 * (handle_live_count() once all were looked at) in *@next; the count.  A
 * checker's look, as handle_peek's: one call for what handle_live_at and
 * handle_peek give a handle at a time. */
int handle_live_of(const struct handle_kind *k, int from, struct handle_view *out, int cap,
		   int *next);

#endif /* MMFUZZ_PROG_HANDLE_H */

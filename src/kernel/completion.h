/* SPDX-License-Identifier: MIT */
/*
 * struct completion (include/linux/completion.h, kernel/sched/completion.c):
 * complete() wakes one waiter, complete_all() every waiter for good, and
 * wait_for_completion() sleeps until done is non-zero.
 *
 * Fiber mode: complete() and wait_for_completion() are yield points; the
 * waiter blocks on the condition "done != 0" (the deadlock report says what
 * it waits for).  Real mode: the waiter spins with sched_yield().  done is
 * an atomic with release (complete) and acquire (the waiter), which is the
 * happens-before a completion gives, for TSan too.
 *
 * Lock order: none (the kernel's x->wait.lock is internal and not modelled).
 */
#ifndef MMFUZZ_KERNEL_COMPLETION_H
#define MMFUZZ_KERNEL_COMPLETION_H

#include <limits.h>
#include <stdbool.h>

#include "preempt.h"

struct completion {
	unsigned int done;		/* atomic; UINT_MAX after complete_all() */
	const char *name;		/* for the deadlock report */
};

#define COMPLETION_INITIALIZER(name)	{ 0, #name }

static inline void init_completion_named(struct completion *x, const char *name)
{
	__atomic_store_n(&x->done, 0, __ATOMIC_RELAXED);
	while (*name == '&')
		name++;
	x->name = name;
}
#define init_completion(x)	init_completion_named((x), #x)

static inline void reinit_completion(struct completion *x)
{
	__atomic_store_n(&x->done, 0, __ATOMIC_RELAXED);
}

void __complete(struct completion *x, bool all, const struct yield_site *s);
void __wait_for_completion(struct completion *x, const struct yield_site *s, const char *fn);
bool try_wait_for_completion(struct completion *x);

static inline bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) != 0;
}

#define complete(x)		__complete((x), false, YIELD_SITE(YP_COMPLETE, #x))
#define complete_all(x)		__complete((x), true, YIELD_SITE(YP_COMPLETE, #x))
#define wait_for_completion(x)	\
	__wait_for_completion((x), YIELD_SITE(YP_WAIT_COMPLETION, #x), __func__)

#endif /* MMFUZZ_KERNEL_COMPLETION_H */

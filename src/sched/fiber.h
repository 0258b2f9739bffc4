/* SPDX-License-Identifier: MIT */
/*
 * Cooperative fibers on one OS thread.  On x86-64 a switch saves the six
 * callee-saved registers and the stack pointer (fiber_x86_64.S), with no
 * system call: swapcontext() pays a sigprocmask per switch.  Elsewhere the
 * ucontext fallback is used.
 *
 * Sanitizer protocol (reference/fuzz-ecosystem.md section 1):
 *  - ASan: __sanitizer_start_switch_fiber before, __sanitizer_finish_switch_fiber
 *    after every switch; a NULL fake-stack slot on a fiber's last exit.
 *  - TSan: __tsan_switch_to_fiber in the same function as the switch,
 *    no_sync for ordinary switches so a switch adds no happens-before, sync
 *    (flags 0) for a fiber's first entry and its final exit.
 */
#ifndef MMFUZZ_SCHED_FIBER_H
#define MMFUZZ_SCHED_FIBER_H

#include <stdbool.h>
#include <stddef.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

struct fiber {
	void *sp;			/* saved stack pointer (x86-64 switch) */
#if !defined(__x86_64__)
	ucontext_t uc;
#endif
	void *stack;			/* NULL for the thread's own (main) fiber */
	size_t stack_size;
	void *tsan;			/* TSan fiber handle */
	void *asan_fake;		/* ASan fake-stack save slot */
	const void *asan_bottom;	/* stack bounds, learned for the main fiber */
	size_t asan_size;
	void (*entry)(void *arg);
	void *arg;
	const char *name;
};

/* Adopt the calling thread as a fiber (the scheduler's side). */
void fiber_init_main(struct fiber *main);
/* Create a fiber that will run entry(arg) on its own stack; 0 or -errno. */
int fiber_create(struct fiber *f, size_t stack_size, void (*entry)(void *), void *arg,
		 const char *name);
/* Throw away the fiber's context and give it a fresh one at entry (after a
 * run was abandoned mid-operation).  The stack is reused. */
void fiber_reset(struct fiber *f);
void fiber_destroy(struct fiber *f);

/*
 * Switch from the running fiber @from to @to.  @sync makes the switch a
 * happens-before edge for TSan; @last says @from never runs again from here
 * (its ASan fake stack is released).
 */
void fiber_switch(struct fiber *from, struct fiber *to, bool sync, bool last);

#endif /* MMFUZZ_SCHED_FIBER_H */

/* SPDX-License-Identifier: MIT */
/*
 * The one form of a call from the model to the harness (the checkers, the
 * fuzzer's feature sink), in the shape of the kernel's kasan.h / kmsan.h:
 * the model names a point where something outside it may want to look, and
 * when nothing is attached the point costs one predictable branch on a
 * pointer that stays NULL.
 *
 * Each layer declares in its public header a struct of function pointers,
 * one per hook, with a comment on each saying when it runs and what its
 * arguments are, and one instance of it:
 *
 *	struct pagealloc_hooks {
 *		void (*page_moved)(struct page *from, struct page *to);
 *		...
 *	};
 *	DECLARE_HOOKS(pagealloc);
 *
 * (DEFINE_HOOKS(pagealloc) in one of the layer's .c files.)  The model
 * calls a hook with
 *
 *	HOOK(pagealloc, page_moved, from, to);
 *
 * which does nothing when the hook is not attached and evaluates its
 * arguments only when it is: an argument may be a computation (a state's
 * bucket) that the plain build never pays for.  HOOK_ATTACHED(layer, hook)
 * is kasan_enabled()'s part, for the rare point that must prepare more
 * than an argument list.
 *
 * Whoever attaches fills the members at attach (a checker's attach(), the
 * fuzz harness at its initialisation); several attachers may fill
 * different members of one layer's struct.  Nothing in the model ever
 * writes them.
 *
 * The arrows stay as DESIGN.md section 2 draws them: the struct is the
 * model's, declared with the model's types; src/check and fuzz/ include the
 * model's header to fill it; the model never includes theirs.  A hook reads
 * model state and changes none of it, and a hook is not a yield point: it
 * must not take a lock of the model, nor use READ_ONCE and the other
 * accessors that yield (kernel/compiler.h), so that a run's steps and trace
 * are the same with the hook attached or not.
 */
#ifndef MMFUZZ_KERNEL_HOOKS_H
#define MMFUZZ_KERNEL_HOOKS_H

#include <stddef.h>

#define DECLARE_HOOKS(layer)	extern struct layer##_hooks layer##_hooks
#define DEFINE_HOOKS(layer)	struct layer##_hooks layer##_hooks

#define HOOK_ATTACHED(layer, hook)	__builtin_expect(layer##_hooks.hook != NULL, 0)

#define HOOK(layer, hook, ...) do {						\
	if (HOOK_ATTACHED(layer, hook))						\
		layer##_hooks.hook(__VA_ARGS__);				\
} while (0)

/*
 * The kernel primitives' own hooks (DEFINE_HOOKS in locking.c): state as
 * coverage (src/check/state.c; the fuzz builds attach it).
 * state_cpuhp: CPU hotplug runs @cpu's callback of @state (@bringup: up);
 * state_pcpu: percpu_counter_add_batch made this CPU's count @count
 *   against @batch (before a fold when it reached the batch).
 */
struct percpu_counter;
struct kernel_hooks {
	void (*state_cpuhp)(unsigned int cpu, int state, _Bool bringup);
	void (*state_pcpu)(const struct percpu_counter *fbc, long long count, int batch);
};
DECLARE_HOOKS(kernel);

#endif /* MMFUZZ_KERNEL_HOOKS_H */

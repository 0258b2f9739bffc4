// SPDX-License-Identifier: MIT
/*
 * The stress mode's RCU: liburcu's urcu-memb flavour behind the model's
 * rcu_read_lock(), synchronize_rcu(), call_rcu() and rcu_barrier() on real
 * threads (src/kernel/rcu_real.h).  The runner registers every task thread
 * (stress_rcu_thread_online/offline).  call_rcu's callbacks run on
 * liburcu's helper thread, as a task of its own for the model (the
 * callback takes the model's locks and per-CPU data), on the CPU the
 * runner gives it: one no task runs on when there is one, as an rcuo
 * kthread of a nocb CPU runs on a housekeeping CPU (two threads acting as
 * one CPU without its exclusion would race on its per-CPU data and take
 * its cross-CPU calls twice).
 *
 * TSan cannot see liburcu's publication and grace periods (inline asm,
 * an uninstrumented library): the model marks them itself (rcu.c:
 * rcu_gp_sync, the callback heads); what liburcu does inside
 * urcu_common_wake_up_gp and urcu_memb_barrier is suppressed
 * (fuzz-ecosystem.md 5.2, snippets/urcu.supp).
 */
#include <string.h>

#include <urcu/urcu-memb.h>

#include "../src/kernel/rcu_real.h"
#include "../src/sched/sched.h"

_Static_assert(sizeof(struct rcu_head) <= RCU_REAL_HEAD_SPACE,
	       "liburcu's rcu_head fits the model's head");

static void (*model_invoke)(void *head);
#if MMFUZZ_TSAN
static char barrier_sync;		/* TSan: a callback's end -> rcu_barrier() */
#endif
static __thread struct task cb_task;	/* liburcu's callback thread, to the model */
static int cb_cpu;			/* its CPU, set before the tasks start */

static void urcu_read_lock(void)
{
	urcu_memb_read_lock();
}

static void urcu_read_unlock(void)
{
	urcu_memb_read_unlock();
}

static void urcu_synchronize(void)
{
	urcu_memb_synchronize_rcu();
}

static void urcu_trampoline(struct rcu_head *h)
{
	struct task *saved = current_task;

	if (!saved) {
		if (!cb_task.name) {
			cb_task.id = -2;
			cb_task.name = "call_rcu";
		}
		cb_task.cpu = __atomic_load_n(&cb_cpu, __ATOMIC_RELAXED);
		current_task = &cb_task;
	}
	__atomic_load_n(&model_invoke, __ATOMIC_ACQUIRE)(h);
#if MMFUZZ_TSAN
	__tsan_release(&barrier_sync);
#endif
	current_task = saved;
}

static void urcu_call(void *head, void (*invoke)(void *head))
{
	__atomic_store_n(&model_invoke, invoke, __ATOMIC_RELEASE);
	urcu_memb_call_rcu((struct rcu_head *)head, urcu_trampoline);
}

static void urcu_do_barrier(void)
{
	urcu_memb_barrier();
#if MMFUZZ_TSAN
	__tsan_acquire(&barrier_sync);
#endif
}

static void urcu_register(void)
{
	urcu_memb_register_thread();
}

static void urcu_unregister(void)
{
	urcu_memb_unregister_thread();
}

static const struct rcu_real_ops urcu_ops = {
	.read_lock = urcu_read_lock,
	.read_unlock = urcu_read_unlock,
	.synchronize = urcu_synchronize,
	.call = urcu_call,
	.do_barrier = urcu_do_barrier,
	.register_thread = urcu_register,
	.unregister_thread = urcu_unregister,
};

void stress_rcu_install(int cpu);
void stress_rcu_install(int cpu)
{
	__atomic_store_n(&cb_cpu, cpu, __ATOMIC_RELAXED);
	rcu_set_real_ops(&urcu_ops);
}

#if MMFUZZ_TSAN
/* liburcu's own synchronisation, invisible to TSan */
const char *__tsan_default_suppressions(void);
const char *__tsan_default_suppressions(void)
{
	return "race:urcu_common_wake_up_gp\n"
	       "race:urcu_memb_barrier\n";
}
#endif

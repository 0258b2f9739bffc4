/* SPDX-License-Identifier: MIT */
/*
 * Tasks, simulated CPUs, typed yield points and the deterministic scheduler.
 *
 * Two ways to run a task:
 *  - fiber mode (t->fs != NULL): every task is a fiber of one OS thread and a
 *    schedule picks, at each yield point, which task runs next.  Same input,
 *    same interleaving, same trace hash, in every build.
 *  - real mode (t->fs == NULL): a task is a pthread (stress mode) or the
 *    calling thread (sequential runs, end-of-run drains); yield points cost
 *    a load and a branch, locks are real spinlocks.
 *
 * A yield site is static, named "function:type(what)" (e.g.
 * "rmqueue_bulk:spin_lock(zone->lock)"), so schedules name the places they
 * switch at instead of raw step counts.
 */
#ifndef MMFUZZ_SCHED_SCHED_H
#define MMFUZZ_SCHED_SCHED_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "fiber.h"
#include "registry.h"
#include "ilv.h"
#include "san.h"

/* Program tasks (at most 8, the binary format's) and kernel threads after
 * them: the RCU grace-period thread, one IPI handler per CPU, ... */
#define MAX_TASKS	24
#define MAX_CPUS	8
#define MAX_HELD	16	/* locks one task may hold at once */
#define TRACE_RING	32	/* recent events kept per task for reports */
#define MAX_DECISIONS	4096
#define PCT_MAX_DEPTH	8

enum yield_type {
	YP_OP,			/* operation boundary (or task exit) */
	YP_SPIN_LOCK,
	YP_SPIN_TRYLOCK,
	YP_SPIN_UNLOCK,
	YP_MUTEX_LOCK,
	YP_MUTEX_UNLOCK,
	YP_ATOMIC,
	YP_CMPXCHG,
	YP_PREEMPT,		/* preempt_enable() back to preemptible */
	YP_IRQ,			/* local_irq_restore() back to IRQs on */
	YP_POINT,		/* explicit preemption point */
	YP_LOOP,		/* a loop that may spin: livelock bound */
	/* the kernel's other primitives (src/kernel/) */
	YP_KTHREAD,		/* a kernel thread starts or begins a work item */
	YP_COMPLETE,		/* complete(), complete_all() */
	YP_WAIT_COMPLETION,	/* wait_for_completion() */
	YP_DOWN_READ,
	YP_DOWN_WRITE,
	YP_DOWN_TRYLOCK,	/* down_read_trylock(), down_write_trylock() */
	YP_UP_READ,
	YP_UP_WRITE,
	YP_DOWNGRADE_WRITE,
	YP_LOCAL_LOCK,		/* local_lock(), local_lock_irqsave() */
	YP_LOCAL_UNLOCK,
	YP_CMPXCHG_DOUBLE,	/* cmpxchg_double(), this_cpu_cmpxchg_double() */
	YP_BIT_SPIN_LOCK,
	YP_BIT_SPIN_UNLOCK,
	YP_IPI_SEND,		/* smp_call_function_many() and its callers */
	YP_IPI,			/* an IPI handler runs on its CPU */
	YP_RCU_READ_LOCK,
	YP_RCU_READ_UNLOCK,
	YP_SYNCHRONIZE_RCU,
	YP_CALL_RCU,		/* call_rcu(), rcu_barrier() */
	YP_RCU_GP,		/* the grace-period kthread: a GP begins or ends */
	YP_CPUHP,		/* cpu_down(), cpu_up() and their callbacks */
	YP_RACY_READ,		/* READ_ONCE, atomic_read, data_race() (kernel/compiler.h) */
	YP_RACY_WRITE,		/* WRITE_ONCE, atomic_set */
	NR_YIELD_TYPES
};

struct yield_site {
	const char *func;
	const char *what;
	unsigned char type;
	/* filled by sites_init() */
	unsigned short id;
	uint64_t hash;
	const char *name;
};

#define __YS_SECTION __registry(mmfuzz_ysites)

/* A static yield site at this place in the code. */
#define YIELD_SITE(type, what) ({						\
	static struct yield_site __ys = { __func__, what, type, 0, 0, 0 };	\
	static struct yield_site *__ysp __YS_SECTION = &__ys;			\
	(void)__ysp;								\
	&__ys; })

void sites_init(void);
unsigned sites_count(void);
const struct yield_site *site_by_id(unsigned id);
const struct yield_site *site_lookup(const char *name);
const char *yield_type_name(enum yield_type t);

/* The minimal owner record every model lock embeds, so the scheduler can
 * block on it and follow wait-for edges. */
struct sched_lock {
	struct task *owner;		/* atomic */
	const char *name;		/* "zone->lock": its lockdep class too */
	int idx;			/* instance (cpu, zone), -1 if none */
	bool sleeping;			/* mutex: holder may be preempted */
	unsigned char lockdep_class;	/* lockdep.c: 0 until first seen */
	unsigned char tsan;		/* told TSan it is a mutex: SL_TSAN_* */
};
#define SL_TSAN_NONE	0		/* local_lock, bit spinlock: not a TSan mutex */
#define SL_TSAN_MUTEX	1		/* spinlock_t, struct mutex */
#define SL_TSAN_RWSEM	2		/* held for reading unless owner */

struct trace_ev {
	uint64_t step;
	unsigned short site;
	signed char cpu;
	signed char switched_to;	/* -1 if no switch */
	short op;
};

enum task_state { TASK_IDLE, TASK_RUNNABLE, TASK_BLOCKED, TASK_DONE };

/* Where a task's fiber is, between runs (see task_worker). */
enum task_phase { PH_IDLE, PH_BARRIER, PH_READY, PH_RUNNING, PH_EXITED };

struct fsched;

/* What a task blocked on a condition waits for (fsched_wait). */
struct sched_wait {
	bool (*cond)(void *arg);	/* true: it may go on (__sched_notsan) */
	void *arg;
	const char *name;		/* "completion", "rwsem mmap_lock", ... */
	struct task *(*holder)(void *arg);	/* who it waits for, if known */
	bool idle;			/* a kthread waiting for work: the run may
					 * end while it waits (kthread_stop) */
};

typedef void (*kthread_fn)(struct task *t, void *arg);

struct task {
	int id;
	int cpu;			/* simulated CPU it runs on */
	const char *name;		/* "T0".., or the kthread's ("rcu_gp") */
	int preempt_count;		/* model preemption depth */
	int irq_depth;			/* local_irq_save nesting */
	bool irq_ctx;			/* current op runs in interrupt context */
	bool irq_active;		/* ... and has entered it */
	unsigned int irq_epoch_seen;	/* TSan: its CPU's irq_epoch when it last ran */
	int nheld;
	struct sched_lock *held[MAX_HELD];
	/* lockdep (src/kernel/lockdep.c): where each held lock was taken */
	const char *held_fn[MAX_HELD];
	const struct yield_site *held_site[MAX_HELD];
	bool held_try[MAX_HELD];	/* taken by a trylock */
	/* RCU read side (non-preemptible RCU, src/kernel/rcu.c) */
	int rcu_nesting;
	uint64_t rcu_sec_step;		/* rcu_clock() at the outermost rcu_read_lock */
	int op;				/* index of the current operation */
	const struct yield_site *site;	/* last yield site */
	/* TIF_NEED_RESCHED: the task + 1 a decision at a need_resched()
	 * site wants to run at this task's next cond_resched(), else 0 */
	short resched;

	/* fiber mode */
	struct fsched *fs;
	struct fiber fiber;
	enum task_state state;
	enum task_phase phase;
	struct sched_lock *wait;	/* lock it is blocked on, or */
	const struct sched_wait *wcond;	/* the condition it is blocked on */
	/* a kernel thread: its own body instead of the program's operations */
	kthread_fn kfn;
	void *karg;
	struct fiber *ret_fiber;	/* where its fiber parks (the scheduler's) */
	unsigned int *occ;		/* per-site occurrences in this op (a livelock
					 * passes a site far more than 65535 times) */
	unsigned short *occ_touched;
	unsigned nocc_touched;
	struct trace_ev ring[TRACE_RING];
	unsigned ring_n;

	/* real mode */
	jmp_buf *exit_jb;		/* where a violation unwinds to */
	void *user;			/* the executor's per-task state */
};

/* The task running on this OS thread (fiber or pthread), NULL outside. */
extern __thread struct task *current_task;

/* ---- schedules ---- */

enum sched_kind {
	POL_INPUT,		/* decisions from the input, then fallback */
	POL_PCT,		/* PCT from the start */
	POL_RANDOM,		/* uniform random runnable task at every point */
	POL_RR,		/* round-robin at every point */
};

/*
 * A decision: when it fires, switch to @target (if runnable).  It fires at
 * an absolute step (binary form), or at a key: task @task reaches site @site
 * for the @occ-th time within its operation @op (text form).  @task == -1
 * is the start of the run (step 0).
 */
struct sched_decision {
	uint64_t step;
	short task;
	short op;
	unsigned short site;
	unsigned int occ;
	short target;
	/*
	 * Migration: 0 none, else cpu + 1.  Before the switch the running task
	 * moves to that CPU, if it may be preempted there and the CPU is
	 * online (else the move is dropped, the same way in every replay):
	 * the kernel migrating a preempted task.  Per-CPU data it reaches
	 * after that is the new CPU's.
	 */
	unsigned char mig;
};

struct sched_policy {
	enum sched_kind kind;
	int depth;			/* PCT depth; for INPUT the fallback (0: none) */
	uint64_t seed;
	uint64_t horizon;		/* PCT's estimate of the number of steps */
	const struct sched_decision *dec;
	int ndec;
	bool keyed;			/* decisions are keyed, not by step */
};

enum sched_record {
	REC_NONE,
	REC_INPUT,			/* record input decisions as they fire */
	REC_ALL,			/* record every choice the default would not make */
};

struct sched_cpu {
	struct task *preempt_owner;	/* task with preemption or IRQs off here */
	struct task *irq_task;		/* task running in interrupt context here */
	char ctx_sync;			/* TSan: a context switch here orders the tasks
					 * that run on this CPU (sched.c cpu_leave) */
	char tsan_sync;			/* TSan: one non-preemptible section on this
					 * CPU happens-before the next */
	unsigned int irq_epoch;		/* TSan: interrupts that ended here */
};

typedef void (*task_body_fn)(struct task *t, void *arg);
typedef void (*trace_fn)(struct fsched *fs, const struct task *t,
			 const struct yield_site *s, int switched_to);

struct fsched {
	struct fiber main;
	int ntasks, ncpus;
	struct task task[MAX_TASKS];
	struct sched_cpu cpu[MAX_CPUS];
	struct task *cur;

	uint64_t step;
	uint64_t max_steps;		/* the livelock bound: steps without progress */
	uint64_t livelock_at;		/* the last progress (an op began or a task
					 * ended) + max_steps + 1 */
	uint64_t next_event;		/* the fast path leaves at this step */
	bool need_resched;		/* a blocked task may have become runnable */
	bool resched_matters;		/* the policy may then switch (PCT) */
	unsigned short last_site;	/* the previous step's site (coverage) */
	/* tasks switched out inside an operation, and where (coverage) */
	unsigned int parked_mask;
	unsigned short parked_site[MAX_TASKS];
	int nblocked;			/* tasks blocked on a lock */
	unsigned char cpu_ntasks[MAX_CPUS];	/* tasks whose CPU it is */
	int nprog;			/* program tasks: ids 0..nprog-1, kthreads after */
	bool kthread_stop;		/* nothing but idle kthreads left: they exit */
	unsigned int cpu_offline;	/* bit per CPU taken down (cpu_down) */
	/*
	 * CPUs that must still pass a quiescent state (nobody holds them:
	 * no task there has preemption or IRQs off) for the RCU grace period
	 * in progress; bits clear as it happens (fsched_cpu_update).
	 */
	unsigned int qs_need;
	/* a task waits in stop_machine() for every online CPU to be free:
	 * under PCT, freeing any CPU may let it run */
	int stop_waiters;
	unsigned long migrations;	/* decisions that moved a task */
	bool mig_fired;			/* this step's decision moved a task */
	bool slow;			/* every step takes the slow path */
	bool ring;			/* keep each task's recent events (forces slow);
					 * off when fuzzing: a report replays the run */
	uint64_t hash;
	unsigned long switches;
	unsigned long preemptions;	/* input decisions that switched away from a
					 * task that could have gone on */

	struct sched_policy pol;
	int next_dec;			/* first pending decision */
	uint64_t dec_base;		/* step of the last fired (step form) */
	bool fallback;			/* decisions ran out: fallback policy */
	uint64_t fb_base;		/* step the fallback/PCT started at */
	int prio[MAX_TASKS];
	uint64_t change[PCT_MAX_DEPTH];
	int nchange, next_change;
	uint64_t rng;

	enum sched_record rec;
	struct sched_decision *recd;
	int nrec, rec_overflow;

	trace_fn trace;
	task_body_fn body;
	void *body_arg;
	int next_task;			/* chosen by a finishing task, for main */
	struct task *violator;		/* the task that ended the run, if any */
	bool aborting;
	bool running;
};

/* ---- violations (checkers, lockdep, deadlock, livelock) ---- */

struct violation {
	bool hit;
	char checker[48];
	char site[64];
	char signature[128];
	char msg[1024];
	int task;			/* -1: not in a task */
	int op;
	uint64_t step;
	char yield[128];		/* name of the task's last yield site */
};

extern struct violation g_violation;
void violation_reset(void);

/*
 * Report a violation and end the run: on a fiber it switches back to the
 * scheduler for good; in real mode it longjmps to current_task->exit_jb, or
 * aborts when there is none.  The signature is "checker@site".
 */
__attribute__((noreturn, format(printf, 3, 4)))
void sched_violation(const char *checker, const char *site, const char *fmt, ...);

/* ---- the scheduler ---- */

__attribute__((noreturn)) void sched_internal_error(const struct task *t);

struct fsched *fsched_create(int ntasks_max);
void fsched_destroy(struct fsched *fs);
struct task_init {
	int cpu;			/* the CPU it starts on */
	bool irq;			/* its first operation runs in interrupt context */
};

/*
 * Run @ntasks tasks on @ncpus CPUs under @pol.  Returns 0 when every task
 * finished, 1 on a violation (see g_violation).
 */
int fsched_run(struct fsched *fs, int ntasks, int ncpus, const struct task_init *init,
	       const struct sched_policy *pol, task_body_fn body, void *arg);

/* Yield: the fast path inline, the rest in sched.c. */
void fsched_step_slow(struct fsched *fs, struct task *t, const struct yield_site *s);
void fsched_yield_out(struct task *t, const struct yield_site *s);

static inline void fsched_ring(struct task *t, uint64_t step, const struct yield_site *s)
{
	struct trace_ev *e = &t->ring[t->ring_n++ % TRACE_RING];

	e->step = step;
	e->site = s->id;
	e->cpu = (signed char)t->cpu;
	e->switched_to = -1;
	e->op = (short)t->op;
}

/* The interleaving coverage of one step (ilv.h): the edge from the previous
 * step's site, and this site against where each parked task waits. */
void fsched_ilv_pairs(struct fsched *fs, unsigned site);
static inline __sched_notsan void fsched_ilv_step(struct fsched *fs, const struct yield_site *s)
{
	ilv_edge(fs->last_site, s->id, false);
	fs->last_site = s->id;
	if (fs->parked_mask && ilv_pairs)
		fsched_ilv_pairs(fs, s->id);
}

#if MMFUZZ_TSAN
/* Under TSan the bookkeeping must stay uninstrumented: call out of line. */
static inline void yield_point(const struct yield_site *s)
{
	struct task *t = current_task;

	if (t && t->fs)
		fsched_yield_out(t, s);
}
#else
static inline void yield_point(const struct yield_site *s)
{
	struct task *t = current_task;
	struct fsched *fs;
	uint64_t step;

	if (!t || !(fs = t->fs))
		return;
	step = ++fs->step;
	fs->hash = (fs->hash ^ (s->hash + (uint64_t)t->id)) * 0x100000001b3ULL;
	t->site = s;
	if (unlikely(ilv_enabled))
		fsched_ilv_step(fs, s);
	if (unlikely(step >= fs->next_event || fs->need_resched))
		fsched_step_slow(fs, t, s);
}
#endif

/*
 * need_resched() at site @s (fiber mode): true when the input's next keyed
 * decision is this task's at @s (its op and occurrence), as a tick would
 * set TIF_NEED_RESCHED there, or an earlier one is still pending.  Not a
 * step: without such a decision nothing of the run changes (no step, no
 * trace event, no hash), so no other policy ever sets it.  The decision's
 * target runs at the task's next cond_resched().
 */
bool fsched_need_resched(struct task *t, const struct yield_site *s);
/* cond_resched() with need_resched set: one step at @s, and the switch to
 * the target its decision named (if it can run; else the task goes on). */
void fsched_cond_resched(struct task *t, const struct yield_site *s);

/* Block the current fiber task on @l until it is free (caller re-checks). */
void fsched_block_on(struct task *t, struct sched_lock *l, const struct yield_site *s);
/*
 * Block the current fiber task until w->cond(w->arg) holds: one step; the
 * caller re-checks (while (!cond) fsched_wait(...)).  The deadlock report
 * follows w->holder.  Whoever makes a condition true calls fsched_wake().
 */
void fsched_wait(struct task *t, const struct sched_wait *w, const struct yield_site *s);

/* ---- kernel threads ---- */

/*
 * Start a kernel thread: a task running fn(t, arg) instead of operations,
 * on @cpu (in interrupt context when @irq: it runs only where an interrupt
 * may come in), with the next free id: kthreads take the ids after the
 * program's tasks, in the order they start, so schedules key them like
 * program tasks.  From a run hook (the start of a run) or from a running
 * task (an operation starting it).  NULL when MAX_TASKS are taken.
 */
struct task *fsched_kthread_run(struct fsched *fs, kthread_fn fn, void *arg, const char *name,
				int cpu, bool irq);
/* Task slots still free for kthreads this run. */
static inline int fsched_tasks_left(const struct fsched *fs)
{
	return MAX_TASKS - fs->ntasks;
}
/* A kthread begins its next work item: "op" k+1 of its keys, a yield point. */
void kthread_op_begin(struct task *t, const struct yield_site *s);
/* The program ended and only idle kthreads remain: they must return. */
static inline bool kthread_should_stop(const struct task *t)
{
	return t->fs && __atomic_load_n(&t->fs->kthread_stop, __ATOMIC_RELAXED);
}

/*
 * Called at the start of every run, before any task runs, with the
 * machine's CPUs all online: the kernel's per-run state (RCU, IPI queues,
 * hotplug) resets itself there and may start kthreads.  Registered once
 * (constructors); at most 8.
 */
typedef void (*fsched_run_hook)(struct fsched *fs);
void fsched_register_run_hook(fsched_run_hook fn);

/* ---- CPUs going down and up (src/kernel/cpu.c) ---- */

static inline bool fsched_cpu_online(const struct fsched *fs, int cpu)
{
	return !(fs->cpu_offline & (1u << cpu));
}
/* Mark @cpu online or offline (it must have no task then). */
void fsched_cpu_set_online(struct fsched *fs, int cpu, bool online);
/* TSan: stop_machine()'s order of every CPU's past before its work
 * (@enter) and of its work before what runs after (!@enter) */
void fsched_stop_machine_sync(struct fsched *fs, bool enter);
/* Move task @u (not running, preemptible or done) to @cpu. */
void fsched_move_task(struct fsched *fs, struct task *u, int cpu);
/* Whether some task has preemption or IRQs off on @cpu. */
static inline bool fsched_cpu_held(const struct fsched *fs, int cpu)
{
	return fs->cpu[cpu].preempt_owner || fs->cpu[cpu].irq_task;
}
/* A grace period begins: every online CPU held now must pass a quiescent
 * state; the others already are in one. */
void fsched_qs_begin(struct fsched *fs);
/* A woken waiter may now run (the policy may switch to it at once). */
static inline void fsched_wake(struct task *t);
/* Preemption / IRQ state changed on t's CPU: recompute who may run there. */
void fsched_cpu_update_out(struct task *t);
/*
 * Whether t's CPU becoming free (IRQs back on with preemption still off when
 * irq_only, else preemption back on) may change PCT's next pick: a task of
 * that CPU, in interrupt context when irq_only (the only ones cpu_allows()
 * then lets in), that outranks t.  The running task was the highest-priority
 * runnable one when it was picked; a task of lower priority becoming runnable
 * changes nothing, and the fast path goes on as the slow path would.
 */
static inline __sched_notsan bool fsched_cpu_rival(const struct fsched *fs,
						    const struct task *t, bool irq_only)
{
	int i;

	for (i = 0; i < fs->ntasks; i++) {
		const struct task *u = &fs->task[i];

		if (u != t && u->cpu == t->cpu && u->state != TASK_DONE &&
		    u->state != TASK_IDLE && fs->prio[i] >= fs->prio[t->id] &&
		    (!irq_only || (u->irq_ctx && !u->irq_active)))
			return true;
	}
	return false;
}

static inline __sched_notsan void fsched_cpu_update(struct task *t)
{
	struct fsched *fs = t->fs;
	struct sched_cpu *c;

	if (!fs || t->irq_active)
		return;
	c = &fs->cpu[t->cpu];
	if (t->preempt_count > 0 || t->irq_depth > 0) {
		if (c->preempt_owner != t) {
			if (c->preempt_owner || c->irq_task) {
				sched_internal_error(t);
			}
			c->preempt_owner = t;
#if MMFUZZ_TSAN
			__tsan_acquire(&c->tsan_sync);
#endif
		} else if (t->irq_depth == 0) {
#if MMFUZZ_TSAN
			/* IRQs on with preemption still off: what the task did
			 * with them off happens before an interrupt that comes
			 * in here (fsched_irq_enter acquires it) */
			__tsan_release(&c->tsan_sync);
#endif
			/* an interrupt may come in now (PCT), as the slow path
			 * would see */
			if (fs->resched_matters && fs->cpu_ntasks[t->cpu] > 1 &&
			    fsched_cpu_rival(fs, t, true))
				fs->need_resched = true;
		}
	} else if (c->preempt_owner == t) {
#if MMFUZZ_TSAN
		__tsan_release(&c->tsan_sync);
#endif
		c->preempt_owner = NULL;
		/* nobody holds the CPU: a quiescent state for RCU (the
		 * grace-period thread may be able to go on: PCT sees it) */
		if (unlikely(fs->qs_need & (1u << t->cpu))) {
			fs->qs_need &= ~(1u << t->cpu);
			if (fs->resched_matters)
				fs->need_resched = true;
		}
		/* another task that wants this CPU may outrank us (PCT),
		 * or one in stop_machine() waits for every CPU */
		if (fs->resched_matters &&
		    (unlikely(fs->stop_waiters) ||
		     (fs->cpu_ntasks[t->cpu] > 1 && fsched_cpu_rival(fs, t, false))))
			fs->need_resched = true;
	}
}


/*
 * IRQs go off on a CPU this task already holds with preemption off: what an
 * interrupt did there since they were last on happens before (TSan; the
 * interrupt's fsched_irq_exit released it).  Nothing else to do: the CPU
 * is the task's already.
 */
static inline __sched_notsan void fsched_irqs_off(struct task *t)
{
#if MMFUZZ_TSAN
	if (t->fs && !t->irq_active)
		__tsan_acquire(&t->fs->cpu[t->cpu].tsan_sync);
#else
	(void)t;
#endif
}

/* Move the running task to another CPU (a yield point; waits for the CPU). */
void sched_migrate(struct task *t, int cpu, const struct yield_site *s);
/* An op in interrupt context starts / ends on t's CPU. */
void fsched_irq_enter(struct task *t, const struct yield_site *s);
void fsched_irq_exit(struct task *t);
/* Operation boundary: a yield point that also starts a new op index. */
void sched_op_begin(struct task *t, int op, const struct yield_site *s);
/* A lock just became free: blocked tasks may run. */
void fsched_lock_released_out(struct task *t);
static inline void fsched_lock_released(struct task *t)
{
#if MMFUZZ_TSAN
	if (t && t->fs)
		fsched_lock_released_out(t);
#else
	if (t && t->fs && t->fs->resched_matters && t->fs->nblocked)
		t->fs->need_resched = true;
#endif
}
/* A condition a task waits on changed (a completion, an rwsem, an IPI
 * done): the same wake-up as a released lock. */
static inline void fsched_wake(struct task *t)
{
	fsched_lock_released(t);
}

/* The recorded decisions of the last run (REC_INPUT / REC_ALL). */
void fsched_set_record(struct fsched *fs, enum sched_record rec);
int fsched_recorded(const struct fsched *fs, const struct sched_decision **out);

/* Real mode: CPU exclusion when several pthreads share a simulated CPU. */
extern bool real_cpu_shared;

/*
 * Real mode: several pthreads may be in the model at once (the stress
 * runner sets it for the whole of a run, stress/runner.c).  A racy read's
 * hook then no longer runs at the read's step: another thread may run
 * between them.  Without it real mode is one thread (a sequential run, a
 * test's calls, an end-of-run drain) and a hook does run at its read's step.
 */
extern bool real_threads_concurrent;

/* The running task's hook runs at the step its racy read was made: on the
 * fibers, or in real mode with one thread in the model.  The oracles that
 * compare a value read with the state at that step judge only then (the
 * stress runner never attaches them; a process that ran the executor
 * before it still has them attached). */
static inline bool hook_at_read_step(void)
{
	const struct task *t = current_task;

	return (t && t->fs) || !__atomic_load_n(&real_threads_concurrent, __ATOMIC_RELAXED);
}

void real_cpu_enter(struct task *t);
void real_cpu_exit(struct task *t);

/* Deterministic PRNG (splitmix64 seeding, xorshift64*).  The state is the
 * scheduler's (fs->rng), stepped from whichever fiber runs the choice:
 * __sched_notsan like the rest of its bookkeeping, or TSan, which sees no
 * happens-before between fibers, reports the scheduler racing itself. */
static inline __sched_notsan uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static inline uint64_t rng_seed(uint64_t seed)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return z ? z : 1;
}

#endif /* MMFUZZ_SCHED_SCHED_H */

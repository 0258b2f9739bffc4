// SPDX-License-Identifier: MIT
/*
 * Deferred struct-page init's operations (binary codes 0xa0-0xbf, fixed
 * forever), the per-run state, and the `deferred` fuzz target.  The node
 * map is config keys (nodes, cpus, zone_pages; deferred_init, the section
 * size, holes, reserved ranges, min_chunk: mm/deferred.h), held by the
 * layer's header section (id 6, ops_deferred_header.c): no header state.
 *
 * A world whose config defers init (the deferred_init key) boots with
 * each node's memmap past first_deferred_pfn uninitialised and the
 * `deferred_pages` static key on: the state 6.6 is in from mm_core_init()
 * until kernel_init() reaches page_alloc_init_late() (init/main.c 1545).
 * The program's tasks are the rest of the kernel meanwhile: they allocate
 * (deferred_grow_zone, from process and interrupt context), free, drain and
 * use the other layers' operations, and
 *
 *   boot_deferred    is kernel_init() reaching page_alloc_init_late(): a
 *                    kthread `kernel_init` on the boot CPU runs it, which
 *                    starts pgdatinit%d on every node and waits for them;
 *                    the task that asked goes on at once, racing the init;
 *   wait_init_done   waits for that kthread to finish (the static key is
 *                    off then); with no boot_deferred before it, it is the
 *                    boot's own call: page_alloc_init_late() in this task.
 *
 * Both are valid in any world: with nothing deferred (the default config)
 * page_alloc_init_late() finds every node done and only turns the key off,
 * and a second boot_deferred in a run does nothing.  CPU hotplug while the
 * init is pending does nothing (ops_kernel.c asks deferred_init_pending):
 * no 6.6 boot takes a CPU down before page_alloc_init_late() returns
 * (smp_init brought them up before, and offlining is userspace's, after).
 */
#include "exec.h"
#include "handle.h"

#include "../kernel/completion.h"
#include "../mm/deferred.h"

/* ---- per-run state ---- */

struct deferred_run {
	/* INIT_NONE, then INIT_CLAIMED by the task that starts kernel_init
	 * and INIT_READY once init_done is initialised (atomics: tasks are
	 * threads to TSan; no yield point lies between the two stores) */
	int phase;
	struct completion init_done;	/* it returned from page_alloc_init_late */
};

static struct op_layer deferred_ops = {
	.name = "deferred",
	.state_size = sizeof(struct deferred_run),
	.kthreads = true,	/* kernel_init, pgdatinit%d, padata helpers */
};
OP_LAYER(deferred_ops);

static struct deferred_run *run_state(struct op_ctx *c)
{
	return op_layer_state(c, &deferred_ops);
}

/* ---- operations ---- */

enum { INIT_NONE, INIT_CLAIMED, INIT_READY };

/* Claim the init for this task: true if it is the first (it initialises
 * init_done); false when another task did, once init_done is ready. */
static bool init_claim(struct deferred_run *r)
{
	int none = INIT_NONE;

	if (__atomic_compare_exchange_n(&r->phase, &none, INIT_CLAIMED, false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED)) {
		init_completion_named(&r->init_done, "pgdat_init_all_done_comp");
		__atomic_store_n(&r->phase, INIT_READY, __ATOMIC_RELEASE);
		return true;
	}
	while (__atomic_load_n(&r->phase, __ATOMIC_ACQUIRE) != INIT_READY)
		;	/* never in fiber mode: nothing yields between the stores */
	return false;
}

/* kernel_init()'s part: page_alloc_init_late(), then the waiters go on. */
static void kernel_init_kthread(struct task *t, void *arg)
{
	struct deferred_run *r = arg;

	(void)t;
	page_alloc_init_late();
	complete_all(&r->init_done);
}

static int first_online_cpu(struct fsched *fs)
{
	int cpu;

	for (cpu = 0; cpu < fs->ncpus; cpu++)
		if (fsched_cpu_online(fs, cpu))
			return cpu;
	return 0;
}

static void do_boot_deferred(struct op_ctx *c)
{
	struct deferred_run *r = run_state(c);
	struct task *t = c->t;

	if (!init_claim(r))
		return;
	/* PID 1's kthread, on the first online CPU (the boot CPU, unless a
	 * program with nothing deferred took it down); with no slot left for
	 * it (or no scheduler: a sequential run), this task is kernel_init */
	if (!t->fs || fsched_tasks_left(t->fs) <= MAX_CPUS + 1 ||
	    !fsched_kthread_run(t->fs, kernel_init_kthread, r, "kernel_init", first_online_cpu(t->fs),
				false))
		kernel_init_kthread(t, r);
}

static struct op_desc op_boot_deferred = {
	OP_NAME("boot_deferred"), .code = 0xa0, .layer = "deferred",
	.desc = "kernel_init reaches page_alloc_init_late: a kthread on the boot CPU starts "
		"pgdatinit%d on every node (padata helpers per free range) and waits for them; "
		"the program races the init (once a run; nothing deferred: only the key off)",
	.exec = do_boot_deferred,
};
OP_DESC(op_boot_deferred);

/*
 * 6.6's pgdat_init_all_done_comp has one waiter, kernel_init (the last
 * pgdatinit complete()s it once): so only the task that is kernel_init
 * calls page_alloc_init_late, and the others wait on init_done, which
 * complete_all() ends for every waiter.
 */
static void do_wait_init_done(struct op_ctx *c)
{
	struct deferred_run *r = run_state(c);

	if (init_claim(r)) {
		kernel_init_kthread(c->t, r);
		return;
	}
	wait_for_completion(&r->init_done);
}

static struct op_desc op_wait_init_done = {
	OP_NAME("wait_init_done"), .code = 0xa1, .layer = "deferred",
	.desc = "wait until page_alloc_init_late has returned (every node initialised, the "
		"deferred_pages key off); with no boot_deferred before, run it in this task",
	.exec = do_wait_init_done,
};
OP_DESC(op_wait_init_done);

/* ---- the fuzz target ---- */

/*
 * Codes outside the target fold onto these: allocations most (each may
 * grow a zone), frees, drains, the init's two operations, and the kernel
 * layer's interrupt-context work (IPIs, RCU readers) beside it.
 */
static const char *const deferred_layers[] = { "pagealloc", "kernel", "deferred", NULL };
static const unsigned char deferred_fold[] = {
	0xa0, 0xa0, 0xa1, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0x03, 0x08, 0x09,
	0x22, 0x2d,
};
static const struct fuzz_target deferred_target = {
	.name = "deferred",
	.desc = "deferred struct-page init (pgdatinit, padata, deferred_grow_zone) raced by "
		"allocations, frees and drains from process and IRQ context",
	.layers = deferred_layers, .fold = deferred_fold, .nfold = (int)sizeof(deferred_fold),
};
FUZZ_TARGET(deferred_target);

// SPDX-License-Identifier: MIT
/*
 * The kernel layer's operations (binary codes 0x20-0x3f, fixed forever):
 * CPU hotplug (cpu_down, cpu_up) and the torture operations on the kernel
 * primitives (src/kernel/ktorture.h), the freelist object handle, the per-task
 * state of a run, and the `kernel` fuzz target.
 */
#include "exec.h"
#include "handle.h"

#include "../check/check.h"
#include "../check/kernel.h"
#include "../kernel/cpu.h"
#include "../kernel/ktorture.h"
#include "../mm/deferred.h"

/* ---- the freelist object handle ---- */

/* an obj handle's object is its struct kt_fl_obj, in handle.h's table */
struct kernel_run {
	struct kt_handoff handoff[PROG_MAX_TASKS];	/* each task's, outliving its kthread */
};

static struct op_layer kernel_ops = {
	.name = "kernel",
	.state_size = sizeof(struct kernel_run),
	.kthreads = true,	/* rcu_gp, ipi/N, handoff */
};
OP_LAYER(kernel_ops);

static struct kernel_run *run_state(struct op_ctx *c)
{
	return op_layer_state(c, &kernel_ops);
}

static const struct handle_kind hk_obj;

static void obj_release(struct op_ctx *c, int h)
{
	struct kt_fl_obj *o = handle_get(h, &hk_obj, NULL);

	if (o) {
		handle_drop(h);
		kt_fl_free(kt_world(c->w), o);
	}
}

static const struct handle_kind hk_obj = {
	.name = "obj", .prefix = "o", .release = obj_release,
};

/* ---- CPU hotplug ---- */

/*
 * The kernel takes CPUs down and up holding no lock; a task that holds one
 * across operations (zone_pcp_disable's pcp_batch_high_lock) would make an
 * order (pcp_batch_high_lock -> cpu_hotplug_lock) and a deadlock of the
 * program's own: nothing to do then.  Nor while deferred init is pending:
 * no 6.6 boot takes a CPU down before page_alloc_init_late() returns
 * (ops_deferred.c).
 */
static bool hotplug_allowed(struct op_ctx *c)
{
	return c->t->nheld == 0 && !deferred_init_pending(c->w);
}

static void do_cpu_down(struct op_ctx *c)
{
	/* -EBUSY (the last CPU) and -EINVAL (already down) are answers too */
	if (!hotplug_allowed(c) || cpu_down((unsigned int)c->op->arg[0]))
		return;
	/* every offline CPU is quiet once no hotplug is in flight: another
	 * task's cpu_down may have begun since ours ended */
	cpus_read_lock();
	check_cpus_offline(c->w, "cpu_down");
	cpus_read_unlock();
}

static struct op_desc op_cpu_down = {
	OP_NAME("cpu_down"), .code = 0x20, .layer = "kernel",
	.desc = "take a CPU down: its tasks move away, the cpuhp teardowns run "
		"(page_alloc_cpu_dead drains its pcps, folds its vmstat; the "
		"percpu_counter fold); nothing while the task holds a lock",
	.nargs = 1,
	.args = { { .name = "cpu", .kind = ARG_CPU } },
	.exec = do_cpu_down,
};
OP_DESC(op_cpu_down);

static void do_cpu_up(struct op_ctx *c)
{
	if (hotplug_allowed(c))
		cpu_up((unsigned int)c->op->arg[0]);
}

static struct op_desc op_cpu_up = {
	OP_NAME("cpu_up"), .code = 0x21, .layer = "kernel",
	.desc = "bring a CPU back up (the cpuhp startups)",
	.nargs = 1,
	.args = { { .name = "cpu", .kind = ARG_CPU } },
	.exec = do_cpu_up,
};
OP_DESC(op_cpu_up);

/* ---- RCU ---- */

static void do_rcu_read(struct op_ctx *c)
{
	kt_rcu_read(kt_world(c->w), c->op->arg[0]);
}

static struct op_desc op_rcu_read = {
	OP_NAME("rcu_read"), .code = 0x22, .layer = "kernel", .irq_ok = true,
	.desc = "an RCU reader: rcu_read_lock, N accesses to the published object, unlock",
	.nargs = 1,
	.args = { { .name = "n", .kind = ARG_INT, .lo = 1, .hi = 4, .has_def = true, .def = 2 } },
	.exec = do_rcu_read,
};
OP_DESC(op_rcu_read);

static void do_rcu_update(struct op_ctx *c)
{
	kt_rcu_update(kt_world(c->w), c->op->arg[0]);
}

static struct op_desc op_rcu_update = {
	OP_NAME("rcu_update"), .code = 0x23, .layer = "kernel",
	.desc = "publish a new object; free the old after synchronize_rcu (sync=1) or "
		"through call_rcu",
	.nargs = 1,
	.args = { { .name = "sync", .kind = ARG_INT, .lo = 0, .hi = 1 } },
	.exec = do_rcu_update,
};
OP_DESC(op_rcu_update);

static void do_rcu_barrier(struct op_ctx *c)
{
	kt_rcu_barrier(kt_world(c->w));
}

static struct op_desc op_rcu_barrier = {
	OP_NAME("rcu_barrier"), .code = 0x24, .layer = "kernel",
	.desc = "wait for every call_rcu callback queued before",
	.exec = do_rcu_barrier,
};
OP_DESC(op_rcu_barrier);

/* ---- percpu_counter, completion ---- */

static void do_counter_add(struct op_ctx *c)
{
	kt_counter_add(kt_world(c->w), c->op->arg[0]);
}

static struct op_desc op_counter_add = {
	OP_NAME("counter_add"), .code = 0x25, .layer = "kernel", .irq_ok = true,
	.desc = "percpu_counter_add_batch(delta), batch 4",
	.nargs = 1,
	.args = { { .name = "delta", .kind = ARG_INT, .lo = -8, .hi = 8 } },
	.exec = do_counter_add,
};
OP_DESC(op_counter_add);

static void do_handoff(struct op_ctx *c)
{
	kt_handoff(kt_world(c->w), &run_state(c)->handoff[c->t->id], c->op->arg[0]);
}

static struct op_desc op_handoff = {
	OP_NAME("handoff"), .code = 0x26, .layer = "kernel",
	.desc = "kthread_run a worker on a CPU that publishes its work and complete()s; "
		"wait_for_completion for it",
	.nargs = 1,
	.args = { { .name = "cpu", .kind = ARG_CPU } },
	.exec = do_handoff,
};
OP_DESC(op_handoff);

/* ---- the cmpxchg_double freelist ---- */

static void do_fl_alloc(struct op_ctx *c)
{
	struct ktorture *kt = kt_world(c->w);
	struct kt_fl_obj *o = kt_fl_alloc(kt);
	if (o)
		handle_set(op_handle_self(c), op_handle_name(c), &hk_obj, o, 0);
}

static struct op_desc op_fl_alloc = {
	OP_NAME("fl_alloc"), .code = 0x27, .layer = "kernel",
	.desc = "an object from this CPU's freelist (SLUB's fast path: tid, freelist, "
		"this_cpu_cmpxchg_double); the result is a handle",
	.defines = &hk_obj,
	.exec = do_fl_alloc,
};
OP_DESC(op_fl_alloc);

static void do_fl_free(struct op_ctx *c)
{
	obj_release(c, op_handle_arg(c, 0));
}

static struct op_desc op_fl_free = {
	OP_NAME("fl_free"), .code = 0x28, .layer = "kernel",
	.desc = "free an object: onto this CPU's freelist if its slab is this CPU's, "
		"else to the node's partial list (nothing if the handle is not live)",
	.nargs = 1,
	.args = { { .name = "o", .kind = ARG_HANDLE, .hk = &hk_obj, .frees = true } },
	.exec = do_fl_free,
};
OP_DESC(op_fl_free);

/* ---- locks ---- */

static void do_slab_update(struct op_ctx *c)
{
	kt_slab_update(kt_world(c->w));
}

static struct op_desc op_slab_update = {
	OP_NAME("slab_update"), .code = 0x29, .layer = "kernel", .irq_ok = true,
	.desc = "a slab's counters under slab_lock inside n->list_lock",
	.exec = do_slab_update,
};
OP_DESC(op_slab_update);

static void do_rwsem_read(struct op_ctx *c)
{
	struct ktorture *kt = kt_world(c->w);

	if (!c->op->arg[0]) {
		kt_rwsem_read(kt);
	} else if (down_read_trylock(&kt->sem)) {
		/* got it without waiting: give it back */
		up_read(&kt->sem);
	}
}

static struct op_desc op_rwsem_read = {
	OP_NAME("rwsem_read"), .code = 0x2a, .layer = "kernel",
	.desc = "mmap_lock for reading (try=1: down_read_trylock, nothing if it fails)",
	.nargs = 1,
	.args = { { .name = "try", .kind = ARG_INT, .lo = 0, .hi = 1, .has_def = true, .def = 0 } },
	.exec = do_rwsem_read,
};
OP_DESC(op_rwsem_read);

static void do_rwsem_write(struct op_ctx *c)
{
	kt_rwsem_write(kt_world(c->w), c->op->arg[0]);
}

static struct op_desc op_rwsem_write = {
	OP_NAME("rwsem_write"), .code = 0x2b, .layer = "kernel",
	.desc = "mmap_lock for writing, downgraded to reading when downgrade=1",
	.nargs = 1,
	.args = { { .name = "downgrade", .kind = ARG_INT, .lo = 0, .hi = 1 } },
	.exec = do_rwsem_write,
};
OP_DESC(op_rwsem_write);

static void do_local_lock(struct op_ctx *c)
{
	kt_local_lock(kt_world(c->w), c->op->arg[0]);
}

static struct op_desc op_local_lock = {
	OP_NAME("local_lock"), .code = 0x2c, .layer = "kernel",
	.desc = "this CPU's local_lock (irqsave=1: local_lock_irqsave) around its pair",
	.nargs = 1,
	.args = { { .name = "irqsave", .kind = ARG_INT, .lo = 0, .hi = 1 } },
	.exec = do_local_lock,
};
OP_DESC(op_local_lock);

static void do_ipi(struct op_ctx *c)
{
	kt_ipi(kt_world(c->w), (unsigned long)c->op->arg[0], c->op->arg[1]);
}

static struct op_desc op_ipi = {
	OP_NAME("ipi"), .code = 0x2d, .layer = "kernel",
	.desc = "on_each_cpu_mask(cpus, ..., wait): a function on each CPU of the mask, "
		"in interrupt context there",
	.nargs = 2,
	.args = {
		{ .name = "cpus", .kind = ARG_INT, .lo = 1, .hi = 255 },
		{ .name = "wait", .kind = ARG_INT, .lo = 0, .hi = 1 },
	},
	.exec = do_ipi,
};
OP_DESC(op_ipi);

/* ---- the fuzz target ---- */

static const char *const kernel_layers[] = { "pagealloc", "kernel", NULL };
static const unsigned char kernel_fold[] = {
	0x00, 0x01, 0x03, 0x07, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29,
	0x2a, 0x2b, 0x2c, 0x2d,
};
static const struct fuzz_target kernel_target = {
	.name = "kernel",
	.desc = "the kernel primitives (RCU, hotplug, completion, rwsem, local_lock, "
		"cmpxchg_double, IPIs) with alloc/free",
	.layers = kernel_layers, .fold = kernel_fold, .nfold = (int)sizeof(kernel_fold),
};
FUZZ_TARGET(kernel_target);

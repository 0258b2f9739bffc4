// SPDX-License-Identifier: MIT
/* CPU hotplug and the cpuhp registry: see cpu.h. */
#include "cpu.h"

#include <errno.h>
#include <string.h>

#include "hooks.h"
#include "smp.h"

struct cpuhp_step {
	const char *name;
	cpuhp_fn startup;
	cpuhp_fn teardown;
};

static struct cpuhp_step cpuhp_hp_states[CPUHP_ONLINE + 1];
struct cpumask __cpu_online_mask = { ~0UL >> (64 - MAX_CPUS) };
struct cpumask __cpu_dying_mask;
static int nr_cpus = MAX_CPUS;
static struct mutex cpu_add_remove_lock;
static struct rw_semaphore cpu_hotplug_lock;
static int real_attached_cpus[MAX_CPUS];

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name, cpuhp_fn startup,
			      cpuhp_fn teardown)
{
	int end;

	if (state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN) {
		end = state == CPUHP_AP_ONLINE_DYN ? CPUHP_AP_ONLINE_DYN_END : CPUHP_BP_PREPARE_DYN_END;
		while ((int)state < end && cpuhp_hp_states[state].name)
			state++;
		if ((int)state == end)
			return -ENOSPC;
	} else if (state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE) {
		return -EINVAL;
	} else if (cpuhp_hp_states[state].name) {
		return -EBUSY;
	}
	cpuhp_hp_states[state].name = name;
	cpuhp_hp_states[state].startup = startup;
	cpuhp_hp_states[state].teardown = teardown;
	return (int)state;
}

const char *cpuhp_state_name(enum cpuhp_state state)
{
	return state > CPUHP_OFFLINE && state <= CPUHP_ONLINE ? cpuhp_hp_states[state].name : NULL;
}

void cpu_hotplug_boot(int ncpus)
{
	nr_cpus = ncpus;
	__cpu_online_mask.bits = ncpus >= 64 ? ~0UL : (1UL << ncpus) - 1;
	__cpu_dying_mask.bits = 0;
	mutex_init_named(&cpu_add_remove_lock, "cpu_add_remove_lock");
	init_rwsem_named(&cpu_hotplug_lock, "cpu_hotplug_lock");
}

int nr_cpu_ids_now(void)
{
	return nr_cpus;
}

static void cpu_run_hook(struct fsched *fs)
{
	cpu_hotplug_boot(fs->ncpus);
}

__attribute__((constructor)) static void cpu_init(void)
{
	cpu_hotplug_boot(MAX_CPUS);
	fsched_register_run_hook(cpu_run_hook);
}

void cpus_read_lock(void)
{
	down_read(&cpu_hotplug_lock);
}

void cpus_read_unlock(void)
{
	up_read(&cpu_hotplug_lock);
}

/* cpuhp_invoke_callback(): one state's callback, a yield point before it. */
static void invoke(int state, unsigned int cpu, bool bringup)
{
	const struct cpuhp_step *st = &cpuhp_hp_states[state];
	cpuhp_fn fn = bringup ? st->startup : st->teardown;

	if (!fn)
		return;
	yield_point(YIELD_SITE(YP_CPUHP, "cpuhp_invoke_callback"));
	HOOK(kernel, state_cpuhp, cpu, state, bringup);
	fn(cpu);
}

struct cpu_wait {
	struct fsched *fs;
	int cpu;
};

/*
 * stop_machine(): its stopper runs on every online CPU at once, so it
 * waits until no task anywhere has preemption or IRQs off (a sender
 * spinning in csd_lock_wait() with preemption off holds it off too, as in
 * the kernel, and so cannot queue a call to the CPU once it is gone).
 */
static __sched_notsan int held_cpu(const struct cpu_wait *w)
{
	int cpu;

	for (cpu = 0; cpu < w->fs->ncpus; cpu++)
		if (fsched_cpu_online(w->fs, cpu) && fsched_cpu_held(w->fs, cpu))
			return cpu;
	return -1;
}

static __sched_notsan bool cpu_free_cond(void *arg)
{
	return held_cpu(arg) < 0;
}

static __sched_notsan struct task *cpu_holder(void *arg)
{
	const struct cpu_wait *w = arg;
	int cpu = held_cpu(w);
	const struct sched_cpu *c;

	if (cpu < 0)
		return NULL;
	c = &w->fs->cpu[cpu];
	return c->irq_task ? c->irq_task : c->preempt_owner;
}

static int first_online_but(int cpu)
{
	int c;

	for_each_online_cpu(c)
		if (c != cpu)
			return c;
	return -1;
}

/*
 * take_cpu_down() under stop_machine(): when nothing holds the CPU, run
 * there with IRQs off, tear the DYING states down, move every task away
 * (a per-CPU interrupt thread stays bound to it) and take it offline.
 */
static void take_cpu_down(struct task *t, unsigned int cpu)
{
	struct fsched *fs = t->fs;
	int st, home = t->cpu, dest = first_online_but((int)cpu), i;
	unsigned long flags;

	if (fs) {
		struct cpu_wait cw = { fs, (int)cpu };
		struct sched_wait w = { cpu_free_cond, &cw, "stop_machine", cpu_holder, false };
		const struct yield_site *s = YIELD_SITE(YP_CPUHP, "take_cpu_down");

		yield_point(s);
		fs->stop_waiters++;
		while (!cpu_free_cond(&cw))
			fsched_wait(t, &w, s);
		fs->stop_waiters--;
		fsched_stop_machine_sync(fs, true);
		fsched_move_task(fs, t, (int)cpu);
	}
	flags = __local_irq_save(t);
	/* __cpu_disable() first, then the DYING callbacks (6.6 take_cpu_down):
	 * a sender that starts once the machine is stopped sees the CPU
	 * offline, so nothing is queued there after smpcfd_dying_cpu's flush */
	__cpumask_clear_cpu((int)cpu, &__cpu_online_mask);
	for (st = CPUHP_TEARDOWN_CPU - 1; st > CPUHP_BRINGUP_CPU; st--)
		invoke(st, cpu, false);
	if (fs)
		for (i = 0; i < fs->ntasks; i++) {
			struct task *u = &fs->task[i];

			if (u != t && u->cpu == (int)cpu && u->state != TASK_DONE &&
			    !(u->kfn && u->irq_ctx))
				fsched_move_task(fs, u, dest);
		}
	__local_irq_restore(t, flags, __func__);
	if (fs) {
		fsched_move_task(fs, t, home == (int)cpu ? dest : home);
		fsched_cpu_set_online(fs, (int)cpu, false);
		fsched_stop_machine_sync(fs, false);
	}
	yield_point(YIELD_SITE(YP_CPUHP, "cpuhp_report_idle_dead"));
}

int cpu_down(unsigned int cpu)
{
	struct task *t = current;
	int ret = 0, st;

	yield_point(YIELD_SITE(YP_CPUHP, "cpu_down"));
	if ((int)cpu >= nr_cpus)
		return -EINVAL;
	mutex_lock(&cpu_add_remove_lock);
	if (!cpu_online((int)cpu)) {
		ret = -EINVAL;
		goto out;
	}
	if (num_online_cpus() == 1 ||
	    (!t->fs && __atomic_load_n(&real_attached_cpus[cpu], __ATOMIC_RELAXED))) {
		ret = -EBUSY;
		goto out;
	}
	down_write(&cpu_hotplug_lock);
	__cpumask_set_cpu((int)cpu, &__cpu_dying_mask);
	for (st = CPUHP_ONLINE; st > CPUHP_TEARDOWN_CPU; st--)
		invoke(st, cpu, false);
	take_cpu_down(t, cpu);
	for (st = CPUHP_BRINGUP_CPU - 1; st > CPUHP_OFFLINE; st--)
		invoke(st, cpu, false);
	up_write(&cpu_hotplug_lock);
out:
	mutex_unlock(&cpu_add_remove_lock);
	return ret;
}

int cpu_up(unsigned int cpu)
{
	struct task *t = current;
	int ret = 0, st;

	yield_point(YIELD_SITE(YP_CPUHP, "cpu_up"));
	if ((int)cpu >= nr_cpus)
		return -EINVAL;
	mutex_lock(&cpu_add_remove_lock);
	if (cpu_online((int)cpu)) {
		ret = -EINVAL;
		goto out;
	}
	down_write(&cpu_hotplug_lock);
	for (st = CPUHP_OFFLINE + 1; st < CPUHP_BRINGUP_CPU; st++)
		invoke(st, cpu, true);
	/* bringup_cpu(): it runs again */
	__cpumask_clear_cpu((int)cpu, &__cpu_dying_mask);
	__cpumask_set_cpu((int)cpu, &__cpu_online_mask);
	if (t->fs)
		fsched_cpu_set_online(t->fs, (int)cpu, true);
	for (st = CPUHP_BRINGUP_CPU + 1; st <= CPUHP_ONLINE; st++)
		invoke(st, cpu, true);
	up_write(&cpu_hotplug_lock);
out:
	mutex_unlock(&cpu_add_remove_lock);
	return ret;
}

/* smp.c's real-mode attach also tells hotplug a task runs there */
void cpu_real_attach(int cpu, bool on);
void cpu_real_attach(int cpu, bool on)
{
	__atomic_fetch_add(&real_attached_cpus[cpu], on ? 1 : -1, __ATOMIC_RELAXED);
}

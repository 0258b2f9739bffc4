// SPDX-License-Identifier: MIT
/*
 * ktorture under PCT schedules: every operation together on the clean
 * model is never reported, and each bug switch of the kernel layer is
 * caught by the checker it names, its seed replaying exactly:
 *
 *   complete_early           I-COMP       (T0 produces, T1 consumes)
 *   cmpxchg_double_one_word  I-FREELIST   (two tasks on one CPU: ABA)
 *   lock_inversion_rare      lock-order   (one task: lockdep, no deadlock)
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bugs/bugs.h"
#include "check/kernel.h"
#include "kernel/cmpxchg_double.h"
#include "kernel/lockdep.h"
#include "sched/sched.h"
#include "tap.h"

static struct ktorture kt;

enum scenario { MIX, HANDOFF, FREELIST, SLAB };
static enum scenario scen;

static void body(struct task *t, void *arg)
{
	struct kt_fl_obj *held[3];
	int i, j;

	(void)arg;
	switch (scen) {
	case MIX:
		for (i = 0; i < 3; i++) {
			switch ((t->id + i) % 6) {
			case 0:
				kt_rcu_update(&kt, i & 1);
				kt_counter_add(&kt, 5);
				break;
			case 1:
				kt_rcu_read(&kt, 2);
				kt_rwsem_read(&kt);
				break;
			case 2:
				kt_rwsem_write(&kt, i & 1);
				kt_local_lock(&kt, i & 1);
				break;
			case 3:
				held[0] = kt_fl_alloc(&kt);
				kt_slab_update(&kt);
				if (held[0])
					kt_fl_free(&kt, held[0]);
				break;
			case 4:
				kt_ipi(&kt, 0x7, i & 1);
				kt_counter_add(&kt, -3);
				break;
			default:
				kt_handoff_produce(&kt);
				kt_handoff_consume(&kt);
				break;
			}
		}
		break;
	case HANDOFF:
		for (i = 0; i < 2; i++) {
			if (t->id == 0)
				kt_handoff_produce(&kt);
			else
				kt_handoff_consume(&kt);
		}
		break;
	case FREELIST:
		for (i = 0; i < 2; i++) {
			for (j = 0; j < 3; j++)
				held[j] = kt_fl_alloc(&kt);
			for (j = 0; j < 3; j++)
				if (held[j])
					kt_fl_free(&kt, held[j]);
		}
		break;
	case SLAB:
		for (i = 0; i < 4; i++)
			kt_slab_update(&kt);
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const int *cpus, const struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = cpus[i];
		init[i].irq = false;
	}
	violation_reset();
	/* the freelist test: one CPU, every object is its slab's */
	kt_init(&kt, scen == FREELIST ? 1 : 3);
	check_ktorture_attach(&kt);
	return fsched_run(fs, ntasks, kt.ncpus, init, pol, body, NULL);
}

/* The quiescent checkers after a run, as the executor would call them. */
static bool quiescent_ok(void)
{
	struct task me;
	jmp_buf jb;

	memset(&me, 0, sizeof(me));
	me.name = "main";
	me.exit_jb = &jb;
	if (setjmp(jb)) {
		current_task = NULL;
		return false;
	}
	current_task = &me;
	check_ktorture_quiescent(&kt, "end");
	current_task = NULL;
	return true;
}

/* PCT seeds 1..n: the first with a violation (its signature), 0 if none */
static int seeds(struct fsched *fs, int ntasks, const int *cpus, int n, char *sig)
{
	struct sched_policy pol;
	int seed;

	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 200;
	for (seed = 1; seed <= n; seed++) {
		pol.seed = (uint64_t)seed;
		if (run(fs, ntasks, cpus, &pol) || !quiescent_ok()) {
			snprintf(sig, 128, "%s", g_violation.signature);
			return seed;
		}
	}
	return 0;
}

/* The seed again, twice: the same violation and trace hash. */
static bool replays(struct fsched *fs, int ntasks, const int *cpus, int seed, const char *sig)
{
	struct sched_policy pol;
	uint64_t h;

	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 200;
	pol.seed = (uint64_t)seed;
	if (!run(fs, ntasks, cpus, &pol))
		quiescent_ok();
	h = fs->hash;
	return (run(fs, ntasks, cpus, &pol) == 1 || !quiescent_ok()) && fs->hash == h &&
	       !strcmp(g_violation.signature, sig);
}

int main(void)
{
	struct fsched *fs = fsched_create(MAX_TASKS);
	int c6[6] = { 0, 1, 2, 0, 1, 2 }, c01[2] = { 0, 1 }, c00[2] = { 0, 0 }, seed;
	char sig[128] = "";

	tap_plan(11);

	scen = MIX;
	seed = seeds(fs, 6, c6, 200, sig);
	ok(seed == 0, "every ktorture operation, 6 tasks on 3 CPUs, 200 PCT seeds: clean%s%s",
	   seed ? ", got " : "", seed ? sig : "");
	if (seed)
		diag("seed %d: %s", seed, g_violation.msg);
	ok(kt.rcu_reads + kt.consumed + (unsigned long)kt.sem_data > 0,
	   "(the last run read %lu objects, took %lu completions, wrote mmap_lock data %ld times)",
	   kt.rcu_reads, kt.consumed, kt.sem_data);

	scen = HANDOFF;
	seed = seeds(fs, 2, c01, 100, sig);
	ok(seed == 0, "completion handshake, 100 seeds, clean%s%s", seed ? ": " : "", seed ? sig : "");
	bugs_enabled = 1u << BUG_COMPLETE_EARLY;
	seed = seeds(fs, 2, c01, 100, sig);
	ok(seed > 0 && !strcmp(sig, "I-COMP@kt_handoff_consume"),
	   "complete_early: caught by I-COMP (seed %d: %s)", seed, sig);
	ok(seed > 0 && replays(fs, 2, c01, seed, sig), "and replays exactly");
	bugs_enabled = 0;

	scen = FREELIST;
	seed = seeds(fs, 2, c00, 300, sig);
	ok(seed == 0, "per-CPU freelist, two tasks on one CPU, 300 seeds, clean%s%s",
	   seed ? ": " : "", seed ? sig : "");
	bugs_enabled = 1u << BUG_CMPXCHG_DOUBLE_ONE_WORD;
	seed = seeds(fs, 2, c00, 300, sig);
	ok(seed > 0 && !strncmp(sig, "I-FREELIST@", 11),
	   "cmpxchg_double_one_word: caught by I-FREELIST (seed %d: %s)", seed, sig);
	if (seed)
		diag("%s", g_violation.msg);
	ok(seed > 0 && replays(fs, 2, c00, seed, sig), "and replays exactly");
	bugs_enabled = 0;

	scen = SLAB;
	lockdep_reset();
	seed = seeds(fs, 1, c01, 5, sig);
	ok(seed == 0, "slab updates, one task: clean");
	bugs_enabled = 1u << BUG_LOCK_INVERSION_RARE;
	seed = seeds(fs, 1, c01, 5, sig);
	ok(seed == 1 && !strcmp(sig, "lock-order@slab_lock->n->list_lock"),
	   "lock_inversion_rare: one task, nothing to deadlock with, lockdep reports %s", sig);
	diag("%s", g_violation.msg);
	bugs_enabled = 0;
	/* the switch off again: another kernel, lockdep starts over */
	seed = seeds(fs, 1, c01, 5, sig);
	ok(seed == 0, "with the switch off the next run is clean (its graph starts over)");

	fsched_destroy(fs);
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * RCU on fibers: a grace period waits for every reader whose section it
 * overlaps and for nothing else; the grace-period thread is a kthread
 * keyed after the program's tasks; call_rcu and rcu_barrier; the checker
 * I-RCU on ktorture's readers; the bug switch rcu_gp_early is caught and
 * the clean model never is; ASan sees the reader's access too.
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bugs/bugs.h"
#include "check/kernel.h"
#include "kernel/rcupdate.h"
#include "sched/sched.h"
#include "tap.h"

static int order_log[64], norder;

static void log_order(int v)
{
	int i = __atomic_fetch_add(&norder, 1, __ATOMIC_RELAXED);

	if (i < 64)
		__atomic_store_n(&order_log[i], v, __ATOMIC_RELAXED);
}

static int pos_of(int v)
{
	int i;

	for (i = 0; i < norder && i < 64; i++)
		if (order_log[i] == v)
			return i;
	return -1;
}

enum scenario { GP_WAITS, CALLBACKS, TORTURE, SYNC_IN_READER };
static enum scenario scen;
static struct ktorture kt;
static struct rcu_head heads[3];
static int cb_ran;

static void cb(struct rcu_head *h)
{
	(void)h;
	__atomic_fetch_add(&cb_ran, 1, __ATOMIC_RELAXED);
	log_order(30);
}

static void body(struct task *t, void *arg)
{
	int i;

	(void)arg;
	switch (scen) {
	case GP_WAITS:
		/* T1 on cpu1 reads across T0's synchronize_rcu(); T2 on cpu2
		 * starts a section after the grace period began */
		if (t->id == 1) {
			rcu_read_lock();
			log_order(1);
			for (i = 0; i < 6; i++)
				sched_point("reader");
			log_order(2);
			rcu_read_unlock();
		} else if (t->id == 0) {
			sched_point("updater");
			synchronize_rcu();
			log_order(0);
		} else {
			unsigned long b, e;

			do {
				sched_point("late");
				rcu_gp_counts(&b, &e);
			} while (!b);
			rcu_read_lock();
			for (i = 0; i < 20; i++)
				sched_point("late_reader");
			log_order(3);
			rcu_read_unlock();
		}
		break;
	case CALLBACKS:
		if (t->id == 0) {
			for (i = 0; i < 3; i++)
				call_rcu(&heads[i], cb);
			rcu_barrier();
			log_order(0);
		} else {
			rcu_read_lock();
			for (i = 0; i < 4; i++)
				sched_point("reader");
			log_order(1);
			rcu_read_unlock();
		}
		break;
	case TORTURE:
		for (i = 0; i < 3; i++) {
			if (t->id == 0)
				kt_rcu_update(&kt, i == 1);
			else
				kt_rcu_read(&kt, 2);
		}
		if (t->id == 0)
			kt_rcu_barrier(&kt);
		break;
	case SYNC_IN_READER:
		rcu_read_lock();
		synchronize_rcu();
		rcu_read_unlock();
		break;
	}
}

static int run(struct fsched *fs, int ntasks, const struct sched_policy *pol)
{
	struct task_init init[MAX_TASKS];
	int i;

	for (i = 0; i < ntasks; i++) {
		init[i].cpu = i % 3;
		init[i].irq = false;
	}
	norder = 0;
	cb_ran = 0;
	violation_reset();
	kt_init(&kt, 3);
	check_ktorture_attach(&kt);
	return fsched_run(fs, ntasks, 3, init, pol, body, NULL);
}

/* PCT seeds 1..n on TORTURE: the first seed with a violation, 0 if none */
static int torture_seeds(struct fsched *fs, int ntasks, int n, char *sig, size_t len)
{
	struct sched_policy pol;
	int seed;

	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 120;
	scen = TORTURE;
	for (seed = 1; seed <= n; seed++) {
		pol.seed = (uint64_t)seed;
		if (run(fs, ntasks, &pol)) {
			snprintf(sig, len, "%s", g_violation.signature);
			return seed;
		}
	}
	return 0;
}

/* rcu_gp_early on the torture under TSan: the race, then I-RCU */
static int tsan_child(void *arg)
{
	struct fsched *fs = arg;

	char sig[128] = "";
	int seed;

	bugs_enabled = 1u << BUG_RCU_GP_EARLY;
	seed = torture_seeds(fs, 3, 300, sig, sizeof(sig));
	printf("SEED=%d SIG=%s\n", seed, sig);
	fflush(stdout);
	return 0;
}

/* rcu_gp_early with ASan and no checker: the reader's access itself */
static int asan_seed;

static int asan_child(void *arg)
{
	struct fsched *fs = arg;

	struct task_init init[3] = { { 0, false }, { 1, false }, { 2, false } };
	struct sched_policy p2;

	memset(&p2, 0, sizeof(p2));
	p2.kind = POL_PCT;
	p2.depth = 3;
	p2.horizon = 120;
	p2.seed = (uint64_t)asan_seed;
	bugs_enabled = 1u << BUG_RCU_GP_EARLY;
	scen = TORTURE;
	norder = 0;
	violation_reset();
	kt_init(&kt, 3);	/* no checker attached */
	fsched_run(fs, 3, 3, init, &p2, body, NULL);
	return 0;
}

int main(void)
{
	static char out[1 << 16];
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct sched_policy pol;
	unsigned long begun, ended;
	char sig[128] = "";
	int r, seed, st;
	uint64_t h1;

	tap_plan(14);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_RR;

	scen = GP_WAITS;
	r = run(fs, 3, &pol);
	ok(r == 0 && pos_of(1) < pos_of(2) && pos_of(2) < pos_of(0),
	   "synchronize_rcu() returns after the reader whose section it overlapped (%d %d %d)",
	   pos_of(1), pos_of(2), pos_of(0));
	ok(pos_of(0) < pos_of(3),
	   "and does not wait for a section begun after the grace period (%d < %d)", pos_of(0),
	   pos_of(3));
	rcu_gp_counts(&begun, &ended);
	ok(fs->ntasks == 4 && !strcmp(fs->task[3].name, "rcu_gp") && begun == 1 && ended == 1,
	   "the grace-period thread is task 3 \"%s\", after the program's; %lu GP", fs->task[3].name,
	   ended);
	h1 = fs->hash;
	run(fs, 3, &pol);
	ok(fs->hash == h1, "replayed: same trace hash %016llx", (unsigned long long)h1);

	bugs_enabled = 1u << BUG_RCU_GP_EARLY;
	r = run(fs, 3, &pol);
	bugs_enabled = 0;
	ok(r == 0 && pos_of(0) < pos_of(2),
	   "rcu_gp_early: the grace period ends with the reader's CPU still to go (%d < %d)",
	   pos_of(0), pos_of(2));

	scen = CALLBACKS;
	r = run(fs, 2, &pol);
	ok(r == 0 && cb_ran == 3 && pos_of(1) < pos_of(30) && pos_of(30) < pos_of(0),
	   "call_rcu callbacks run after the reader's section, rcu_barrier() after them");

	scen = SYNC_IN_READER;
	r = run(fs, 1, &pol);
	ok(r == 1 && !strcmp(g_violation.signature, "rcu-lockdep@body"),
	   "synchronize_rcu() inside a read-side section: %s", g_violation.signature);

	/* ktorture: updaters free through synchronize_rcu and call_rcu */
	seed = torture_seeds(fs, 3, 300, sig, sizeof(sig));
	ok(seed == 0, "ktorture RCU, 300 PCT seeds, clean model: no report%s%s",
	   seed ? ", got " : "", seed ? sig : "");
	ok(kt.rcu_reads > 0, "the readers saw objects (%lu in the last run)", kt.rcu_reads);

	if (MMFUZZ_TSAN) {
		/* the switch makes a real race: TSan reports it, in a child */
		st = tap_in_child(tsan_child, fs, out, sizeof(out));
		ok(st == 66 && strstr(out, "ThreadSanitizer: data race") && strstr(out, "kt_obj_free") &&
		   strstr(out, "SIG=I-RCU@kt_rcu_read"),
		   "rcu_gp_early under TSan: the reader's access races with the free, then I-RCU");
		if (st != 66)
			diag("child exit %d: %.300s", st, out);
		ok(1, "# SKIP the replay is checked in the plain and ASan builds");
	} else {
		bugs_enabled = 1u << BUG_RCU_GP_EARLY;
		seed = torture_seeds(fs, 3, 300, sig, sizeof(sig));
		bugs_enabled = 0;
		ok(seed > 0 && !strcmp(sig, "I-RCU@kt_rcu_read"),
		   "rcu_gp_early: caught by I-RCU at a reader's access (seed %d: %s)", seed, sig);
		diag("%s", g_violation.msg);
		pol.kind = POL_PCT;
		pol.depth = 3;
		pol.horizon = 120;
		pol.seed = (uint64_t)(seed > 0 ? seed : 1);
		bugs_enabled = 1u << BUG_RCU_GP_EARLY;
		scen = TORTURE;
		run(fs, 3, &pol);
		h1 = fs->hash;
		r = run(fs, 3, &pol);
		bugs_enabled = 0;
		ok(r == 1 && fs->hash == h1 && !strcmp(g_violation.signature, sig),
		   "that seed replays to the same violation and trace hash");
		memset(&pol, 0, sizeof(pol));
		pol.kind = POL_RR;
	}

	/* without the checker, the sanitizer sees the access to poisoned memory */
	if (MMFUZZ_ASAN && seed > 0) {
		asan_seed = seed;
		st = tap_in_child(asan_child, fs, out, sizeof(out));
		ok(st != 0 && strstr(out, "use-after-poison") && strstr(out, "kt_rcu_read"),
		   "ASan: the same run without I-RCU is an ASan use-after-poison in kt_rcu_read");
	} else {
		ok(1, "# SKIP ASan build only");
	}

	/* five tasks */
	seed = torture_seeds(fs, 5, 200, sig, sizeof(sig));
	ok(seed == 0, "ktorture RCU, 5 tasks, 200 seeds, clean: no report%s%s", seed ? ", got " : "",
	   seed ? sig : "");
	if (!MMFUZZ_TSAN) {
		bugs_enabled = 1u << BUG_RCU_GP_EARLY;
		seed = torture_seeds(fs, 5, 200, sig, sizeof(sig));
		bugs_enabled = 0;
		ok(seed > 0, "rcu_gp_early with 5 tasks: caught (seed %d: %s)", seed, sig);
	} else {
		ok(1, "# SKIP a race report under TSan, as above");
	}

	fsched_destroy(fs);
	return tap_done();
}

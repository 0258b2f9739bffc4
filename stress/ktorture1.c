// SPDX-License-Identifier: MIT
/*
 * ktorture1: the kernel primitives on real threads, as rcutorture and
 * locktorture run them: every task cycles through ktorture's operations
 * (src/kernel/ktorture.h), each starting at its own place in the cycle: RCU
 * updates (synchronize_rcu or call_rcu, liburcu underneath) and reads, a
 * percpu_counter, a completion handshake (taken without sleeping, so a
 * parked producer never strands a consumer), the cmpxchg_double freelist,
 * mmap_lock readers and writers with downgrades, local_lock, slab_lock
 * under n->list_lock, and cross-CPU calls to every CPU with the caller
 * waiting.  The checks at quiescence are the kernel layer's (I-PCPCNT,
 * I-FREELIST, I-RWSEM, I-LOCAL, I-COMP, I-CPUHP); at the end its drain
 * waits for every call_rcu() callback (rcu_barrier) first.
 * One op is one operation of the cycle.
 */
#include "stress.h"

#include <stdlib.h>
#include <string.h>

#include "../src/check/kernel.h"
#include "../src/kernel/ktorture.h"

/* The world's kernel layer (src/kernel/ktorture.c), booted with the world; its
 * checkers run at every check (the registered "kernel" checker). */
static int ktorture1_prepare(struct stress_run *r, unsigned long tasks)
{
	(void)tasks;
	check_ktorture_attach(kt_world(r->w));
	return 0;
}

static void ktorture1_testcase(struct stress_task *t)
{
	struct ktorture *kt = kt_world(t->run->w);
	unsigned long i = t->nr;
	struct kt_fl_obj *o;

	while (stress_continue(t)) {
		switch (i++ % 8) {
		case 0:
			kt_rcu_update(kt, (i & 15) == 1);
			break;
		case 1:
			kt_rcu_read(kt, 2);
			break;
		case 2:
			kt_counter_add(kt, (long)(i % 7) - 3);
			break;
		case 3:
			kt_handoff_produce(kt);
			kt_handoff_try_consume(kt);
			break;
		case 4:
			o = kt_fl_alloc(kt);
			if (o)
				kt_fl_free(kt, o);
			break;
		case 5:
			if (i & 2)
				kt_rwsem_write(kt, i & 4);
			else
				kt_rwsem_read(kt);
			break;
		case 6:
			kt_local_lock(kt, i & 8);
			kt_slab_update(kt);
			break;
		default:
			kt_ipi(kt, ~0UL, true);
			break;
		}
		stress_count(t, 1);
	}
}

static const struct stress_workload stress_ktorture1 = {
	.name = "ktorture1",
	.description = "RCU, percpu_counter, completion, cmpxchg_double, rwsem, local_lock and IPIs on the kernel layer",
	.prepare = ktorture1_prepare,
	.testcase = ktorture1_testcase,
};
STRESS_WORKLOAD(stress_ktorture1);

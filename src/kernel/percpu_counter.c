// SPDX-License-Identifier: MIT
/* Fast batching percpu counters: see percpu_counter.h. */
#include "percpu_counter.h"
#include "hooks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "percpu.h"

int percpu_counter_batch = 32;
const void *percpu_counter_instance;
static struct list_head percpu_counters = { &percpu_counters, &percpu_counters };
static spinlock_t percpu_counters_lock;
static bool percpu_counters_lock_ready;

/* spin_lock_irqsave(&percpu_counters_lock); at boot (no task) nothing runs
 * beside us.  The flags are the caller's, as the kernel's local variable:
 * kept in a global, another task taking the lock overwrote them before
 * the holder's unlock read them (after it released the lock). */
static unsigned long counters_lock(void)
{
	unsigned long flags = 0;

	if (!current_task)
		return 0;
	spin_lock_irqsave(&percpu_counters_lock, flags);
	return flags;
}

static void counters_unlock(unsigned long flags)
{
	if (current_task)
		spin_unlock_irqrestore(&percpu_counters_lock, flags);
}

int percpu_counter_init_named(struct percpu_counter *fbc, s64 amount, const char *name)
{
	unsigned long flags;
	int cpu;

	if (!percpu_counters_lock_ready) {
		spin_lock_init_named(&percpu_counters_lock, "percpu_counters_lock", -1);
		percpu_counters_lock_ready = true;
	}
	spin_lock_init_named(&fbc->lock, name, -1);
	fbc->count = amount;
	INIT_LIST_HEAD(&fbc->list);	/* off the list until list_add below */
	if (posix_memalign((void **)&fbc->counters, PERCPU_SLOT_BYTES,
			   MAX_CPUS * sizeof(*fbc->counters)))
		return -ENOMEM;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		fbc->counters[cpu].count = 0;
	fbc->instance = percpu_counter_instance;
	flags = counters_lock();
	list_add(&fbc->list, &percpu_counters);
	counters_unlock(flags);
	return 0;
}

void percpu_counter_destroy(struct percpu_counter *fbc)
{
	unsigned long flags;

	if (!fbc->counters)
		return;
	/*
	 * Outside a run (a world's reset, no task) a counter may be half made
	 * or half destroyed: the run stopped at a yield point inside init
	 * before its list_add, or inside destroy after its list_del.  The
	 * reset finishes the job; in a run a second destroy stays the list
	 * corruption it is.
	 */
	if (current_task || (fbc->list.next && fbc->list.next != LIST_POISON1 &&
			     fbc->list.next != &fbc->list)) {
		flags = counters_lock();
		list_del(&fbc->list);
		counters_unlock(flags);
	}
	free(fbc->counters);
	fbc->counters = NULL;
}

void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&fbc->lock, flags);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		WRITE_ONCE(fbc->counters[cpu].count, 0);
	__WRITE_ONCE(fbc->count, amount);
	spin_unlock_irqrestore(&fbc->lock, flags);
}

/*
 * local_irq_save() is needed to make the function irq safe: the decision
 * slow path / fast path and the update must be atomic against this CPU's
 * interrupts, or an interrupt between them makes the s32 pass the batch.
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	struct percpu_counter_cpu *pc;
	unsigned long flags;
	s64 count;

	local_irq_save(flags);
	pc = this_cpu_ptr(fbc->counters);
	count = READ_ONCE(pc->count) + amount;
	HOOK(kernel, state_pcpu, fbc, count, batch);
	if (count >= batch || count <= -batch) {
		spin_lock(&fbc->lock);
		/* plain in the kernel, whose percpu_counter_read() reads it
		 * racily (READ_ONCE in _read_positive): a relaxed store here, for
		 * TSan, with no yield point */
		__WRITE_ONCE(fbc->count, fbc->count + count);
		WRITE_ONCE(pc->count, (s32)(READ_ONCE(pc->count) - (count - amount)));
		spin_unlock(&fbc->lock);
	} else {
		sched_point("this_cpu_add");
		WRITE_ONCE(pc->count, (s32)(READ_ONCE(pc->count) + amount));
	}
	local_irq_restore(flags);
}

/*
 * percpu_counter_sync - synchronize percpu_counter
 * @fbc: counter to sync
 *
 * Apply the counter on this_cpu.
 */
void percpu_counter_sync(struct percpu_counter *fbc)
{
	struct percpu_counter_cpu *pc;
	unsigned long flags;
	s64 count;

	spin_lock_irqsave(&fbc->lock, flags);
	pc = this_cpu_ptr(fbc->counters);
	count = READ_ONCE(pc->count);	/* __this_cpu_read */
	__WRITE_ONCE(fbc->count, fbc->count + count);	/* as the add's fold */
	WRITE_ONCE(pc->count, (s32)(READ_ONCE(pc->count) - count));	/* __this_cpu_sub */
	spin_unlock_irqrestore(&fbc->lock, flags);
}

/* Add up all the per-cpu counts: online and dying CPUs (a dying CPU's
 * count is folded only by the dead callback, later). */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	unsigned long flags;
	s64 ret;
	int cpu;

	spin_lock_irqsave(&fbc->lock, flags);
	ret = fbc->count;
	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		ret += READ_ONCE(fbc->counters[cpu].count);
	spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
}

int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	s64 count = percpu_counter_read(fbc);

	/* Check to see if rough count will be sufficient for comparison */
	if (llabs(count - rhs) > (s64)batch * num_online_cpus())
		return count > rhs ? 1 : -1;
	/* Need to use precise count */
	count = percpu_counter_sum(fbc);
	return count > rhs ? 1 : count < rhs ? -1 : 0;
}

s64 percpu_counter_sum_all(const struct percpu_counter *fbc)
{
	s64 ret = READ_ONCE(fbc->count);
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		ret += READ_ONCE(fbc->counters[cpu].count);
	return ret;
}

static int compute_batch_value(unsigned int cpu)
{
	int nr = (int)num_online_cpus();

	(void)cpu;
	__WRITE_ONCE(percpu_counter_batch, max(32, nr * 2));
	return 0;
}

static int percpu_counter_cpu_dead(unsigned int cpu)
{
	struct percpu_counter *fbc;
	unsigned long lflags;

	compute_batch_value(cpu);
	lflags = counters_lock();
	list_for_each_entry(fbc, &percpu_counters, list) {
		unsigned long flags;
		s32 *pcount;

		if (fbc->instance != percpu_counter_instance)
			continue;

		spin_lock_irqsave(&fbc->lock, flags);
		pcount = &fbc->counters[cpu].count;
		__WRITE_ONCE(fbc->count, fbc->count + READ_ONCE(*pcount));
		WRITE_ONCE(*pcount, 0);
		spin_unlock_irqrestore(&fbc->lock, flags);
	}
	counters_unlock(lflags);
	return 0;
}

__attribute__((constructor)) static void percpu_counter_startup(void)
{
	cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "lib/percpu_cnt:online",
				  compute_batch_value, NULL);
	cpuhp_setup_state_nocalls(CPUHP_PERCPU_CNT_DEAD, "lib/percpu_cnt:dead", NULL,
				  percpu_counter_cpu_dead);
}

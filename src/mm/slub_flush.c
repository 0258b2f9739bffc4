// SPDX-License-Identifier: MIT
/*
 * SLUB's flushing (Linux 6.6 mm/slub.c, "flushing" and the shrink): a CPU's
 * slab and partial chain given back to the node (flush_slab,
 * __flush_cpu_slab), on every CPU in turn under cpus_read_lock (flush_all:
 * 6.6 queues flush_cpu_slab work on each CPU; the model runs it there), at
 * CPU hotplug (slub_cpu_dead, under slab_mutex) and before kmem_cache_shrink
 * frees the node's empty slabs.  The rest of the paths are src/mm/slub.c.
 */
#include "../kernel/cpu.h"
#include "../sched/san.h"
#include "internal.h"
#include "slab.h"

/* ---- flushing ---- */

static void flush_slab(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	unsigned long flags;
	struct slab *slab;
	void *freelist;

	slub_local_lock_irqsave(s, flags);
	slab = __READ_ONCE(c->slab);
	freelist = __READ_ONCE(c->freelist);
	__WRITE_ONCE(c->slab, NULL);
	__WRITE_ONCE(c->freelist, NULL);
	__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
	slub_local_unlock_irqrestore(s, flags);
	if (slab)
		deactivate_slab(s, slab, freelist);
}

/* __flush_cpu_slab for another CPU's kmem_cache_cpu (slub_cpu_dead, or the
 * model's flush_all: each CPU's state is taken by this task after the
 * owner's local lock, which the real kernel does by running on that CPU) */
static void __flush_cpu_slab(struct kmem_cache *s, int cpu)
{
	struct kmem_cache_cpu *c = per_cpu_ptr(s->cpu_slab, cpu);
	struct slab *slab, *partial;
	void *freelist;
	unsigned long flags;
	struct task *t = current;

	if (cpu == (int)raw_smp_processor_id()) {
		flush_slab(s, c);
		slub_local_lock_irqsave(s, flags);
		partial = __READ_ONCE(c->partial);
		__WRITE_ONCE(c->partial, NULL);
		slub_local_unlock_irqrestore(s, flags);
	} else {
		flags = __local_irq_save(t);
		__local_lock_acquire(&c->lock, t, __func__);
		slab = __READ_ONCE(c->slab);
		freelist = __READ_ONCE(c->freelist);
		partial = __READ_ONCE(c->partial);
		__WRITE_ONCE(c->slab, NULL);
		__WRITE_ONCE(c->freelist, NULL);
		__WRITE_ONCE(c->partial, NULL);
		__WRITE_ONCE(c->tid, next_tid(__READ_ONCE(c->tid)));
		__local_lock_release(&c->lock, t, __func__);
		__local_irq_restore(t, flags, __func__);
		if (slab)
			deactivate_slab(s, slab, freelist);
	}
	if (partial)
		__unfreeze_partials(s, partial);
}

/*
 * flush_all_cpus_locked (6.6 slub.c:3054): 6.6 queues flush_cpu_slab on
 * each online CPU and waits; a fiber task goes to each CPU in turn (it
 * waits there for whoever has the CPU with preemption or IRQs off) and
 * flushes it locally, then comes back.  Without a scheduler (a test's
 * task, or an IRQ that cannot move) every CPU is taken from here, which
 * is right only when nothing runs beside it.
 */
void flush_all_cpus_locked(struct kmem_cache *s)
{
	struct task *t = current;
	int cpu, home = t->cpu;

	if (!t->fs || t->irq_active) {
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			__flush_cpu_slab(s, cpu);
		return;
	}
	for_each_online_cpu(cpu) {
		if (cpu != t->cpu)
			sched_migrate(t, cpu, YIELD_SITE(YP_POINT, "flush_cpu_slab"));
		if (t->cpu == cpu)	/* not gone offline meanwhile */
			__flush_cpu_slab(s, cpu);
	}
	if (t->cpu != home)
		sched_migrate(t, home, YIELD_SITE(YP_POINT, "flush_cpu_slab"));
}

void flush_all(struct kmem_cache *s)
{
	cpus_read_lock();
	flush_all_cpus_locked(s);
	cpus_read_unlock();
}


int slub_cpu_dead(unsigned int cpu)
{
	struct kmem_cache *s;

	mutex_lock(&slab_mutex);
	list_for_each_entry(s, &slab_caches, list)
		__flush_cpu_slab(s, (int)cpu);
	mutex_unlock(&slab_mutex);
	return 0;
}

/* kmem_cache_shrink (__kmem_cache_do_shrink): empty slabs of the node freed */
int kmem_cache_shrink(struct kmem_cache *s)
{
	struct kmem_cache_node *n = get_node(s, 0);
	struct slab *slab, *t;
	struct list_head discard __attribute__((aligned(16))) = { &discard, &discard };
	unsigned long flags;

	flush_all(s);
	spin_lock_irqsave(&n->list_lock, flags);
	list_for_each_entry_safe(slab, t, &n->partial, slab_list) {
		/* an x86 load is an acquire: the inuse it reads was written by
		 * __slab_free's lock cmpxchg16b, so what that task did with the
		 * slab before (kmem_cache_free's slab->slab_cache) happens
		 * before the discard (TSan sees the order too) */
		struct slab c = { .counters = __atomic_load_n(&slab->counters, __ATOMIC_ACQUIRE) };

		if (!c.inuse) {		/* __slab_free changes it without list_lock */
			list_move(&slab->slab_list, &discard);
			__WRITE_ONCE(n->nr_partial, n->nr_partial - 1);
			dec_slabs_node(s, 0, slab->objects);
			__update_partial_free(n, -(long)slab->objects);	/* seed 004 */
			__update_partial_total(n, -(long)slab->objects);
		}
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	list_for_each_entry_safe(slab, t, &discard, slab_list) {
		stat(s, FREE_SLAB);
		free_slab(s, slab);
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Each CPU's TLB and x86's TLB management (Linux 6.6 arch/x86/mm/tlb.c):
 * ASIDs (PCIDs) with their tlb_gen, switch_mm_irqs_off(), lazy TLB mode,
 * flush_tlb_func() on each CPU, flush_tlb_mm_range() with
 * tlb_single_page_flush_ceiling, native_flush_tlb_multi() (lazy CPUs are
 * skipped unless page tables were freed), the batched unmap flush of
 * reclaim (arch_tlbbatch_*), and the CPU itself running user code: a load
 * or store through the TLB, a page walk on a miss, a fault when the walk
 * finds nothing usable.
 *
 * Lock order: no lock is taken here (the fault handler takes its own).
 * A CPU's struct tlb_state is changed only on that CPU with IRQs off
 * (flush_tlb_func runs there as an IPI), by the CPU hotplug dead callback
 * once the CPU is gone, and by the end-of-run drain; is_lazy is read by the
 * CPUs sending flushes.  The correctness argument is x86's: a flush first
 * bumps mm->context.tlb_gen, then IPIs every CPU in mm_cpumask (a CPU
 * switching to the mm sets its bit, then reads tlb_gen); a CPU whose ASID
 * of the mm is behind the mm's tlb_gen flushes it before using it.
 */
#include "tlb.h"

#include <errno.h>

#include "../kernel/smp.h"

const char *const tlb_stat_names[NR_TLB_STAT_ITEMS] = {
	[TLB_LOCAL_FLUSH_ALL] = "tlb_local_flush_all",
	[TLB_LOCAL_FLUSH_ONE] = "tlb_local_flush_one",
	[TLB_REMOTE_FLUSH] = "tlb_remote_flush",
	[TLB_REMOTE_FLUSH_RECEIVED] = "tlb_remote_flush_received",
	[TLB_REMOTE_FULL] = "tlb_remote_full",
	[TLB_IPI_SENT] = "tlb_ipi_sent",
	[TLB_FLUSH_REQUESTS] = "tlb_flush_requests",
	[TLB_FLUSH_REQUESTS_FULL] = "tlb_flush_requests_full",
	[TLB_SWITCH_FLUSH] = "tlb_switch_flush",
	[TLB_LAZY_SWITCH] = "tlb_lazy_switch",
	[TLB_HIT] = "tlb_hit",
	[TLB_MISS] = "tlb_miss",
	[TLB_PGFAULT] = "pgfault",
	[TLB_GATHER] = "tlb_gather",
	[TLB_GATHER_NESTED] = "tlb_gather_nested",
	[TLB_GATHER_FORCED_FLUSH] = "tlb_gather_forced_flush",
	[TLB_GATHER_BATCH_ALLOC] = "tlb_gather_batch_alloc",
	[TLB_GATHER_BATCH_FAIL] = "tlb_gather_batch_fail",
	[TLB_TABLE_FREE] = "tlb_table_free",
	[TLB_TABLE_RCU] = "tlb_table_rcu",
	[TLB_TABLE_SYNC_ONE] = "tlb_table_sync_one",
	[TLB_UBC_FLUSH] = "tlb_ubc_flush",
	[TLB_BATCHED_PENDING_FLUSH] = "tlb_batched_pending_flush",
	[TLB_GUP_FAST_RECHECK] = "gup_fast_recheck",
};

/* Counted on the CPU the task runs on (raw: any context). */
void count_tlb_event(enum tlb_stat_item item)
{
	struct tlb_world *tw = tlb_world();
	int cpu = raw_smp_processor_id();

	__atomic_fetch_add(&tw->cpu[cpu].stat[item], 1, __ATOMIC_RELAXED);
}

static void count_tlb_events(struct tlb_state *ts, enum tlb_stat_item item, unsigned long n)
{
	__atomic_fetch_add(&ts->stat[item], n, __ATOMIC_RELAXED);
}

unsigned long tlb_stat_sum(enum tlb_stat_item item)
{
	struct tlb_world *tw = tlb_world();
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < tw->ncpus; cpu++)
		sum += __atomic_load_n(&tw->cpu[cpu].stat[item], __ATOMIC_RELAXED);
	return sum;
}

void tlb_stat_reset(void)
{
	struct tlb_world *tw = tlb_world();
	int cpu, i;

	for (cpu = 0; cpu < tw->ncpus; cpu++)
		for (i = 0; i < NR_TLB_STAT_ITEMS; i++)
			__atomic_store_n(&tw->cpu[cpu].stat[i], 0, __ATOMIC_RELAXED);
}

static struct tlb_state *this_tlb_state(struct tlb_world *tw)
{
	return &tw->cpu[smp_processor_id()];
}

/*
 * mm_cpumask and is_lazy order what a CPU did in an mm before it left it
 * (or went lazy) against the flusher that then skips it and frees the
 * pages: x86's bit operations are locked (full barriers), its per-CPU
 * stores and loads TSO.  Here a leaving CPU's update is a release, the
 * flusher's read an acquire (TSan sees the same order).
 */
#define mm_cpumask_set(cpu, mm) do {						\
	yield_point(YIELD_SITE(YP_ATOMIC, "mm_cpumask(mm)"));			\
	__atomic_fetch_or(&mm_cpumask(mm)->bits, 1UL << (cpu), __ATOMIC_SEQ_CST); \
} while (0)
#define mm_cpumask_clear(cpu, mm) do {						\
	yield_point(YIELD_SITE(YP_ATOMIC, "mm_cpumask(mm)"));			\
	__atomic_fetch_and(&mm_cpumask(mm)->bits, ~(1UL << (cpu)), __ATOMIC_SEQ_CST); \
} while (0)

static unsigned long mm_cpumask_read(const struct cpumask *mask)
{
	return __atomic_load_n(&mask->bits, __ATOMIC_ACQUIRE);
}

static void set_lazy(struct tlb_state *ts, bool lazy)
{
	__atomic_store_n(&ts->is_lazy, lazy, __ATOMIC_RELEASE);
}

/* ---- the TLB itself ---- */

static struct tlb_entry *tlb_hw_lookup(struct tlb_world *tw, struct tlb_state *ts,
				       unsigned int asid, unsigned long vpn)
{
	int i;

	for (i = 0; i < tw->nr_entries; i++) {
		struct tlb_entry *e = &ts->entries[i];

		if (e->asid == asid + 1 && e->vpn == vpn) {
			e->lru = ++ts->lru_clock;
			return e;
		}
	}
	return NULL;
}

/* A new translation, in place of an unused entry or the least recently
 * used one. */
static struct tlb_entry *tlb_hw_fill(struct tlb_world *tw, struct tlb_state *ts,
				     unsigned int asid, unsigned long vpn, pte_t pte)
{
	struct tlb_entry *e = NULL;
	int i;

	for (i = 0; i < tw->nr_entries; i++) {
		struct tlb_entry *c = &ts->entries[i];

		if (c->asid == asid + 1 && c->vpn == vpn) {
			e = c;
			break;
		}
		if (!e || (e->asid && (!c->asid || c->lru < e->lru)))
			e = c;
	}
	e->asid = (unsigned char)(asid + 1);
	e->vpn = vpn;
	e->pfn = pte_pfn(pte);
	e->writable = pte_write(pte);
	e->dirty = pte_dirty(pte);
	e->lru = ++ts->lru_clock;
	e->fill = tlb_clock_tick(tw);
	return e;
}

/* INVLPG: one page of the loaded ASID. */
static void __flush_tlb_one_user(struct tlb_world *tw, struct tlb_state *ts, unsigned long addr)
{
	unsigned long vpn = addr >> PAGE_SHIFT;
	int i;

	for (i = 0; i < tw->nr_entries; i++)
		if (ts->entries[i].asid == ts->loaded_mm_asid + 1 && ts->entries[i].vpn == vpn)
			ts->entries[i].asid = 0;
}

/* Every entry of one ASID (a CR3 write without NOFLUSH). */
static void tlb_hw_flush_asid(struct tlb_world *tw, struct tlb_state *ts, unsigned int asid)
{
	int i;

	for (i = 0; i < tw->nr_entries; i++)
		if (ts->entries[i].asid == asid + 1)
			ts->entries[i].asid = 0;
}

/* flush_tlb_local(): the loaded ASID's entries.  native_flush_tlb_local's
 * WARN_ON_ONCE(preemptible()): the CPU's state, read and written at once. */
static void flush_tlb_local(struct tlb_world *tw, struct tlb_state *ts)
{
	lockdep_assert_preemption_disabled();
	tlb_hw_flush_asid(tw, ts, ts->loaded_mm_asid);
}

bool tlb_entry_usable(struct tlb_world *tw, int cpu, const struct tlb_entry *e,
		      struct mm_struct **mmp)
{
	const struct tlb_state *ts = &tw->cpu[cpu];
	const struct tlb_context *ctx;
	int i;

	if (!e->asid || !cpu_online(cpu))
		return false;
	ctx = &ts->ctxs[e->asid - 1];
	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		if (!(tw->mm_free & (1UL << i)) && mm->live && mm->context.ctx_id == ctx->ctx_id) {
			*mmp = mm;
			/* a CPU inside switch_mm_irqs_off (IRQs off, no user
			 * code) comes back to the ASID only through the tlb_gen
			 * check of choose_new_asid or of the lazy path, whether
			 * or not it has yet cleared its bit in prev's cpumask */
			if (ts->loaded_mm == mm && ts->loaded_mm_asid == e->asid - 1 && !ts->is_lazy &&
			    !__atomic_load_n(&ts->in_switch_mm, __ATOMIC_RELAXED) &&
			    cpumask_test_cpu(cpu, mm_cpumask(mm)))
				return true;
			/* the checkers' question: never a yield point */
			return ctx->tlb_gen >= (u64)raw_atomic_read(&mm->context.tlb_gen);
		}
	}
	return false;		/* an mm gone: its ctx_id never comes back */
}

/* ---- switching mms ---- */

static void choose_new_asid(struct tlb_world *tw, struct tlb_state *ts, struct mm_struct *next,
			    u64 next_tlb_gen, unsigned short *new_asid, bool *need_flush)
{
	unsigned short asid;

	for (asid = 0; asid < tw->nr_asids; asid++) {
		if (ts->ctxs[asid].ctx_id != next->context.ctx_id)
			continue;
		*new_asid = asid;
		*need_flush = ts->ctxs[asid].tlb_gen < next_tlb_gen;
		return;
	}
	/* We don't currently own an ASID slot on this CPU.  Allocate a slot. */
	*new_asid = ts->next_asid++;
	if (*new_asid >= tw->nr_asids) {
		*new_asid = 0;
		ts->next_asid = 1;
	}
	*need_flush = true;
}

/* @next NULL is init_mm: no user entries are ever filled for it. */
static void switch_mm_irqs_off(struct tlb_world *tw, struct mm_struct *next)
{
	struct tlb_state *ts = this_tlb_state(tw);
	struct mm_struct *prev = ts->loaded_mm;
	unsigned short prev_asid = ts->loaded_mm_asid, new_asid = 0;
	bool was_lazy = ts->is_lazy, need_flush = false;
	int cpu = smp_processor_id();
	u64 next_tlb_gen = 0;

	/* We don't want flush_tlb_func() to run concurrently with us: 6.6's
	 * WARN_ON_ONCE(!irqs_disabled()) under CONFIG_PROVE_LOCKING */
	lockdep_assert_irqs_disabled();
	/* IRQs off to the return: no user code, no flush IPI taken, so no
	 * TLB entry used until the switch is done, and then only what the
	 * tlb_gen checks below kept.  For the checkers (tlb_entry_usable): a
	 * lazy CPU is no longer lazy from here, before it leaves prev's
	 * mm_cpumask or reads next's tlb_gen. */
	__atomic_store_n(&ts->in_switch_mm, true, __ATOMIC_RELAXED);
	if (was_lazy)
		set_lazy(ts, false);
	if (prev == next) {
		if (!next)
			goto out;
		/* Even in lazy TLB mode, the CPU stays set in the mm_cpumask. */
		if (!cpumask_test_cpu(cpu, mm_cpumask(next)))
			mm_cpumask_set(cpu, next);
		/* Not lazy: another thread of the same process, no flush. */
		if (!was_lazy)
			goto out;
		/* TLB contents may have gone out of date while lazy. */
		next_tlb_gen = (u64)atomic_long_read(&next->context.tlb_gen);
		if (ts->ctxs[prev_asid].tlb_gen == next_tlb_gen)
			goto out;
		new_asid = prev_asid;
		need_flush = true;
	} else {
		/* Stop remote flushes for the previous mm. */
		if (prev)
			mm_cpumask_clear(cpu, prev);
		if (!next) {
			ts->loaded_mm = NULL;
			goto out;
		}
		/* Start receiving IPIs and then read tlb_gen. */
		mm_cpumask_set(cpu, next);
		next_tlb_gen = (u64)atomic_long_read(&next->context.tlb_gen);
		choose_new_asid(tw, ts, next, next_tlb_gen, &new_asid, &need_flush);
	}
	if (need_flush) {
		ts->ctxs[new_asid].ctx_id = next->context.ctx_id;
		ts->ctxs[new_asid].tlb_gen = next_tlb_gen;
		tlb_hw_flush_asid(tw, ts, new_asid);	/* load_new_mm_cr3(.., true) */
		count_tlb_events(ts, TLB_SWITCH_FLUSH, 1);
	}
	ts->loaded_mm = next;
	ts->loaded_mm_asid = new_asid;
out:
	__atomic_store_n(&ts->in_switch_mm, false, __ATOMIC_RELAXED);
}

void switch_to_user_mm(struct mm_struct *mm)
{
	struct tlb_world *tw = mm->tw;
	struct tlb_state *ts = this_tlb_state(tw);
	struct mm_struct *old = ts->active_mm;

	/* the CPU's tlb_state changes with IRQs off (the header's rule; 6.6's
	 * switch_mm() disables them around switch_mm_irqs_off) */
	lockdep_assert_irqs_disabled();
	if (old != mm) {
		mmgrab(mm);
		ts->active_mm = mm;
	}
	if (ts->loaded_mm != mm || ts->is_lazy)
		switch_mm_irqs_off(tw, mm);
	if (old && old != mm)
		mmdrop(old);
}

void enter_lazy_tlb(struct mm_struct *mm)
{
	struct tlb_state *ts = this_tlb_state(mm->tw);

	/* context_switch()'s enter_lazy_tlb, with IRQs off (the header's rule) */
	lockdep_assert_irqs_disabled();
	if (!ts->loaded_mm)
		return;
	set_lazy(ts, true);
}

void tlb_cpu_reset(struct tlb_world *tw, int cpu)
{
	struct tlb_state *ts = &tw->cpu[cpu];
	struct mm_struct *old = ts->active_mm;
	int i;

	if (ts->loaded_mm)
		mm_cpumask_clear(cpu, ts->loaded_mm);
	ts->loaded_mm = NULL;
	ts->active_mm = NULL;
	ts->loaded_mm_asid = 0;
	ts->next_asid = 0;
	set_lazy(ts, false);
	for (i = 0; i < TLB_NR_DYN_ASIDS; i++)
		ts->ctxs[i] = (struct tlb_context){ 0, 0 };
	for (i = 0; i < TLB_MAX_ENTRIES; i++)
		ts->entries[i].asid = 0;
	if (old)
		mmdrop(old);
}

/* ---- flushing ---- */

struct flush_tlb_info {
	struct mm_struct *mm;		/* NULL: whatever mm each CPU has loaded */
	unsigned long start;
	unsigned long end;
	u64 new_tlb_gen;
	unsigned int initiating_cpu;
	unsigned char stride_shift;
	bool freed_tables;
};

/*
 * On each CPU (IRQs off): catch the loaded ASID up with its mm's tlb_gen,
 * by the range asked for when that is exactly the one generation behind,
 * else by a full flush.
 */
static void flush_tlb_func(void *info)
{
	const struct flush_tlb_info *f = info;
	struct tlb_world *tw = tlb_world();
	struct tlb_state *ts = this_tlb_state(tw);
	struct mm_struct *loaded_mm = ts->loaded_mm;
	unsigned short asid = ts->loaded_mm_asid;
	u64 local_tlb_gen = ts->ctxs[asid].tlb_gen, mm_tlb_gen;
	bool local = (unsigned int)smp_processor_id() == f->initiating_cpu;

	/* This code cannot presently handle being reentered (6.6's
	 * VM_WARN_ON(!irqs_disabled())). */
	lockdep_assert_irqs_disabled();
	if (!local) {
		count_tlb_events(ts, TLB_REMOTE_FLUSH_RECEIVED, 1);
		/* Can only happen on remote CPUs */
		if (f->mm && f->mm != loaded_mm)
			return;
	}
	if (!loaded_mm)
		return;
	if (__READ_ONCE(ts->is_lazy)) {		/* this CPU's own, IRQs off */
		/* Lazy: rather than flush, switch to init_mm (cheaper, and the
		 * paging-structure caches go with it). */
		count_tlb_events(ts, TLB_LAZY_SWITCH, 1);
		switch_mm_irqs_off(tw, NULL);
		return;
	}
	if (f->new_tlb_gen != TLB_GENERATION_INVALID && f->new_tlb_gen <= local_tlb_gen)
		return;		/* already up to date with respect to this flush */
	mm_tlb_gen = (u64)atomic_long_read(&loaded_mm->context.tlb_gen);
	if (local_tlb_gen == mm_tlb_gen)
		return;		/* a concurrent flush caught us all the way up */
	if (f->end != TLB_FLUSH_ALL && f->new_tlb_gen == local_tlb_gen + 1 &&
	    f->new_tlb_gen == mm_tlb_gen) {
		/* Partial flush */
		unsigned long addr = f->start;

		while (addr < f->end) {
			__flush_tlb_one_user(tw, ts, addr);
			addr += 1UL << f->stride_shift;
		}
		if (local)
			count_tlb_events(ts, TLB_LOCAL_FLUSH_ONE,
					 (f->end - f->start) >> f->stride_shift);
	} else {
		/* Full flush. */
		flush_tlb_local(tw, ts);
		if (local)
			count_tlb_events(ts, TLB_LOCAL_FLUSH_ALL, 1);
		else
			count_tlb_events(ts, TLB_REMOTE_FULL, 1);
	}
	/* Both paths above update our state to mm_tlb_gen. */
	ts->ctxs[asid].tlb_gen = mm_tlb_gen;
}

static bool tlb_is_not_lazy(int cpu, void *data)
{
	struct tlb_world *tw = tlb_world();

	(void)data;
	return !__atomic_load_n(&tw->cpu[cpu].is_lazy, __ATOMIC_ACQUIRE);
}

static void native_flush_tlb_multi(const struct cpumask *cpumask, const struct flush_tlb_info *info)
{
	struct tlb_world *tw = tlb_world();
	int cpu = smp_processor_id(), other;
	unsigned long sent = 0;

	count_tlb_event(TLB_REMOTE_FLUSH);
	for_each_cpu(other, cpumask)
		sent += other != cpu && other < tw->ncpus && cpu_online(other) &&
			(info->freed_tables || tlb_is_not_lazy(other, NULL));
	count_tlb_events(&tw->cpu[cpu], TLB_IPI_SENT, sent);
	/*
	 * If no page tables were freed, we can skip sending IPIs to CPUs in
	 * lazy TLB mode: they will flush the TLB when they switch back.
	 * Freed page tables must reach them: a lazy CPU's paging-structure
	 * caches (and gup_fast with IRQs off there) may still use them.
	 */
	if (info->freed_tables)
		on_each_cpu_mask(cpumask, flush_tlb_func, (void *)info, true);
	else
		on_each_cpu_cond_mask(tlb_is_not_lazy, flush_tlb_func, (void *)info, true, cpumask);
}

/* Another CPU than @cpu in @mask? */
static bool cpumask_any_other(const struct cpumask *mask, int cpu)
{
	return mm_cpumask_read(mask) & ~(1UL << cpu);
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift, bool freed_tables)
{
	struct tlb_world *tw = mm->tw;
	struct flush_tlb_info info;
	unsigned long flags;
	u64 stamp = tlb_clock_tick(tw);
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	count_tlb_event(TLB_FLUSH_REQUESTS);
	/* Should we flush just the requested range? */
	if (end == TLB_FLUSH_ALL || ((end - start) >> stride_shift) > tw->ceiling) {
		start = 0;
		end = TLB_FLUSH_ALL;
		count_tlb_event(TLB_FLUSH_REQUESTS_FULL);
	}
	info = (struct flush_tlb_info){
		.mm = mm, .start = start, .end = end, .stride_shift = (unsigned char)stride_shift,
		.freed_tables = freed_tables, .initiating_cpu = (unsigned int)cpu,
	};
	/* This is also a barrier that synchronizes with switch_mm(). */
	info.new_tlb_gen = (u64)atomic_long_add_return(1, &mm->context.tlb_gen);
	if (cpumask_any_other(mm_cpumask(mm), cpu)) {
		native_flush_tlb_multi(mm_cpumask(mm), &info);
	} else if (mm == tw->cpu[cpu].loaded_mm) {
		lockdep_assert_irqs_enabled();
		local_irq_save(flags);
		flush_tlb_func(&info);
		local_irq_restore(flags);
	}
	preempt_enable();
	if (freed_tables)
		HOOK(tlb, tables_flushed, mm, stamp);
}

/* ---- reclaim's batched flush ---- */

bool arch_tlbbatch_should_defer(struct mm_struct *mm)
{
	bool should_defer;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	/* If remote CPUs need to be flushed then defer batch the flush */
	should_defer = cpumask_any_other(mm_cpumask(mm), cpu);
	preempt_enable();
	return should_defer;
}

void arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch, struct mm_struct *mm,
			       unsigned long uaddr)
{
	(void)uaddr;
	atomic_long_add_return(1, &mm->context.tlb_gen);	/* inc_mm_tlb_gen() */
	/* current->tlb_ubc: the task's own */
	__WRITE_ONCE(batch->cpumask.bits, batch->cpumask.bits | mm_cpumask_read(mm_cpumask(mm)));
}

void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch)
{
	struct tlb_world *tw = tlb_world();
	struct flush_tlb_info info = {
		.mm = NULL, .start = 0, .end = TLB_FLUSH_ALL,
		.new_tlb_gen = TLB_GENERATION_INVALID,
	};
	unsigned long flags;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	info.initiating_cpu = (unsigned int)cpu;
	if (cpumask_any_other(&batch->cpumask, cpu)) {
		native_flush_tlb_multi(&batch->cpumask, &info);
	} else if (cpumask_test_cpu(cpu, &batch->cpumask)) {
		lockdep_assert_irqs_enabled();
		local_irq_save(flags);
		flush_tlb_func(&info);
		local_irq_restore(flags);
	}
	cpumask_clear(&batch->cpumask);
	preempt_enable();
	(void)tw;
}

/* ---- the CPU running user code ---- */

/*
 * One try: through the TLB, or a walk that fills it.  0 done, 1 a fault is
 * needed.  The walk and its A/D update are what the hardware does: no
 * lock, the PTE read once and updated with a locked cmpxchg (the walk
 * starts again when the PTE changed under it); IRQs are off throughout, so
 * a flush IPI to this CPU waits until the access is done, as an interrupt
 * waits for the instruction.
 */
static int access_once(struct tlb_world *tw, struct mm_struct *mm, unsigned long addr, bool write)
{
	unsigned long vpn = addr >> PAGE_SHIFT, flags, val;
	struct tlb_state *ts;
	struct tlb_entry *e;
	unsigned long *word;

	local_irq_save(flags);
	ts = this_tlb_state(tw);
	switch_to_user_mm(mm);
	e = tlb_hw_lookup(tw, ts, ts->loaded_mm_asid, vpn);
	if (e && write && !(e->writable && e->dirty)) {
		/* read-only or clean: the write walks (to fault, or to set D) */
		e->asid = 0;
		e = NULL;
	}
	if (e) {
		count_tlb_events(ts, TLB_HIT, 1);
	} else {
		pmd_t pmd = pmdp_get_lockless(pmd_off(mm, addr));
		pte_t *ptep, pte, new;

		count_tlb_events(ts, TLB_MISS, 1);
		if (!pmd_present(pmd))
			goto fault;
		ptep = pte_table_base(pmd_pfn(pmd)) + ((addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1));
		for (;;) {
			pte = ptep_get_lockless(ptep);
			if (!(pte_val(pte) & _PAGE_PRESENT) || !(pte_val(pte) & _PAGE_USER) ||
			    (write && !pte_write(pte)))
				goto fault;
			new = pte_mkyoung(pte);
			if (write)
				new = pte_mkdirty(new);
			if (pte_same(new, pte))
				break;
			yield_point(YIELD_SITE(YP_CMPXCHG, "pte"));
			if (__atomic_compare_exchange_n(&ptep->pte, &pte.pte, new.pte, false,
							__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				break;
			loop_point("walk_again");
		}
		e = tlb_hw_fill(tw, ts, ts->loaded_mm_asid, vpn, new);
	}
	word = page_address(pfn_to_page(e->pfn));
	/* one instruction's load and store: no yield point inside (a flush
	 * IPI waits for it) */
	val = __READ_ONCE(word[0]);
	HOOK(tlb, access, mm, addr, write, e, val);
	if (write)
		__WRITE_ONCE(word[1], __READ_ONCE(word[1]) + 1);
	local_irq_restore(flags);
	return 0;

fault:
	local_irq_restore(flags);
	return 1;
}

int user_access(struct mm_struct *mm, unsigned long addr, bool write)
{
	struct tlb_world *tw = mm->tw;
	unsigned int ret;
	int tries;

	if (addr >= mm->task_size)
		return -EFAULT;
	for (tries = 0; tries < 4; tries++) {
		if (!access_once(tw, mm, addr, write))
			return 0;
		ret = handle_mm_fault(mm, addr, write ? FAULT_FLAG_WRITE : 0);
		if (ret & VM_FAULT_SIGSEGV)
			return -EFAULT;
		if (ret & VM_FAULT_OOM)
			return -ENOMEM;
	}
	return -EAGAIN;
}

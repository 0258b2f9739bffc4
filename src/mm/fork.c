// SPDX-License-Identifier: MIT
/*
 * An address space's life (Linux 6.6 kernel/fork.c: mm_alloc, mmput,
 * mmdrop, __mmdrop and check_mm; kernel/exit.c: exit_mm) and the TLB
 * gather layer of the world: its config keys, the mm_struct slots and
 * per-CPU TLBs each world holds, their boot state, reset and drain.
 *
 * Lock order: tlb_world->mm_lock -> percpu_counters_lock (vm_committed_get:
 * the run's first mm_alloc makes vm_committed_as under it, where the kernel
 * made it at boot); else mm_lock is taken alone (with IRQs on or off); it
 * protects the free-slot bitmap.  An mm is freed only when its last
 * mm_count goes (tasks' users hold one for all of them; each CPU that
 * has it as active_mm holds one).
 */
#include "tlb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel/cpu.h"
#include "mman.h"

/* ---- config keys (binary places 16..24; fixed forever) ---- */

/* whole PTE tables: the pgd maps PTRS_PER_PTE pages an entry */
static void range_mm_pages(const struct mm_config *c, long *lo, long *hi, long *unit)
{
	(void)c;
	(void)lo;
	(void)hi;
	*unit = PTRS_PER_PTE;
}

struct config_key ck_mm_pages = {
	.name = "mm_pages", .layer = "tlb",
	.desc = "virtual pages of an mm (TASK_SIZE / PAGE_SIZE): whole PTE tables of 8",
	.lo = 8, .hi = 65536, .def = 64, .fuzz_n = 32, .bin_off = 16, .bin_len = 3,
	.shrink = true, .range = range_mm_pages,
};
struct config_key ck_tlb_entries = {
	.name = "tlb_entries", .layer = "tlb",
	.desc = "translations each CPU's TLB caches (fully associative, LRU)",
	.lo = 1, .hi = TLB_MAX_ENTRIES, .def = 16, .bin_off = 19, .bin_len = 1, .shrink = true,
	.tune = true,
};
struct config_key ck_tlb_ceiling = {
	.name = "tlb_single_page_flush_ceiling", .layer = "tlb",
	.desc = "pages above which a range flush is a full flush (x86: 33)",
	.lo = 0, .hi = 4095, .def = 33, .fuzz_n = 65, .bin_off = 20, .bin_len = 2,
	.tune = true,
};
struct config_key ck_tlb_asids = {
	.name = "tlb_asids", .layer = "tlb",
	.desc = "PCIDs a CPU keeps mms in (x86: TLB_NR_DYN_ASIDS 6; 1: a flush at every switch)",
	.lo = 1, .hi = TLB_NR_DYN_ASIDS, .def = TLB_NR_DYN_ASIDS, .bin_off = 22, .bin_len = 1,
	.tune = true,
};
struct config_key ck_gather_batch_count = {
	.name = "gather_batch_count", .layer = "tlb",
	.desc = "MAX_GATHER_BATCH_COUNT: batch pages one mmu_gather may add (the kernel's "
		"10000 pages over MAX_GATHER_BATCH: 1666)",
	.lo = 1, .hi = 2048, .def = 1666, .fuzz_n = 8, .bin_off = 23, .bin_len = 2,
	.tune = true,
};
/*
 * How a PTE table leaves: x86's ___pte_free_tlb calls
 * paravirt_tlb_remove_table, which native_pv_ops makes tlb_remove_page
 * (the page batch, freed after the flush IPI that gup_fast's disabled
 * IRQs hold off); Xen and Hyper-V guests set it to tlb_remove_table
 * (MMU_GATHER_RCU_TABLE_FREE: a table batch freed after a grace period,
 * or a sync IPI when no batch page can be had).
 */
static const char *const table_free_names[] = { "native", "rcu" };
struct config_key ck_tlb_table_free = {
	.name = "tlb_table_free", .layer = "tlb",
	.desc = "how page tables are freed: native (x86's tlb_remove_page, after the flush) or "
		"rcu (a paravirt guest's tlb_remove_table, after a grace period)",
	.lo = 0, .hi = 1, .def = 0, .names = table_free_names, .bin_off = 27, .bin_len = 1,
	.tune = true,
};
CONFIG_KEY(ck_mm_pages);
CONFIG_KEY(ck_tlb_entries);
CONFIG_KEY(ck_tlb_ceiling);
CONFIG_KEY(ck_tlb_asids);
CONFIG_KEY(ck_gather_batch_count);
CONFIG_KEY(ck_tlb_table_free);

/* ---- the world layer ---- */

static struct world_layer tlb_layer;
DEFINE_HOOKS(tlb);

struct tlb_world *tlb_world(void)
{
	return world_layer_state(mm_world, &tlb_layer);
}

struct tlb_world *tlb_world_of(struct world *w)
{
	return world_layer_state(w, &tlb_layer);
}

/* The tune keys: read where they are used (the per-CPU TLBs are sized for
 * the largest tlb_entries and tlb_asids, and clear beyond what a run took). */
static void tlb_tune(struct world *w, const struct mm_config *c)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);

	tw->nr_entries = (int)config_get(c, &ck_tlb_entries);
	tw->nr_asids = (int)config_get(c, &ck_tlb_asids);
	tw->ceiling = (unsigned long)config_get(c, &ck_tlb_ceiling);
	tw->batch_count_max = (unsigned int)config_get(c, &ck_gather_batch_count);
	tw->table_free_rcu = config_get(c, &ck_tlb_table_free) == 1;
	tw->overcommit_boot = (int)config_get(c, &ck_overcommit_memory);
	tw->overcommit_memory = tw->overcommit_boot;
	tw->overcommit_ratio = (int)config_get(c, &ck_overcommit_ratio);
}

static __layer_nocov int tlb_create(struct world *w, const struct mm_config *c)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);
	int i;

	tw->ncpus = w->cfg.ncpus;
	tlb_tune(w, c);
	tw->task_size = (unsigned long)config_get(c, &ck_mm_pages) << PAGE_SHIFT;
	/* zero (a destroyed world's mms, pgds and CPUs come back zero:
	 * tlb_destroy; boot_zero spares the first boot clearing them again);
	 * each slot's own fields are set here first, so that a failure frees
	 * what it should */
	tw->mms = world_calloc(TLB_MAX_MMS, sizeof(*tw->mms));
	if (!tw->mms)
		return -ENOMEM;
	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		mm->pgd = NULL;
		mm->tw = tw;
		mm->slot = i;
		mm->live = false;
	}
	tw->cpu = world_calloc((size_t)tw->ncpus, sizeof(*tw->cpu));
	/* a table's lock is initialised with the table (pte_alloc_one) */
	tw->ptl = world_malloc(pa_world(w)->nr_pages, sizeof(*tw->ptl));
	if (!tw->cpu || !tw->ptl)
		return -ENOMEM;
	for (i = 0; i < TLB_MAX_MMS; i++) {
		tw->mms[i].pgd = world_calloc(tw->task_size >> PMD_SHIFT, sizeof(pmd_t));
		if (!tw->mms[i].pgd)
			return -ENOMEM;
	}
	tw->mm_touched = (1UL << TLB_MAX_MMS) - 1;
	tw->boot_zero = true;
	tw->used = true;	/* the first boot sets it all up */
	return 0;
}

/* A slot as boot leaves it (but poisoned): its pgd and its dynamic part
 * zero.  Unpoisons the slot. */
static __layer_nocov void mm_slot_clear(struct tlb_world *tw, struct mm_struct *mm)
{
	if (mm->pgd)
		memset(mm->pgd, 0, (tw->task_size >> PMD_SHIFT) * sizeof(pmd_t));
	san_unpoison((char *)mm + MM_STRUCT_DYNAMIC, sizeof(*mm) - MM_STRUCT_DYNAMIC);
	memset((char *)mm + MM_STRUCT_DYNAMIC, 0, sizeof(*mm) - MM_STRUCT_DYNAMIC);
}

static void mm_slot_poison(struct mm_struct *mm)
{
	san_poison((char *)mm + MM_STRUCT_DYNAMIC, sizeof(*mm) - MM_STRUCT_DYNAMIC);
}

static void mm_slot_unpoison(struct mm_struct *mm)
{
	san_unpoison((char *)mm + MM_STRUCT_DYNAMIC, sizeof(*mm) - MM_STRUCT_DYNAMIC);
}

/*
 * A run that ended early (a violation) may leave mms alive, or one half
 * made: their rss counters leave the list of percpu_counters (those never
 * initialised, or destroyed, have no per-CPU counts).
 */
static __layer_nocov void tlb_reset(struct world *w)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);
	int i, k;

	if (!tw->used)
		return;
	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		if (!(tw->mm_touched & (1UL << i)))
			continue;
		mm_slot_unpoison(mm);
		for (k = 0; k < NR_MM_COUNTERS; k++)
			percpu_counter_destroy(&mm->rss_stat[k]);
		mm->live = false;
	}
	/* made, or half made by a run stopped inside its init */
	vm_committed_destroy(tw);
	tw->committed_live = false;
	tw->overcommit_memory = tw->overcommit_boot;	/* an overcommit write's */
}

/* After create and every reset, when the last run touched the layer: the
 * slots it took (the others are as the last boot left them). */
static __layer_nocov void tlb_boot(struct world *w)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);
	int i;

	if (!tw->used)
		return;
	zero_page_boot(w);	/* a run may have written it (a bug switch) */
	spin_lock_init_named(&tw->mm_lock, "tlb_world->mm_lock", -1);
	tw->mm_free = (1UL << TLB_MAX_MMS) - 1;
	for (i = 0; i < TLB_MAX_MMS; i++) {
		struct mm_struct *mm = &tw->mms[i];

		if (!(tw->mm_touched & (1UL << i)))
			continue;
		if (!tw->boot_zero)
			mm_slot_clear(tw, mm);
		mm_slot_poison(mm);
	}
	if (!tw->boot_zero)
		memset(tw->cpu, 0, (size_t)tw->ncpus * sizeof(*tw->cpu));
	tw->last_ctx_id = 0;
	tw->clock = 0;
	tw->table_syncs = 0;
	tw->mm_touched = 0;
	tw->boot_zero = false;
	tw->used = false;
}

/*
 * The end of a run, on the executor's task: every task has left its mm
 * and every handle was released; the CPUs let go of the mms they still
 * have loaded (the last of them frees each), and the page tables waiting
 * for a grace period go.
 */
static void tlb_drain(struct world *w)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);
	int cpu;

	if (!__READ_ONCE(tw->used))
		return;
	for (cpu = 0; cpu < tw->ncpus; cpu++)
		tlb_cpu_reset(tw, cpu);
	/* real mode: liburcu wants a registered thread (the runner's is not) */
	if (!current->fs)
		rcu_register_thread();
	rcu_barrier();
	if (!current->fs)
		rcu_unregister_thread();
}

static __layer_nocov void tlb_destroy(struct world *w)
{
	struct tlb_world *tw = world_layer_state(w, &tlb_layer);
	int i;

	tlb_reset(w);
	zero_page_destroy(w);
	if (tw->mms) {
		/* a slot is zero but for those taken since boot (tlb_boot):
		 * those are cleared here instead, for the next world's calloc */
		for (i = 0; i < TLB_MAX_MMS; i++) {
			struct mm_struct *mm = &tw->mms[i];

			mm_slot_unpoison(mm);
			if (!tw->boot_zero && (tw->mm_touched & (1UL << i)))
				mm_slot_clear(tw, mm);
			world_free_zeroed(mm->pgd);
			memset(mm, 0, MM_STRUCT_DYNAMIC);
		}
	}
	world_free_zeroed(tw->mms);
	/* the CPUs are zero after boot until a run uses the layer */
	if (tw->cpu && tw->used && !tw->boot_zero)
		memset(tw->cpu, 0, (size_t)tw->ncpus * sizeof(*tw->cpu));
	world_free_zeroed(tw->cpu);
	world_free(tw->ptl);
}

static struct world_layer tlb_layer = {
	.name = "tlb",
	.order = 10,
	.state_size = sizeof(struct tlb_world),
	.create = tlb_create,
	.boot = tlb_boot,
	.reset = tlb_reset,
	.tune = tlb_tune,
	.drain = tlb_drain,
	.destroy = tlb_destroy,
	.stat_size = sizeof(struct tlb_stat),
	.stat_snap = tlb_stat_snap,
	.stat_print = tlb_stat_print,
};
WORLD_LAYER(tlb_layer);

/* CPUHP_BP_PREPARE_DYN's teardown, on the control CPU once @cpu is gone:
 * a CPU that comes back starts with an empty TLB and init_mm loaded. */
static int tlb_cpu_dead(unsigned int cpu)
{
	struct tlb_world *tw = tlb_world();

	if (__READ_ONCE(tw->used) && (int)cpu < tw->ncpus)
		tlb_cpu_reset(tw, (int)cpu);
	return 0;
}

__attribute__((constructor)) static void tlb_layer_init(void)
{
	cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "x86/tlb:dead", NULL, tlb_cpu_dead);
}

/* ---- an mm's life ---- */

/* Where the heap starts: a quarter up the address space (mmaps come
 * top-down from TASK_SIZE). */
static unsigned long brk_base(unsigned long task_size)
{
	return PAGE_ALIGN(task_size / 4);
}

static int mm_init(struct tlb_world *tw, struct mm_struct *mm)
{
	int i;

	mm_slot_unpoison(mm);
	memset((char *)mm + MM_STRUCT_DYNAMIC, 0, sizeof(*mm) - MM_STRUCT_DYNAMIC);
	/* x86's init_new_context(): a ctx_id never used before, tlb_gen 0 */
	mm->context.ctx_id = __atomic_add_fetch(&tw->last_ctx_id, 1, __ATOMIC_RELAXED);
	raw_atomic_set(&mm->mm_users, 1);	/* not yet visible */
	raw_atomic_set(&mm->mm_count, 1);
	init_rwsem_named(&mm->mmap_lock, "mmap_lock");
	init_rwsem_named(&mm->anon_vma.rwsem, "anon_vma->rwsem");
	spin_lock_init_named(&mm->page_table_lock, "mm->page_table_lock", -1);
	mm->task_size = tw->task_size;
	mm->mmap_base = tw->task_size;
	mm->start_brk = mm->brk = brk_base(tw->task_size);
	for (i = 0; i < NR_MM_COUNTERS; i++) {
		if (percpu_counter_init_named(&mm->rss_stat[i], 0, "mm->rss_stat.lock")) {
			while (i--)
				percpu_counter_destroy(&mm->rss_stat[i]);
			return -ENOMEM;
		}
	}
	mm->live = true;
	return 0;
}

/*
 * The kernel's boot made vm_committed_as before any mm: here the run's
 * first mm_alloc (before it returns an mm to map in) or overcommit write,
 * under mm_lock so that a second task finds it made (a reset destroys it,
 * so the dead callback folds only this world's).  0 or -ENOMEM.
 */
int vm_committed_get(struct tlb_world *tw)
{
	int err = 0;

	if (__atomic_load_n(&tw->committed_live, __ATOMIC_ACQUIRE))
		return 0;
	if (!__READ_ONCE(tw->used))		/* the model's bookkeeping */
		__WRITE_ONCE(tw->used, true);
	spin_lock(&tw->mm_lock);
	if (!tw->committed_live) {
		err = vm_committed_init(tw);
		if (!err)
			__atomic_store_n(&tw->committed_live, true, __ATOMIC_RELEASE);
	}
	spin_unlock(&tw->mm_lock);
	return err;
}

/* A made mm torn down, its rss counters gone (its last mmdrop, or an
 * mm_alloc that fails past mm_init); the caller gives its slot back under
 * mm_lock (its own yield sites: a schedule names them by function). */
static void mm_teardown(struct mm_struct *mm)
{
	int i;

	for (i = 0; i < NR_MM_COUNTERS; i++)
		percpu_counter_destroy(&mm->rss_stat[i]);
	mm->live = false;
	mm_slot_poison(mm);
}

struct mm_struct *mm_alloc(void)
{
	struct tlb_world *tw = tlb_world();
	struct mm_struct *mm;
	int slot = -1;

	if (!__READ_ONCE(tw->used))		/* the model's bookkeeping */
		__WRITE_ONCE(tw->used, true);
	spin_lock(&tw->mm_lock);
	if (tw->mm_free) {
		slot = __builtin_ctzl(tw->mm_free);
		tw->mm_free &= ~(1UL << slot);
		tw->mm_touched |= 1UL << slot;
	}
	spin_unlock(&tw->mm_lock);
	if (slot < 0)
		return NULL;
	mm = &tw->mms[slot];
	if (mm_init(tw, mm)) {
		mm_slot_poison(mm);
		spin_lock(&tw->mm_lock);
		tw->mm_free |= 1UL << slot;
		spin_unlock(&tw->mm_lock);
		return NULL;
	}
	if (vm_committed_get(tw)) {
		mm_teardown(mm);
		spin_lock(&tw->mm_lock);
		tw->mm_free |= 1UL << slot;
		spin_unlock(&tw->mm_lock);
		return NULL;
	}
	return mm;
}

void mmget(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_users);
}

bool mmget_not_zero(struct mm_struct *mm)
{
	int c = atomic_read(&mm->mm_users);

	do {
		if (!c)
			return false;
		yield_point(YIELD_SITE(YP_CMPXCHG, "mm->mm_users"));
	} while (!__atomic_compare_exchange_n(&mm->mm_users.counter, &c, c + 1, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return true;
}

void mmgrab(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_count);
}

/*
 * 6.6 kernel/fork.c check_mm: every rss counter read with
 * percpu_counter_sum() ("BUG: Bad rss-counter state" when one is not
 * zero: the checkers report it, read_rss_sum), and the rest of what a
 * freed mm must be (the check_mm hook: the pgd empty, since mm_free_pgd
 * frees only its page; pgtables_bytes zero).
 */
static void check_mm(struct mm_struct *mm)
{
	int i;

	for (i = 0; i < NR_MM_COUNTERS; i++) {
		long long x = (long long)percpu_counter_sum(&mm->rss_stat[i]);

		HOOK(tlb, read_rss_sum, mm, i, x);
	}
	HOOK(tlb, check_mm, mm);
}

static void __mmdrop(struct mm_struct *mm)
{
	struct tlb_world *tw = mm->tw;
	int slot = mm->slot;

	check_mm(mm);
	mm_teardown(mm);
	spin_lock(&tw->mm_lock);
	tw->mm_free |= 1UL << slot;
	spin_unlock(&tw->mm_lock);
}

void mmdrop(struct mm_struct *mm)
{
	if (atomic_dec_and_test(&mm->mm_count))
		__mmdrop(mm);
}

void mmput(struct mm_struct *mm)
{
	if (atomic_dec_and_test(&mm->mm_users)) {
		exit_mmap(mm);
		mmdrop(mm);
	}
}

/*
 * do_exit's exit_mm() for the task running on this CPU: it stops running
 * @mm's user code (enter_lazy_tlb: the CPU keeps @mm loaded, lazily, as
 * its active_mm), then drops its user reference.  mmap_lock for reading
 * orders it after a core dump in the kernel; here after a munmap's zap.
 */
void exit_mm(struct mm_struct *mm)
{
	unsigned long flags;

	down_read(&mm->mmap_lock);
	local_irq_save(flags);
	enter_lazy_tlb(mm);
	local_irq_restore(flags);
	up_read(&mm->mmap_lock);
	mmput(mm);
}

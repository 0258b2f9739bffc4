/* SPDX-License-Identifier: MIT */
/*
 * The address space: struct mm_struct, its VMAs and two-level page tables,
 * anonymous pages with their rmap, each CPU's TLB and x86's TLB state, and
 * what the stress workloads and the operations call (Linux 6.6
 * include/linux/mm_types.h, sched/mm.h, arch/x86/include/asm/tlbflush.h
 * and pgtable_types.h, cut down to x86-64 with the p4d, pud and pmd levels
 * folded into the pgd, as on a two-level machine).
 *
 * Sizes.  A page is MODEL_PAGE_SIZE (64) bytes of memory, so a PTE table
 * page holds PTRS_PER_PTE = 8 PTEs and one pgd entry maps 8 pages.  User
 * addresses are the kernel's (PAGE_SHIFT 12): an mm spans TASK_SIZE =
 * mm_pages pages (a config key), its pgd an array in the mm (pgd_alloc's
 * page is not modelled: PTE tables are the ones that come and go).
 *
 * Locks (mm/rmap.c's order):
 *   mm->mmap_lock
 *     anon_vma->rwsem          (one anon_vma per mm: no fork)
 *       mm->page_table_lock    (pgd entries: pmd_install; the pmd lock)
 *       ptlock_ptr(table)      (a PTE table's split lock: its PTEs)
 *         mm->rss_stat[].lock  (the percpu_counter's fold)
 *   tlb_world->mm_lock         the mm_struct slots, taken alone
 * What each protects:
 *   mmap_lock        the VMA tree (mm_mt[], map_count), vm_flags and
 *                    vm_page_prot (written holding it for writing), brk;
 *                    page tables are freed only holding it for writing or
 *                    after the VMAs over them were detached
 *   anon_vma->rwsem  which VMAs are linked to the anon_vma (the rmap walk's
 *                    interval tree), and their vm_start/vm_end
 *   page_table_lock  populating a pgd entry (clearing one: see mmap_lock)
 *   ptlock           every change of a PTE but the hardware's A/D updates
 *                    (lockless cmpxchg, as a CPU's page walk does them) and
 *                    the lockless readers (gup_fast, the page walk), which
 *                    read PTEs with READ_ONCE
 *   IRQs off         this CPU's struct tlb_state (the IPI handlers run on
 *                    it in interrupt context); is_lazy is also read by the
 *                    senders (tlb_is_not_lazy)
 *   atomics          mm_users, mm_count, tlb_flush_pending,
 *                    tlb_flush_batched, context.tlb_gen, pgtables_bytes,
 *                    mm_cpumask (bit per CPU that has the mm loaded)
 */
#ifndef MMFUZZ_MM_MM_TYPES_H
#define MMFUZZ_MM_MM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel/cpumask.h"
#include "../kernel/hooks.h"
#include "../kernel/percpu_counter.h"
#include "../kernel/rcupdate.h"
#include "../kernel/rwsem.h"
#include "mm.h"

typedef uint64_t u64;

/* ---- addresses and page tables (x86-64, two levels) ---- */

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(a)		(((a) + PAGE_SIZE - 1) & PAGE_MASK)

typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct page *pgtable_t;

#define PTRS_PER_PTE		((int)(MODEL_PAGE_SIZE / sizeof(pte_t)))	/* 8 */
#define PMD_SHIFT		(PAGE_SHIFT + 3)
#define PMD_SIZE		(1UL << PMD_SHIFT)
#define PMD_MASK		(~(PMD_SIZE - 1))
_Static_assert(PTRS_PER_PTE == 1 << (PMD_SHIFT - PAGE_SHIFT), "a PTE table fills a page");

#define FIRST_USER_ADDRESS	0UL
#define TLB_FLUSH_ALL		(~0UL)
#define TLB_GENERATION_INVALID	0

/* x86's PTE bits (arch/x86/include/asm/pgtable_types.h) */
#define _PAGE_PRESENT		0x001UL
#define _PAGE_RW		0x002UL
#define _PAGE_USER		0x004UL
#define _PAGE_ACCESSED		0x020UL
#define _PAGE_DIRTY		0x040UL
#define _PAGE_PROTNONE		0x100UL		/* _PAGE_GLOBAL when present */
#define _PAGE_SPECIAL		0x200UL		/* _PAGE_BIT_SOFTW1: no struct page to
						 * count (the zero page) */
#define _PAGE_TABLE		(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | \
				 _PAGE_DIRTY)
#define PTE_FLAGS_MASK		0xfffUL
#define PTE_PFN_MASK		(~PTE_FLAGS_MASK)

/* vm_page_prot of private mappings (protection_map[]: writable private
 * mappings are mapped read-only and made writable by the write fault) */
#define PAGE_NONE		(_PAGE_PROTNONE | _PAGE_ACCESSED)
#define PAGE_READONLY		(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
#define PAGE_COPY		PAGE_READONLY

static inline pte_t __pte(unsigned long v) { return (pte_t){ v }; }
static inline unsigned long pte_val(pte_t p) { return p.pte; }
static inline bool pte_none(pte_t p) { return !p.pte; }
/* present to the kernel: a PROT_NONE PTE is, the hardware sees nothing */
static inline bool pte_present(pte_t p) { return p.pte & (_PAGE_PRESENT | _PAGE_PROTNONE); }
static inline bool pte_hw_present(pte_t p) { return p.pte & _PAGE_PRESENT; }
static inline bool pte_protnone(pte_t p)
{
	return (p.pte & (_PAGE_PROTNONE | _PAGE_PRESENT)) == _PAGE_PROTNONE;
}
static inline bool pte_write(pte_t p) { return p.pte & _PAGE_RW; }
static inline bool pte_dirty(pte_t p) { return p.pte & _PAGE_DIRTY; }
static inline bool pte_young(pte_t p) { return p.pte & _PAGE_ACCESSED; }
static inline bool pte_special(pte_t p) { return p.pte & _PAGE_SPECIAL; }
static inline unsigned long pte_pfn(pte_t p) { return (p.pte & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline pte_t pfn_pte(unsigned long pfn, unsigned long prot)
{
	return __pte(pfn << PAGE_SHIFT | prot);
}
static inline pte_t pte_mkwrite(pte_t p) { return __pte(p.pte | _PAGE_RW); }
static inline pte_t pte_wrprotect(pte_t p) { return __pte(p.pte & ~_PAGE_RW); }
static inline pte_t pte_mkdirty(pte_t p) { return __pte(p.pte | _PAGE_DIRTY); }
static inline pte_t pte_mkclean(pte_t p) { return __pte(p.pte & ~_PAGE_DIRTY); }
static inline pte_t pte_mkyoung(pte_t p) { return __pte(p.pte | _PAGE_ACCESSED); }
static inline pte_t pte_mkold(pte_t p) { return __pte(p.pte & ~_PAGE_ACCESSED); }
static inline pte_t pte_mkspecial(pte_t p) { return __pte(p.pte | _PAGE_SPECIAL); }
/* _PAGE_CHG_MASK: the pfn, dirty, accessed and special bits are kept */
static inline pte_t pte_modify(pte_t p, unsigned long newprot)
{
	return __pte((p.pte & (PTE_PFN_MASK | _PAGE_DIRTY | _PAGE_ACCESSED | _PAGE_SPECIAL)) |
		     newprot);
}
static inline bool pte_same(pte_t a, pte_t b) { return a.pte == b.pte; }

/* PTEs live in their table's page memory; every access is atomic
 * (READ_ONCE/WRITE_ONCE, xchg), as the lockless walkers need.
 *
 * ptep_get is the kernel's READ_ONCE, a racy_read yield point named after
 * the caller (zap_pte_range:racy_read(pte)) even under the PTL: the
 * hardware walker sets the accessed and dirty bits without the lock (a
 * cmpxchg in tlb.c), which is why the clears are xchg.  The writers under
 * the PTL (set_pte_at, ptep_get_and_clear) are no yield points: another
 * task sees their state only through a read, which is one (compiler.h). */
static inline pte_t __ptep_get(pte_t *ptep)
{
	return __pte(__atomic_load_n(&ptep->pte, __ATOMIC_RELAXED));
}
#define ptep_get(ptep) ({							\
	__racy_point(YP_RACY_READ, "pte");					\
	__ptep_get(ptep); })

/* The lockless walkers' read (gup_fast, the CPU's page walk): what the PTE
 * maps was written before it was set (set_pte_at is a release), and the
 * walker reads it after (an address dependency on a real CPU). */
static inline pte_t __ptep_get_lockless(pte_t *ptep)
{
	return __pte(__atomic_load_n(&ptep->pte, __ATOMIC_ACQUIRE));
}
#define ptep_get_lockless(ptep) ({						\
	__racy_point(YP_RACY_READ, "pte");					\
	__ptep_get_lockless(ptep); })

static inline bool pmd_none(pmd_t p) { return !p.pmd; }
static inline bool pmd_present(pmd_t p) { return p.pmd & _PAGE_PRESENT; }
static inline unsigned long pmd_pfn(pmd_t p) { return (p.pmd & PTE_PFN_MASK) >> PAGE_SHIFT; }
/* the pgd entry read without mm->page_table_lock: racy_read(pmd) */
static inline pmd_t __pmdp_get_lockless(pmd_t *pmdp)
{
	return (pmd_t){ __atomic_load_n(&pmdp->pmd, __ATOMIC_ACQUIRE) };
}
#define pmdp_get_lockless(pmdp) ({						\
	__racy_point(YP_RACY_READ, "pmd");					\
	__pmdp_get_lockless(pmdp); })

/* ---- VMAs and the anon_vma ---- */

#define VM_NONE		0x00000000UL
#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_ACCOUNT	0x00100000UL	/* is a VM accounted object: vm_committed_as */
#define VM_ACCESS_FLAGS	(VM_READ | VM_WRITE | VM_EXEC)

/* uapi values */
#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define MAP_PRIVATE	0x02
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MADV_DONTNEED	4
#define MADV_FREE	8

#define MM_MAX_VMAS	32		/* sysctl_max_map_count of the model */
#define MM_VMA_SLOTS	(MM_MAX_VMAS + 2)	/* a munmap's splits come first */

struct mm_struct;
struct anon_vma;

struct vm_area_struct {
	unsigned long vm_start;		/* mmap_lock for writing and anon_vma->rwsem */
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_flags;		/* mmap_lock for writing; read racily */
	unsigned long vm_page_prot;	/* likewise */
	/* the model's slot bookkeeping (which slots are in use) */
	/* set by the first fault (anon_vma_prepare), then linked to it */
	struct anon_vma *anon_vma;	/* READ_ONCE: set under mmap_lock for reading */
	/* the model's slot bookkeeping */
	bool in_tree;			/* in mm->mm_mt[] (mmap_lock) */
	bool used;			/* vm_area_alloc .. vm_area_free */
};

/*
 * One per mm: pages of an mm are only ever mapped in that mm (no fork, no
 * KSM), so the anon_vma hierarchy is one node.  Its "interval tree" is the
 * VMAs linked to it: linked by the first fault in them (anon_vma_prepare)
 * or a split, unlinked by free_pgtables() before their page tables go, so
 * an rmap walk that finds a VMA under the rwsem finds its page tables too.
 */
struct anon_vma {
	struct rw_semaphore rwsem;
	int nr;				/* under rwsem */
	struct vm_area_struct *vmas[MM_VMA_SLOTS];
};

/* ---- mm_struct ---- */

enum {
	MM_FILEPAGES,	/* Resident file mapping pages (none in the model) */
	MM_ANONPAGES,	/* Resident anonymous pages */
	MM_SWAPENTS,	/* Anonymous swap entries (none) */
	MM_SHMEMPAGES,	/* Resident shared memory pages (none) */
	NR_MM_COUNTERS
};

struct tlb_world;

struct mm_struct {
	/* the slot's, for the world's life (the rest is the mm's) */
	pmd_t *pgd;			/* [task_size >> PMD_SHIFT] */
	struct tlb_world *tw;
	int slot;			/* index in tlb_world->mms */
	bool live;			/* between mm_alloc and __mmdrop */

	/* x86's mm_context_t; from here on what every flush and gather writes,
	 * on a line apart from the slot's pgd and tw, which every access reads */
	struct {
		u64 ctx_id;		/* unique for the life of the world */
		atomic_long_t tlb_gen;	/* bumped by every flush request */
	} context ____cacheline_aligned;
	atomic_t mm_users;		/* tasks (and handles) using it: mmget/mmput */
	atomic_t mm_count;		/* references to the struct: mmgrab/mmdrop */
	atomic_t tlb_flush_pending;	/* live mmu_gathers (inc/dec_tlb_flush_pending) */
	atomic_t tlb_flush_batched;	/* reclaim's deferred flushes: pending | flushed << 16 */
	struct cpumask cpu_bitmap;	/* mm_cpumask(): CPUs with it loaded */
	atomic_long_t pgtables_bytes;	/* PTE tables, MODEL_PAGE_SIZE each */
	struct percpu_counter rss_stat[NR_MM_COUNTERS];

	struct rw_semaphore mmap_lock;
	/* read at every access: not on the line of mmap_lock's count */
	unsigned long task_size ____cacheline_aligned;	/* TASK_SIZE: mm_pages << PAGE_SHIFT */
	unsigned long mmap_base;	/* top of the top-down mmap area */
	unsigned long start_brk, brk;	/* mmap_lock */
	unsigned long total_vm;		/* pages mapped (mmap_lock for writing) */
	int map_count;			/* VMAs in mm_mt[] (mmap_lock) */
	struct vm_area_struct *mm_mt[MM_MAX_VMAS];	/* by vm_start: the maple tree */
	struct vm_area_struct vma_slots[MM_VMA_SLOTS];
	struct anon_vma anon_vma;

	spinlock_t page_table_lock;	/* pgd entries (pmd_install) */
} ____cacheline_aligned;	/* the mm_cachep of the kernel is SLAB_HWCACHE_ALIGN: the
				 * slots' array shares no line between two mms */
/* what __mmdrop frees (and ASan poisons): all but the slot's fields */
#define MM_STRUCT_DYNAMIC	offsetof(struct mm_struct, context)

#define mm_cpumask(mm)		(&(mm)->cpu_bitmap)
#define TLB_FLUSH_BATCH_FLUSHED_SHIFT	16
#define TLB_FLUSH_BATCH_PENDING_MASK	((1 << (TLB_FLUSH_BATCH_FLUSHED_SHIFT - 1)) - 1)
#define TLB_FLUSH_BATCH_PENDING_LARGE	(TLB_FLUSH_BATCH_PENDING_MASK / 2)

static inline unsigned long get_mm_counter(struct mm_struct *mm, int member)
{
	return (unsigned long)percpu_counter_read_positive(&mm->rss_stat[member]);
}

/* ---- per-CPU TLBs and x86's TLB state ---- */

#define TLB_NR_DYN_ASIDS	6	/* x86's PCIDs a CPU keeps mms in */
#define TLB_MAX_ENTRIES		64	/* the largest tlb_entries */

/*
 * One translation a CPU caches: the page at @vpn of the mm whose ASID
 * slot is @asid - 1 on this CPU (0: unused).  @writable and @dirty are the
 * PTE's bits when it was filled: a write through an entry that is not both
 * goes back to the page tables, as x86's does (a fault, or the walk that
 * sets the dirty bit).
 */
struct tlb_entry {
	unsigned long vpn;
	unsigned long pfn;
	u64 fill;			/* tlb_world->clock when filled (checkers) */
	u64 lru;
	unsigned char asid;
	bool writable, dirty;
};

struct tlb_context {
	u64 ctx_id;
	u64 tlb_gen;			/* the mm's tlb_gen this ASID has caught up with */
};

/* Counters of TLB activity, summed over the CPUs by tlb_stat_sum(). */
enum tlb_stat_item {
	TLB_LOCAL_FLUSH_ALL,		/* full flushes of the local TLB (NR_TLB_LOCAL_FLUSH_ALL) */
	TLB_LOCAL_FLUSH_ONE,		/* pages flushed one by one locally (NR_TLB_LOCAL_FLUSH_ONE) */
	TLB_REMOTE_FLUSH,		/* flushes sent to other CPUs (NR_TLB_REMOTE_FLUSH) */
	TLB_REMOTE_FLUSH_RECEIVED,	/* flush IPIs handled (NR_TLB_REMOTE_FLUSH_RECEIVED) */
	TLB_REMOTE_FULL,		/* ... of which full flushes */
	TLB_IPI_SENT,			/* flush IPIs sent (a CPU each) */
	TLB_FLUSH_REQUESTS,		/* flush_tlb_mm_range calls */
	TLB_FLUSH_REQUESTS_FULL,	/* ... for the whole mm (or over the ceiling) */
	TLB_SWITCH_FLUSH,		/* ASID flushes at switch_mm (need_flush) */
	TLB_LAZY_SWITCH,		/* lazy CPUs that switched to init_mm on a flush */
	TLB_HIT,			/* user accesses through a TLB entry */
	TLB_MISS,			/* user accesses that walked the page tables */
	TLB_PGFAULT,			/* page faults (handle_mm_fault) */
	TLB_GATHER,			/* mmu_gathers (tlb_gather_mmu) */
	TLB_GATHER_NESTED,		/* tlb_finish_mmu saw another gather: full flush */
	TLB_GATHER_FORCED_FLUSH,	/* __tlb_remove_page found no room: flush mid-zap */
	TLB_GATHER_BATCH_ALLOC,		/* batch pages allocated (tlb_next_batch) */
	TLB_GATHER_BATCH_FAIL,		/* ... that could not be had or were over the limit */
	TLB_TABLE_FREE,			/* page tables freed (tlb_remove_table; natively the page batch) */
	TLB_TABLE_RCU,			/* table batches freed after a grace period */
	TLB_TABLE_SYNC_ONE,		/* tlb_remove_table_sync_one IPIs (no batch page) */
	TLB_UBC_FLUSH,			/* reclaim's batched flushes (try_to_unmap_flush) */
	TLB_BATCHED_PENDING_FLUSH,	/* flush_tlb_batched_pending found one pending */
	TLB_GUP_FAST_RECHECK,		/* gup_fast found its PTE changed after folio_try_get */
	NR_TLB_STAT_ITEMS
};
extern const char *const tlb_stat_names[NR_TLB_STAT_ITEMS];

/*
 * A CPU's cpu_tlbstate (and cpu_tlbstate_shared.is_lazy) with the TLB
 * itself: a fully associative cache of tlb_world->nr_entries translations,
 * least recently used out, tagged by ASID.  loaded_mm NULL is init_mm.
 * active_mm is the scheduler's, holding an mm_count reference (lazy TLB
 * refcounting, MMU_LAZY_TLB_REFCOUNT): the mm a CPU last ran user code in.
 */
struct tlb_state {
	struct mm_struct *loaded_mm;
	struct mm_struct *active_mm;
	unsigned short loaded_mm_asid;
	unsigned short next_asid;
	bool is_lazy;			/* READ_ONCE from other CPUs */
	bool in_switch_mm;		/* inside switch_mm_irqs_off (the checkers') */
	struct tlb_context ctxs[TLB_NR_DYN_ASIDS];
	u64 lru_clock;
	struct tlb_entry entries[TLB_MAX_ENTRIES];
	unsigned long stat[NR_TLB_STAT_ITEMS];	/* relaxed atomics */
} ____percpu_aligned;

/* ---- the layer's hooks (kernel/hooks.h; src/check/tlb.c attaches them all) ---- */

struct mmu_gather;
struct tlb_hooks {
	/* a gather began (after inc_tlb_flush_pending) */
	void (*gather_begin)(struct mmu_gather *tlb);
	/* tlb_finish_mmu has just read mm_tlb_flush_nested (nothing between) */
	void (*gather_finish)(struct mmu_gather *tlb);
	/* tlb_finish_mmu flushed and freed: before dec_tlb_flush_pending */
	void (*gather_done)(struct mmu_gather *tlb);
	/* a page that was unmapped is about to lose the unmapper's reference
	 * (the gather's, reclaim's): every TLB entry for it must be gone */
	void (*page_release)(struct mm_struct *mm, struct page *page, const char *site);
	/* a PTE table left its pgd entry; a flush with freed_tables of @mm
	 * that began at @stamp completed; a table is freed; a table batch
	 * page is queued for RCU (@queued) or freed */
	void (*table_removed)(struct mm_struct *mm, struct page *table);
	void (*tables_flushed)(struct mm_struct *mm, u64 stamp);
	void (*table_free)(struct page *table);
	void (*table_batch)(struct page *batch, bool queued);
	/* reclaim cleared a PTE whose flush it deferred (tlb_ubc) */
	void (*ubc_deferred)(struct mm_struct *mm, unsigned long addr);
	/* a user access went through @e (hit or just filled), reading @val */
	void (*access)(struct mm_struct *mm, unsigned long addr, bool write,
		       const struct tlb_entry *e, unsigned long val);
	/* __mmdrop: the mm is about to be freed (check_mm), which has read
	 * each rss counter with percpu_counter_sum() (@sum: what it returned
	 * for @member; a read it decides "Bad rss-counter state" on) */
	void (*read_rss_sum)(struct mm_struct *mm, int member, long long sum);
	void (*check_mm)(struct mm_struct *mm);
	/* __vm_enough_memory under OVERCOMMIT_NEVER has just read
	 * percpu_counter_read_positive(&vm_committed_as) (@read, nothing
	 * between) and decides on read < @allowed, for @pages it has already
	 * added; the exact value and the batch are the checker's to read */
	void (*committed_read)(struct mm_struct *mm, long pages, long read, long allowed);
	/* gup_fast took @page, found at @ptep for @addr: no yield point since
	 * its last read of the PTE */
	void (*gup_page)(struct page *page, pte_t *ptep, unsigned long addr);
	/* a fault installed the PTE of @addr (do_anonymous_page, wp_page_copy) */
	void (*pte_faulted)(struct mm_struct *mm, unsigned long addr);
	/* wp_page_copy set the copy of the zero page at @addr, after its flush */
	void (*pte_cowed)(struct mm_struct *mm, unsigned long addr);
	/* ptep_clear_flush() of @addr begins (@done false: the PTE about to be
	 * cleared) and ends (@done: its flush done) */
	void (*pte_clear_flush)(struct mm_struct *mm, unsigned long addr, bool done);
	/* MADV_DONTNEED of [start, end) in a gather begun at @stamp returns
	 * (mmap_lock still held); mprotect of [start, end) to @vm_flags too */
	void (*dontneed_done)(struct mm_struct *mm, unsigned long start, unsigned long end,
			      u64 stamp);
	void (*mprotect_done)(struct mm_struct *mm, unsigned long start, unsigned long end,
			      unsigned long vm_flags);
	/* a system call of the task running is given [start, end) of @mm to
	 * change the PTEs of as @what says (TLB_RANGE_*: munmap, MAP_FIXED and
	 * brk's shrink zap, MADV_DONTNEED zaps, MADV_FREE makes lazyfree,
	 * mprotect rewrites), under the mmap_lock it holds; TLB_RANGE_NONE as
	 * it returns (mmap_lock still held) */
	void (*user_range)(struct mm_struct *mm, unsigned long start, unsigned long end, int what);
	/* a walk changed the PTE of @addr (TLB_PTE_*); @fullmm: exit_mmap's */
	void (*pte_changed)(struct mm_struct *mm, unsigned long addr, int what, bool fullmm);

	/* state as coverage (src/check/state.c; the fuzz builds attach it,
	 * the checker's attach keeps it): a gather of @tlb began (@finish
	 * false, after inc_tlb_flush_pending) or tlb_finish_mmu read
	 * mm_tlb_flush_nested (true): the live gathers on the mm */
	void (*state_gather)(const struct mmu_gather *tlb, bool finish);
};
DECLARE_HOOKS(tlb);

enum { TLB_RANGE_NONE, TLB_RANGE_UNMAP, TLB_RANGE_DONTNEED, TLB_RANGE_FREE, TLB_RANGE_PROT };
enum { TLB_PTE_ZAP, TLB_PTE_LAZYFREE, TLB_PTE_PROT };

/* ---- the layer's per-world state ---- */

#define TLB_MAX_MMS	16		/* mm_structs a world holds at once */

struct tlb_world {
	/* the config */
	int ncpus;
	int nr_entries;			/* tlb_entries */
	int nr_asids;			/* tlb_asids: PCIDs used (1: a flush at every switch) */
	unsigned long ceiling;		/* tlb_single_page_flush_ceiling */
	unsigned int batch_count_max;	/* MAX_GATHER_BATCH_COUNT */
	bool table_free_rcu;		/* tlb_table_free: rcu (paravirt), else native */
	unsigned long task_size;	/* mm_pages << PAGE_SHIFT */
	bool used;			/* touched since boot: reset rewrites it */

	/* read by every access and flush on every CPU: no written field here */
	struct mm_struct *mms;		/* [TLB_MAX_MMS] */
	struct tlb_state *cpu;		/* [ncpus] */
	spinlock_t *ptl;		/* [nr_pages]: the split PTE locks (ptlock_ptr) */

	/* written: on lines of their own (mm_alloc, the checkers' clock) */
	spinlock_t mm_lock ____cacheline_aligned;
	unsigned long mm_free;		/* free slots, a bit each (mm_lock) */
	unsigned long mm_touched;	/* slots taken since boot: boot clears them */
	bool boot_zero;			/* the slots and CPUs are zero as create
					 * made them: the first boot clears none */
	u64 last_ctx_id;		/* atomic (x86's last_mm_ctx_id) */
	unsigned long table_syncs;	/* atomic: completed tlb_remove_table_sync_one */
	u64 clock;			/* atomic: fills, flushes, gathers; ticks only
					 * for the checkers (tlb_clock_tick) */

	/* mm/util.c's overcommit accounting (src/mm/util.c, mman.h): the
	 * sysctls (tune keys), and vm_committed_as with its batch, made by
	 * the run's first mm_alloc or overcommit write (the kernel's boot: mmap_init,
	 * mm_compute_batch_init, init_admin_reserve, init_user_reserve) and
	 * destroyed at reset, as the mms' rss counters are */
	int overcommit_boot;		/* the overcommit_memory key */
	int overcommit_memory;		/* sysctl_overcommit_memory: OVERCOMMIT_*
					 * (written by overcommit_policy_handler,
					 * read plainly) */
	int overcommit_ratio;		/* sysctl_overcommit_ratio */
	bool committed_live;		/* vm_committed_as initialised (mm_lock) */
	s32 vm_committed_as_batch;
	long admin_reserve_pages;	/* sysctl_admin_reserve_kbytes in pages */
	long user_reserve_pages;	/* sysctl_user_reserve_kbytes in pages */
	struct percpu_counter vm_committed_as ____cacheline_aligned;
};

/* The running world's (mm_world's), and any world's. */
struct tlb_world *tlb_world(void);
struct tlb_world *tlb_world_of(struct world *w);
/* The config keys of the layer (mmap.c) */
extern struct config_key ck_mm_pages, ck_tlb_entries, ck_tlb_ceiling, ck_tlb_asids,
	ck_gather_batch_count, ck_tlb_table_free;

/*
 * The checkers' clock: when TLB entries were filled, gathers began and
 * flushes were asked for, for the stale-entry checks.  Nothing else reads
 * it, and without checkers (stress mode) it stays 0: one atomic line every
 * CPU bumped on every gather and TLB fill was a line the kernel does not
 * share between processes (brk1's processes stopped scaling on it).
 */
static inline u64 tlb_clock_tick(struct tlb_world *tw)
{
	if (!HOOK_ATTACHED(tlb, access))
		return 0;
	return __atomic_add_fetch(&tw->clock, 1, __ATOMIC_RELAXED);
}

/* ---- the entry points: the stress workloads and the operations ---- */

/*
 * An mm's life (kernel/fork.c, sched/mm.h).  mm_alloc: a new empty mm with
 * mm_users 1 (the caller's), or NULL when the world's TLB_MAX_MMS slots are
 * taken.  mmput: the last user's runs exit_mmap(), then mmdrop(); the last
 * mmdrop frees the mm (check_mm first).  exit_mm: do_exit's, for the task
 * running on this CPU: enter_lazy_tlb() if this CPU has @mm loaded, then
 * mmput().
 */
struct mm_struct *mm_alloc(void);
void mmget(struct mm_struct *mm);
bool mmget_not_zero(struct mm_struct *mm);
void mmput(struct mm_struct *mm);
void mmgrab(struct mm_struct *mm);
void mmdrop(struct mm_struct *mm);
void exit_mm(struct mm_struct *mm);

/*
 * System calls on @mm (the kernel's take current->mm; the model's tasks
 * have no mm field, so the caller names it).  Addresses and lengths in
 * bytes, the uapi constants above.
 *   vm_mmap:  an anonymous private mapping (MAP_ANONYMOUS | MAP_PRIVATE,
 *             MAP_FIXED honoured): its address, or -errno as IS_ERR_VALUE
 *   vm_munmap: 0 or -errno; mmap_lock for writing, downgraded for the zap
 *   sys_brk:  the new break, or the old one when it cannot move
 *   do_madvise: MADV_DONTNEED and MADV_FREE, under mmap_lock for reading
 *   do_mprotect_pkey: pkey -1; 0 or -errno
 */
unsigned long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long prot, unsigned long flags);
int vm_munmap(struct mm_struct *mm, unsigned long start, size_t len);
unsigned long sys_brk(struct mm_struct *mm, unsigned long brk);
int do_madvise(struct mm_struct *mm, unsigned long start, size_t len_in, int behavior);
int do_mprotect_pkey(struct mm_struct *mm, unsigned long start, size_t len, unsigned long prot,
		     int pkey);
void exit_mmap(struct mm_struct *mm);

#define IS_ERR_VALUE(x)		((unsigned long)(x) >= (unsigned long)-4095)

/*
 * The CPU running user code: a load (or a store, @write) at @addr of @mm
 * on this CPU, through its TLB (switch_mm_irqs_off first when the CPU has
 * another mm loaded, or is lazy), a page walk on a miss, the page fault
 * handler (handle_mm_fault) when the walk finds no usable PTE.  0, -EFAULT
 * (SIGSEGV), -ENOMEM (the fault could not allocate), -EAGAIN (faulted in
 * but gone again, four times: the model stops retrying).
 */
int user_access(struct mm_struct *mm, unsigned long addr, bool write);

/*
 * get_user_pages_fast_only() on @mm: the lockless walk with IRQs off, a
 * reference on each page (folio_try_get, the PTE re-read after it); the
 * pages got, in order from @start, stopping at the first that is not
 * there.  put_user_page() gives one back.
 */
#define FOLL_WRITE	0x01
int get_user_pages_fast_mm(struct mm_struct *mm, unsigned long start, int nr_pages,
			   unsigned int gup_flags, struct page **pages);
/* get_user_pages_fast() whole: the lockless walk, then the slow path under
 * mmap_lock (follow_page_pte, faultin_page) for the pages it did not get */
int get_user_pages_mm(struct mm_struct *mm, unsigned long start, int nr_pages,
		      unsigned int gup_flags, struct page **pages);
void put_user_page(struct mm_struct *mm, struct page *page);

/*
 * Reclaim of the anonymous page mapped at @addr, as shrink_folio_list
 * does it for a clean lazyfree folio (the model has no swap: only a folio
 * MADV_FREE made lazyfree and nobody redirtied can go): isolate it,
 * try_to_unmap(TTU_BATCH_FLUSH) through its rmap, try_to_unmap_flush(),
 * free.  0 when the page was freed, -EBUSY when it was kept (dirty,
 * swapbacked, referenced elsewhere), -EFAULT when nothing is mapped there.
 */
int reclaim_anon_page(struct mm_struct *mm, unsigned long addr);

/* TLB counters, summed over the CPUs of the running world. */
unsigned long tlb_stat_sum(enum tlb_stat_item item);
void tlb_stat_reset(void);

/* The mm's live mmu_gathers and inc/dec users (mm_tlb_flush_pending). */
static inline int mm_tlb_flush_pending_count(struct mm_struct *mm)
{
	return atomic_read(&mm->tlb_flush_pending);
}

#endif /* MMFUZZ_MM_MM_TYPES_H */

/* SPDX-License-Identifier: MIT */
/*
 * The TLB gather layer's internals, shared by its files (memory.c, mmap.c,
 * madvise.c, mprotect.c, rmap.c, mmu_gather.c, tlb.c, gup.c) and read by
 * its checkers: struct mmu_gather and its API (Linux 6.6
 * include/asm-generic/tlb.h, mm/mmu_gather.c with MMU_GATHER_RCU_TABLE_FREE),
 * x86's flush interface (arch/x86/include/asm/tlbflush.h, asm/tlb.h), and
 * the page-table, VMA and rmap helpers of mm/memory.c, mm/mmap.c and
 * mm/rmap.c.  mm_types.h says which lock protects what.
 */
#ifndef MMFUZZ_MM_TLB_H
#define MMFUZZ_MM_TLB_H

#include "internal.h"
#include "mm_types.h"

/* The TLB gather layer's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_TLB_PENDING_LEAK = 13,             /* seed 001: tlb_finish_mmu without dec_tlb_flush_pending */
	BUG_TLB_NESTED_FLUSH_MISS = 14,        /* seed 001's predecessor: no full flush when nested */
	BUG_TLB_FREE_BEFORE_FLUSH = 15,        /* gathered pages freed before the TLB flush */
	BUG_TLB_TABLE_FREE_NO_GP = 16,         /* page tables freed without the grace period */
	BUG_FAULT_PTE_NOLOCK = 17,             /* a PTE changed without its ptlock */
	BUG_OVERCOMMIT_NO_SYNC = 18,           /* util.c: the switch to never folds no CPU */
	BUG_COMMITTED_UNACCT_LOST = 19,        /* mmap.c: a splitting munmap keeps a piece's charge */
	BUG_ZERO_PAGE_NO_COW = 52,             /* memory.c: a write fault reuses the zero page */
	BUG_ZERO_PAGE_ZAP_NORMAL = 53,         /* memory.c: the zap takes the zero page for a normal one */
};

/* The TLB gather layer's stat snapshot (tlb_stat.c, layer.h). */
struct tlb_stat {
	bool used;			/* the layer has mms (mm_alloc) */
	unsigned long tlb[NR_TLB_STAT_ITEMS];
	long flush_pending;		/* summed over the live mms, now */
};
void tlb_stat_snap(struct world *w, void *snap);
void tlb_stat_print(FILE *out, const void *a, const void *b, const struct layer_stat_span *span);

/* ---- the mmu_gather ---- */

/*
 * A batch of pages to free after the TLB flush.  Beyond the bundle on the
 * stack, batches are pages (GFP_NOWAIT): the header and the pointers fill
 * the page's MODEL_PAGE_SIZE bytes, so MAX_GATHER_BATCH is the kernel's
 * formula on a 64-byte page.
 */
struct mmu_gather_batch {
	struct mmu_gather_batch *next;
	unsigned int nr;
	unsigned int max;
	struct page *encoded_pages[];
};

#define MAX_GATHER_BATCH						\
	((unsigned int)((MODEL_PAGE_SIZE - sizeof(struct mmu_gather_batch)) / sizeof(void *)))
#define MMU_GATHER_BUNDLE	8

/*
 * Page tables to free after a grace period (MMU_GATHER_RCU_TABLE_FREE): a
 * page too, its rcu_head first.  The model's pages hold 64 bytes, so the
 * tables are kept as pfns (4 bytes) rather than pointers: three a batch.
 */
struct mmu_table_batch {
	struct rcu_head rcu;
	unsigned int nr;
	uint32_t tables[];
};

#define MAX_TABLE_BATCH							\
	((unsigned int)((MODEL_PAGE_SIZE - offsetof(struct mmu_table_batch, tables)) /	\
			sizeof(uint32_t)))
_Static_assert(offsetof(struct mmu_table_batch, tables) + 3 * sizeof(uint32_t) <= MODEL_PAGE_SIZE,
	       "a table batch page holds three tables");

struct mmu_gather {
	struct mm_struct *mm;
	struct mmu_table_batch *batch;
	unsigned long start;
	unsigned long end;
	/* we are in the middle of an operation to clear a full mm and can make
	 * some optimizations */
	unsigned int fullmm : 1;
	/* we have performed an operation which requires a complete flush of
	 * the tlb */
	unsigned int need_flush_all : 1;
	/* we have removed page directories */
	unsigned int freed_tables : 1;
	/* Do we have pending delayed rmap removals? */
	unsigned int delayed_rmap : 1;
	/* at which levels have we cleared entries? */
	unsigned int cleared_ptes : 1;
	unsigned int cleared_pmds : 1;
	unsigned int batch_count;
	struct mmu_gather_batch *active;

	/* the model's, for the checkers (src/check/tlb.c) */
	u64 stamp;			/* tlb_world->clock when it began */
	unsigned long vis_start;	/* PTEs visited under their lock: [vis_start, vis_end) */
	unsigned long vis_end;
	bool flushed_all;		/* tlb_finish_mmu's flush was a full flush */
	int others;			/* other live gathers on the mm at finish */

	union {				/* last: the bundle follows the local batch */
		struct mmu_gather_batch local;
		char __local_space[sizeof(struct mmu_gather_batch) +
				   MMU_GATHER_BUNDLE * sizeof(struct page *)];
	};
};

void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm);
void tlb_gather_mmu_fullmm(struct mmu_gather *tlb, struct mm_struct *mm);
void tlb_finish_mmu(struct mmu_gather *tlb);
void tlb_flush_mmu(struct mmu_gather *tlb);
void tlb_flush_mmu_tlbonly(struct mmu_gather *tlb);
/* true: no room left, the caller must flush (tlb_flush_mmu) */
bool __tlb_remove_page(struct mmu_gather *tlb, struct page *page, bool delay_rmap);

/* include/asm-generic/tlb.h: tlb_remove_page_size of PAGE_SIZE */
static inline void tlb_remove_page(struct mmu_gather *tlb, struct page *page)
{
	if (__tlb_remove_page(tlb, page, false))
		tlb_flush_mmu(tlb);
}
void tlb_remove_table(struct mmu_gather *tlb, struct page *table);
/* the tables and pages of live gathers (I-CONS): the gather's own pages */
void tlb_gather_pages(struct mmu_gather *tlb, void (*fn)(void *arg, struct page *page, int what),
		      void *arg);
#define TLB_PAGE_GATHERED	0	/* a page waiting for the flush */
#define TLB_PAGE_BATCH		1	/* a batch page of pages */
#define TLB_PAGE_TABLE		2	/* a page table waiting in the table batch */
#define TLB_PAGE_TABLE_BATCH	3	/* the table batch page */

static inline void __tlb_adjust_range(struct mmu_gather *tlb, unsigned long address,
				      unsigned long range_size)
{
	tlb->start = min(tlb->start, address);
	tlb->end = max(tlb->end, address + range_size);
}

/* a PTE at @address was cleared: the flush must cover it */
static inline void tlb_flush_pte_range(struct mmu_gather *tlb, unsigned long address,
				       unsigned long size)
{
	__tlb_adjust_range(tlb, address, size);
	tlb->cleared_ptes = 1;
}

#define tlb_remove_tlb_entry(tlb, ptep, address)				\
	tlb_flush_pte_range((tlb), (address), PAGE_SIZE)

/* The model's: the PTEs of [start, end) were looked at under their lock. */
static inline void tlb_visit(struct mmu_gather *tlb, unsigned long start, unsigned long end)
{
	if (tlb->vis_start >= tlb->vis_end) {
		tlb->vis_start = start;
		tlb->vis_end = end;
	} else {
		tlb->vis_start = min(tlb->vis_start, start);
		tlb->vis_end = max(tlb->vis_end, end);
	}
}

/* include/linux/mm_types.h: the mm's live gathers and other inc/dec users */
static inline void inc_tlb_flush_pending(struct mm_struct *mm)
{
	atomic_inc(&mm->tlb_flush_pending);
}

static inline void dec_tlb_flush_pending(struct mm_struct *mm)
{
	atomic_dec(&mm->tlb_flush_pending);
}

static inline bool mm_tlb_flush_pending(struct mm_struct *mm)
{
	return atomic_read(&mm->tlb_flush_pending);
}

static inline bool mm_tlb_flush_nested(struct mm_struct *mm)
{
	return atomic_read(&mm->tlb_flush_pending) > 1;
}

/* ---- x86's flushes (tlb.c) ---- */

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift, bool freed_tables);
#define flush_tlb_mm(mm)	flush_tlb_mm_range((mm), 0UL, TLB_FLUSH_ALL, 0U, true)
#define flush_tlb_range(vma, start, end)					\
	flush_tlb_mm_range((vma)->vm_mm, (start), (end), PAGE_SHIFT, false)
#define flush_tlb_page(vma, a)							\
	flush_tlb_mm_range((vma)->vm_mm, (a), (a) + PAGE_SIZE, PAGE_SHIFT, false)

/* x86's asm/tlb.h: the gather's flush */
void tlb_flush(struct mmu_gather *tlb);

/* The CPUs that may hold TLB entries of the pages reclaim unmapped. */
struct arch_tlbflush_unmap_batch {
	struct cpumask cpumask;
};

/* current->tlb_ubc of the kernel: the reclaimer's, passed along here */
struct tlbflush_unmap_batch {
	struct arch_tlbflush_unmap_batch arch;
	bool flush_required;
	bool writable;
};

void arch_tlbbatch_add_pending(struct arch_tlbflush_unmap_batch *batch, struct mm_struct *mm,
			       unsigned long uaddr);
void arch_tlbbatch_flush(struct arch_tlbflush_unmap_batch *batch);
bool arch_tlbbatch_should_defer(struct mm_struct *mm);

/* The scheduler's side: this CPU runs user code of @mm from now (mmgrab
 * the new active_mm, switch_mm_irqs_off, mmdrop the old).  IRQs off. */
void switch_to_user_mm(struct mm_struct *mm);
/* this CPU no longer runs @mm's user code (a task of it exited here) */
void enter_lazy_tlb(struct mm_struct *mm);
/* CPU hotplug and the end of a run: this CPU back to init_mm, its TLB empty */
void tlb_cpu_reset(struct tlb_world *tw, int cpu);
void count_tlb_event(enum tlb_stat_item item);

/* The usable TLB entries of @cpu: those an access there would use without
 * a flush first (its loaded ASID when not lazy, or an ASID that is up to
 * date with its mm's tlb_gen).  For the checkers. */
bool tlb_entry_usable(struct tlb_world *tw, int cpu, const struct tlb_entry *e,
		      struct mm_struct **mmp);

/* ---- page tables (memory.c) ---- */

static inline pmd_t *pmd_off(struct mm_struct *mm, unsigned long addr)
{
	return &mm->pgd[addr >> PMD_SHIFT];
}

static inline spinlock_t *ptlock_ptr(struct page *table)
{
	return &tlb_world()->ptl[page_to_pfn(table)];
}

static inline pte_t *pte_table_base(unsigned long pfn)
{
	return page_address(pfn_to_page(pfn));
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page((unsigned long)((const unsigned char *)addr - mm_pa->mem) /
			   MODEL_PAGE_SIZE);
}

static inline unsigned long pte_index(unsigned long addr)
{
	return (addr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1);
}

static inline unsigned long pmd_addr_end(unsigned long addr, unsigned long end)
{
	unsigned long boundary = (addr + PMD_SIZE) & PMD_MASK;

	return boundary - 1 < end - 1 ? boundary : end;
}

/* 6.6's pte_offset_map(): under rcu_read_lock until pte_unmap(); NULL when
 * the pgd entry is none */
pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr, pmd_t *pmdvalp);
#define pte_unmap(pte) do { (void)(pte); rcu_read_unlock(); } while (0)
/* ... with the table's lock, the pgd entry re-checked under it (the lock
 * sites are named after the caller) */
pte_t *__pte_offset_map_lock(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
			     spinlock_t **ptlp, const struct yield_site *s, const char *fn);
#define pte_offset_map_lock(mm, pmd, addr, ptlp)				\
	__pte_offset_map_lock((mm), (pmd), (addr), (ptlp), YIELD_SITE(YP_SPIN_LOCK, "ptl"), __func__)
#define pte_unmap_unlock(pte, ptl) do {						\
	spin_unlock(ptl);							\
	pte_unmap(pte);								\
} while (0)
int __pte_alloc(struct mm_struct *mm, pmd_t *pmd);
void set_pte_at(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte);
pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep);
/* 6.6's page types: a PTE table is PG_table (inverted, in page_type) */
#define PG_table		0x00000200u
static inline bool PageTable(const struct page *page)
{
	return PageType(page, PG_table);
}

/* the PTE table's page is a page table (PG_table) with its ptlock */
bool pagetable_pte_ctor(struct page *table);
void pagetable_pte_dtor(struct page *table);
/* a page table back to the page allocator (the end of tlb_remove_table) */
void __tlb_remove_table(struct page *table);

void unmap_vmas(struct mmu_gather *tlb, struct vm_area_struct **vmas, int nr,
		unsigned long start, unsigned long end);
void zap_page_range_single(struct vm_area_struct *vma, unsigned long address,
			   unsigned long size);
void free_pgtables(struct mmu_gather *tlb, struct vm_area_struct **vmas, int nr,
		   unsigned long floor, unsigned long ceiling);
/* handle_mm_fault's result bits */
#define VM_FAULT_OOM		0x0001
#define VM_FAULT_SIGSEGV	0x0040
#define VM_FAULT_RETRY		0x0400
#define VM_FAULT_ERROR		(VM_FAULT_OOM | VM_FAULT_SIGSEGV)
#define FAULT_FLAG_WRITE	0x01
unsigned int handle_mm_fault(struct mm_struct *mm, unsigned long address, unsigned int flags);
/* ... of a VMA that allows it, mmap_lock held (gup's faultin_page) */
unsigned int __handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
			       unsigned int flags);

/*
 * The zero page (mm/memory.c's zero_pfn, x86's empty_zero_page): the
 * kernel image's page past the zones (mmzone.h), mapped read-only and
 * pte_special by every read fault of anonymous memory.  It has no rmap, no
 * rss, and takes no reference from a mapping; vm_normal_page() says no
 * page is there, so the zap neither frees nor counts it and a write fault
 * copies it (wp_page_copy).  zero_page_boot: its struct page reserved with
 * its one reference and its memory zeroed (a run with a bug switch may have
 * written it); zero_page_destroy: back to the memmap pool's boot state.
 */
static inline unsigned long my_zero_pfn(unsigned long addr)
{
	(void)addr;
	return empty_zero_pfn(mm_pa);
}

static inline bool is_zero_pfn(unsigned long pfn)
{
	return pfn == empty_zero_pfn(mm_pa);
}

#define ZERO_PAGE(vaddr)	pfn_to_page(my_zero_pfn(vaddr))
/* no architecture of the model forbids it (s390's KVM guests do) */
#define mm_forbids_zeropage(mm)	((void)(mm), false)
void zero_page_boot(struct world *w);
void zero_page_destroy(struct world *w);
/* the page a present PTE maps, or NULL for a special one (the zero page) */
struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr, pte_t pte);
/* the tag a user page's first word holds: the model's owner cookie */
static inline unsigned long anon_page_tag(const struct mm_struct *mm, unsigned long addr)
{
	return (unsigned long)(mm->context.ctx_id << 40) ^ (addr >> PAGE_SHIFT) ^ 0x5a5a0000UL;
}

/* ---- VMAs (mmap.c) ---- */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *__find_vma(struct mm_struct *mm, unsigned long addr);
/* mm->total_vm += @npages (mmap_lock held) */
void vm_stat_account(struct mm_struct *mm, unsigned long flags, long npages);
/* mmap_lock held for writing: @vma split at @addr, the new VMA below it
 * (@new_below) or above; 0 or -ENOMEM */
int __split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		bool new_below);
unsigned long vm_page_prot_of(unsigned long vm_flags);

/* ---- anonymous pages and the rmap (rmap.c) ---- */

/* page->flags bits of the kernel's numbering this layer uses */
#define PG_dirty		4
#define PG_swapbacked		19

static inline bool PageAnon(const struct page *page)
{
	return (unsigned long)page_folio(page)->mapping & PAGE_MAPPING_ANON;
}

/* the anon_vma a page's rmap names (the mm's own), or NULL */
static inline struct anon_vma *page_anon_vma(const struct page *page)
{
	unsigned long mapping = (unsigned long)READ_ONCE(page_folio(page)->mapping);

	if ((mapping & PAGE_MAPPING_ANON) != PAGE_MAPPING_ANON)
		return NULL;
	return (struct anon_vma *)(mapping & ~PAGE_MAPPING_ANON);
}

static inline struct mm_struct *anon_vma_mm(struct anon_vma *av)
{
	return container_of(av, struct mm_struct, anon_vma);
}

/* a page's own count, changed under the PTL of its one mapping: no yield
 * point (the readers that race it are reclaim's, with the page locked) */
static inline int page_mapcount(const struct page *page)
{
	return raw_atomic_read(&page->_mapcount) + 1;
}

/* page-flag accessors: checked for an uninitialised struct page
 * (mmdebug.h), on the caller's site */
static inline bool folio_test_flag_at(const struct folio *folio, int bit, const char *site)
{
	return pf_test_flags(&folio->page, site, __atomic_load_n(&folio->flags, __ATOMIC_RELAXED),
			     1UL << bit);
}
#define folio_test_flag(folio, bit)	folio_test_flag_at((folio), (bit), __func__)

static inline void folio_set_flag_at(struct folio *folio, int bit, const char *site)
{
	(void)PF_POISONED_FLAGS(&folio->page, site,
				__atomic_fetch_or(&folio->flags, 1UL << bit, __ATOMIC_RELAXED));
}
#define folio_set_flag(folio, bit)	folio_set_flag_at((folio), (bit), __func__)

static inline void folio_clear_flag_at(struct folio *folio, int bit, const char *site)
{
	(void)PF_POISONED_FLAGS(&folio->page, site,
				__atomic_fetch_and(&folio->flags, ~(1UL << bit), __ATOMIC_RELAXED));
}
#define folio_clear_flag(folio, bit)	folio_clear_flag_at((folio), (bit), __func__)

int anon_vma_prepare(struct vm_area_struct *vma);
void folio_add_new_anon_rmap(struct folio *folio, struct vm_area_struct *vma,
			     unsigned long address);
void page_remove_rmap(struct page *page, struct vm_area_struct *vma);
void flush_tlb_batched_pending(struct mm_struct *mm);
void anon_vma_link(struct anon_vma *av, struct vm_area_struct *vma);
void unlink_anon_vmas(struct vm_area_struct *vma);

/* rss */
void add_mm_counter(struct mm_struct *mm, int member, long value);
#define inc_mm_counter(mm, member)	add_mm_counter((mm), (member), 1)
#define dec_mm_counter(mm, member)	add_mm_counter((mm), (member), -1)

static inline void mm_inc_nr_ptes(struct mm_struct *mm)
{
	atomic_long_add(MODEL_PAGE_SIZE, &mm->pgtables_bytes);
}

static inline void mm_dec_nr_ptes(struct mm_struct *mm)
{
	atomic_long_sub(MODEL_PAGE_SIZE, &mm->pgtables_bytes);
}

#endif /* MMFUZZ_MM_TLB_H */

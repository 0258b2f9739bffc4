/* SPDX-License-Identifier: MIT */
/*
 * CONFIG_DEBUG_VM_PGFLAGS of Linux 6.6, in every build of the model:
 * include/linux/page-flags.h's PAGE_POISON_PATTERN, PagePoisoned and
 * PF_POISONED_CHECK (include/linux/mmdebug.h's VM_BUG_ON_PGFLAGS), and
 * mm/debug.c's page_init_poison (src/mm/debug.c).
 *
 * 6.6 fills the memmap it allocates with the pattern (memmap_alloc ->
 * page_init_poison, mm/mm_init.c) and initialises each struct page later
 * (__init_single_page): at boot, or past a node's first_deferred_pfn in
 * deferred init.  Every page-flag accessor goes through PF_POISONED_CHECK,
 * and so does page_to_nid (so page_zone): a flags word of all ones is a
 * struct page read before it was initialised.  The model's memmap past
 * first_deferred_pfn holds the pattern (and is ASan-poisoned); its
 * page-flag accessors (page-flags.h, the folio flag tests of tlb.h, SLUB's
 * PG_slab test), page_zone and its wrappers, compound_head, PageTail and
 * PageBuddy check it, in every build, on the caller's site (__func__ of
 * the function that called the accessor): HOOK(pagealloc, page_poisoned),
 * which deferred init's checker reports as I-DI-3@SITE.  6.6's page types
 * (page_type), compound_head and PageTail have no such check; the model
 * adds it, as an ASan build reports those reads too.
 *
 * The cost: the check runs on the path an uninitialised word would take.
 * Its flags word has every bit set, so a flag test compares the word it
 * loaded only when the flag reads set, a branch predicted not taken (no
 * initialised struct page has every flag set); a setter compares the word
 * it loaded.  Its page_type reads "no type" and its compound_head "a
 * tail", so PageBuddy checks only when it answers not free, PageTail and
 * compound_head only on a tail; there, and in page_zone (which reads no
 * word of the page), the flags word is loaded only while some world's
 * memmap holds the pattern (page_init_poisoned), beside the word read, on
 * the same cache line; else the check is a predicted branch on one global.
 * An ASan build asks ASan first, before the load, while a memmap holds the
 * pattern: the check's report, not ASan's, in every build.
 */
#ifndef MMFUZZ_MM_MMDEBUG_H
#define MMFUZZ_MM_MMDEBUG_H

#include "../kernel/compiler.h"
#include "../sched/san.h"

struct page;

#define PAGE_POISON_PATTERN	-1l

/*
 * The worlds whose memmap holds the pattern (mm_init.c counts them where
 * it writes and removes it, outside any run): while it is 0 the checks
 * that would load the flags word of their own (PF_POISONED_CHECK) and
 * ASan's queries are off.  A count, not the running world's flag:
 * whichever world is mm_world, a poisoned struct page of it is never
 * missed.
 */
extern int page_init_poisoned;

/* 6.6 page_init_poison (mm/debug.c): @size bytes of memmap at @page */
void page_init_poison(struct page *page, size_t size);

/* PF_POISONED_CHECK fired at @site: HOOK(pagealloc, page_poisoned), else
 * the VM_BUG_ON_PGFLAGS violation.  Does not return. */
__attribute__((noreturn, cold)) void page_poisoned_bug(const struct page *page, const char *site);

/* A racy read of the word: the struct page may be another task's (the
 * buddy of a free page, a tail a compound head is being written over) */
#define PagePoisoned(page)							\
	(__data_race(__READ_ONCE((page)->flags)) == (unsigned long)PAGE_POISON_PATTERN)

#if MMFUZZ_ASAN
/* before the load: ASan must not report first */
#define __pf_asan_poisoned(page)	__asan_address_is_poisoned(&(page)->flags)
#else
#define __pf_asan_poisoned(page)	0
#endif

/* An ASan build's query, before an accessor's first read of @page */
#define PF_POISONED_ASAN(page, site) do {					\
	if (MMFUZZ_ASAN && unlikely(page_init_poisoned) && __pf_asan_poisoned(page)) \
		page_poisoned_bug((page), (site));				\
} while (0)

/* PF_POISONED_CHECK of a reader of another word of @page (page_type,
 * compound_head) or of none (page_zone): the flags word loaded to ask */
#define PF_POISONED_CHECK(page, site) do {					\
	if (unlikely(page_init_poisoned) &&					\
	    (__pf_asan_poisoned(page) || unlikely(PagePoisoned(page))))		\
		page_poisoned_bug((page), (site));				\
} while (0)

/* The flags word of @page as @load reads it (a page-flag accessor's
 * load), checked: one compare on the word loaded, a branch predicted not
 * taken (no initialised struct page has every flag set); in an ASan build
 * the query before the load, while a memmap holds the pattern */
#define PF_POISONED_FLAGS(page, site, load) ({					\
	unsigned long __pf_f;							\
									\
	if (MMFUZZ_ASAN && unlikely(page_init_poisoned) && __pf_asan_poisoned(page)) \
		page_poisoned_bug((page), (site));				\
	__pf_f = (load);							\
	if (unlikely(__pf_f == (unsigned long)PAGE_POISON_PATTERN))		\
		page_poisoned_bug((page), (site));				\
	__pf_f; })

/* A page-flag accessor's plain read of page->flags, checked */
#define pf_flags(page, site)	PF_POISONED_FLAGS((page), (site), (page)->flags)

/*
 * A flag test of the word @load reads: whether a bit of @mask is set.  An
 * uninitialised word has every bit set, so the compare runs only when the
 * test says set: nothing on the path a clear flag takes.
 */
#define pf_test_flags(page, site, load, mask) ({				\
	unsigned long __pf_t;							\
									\
	if (MMFUZZ_ASAN && unlikely(page_init_poisoned) && __pf_asan_poisoned(page)) \
		page_poisoned_bug((page), (site));				\
	__pf_t = (load);							\
	if ((__pf_t & (mask)) &&						\
	    unlikely(__pf_t == (unsigned long)PAGE_POISON_PATTERN))		\
		page_poisoned_bug((page), (site));				\
	(__pf_t & (mask)) != 0; })

#endif /* MMFUZZ_MM_MMDEBUG_H */

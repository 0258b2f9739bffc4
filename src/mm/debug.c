// SPDX-License-Identifier: MIT
/*
 * 6.6 mm/debug.c's page_init_poison, and the report of PF_POISONED_CHECK
 * (mmdebug.h): a struct page read before it was initialised.
 */
#include "internal.h"

#include <string.h>

int page_init_poisoned;

/*
 * 6.6: memset(page, PAGE_POISON_PATTERN, size) unless vm_debug=-P turned
 * page_init_poisoning off; the model always poisons (its checks are its
 * CONFIG_DEBUG_VM_PGFLAGS).  The bytes of -1l: every word all ones.
 */
void page_init_poison(struct page *page, size_t size)
{
	memset(page, (int)PAGE_POISON_PATTERN, size);
}

void page_poisoned_bug(const struct page *page, const char *site)
{
	HOOK(pagealloc, page_poisoned, page, site);
	/* no checker attached: the kernel's VM_BUG_ON_PGFLAGS, with the line
	 * 6.6's dump_page prints for such a page */
	sched_violation("VM_BUG_ON_PGFLAGS", site,
			"VM_BUG_ON_PGFLAGS(PagePoisoned(page)) pfn %lu: page is uninitialized and "
			"poisoned", page_to_pfn(page));
}

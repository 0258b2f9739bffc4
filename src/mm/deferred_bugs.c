// SPDX-License-Identifier: MIT
/*
 * Deferred init's bug switches: bits 32, 33 (padata.h, they bite in
 * padata_mt_helper), 34 (deferred.h, deferred_init_maxorder) and 35
 * (internal.h, __free_pages_core).  Each is caught by src/check/deferred.c.
 */
#include "deferred.h"
#include "internal.h"

static const struct bug_info bug_padata_chunk_overlap = {
	.bit = BUG_PADATA_CHUNK_OVERLAP,
	.name = "padata_chunk_overlap", .layer = "deferred", .where = "padata_mt_helper",
	.caught_by = "I-DI-2 (a pfn initialised twice; chunks overlap)",
	.desc = "a helper's chunk after the first starts one pfn before job->start: two "
		"helpers initialise and free the pfn where their chunks meet",
};
BUG_SWITCH(bug_padata_chunk_overlap);

static const struct bug_info bug_padata_chunk_gap = {
	.bit = BUG_PADATA_CHUNK_GAP,
	.name = "padata_chunk_gap", .layer = "deferred", .where = "padata_mt_helper",
	.caught_by = "I-DI-3 (its MAX_ORDER block freed around an uninitialised struct page), "
		     "I-DI-2 (a deferred pfn never initialised; chunks leave a gap)",
	.desc = "job->start moves one pfn past the claimed chunk's end: the pfn between two "
		"chunks is never initialised nor freed",
};
BUG_SWITCH(bug_padata_chunk_gap);

static const struct bug_info bug_maxorder_free_before_init = {
	.bit = BUG_MAXORDER_FREE_BEFORE_INIT,
	.name = "maxorder_free_before_init", .layer = "deferred", .where = "deferred_init_maxorder",
	.caught_by = "I-DI-3 (a struct page freed before it was initialised); ASan",
	.desc = "deferred_init_maxorder frees a MAX_ORDER block before it initialises its "
		"struct pages: __free_pages_core and the buddy merge read uninitialised memmap",
};
BUG_SWITCH(bug_maxorder_free_before_init);

static const struct bug_info bug_managed_pages_nonatomic = {
	.bit = BUG_MANAGED_PAGES_NONATOMIC,
	.name = "managed_pages_nonatomic", .layer = "deferred", .where = "__free_pages_core",
	.caught_by = "I-DI-4 (managed_pages differs from what __free_pages_core freed)",
	.desc = "__free_pages_core reads managed_pages and writes the sum back instead of "
		"atomic_long_add: two helpers freeing into one zone lose pages of it",
};
BUG_SWITCH(bug_managed_pages_nonatomic);

/* SPDX-License-Identifier: MIT */
/*
 * Deferred init's checker (deferred.c): what a test may ask of its per-pfn
 * record (how many times deferred init initialised, freed and put on the
 * free lists each pfn), which a run begin clears granule by granule, only
 * where the last run wrote.
 */
#ifndef MMFUZZ_CHECK_DEFERRED_CHECK_H
#define MMFUZZ_CHECK_DEFERRED_CHECK_H

/* The entries (pfn counts, granule marks, list length) that differ from a
 * fresh checker's all-zero record: 0 right after a run begin.  Walks the
 * whole record: for tests. */
unsigned long deferred_check_record_dirty(void);

/* The granules (64 pfns) the run so far wrote. */
unsigned long deferred_check_record_touched(void);

#endif /* MMFUZZ_CHECK_DEFERRED_CHECK_H */

/* SPDX-License-Identifier: MIT */
/*
 * Interleaving coverage: for every step, a hash of (the previous yield
 * site, this yield site, whether the scheduler switched tasks) lands in one
 * of ILV_EDGES distinct basic blocks.  Coverage-guided engines count basic
 * blocks, so a new interleaving is new coverage to libFuzzer and AFL++
 * alike (AFL++ ignores libFuzzer's extra-counter section: fuzz-ecosystem.md
 * section 3.5).
 */
#ifndef MMFUZZ_SCHED_ILV_H
#define MMFUZZ_SCHED_ILV_H

#include <stdbool.h>

#define ILV_EDGES 512

/* On in fuzz builds unless MMFUZZ_ILV=0; off elsewhere. */
extern bool ilv_enabled;
/* How many distinct edges this process has hit (for progress reports). */
unsigned ilv_seen(void);
void ilv_edge(unsigned prev_site, unsigned site, bool switched);

#endif /* MMFUZZ_SCHED_ILV_H */

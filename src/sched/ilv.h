/* SPDX-License-Identifier: MIT */
/*
 * Interleaving coverage: for every step, a hash of (the previous yield
 * site, this yield site, whether the scheduler switched tasks) is one of
 * ILV_EDGES edges, which the fuzz builds hand to their engine as coverage
 * (ilv.c says how for each), so a new interleaving is progress to libFuzzer
 * and AFL++ alike.
 */
#ifndef MMFUZZ_SCHED_ILV_H
#define MMFUZZ_SCHED_ILV_H

#include <stdbool.h>
#include <stdint.h>

#define ILV_EDGES 65536

/* On in fuzz builds unless MMFUZZ_ILV=0; off elsewhere. */
extern bool ilv_enabled;
/* The pairs too (MMFUZZ_ILV=edges turns them off): each step's site against
 * the site where every other task was switched out inside an operation, the
 * shape of a race (one task acts while another sits between its load and
 * its store). */
extern bool ilv_pairs;
/* libFuzzer: count each edge's hits in its counter (MMFUZZ_ILV=counts)
 * instead of setting it once (ilv.c says why not by default). */
extern bool ilv_counts;
/* How many distinct edges this process has hit (for progress reports). */
unsigned ilv_seen(void);
/* The edges of the current run, hashed in order: coverage must be a
 * function of the input alone (tests/test_prog.c checks it). */
void ilv_run_begin(void);
uint64_t ilv_run_hash(void);
void ilv_edge(unsigned prev_site, unsigned site, bool switched);
void ilv_pair(unsigned site, unsigned parked_site);

/*
 * State coverage (the IJON idea): a value of the model's state at a named
 * point, (key, bucket), is a feature of a region of its own beside the
 * edges (ilv_state.c says how each engine gets it).  The model's hooks
 * reach it (src/check/state.c buckets what they see); the fuzz builds
 * attach them unless MMFUZZ_STATE=0.  It is in no hash and no trace: a run
 * takes the same steps with it or without.
 */
#define STATE_FEATURES 4096
void ilv_state(unsigned key, unsigned long bucket);
/* How many distinct state features this process has hit. */
unsigned ilv_state_seen(void);

#endif /* MMFUZZ_SCHED_ILV_H */

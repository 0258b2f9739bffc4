// SPDX-License-Identifier: MIT
/*
 * The state features (ilv.h), delivered to the engine of the build
 * (MMFUZZ_ILV_SINK, as the interleaving edges are in ilv.c) in a region of
 * their own:
 *
 *  libfuzzer  a byte per feature in an array of its own in libFuzzer's
 *             extra-counter section, set to 1 when hit (cleared by
 *             libFuzzer before every run, counted into its features as the
 *             edges' counters are)
 *  afl        a hit in AFL++'s shared-memory map, hashed apart from the
 *             interleaving edges
 *  none       plain builds: only the count of features seen (nothing
 *             attaches the hooks there: src/check/state.c is attached by
 *             the fuzz harness only)
 *
 * Like ilv_edge, it runs on fibers and is not TSan-instrumented.
 */
#include "ilv.h"
#include "san.h"

#include <stdint.h>

#ifndef MMFUZZ_ILV_SINK
#define MMFUZZ_ILV_SINK 0
#endif

static uint8_t state_hit[STATE_FEATURES];
static unsigned state_nseen;

unsigned ilv_state_seen(void)
{
	return state_nseen;
}

#if MMFUZZ_ILV_SINK == 1
__attribute__((section("__libfuzzer_extra_counters"), used)) static uint8_t
	state_counters[STATE_FEATURES];

static inline __sched_notsan void state_sink(unsigned h)
{
	state_counters[h] = 1;
}
#elif MMFUZZ_ILV_SINK == 2
extern uint8_t *__afl_area_ptr;
extern uint32_t __afl_map_size;

static inline __sched_notsan void state_sink(unsigned h)
{
	uint32_t size = __afl_map_size ? __afl_map_size : 65536;

	__afl_area_ptr[((h ^ 0x5bd1e995u) * 0xCC9E2D51u) % size]++;
}
#else
static inline __sched_notsan void state_sink(unsigned h)
{
	(void)h;
}
#endif

__sched_notsan __attribute__((noinline)) void ilv_state(unsigned key, unsigned long bucket)
{
	uint64_t x = ((uint64_t)key << 32 ^ bucket) * 0x9E3779B97F4A7C15ULL;
	unsigned h = (unsigned)(x >> 32) % STATE_FEATURES;

	if (!state_hit[h]) {
		state_hit[h] = 1;
		state_nseen++;
	}
	state_sink(h);
}

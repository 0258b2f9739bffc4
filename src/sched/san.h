/* SPDX-License-Identifier: MIT */
/*
 * Sanitizer feature detection and the few annotations the scheduler and the
 * kernel primitives need.  clang 14 does not define __SANITIZE_*__, gcc does:
 * use __has_feature with the gcc macros as fallback.
 */
#ifndef MMFUZZ_SCHED_SAN_H
#define MMFUZZ_SCHED_SAN_H

#include <stddef.h>

#ifndef __has_feature
#define __has_feature(x) 0
#endif

#if __has_feature(address_sanitizer) || defined(__SANITIZE_ADDRESS__)
#define MMFUZZ_ASAN 1
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#else
#define MMFUZZ_ASAN 0
#endif

#if __has_feature(thread_sanitizer) || defined(__SANITIZE_THREAD__)
#define MMFUZZ_TSAN 1
#include <sanitizer/tsan_interface.h>
/* Exported by the TSan runtime (dynamic annotations), not declared in a header. */
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
#else
#define MMFUZZ_TSAN 0
#endif

/*
 * Scheduler bookkeeping is shared by every fiber without happens-before on
 * purpose (switches are no_sync): keep it out of TSan's sight, or it reports
 * races between the fibers and the scheduler itself.
 */
#if MMFUZZ_TSAN
#define __sched_notsan __attribute__((no_sanitize("thread"), noinline))
#else
#define __sched_notsan
#endif

/*
 * A word of the model (a lock's owner) the scheduler reads in a
 * __sched_notsan function: no_sanitize("thread") leaves atomics
 * instrumented, and a relaxed load of a lock's owner then races, in TSan's
 * eyes, with the plain spin_lock_init() of another fiber that made the lock
 * (an mm made at a task's first use): the fibers switch without sync.  The
 * fibers of a TSan build share one host thread, so a volatile read is the
 * same load; other builds keep the atomic.
 */
#if MMFUZZ_TSAN
#define sched_peek(x) (*(__typeof__(x) const volatile *)&(x))
#else
#define sched_peek(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif

/*
 * Checkers read the whole model from one fiber; they must not race-report.
 * An ignored section never spans a yield point, so one depth per host
 * thread is the running fiber's: a violation that longjmps out of a
 * checker's section ends what it left open (tsan_ignore_unwind, from
 * sched_violation), or the fiber would run on with TSan blind.
 */
#if MMFUZZ_TSAN
extern __thread int tsan_ignore_depth;
#define tsan_ignore_begin() do { AnnotateIgnoreReadsBegin(__FILE__, __LINE__); \
				 AnnotateIgnoreWritesBegin(__FILE__, __LINE__); \
				 tsan_ignore_depth++; } while (0)
#define tsan_ignore_end()   do { tsan_ignore_depth--; \
				 AnnotateIgnoreWritesEnd(__FILE__, __LINE__); \
				 AnnotateIgnoreReadsEnd(__FILE__, __LINE__); } while (0)
#define tsan_ignore_unwind() do { while (tsan_ignore_depth > 0) tsan_ignore_end(); } while (0)
#else
#define tsan_ignore_begin() do { } while (0)
#define tsan_ignore_end()   do { } while (0)
#define tsan_ignore_unwind() do { } while (0)
#endif

#if MMFUZZ_ASAN
#define san_poison(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define san_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define san_poison(p, n)   do { (void)(p); (void)(n); } while (0)
#define san_unpoison(p, n) do { (void)(p); (void)(n); } while (0)
#endif

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif /* MMFUZZ_SCHED_SAN_H */

// SPDX-License-Identifier: MIT
/*
 * linesim: which cache lines do the threads of a stress run trade?  perf c2c
 * answers that from the hardware's HITM events, which a VM without PMU
 * counters does not have.  This answers it from the program: the model and
 * the runner are compiled with clang's ThreadSanitizer instrumentation (a
 * call before every load, store and atomic) and linked against this file
 * instead of the TSan runtime.  It keeps, per block of 64 or 128 bytes
 * (128: the pairs of lines x86's adjacent-line prefetchers move together),
 * which threads hold a copy and which one wrote it last, and counts the
 * transfers a coherent cache would make: a thread reading a block another
 * thread has modified (what perf c2c calls a HITM), and a thread writing a
 * block others hold (an invalidation).  It cannot see the prefetchers
 * themselves, only the blocks two threads touch.
 *
 * The table is indexed by a hash of the block address, one entry a block,
 * updated without locks: two threads on one entry at once can lose an
 * update, so counts are approximate (a block traded millions of times
 * shows as millions); a block whose entry another block took over starts
 * again from zero.
 *
 * Environment: LINESIM_BYTES (64 or 128, default 128), LINESIM_START
 * (seconds after the start to begin counting, default 2: skip the set-up),
 * LINESIM_FOR (seconds to count, default 4), LINESIM_MIN (transfers for a
 * block to be listed, default 1000).  The report goes to stderr at the end
 * of the window, as lines the script tools/linesim.sh symbolizes:
 *
 *   linesim: block 0x... transfers N (reads R, invalidations I) pc 0x... 0x...
 *   linesim: blocks shared: B, transfers: T, in S s of BYTES-byte blocks
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TABLE_BITS	22
#define MAX_THREADS	8	/* threads past the 8th share ids */
#define MAX_LISTED	40

struct block {
	uint64_t tag;			/* block address >> shift, 0: empty */
	uint32_t reads, invals;		/* transfers */
	uint8_t holders;		/* threads with a valid copy */
	uint8_t dirty;			/* thread that modified it, or NO_OWNER */
	uint64_t pc[MAX_THREADS / 2];	/* last transfer's pc, by thread id % 4 */
};
#define NO_OWNER	0xff

static struct block *table;
static unsigned shift = 7;
static volatile int counting;
static int next_id;
static __thread int thread_id = -1;

static void block_access(uintptr_t addr, int write, void *pc)
{
	uint64_t tag = (addr >> shift) | 1ULL << 63;
	struct block *b;
	uint8_t me;

	if (!counting)
		return;
	if (thread_id < 0)
		thread_id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED) % MAX_THREADS;
	me = (uint8_t)(1u << thread_id);
	b = &table[(tag * 0x9E3779B97F4A7C15ULL) >> (64 - TABLE_BITS)];
	if (b->tag != tag) {
		memset(b, 0, sizeof(*b));
		b->tag = tag;
		b->dirty = NO_OWNER;
	}
	if (write) {
		if (b->holders & ~me) {
			b->invals++;
			b->pc[thread_id % 4] = (uint64_t)pc;
		}
		b->holders = me;
		b->dirty = (uint8_t)thread_id;
	} else if (!(b->holders & me)) {
		if (b->dirty != NO_OWNER) {
			b->reads++;
			b->pc[thread_id % 4] = (uint64_t)pc;
		}
		b->holders |= me;
		b->dirty = NO_OWNER;
	}
}

static uint64_t transfers(const struct block *b)
{
	return (uint64_t)b->reads + b->invals;
}

static int by_transfers(const void *x, const void *y)
{
	uint64_t a = transfers(x), b = transfers(y);

	return a < b ? 1 : a > b ? -1 : 0;
}

static double env_num(const char *name, double dflt)
{
	const char *v = getenv(name);

	return v && *v ? atof(v) : dflt;
}

static void report(double secs, uint64_t min)
{
	static struct block top[MAX_LISTED];
	uint64_t total = 0, shared = 0;
	size_t i;
	int n = 0, k;

	for (i = 0; i < 1UL << TABLE_BITS; i++) {
		const struct block *b = &table[i];

		if (!b->tag || transfers(b) < min)
			continue;
		shared++;
		total += transfers(b);
		if (n < MAX_LISTED)
			top[n++] = *b;
		else if (transfers(b) > transfers(&top[n - 1]))
			top[n - 1] = *b;
		else
			continue;
		qsort(top, (size_t)n, sizeof(top[0]), by_transfers);
	}
	for (k = 0; k < n; k++) {
		fprintf(stderr, "linesim: block %#llx transfers %llu (reads %u, invalidations %u) pc",
			(unsigned long long)((top[k].tag & ~(1ULL << 63)) << shift),
			(unsigned long long)transfers(&top[k]), top[k].reads, top[k].invals);
		for (i = 0; i < MAX_THREADS / 2; i++)
			if (top[k].pc[i])
				fprintf(stderr, " %#llx", (unsigned long long)top[k].pc[i]);
		fputc('\n', stderr);
	}
	fprintf(stderr, "linesim: blocks shared: %llu, transfers: %llu, in %.1f s of %u-byte blocks\n",
		(unsigned long long)shared, (unsigned long long)total, secs, 1u << shift);
}

static void *window(void *arg)
{
	double start = env_num("LINESIM_START", 2), secs = env_num("LINESIM_FOR", 4);

	(void)arg;
	usleep((useconds_t)(start * 1e6));
	counting = 1;
	usleep((useconds_t)(secs * 1e6));
	counting = 0;
	usleep(1000);		/* let accesses in flight finish */
	report(secs, (uint64_t)env_num("LINESIM_MIN", 1000));
	return NULL;
}

__attribute__((constructor)) static void linesim_init(void)
{
	pthread_t t;

	shift = env_num("LINESIM_BYTES", 128) == 64 ? 6 : 7;
	table = mmap(NULL, sizeof(struct block) << TABLE_BITS, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (table == MAP_FAILED) {
		perror("linesim: mmap");
		exit(2);
	}
	if (pthread_create(&t, NULL, window, NULL) == 0)
		pthread_detach(t);
}

/* ---- the entry points clang's -fsanitize=thread instrumentation calls ---- */

#define PC __builtin_return_address(0)
#define ACCESS(n)								\
	void __tsan_read##n(void *a);						\
	void __tsan_read##n(void *a) { block_access((uintptr_t)a, 0, PC); }	\
	void __tsan_write##n(void *a);						\
	void __tsan_write##n(void *a) { block_access((uintptr_t)a, 1, PC); }	\
	void __tsan_unaligned_read##n(void *a);					\
	void __tsan_unaligned_read##n(void *a) { block_access((uintptr_t)a, 0, PC); } \
	void __tsan_unaligned_write##n(void *a);				\
	void __tsan_unaligned_write##n(void *a) { block_access((uintptr_t)a, 1, PC); }
ACCESS(1) ACCESS(2) ACCESS(4) ACCESS(8) ACCESS(16)

static void range(const void *a, unsigned long n, int write, void *pc)
{
	uintptr_t p = (uintptr_t)a, end = p + n;

	for (p &= ~(uintptr_t)63; p < end; p += 64)
		block_access(p, write, pc);
}

void __tsan_read_range(void *a, unsigned long n);
void __tsan_read_range(void *a, unsigned long n) { range(a, n, 0, PC); }
void __tsan_write_range(void *a, unsigned long n);
void __tsan_write_range(void *a, unsigned long n) { range(a, n, 1, PC); }
void *__tsan_memcpy(void *d, const void *s, unsigned long n);
void *__tsan_memcpy(void *d, const void *s, unsigned long n)
{
	range(d, n, 1, PC);
	range(s, n, 0, PC);
	return memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, unsigned long n);
void *__tsan_memmove(void *d, const void *s, unsigned long n)
{
	range(d, n, 1, PC);
	range(s, n, 0, PC);
	return memmove(d, s, n);
}
void *__tsan_memset(void *d, int c, unsigned long n);
void *__tsan_memset(void *d, int c, unsigned long n)
{
	range(d, n, 1, PC);
	return memset(d, c, n);
}

/* Atomics: a load reads, everything else writes; done sequentially consistent. */
#define SC __ATOMIC_SEQ_CST
#define RMW(n, T, op, builtin)							\
T __tsan_atomic##n##_##op(volatile T *a, T v, int mo);				\
T __tsan_atomic##n##_##op(volatile T *a, T v, int mo)				\
{ block_access((uintptr_t)a, 1, PC); return builtin(a, v, SC); }
#define CAS(n, T, kind)								\
int __tsan_atomic##n##_compare_exchange_##kind(volatile T *a, T *c, T v, int mo, int fmo); \
int __tsan_atomic##n##_compare_exchange_##kind(volatile T *a, T *c, T v, int mo, int fmo) \
{ block_access((uintptr_t)a, 1, PC); return __atomic_compare_exchange_n(a, c, v, 0, SC, SC); }
#define ATOMIC(n, T)								\
T __tsan_atomic##n##_load(const volatile T *a, int mo);				\
T __tsan_atomic##n##_load(const volatile T *a, int mo)				\
{ block_access((uintptr_t)a, 0, PC); return __atomic_load_n(a, SC); }		\
void __tsan_atomic##n##_store(volatile T *a, T v, int mo);			\
void __tsan_atomic##n##_store(volatile T *a, T v, int mo)			\
{ block_access((uintptr_t)a, 1, PC); __atomic_store_n(a, v, SC); }		\
RMW(n, T, exchange, __atomic_exchange_n) RMW(n, T, fetch_add, __atomic_fetch_add)	\
RMW(n, T, fetch_sub, __atomic_fetch_sub) RMW(n, T, fetch_and, __atomic_fetch_and)	\
RMW(n, T, fetch_or, __atomic_fetch_or) RMW(n, T, fetch_xor, __atomic_fetch_xor)	\
RMW(n, T, fetch_nand, __atomic_fetch_nand)					\
CAS(n, T, strong) CAS(n, T, weak)						\
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo); \
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
{ block_access((uintptr_t)a, 1, PC); __atomic_compare_exchange_n(a, &c, v, 0, SC, SC); return c; }
ATOMIC(8, uint8_t) ATOMIC(16, uint16_t) ATOMIC(32, uint32_t) ATOMIC(64, uint64_t)

/* cmpxchg_double's 16-byte compare-and-swap (src/kernel/cmpxchg_double.h) */
typedef unsigned __int128 u128;
int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, int mo, int fmo);
int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c, u128 v, int mo, int fmo)
{
	unsigned long lo = (unsigned long)*c, hi = (unsigned long)(*c >> 64);
	_Bool ok;

	block_access((uintptr_t)a, 1, PC);
	__asm__ __volatile__("lock cmpxchg16b %1"
			     : "=@ccz"(ok), "+m"(*a), "+a"(lo), "+d"(hi)
			     : "b"((unsigned long)v), "c"((unsigned long)(v >> 64))
			     : "memory");
	*c = ((u128)hi << 64) | lo;
	return ok;
}

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_thread_fence(int mo) { __atomic_thread_fence(SC); }
void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_signal_fence(int mo) { }

/* What the instrumentation and the model's TSan annotations call besides:
 * nothing to do here. */
#define NOP(decl) void decl; void decl { }
NOP(__tsan_init(void))
NOP(__tsan_func_entry(void *pc))
NOP(__tsan_func_exit(void))
NOP(__tsan_vptr_update(void **a, void *v))
NOP(__tsan_vptr_read(void **a))
NOP(__tsan_ignore_thread_begin(void))
NOP(__tsan_ignore_thread_end(void))
NOP(__tsan_mutex_create(void *a, unsigned f))
NOP(__tsan_mutex_destroy(void *a, unsigned f))
NOP(__tsan_mutex_pre_lock(void *a, unsigned f))
NOP(__tsan_mutex_post_lock(void *a, unsigned f, int r))
NOP(__tsan_mutex_post_unlock(void *a, unsigned f))
NOP(__tsan_mutex_pre_signal(void *a, unsigned f))
NOP(__tsan_mutex_post_signal(void *a, unsigned f))
NOP(__tsan_mutex_pre_divert(void *a, unsigned f))
NOP(__tsan_mutex_post_divert(void *a, unsigned f))
NOP(__tsan_acquire(void *a))
NOP(__tsan_release(void *a))
NOP(__tsan_destroy_fiber(void *f))
NOP(__tsan_switch_to_fiber(void *f, unsigned fl))
NOP(__tsan_set_fiber_name(void *f, const char *n))
NOP(AnnotateIgnoreReadsBegin(const char *f, int l))
NOP(AnnotateIgnoreReadsEnd(const char *f, int l))
NOP(AnnotateIgnoreWritesBegin(const char *f, int l))
NOP(AnnotateIgnoreWritesEnd(const char *f, int l))
int __tsan_mutex_pre_unlock(void *a, unsigned f);
int __tsan_mutex_pre_unlock(void *a, unsigned f) { return 0; }
void *__tsan_get_current_fiber(void);
void *__tsan_get_current_fiber(void) { return NULL; }
void *__tsan_create_fiber(unsigned f);
void *__tsan_create_fiber(unsigned f) { return NULL; }

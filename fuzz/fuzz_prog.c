// SPDX-License-Identifier: MIT
/*
 * The fuzz targets over the model: every input is a binary program (any
 * bytes decode), run on the deterministic scheduler with every checker.  A
 * violation prints the report and aborts, so the engine keeps the input.
 *
 * MMFUZZ_TARGET_NAME is the name of a struct fuzz_target of the descriptors (ops.h):
 * "mm" (every operation), "pagealloc" (the page allocator layer), or a later
 * layer's.  Its operations and fold list give the input bytes their meaning.
 *
 * Environment: MMFUZZ_INJECT=a,b (bug switches on; the input's own switch
 * bits are ignored), MMFUZZ_ILV=0 (no interleaving coverage; =edges: the
 * consecutive-site edges without the parked pairs; =counts: libFuzzer's
 * counters count an edge's hits instead of being set once), MMFUZZ_STATE=0
 * (no state features: the model's state_* hooks stay unattached,
 * src/check/state.c),
 * MMFUZZ_STATS=DIR (DIR/<pid>: this process's executions and interleavings
 * seen, rewritten each second, for mmfuzz fuzz's progress line), MMFUZZ_CRASHES=DIR (a model
 * violation is saved as DIR/crash-<hash> and the campaign goes on instead of
 * aborting: the world is rebuilt for every execution, so nothing carries
 * over; at most a few files per signature), MMFUZZ_CRASH_PREFIX=rN- (the
 * campaign's tag on their names), MMFUZZ_FLOOR=1 (decode each input and
 * run nothing: the engine's floor, which make bench-exec measures beside the
 * target), MMFUZZ_TEST_ABORT_AT=N (abort at this
 * process's N-th execution, whatever the input: for tests, a crash file that
 * does not reproduce alone, as a state carried between executions would
 * give).  A saved file is the input with the
 * campaign's switches written into it (prog_encode_binary of the program
 * as it ran), so that it replays, decodes and minimizes alone.  Sanitizer
 * reports always abort.
 *
 * The same file builds for libFuzzer (ASan+UBSan with clang 14, TSan with
 * clang 19) and for AFL++ (afl-clang-fast links libAFLDriver: persistent
 * mode with shared-memory test cases).  The world is reset between
 * executions by rewriting only what the previous one touched.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bugs/bugs.h"
#include "check/check.h"
#include "prog/exec.h"
#include "prog/gen.h"

#ifndef MMFUZZ_TARGET_NAME
#define MMFUZZ_TARGET_NAME "mm"
#endif

#if MMFUZZ_TSAN
#include <sys/syscall.h>

/*
 * TSan reports do not halt (halt_on_error=0): TSan's Die() on a fiber, in
 * the middle of its report, runs libFuzzer's death callback there, which
 * can hang in TSan's trace bookkeeping (seen: a FutexWait under free()).
 * Instead the summary hook below notes the race, the execution finishes,
 * and the harness handles it like a violation, from the main context: the
 * engine gets an abort (or, under mmfuzz fuzz, the input is saved and the
 * campaign goes on; TSan reports each race once per process anyway).
 */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=0:report_signal_unsafe=0:history_size=4";
}

static volatile unsigned tsan_reports;
static char tsan_func[96];

/* sanitizer_common's hook for every report's SUMMARY line: called inside
 * TSan's report, so no instrumentation, no malloc, no intercepted call. */
void __sanitizer_report_error_summary(const char *summary);
__attribute__((no_sanitize("thread"))) void __sanitizer_report_error_summary(const char *summary)
{
	const char *in = NULL, *q;
	size_t n = 0, k;

	while (summary[n])
		n++;
	syscall(SYS_write, 2, summary, n);
	syscall(SYS_write, 2, "\n", 1);
	for (q = summary; *q; q++)
		if (q[0] == ' ' && q[1] == 'i' && q[2] == 'n' && q[3] == ' ')
			in = q + 4;
	for (k = 0; in && in[k] && k < sizeof(tsan_func) - 1; k++)
		tsan_func[k] = in[k];
	tsan_func[k] = 0;
	tsan_reports++;
}
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct exec *e;
#if MMFUZZ_TSAN
static pid_t e_pid;		/* the process that made e */
#endif
static const struct fuzz_target *target;
static struct run_opts opts;
static uint64_t inject;
static const char *stats_path;
static unsigned long execs;
static unsigned long abort_at;	/* MMFUZZ_TEST_ABORT_AT */
static bool floor_only;		/* MMFUZZ_FLOOR=1 */
static time_t stats_time;
static const char *crash_dir, *crash_prefix = "";

/* FNV-1a over @n bytes: a crash file's name, the preemption cache's key */
static uint64_t bytes_hash(const uint8_t *data, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

#define SAVED_SIGS 64
#define SAVED_PER_SIG 4
static struct {
	char signature[128];
	int n;
} saved[SAVED_SIGS];
static int nsaved;

/* The program as it ran (the input, with the campaign's switches) as
 * DIR/<prefix>crash-<hash of the input>, written whole before it gets its
 * name. */
static void save_crash(const uint8_t *data, size_t size, const struct prog *p,
		       const char *signature)
{
	static uint8_t enc[1 << 16];
	char tmp[4096], path[4096];
	uint64_t h;
	long n;
	int k, fd;

	for (k = 0; k < nsaved && strcmp(saved[k].signature, signature); k++)
		;
	if (k == nsaved) {
		if (nsaved == SAVED_SIGS)
			return;
		snprintf(saved[nsaved++].signature, sizeof(saved[0].signature), "%s", signature);
	}
	if (saved[k].n++ >= SAVED_PER_SIG)
		return;
	h = bytes_hash(data, size);
	n = prog_encode_binary(p, enc, sizeof(enc));
	if (n > 0) {
		data = enc;
		size = (size_t)n;
	}
	snprintf(path, sizeof(path), "%s/%scrash-%016llx", crash_dir, crash_prefix,
		 (unsigned long long)h);
	snprintf(tmp, sizeof(tmp), "%s/.tmp-crash-%016llx-%d", crash_dir, (unsigned long long)h,
		 (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size || fsync(fd) || close(fd)) {
		unlink(tmp);
		return;
	}
	rename(tmp, path);
	fprintf(stderr, "MMFUZZ-FINDING: %s %s\n", signature, path);
}

/* DIR/<pid>: this process's executions and interleavings, for mmfuzz fuzz,
 * which sums the files of every engine process it started. */
static void write_stats(void)
{
	char tmp[4096], path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", stats_path, (int)getpid());
	snprintf(tmp, sizeof(tmp), "%s/.%d.tmp", stats_path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "execs %lu\ninterleavings %u\nknown %lu\n", execs, ilv_seen(),
		check_known_count());
	fprintf(f, "states %u\n", ilv_state_seen());
	fprintf(f, "worlds_hit %lu\nworlds_tuned %lu\nworlds_built %lu\n", exec_worlds(e)->hits,
		exec_worlds(e)->tuned, exec_worlds(e)->misses);
	fprintf(f, "world_calloc_cleared %lu\nworld_calloc_found_zero %lu\n", wmem_zeroed_bytes,
		wmem_clean_bytes);
	fclose(f);
	rename(tmp, path);
}

#if MMFUZZ_ILV_SINK == 1
/* MMFUZZ_EDGE_MUTATOR=0: libFuzzer's mutations only (a control, for
 * measuring what the config edges, the schedule re-rolls and the switch
 * nudges buy) */
static bool no_edge_mutator;
/* MMFUZZ_GEN_MUTATOR=1: the generator's mutations on (off by default:
 * measured from no seeds they found no more, docs/fuzzing.md) */
static bool no_gen_mutator = true;
/* MMFUZZ_PREEMPT_MUTATOR=0: no bounded-preemption schedules (a control) */
static bool no_preempt_mutator;
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *inj = getenv("MMFUZZ_INJECT"), *ilv = getenv("MMFUZZ_ILV");

	(void)argc;
	(void)argv;
	sites_init();
	e = exec_create();
	if (!e)
		abort();
#if MMFUZZ_TSAN
	e_pid = getpid();
#endif
	target = target_lookup(MMFUZZ_TARGET_NAME);
	if (!target) {
		fprintf(stderr, "fuzz target '%s' has no descriptors\n", MMFUZZ_TARGET_NAME);
		abort();
	}
	if (inj && *inj) {
		char *list = strdup(inj), *save = NULL, *name;

		for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
			int id = bug_lookup(name);

			if (id < 0) {
				fprintf(stderr, "MMFUZZ_INJECT: unknown bug switch '%s'\n", name);
				exit(2);
			}
			inject |= 1ULL << id;
		}
		free(list);
	}
	ilv_enabled = !(ilv && !strcmp(ilv, "0"));
	ilv_pairs = !(ilv && !strcmp(ilv, "edges"));
	ilv_counts = ilv && !strcmp(ilv, "counts");
	if (!(getenv("MMFUZZ_STATE") && !strcmp(getenv("MMFUZZ_STATE"), "0")))
		check_state_attach();
	stats_path = getenv("MMFUZZ_STATS");
#if MMFUZZ_ILV_SINK == 1
	no_edge_mutator = getenv("MMFUZZ_EDGE_MUTATOR") && !strcmp(getenv("MMFUZZ_EDGE_MUTATOR"), "0");
	no_gen_mutator = !(getenv("MMFUZZ_GEN_MUTATOR") && !strcmp(getenv("MMFUZZ_GEN_MUTATOR"), "1"));
	no_preempt_mutator = getenv("MMFUZZ_PREEMPT_MUTATOR") &&
			     !strcmp(getenv("MMFUZZ_PREEMPT_MUTATOR"), "0");
#endif
	/* known races of the pinned kernel (6.6's drain) as findings */
	check_report_known = getenv("MMFUZZ_REPORT_KNOWN") && strcmp(getenv("MMFUZZ_REPORT_KNOWN"), "0");
	crash_dir = getenv("MMFUZZ_CRASHES");
	if (crash_dir && !*crash_dir)
		crash_dir = NULL;
	if (getenv("MMFUZZ_CRASH_PREFIX"))
		crash_prefix = getenv("MMFUZZ_CRASH_PREFIX");
	floor_only = getenv("MMFUZZ_FLOOR") && !strcmp(getenv("MMFUZZ_FLOOR"), "1");
	if (getenv("MMFUZZ_TEST_ABORT_AT"))
		abort_at = strtoul(getenv("MMFUZZ_TEST_ABORT_AT"), NULL, 10);
	/* a smaller livelock bound than the CLI's: executions stay short */
	opts.max_steps = 20000;
	return 0;
}

#if MMFUZZ_ILV_SINK == 1
/*
 * libFuzzer: one mutation in eight sets a config key of the header to an
 * edge the kernel meets (both ends of its range, one step inside them, its
 * default), written at the key's place as the binary form has it; the
 * others are libFuzzer's own.  A byte flip rarely lands a 3-byte key on
 * its end, and regressions hide at the ends (the boot pageset's high below
 * batch, a zone of one max-order block, threshold 1, pageblock_order ==
 * max_order).  A mutation that changes max_order refolds the keys after it.
 */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/*
 * One mutation in eight draws a new schedule for the same program: the
 * fallback on PCT (depth 1 to 3) with a fresh seed, the explicit decisions
 * kept.  Each seed is another schedule of a program that may already have
 * the right shape (SLUB's ABA in corpus/kernel/freelist_reuse.mmf needs
 * one task parked at one step while another does three operations: 5 PCT
 * seeds in 300 find it), where byte mutations reach the four seed bytes of
 * one corpus entry among thousands rarely.
 */
/* Where the schedule begins: after the header and the program (v2's
 * 64-byte header or v3's preamble and sections: binary.c). */
static size_t sched_start(const uint8_t *data)
{
	size_t prog_off, sched_off;

	prog_binary_layout(data, BIN3_PREAMBLE, &prog_off, &sched_off);
	return sched_off;
}

static size_t reroll_schedule(uint8_t *data, size_t size, size_t max_size, uint64_t *r)
{
	size_t pend = sched_start(data), i;
	uint32_t seed = (uint32_t)rng_next(r);

	if (pend > size)
		pend = size;
	if (pend + BIN_SCHED_HEAD > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	if (size < pend + BIN_SCHED_HEAD) {
		memset(data + size, 0, pend + BIN_SCHED_HEAD - size);
		size = pend + BIN_SCHED_HEAD;
	}
	data[pend] = (uint8_t)(1 + rng_next(r) % 3);
	for (i = 0; i < 4; i++)
		data[pend + 1 + i] = (uint8_t)(seed >> (8 * i));
	return size;
}

/*
 * One mutation in eight moves one of the input's explicit switch points by
 * one yield point, earlier or later (a decision's step count, +-1).  A race
 * needs the switch between two particular yield points; a seed or a corpus
 * entry whose switch lands one point off (before the load where it should
 * be after it, or at a yield point a code change added or removed) is one
 * such move away, where byte mutations of the LEB128 counts change them
 * by 2^k or break the decisions after them.  Without explicit decisions,
 * a re-roll of the fallback's PCT seed instead.
 */
/* A decision's step count as binary.c writes it (LEB128, at least one
 * byte, at most 10); the bytes written */
static size_t put_leb128(uint8_t *out, uint64_t v)
{
	size_t n = 0;

	do {
		out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static size_t nudge_switch(uint8_t *data, size_t size, size_t max_size, uint64_t *r)
{
	size_t pend = sched_start(data);
	size_t at[64], len[64], off, k, n = 0, newlen;
	uint8_t enc[12];
	uint64_t skip = 0;
	int shift = 0;

	if (pend + BIN_SCHED_HEAD >= size)
		return reroll_schedule(data, size, max_size, r);
	/* each decision: a LEB128 step count, then a target byte (binary.c) */
	for (off = pend + BIN_SCHED_HEAD; off < size && n < 64;) {
		at[n] = off;
		while (off < size && (data[off] & 0x80))
			off++;
		off++;			/* the count's last byte */
		if (off > size)
			off = size;
		len[n] = off - at[n];
		n++;
		off++;			/* the target */
	}
	k = (size_t)(rng_next(r) % n);
	for (off = at[k]; off < at[k] + len[k]; off++, shift += 7)
		if (shift < 28)
			skip |= (uint64_t)(data[off] & 0x7f) << shift;
	if (rng_next(r) & 1)
		skip++;
	else if (skip > 0)
		skip--;
	else
		skip++;
	newlen = put_leb128(enc, skip);
	if (size - len[k] + newlen > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	memmove(data + at[k] + newlen, data + at[k] + len[k], size - at[k] - len[k]);
	memcpy(data + at[k], enc, newlen);
	return size - len[k] + newlen;
}

/*
 * What the last execution of each program ran: a direct-mapped cache from
 * a hash of the input's bytes before its schedule (header and program) to
 * the steps that run took and the tasks it had (the program's and the
 * kernel threads it started), filled by LLVMFuzzerTestOneInput.  libFuzzer
 * mutates an input it has just run (the corpus entry, or the mutation
 * before this one), so the preemption mutation below mostly finds its
 * program here and draws its switch points where that program runs; the
 * schedule changes the count little, and a stale entry only skews a draw.
 */
#define RAN_SLOTS 4096
static struct {
	uint64_t key;		/* the hash, 0: empty */
	uint32_t steps;
	uint8_t ntasks;
} ran[RAN_SLOTS];

static uint64_t prog_key(const uint8_t *data, size_t pend)
{
	return bytes_hash(data, pend) | 1;
}

/* res->steps counts the end's drain too, run on the same scheduler after
 * the program (exec.c's finish_on_scheduler), whose own count the
 * scheduler then holds: the program's steps are the difference (all of
 * them when a violation stopped the program before the drain). */
static void ran_note(const uint8_t *data, size_t size, const struct run_result *res)
{
	size_t pend = size >= BIN3_PREAMBLE ? sched_start(data) : size;
	uint64_t key = prog_key(data, pend < size ? pend : size), drain = exec_sched(e)->step;
	uint64_t steps = res->steps > drain ? res->steps - drain : res->steps;

	ran[key % RAN_SLOTS].key = key;
	ran[key % RAN_SLOTS].steps = steps > UINT32_MAX ? UINT32_MAX : (uint32_t)steps;
	ran[key % RAN_SLOTS].ntasks = (uint8_t)res->ntasks;
}

/*
 * One mutation in eight replaces the schedule by a bounded-preemption one
 * (CHESS's preemption bounding, Musuvathi and Qadeer, PLDI 2007): one or
 * two preemptions "after s steps switch to T", half the time after a
 * first pick of another task than T0 to start, the fallback none three
 * times in four (else PCT of depth 1 or 2, a fresh seed).  With the fallback
 * none a preempted task stays parked until the others block or end
 * (default_pick), so one decision parks one task at one yield point while
 * the others, or a kernel thread such as rcu_gp, do all their work: the
 * shape the freelist ABA, the typesafe free and rcu_gp_early need, which
 * PCT reaches in a few seeds of hundreds.
 *
 * The first decision preempts a task drawn uniformly, at a step drawn
 * uniformly over its stretch of the run: without decisions the tasks run
 * one after another in id order from the first (default_pick), so task i's stretch is taken as its share
 * of the run's steps (the last run's, from the cache above; else 16 a
 * operation) in proportion to its operations, the exit counted as one.
 * Uniform over the whole run would spend most draws in the longest task
 * (a 31-step reader beside a 560-step freer: 1 in 600 lands on the
 * reader's one window, against 1 in 60 here).  Its target is another task
 * or a kernel thread the program starts (ids after the tasks', below
 * MAX_TASKS; the cache knows how many the last run had).  The second
 * decision, counted from the first, is log-uniform over the steps left
 * (the target runs a few steps or many before it is preempted in turn),
 * its target any task.  The header and program bytes stay as they were.
 */
static uint64_t log_uniform(uint64_t left, uint64_t *r)
{
	int bits = 0, k;
	uint64_t lo, hi;

	while (bits < 40 && (2ull << bits) <= left + 1)
		bits++;
	k = (int)(rng_next(r) % (uint64_t)(bits + 1));
	lo = (1ull << k) - 1;
	hi = (2ull << k) - 1;
	if (hi > left)
		hi = left;
	return hi > lo ? lo + rng_next(r) % (hi - lo) : lo;
}

static size_t put_decision(uint8_t *data, size_t n, uint64_t s, int to)
{
	n += put_leb128(data + n, s);	/* at most 5 bytes below 2^32 */
	data[n++] = (uint8_t)to;
	return n;
}

static size_t preempt_schedule(uint8_t *data, size_t size, size_t max_size, uint64_t *r)
{
	static struct prog pp;
	size_t pend = sched_start(data), n;
	uint64_t key, steps, lo, hi, s;
	uint32_t seed = (uint32_t)rng_next(r);
	int ntasks, start, t, i, k, first, before = 0, all = 0, mine = 1;
	bool known;

	if (pend > size || pend + BIN_SCHED_HEAD + 3 * 6 > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	prog_decode_binary_target(data, size, &pp, target);
	key = prog_key(data, pend);
	known = ran[key % RAN_SLOTS].key == key;
	for (i = 0; i < pp.ntasks; i++)
		all += prog_task_ops(&pp, i, &first) + 1;
	steps = known ? ran[key % RAN_SLOTS].steps : 16 * (uint64_t)all;
	ntasks = known && ran[key % RAN_SLOTS].ntasks > pp.ntasks ? ran[key % RAN_SLOTS].ntasks
								   : pp.ntasks;
	if (ntasks > MAX_TASKS)
		ntasks = MAX_TASKS;
	/* the first task (half the time T0, as without a decision), then the
	 * others in id order from it, wrapping, as default_pick takes them */
	start = rng_next(r) & 1 ? 0 : (int)(rng_next(r) % (uint64_t)pp.ntasks);
	t = (int)(rng_next(r) % (uint64_t)pp.ntasks);
	for (k = 0; k < pp.ntasks; k++) {
		int id = (start + k) % pp.ntasks, ops = prog_task_ops(&pp, id, &first) + 1;

		if (id == t) {
			mine = ops;
			break;
		}
		before += ops;
	}
	lo = steps * (uint64_t)before / (uint64_t)all;
	hi = steps * (uint64_t)(before + mine) / (uint64_t)all;
	s = hi > lo ? lo + rng_next(r) % (hi - lo) : lo;

	n = pend;
	data[n++] = rng_next(r) % 4 ? 0 : (uint8_t)(1 + rng_next(r) % 2);
	for (i = 0; i < 4; i++)
		data[n++] = data[pend] ? (uint8_t)(seed >> (8 * i)) : 0;
	if (start) {
		n = put_decision(data, n, 0, start);	/* at step 0: the first pick */
		s = s ? s - 1 : 0;			/* counted from step 1 */
	}
	i = ntasks > 1 ? (int)(rng_next(r) % (uint64_t)(ntasks - 1)) : 0;
	n = put_decision(data, n, s, ntasks > 1 && i >= t ? i + 1 : i);
	if (rng_next(r) & 1)
		n = put_decision(data, n, log_uniform(steps > s + 1 ? steps - s - 1 : 0, r),
				 (int)(rng_next(r) % (uint64_t)ntasks));
	return n;
}

/* @p as the mutated input, or libFuzzer's own mutation of the input when
 * its binary form does not fit max_size */
static size_t mutated(const struct prog *p, uint8_t *data, size_t size, size_t max_size)
{
	static uint8_t buf[1 << 16];
	long n = prog_encode_binary(p, buf, sizeof(buf));

	if (n < 0 || (size_t)n > max_size)
		return LLVMFuzzerMutate(data, size, max_size);
	memcpy(data, buf, (size_t)n);
	return (size_t)n;
}

/*
 * With MMFUZZ_GEN_MUTATOR=1, two mutations in eight are the generator's
 * (src/prog/gen.c): the input
 * decoded, one relation added (an op that uses a live handle of the right
 * kind in another task, a handle arg retargeted to another task's handle,
 * a producer/consumer pair spliced across two tasks) and encoded again,
 * its schedule bytes (step decisions, fallback) as they were.  An input of
 * fewer than four ops (an empty corpus's first inputs) is replaced by a
 * generated program: two tasks that meet on one object from the start.
 */
static size_t gen_mutation(uint8_t *data, size_t size, size_t max_size, uint64_t *r)
{
	static struct prog gp;

	prog_decode_binary_target(data, size, &gp, target);
	if (gp.nops < 4)
		gen_program(&gp, target, rng_next(r), 0);
	else if (!gen_mutate(&gp, target, r, -1))
		return LLVMFuzzerMutate(data, size, max_size);
	gp.expect_tsan_race = false;
	return mutated(&gp, data, size, max_size);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	static struct prog edge_prog;
	uint64_t r = rng_seed(seed);
	const struct config_key *k;
	struct mm_config c;
	long lo, hi, unit, v;
	int i;

	if (no_edge_mutator || max_size < BIN3_PREAMBLE)
		return LLVMFuzzerMutate(data, size, max_size);
	switch (rng_next(&r) % 8) {
	case 0:
		break;		/* a config edge, below */
	case 1:
		if (size >= BIN3_PREAMBLE)
			return reroll_schedule(data, size, max_size, &r);
		return LLVMFuzzerMutate(data, size, max_size);
	case 2:
		if (size >= BIN3_PREAMBLE)
			return nudge_switch(data, size, max_size, &r);
		return LLVMFuzzerMutate(data, size, max_size);
	case 3:
		if (size >= BIN3_PREAMBLE && !no_preempt_mutator)
			return preempt_schedule(data, size, max_size, &r);
		return LLVMFuzzerMutate(data, size, max_size);
	case 4:
	case 5:
		if (!no_gen_mutator)
			return gen_mutation(data, size, max_size, &r);
		/* fall through */
	default:
		return LLVMFuzzerMutate(data, size, max_size);
	}
	/* the config is in the header's sections (v3) or block (v2): the
	 * input decoded, its config changed, encoded again (as v3) */
	prog_decode_binary_target(data, size, &edge_prog, target);
	c = edge_prog.cfg;
	k = config_key_by_id((int)(rng_next(&r) % (uint64_t)config_nkeys()));
	config_range(&c, k, &lo, &hi, &unit);
	switch (rng_next(&r) % 5) {
	case 0: v = lo; break;
	case 1: v = hi; break;
	case 2: v = lo + unit <= hi ? lo + unit : lo; break;
	case 3: v = hi - unit >= lo ? hi - unit : hi; break;
	default: v = k->def; break;
	}
	config_set(&c, k, v);
	/* the keys after it in their ranges again (zone_pages after max_order) */
	for (i = k->id + 1; i < config_nkeys(); i++) {
		const struct config_key *after = config_key_by_id(i);

		config_range(&c, after, &lo, &hi, &unit);
		v = config_get(&c, after);
		if (v > hi)
			config_set(&c, after, hi);
		else if (v < lo || (v - lo) % unit)
			config_set(&c, after, lo + (v > lo ? (v - lo) / unit * unit : 0));
	}
	if (config_check(&c, NULL, (char[160]){ 0 }, 160))
		return LLVMFuzzerMutate(data, size, max_size);
	edge_prog.cfg = c;
	return mutated(&edge_prog, data, size, max_size);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct prog p;
	struct run_result r;

	if (!e)
		LLVMFuzzerInitialize(NULL, NULL);
#if MMFUZZ_TSAN
	/*
	 * A process forked after LLVMFuzzerInitialize (AFL++'s fork server
	 * forks there, libAFLDriver's deferred init) keeps the fibers the
	 * parent made, but TSan's child forgets what ordered them: every
	 * execution "races" on the executor's own fields (exec_create's writes
	 * in the parent against task_cleanup on a fiber in the child), none of
	 * which reproduce.  The child makes its own executor and fibers (the
	 * parent's stay unused).
	 */
	if (e_pid != getpid()) {
		if (e_pid) {
			e = exec_create();
			if (!e)
				abort();
		}
		e_pid = getpid();
	}
#endif
	prog_decode_binary_target(data, size, &p, target);
	if (floor_only) {
		/* the engine's floor (make bench-exec): the same binary, engine,
		 * options and maps, the input decoded and nothing run */
		execs++;
		return 0;
	}
	/* the switches are the campaign's, never the input's; the header's
	 * expect_tsan flag is a mutated byte too: a saved crash file says
	 * "race" only for a race this TSan build reported (below) */
	p.bugs = inject;
	p.expect_tsan_race = false;
	if (exec_run(e, &p, &opts, &r))
		abort();
	execs++;
#if MMFUZZ_ILV_SINK == 1
	ran_note(data, size, &r);
#endif
	if (abort_at && execs == abort_at)
		abort();	/* a crash that depends on the executions before it */
	if (stats_path && (execs & 255) == 0 && time(NULL) != stats_time) {
		stats_time = time(NULL);
		write_stats();
	}
#if MMFUZZ_TSAN
	{
		static unsigned seen;

		if (tsan_reports != seen) {
			char sig[128];

			seen = tsan_reports;
			snprintf(sig, sizeof(sig), "data-race@%s", tsan_func[0] ? tsan_func : "?");
			p.expect_tsan_race = true;
			if (crash_dir) {
				save_crash(data, size, &p, sig);
				return -1;
			}
			fprintf(stderr, "MMFUZZ-SIGNATURE: %s\n", sig);
			abort();
		}
	}
#endif
	if (r.outcome == RUN_VIOLATION && crash_dir) {
		save_crash(data, size, &p, r.v.signature);
		return -1;	/* not a corpus entry */
	}
	if (r.outcome == RUN_VIOLATION) {
		char *text = exec_program_text(e, &p, &opts, &r);

		report_write(stderr, &r.v, exec_sched(e), prog_op_name, &p, text);
		fprintf(stderr, "MMFUZZ-SIGNATURE: %s\n", r.v.signature);
		free(text);
		abort();
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * The header's mms ("mms: T0 T1, T2"): the same program with and without
 * the key runs differently (tasks that share an mm by the header get each
 * other's flush IPIs and see each other's pages, from their first
 * operation), and the key survives text -> binary -> text, any header
 * bytes decode to a canonical assignment, and a binary without the bytes
 * means what it meant before.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/tlb.h"
#include "prog/exec.h"
#include "prog/ops_tlb.h"
#include "tap.h"

static struct prog p, q;

/* Parse @text with the header line @mms (or none) in place of "%s". */
static bool parse(const char *fmt, const char *mms, struct prog *out)
{
	char text[2048], err[512];

	snprintf(text, sizeof(text), fmt, mms);
	if (prog_parse_text(text, "t.mmf", out, err, sizeof(err))) {
		diag("%s", err);
		return false;
	}
	return true;
}

static bool run(struct exec *e, const struct prog *prog, struct run_result *r)
{
	struct run_opts o = { .rec = REC_INPUT };

	exec_run(e, prog, &o, r);
	if (r->outcome != RUN_CLEAN)
		diag("%s: %s", r->v.signature, r->v.msg);
	if (r->ndec_fired != prog->ndec)
		diag("%d of %d decisions fired", r->ndec_fired, prog->ndec);
	return r->outcome == RUN_CLEAN && r->ndec_fired == prog->ndec;
}

/*
 * T0 on cpu0 maps and touches r0; T1 on cpu1 reads it, which loads T0's mm
 * there if they share it; T0's munmap then flushes cpu1 by IPI, or has
 * nobody to tell.
 */
static const char ipi_prog[] =
	"mmfuzz 1\ncpus: 2\n%s\n"
	"task T0 cpu=0\n"
	"  r0 = mmap pages=2\n"
	"  access r0 page=0 write=1\n"
	"  munmap r0\n"
	"task T1 cpu=1\n"
	"  access r0 page=0\n"
	"  access r0 page=1\n"
	"schedule: fallback=none\n"
	"  at start -> T0\n"
	"  at T0.2 op(munmap) #1 -> T1\n"
	"  at T1.1 op(access) #1 -> T0\n";

/* T0 maps, writes and leaves its mm before T1 runs at all: the mm T1 was
 * named in is still there (T1 has held it from the start). */
static const char start_prog[] =
	"mmfuzz 1\ncpus: 2\n%s\n"
	"task T0 cpu=0\n"
	"  r0 = mmap pages=2\n"
	"  access r0 page=0 write=1\n"
	"  exit_mmap\n"
	"task T1 cpu=1\n"
	"  access r0 page=0\n"
	"schedule: fallback=none\n"
	"  at start -> T0\n";

/* encode, then decode as the CLI does (step decisions keyed again). */
static char *round_trip(struct exec *e, const struct prog *in)
{
	static struct prog c;
	struct run_opts o = { .rec = REC_INPUT };
	struct run_result r;
	uint8_t bin[8192];
	long n;

	c = *in;
	if (c.keyed) {
		exec_run(e, &c, &o, &r);
		exec_step_decisions(e, &c);
		c.keyed = false;
	}
	n = prog_encode_binary(&c, bin, sizeof(bin));
	if (n < 0)
		return NULL;
	prog_decode_binary(bin, (size_t)n, &q);
	q.expect = in->expect;
	o.rec = REC_NONE;
	return exec_program_text(e, &q, &o, NULL);
}

/* @in prints with the line @want ("" for no "mms:" line at all), and its
 * text comes back the same through the binary form. */
static bool prints_and_round_trips(struct exec *e, const struct prog *in, const char *want)
{
	char *a = prog_print_text(in), *b = round_trip(e, in);
	bool good = a && b && !strcmp(a, b) &&
		    (*want ? strstr(a, want) != NULL : strstr(a, "mms:") == NULL);

	if (!good)
		diag("printed:\n%s\nafter the binary form:\n%s", a, b ? b : "(none)");
	free(a);
	free(b);
	return good;
}

int main(void)
{
	struct exec *e = exec_create();
	struct run_result r;
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	char *a, *b;
	int i, bad;

	tap_plan(10);

	/* behaviour */
	ok(parse(ipi_prog, "mms: T0 T1", &p) && run(e, &p, &r) &&
	   tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED) >= 1,
	   "mms: T0 T1: clean, T0's munmap flushed T1's CPU by IPI (%lu)",
	   tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED));
	ok(parse(ipi_prog, "", &p) && run(e, &p, &r) &&
	   tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED) == 0,
	   "without it: clean, T1 is a process of its own and no IPI is sent (%lu)",
	   tlb_stat_sum(TLB_REMOTE_FLUSH_RECEIVED));
	ok(parse(start_prog, "mms: T1 T0", &p) && run(e, &p, &r) &&
	   tlb_stat_sum(TLB_PGFAULT) == 1 && tlb_stat_sum(TLB_MISS) >= 1,
	   "mms: T1 T0: T1's read, after T0 left the mm, walks to T0's page (faults: %lu)",
	   tlb_stat_sum(TLB_PGFAULT));
	ok(parse(start_prog, "", &p) && run(e, &p, &r) && tlb_stat_sum(TLB_PGFAULT) != 1,
	   "without it: T1's read is in an mm of its own where nothing is mapped (faults: %lu)",
	   tlb_stat_sum(TLB_PGFAULT));

	/* the text and binary forms */
	ok(parse(ipi_prog, "mms: T0 T1", &p) && prints_and_round_trips(e, &p, "\nmms: T0 T1\n") &&
	   tlb_mm_of(&q)[0] == 1 && tlb_mm_of(&q)[1] == 1,
	   "text -> binary -> text keeps 'mms: T0 T1'");
	{
		static const char three[] =
			"mmfuzz 1\ncpus: 2\n%s\n"
			"task T0 cpu=0\ntask T1 cpu=1\ntask T2 cpu=0\ntask T3 cpu=1\n";

		ok(parse(three, "mms: T3, T2 T0", &p) &&
		   prints_and_round_trips(e, &p, "\nmms: T0 T2, T3\n"),
		   "mms numbered by their first task, tasks in order: 'mms: T3, T2 T0' prints "
		   "'mms: T0 T2, T3', and round-trips");
		ok(parse(three, "", &p) && prints_and_round_trips(e, &p, ""),
		   "a program without the key prints none and encodes none");
	}
	{
		uint8_t bin[BIN_HEADER + 8] = { 0 };

		bin[3] = 0x3;			/* (3 - 1) ^ 1: three tasks */
		prog_decode_binary(bin, sizeof(bin), &p);
		ok(p.ntasks == 3 && !tlb_mm_of(&p)[0] && !tlb_mm_of(&p)[1] && !tlb_mm_of(&p)[2],
		   "a header whose last 4 bytes are zero (every file before the key) has no mms");
	}
	/* any bytes: a canonical assignment that encode/decode keeps */
	bad = 0;
	for (i = 0; i < 2000; i++) {
		uint8_t bin[BIN_HEADER + 16], again[BIN_HEADER + 1024];
		long n;
		size_t k;
		int t, next = 1;

		for (k = 0; k < sizeof(bin); k++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			bin[k] = (uint8_t)s;
		}
		bin[1] = 4;
		bin[2] = 0;
		if (i & 1)
			bin[0] = 0;	/* v2: the mms in bytes 60..63 */
		else			/* v3: the TLB section first, 4 bytes of state */
			memcpy(bin, (const uint8_t[]){ 3, 4, 0 }, 3), bin[16] = 7, bin[17] = 0,
			bin[18] = 3, bin[19] = 5, bin[20] = 0;
		prog_decode_binary(bin, sizeof(bin), &p);
		for (t = 0; t < PROG_MAX_TASKS; t++) {
			if (t >= p.ntasks ? tlb_mm_of(&p)[t] != 0 : tlb_mm_of(&p)[t] > next)
				bad++;
			if (t < p.ntasks && tlb_mm_of(&p)[t] == next)
				next++;
		}
		n = prog_encode_binary(&p, again, sizeof(again));
		if (n < 0) {
			bad++;
			continue;
		}
		prog_decode_binary(again, (size_t)n, &q);
		a = prog_print_text(&p);
		b = prog_print_text(&q);
		if (strcmp(a, b) || memcmp(tlb_mm_of(&p), tlb_mm_of(&q), PROG_MAX_TASKS))
			bad++;
		free(a);
		free(b);
	}
	ok(!bad, "2000 random headers: the mms numbered by first task, none past the tasks, "
	   "decode(encode(decode)) keeps them (%d bad)", bad);

	/* layout: what every user access reads (pgd, tw, task_size) on no line
	 * that every flush, gather or mmap_lock acquisition writes */
#define MM_LINE(f)	(offsetof(struct mm_struct, f) / SMP_CACHE_BYTES)
	ok(MM_LINE(pgd) == MM_LINE(tw) && MM_LINE(tw) != MM_LINE(context.tlb_gen) &&
	   MM_LINE(tw) != MM_LINE(tlb_flush_pending) && MM_LINE(tw) != MM_LINE(tlb_flush_batched) &&
	   MM_LINE(task_size) != MM_LINE(mmap_lock.count) &&
	   MM_LINE(task_size) != MM_LINE(mmap_lock.waiting_writers) &&
	   MM_LINE(map_count) != MM_LINE(mmap_lock.count),
	   "mm_struct: pgd and tw (line %zu) apart from tlb_gen and tlb_flush_pending "
	   "(%zu, %zu), task_size (%zu) apart from mmap_lock's count (%zu)", MM_LINE(tw),
	   MM_LINE(context.tlb_gen), MM_LINE(tlb_flush_pending), MM_LINE(task_size),
	   MM_LINE(mmap_lock.count));
	exec_destroy(e);
	return tap_done();
}

/* SPDX-License-Identifier: MIT */
/*
 * Programs: a config, tasks with their operations, bug switches, a schedule
 * and the expected outcome.  Two encodings of one program:
 *
 *  - binary (binary.c): what the fuzzers mutate.  Decoding is total: any
 *    byte string is a program.  The program bytes and the schedule bytes
 *    are kept apart (a length prefix), so mutating one leaves the other's
 *    meaning intact.
 *  - text (text.c): what people read and keep in corpus/regress/.  One
 *    operation a line under its task, the schedule as decisions at named
 *    yield points.
 *
 * The program in memory is canonical: operations grouped by task in task
 * order, a handle use names the handle by its index among the program's
 * handles of that kind.  decode(encode(text)) == text for text that decode
 * printed; decode(encode(decode(bytes))) == decode(bytes) for any bytes.
 * Operations are described by descriptors (ops.h).
 */
#ifndef MMFUZZ_PROG_PROG_H
#define MMFUZZ_PROG_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mm/mm.h"
#include "../sched/sched.h"
#include "header.h"
#include "ops.h"

#define PROG_MAX_OPS	256
#define PROG_MAX_DEC	1024
#define PROG_MAX_CPUS	MAX_CPUS
#define PROG_MAX_TASKS	8
#define PROG_AIM_MAX	256

struct op {
	unsigned char code;		/* the descriptor's binary code */
	unsigned char task;
	bool irq;
	int arg[OP_MAX_ARGS];
};

static inline const struct op_desc *op_desc_of(const struct op *op)
{
	return op_table[op->code];
}

enum expect_kind { EXPECT_NONE, EXPECT_CLEAN, EXPECT_VIOLATION };

struct prog {
	struct mm_config cfg;
	uint64_t bugs;
	int ntasks;
	int task_cpu[PROG_MAX_TASKS];
	/* each header section's state (header.h), by its slot: only the
	 * section's layer reads it (the TLB layer's header mms) */
	union {
		unsigned char b[HDR_AREA_BYTES];
		uint64_t align;
	} hdr_area[HDR_MAX_SECTIONS];
	int nops;
	struct op ops[PROG_MAX_OPS];	/* grouped by task, in task order */

	/* schedule: decisions, then the fallback (depth 0: none) */
	int fallback_depth;
	uint32_t seed;
	bool keyed;			/* decisions by key (text) or by step (binary) */
	int ndec;
	struct sched_decision dec[PROG_MAX_DEC];
	int dec_line[PROG_MAX_DEC];	/* text line of each decision, for warnings */

	enum expect_kind expect;
	char expect_sig[128];
	bool expect_tsan_race;		/* the TSan build reports a data race first */
	/*
	 * "aim:": what the program was written for (bug switches, mutant ids,
	 * yield sites), canonical, ", " apart; "" for a generic seed.  Text
	 * only: metadata, never in the binary form (docs/seeds.md).
	 */
	char aim[PROG_AIM_MAX];
};

void prog_init(struct prog *p);
/*
 * Sort the ops by task (stable), renumber handle uses to follow the
 * handles they named; drop uses of a kind the program never defines;
 * make each header section's state canonical (hdr_canonicalize).
 */
void prog_canonicalize(struct prog *p);
/* May the program's operations start kernel threads (their layer's)? */
bool prog_starts_kthreads(const struct prog *p);
/* An operation of @layer is in the program. */
bool prog_has_layer_op(const struct prog *p, const char *layer);
/* ... of the operation layer @l (its descriptors' .layer is l's name) */
bool prog_has_op_layer(const struct prog *p, const struct op_layer *l);
/* The index of op @i's handle among the program's handles of its kind,
 * or -1 if it defines none. */
int prog_handle_index(const struct prog *p, int i);
/* How many handles of kind @hk the program defines. */
int prog_nhandles(const struct prog *p, const struct handle_kind *hk);
/* The op that defines handle @h of kind @hk, or -1. */
int prog_handle_op(const struct prog *p, const struct handle_kind *hk, int h);
/* The name of task @task's op @op in the program @prog (for reports). */
const char *prog_op_name(int task, int op, void *prog);
/* First op of task @t and how many it has. */
int prog_task_ops(const struct prog *p, int t, int *first);
/*
 * Do the program's operations and tasks fit its config (CPUs, zones,
 * argument ranges)?  NULL, or what does not.
 */
const char *prog_fits_config(const struct prog *p, const struct mm_config *c, char *buf,
			     size_t n);

/* ---- binary.c: v2 (decode only, frozen) and v3 ---- */
#define BIN_VERSION	3
/* v2: a 64-byte header, the program, the schedule (binary.c) */
#define BIN_HEADER	64
/* header offsets a structured mutator writes at: the program's length
 * (2 bytes, little-endian; the schedule follows the program), the same in
 * v2 and v3, and v2's config block */
#define BIN_PLEN	1
#define BIN_CONFIG	16
/* v3: the preamble (bytes 0..15 as v2's, then the sections' length, 2
 * bytes), the sections, the program, the schedule (binary.c) */
#define BIN3_SLEN	16
#define BIN3_PREAMBLE	18
/* the schedule's head: the fallback depth byte and the 4-byte seed; the
 * decisions follow */
#define BIN_SCHED_HEAD	5
/* Where the program's bytes and the schedule's begin in @data (v2 or v3;
 * either may be past @size). */
void prog_binary_layout(const uint8_t *data, size_t size, size_t *prog_off, size_t *sched_off);
size_t prog_decode_binary(const uint8_t *data, size_t size, struct prog *p);
/* As the fuzz target @t means the bytes (prog_decode_binary: "mm"). */
size_t prog_decode_binary_target(const uint8_t *data, size_t size, struct prog *p,
				 const struct fuzz_target *t);
/* Needs step decisions (p->keyed false); returns bytes written or -1. */
long prog_encode_binary(const struct prog *p, uint8_t *out, size_t cap);

/* ---- text.c ---- */
#define TEXT_MAGIC "mmfuzz 1"
/* 0, or -1 with "FILE:LINE:COL: message" in err. */
int prog_parse_text(const char *text, const char *file, struct prog *p, char *err, size_t errlen);
/* The same for @size bytes that may hold a NUL (an error at its line). */
int prog_parse_text_n(const char *text, size_t size, const char *file, struct prog *p,
		      char *err, size_t errlen);
/* The canonical text; the caller frees it.  With @notes (one per op, or
 * NULL), each op's non-NULL note follows it as a comment. */
/*
 * The campaigns' seed mode (mmfuzz fuzz, make corpus's encode --keep-going):
 * a decision at a yield site, an operation, a header key, a bug switch or an
 * aim the tree no longer has is dropped, not refused (an op that takes a
 * dropped op's handle goes with it, and decisions in a task that lost an op
 * keep pointing at the ops they named).  @dropped counts them; @note says
 * the first, "FILE:LINE:COL: what was dropped".  Anything else still fails.
 */
struct text_mode {
	bool keep_going;
	int dropped;
	char note[320];
};
int prog_parse_text_mode(const char *text, size_t size, const char *file, struct prog *p,
			 char *err, size_t errlen, struct text_mode *mode);
char *prog_print_text(const struct prog *p);
char *prog_print_text_notes(const struct prog *p, const char *const *notes);
bool prog_is_text(const uint8_t *data, size_t size);

#endif /* MMFUZZ_PROG_PROG_H */

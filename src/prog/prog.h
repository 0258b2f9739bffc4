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
 * order, a free names the alloc it frees by its index among the program's
 * allocs.  decode(encode(text)) == text for text that decode printed;
 * decode(encode(decode(bytes))) == decode(bytes) for any bytes.
 */
#ifndef MMFUZZ_PROG_PROG_H
#define MMFUZZ_PROG_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mm/mm.h"
#include "../sched/sched.h"

#define PROG_MAX_OPS	256
#define PROG_MAX_ALLOCS	128
#define PROG_MAX_DEC	1024
#define PROG_MAX_CPUS	8
#define PROG_MAX_TASKS	8
#define PROG_MAX_BLOCKS	64	/* max-order blocks per zone */

enum op_kind {
	OP_ALLOC_PAGES,		/* order, mt */
	OP_FREE_PAGES,		/* handle */
	OP_DRAIN_LOCAL,
	OP_DRAIN_ALL,		/* force, zone (-1: all) */
	OP_ZONE_PCP_DISABLE,	/* zone */
	OP_ZONE_PCP_ENABLE,	/* zone */
	OP_SET_PCP_HIGH_BATCH,	/* zone, high, batch */
	OP_MIGRATE,		/* cpu */
	OP_READ_COUNTERS,
	OP_VMSTAT_REFRESH,
	NR_OPS
};

struct op_info {
	const char *name;
	int nargs;
	const char *args[3];		/* argument names, in binary order */
	bool irq_ok;			/* may run in interrupt context */
	const char *desc;
};

extern const struct op_info op_table[NR_OPS];
/* The text form's names of the pcp migratetypes (mt=). */
extern const char *const prog_mt_names[MIGRATE_PCPTYPES];
int op_lookup(const char *name);

struct op {
	unsigned char kind;
	unsigned char task;
	bool irq;
	short arg[3];
};

enum expect_kind { EXPECT_NONE, EXPECT_CLEAN, EXPECT_VIOLATION };

struct prog {
	struct mm_config cfg;
	uint32_t bugs;
	int ntasks;
	int task_cpu[PROG_MAX_TASKS];
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
};

void prog_init(struct prog *p);
/* Sort the ops by task (stable), renumber frees; drop frees of nothing. */
void prog_canonicalize(struct prog *p);
/* Index of op @i among the program's allocs, or -1. */
int prog_alloc_index(const struct prog *p, int i);
int prog_nallocs(const struct prog *p);
/* The name of task @task's op @op in the program @prog (for reports). */
const char *prog_op_name(int task, int op, void *prog);
/* First op of task @t and how many it has. */
int prog_task_ops(const struct prog *p, int t, int *first);

/* ---- binary.c ---- */
#define BIN_HEADER	19
size_t prog_decode_binary(const uint8_t *data, size_t size, struct prog *p);
/* Needs step decisions (p->keyed false); returns bytes written or -1. */
long prog_encode_binary(const struct prog *p, uint8_t *out, size_t cap);

/* ---- text.c ---- */
#define TEXT_MAGIC "mmfuzz 1"
/* 0, or -1 with "FILE:LINE:COL: message" in err. */
int prog_parse_text(const char *text, const char *file, struct prog *p, char *err, size_t errlen);
/* The canonical text; the caller frees it. */
char *prog_print_text(const struct prog *p);
bool prog_is_text(const uint8_t *data, size_t size);

#endif /* MMFUZZ_PROG_PROG_H */

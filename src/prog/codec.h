/* SPDX-License-Identifier: MIT */
/*
 * decode and encode, as programs: the canonical text of a program and its
 * binary form, each made from one run of the program on its own schedule
 * (codec.c).  decode(encode(text)) == text for the text decode printed,
 * and the three (text, binary, decoded text) run alike: the same outcome
 * and trace hash (tests/test_codec.c).
 */
#ifndef MMFUZZ_PROG_CODEC_H
#define MMFUZZ_PROG_CODEC_H

#include "exec.h"

/*
 * Run @p once on its own schedule (@r: what it found) and make its
 * schedule canonical: decisions keyed to the yield points they fired at (a
 * binary's step decisions named), a text's decisions that never fired
 * dropped (@fired, p->ndec entries or NULL: which of the decisions as
 * given fired), the fallback none when decisions were still pending at the
 * end (they kept it from ever starting), and expect: what the run found.
 * A text whose decision was passed by while a PCT fallback waited gets its
 * run's every choice as explicit decisions, fallback none (codec.c).  0,
 * 1 when the schedule was made explicit, or -1 if the world cannot be
 * built.
 */
int prog_decode_canonical(struct exec *e, struct prog *p, struct run_result *r, bool *fired);

/*
 * The binary form of @p into @out: a text's decisions become step counts
 * from one run (@r, @fired as above; the ones that never fired dropped).
 * The bytes written (v3: a decision to a kernel thread too); -1 if it
 * does not fit or the world cannot be built; -3 with *@bad the index of
 * a decision that fired at a need_resched() site: the binary form keys
 * decisions by step, and need_resched() is a step only for a decision
 * named at its site (kernel/preempt.h).
 */
/* The bug switches the counting runs of decode and encode have on (0 by
 * default): a seed encoded for a campaign with switches injected counts
 * its decisions' steps on the model the campaign runs, whose yield points
 * the switches may move. */
void prog_codec_inject(uint64_t inject);
long prog_encode_canonical(struct exec *e, struct prog *p, uint8_t *out, size_t cap,
			   struct run_result *r, bool *fired, int *bad);

#endif /* MMFUZZ_PROG_CODEC_H */

// SPDX-License-Identifier: MIT
/*
 * The binary form, version 2.  Every byte string decodes; missing bytes
 * read as zero, and zero bytes mean the defaults.
 *
 *   0       version ^ 2: 0 is version 2 (any other value reads as 2 here)
 *   1..2    length of the program bytes, little endian
 *   3       (tasks - 1) ^ 1 (mod 8): zero is two tasks
 *   4..6    task i starts on cpu (i + 3 bits at 3i) mod cpus
 *   7       flags: bit 0 expect_tsan: race (what the text form says)
 *   8..15   bug switches, a bitmask
 *   16..59  the config block: each key at its fixed place (mm/config.h),
 *           XORed with its default
 *   60..63  the header's mms, 4 bits a task (task i at bits 4i..4i+3 of
 *           the little-endian word): 0, its mm is made at its first need;
 *           else the tasks with one value share an mm made before any task
 *           runs (numbered canonically: any values decode)
 *   64..    program bytes, then schedule bytes
 *
 * Program: per op, [code] [task | irq << 3] then each argument in its
 * descriptor's width.  A code no descriptor has, or one outside the fuzz
 * target, folds onto the target's fold list (ops.h): codes are fixed
 * forever, so a new operation changes no file that did not use its code.
 * Schedule: [fallback depth mod 4][seed, 4 bytes] then decisions, each a
 * LEB128 count of steps to let pass and a target task byte (mod tasks: a
 * decision to a kernel thread, whose ids follow the tasks', has no v2
 * form, and encode refuses it).
 */
#include "prog.h"

#include <string.h>

#include "../bugs/bugs.h"

#define H_VERSION	0
#define H_PLEN		BIN_PLEN
#define H_TASKS		3
#define H_CPUS		4
#define H_FLAGS		7
#define H_BUGS		8
#define H_CONFIG	BIN_CONFIG
#define H_MMS		60

#define F_EXPECT_TSAN	0x01

_Static_assert(H_CONFIG + CONFIG_BIN_BYTES == H_MMS, "header layout");
_Static_assert(H_MMS + PROG_MAX_TASKS / 2 == BIN_HEADER, "header layout");
_Static_assert(BUGS_MAX <= 64, "64 switches fit the header");

struct reader {
	const uint8_t *p;
	size_t n, off;
};

static uint8_t rd8(struct reader *r)
{
	return r->off < r->n ? r->p[r->off++] : (r->off++, 0);
}

static uint32_t rd32(struct reader *r)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)rd8(r) << (8 * i);
	return v;
}

static int arg_width(const struct op_arg *a)
{
	return a->bin_bytes ? a->bin_bytes : 1;
}

static void decode_op(struct prog *p, struct reader *r, size_t pend, const struct fuzz_target *t)
{
	struct op *op = &p->ops[p->nops];
	const struct op_desc *d;
	uint8_t b;
	int k;

	memset(op, 0, sizeof(*op));
	op->code = (unsigned char)target_fold(t, rd8(r));
	d = op_desc_of(op);
	b = r->off < pend ? rd8(r) : 0;
	op->task = (unsigned char)((b & 7) % p->ntasks);
	op->irq = d->irq_ok && (b >> 3 & 1);
	for (k = 0; k < d->nargs; k++) {
		unsigned raw = 0;
		int i;

		for (i = 0; i < arg_width(&d->args[k]); i++)
			raw |= (unsigned)(r->off < pend ? rd8(r) : 0) << (8 * i);
		op->arg[k] = arg_from_raw(&d->args[k], raw, &p->cfg);
	}
	p->nops++;
}

size_t prog_decode_binary_target(const uint8_t *data, size_t size, struct prog *p,
				 const struct fuzz_target *t)
{
	struct reader r = { data, size, 0 };
	uint8_t h[BIN_HEADER];
	uint32_t cpus_field, plen;
	size_t pend;
	int i, ncpus;

	prog_init(p);
	for (i = 0; i < BIN_HEADER; i++)
		h[i] = rd8(&r);
	config_decode_block(h + H_CONFIG, &p->cfg);
	ncpus = (int)config_get(&p->cfg, &ck_cpus);
	p->ntasks = 1 + ((h[H_TASKS] ^ 1) & 7);
	cpus_field = h[H_CPUS] | h[H_CPUS + 1] << 8 | (uint32_t)h[H_CPUS + 2] << 16;
	for (i = 0; i < p->ntasks; i++)
		p->task_cpu[i] = (int)((i + ((cpus_field >> (3 * i)) & 7)) % (uint32_t)ncpus);
	for (i = 0; i < p->ntasks; i++)
		p->mm_of[i] = (unsigned char)(h[H_MMS + i / 2] >> (4 * (i % 2)) & 0xf);
	p->expect_tsan_race = h[H_FLAGS] & F_EXPECT_TSAN;
	p->bugs = 0;
	for (i = 0; i < 8; i++)
		p->bugs |= (uint64_t)h[H_BUGS + i] << (8 * i);
	p->bugs &= bugs_known();
	plen = (uint32_t)(h[H_PLEN] | h[H_PLEN + 1] << 8);

	/* program */
	pend = r.off + plen;
	if (pend > size)
		pend = size > r.off ? size : r.off;
	p->nops = 0;
	while (r.off < pend && p->nops < PROG_MAX_OPS)
		decode_op(p, &r, pend, t);
	prog_canonicalize(p);
	r.off = pend;

	/* schedule */
	p->fallback_depth = rd8(&r) % 4;
	p->seed = rd32(&r);
	if (!p->fallback_depth)
		p->seed = 0;
	p->keyed = false;
	p->ndec = 0;
	while (r.off < size && p->ndec < PROG_MAX_DEC) {
		uint64_t skip = 0;
		int shift = 0;
		uint8_t b;

		do {
			b = rd8(&r);
			if (shift < 28)
				skip |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		} while ((b & 0x80) && r.off < size);
		memset(&p->dec[p->ndec], 0, sizeof(p->dec[0]));
		p->dec_line[p->ndec] = 0;
		p->dec[p->ndec].step = skip;
		p->dec[p->ndec].target = (short)(rd8(&r) % p->ntasks);
		p->ndec++;
	}
	p->expect = EXPECT_NONE;
	return r.off;
}

size_t prog_decode_binary(const uint8_t *data, size_t size, struct prog *p)
{
	ops_init();
	return prog_decode_binary_target(data, size, p, target_default());
}

long prog_encode_binary(const struct prog *p, uint8_t *out, size_t cap)
{
	int ncpus = (int)config_get(&p->cfg, &ck_cpus);
	uint32_t cpus_field = 0;
	size_t n = 0;
	long plen;
	int i, k;

	if (p->keyed || cap < BIN_HEADER + 5)
		return -1;
	memset(out, 0, BIN_HEADER);
	out[H_TASKS] = (uint8_t)((p->ntasks - 1) ^ 1);
	for (i = 0; i < p->ntasks; i++)
		cpus_field |= (uint32_t)((p->task_cpu[i] - i % ncpus + ncpus) % ncpus) << (3 * i);
	for (i = 0; i < 3; i++)
		out[H_CPUS + i] = (uint8_t)(cpus_field >> (8 * i));
	for (i = 0; i < p->ntasks; i++)
		out[H_MMS + i / 2] |= (uint8_t)((p->mm_of[i] & 0xf) << (4 * (i % 2)));
	out[H_FLAGS] = p->expect_tsan_race ? F_EXPECT_TSAN : 0;
	for (i = 0; i < 8; i++)
		out[H_BUGS + i] = (uint8_t)(p->bugs >> (8 * i));
	config_encode_block(&p->cfg, out + H_CONFIG);
	n = BIN_HEADER;
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];
		const struct op_desc *d = op_desc_of(op);

		if (n + 2 + OP_MAX_ARGS * 2 > cap)
			return -1;
		out[n++] = op->code;
		out[n++] = (uint8_t)(op->task | op->irq << 3);
		for (k = 0; k < d->nargs; k++) {
			unsigned raw = arg_to_raw(&d->args[k], op->arg[k]);
			int b;

			for (b = 0; b < arg_width(&d->args[k]); b++)
				out[n++] = (uint8_t)(raw >> (8 * b));
		}
	}
	plen = (long)(n - BIN_HEADER);
	if (plen > 0xffff)
		return -1;
	out[H_PLEN] = (uint8_t)(plen & 0xff);
	out[H_PLEN + 1] = (uint8_t)(plen >> 8);

	if (n + 5 > cap)
		return -1;
	out[n++] = (uint8_t)p->fallback_depth;
	for (i = 0; i < 4; i++)
		out[n++] = (uint8_t)(p->seed >> (8 * i));
	for (i = 0; i < p->ndec; i++) {
		uint64_t skip = p->dec[i].step;

		/* a kernel thread's id would decode as a task's (mod ntasks) */
		if (p->dec[i].target < 0 || p->dec[i].target >= p->ntasks)
			return -1;

		do {
			if (n + 2 > cap)
				return -1;
			out[n++] = (uint8_t)((skip & 0x7f) | (skip > 0x7f ? 0x80 : 0));
			skip >>= 7;
		} while (skip);
		out[n++] = (uint8_t)p->dec[i].target;
	}
	return (long)n;
}

// SPDX-License-Identifier: MIT
/*
 * The binary form.  Byte 0 says the version: 0 is version 2, frozen
 * (below, pinned by tests/golden/); 3 is version 3, and so is any other
 * value (decode_v3 below).  Every byte string decodes; missing bytes read as
 * zero, and zero bytes mean the defaults.
 *
 * Version 2:
 *
 *   0       0
 *   1..2    length of the program bytes, little endian
 *   3       (tasks - 1) ^ 1 (mod 8): zero is two tasks
 *   4..6    task i starts on cpu (i + 3 bits at 3i) mod cpus
 *   7       flags: bit 0 expect_tsan: race (what the text form says)
 *   8..15   bug switches, a bitmask
 *   16..59  the config block: each key at its fixed place (world/config.h),
 *           XORed with its default
 *   60..63  the TLB layer's header section's state (its v2_off, v2_len:
 *           the header mms, src/prog/ops_tlb_header.c)
 *   64..    program bytes, then schedule bytes
 *
 * Program: per op, [code] [task | irq << 3] then each argument in its
 * descriptor's width.  A code no descriptor has, or one outside the fuzz
 * target, folds onto the target's fold list (ops.h): codes are fixed
 * forever, so a new operation changes no file that did not use its code.
 * Schedule: [fallback depth mod 4][seed, 4 bytes] then decisions, each a
 * LEB128 count of steps to let pass and a target task byte (mod tasks: a
 * decision to a kernel thread, whose ids follow the tasks', has no v2
 * form).  Version 3 (decode_v3) keeps the program and the schedule as
 * they are here, and its target byte holds a kernel thread's id too.
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
#define H_V2_STATE	60	/* the sections' v2 state (v2_off, v2_len) */

#define F_EXPECT_TSAN	0x01

_Static_assert(H_CONFIG + CONFIG_BIN_BYTES == H_V2_STATE, "header layout");
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

static uint16_t rd16(struct reader *r)
{
	uint16_t v = rd8(r);

	return (uint16_t)(v | rd8(r) << 8);
}

static int arg_width(const struct op_arg *a)
{
	return a->bin_bytes ? a->bin_bytes : 1;
}

static void decode_op(struct prog *p, struct reader *r, size_t pend, const struct fuzz_target *t,
		      const unsigned char *fold)
{
	struct op *op = &p->ops[p->nops];
	const struct op_desc *d;
	uint8_t b;
	int k;

	memset(op, 0, sizeof(*op));
	b = rd8(r);
	op->code = fold ? fold[b] : (unsigned char)target_fold(t, b);
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

/* The preamble's fields (bytes 3..15, the same in v2 and v3), once the
 * config is known. */
static void decode_preamble(struct prog *p, const uint8_t *h)
{
	uint32_t cpus_field;
	int i, ncpus = (int)config_get(&p->cfg, &ck_cpus);

	p->ntasks = 1 + ((h[H_TASKS] ^ 1) & 7);
	cpus_field = h[H_CPUS] | h[H_CPUS + 1] << 8 | (uint32_t)h[H_CPUS + 2] << 16;
	for (i = 0; i < p->ntasks; i++)
		p->task_cpu[i] = (int)((i + ((cpus_field >> (3 * i)) & 7)) % (uint32_t)ncpus);
	p->expect_tsan_race = h[H_FLAGS] & F_EXPECT_TSAN;
	p->bugs = 0;
	for (i = 0; i < 8; i++)
		p->bugs |= (uint64_t)h[H_BUGS + i] << (8 * i);
	p->bugs &= bugs_known();
}

/* The program bytes (@plen from r->off) and the schedule after them.  v2
 * stores a decision's target modulo the tasks; v3 a kernel thread's id
 * too, when the program may start one (else modulo the tasks). */
static size_t decode_body(struct prog *p, struct reader *r, uint32_t plen,
			  const struct fuzz_target *t, bool v3)
{
	size_t pend, size = r->n;
	const unsigned char *fold;
	bool kthreads;

	pend = r->off + plen;
	if (pend > size)
		pend = size > r->off ? size : r->off;
	p->nops = 0;
	fold = target_fold_map(t);
	while (r->off < pend && p->nops < PROG_MAX_OPS)
		decode_op(p, r, pend, t, fold);
	prog_canonicalize(p);
	r->off = pend;
	kthreads = v3 && prog_starts_kthreads(p);

	/* schedule */
	p->fallback_depth = rd8(r) % 4;
	p->seed = rd32(r);
	if (!p->fallback_depth)
		p->seed = 0;
	p->keyed = false;
	p->ndec = 0;
	while (r->off < size && p->ndec < PROG_MAX_DEC) {
		uint64_t skip = 0;
		int shift = 0;
		uint8_t b;
		int target;

		do {
			b = rd8(r);
			if (shift < 28)
				skip |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		} while ((b & 0x80) && r->off < size);
		memset(&p->dec[p->ndec], 0, sizeof(p->dec[0]));
		p->dec_line[p->ndec] = 0;
		p->dec[p->ndec].step = skip;
		target = rd8(r);
		if (target >= p->ntasks)
			target = kthreads ? target % MAX_TASKS : target % p->ntasks;
		p->dec[p->ndec].target = (short)target;
		p->ndec++;
	}
	p->expect = EXPECT_NONE;
	return r->off;
}

/* Version 2, frozen: tests/golden/ pins what its bytes mean. */
static size_t decode_v2(const uint8_t *data, size_t size, struct prog *p,
			const struct fuzz_target *t)
{
	struct reader r = { data, size, 0 };
	uint8_t h[BIN_HEADER], block[CONFIG_PLACES] = { 0 };
	int i;

	for (i = 0; i < BIN_HEADER; i++)
		h[i] = rd8(&r);
	/* a key past v2's 44 places reads its default */
	memcpy(block, h + H_CONFIG, CONFIG_BIN_BYTES);
	config_decode_block(block, &p->cfg);
	decode_preamble(p, h);
	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);

		if (s->v2_len && s->decode)
			s->decode(prog_area(p, s), h + s->v2_off, s->v2_len, p);
	}
	return decode_body(p, &r, (uint32_t)(h[H_PLEN] | h[H_PLEN + 1] << 8), t, false);
}

/*
 * Version 3: bytes 0..15 as v2's (byte 0 any value but 0), 16..17 the
 * sections' length S, then S bytes of sections, each [id] [len] [len
 * bytes], then the program and the schedule.  Folding: sections that run
 * past the file end at its end; a section that runs past S is cut at S; a
 * section whose id no layer registered is skipped, and so is a second one
 * of an id; a payload's config count past the payload is cut to it.
 */
static size_t decode_v3(const uint8_t *data, size_t size, struct prog *p,
			const struct fuzz_target *t)
{
	struct reader r = { data, size, 0 };
	uint8_t h[BIN3_PREAMBLE], block[CONFIG_PLACES] = { 0 };
	const uint8_t *state[HDR_MAX_SECTIONS] = { NULL };
	size_t nstate[HDR_MAX_SECTIONS] = { 0 }, send;
	bool seen[HDR_MAX_SECTIONS] = { false };
	uint32_t plen;
	int i;

	for (i = 0; i < BIN3_PREAMBLE; i++)
		h[i] = rd8(&r);
	send = BIN3_PREAMBLE + (size_t)(h[BIN3_SLEN] | h[BIN3_SLEN + 1] << 8);
	if (send > size)
		send = size > BIN3_PREAMBLE ? size : BIN3_PREAMBLE;
	while (r.off < send) {
		const struct hdr_section *s = hdr_section_by_id(rd8(&r));
		size_t len = r.off < send ? rd8(&r) : 0, ncfg;
		const uint8_t *pl = data + r.off;

		if (len > send - r.off)
			len = send - r.off;
		r.off += len;
		if (!s || seen[s->slot])
			continue;
		seen[s->slot] = true;
		if (!len)
			continue;
		ncfg = pl[0] < len - 1 ? pl[0] : len - 1;
		hdr_config_put(s, block, pl + 1, ncfg);
		state[s->slot] = pl + 1 + ncfg;
		nstate[s->slot] = len - 1 - ncfg;
	}
	r.off = send;
	config_decode_block(block, &p->cfg);
	decode_preamble(p, h);
	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);

		if (nstate[i] && s->decode)
			s->decode(prog_area(p, s), state[i], nstate[i], p);
	}
	plen = (uint32_t)(h[H_PLEN] | h[H_PLEN + 1] << 8);
	return decode_body(p, &r, plen, t, true);
}

size_t prog_decode_binary_target(const uint8_t *data, size_t size, struct prog *p,
				 const struct fuzz_target *t)
{
	prog_init(p);
	if (!size || !data[0])
		return decode_v2(data, size, p, t);
	return decode_v3(data, size, p, t);
}

void prog_binary_layout(const uint8_t *data, size_t size, size_t *prog_off, size_t *sched_off)
{
	struct reader r = { data, size, BIN_PLEN };
	size_t plen = rd16(&r);

	if (!size || !data[0]) {
		*prog_off = BIN_HEADER;
	} else {
		r.off = BIN3_SLEN;
		*prog_off = BIN3_PREAMBLE + (size_t)rd16(&r);
	}
	*sched_off = *prog_off + plen;
}

size_t prog_decode_binary(const uint8_t *data, size_t size, struct prog *p)
{
	ops_init();
	return prog_decode_binary_target(data, size, p, target_default());
}

/* Version 3 (the decoder above says the layout). */
long prog_encode_binary(const struct prog *p, uint8_t *out, size_t cap)
{
	int ncpus = (int)config_get(&p->cfg, &ck_cpus);
	uint8_t block[CONFIG_PLACES];
	bool kthreads = prog_starts_kthreads(p);
	uint32_t cpus_field = 0;
	size_t n = 0;
	long plen, slen;
	int i, k;

	if (p->keyed || cap < BIN3_PREAMBLE + 5)
		return -1;
	memset(out, 0, BIN3_PREAMBLE);
	out[H_VERSION] = BIN_VERSION;
	out[H_TASKS] = (uint8_t)((p->ntasks - 1) ^ 1);
	for (i = 0; i < p->ntasks; i++)
		cpus_field |= (uint32_t)((p->task_cpu[i] - i % ncpus + ncpus) % ncpus) << (3 * i);
	for (i = 0; i < 3; i++)
		out[H_CPUS + i] = (uint8_t)(cpus_field >> (8 * i));
	out[H_FLAGS] = p->expect_tsan_race ? F_EXPECT_TSAN : 0;
	for (i = 0; i < 8; i++)
		out[H_BUGS + i] = (uint8_t)(p->bugs >> (8 * i));
	config_encode_block(&p->cfg, block);
	n = BIN3_PREAMBLE;
	/* a section a layer whose state is all defaults: none */
	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);
		uint8_t cfg[CONFIG_PLACES], st[256];
		size_t nc = hdr_config_get(s, block, cfg, sizeof(cfg)), ns = 0;

		if (nc > 254)
			return -1;
		if (s->encode)
			ns = s->encode(prog_area_c(p, s), p, st, 254 - nc);
		if (!nc && !ns)
			continue;
		if (n + 3 + nc + ns + 5 > cap)
			return -1;
		out[n++] = s->id;
		out[n++] = (uint8_t)(1 + nc + ns);
		out[n++] = (uint8_t)nc;
		memcpy(out + n, cfg, nc);
		memcpy(out + n + nc, st, ns);
		n += nc + ns;
	}
	slen = (long)(n - BIN3_PREAMBLE);
	out[BIN3_SLEN] = (uint8_t)(slen & 0xff);
	out[BIN3_SLEN + 1] = (uint8_t)(slen >> 8);
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
	plen = (long)(n - BIN3_PREAMBLE - slen);
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

		/* a task's id, or a kernel thread's when the program may start
		 * one: the decoder folds any other */
		if (p->dec[i].target < 0 || p->dec[i].target >= MAX_TASKS ||
		    (p->dec[i].target >= p->ntasks && !kthreads))
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

// SPDX-License-Identifier: MIT
/*
 * The binary form.  Every byte string decodes; missing bytes read as zero,
 * and the header is stored XORed with the default config so that zeros mean
 * the defaults.
 *
 *   0      cpus-1 (3 bits) | tasks-1 (3 bits) << 3 | zones-1 (1 bit) << 6
 *   1      max_order-1 (mod 10)
 *   2      pageblock_order-1 (mod max_order)
 *   3..4   zone size in max-order blocks - 1 (mod 64), little endian
 *   5      pcp_high (0..255)
 *   6      pcp_batch-1 (mod 64)
 *   7      stat_threshold-1 (mod 125)
 *   8      free_pcppages_bulk variant (mod 3)
 *   9..12  bug switches, a bitmask
 *  13..14  length of the program bytes
 *  15..18  task i starts on cpu (i + 3 bits at 3i) mod cpus
 *  19..    program bytes, then schedule bytes
 *
 * Program: per op, [opcode mod NR_OPS | task << 5] then its argument bytes.
 * Schedule: [fallback depth mod 4][seed, 4 bytes] then decisions, each a
 * LEB128 count of steps to let pass and a target task byte.
 */
#include "prog.h"

#include <string.h>

#include "../bugs/bugs.h"

struct reader {
	const uint8_t *p;
	size_t n, off;
};

static uint8_t rd8(struct reader *r)
{
	return r->off < r->n ? r->p[r->off++] : (r->off++, 0);
}

static uint32_t rd16(struct reader *r)
{
	uint32_t v = rd8(r);

	return v | (uint32_t)rd8(r) << 8;
}

static uint32_t rd32(struct reader *r)
{
	uint32_t v = rd16(r);

	return v | rd16(r) << 16;
}

/* The header bytes of the default config (what zero bytes stand for). */
static void default_header(uint8_t h[BIN_HEADER])
{
	struct prog d;

	prog_init(&d);
	memset(h, 0, BIN_HEADER);
	h[0] = (uint8_t)((d.cfg.ncpus - 1) | (d.ntasks - 1) << 3 | (d.cfg.nzones - 1) << 6);
	h[1] = (uint8_t)(d.cfg.max_order - 1);
	h[2] = (uint8_t)(d.cfg.pb_order - 1);
	h[3] = (uint8_t)((d.cfg.zone_pages >> d.cfg.max_order) - 1);
	h[5] = (uint8_t)d.cfg.pcp_high;
	h[6] = (uint8_t)(d.cfg.pcp_batch - 1);
	h[7] = (uint8_t)(d.cfg.stat_threshold - 1);
}

static int op_arg_bytes(int kind)
{
	switch (kind) {
	case OP_ALLOC_PAGES:
	case OP_FREE_PAGES:
	case OP_DRAIN_ALL:
	case OP_ZONE_PCP_DISABLE:
	case OP_ZONE_PCP_ENABLE:
	case OP_MIGRATE:
		return 1;
	case OP_SET_PCP_HIGH_BATCH:
		return 3;
	default:
		return 0;
	}
}

static void decode_args(struct prog *p, struct op *op, const uint8_t *b)
{
	const struct mm_config *c = &p->cfg;

	switch (op->kind) {
	case OP_ALLOC_PAGES:
		op->arg[0] = (short)((b[0] & 0x0f) % (c->max_order + 1));
		op->arg[1] = (short)(((b[0] >> 4) & 3) % MIGRATE_PCPTYPES);
		op->irq = (b[0] >> 6) & 1;
		break;
	case OP_FREE_PAGES:
		op->arg[0] = (short)(b[0] & 0x7f);
		op->irq = b[0] >> 7;
		break;
	case OP_DRAIN_ALL:
		op->arg[0] = b[0] & 1;
		op->arg[1] = (short)(((b[0] >> 1) % (c->nzones + 1)) - 1);
		break;
	case OP_ZONE_PCP_DISABLE:
	case OP_ZONE_PCP_ENABLE:
		op->arg[0] = (short)(b[0] % c->nzones);
		break;
	case OP_SET_PCP_HIGH_BATCH:
		op->arg[0] = (short)(b[0] % c->nzones);
		op->arg[1] = b[1];
		op->arg[2] = (short)(1 + b[2] % 64);
		break;
	case OP_MIGRATE:
		op->arg[0] = (short)(b[0] % c->ncpus);
		break;
	}
}

static int encode_args(const struct op *op, uint8_t *b)
{
	switch (op->kind) {
	case OP_ALLOC_PAGES:
		b[0] = (uint8_t)(op->arg[0] | op->arg[1] << 4 | op->irq << 6);
		return 1;
	case OP_FREE_PAGES:
		b[0] = (uint8_t)(op->arg[0] | op->irq << 7);
		return 1;
	case OP_DRAIN_ALL:
		b[0] = (uint8_t)(op->arg[0] | (op->arg[1] + 1) << 1);
		return 1;
	case OP_ZONE_PCP_DISABLE:
	case OP_ZONE_PCP_ENABLE:
	case OP_MIGRATE:
		b[0] = (uint8_t)op->arg[0];
		return 1;
	case OP_SET_PCP_HIGH_BATCH:
		b[0] = (uint8_t)op->arg[0];
		b[1] = (uint8_t)op->arg[1];
		b[2] = (uint8_t)(op->arg[2] - 1);
		return 3;
	}
	return 0;
}

size_t prog_decode_binary(const uint8_t *data, size_t size, struct prog *p)
{
	uint8_t def[BIN_HEADER], h[BIN_HEADER];
	struct reader r = { data, size, 0 };
	struct mm_config *c = &p->cfg;
	uint32_t cpus_field, plen;
	size_t pend;
	int i;

	prog_init(p);
	default_header(def);
	for (i = 0; i < BIN_HEADER; i++)
		h[i] = rd8(&r) ^ def[i];
	c->ncpus = 1 + (h[0] & 7);
	p->ntasks = 1 + ((h[0] >> 3) & 7);
	c->nzones = 1 + ((h[0] >> 6) & 1);
	c->max_order = 1 + h[1] % 10;
	c->pb_order = 1 + h[2] % c->max_order;
	c->zone_pages = (unsigned long)(1 + ((h[3] | h[4] << 8) % PROG_MAX_BLOCKS)) << c->max_order;
	c->pcp_high = h[5];
	c->pcp_batch = 1 + h[6] % 64;
	c->stat_threshold = 1 + h[7] % 125;
	c->variant = h[8] % NR_PCP_BULK_VARIANTS;
	p->bugs = (h[9] | h[10] << 8 | (uint32_t)h[11] << 16 | (uint32_t)h[12] << 24) &
		  ((1u << NR_BUGS) - 1);
	plen = (uint32_t)(h[13] | h[14] << 8);
	cpus_field = h[15] | h[16] << 8 | (uint32_t)h[17] << 16 | (uint32_t)h[18] << 24;
	for (i = 0; i < p->ntasks; i++)
		p->task_cpu[i] = (int)((i + ((cpus_field >> (3 * i)) & 7)) % (uint32_t)c->ncpus);

	/* program */
	pend = r.off + plen;
	if (pend > size)
		pend = size > r.off ? size : r.off;
	p->nops = 0;
	while (r.off < pend && p->nops < PROG_MAX_OPS) {
		uint8_t b = rd8(&r), args[3] = { 0, 0, 0 };
		struct op *op = &p->ops[p->nops];
		int k, na;

		memset(op, 0, sizeof(*op));
		op->kind = (unsigned char)((b & 0x1f) % NR_OPS);
		op->task = (unsigned char)((b >> 5) % p->ntasks);
		na = op_arg_bytes(op->kind);
		for (k = 0; k < na; k++)
			args[k] = r.off < pend ? rd8(&r) : 0;
		decode_args(p, op, args);
		if (op->kind == OP_ALLOC_PAGES && prog_nallocs(p) >= PROG_MAX_ALLOCS)
			continue;
		p->nops++;
	}
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
		p->dec[p->ndec].step = skip;
		p->dec[p->ndec].target = (short)(rd8(&r) % p->ntasks);
		p->ndec++;
	}
	p->expect = EXPECT_NONE;
	return r.off;
}

long prog_encode_binary(const struct prog *p, uint8_t *out, size_t cap)
{
	uint8_t def[BIN_HEADER], h[BIN_HEADER];
	const struct mm_config *c = &p->cfg;
	uint32_t cpus_field = 0;
	size_t n = 0;
	long plen;
	int i;

	if (p->keyed || cap < BIN_HEADER + 5)
		return -1;
	default_header(def);
	memset(h, 0, sizeof(h));
	h[0] = (uint8_t)((c->ncpus - 1) | (p->ntasks - 1) << 3 | (c->nzones - 1) << 6);
	h[1] = (uint8_t)(c->max_order - 1);
	h[2] = (uint8_t)(c->pb_order - 1);
	h[3] = (uint8_t)(((c->zone_pages >> c->max_order) - 1) & 0xff);
	h[4] = (uint8_t)(((c->zone_pages >> c->max_order) - 1) >> 8);
	h[5] = (uint8_t)c->pcp_high;
	h[6] = (uint8_t)(c->pcp_batch - 1);
	h[7] = (uint8_t)(c->stat_threshold - 1);
	h[8] = (uint8_t)c->variant;
	for (i = 0; i < 4; i++)
		h[9 + i] = (uint8_t)(p->bugs >> (8 * i));
	for (i = 0; i < p->ntasks; i++)
		cpus_field |= (uint32_t)((p->task_cpu[i] - i % c->ncpus + c->ncpus) % c->ncpus)
			      << (3 * i);
	for (i = 0; i < 4; i++)
		h[15 + i] = (uint8_t)(cpus_field >> (8 * i));
	n = BIN_HEADER;
	for (i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];

		if (n + 4 > cap)
			return -1;
		out[n++] = (uint8_t)(op->kind | op->task << 5);
		n += (size_t)encode_args(op, out + n);
	}
	plen = (long)(n - BIN_HEADER);
	h[13] = (uint8_t)(plen & 0xff);
	h[14] = (uint8_t)(plen >> 8);
	for (i = 0; i < BIN_HEADER; i++)
		out[i] = h[i] ^ def[i];

	if (n + 5 > cap)
		return -1;
	out[n++] = (uint8_t)p->fallback_depth;
	for (i = 0; i < 4; i++)
		out[n++] = (uint8_t)(p->seed >> (8 * i));
	for (i = 0; i < p->ndec; i++) {
		uint64_t skip = p->dec[i].step;

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

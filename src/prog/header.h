/* SPDX-License-Identifier: MIT */
/*
 * Header sections: the part of a program's header a layer owns.  A layer
 * that has header state (its config keys, and state of its own such as the
 * TLB layer's header mms) registers one section, with a fixed id, from its
 * own ops file (HEADER_SECTION).  The binary form v3 (binary.c) writes
 * one length-prefixed section per layer whose state is not all defaults;
 * the text form's header lines that are not config keys are parsed and
 * printed by the section that owns them.  The state lives in an opaque
 * area of struct prog (prog_area), which only the layer's files read.
 *
 * A section's payload in v3: [n] [n config bytes] [state bytes].  Config
 * byte j is the config block's byte cfg_base + j (the same fold as v2:
 * world/config.c), for the places of the section's own keys; the state bytes
 * are the layer's, decoded by its decode hook.  Missing bytes read as zero,
 * and zero bytes mean the defaults.
 */
#ifndef MMFUZZ_PROG_HEADER_H
#define MMFUZZ_PROG_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sched/registry.h"

#define HDR_MAX_SECTIONS	8	/* registered sections, all layers */
#define HDR_AREA_BYTES		32	/* a section's area in struct prog */
#define HDR_MARKS		8	/* text positions a section's parser keeps */

struct prog;
struct parser;
struct keypos;

/* What a section's text parser gets: the parser at the value (after
 * "key:"), the section's area, and HDR_MARKS positions to keep (for
 * errors found once the tasks are known, in parse_end). */
struct hdr_parse {
	struct parser *ps;
	struct prog *p;
	void *area;
	struct keypos *at;	/* HDR_MARKS of them */
	bool *seen;		/* the section's own "given once" flag */
};

struct hdr_section {
	const char *layer;		/* its config keys are this layer's */
	unsigned char id;		/* binary: fixed forever */
	unsigned char cfg_base;		/* its config bytes start at this config place */
	size_t area_size;		/* <= HDR_AREA_BYTES */
	/* binary: the state bytes (@n of them; any bytes decode) into @area,
	 * which is zero; @p's tasks are known */
	void (*decode)(void *area, const uint8_t *b, size_t n, const struct prog *p);
	/* the state bytes, at most @cap; 0 when the state is the default */
	size_t (*encode)(const void *area, const struct prog *p, uint8_t *b, size_t cap);
	/* v2 kept this state in the header's bytes v2_off.. (v2_len): decode
	 * reads them from there in a v2 file */
	unsigned char v2_off, v2_len;
	/* text: the header key @name is the section's?  1 not its, 0 parsed,
	 * -1 an error (perr) */
	int (*parse)(struct hdr_parse *h, const char *name, const char *key);
	/* text: the tasks are known (0, or -1 and perr) */
	int (*parse_end)(struct hdr_parse *h);
	/* text: the section's header lines (after the config keys), into @buf */
	void (*print)(const void *area, const struct prog *p, char *buf, size_t n);
	/* the canonical state, and the state of the program's tasks only */
	void (*canonicalize)(void *area, const struct prog *p);
	/* the minimizer: task @t is removed from @p (tasks after it move down) */
	void (*task_removed)(void *area, const struct prog *p, int t);
	/* the minimizer: its @k-th smaller candidate, made in @area: 1, or 0
	 * when there is no k-th (k counts from 0; it stops at the first 0);
	 * -1 for a k that gives nothing to try */
	int (*shrink)(void *area, const struct prog *p, int k);
	/* the layer's run_begin has work to do (the executor runs it before
	 * the tasks) */
	bool (*run_begin)(const void *area, const struct prog *p);
	int slot;			/* index of its area (hdr_init) */
};

#define HEADER_SECTION(s)							\
	REGISTER(mmfuzz_hdr_sections, const struct hdr_section *, __hsp_##s, &(s))

void hdr_init(void);
int hdr_nsections(void);
/* The sections in id order. */
const struct hdr_section *hdr_section_by_index(int i);
const struct hdr_section *hdr_section_by_id(int id);

/* @s's area in @p. */
void *prog_area(struct prog *p, const struct hdr_section *s);
const void *prog_area_c(const struct prog *p, const struct hdr_section *s);

/* Every section's canonicalize. */
void hdr_canonicalize(struct prog *p);
/* Does any section's layer have run_begin work? */
bool hdr_run_begin(const struct prog *p);

/*
 * The config bytes of section @s from the config block @block
 * (CONFIG_PLACES bytes): into @out (cap bytes), trailing zeros dropped; the
 * count.  hdr_config_put puts @n such bytes back into @block.
 */
size_t hdr_config_get(const struct hdr_section *s, const uint8_t *block, uint8_t *out, size_t cap);
void hdr_config_put(const struct hdr_section *s, uint8_t *block, const uint8_t *in, size_t n);

#endif /* MMFUZZ_PROG_HEADER_H */

// SPDX-License-Identifier: MIT
/*
 * A header section registered from one file, as a new layer would
 * (prog/header.h): a test-only layer "hdrtest" with a config key at a
 * place past v2's 44-byte block and a header line of its own ("marks:"),
 * state kept in its area of struct prog.  Its key and its state go through
 * text and binary v3 and back; a v2 file reads its key as the default; a
 * v3 section of an id nobody has is skipped; a text header line nobody has
 * is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "prog/text_parse.h"
#include "tap.h"

static struct config_key ck_hdrtest = {
	.name = "hdrtest_depth", .layer = "hdrtest", .desc = "a test layer's key",
	.lo = 0, .hi = 200, .def = 7, .bin_off = 100, .bin_len = 1,
};
CONFIG_KEY(ck_hdrtest);

/* the state: one byte, "marks: N" */
static void marks_decode(void *area, const uint8_t *b, size_t n, const struct prog *p)
{
	(void)p;
	*(unsigned char *)area = n ? b[0] % 100 : 0;
}

static size_t marks_encode(const void *area, const struct prog *p, uint8_t *b, size_t cap)
{
	(void)p;
	if (!cap || !*(const unsigned char *)area)
		return 0;
	b[0] = *(const unsigned char *)area;
	return 1;
}

static int marks_parse(struct hdr_parse *h, const char *name, const char *k)
{
	const char *w;
	size_t wn;
	long v;

	if (strcmp(name, "marks"))
		return 1;
	if (*h->seen)
		return perr(h->ps, k, "'marks' given twice");
	*h->seen = true;
	wn = token(h->ps, &w);
	if (parse_num(h->ps, w, wn, 1, 99, &v, "marks"))
		return -1;
	*(unsigned char *)h->area = (unsigned char)v;
	return 0;
}

static void marks_print(const void *area, const struct prog *p, char *buf, size_t n)
{
	(void)p;
	buf[0] = 0;
	if (*(const unsigned char *)area)
		snprintf(buf, n, "marks: %d\n", *(const unsigned char *)area);
}

static struct hdr_section hdrtest_section = {
	.layer = "hdrtest", .id = 200, .cfg_base = 100, .area_size = 1,
	.decode = marks_decode, .encode = marks_encode, .parse = marks_parse,
	.print = marks_print,
};
HEADER_SECTION(hdrtest_section);

static const char prog_text[] =
	"mmfuzz 1\nhdrtest_depth: 150\nmarks: 42\ntask T0 cpu=0\n  drain_local\n";

int main(void)
{
	static struct prog p, q;
	uint8_t b[4096];
	char err[256], *t = NULL, *u = NULL;
	long n;

	tap_plan(6);
	ops_init();
	ok(!prog_parse_text(prog_text, "t.mmf", &p, err, sizeof(err)) &&
	   config_get(&p.cfg, &ck_hdrtest) == 150 &&
	   *(unsigned char *)prog_area(&p, &hdrtest_section) == 42,
	   "its key and its header line parse (%s)", err);
	t = prog_print_text(&p);
	ok(t && strstr(t, "\nhdrtest_depth: 150\n") && strstr(t, "\nmarks: 42\n"),
	   "and print");
	p.keyed = false;	/* no decisions: the step form is the same */
	n = prog_encode_binary(&p, b, sizeof(b));
	if (n > 0)
		prog_decode_binary(b, (size_t)n, &q);
	u = n > 0 ? prog_print_text(&q) : NULL;
	ok(n > 0 && b[0] == BIN_VERSION && u && !strcmp(t, u),
	   "binary v3 holds them (a key past v2's 44 places, and the section's state)");
	free(u);
	/* the same bytes with the section's id changed to one nobody has */
	{
		size_t off = BIN3_PREAMBLE, send = BIN3_PREAMBLE + b[BIN3_SLEN];
		bool found = false;

		while (n > 0 && off + 1 < send) {
			if (b[off] == hdrtest_section.id) {
				b[off] = 201;
				found = true;
			}
			off += 2 + b[off + 1];
		}
		prog_decode_binary(b, (size_t)n, &q);
		ok(found && config_get(&q.cfg, &ck_hdrtest) == 7 &&
		   !*(unsigned char *)prog_area(&q, &hdrtest_section),
		   "a section of an id no layer has is skipped: the defaults");
	}
	memset(b, 0, sizeof(b));
	b[BIN_CONFIG + 100] = 0xff;	/* where place 100 would be: a program byte in v2 */
	prog_decode_binary(b, BIN_HEADER + 64, &q);
	ok(config_get(&q.cfg, &ck_hdrtest) == 7, "v2 has no place for it: the default");
	ok(prog_parse_text("mmfuzz 1\nmarkz: 1\ntask T0 cpu=0\n", "u.mmf", &q, err, sizeof(err)) &&
	   !strcmp(err, "u.mmf:2:1: unknown header key 'markz'"),
	   "a header line no layer has is an error in text (%s)", err);
	free(t);
	return tap_done();
}

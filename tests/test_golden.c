// SPDX-License-Identifier: MIT
/*
 * The binary format, pinned: each tests/golden/NAME.bin must decode (as the
 * mm target, without running) to the program text in tests/golden/NAME.mmf
 * ("after N -> Tm" are step decisions).  A change to the decoder that
 * changes what any of these bytes mean fails here: old corpus files would
 * change meaning too.  `test_golden --write` made the version 2 files once
 * (byte 0 zero; the encoder it used now writes v3, so it cannot make them
 * again); `test_golden --write-v3` made the v3_* files.  Rerun neither but
 * for a deliberate new format version.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog/prog.h"
#include "tap.h"

#define DIR_GOLDEN "tests/golden"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = calloc(1, (size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static char *decoded_text(const uint8_t *b, size_t n)
{
	static struct prog p;

	prog_decode_binary(b, n, &p);
	return prog_print_text(&p);
}

/* ---- the files, as they were made ---- */

static void put(const char *name, const uint8_t *b, size_t n)
{
	char path[256];
	char *t = decoded_text(b, n);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.bin", DIR_GOLDEN, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b, 1, n, f) != n || fclose(f))
		perror(path);
	snprintf(path, sizeof(path), "%s/%s.mmf", DIR_GOLDEN, name);
	f = fopen(path, "w");
	if (!f || fputs(t, f) < 0 || fclose(f))
		perror(path);
	free(t);
}

static void put_text(const char *name, const char *text)
{
	static struct prog p;
	static uint8_t b[4096];
	char err[256];
	long n;

	if (prog_parse_text(text, name, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	p.keyed = false;	/* step decisions, as the fuzzers write them */
	n = prog_encode_binary(&p, b, sizeof(b));
	if (n < 0)
		exit(2);
	put(name, b, (size_t)n);
}

static void write_all(void)
{
	uint8_t b[512];
	uint64_t s = rng_seed(2026);
	int i, k;

	memset(b, 0, sizeof(b));
	put("empty", b, 0);
	put("zero_header", b, BIN_HEADER);
	put_text("every_op",
		 "mmfuzz 1\ncpus: 4\nzones: 2\n"
		 "task T0 cpu=0\n  h0 = alloc_pages order=3 mt=reclaimable\n  irq free_pages h0\n"
		 "  drain_local\n  drain_all force=1 zone=all\n  zone_pcp_disable zone=1\n"
		 "  zone_pcp_enable zone=1\n  set_pcp_high_batch zone=0 high=4096 batch=1024\n"
		 "  migrate cpu=3\n  read_counters\n  vmstat_refresh\n"
		 "task T1 cpu=3\n  h1 = irq alloc_pages order=0 mt=unmovable gfp=GFP_ATOMIC|__GFP_COMP\n");
	put_text("config_edges",
		 "mmfuzz 1\ncpus: 8\nzones: 2\nmax_order: 10\npageblock_order: 10\n"
		 "zone_pages: 65536\npcp_high: 0\npcp_batch: 1024\nstat_threshold: 125\n"
		 "variant: locked_rr\ntask T0 cpu=7\n");
	put_text("config_small",
		 "mmfuzz 1\ncpus: 1\nmax_order: 1\npageblock_order: 1\nzone_pages: 2\n"
		 "pcp_high: 255\npcp_batch: 64\nstat_threshold: 1\nvariant: pick_outside\n"
		 "task T0 cpu=0\n  h0 = alloc_pages order=1 mt=movable\n");
	put_text("switches_schedule",
		 "mmfuzz 1\nbugs: pcp_count_apart, pcp_lock_irq\nexpect_tsan: race\n"
		 "task T0 cpu=1\n  h0 = alloc_pages order=0 mt=movable\n  free_pages h0\n"
		 "task T1 cpu=0\n  drain_all force=0 zone=0\n"
		 "task T2 cpu=1\n  drain_local\n"
		 "schedule: fallback=pct:3 seed=0xdeadbeef\n");
	/* hand-made bytes: folding of what the encoder never writes */
	memset(b, 0, sizeof(b));
	b[0] = 0;				/* v2 (this was 0x7f, an unknown version,
						 * while v2 read any value as 2: now it is
						 * v3's, so the file says 0) */
	b[1] = 13;				/* program bytes */
	b[3] = 0x07;				/* (7 ^ 1) + 1 = 7 tasks */
	k = BIN_HEADER;
	b[k++] = 0xfe;				/* a code nobody has: folds onto 0xfe % 10 */
	b[k++] = 0xff;				/* task 7 % 7, irq (not allowed), reserved bits */
	b[k++] = 0x03;				/* its zone: 3 % 1 */
	b[k++] = 0x00;				/* alloc_pages */
	b[k++] = 0x0e;				/* T6, irq */
	b[k++] = 0xff;				/* order 255 % 6 */
	b[k++] = 0xff;				/* mt 255 % 3 */
	b[k++] = 0xff;				/* every gfp bit */
	b[k++] = 0x01;				/* free_pages */
	b[k++] = 0x00;
	b[k++] = 0x77;				/* handle 0x77 % 1 */
	b[k++] = 0x06;				/* set_pcp_high_batch, cut short: */
	b[k++] = 0x01;				/* its arguments read as zero */
	put("folding", b, (size_t)k + 5);
	/* decisions: LEB128 step counts and targets, one running off the end */
	memset(b, 0, sizeof(b));
	b[BIN_HEADER] = 2;			/* fallback pct:2 */
	b[BIN_HEADER + 1] = 0x78;
	b[BIN_HEADER + 2] = 0x56;
	k = BIN_HEADER + 5;
	b[k++] = 0x05; b[k++] = 0x01;		/* after 5 -> T1 */
	b[k++] = 0x80; b[k++] = 0x01; b[k++] = 0x00;	/* after 128 -> T0 */
	b[k++] = 0xff; b[k++] = 0xff; b[k++] = 0xff; b[k++] = 0xff; b[k++] = 0x7f; b[k++] = 0x03;
	b[k++] = 0x81;				/* runs off the end */
	put("decisions", b, (size_t)k);
	/* random headers: every config key folded */
	for (i = 0; i < 3; i++) {
		char name[32];

		for (k = 0; k < BIN_HEADER + 40; k++)
			b[k] = (uint8_t)rng_next(&s);
		b[0] = 0;	/* v2 (random while v2 read any value as 2) */
		b[1] = 30;
		b[2] = 0;
		/* only the switches and keys there are today: bits and bytes
		 * the encoder never writes gain a meaning when one is added */
		b[8] &= 0x3f;
		memset(b + 9, 0, 7);
		memset(b + 16 + 15, 0, BIN_HEADER - 16 - 15);
		snprintf(name, sizeof(name), "random%d", i);
		put(name, b, BIN_HEADER + 40);
	}
	/* the header's mms (bytes 60..63, 4 bits a task) */
	put_text("header_mms",
		 "mmfuzz 1\nmms: T0 T2, T1\n"
		 "task T0 cpu=0\n  r0 = mmap pages=2\n  access r0 page=0 write=1\n"
		 "task T1 cpu=1\n  r1 = brk pages=1\n"
		 "task T2 cpu=1\n  access r0 page=0\n");
	memset(b, 0, sizeof(b));
	b[3] = 0x07;				/* 7 tasks */
	b[60] = 0x9f;				/* T0 15, T1 9 */
	b[61] = 0x0f;				/* T2 15, T3 none */
	b[62] = 0x39;				/* T4 9, T5 3 */
	b[63] = 0xee;				/* T6 14; T7 is past the tasks */
	put("mms_folding", b, BIN_HEADER + 5);
	/* config bytes set one key at a time to all ones */
	memset(b, 0, sizeof(b));
	for (k = 16; k < 16 + 15; k++)
		b[k] = 0xff;
	put("config_ones", b, BIN_HEADER);
}

/* @text encoded with step decisions @dec (targets, after @step[i] steps) */
static void put_steps(const char *name, const char *text, const int *target, const int *step,
		      int ndec)
{
	static struct prog p;
	static uint8_t b[4096];
	char err[256];
	long n;
	int i;

	if (prog_parse_text(text, name, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	p.keyed = false;
	for (i = 0; i < ndec; i++) {
		memset(&p.dec[i], 0, sizeof(p.dec[i]));
		p.dec[i].step = (uint64_t)step[i];
		p.dec[i].target = (short)target[i];
	}
	p.ndec = ndec;
	n = prog_encode_binary(&p, b, sizeof(b));
	if (n < 0)
		exit(2);
	put(name, b, (size_t)n);
}

/* Version 3: what the encoder writes, and the folding of what it never
 * writes (binary.c's decode_v3). */
static void write_v3(void)
{
	static const int kt_target[] = { 2, 5, 23, 1 }, kt_step[] = { 3, 4, 1, 0 };
	uint8_t b[512];
	int k;

	put_text("v3_every_op",
		 "mmfuzz 1\ncpus: 4\nzones: 2\n"
		 "task T0 cpu=0\n  h0 = alloc_pages order=3 mt=reclaimable\n  irq free_pages h0\n"
		 "  drain_local\n  drain_all force=1 zone=all\n  zone_pcp_disable zone=1\n"
		 "  zone_pcp_enable zone=1\n  set_pcp_high_batch zone=0 high=4096 batch=1024\n"
		 "  migrate cpu=3\n  read_counters\n  vmstat_refresh\n"
		 "task T1 cpu=3\n  h1 = irq alloc_pages order=0 mt=unmovable gfp=GFP_ATOMIC|__GFP_COMP\n");
	put_text("v3_config_edges",
		 "mmfuzz 1\ncpus: 8\nzones: 2\nmax_order: 10\npageblock_order: 10\n"
		 "zone_pages: 65536\npcp_high: 0\npcp_batch: 1024\nstat_threshold: 125\n"
		 "variant: locked_rr\ndrain: locked_count\nmm_pages: 65536\ntlb_entries: 64\n"
		 "tlb_single_page_flush_ceiling: 4095\ntlb_asids: 1\ngather_batch_count: 2048\n"
		 "bugs: pcp_count_apart\nexpect_tsan: race\ntask T0 cpu=7\n");
	put_text("v3_tlb",
		 "mmfuzz 1\nmm_pages: 128\ntlb_entries: 4\nmms: T0 T2, T1\n"
		 "task T0 cpu=0\n  r0 = mmap pages=2\n  access r0 page=0 write=1\n"
		 "task T1 cpu=1\n  r1 = brk pages=1\n"
		 "task T2 cpu=1\n  access r0 page=0\n");
	/* the SLUB section (id 4): its two keys and the caches line */
	put_text("v3_slub",
		 "mmfuzz 1\nslub_partial: partial_counters\nfreelist_update: slab_lock\n"
		 "caches: 24 debug, 40 order=5 typesafe_by_rcu\n"
		 "task T0 cpu=0\n  s0 = kmem_cache_alloc cache=1\n  kmem_cache_free s0\n"
		 "task T1 cpu=1\n  s1 = kmalloc size=100\n  kfree s1\n");
	/* decisions to kernel threads (ids after the tasks): v2 had no form */
	put_steps("v3_kthread",
		  "mmfuzz 1\ntask T0 cpu=0\n  rcu_read n=2\n  rcu_update sync=1\n"
		  "task T1 cpu=1\n  rcu_read\n", kt_target, kt_step, 4);
	/* a version byte no version has reads as 3; the preamble alone */
	memset(b, 0, sizeof(b));
	b[0] = 0x7f;
	put("v3_preamble", b, BIN3_PREAMBLE);
	/* sections folded: an unknown id skipped, a second of an id skipped,
	 * a config count past its payload cut, a section past S cut */
	memset(b, 0, sizeof(b));
	b[0] = 3;
	b[3] = 0x02;				/* (2 ^ 1) + 1 = 4 tasks */
	k = BIN3_PREAMBLE;
	b[k++] = 9; b[k++] = 2; b[k++] = 0xaa; b[k++] = 0xbb;	/* no layer's: skipped */
	b[k++] = 2; b[k++] = 3; b[k++] = 1; b[k++] = 0x01; b[k++] = 0xee;
						/* pagealloc: zones ^ 1, a state byte
						 * it has no use for */
	b[k++] = 2; b[k++] = 2; b[k++] = 1; b[k++] = 0x07;	/* a second: skipped */
	b[k++] = 1; b[k++] = 1; b[k++] = 9;	/* machine: 9 config bytes, none there */
	b[k++] = 3; b[k++] = 9; b[k++] = 0; b[k++] = 0x21; b[k++] = 0x03;
						/* tlb: mms, runs past S: cut */
	b[BIN3_SLEN] = (uint8_t)(k - BIN3_PREAMBLE);
	b[BIN_PLEN] = 4;
	b[k++] = 0x00; b[k++] = 0x03; b[k++] = 0x01; b[k++] = 0x01;	/* alloc_pages, T3 */
	b[k++] = 1;				/* fallback pct:1, seed 0x00000009 */
	b[k++] = 9; b[k++] = 0; b[k++] = 0; b[k++] = 0;
	b[k++] = 2; b[k++] = 0x1b;		/* after 2 -> T27: no kthread here, 27 % 4 */
	put("v3_folding", b, (size_t)k);
	/* sections whose length runs past the file: they end at its end */
	memset(b, 0, sizeof(b));
	b[0] = 3;
	b[BIN3_SLEN] = 0xff;
	b[BIN3_SLEN + 1] = 0xff;
	b[BIN3_PREAMBLE] = 1;
	b[BIN3_PREAMBLE + 1] = 2;
	b[BIN3_PREAMBLE + 2] = 1;
	b[BIN3_PREAMBLE + 3] = 0x03;		/* cpus: index 1 ^ 3, 3 cpus */
	put("v3_past_file", b, BIN3_PREAMBLE + 4);
}

int main(int argc, char **argv)
{
	struct dirent **names;
	int n, i, checked = 0, bad = 0;

	ops_init();
	if (argc == 2 && !strcmp(argv[1], "--write")) {
		write_all();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--write-v3")) {
		write_v3();
		return 0;
	}
	n = scandir(DIR_GOLDEN, &names, NULL, alphasort);
	tap_plan(2);
	for (i = 0; i < n; i++) {
		const char *f = names[i]->d_name;
		size_t len = strlen(f), blen, tlen;

		if (len > 4 && !strcmp(f + len - 4, ".bin")) {
			char bp[300], tp[300];
			uint8_t *b, *t;
			char *got;

			snprintf(bp, sizeof(bp), "%s/%s", DIR_GOLDEN, f);
			snprintf(tp, sizeof(tp), "%s/%.*s.mmf", DIR_GOLDEN, (int)(len - 4), f);
			b = slurp(bp, &blen);
			t = slurp(tp, &tlen);
			got = b ? decoded_text(b, blen) : NULL;
			if (!b || !t || !got || strcmp(got, (char *)t)) {
				if (!bad++)
					diag("%s does not decode to %s:\n%s", bp, tp, got ? got : "?");
			}
			checked++;
			free(b);
			free(t);
			free(got);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	ok(checked >= 12, "%d golden binary files", checked);
	ok(!bad, "each decodes to its canonical text (%d do not)", bad);
	return tap_done();
}

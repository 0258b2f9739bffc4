// SPDX-License-Identifier: MIT
/*
 * decode and encode keep what a program does (codec.h): for every corpus
 * file, for random byte strings and for corpus texts edited a little (a
 * line dropped, doubled or moved, a digit changed), the text decode prints
 * parses, runs as the program did (the same outcome and trace hash),
 * encodes to bytes that run the same too, and those bytes decode to the
 * same text again.
 * The random byte strings are v2 (byte 0 zero), v3 with random sections,
 * and bytes as they come (v3 but for byte 0 zero).  v3 holds a decision
 * to a kernel thread: none is refused.
 *
 *   MMFUZZ_CODEC_N     random byte strings, and as many edited texts
 *                      (default 1000, ASan 500, TSan 100: a few seconds;
 *                      ci/text-prop runs a million)
 *   MMFUZZ_CODEC_SEED  their seed (default 1)
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "prog/codec.h"
#include "sched/san.h"
#include "tap.h"

static struct exec *e;

struct outcome {
	enum run_outcome outcome;
	char sig[128];
	uint64_t hash;
};

static void run_of(const struct prog *p, struct outcome *out)
{
	struct run_opts o = { 0 };
	struct run_result r;

	o.max_steps = 20000;
	exec_run(e, p, &o, &r);
	out->outcome = r.outcome;
	snprintf(out->sig, sizeof(out->sig), "%s", r.outcome == RUN_CLEAN ? "" : r.v.signature);
	out->hash = r.trace_hash;
}

static bool same(const struct outcome *a, const struct outcome *b)
{
	return a->outcome == b->outcome && !strcmp(a->sig, b->sig) && a->hash == b->hash;
}

enum trip { TRIP_OK, TRIP_BAD };

/* encodes refused for a decision at need_resched() (prog_encode_canonical's -3) */
static int resched_refused;

/* text = decode(p), bytes = encode(text), decode(bytes): all three run as p
 * does, and decode(bytes) == text. */
static enum trip trip(const struct prog *orig, const char *name)
{
	static struct prog p, q, b;
	static uint8_t bin[1 << 16];
	struct outcome o0, o1, o2;
	struct run_result r;
	char err[512], *d1 = NULL, *d2 = NULL;
	enum trip rc = TRIP_BAD;
	int bad = -1;
	long n;

	run_of(orig, &o0);
	p = *orig;
	if (prog_decode_canonical(e, &p, &r, NULL) < 0 || !(d1 = prog_print_text(&p)))
		goto out;
	if (prog_parse_text(d1, name, &q, err, sizeof(err))) {
		diag("%s: decode printed text that does not parse: %s", name, err);
		goto out;
	}
	run_of(&q, &o1);
	if (!same(&o0, &o1)) {
		diag("%s: its decoded text runs otherwise (%s %016llx, then %s %016llx)", name,
		     o0.sig, (unsigned long long)o0.hash, o1.sig, (unsigned long long)o1.hash);
		goto out;
	}
	n = prog_encode_canonical(e, &q, bin, sizeof(bin), &r, NULL, &bad);
	if (n == -3) {
		/* a need_resched() decision: said (FILE:LINE:COL), not written */
		resched_refused++;
		rc = TRIP_OK;
		goto out;
	}
	if (n < 0) {
		diag("%s: encode failed", name);
		goto out;
	}
	prog_decode_binary(bin, (size_t)n, &b);
	run_of(&b, &o2);
	if (!same(&o0, &o2)) {
		diag("%s: its binary form runs otherwise (%s %016llx, then %s %016llx)", name,
		     o0.sig, (unsigned long long)o0.hash, o2.sig, (unsigned long long)o2.hash);
		goto out;
	}
	/* aim: is the text's metadata, which the binary form never holds
	 * (docs/seeds.md): the rest must come back */
	memcpy(b.aim, q.aim, sizeof(b.aim));
	if (prog_decode_canonical(e, &b, &r, NULL) < 0 || !(d2 = prog_print_text(&b)))
		goto out;
	if (strcmp(d1, d2)) {
		diag("%s: decode(encode(text)) != text:\n%s\n-- and --\n%s", name, d1, d2);
		goto out;
	}
	rc = TRIP_OK;
out:
	free(d1);
	free(d2);
	return rc;
}

#define MAX_TEXTS 256
static char *texts[MAX_TEXTS];
static size_t text_len[MAX_TEXTS];
static int ntexts;

static void corpus_dir(const char *dir, int *files, int *bad)
{
	static struct prog p;
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096], err[512];

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name), len;
		char *text;

		if (n < 5 || strcmp(de->d_name + n - 4, ".mmf"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		text = tap_slurp(path, &len);
		if (!text || prog_parse_text_n(text, len, path, &p, err, sizeof(err))) {
			diag("%s: %s", path, text ? err : "cannot read");
			(*bad)++;
			free(text);
			continue;
		}
		if (ntexts < MAX_TEXTS) {
			texts[ntexts] = text;
			text_len[ntexts++] = len;
		} else {
			free(text);
		}
		(*files)++;
#if MMFUZZ_TSAN
		/* TSan reports its race first, as the file says (regress.t) */
		if (p.expect_tsan_race)
			continue;
#endif
		switch (trip(&p, path)) {
		case TRIP_OK:
			break;
		case TRIP_BAD:
			(*bad)++;
			break;
		}
	}
	if (d)
		closedir(d);
}

/* The start of line @k of @s (from 0) and its length with its newline. */
static size_t line_at(const char *s, size_t len, size_t k, size_t *n)
{
	size_t i = 0, start = 0;

	for (; i < len && k; i++)
		if (s[i] == '\n') {
			k--;
			start = i + 1;
		}
	for (i = start; i < len && s[i] != '\n'; i++)
		;
	*n = i - start + (i < len);
	return start;
}

/*
 * A corpus text with a line dropped, doubled or moved, or a digit changed:
 * the programs a person writes by editing one (most of them parse; the
 * decisions of the schedule are where the forms used to part).
 */
static size_t mutate_text(const char *in, size_t len, char *out, size_t cap, uint64_t *r)
{
	size_t lines = 1, i, a, an, b, bn, n = 0;

	for (i = 0; i < len; i++)
		lines += in[i] == '\n';
	a = line_at(in, len, rng_next(r) % lines, &an);
	b = line_at(in, len, rng_next(r) % lines, &bn);
	if (len + an + 1 > cap)
		return 0;
	switch (rng_next(r) % 4) {
	case 0:		/* line a gone */
		memcpy(out, in, a);
		memcpy(out + a, in + a + an, len - a - an);
		return len - an;
	case 1:		/* line a twice */
		memcpy(out, in, a + an);
		memcpy(out + a + an, in + a, len - a);
		return len + an;
	case 2:		/* line a before line b */
		if (a == b)
			break;
		for (i = 0; i < len;) {
			if (i == b) {
				memcpy(out + n, in + a, an);
				n += an;
			}
			if (i == a) {
				i += an;
				continue;
			}
			out[n++] = in[i++];
		}
		if (b >= len) {
			memcpy(out + n, in + a, an);
			n += an;
		}
		return n;
	default:	/* a digit changed */
		memcpy(out, in, len);
		for (i = 0; i < 64; i++) {
			size_t at = rng_next(r) % len;

			if (out[at] >= '0' && out[at] <= '9') {
				out[at] = (char)('0' + rng_next(r) % 10);
				break;
			}
		}
		return len;
	}
	memcpy(out, in, len);
	return len;
}

/*
 * Random v3 sections where random bytes would rarely make one: a short
 * sections' length, then sections of the ids there are (and one past),
 * each a few bytes, lengths and config counts sometimes past their end.
 */
static void v3_sections(uint8_t *b, size_t len, uint64_t *seed)
{
	size_t slen = rng_next(seed) % 48, off = BIN3_PREAMBLE;

	if (slen > len - BIN3_PREAMBLE)
		slen = len - BIN3_PREAMBLE;
	b[BIN3_SLEN] = (uint8_t)slen;
	b[BIN3_SLEN + 1] = 0;
	b[BIN_PLEN + 1] = 0;	/* at most 255 program bytes */
	while (off + 3 <= BIN3_PREAMBLE + slen) {
		size_t n = rng_next(seed) % 12;

		b[off] = (uint8_t)(rng_next(seed) % 5);
		b[off + 1] = (uint8_t)(rng_next(seed) % 16 ? n : 0xff);
		b[off + 2] = (uint8_t)(rng_next(seed) % 16 ? rng_next(seed) % (n + 1) : 0xff);
		off += 2 + n;
	}
}

int main(void)
{
	static uint8_t bytes[600];
	static struct prog p;
	int files = 0, bad = 0, rbad = 0, i;
	int n = getenv("MMFUZZ_CODEC_N") ? atoi(getenv("MMFUZZ_CODEC_N")) : MMFUZZ_TSAN ? 100 : MMFUZZ_ASAN ? 500 : 1000;
	uint64_t seed = getenv("MMFUZZ_CODEC_SEED") ? strtoull(getenv("MMFUZZ_CODEC_SEED"), NULL, 0) : 1;
	DIR *d;
	struct dirent *de;

	tap_plan(4);
	ops_init();
	e = exec_create();
	ok(e != NULL, "executor");
	d = opendir("corpus");
	while (d && (de = readdir(d))) {
		char sub[4096];

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "corpus/%s", de->d_name);
		corpus_dir(sub, &files, &bad);
	}
	if (d)
		closedir(d);
	/* corpus/regress/rcu_gp_early.mmf's last decision goes to the
	 * grace-period kthread: v3 holds it; corpus/regress/zap_resched.mmf's
	 * first decision is at need_resched(), which encode refuses */
	ok(files > 100 && !bad && resched_refused == 1,
	   "%d corpus files: decode, encode, decode again run alike and print the same text "
	   "(%d differ; %d refused: a need_resched() decision)", files, bad, resched_refused);
	seed = rng_seed(seed);
	for (i = 0; i < n; i++) {
		size_t len = 1 + rng_next(&seed) % sizeof(bytes), k;
		char name[32];

		for (k = 0; k < len; k++)
			bytes[k] = (uint8_t)rng_next(&seed);
		if (i % 4 == 1)
			bytes[0] = 0;	/* v2, frozen */
		else if (i % 4 >= 2 && len > BIN3_PREAMBLE)
			v3_sections(bytes, len, &seed);
		prog_decode_binary(bytes, len, &p);
#if MMFUZZ_TSAN
		p.bugs = 0;	/* a switch's race would be TSan's report */
#endif
		snprintf(name, sizeof(name), "random%d", i);
		switch (trip(&p, name)) {
		case TRIP_OK:
			break;
		case TRIP_BAD:
			rbad++;
			break;
		}
	}
	ok(!rbad, "%d random byte strings: the same (%d differ)", n, rbad);
	{
		static char buf[1 << 17];
		int parsed = 0, tbad = 0;
		char err[512];

		for (i = 0; i < n && ntexts; i++) {
			int k = (int)(rng_next(&seed) % (uint64_t)ntexts);
			size_t len = mutate_text(texts[k], text_len[k], buf, sizeof(buf) - 1, &seed);
			char name[32];

			buf[len] = 0;
			snprintf(name, sizeof(name), "mutant%d", i);
			if (prog_parse_text_n(buf, len, name, &p, err, sizeof(err)))
				continue;
			parsed++;
#if MMFUZZ_TSAN
			if (p.expect_tsan_race || p.bugs)
				continue;	/* TSan's report comes first */
#endif
			switch (trip(&p, name)) {
			case TRIP_OK:
				break;
			case TRIP_BAD:
				if (tbad++ < 3)
					diag("mutant %d:\n%s", i, buf);
				break;
			}
		}
		ok(!tbad, "%d corpus texts with a line dropped, doubled or moved or a digit "
		   "changed, %d of which parse: the same (%d differ)", n, parsed, tbad);
	}
	for (i = 0; i < ntexts; i++)
		free(texts[i]);
	exec_destroy(e);
	return tap_done();
}

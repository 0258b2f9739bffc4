// SPDX-License-Identifier: MIT
/*
 * The LKP compare table of stress --compare, against lines of real LKP
 * reports (the brk2 report quoted in style-and-stress-anchors.md B2) and
 * compare.rb's rules: widths 10/10/6, " ±NN%" only above 2%, %.2f below
 * 1000, %.4g above 1e8, absolute change for keys ending in '%', and
 * changed_stat.rb's separation rule.
 */
#include <stdlib.h>
#include <string.h>

#include "../stress/stress.h"
#include "tap.h"

static char *table(const char *const *labels, int ncfg, const struct compare_stat *st, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lkp_print_table(f, labels, ncfg, st, n);
	fclose(f);
	return buf;
}

/* line @n (0-based) of @text, in a static buffer */
static const char *line(const char *text, int n)
{
	static char out[512];
	const char *p = text, *e;

	while (n-- > 0 && p)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	if (!p)
		return "";
	e = strchr(p, '\n');
	snprintf(out, sizeof(out), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
	return out;
}

static int str_is(const char *got, const char *want, const char *name)
{
	int r = ok(!strcmp(got, want), "%s", name);

	if (!r) {
		diag("  got  '%s'", got);
		diag("  want '%s'", want);
	}
	return r;
}

int main(void)
{
	static const char *const labels[] = { "ec81deb6b769dc1b", "6e553c6bcb7746abad29ce63e0c" };
	double soft_a[] = { 24.47 }, soft_b[] = { 17.29 };
	double proc_a[] = { 13467005 }, proc_b[] = { 26223847 };
	double noisy_a[] = { 1000000, 1100000, 900000 }, flat_b[] = { 1050000, 1050000, 1050000 };
	double big_a[] = { 622800000, 622800000, 622800000 }, zero[] = { 0, 0, 0 };
	double sep_a[] = { 100, 101, 102 }, sep_b[] = { 110, 111, 112 };
	double ovl_b[] = { 99, 104, 112 };
	struct compare_stat st[] = {
		{ "mpstat.cpu.all.soft%", { soft_a, soft_b }, { 1, 1 } },
		{ "will-it-scale.104.processes", { proc_a, proc_b }, { 1, 1 } },
		{ "will-it-scale.per_thread_ops", { noisy_a, flat_b }, { 3, 3 } },
		{ "model.zone_lock.hold_ns", { big_a, big_a }, { 3, 3 } },
		{ "invariant_violations", { zero, zero }, { 3, 3 } },
	};
	char *t;

	tap_plan(11);
	t = table(labels, 2, st, 5);
	str_is(line(t, 0), "ec81deb6b769dc1b 6e553c6bcb7746abad29ce63e0c ",
	       "column labels: 16 wide, then 27 (the LKP report)");
	str_is(line(t, 1), "---------------- --------------------------- ", "rules under them");
	str_is(line(t, 2), "         %stddev     %change         %stddev", "the %stddev header");
	str_is(line(t, 3), "             \\          |                \\  ", "the \\ | \\ line");
	str_is(line(t, 4), "     24.47            -7.2       17.29        mpstat.cpu.all.soft%",
	       "a key ending in %: absolute change, %.2f below 1000 (LKP report)");
	str_is(line(t, 5), "  13467005           +94.7%   26223847        will-it-scale.104.processes",
	       "percent change, integers (LKP report)");
	str_is(line(t, 6), "   1000000 \u00b1  8%      +5.0%    1050000        will-it-scale.per_thread_ops",
	       "population stddev above 2% shows as \u00b1NN%");
	str_is(line(t, 7), " 6.228e+08            +0.0%  6.228e+08        model.zone_lock.hold_ns",
	       "above 1e8: %.4g");
	str_is(line(t, 8), "      0.00            +0.0%       0.00        invariant_violations",
	       "0 -> 0 is no change");
	ok(lkp_changed(sep_a, 3, sep_b, 3) && lkp_changed(sep_b, 3, sep_a, 3),
	   "separated runs are a change, either way");
	ok(!lkp_changed(sep_a, 3, ovl_b, 3), "min_b below mean_a: within noise");
	free(t);
	return tap_done();
}

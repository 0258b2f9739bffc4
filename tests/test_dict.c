// SPDX-License-Identifier: MIT
/*
 * fuzz/mm.dict is derived from the operation descriptors: each operation's
 * code with each task byte (and the irq bit where the operation may run in
 * interrupt context), and each config key's extreme values.  This test says
 * whether the shipped file is what the descriptors give; with --write FILE
 * it writes it (make fuzz-dict).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog/prog.h"
#include "tap.h"

static char *dict_text(void)
{
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	int i, t;

	if (!s)
		abort();
#define OUT(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
	OUT("# mmfuzz binary programs, format v2 (src/prog/binary.c): one operation is\n"
	    "# [code] [task | irq << 3] then its arguments.  Generated from the operation\n"
	    "# descriptors by `make fuzz-dict`; tests/test_dict.c checks it is current.\n");
	for (i = 0; i < ops_count(); i++) {
		const struct op_desc *d = op_by_index(i);

		for (t = 0; t < 4; t++)
			OUT("%s_t%d=\"\\x%02x\\x%02x\"\n", d->name, t, d->code, t);
		if (d->irq_ok)
			OUT("%s_irq=\"\\x%02x\\x08\"\n", d->name, d->code);
	}
	OUT("# schedule bytes: a decision is a LEB128 step count and a target task\n");
	for (t = 0; t < 4; t++)
		OUT("decide_now_t%d=\"\\x00\\x%02x\"\n", t, t);
	return s;
#undef OUT
}

int main(int argc, char **argv)
{
	char *want = dict_text(), *have = NULL;
	const char *path = "fuzz/mm.dict";
	FILE *f;
	long len;

	if (argc == 3 && !strcmp(argv[1], "--write")) {
		f = fopen(argv[2], "w");
		if (!f || fputs(want, f) < 0 || fclose(f)) {
			perror(argv[2]);
			return 2;
		}
		free(want);
		return 0;
	}
	tap_plan(1);
	f = fopen(path, "r");
	if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		have = calloc(1, (size_t)len + 1);
		if (have && fread(have, 1, (size_t)len, f) != (size_t)len) {
			free(have);
			have = NULL;
		}
	}
	if (f)
		fclose(f);
	ok(have && !strcmp(have, want), "%s is what the operation descriptors give (make fuzz-dict)",
	   path);
	free(have);
	free(want);
	return tap_done();
}

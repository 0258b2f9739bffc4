// SPDX-License-Identifier: MIT
/*
 * State as coverage (src/check/state.c) changes nothing of a run: every
 * seed and regression file runs with the state hooks unattached and then
 * attached, with the same outcome, signature, steps and trace hash; and
 * the corpus reaches every annotation at least once (one that no seed
 * reaches any more, after a change to the model, fails here), and
 * docs/state-coverage.md's table has a row for each.  Under TSan
 * the files with bug switches on are left out (their races are reports).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/state.h"
#include "prog/exec.h"
#include "sched/san.h"
#include "tap.h"

static const char *const dirs[] = { "corpus/pagealloc", "corpus/kernel", "corpus/tlb",
				    "corpus/slub", "corpus/regress" };
static void run(struct exec *e, const struct prog *p, struct run_result *r)
{
	struct run_opts o = { 0 };

	exec_run(e, p, &o, r);
}

int main(void)
{
	struct exec *e = exec_create();
	static struct prog p;
	int files = 0, same = 0;
	char *doc;
	int k;
	size_t d;

	tap_plan(1 + 2 * check_state_count());
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		while (dir && (de = readdir(dir))) {
			char path[512], err[512];
			struct run_result a, b;
			size_t n = strlen(de->d_name);
			char *text;

			if (n < 5 || strcmp(de->d_name + n - 4, ".mmf"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], de->d_name);
			text = tap_slurp(path, NULL);
			if (!text || prog_parse_text(text, path, &p, err, sizeof(err))) {
				diag("%s: %s", path, text ? err : "cannot read");
				free(text);
				continue;
			}
			free(text);
#if MMFUZZ_TSAN
			/* a switch's race is ThreadSanitizer's report too, not this test's */
			if (p.bugs)
				continue;
#endif
			files++;
			check_state_detach();
			run(e, &p, &a);
			check_state_attach();
			run(e, &p, &b);
			check_state_detach();
			if (a.outcome == b.outcome && a.trace_hash == b.trace_hash &&
			    a.steps == b.steps && a.ops_run == b.ops_run &&
			    (a.outcome == RUN_CLEAN || !strcmp(a.v.signature, b.v.signature)))
				same++;
			else
				diag("%s: %s %016llx %llu steps without the state hooks, %s %016llx "
				     "%llu with", path, a.outcome == RUN_CLEAN ? "clean" : a.v.signature,
				     (unsigned long long)a.trace_hash, (unsigned long long)a.steps,
				     b.outcome == RUN_CLEAN ? "clean" : b.v.signature,
				     (unsigned long long)b.trace_hash, (unsigned long long)b.steps);
		}
		if (dir)
			closedir(dir);
	}
	ok(files > 40 && same == files,
	   "%d of %d corpus files run the same with the state hooks attached", same, files);
	for (k = 0; k < check_state_count(); k++)
		ok(check_state_by_index(k)->hits > 0,
		   "the corpus reaches the %s annotation (key %u, %lu times)",
		   check_state_by_index(k)->name, check_state_by_index(k)->key,
		   check_state_by_index(k)->hits);
	doc = tap_slurp("docs/state-coverage.md", NULL);
	for (k = 0; k < check_state_count(); k++) {
		char row[128];

		snprintf(row, sizeof(row), "\n| %s ", check_state_by_index(k)->name);
		ok(doc && strstr(doc, row), "docs/state-coverage.md has a row for %s (key %u)",
		   check_state_by_index(k)->name, check_state_by_index(k)->key);
	}
	free(doc);
	exec_destroy(e);
	return tap_done();
}

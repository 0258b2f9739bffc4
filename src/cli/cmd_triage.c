// SPDX-License-Identifier: MIT
/* mmfuzz triage: crash files grouped by signature, one reproducer each. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "triage.h"

static const char triage_usage[] =
	"usage: mmfuzz triage [options] DIR\n"
	"\n"
	"Group the engine's crash files under DIR (libFuzzer's crash-*, AFL++'s\n"
	"*/crashes/id:*, mmfuzz's DIR/crashes) by signature, minimize one of each\n"
	"and write it as text with its expect: line (ready for corpus/regress/).\n"
	"The campaign's bug switches come from DIR/campaign when mmfuzz fuzz wrote\n"
	"it; a crash file's own switch bits are ignored, as the harness ignores them.\n"
	"Exit 0 when there was nothing, 1 when reproducers were written.\n"
	"\n"
	"  --out DIR2        where the reproducers go (default DIR)\n"
	"  --inject NAME     the campaign's bug switch (repeatable)\n"
	"  --sanitizer-bin B the fuzz binary that classifies what the model runs clean\n";

int cmd_triage(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, 0, 'o' }, { "inject", required_argument, 0, 'i' },
		{ "sanitizer-bin", required_argument, 0, 'b' }, { "help", no_argument, 0, 'h' },
		{ 0 } };
	struct run_opts ro = { 0 };
	const char *out = NULL, *dir, *bin = NULL;
	bool injected = false;
	struct triage *t;
	char sub[4200];
	int opt, n;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'b': bin = optarg; break;
		case 'i':
			if (parse_inject(optarg, &ro))
				return EXIT_USAGE;
			injected = true;
			break;
		case 'h':
			fputs(triage_usage, stdout);
			return EXIT_CLEAN;
		default:
			fputs(triage_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fputs(triage_usage, stderr);
		return EXIT_USAGE;
	}
	dir = argv[optind];
	t = calloc(1, sizeof(*t));
	if (!t)
		return EXIT_USAGE;
	t->e = exec_create();
	t->inject = injected ? ro.inject : campaign_note_inject(dir);
	t->sanitizer_bin = bin;
	n = triage_scan(t, dir);
	snprintf(sub, sizeof(sub), "%s/crashes", dir);
	n += triage_scan(t, sub);
	snprintf(sub, sizeof(sub), "%s/afl", dir);
	n += triage_scan(t, sub);
	printf("%d crash file(s), %d signature(s)", t->files_seen, t->n);
	if (t->not_reproduced)
		printf(", %d did not reproduce alone", t->not_reproduced);
	printf("\n");
	n = triage_write(t, out ? out : dir, false);
	exec_destroy(t->e);
	free(t);
	return n ? EXIT_FOUND : EXIT_CLEAN;
}

// SPDX-License-Identifier: MIT
/* mmfuzz triage: crash files grouped by signature, one reproducer each. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "triage.h"

static const char triage_usage[] =
	"usage: mmfuzz triage [options] DIR\n"
	"\n"
	"Group the crash files of a campaign directory (libFuzzer's crash-*, AFL++'s\n"
	"*/crashes/id:*, mmfuzz's DIR/crashes) by signature, minimize one of each\n"
	"and write it as text with its expect: line (ready for corpus/regress/).\n"
	"Each file runs with the bug switches of the campaign that found it\n"
	"(DIR/campaign remembers every campaign that wrote to DIR); a file no\n"
	"campaign of DIR wrote runs with its own.  Exit 0 when there was nothing,\n"
	"1 when reproducers were written, 2 on bad usage, 3 when there were crash\n"
	"files and none of them reproduces alone.\n"
	"\n"
	"  --out DIR2        where the reproducers go (default DIR; made if missing)\n"
	"  --inject NAME     run every file with this switch instead (repeatable)\n"
	"  --sanitizer-bin B the fuzz binary that classifies what the model runs clean\n"
	"                    (default: the one each campaign recorded)\n";

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
	struct stat st;
	char sub[4200];
	int opt, n, t_unrepro;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", lo, NULL)) != -1) {
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
			opt_error("triage", opt, argv);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mmfuzz triage: no DIR given (mmfuzz triage --help)\n");
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "mmfuzz triage: one DIR only, not '%s' too\n", argv[optind + 1]);
		return EXIT_USAGE;
	}
	dir = argv[optind];
	if (stat(dir, &st)) {
		fprintf(stderr, "mmfuzz triage: %s: %s\n", dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "mmfuzz triage: %s: not a directory (a campaign's --out DIR)\n", dir);
		return EXIT_USAGE;
	}
	if (bin && access(bin, X_OK)) {
		fprintf(stderr, "mmfuzz triage: --sanitizer-bin %s: %s\n", bin, strerror(errno));
		return EXIT_USAGE;
	}
	if (output_dir("triage", out ? out : dir))
		return EXIT_USAGE;
	t = calloc(1, sizeof(*t));
	if (!t) {
		fprintf(stderr, "mmfuzz triage: out of memory\n");
		return EXIT_USAGE;
	}
	if (cdir_read(dir, &t->cd)) {
		free(t);
		return EXIT_USAGE;
	}
	t->e = exec_create();
	if (!t->e) {
		fprintf(stderr, "mmfuzz triage: cannot create the executor\n");
		free(t);
		return EXIT_USAGE;
	}
	t->inject_set = injected;
	t->inject = ro.inject;
	t->sanitizer_bin = bin;
	triage_scan(t, dir);
	snprintf(sub, sizeof(sub), "%s/crashes", dir);
	triage_scan(t, sub);
	snprintf(sub, sizeof(sub), "%s/afl", dir);
	triage_scan(t, sub);
	printf("%d crash file(s), %d signature(s)", t->files_seen, t->n);
	if (t->not_reproduced)
		printf(", %d did not reproduce alone", t->not_reproduced);
	if (t->empty_units)
		printf(", %d empty (a sanitizer's report at the engine's exit, not inputs)", t->empty_units);
	printf("\n");
	if (t->own_switches)
		printf("%d crash file(s) no campaign of %s wrote ran with their own bug switches "
		       "(--inject sets them)\n", t->own_switches, dir);
	n = triage_write(t, out ? out : dir, false);
	t_unrepro = t->not_reproduced;
	exec_destroy(t->e);
	free(t);
	return n ? EXIT_FOUND : t_unrepro ? EXIT_UNREPRODUCED : EXIT_CLEAN;
}

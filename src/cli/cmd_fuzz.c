// SPDX-License-Identifier: MIT
/*
 * mmfuzz fuzz: a campaign on an existing engine.  It builds the fuzz
 * target it needs, runs libFuzzer (in process for one job, restarted on its
 * corpus after a sanitizer report; fork mode for more), AFL++, or the seeded
 * random scheduler (no coverage guidance, the baseline), shows progress,
 * classifies every crash file by signature as it appears, and at the end
 * writes one minimized readable reproducer per signature.  Model violations
 * do not stop the engine: the target saves them (MMFUZZ_CRASHES) and goes
 * on.  Killed at any moment, it loses nothing: the crash files stay in
 * DIR/crashes for mmfuzz triage.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign.h"
#include "cli.h"

static const char fuzz_usage[] =
	"usage: mmfuzz fuzz [options]\n"
	"\n"
	"Run a fuzzing campaign on the model, from the shipped seed corpus, and\n"
	"write one minimized readable reproducer (.mmf) per finding under DIR.\n"
	"Exit 0 when nothing was found, 1 when something was.\n"
	"\n"
	"  --engine E        libfuzzer (default), afl, or random (the seeded random\n"
	"                    scheduler on the seeds: no coverage guidance, the baseline)\n"
	"  --target T        mm (default), pagealloc, text\n"
	"  --sanitizer S     address (default: ASan+UBSan), thread, none (afl, random)\n"
	"  --time SECONDS    how long (default 60)\n"
	"  --jobs N          parallel engine processes (default 1)\n"
	"  --inject NAME     a bug switch on (repeatable)\n"
	"  --out DIR         where findings go (default findings/)\n"
	"  --no-ilv          no interleaving coverage (for the benchmark)\n"
	"  --seed N          the engine's seed (default: time)\n"
	"  --until-found     stop at the first finding, print the time it took\n"
	"  --engine-arg ARG  one more argument for the engine (repeatable), e.g.\n"
	"                    --engine-arg=-use_value_profile=1, --engine-arg=-pexplore\n"
	"  -q, --quiet       no progress lines\n";

/* The source tree: the directory above the build directory of this binary. */
static int find_root(struct campaign *c)
{
	char exe[4096], mk[4200], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("MMFUZZ_ROOT");

	if (env) {
		snprintf(c->root, sizeof(c->root), "%s", env);
	} else {
		if (n <= 0)
			return -1;
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(c->root, sizeof(c->root), "%s", exe);
	}
	snprintf(mk, sizeof(mk), "%s/Makefile", c->root);
	return access(mk, R_OK) ? -1 : 0;
}

static int run_make(struct campaign *c, const char *args, const char *log)
{
	char cmd[12288];
	int rc;

	snprintf(cmd, sizeof(cmd), "make -C '%s' --no-print-directory %s > '%s' 2>&1", c->root,
		 args, log);
	rc = system(cmd);
	if (rc) {
		fprintf(stderr, "mmfuzz fuzz: building failed (make %s); see %s\n", args, log);
		return -1;
	}
	return 0;
}

static const char *san_dir(const struct campaign *c)
{
	if (!strcmp(c->sanitizer, "address"))
		return "address-undefined";
	if (!strcmp(c->sanitizer, "thread"))
		return "thread";
	return "plain";
}

static int build(struct campaign *c)
{
	char args[1024], log[4200];

	snprintf(log, sizeof(log), "%s/build.log", c->out);
	if (run_make(c, "corpus", log))
		return -1;
	/* the program targets start from the binary twins, the parser from
	 * copies of the readable programs (build/corpus/text) */
	if (snprintf(c->seeds, sizeof(c->seeds), "%s/build/corpus/%s", c->root, c->target) >=
	    (int)sizeof(c->seeds))
		return -1;
	if (!strcmp(c->engine, "random"))
		return 0;
	snprintf(args, sizeof(args), "ENGINE=%s %s fuzz-bins", c->engine,
		 !strcmp(c->sanitizer, "none") ? "SANITIZER=" :
		 !strcmp(c->sanitizer, "address") ? "SANITIZER=address,undefined" :
						    "SANITIZER=thread");
	if (run_make(c, args, log))
		return -1;
	if (snprintf(c->bin, sizeof(c->bin), "%s/build-fuzz-%s-%s/fuzz/fuzz_%s", c->root, c->engine,
		     san_dir(c), c->target) >= (int)sizeof(c->bin))
		return -1;
	return 0;
}

int cmd_fuzz(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "engine", required_argument, 0, 'E' }, { "target", required_argument, 0, 'T' },
		{ "sanitizer", required_argument, 0, 'S' }, { "time", required_argument, 0, 't' },
		{ "jobs", required_argument, 0, 'j' }, { "inject", required_argument, 0, 'i' },
		{ "out", required_argument, 0, 'o' }, { "no-ilv", no_argument, 0, 'n' },
		{ "seed", required_argument, 0, 's' }, { "until-found", no_argument, 0, 'u' },
		{ "engine-arg", required_argument, 0, 'A' },
		{ "quiet", no_argument, 0, 'q' }, { "help", no_argument, 0, 'h' }, { 0 } };
	struct campaign c = { .engine = "libfuzzer", .target = "mm", .out = "findings", .jobs = 1,
				.seconds = 60, .ilv = true };
	struct run_opts ro = { 0 };
	struct triage *t;
	double t0, first = -1;
	uint64_t v;
	int opt, rc;

	c.seed = (unsigned long)time(NULL);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "qh", lo, NULL)) != -1) {
		switch (opt) {
		case 'E': c.engine = optarg; break;
		case 'T': c.target = optarg; break;
		case 'S': c.sanitizer = optarg; break;
		case 'o': c.out = optarg; break;
		case 'n': c.ilv = false; break;
		case 'u': c.until_found = true; break;
		case 'A':
			if (c.nengine_args == MAX_ENGINE_ARGS) {
				fprintf(stderr, "mmfuzz fuzz: at most %d --engine-arg\n", MAX_ENGINE_ARGS);
				return EXIT_USAGE;
			}
			c.engine_args[c.nengine_args++] = optarg;
			break;
		case 'q': c.quiet = true; break;
		case 't':
			if (parse_u64(optarg, &v) || !v) {
				fprintf(stderr, "mmfuzz fuzz: bad --time '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.seconds = (long)v;
			break;
		case 'j':
			if (parse_u64(optarg, &v) || !v || v > MAX_JOBS) {
				fprintf(stderr, "mmfuzz fuzz: bad --jobs '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.jobs = (int)v;
			break;
		case 's':
			if (parse_u64(optarg, &v)) {
				fprintf(stderr, "mmfuzz fuzz: bad --seed '%s'\n", optarg);
				return EXIT_USAGE;
			}
			c.seed = (unsigned long)v;
			break;
		case 'i':
			if (parse_inject(optarg, &ro))
				return EXIT_USAGE;
			c.inject = ro.inject;
			break;
		case 'h':
			fputs(fuzz_usage, stdout);
			return EXIT_CLEAN;
		default:
			fputs(fuzz_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "mmfuzz fuzz: unexpected argument '%s'\n%s", argv[optind], fuzz_usage);
		return EXIT_USAGE;
	}
	if (strcmp(c.engine, "libfuzzer") && strcmp(c.engine, "afl") && strcmp(c.engine, "random")) {
		fprintf(stderr, "mmfuzz fuzz: --engine is libfuzzer, afl or random, not '%s'\n",
			c.engine);
		return EXIT_USAGE;
	}
	if (strcmp(c.target, "mm") && strcmp(c.target, "pagealloc") && strcmp(c.target, "text")) {
		fprintf(stderr, "mmfuzz fuzz: --target is mm, pagealloc or text, not '%s'\n", c.target);
		return EXIT_USAGE;
	}
	if (!c.sanitizer)
		c.sanitizer = !strcmp(c.engine, "random") ? "none" : "address";
	if (strcmp(c.sanitizer, "address") && strcmp(c.sanitizer, "thread") &&
	    strcmp(c.sanitizer, "none")) {
		fprintf(stderr, "mmfuzz fuzz: --sanitizer is address, thread or none, not '%s'\n",
			c.sanitizer);
		return EXIT_USAGE;
	}
	if (!strcmp(c.engine, "libfuzzer") && !strcmp(c.sanitizer, "none")) {
		fprintf(stderr, "mmfuzz fuzz: the libFuzzer builds are address or thread\n");
		return EXIT_USAGE;
	}
	if (!strcmp(c.engine, "random") && (strcmp(c.target, "mm") || strcmp(c.sanitizer, "none"))) {
		fprintf(stderr, "mmfuzz fuzz: the random engine runs the mm seeds in this process "
			"(--target mm, --sanitizer none)\n");
		return EXIT_USAGE;
	}
	if (find_root(&c)) {
		fprintf(stderr, "mmfuzz fuzz: cannot find the source tree (set MMFUZZ_ROOT)\n");
		return EXIT_USAGE;
	}
	mkdir(c.out, 0755);
	snprintf(c.crashes, sizeof(c.crashes), "%s/crashes", c.out);
	mkdir(c.crashes, 0755);
	{
		char corpus[4200];

		snprintf(corpus, sizeof(corpus), "%s/corpus", c.out);
		mkdir(corpus, 0755);
	}
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: building the %s %s target (%s)...\n", c.engine, c.target,
			c.sanitizer);
	if (build(&c))
		return EXIT_USAGE;
	campaign_note_write(c.out, c.inject, c.target, c.engine, c.sanitizer);
	{
		char stats[4200];

		snprintf(stats, sizeof(stats), "%s/stats", c.out);
		mkdir(stats, 0755);
		setenv("MMFUZZ_STATS", stats, 1);
	}
	setenv("MMFUZZ_CRASHES", c.crashes, 1);
	t = calloc(1, sizeof(*t));
	if (!t)
		return EXIT_USAGE;
	t->e = exec_create();
	t->inject = c.inject;
	t->sanitizer_bin = c.bin[0] && strcmp(c.target, "text") ? c.bin : NULL;
	signal(SIGINT, campaign_on_signal);
	signal(SIGTERM, campaign_on_signal);
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: %s on %s for %lds, %d job(s), seeds %s, findings in %s\n",
			c.engine, c.target, c.seconds, c.jobs, c.seeds, c.out);
	t0 = campaign_now();
	rc = !strcmp(c.engine, "random") ? campaign_random(&c, t, t0, &first)
					 : campaign_engine(&c, t, t0, &first);
	signal(SIGINT, SIG_DFL);
	if (rc) {
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	if (!c.execs && !t->n) {
		fprintf(stderr, "mmfuzz fuzz: the engine ran nothing; see %s/engine.log\n", c.out);
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	if (c.until_found)
		printf("first_finding_seconds: %.2f\n", first < 0 ? -1.0 : first);
	if (!c.quiet)
		fprintf(stderr, "mmfuzz fuzz: %d crash file(s), %d signature(s)%s%s\n", t->files_seen,
			t->n, t->not_reproduced ? " (the others did not reproduce alone)" : "",
			t->n ? "; minimizing one of each" : "");
	triage_write(t, c.out, false);
	rc = t->n ? EXIT_FOUND : EXIT_CLEAN;
	exec_destroy(t->e);
	free(t);
	return rc;
}

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
/* cli.h first: <spawn.h> brings <sched.h>, whose SCHED_RR exec.h names */
#include "campaign.h"
#include "campaign_dir.h"
#include "cli.h"
#include "../prog/ops.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The usage, in two parts around the targets' line (from the registry). */
static const char fuzz_usage[] =
	"usage: mmfuzz fuzz [options]\n"
	"\n"
	"Run a fuzzing campaign on the model, from the shipped seed corpus, and\n"
	"write one minimized readable reproducer (.mmf) per finding under DIR.\n"
	"Exit 0 when nothing was found, 1 when something was, 2 on bad usage or\n"
	"when the engine cannot run, 3 when the engine saved crash files of which\n"
	"none reproduces alone (kept in DIR/crashes), 130 on Ctrl-C (after writing\n"
	"the reproducers of what was found so far).  DIR/campaign lists every\n"
	"campaign that wrote to DIR; campaign N's files are named rN-..., its logs\n"
	"DIR/logs/rN-*.log, its outcome DIR/logs/rN-summary.json.\n"
	"\n"
	"  --engine E        libfuzzer (default), afl, or random (the seeded random\n"
	"                    scheduler on the seeds: no coverage guidance, the baseline)\n"
	"  --target T        %s\n"
	"                    (mmfuzz targets lists them with their layers)\n"
	"  --sanitizer S     address (default: ASan+UBSan), thread, none (afl, random)\n"
	"  --time SECONDS    how long (default 60, at most 31536000)\n"
	"  --jobs N          parallel engine processes (default 1, at most 64)\n"
	"  --inject NAME     a bug switch on (repeatable)\n"
	"  --out DIR         where findings go (default findings/; made if missing,\n"
	"                    not its parents; one campaign at a time: DIR/lock)\n"
	"  --no-ilv          no interleaving coverage (for the benchmark)\n"
	"  --seed N          the engine's seed, 0 to 4294967295 (default: time)\n"
	"  --seeds DIR       start from DIR's text programs (*.mmf), not the shipped\n"
	"                    corpus; an empty DIR: from nothing (not for --target text);\n"
	"                    without it, MMFUZZ_SEEDS_DIR=D in the environment means\n"
	"                    --seeds D/TARGET (bench/bench_search.sh: the seeds aimed\n"
	"                    at a bug removed, through bench_bugs.sh and mutants.sh)\n"
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

/* make -C ROOT --no-print-directory ARGS..., its output appended to the
 * build log; an argument vector, never a shell.  -1 after saying why. */
static int run_make(struct campaign *c, char *const *args)
{
	char *argv[16] = { "make", "-C", c->root, "--no-print-directory" };
	int n = 4, status;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	status = campaign_spawn_logged(c, "make", true, argv, "make");
	if (status < 0)
		return -1;
	if (campaign_signal())
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "mmfuzz fuzz: building failed (make");
		for (n = 4; argv[n]; n++)
			fprintf(stderr, " %s", argv[n]);
		fprintf(stderr, "); see %s\n", c->build_log);
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

/* Where the seeds and the fuzz target are (before they are built). */
static int campaign_paths(struct campaign *c)
{
	/* the program targets start from the binary twins, the parser from
	 * copies of the readable programs (build/corpus/text) */
	if (snprintf(c->seeds, sizeof(c->seeds), "%s/build/corpus/%s", c->root, c->target) >=
	    (int)sizeof(c->seeds))
		return -1;
	if (!strcmp(c->engine, "random"))
		return 0;
	if (snprintf(c->bin, sizeof(c->bin), "%s/build-fuzz-%s-%s/fuzz/fuzz_%s", c->root, c->engine,
		     san_dir(c), c->target) >= (int)sizeof(c->bin))
		return -1;
	return 0;
}

static int build(struct campaign *c)
{
	char engine[32], san[64];
	char *corpus[] = { "corpus", NULL };
	char *bins[] = { engine, san, "fuzz-bins", NULL };

	if (run_make(c, corpus))
		return -1;
	if (!strcmp(c->engine, "random"))
		return 0;
	snprintf(engine, sizeof(engine), "ENGINE=%s", c->engine);
	snprintf(san, sizeof(san), "SANITIZER=%s",
		 !strcmp(c->sanitizer, "none") ? "" :
		 !strcmp(c->sanitizer, "address") ? "address,undefined" : "thread");
	return run_make(c, bins);
}

/* What the campaign keeps in DIR; -1 after saying what failed. */
static int make_dirs(struct campaign *c)
{
	static const char *const sub[] = { "crashes", "corpus", "stats", "logs" };
	char path[4200];
	size_t i;

	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", c->out, sub[i]);
		if (output_dir("fuzz", path))
			return -1;
	}
	snprintf(c->crashes, sizeof(c->crashes), "%s/crashes", c->out);
	return 0;
}

/*
 * DIR/logs/rN-summary.json, written atomically at the end of a campaign run:
 * what it ran and what came of it, for CI (docs/ci.md has the fields).
 */
static void write_summary(const struct campaign *c, const struct triage *t, int rc, double secs)
{
	char path[4300], buf[2048], inj[512];
	int n;

	cdir_inject_names(c->inject, inj, sizeof(inj));
	snprintf(path, sizeof(path), "%s/logs/%s-summary.json", c->out, c->tag);
	n = snprintf(buf, sizeof(buf),
		     "{\"run\":%d,\"engine\":\"%s\",\"target\":\"%s\",\"sanitizer\":\"%s\","
		     "\"inject\":\"%s\",\"seconds\":%.1f,\"execs\":%lu,\"crash_files\":%d,"
		     "\"signatures\":%d,\"not_reproduced\":%d,\"interrupted\":%s,\"exit\":%d}\n",
		     c->run, c->engine, c->target, c->sanitizer, inj, secs, c->execs, t->files_seen,
		     t->n, t->not_reproduced, campaign_signal() ? "true" : "false", rc);
	if (n > 0 && n < (int)sizeof(buf))
		(void)write_output(path, buf, (size_t)n);
}

/* The campaign run, DIR locked: build, run, report.  An exit status. */
static int campaign_run(struct campaign *c)
{
	struct cdir_run r = { .n = c->run };
	struct triage *t;
	double t0, first = -1;
	int rc;

	snprintf(c->tag, sizeof(c->tag), "r%d", c->run);
	snprintf(c->build_log, sizeof(c->build_log), "%s/logs/%s-build.log", c->out, c->tag);
	snprintf(c->engine_log, sizeof(c->engine_log), "%s/logs/%s-engine.log", c->out, c->tag);
	snprintf(c->stats, sizeof(c->stats), "%s/stats/%s", c->out, c->tag);
	if (campaign_paths(c) || output_dir("fuzz", c->stats)) {
		fprintf(stderr, "mmfuzz fuzz: %s: a path too long\n", c->out);
		return EXIT_USAGE;
	}
	r.inject = c->inject;
	snprintf(r.engine, sizeof(r.engine), "%s", c->engine);
	snprintf(r.target, sizeof(r.target), "%s", c->target);
	snprintf(r.sanitizer, sizeof(r.sanitizer), "%s", c->sanitizer);
	snprintf(r.bin, sizeof(r.bin), "%s", strcmp(c->target, "text") ? c->bin : "");
	if (cdir_append("fuzz", c->out, &r, c->seed, c->seconds))
		return EXIT_USAGE;
	if (!c->quiet)
		fprintf(stderr, "mmfuzz fuzz: campaign %d in %s; building the %s %s target (%s), "
			"log %s\n", c->run, c->out, c->engine, c->target, c->sanitizer, c->build_log);
	/* --seeds, or switches injected: make corpus counted the shipped
	 * seeds' steps on the model without them (campaign_seeds.c gives
	 * both twins) */
	if (build(c) || ((c->seeds_from || (c->inject && strcmp(c->target, "text"))) &&
			 campaign_seeds_encode(c)))
		return campaign_signal() ? 128 + campaign_signal() : EXIT_USAGE;
	campaign_seeds_notes(c);
	setenv("MMFUZZ_STATS", c->stats, 1);
	setenv("MMFUZZ_CRASHES", c->crashes, 1);
	{
		char prefix[24];

		snprintf(prefix, sizeof(prefix), "%s-", c->tag);
		setenv("MMFUZZ_CRASH_PREFIX", prefix, 1);
	}
	t = calloc(1, sizeof(*t));
	if (!t || cdir_read(c->out, &t->cd) || !(t->e = exec_create())) {
		fprintf(stderr, "mmfuzz fuzz: cannot set up the triage\n");
		free(t);
		return EXIT_USAGE;
	}
	t->only_run = c->run;
	t->target = c->target;
	t->inject_set = true;
	t->inject = c->inject;
	t->sanitizer_bin = c->bin[0] && strcmp(c->target, "text") ? c->bin : NULL;
	if (!c->quiet)
		fprintf(stderr, "mmfuzz fuzz: %s on %s for %lds, %d job(s), seeds %s, findings in %s, "
			"engine log %s\n", c->engine, c->target, c->seconds, c->jobs, c->seeds, c->out,
			!strcmp(c->engine, "random") ? "(none: in this process)" : c->engine_log);
	t0 = campaign_now();
	rc = !strcmp(c->engine, "random") ? campaign_random(c, t, t0, &first)
					 : campaign_engine(c, t, t0, &first);
	if (rc) {
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	/* (crash files are executions too: a target that dies before its
	 * first stats file still ran) */
	if (!c->execs && !t->n && !t->files_seen && !campaign_signal()) {
		fprintf(stderr, "mmfuzz fuzz: the engine ran nothing; see %s\n", c->engine_log);
		exec_destroy(t->e);
		free(t);
		return EXIT_USAGE;
	}
	if (c->until_found)
		printf("first_finding_seconds: %.2f\n", first < 0 ? -1.0 : first);
	if (!c->quiet)
		fprintf(stderr, "mmfuzz fuzz: %s%d crash file(s), %d signature(s)%s\n",
			campaign_signal() ? "interrupted: " : "", t->files_seen, t->n,
			t->n ? "; minimizing one of each" : "");
	/* a crash file nothing reproduces is a flaw of the tool or of the
	 * harness (state carried from one execution to the next), never
	 * "nothing found": said even with -q, and its own exit status */
	if (t->not_reproduced)
		fprintf(stderr, "mmfuzz fuzz: %d crash file(s) did not reproduce alone, neither in "
			"the model nor in %s: kept in %s (mmfuzz triage %s runs them again)\n",
			t->not_reproduced, c->bin[0] ? c->bin : "a sanitizer build", c->crashes, c->out);
	if (t->empty_units && !c->quiet)
		fprintf(stderr, "mmfuzz fuzz: %d empty crash file(s) in %s: what libFuzzer writes when "
			"a sanitizer reports at exit (after a finding above), not inputs\n",
			t->empty_units, c->crashes);
	triage_write(t, c->out, false);
	rc = campaign_signal() ? 128 + campaign_signal() : t->n ? EXIT_FOUND :
	     t->not_reproduced ? EXIT_UNREPRODUCED : EXIT_CLEAN;
	write_summary(c, t, rc, campaign_now() - t0);
	exec_destroy(t->e);
	free(t);
	return rc;
}

int cmd_fuzz(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "engine", required_argument, 0, 'E' }, { "target", required_argument, 0, 'T' },
		{ "sanitizer", required_argument, 0, 'S' }, { "time", required_argument, 0, 't' },
		{ "jobs", required_argument, 0, 'j' }, { "inject", required_argument, 0, 'i' },
		{ "out", required_argument, 0, 'o' }, { "no-ilv", no_argument, 0, 'n' },
		{ "seed", required_argument, 0, 's' }, { "until-found", no_argument, 0, 'u' },
		{ "engine-arg", required_argument, 0, 'A' }, { "seeds", required_argument, 0, 'D' },
		{ "quiet", no_argument, 0, 'q' }, { "help", no_argument, 0, 'h' }, { 0 } };
	struct campaign c = { .engine = "libfuzzer", .target = FUZZ_DEFAULT_TARGET, .out = "findings", .jobs = 1,
				.seconds = 60, .ilv = true };
	struct run_opts ro = { 0 };
	uint64_t v;
	int opt, rc;

	c.seed = (unsigned long)time(NULL) & 0xffffffffu;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", lo, NULL)) != -1) {
		switch (opt) {
		case 'E': c.engine = optarg; break;
		case 'T': c.target = optarg; break;
		case 'S': c.sanitizer = optarg; break;
		case 'o': c.out = optarg; break;
		case 'n': c.ilv = false; break;
		case 'u': c.until_found = true; break;
		case 'D': c.seeds_from = optarg; break;
		case 'A':
			if (c.nengine_args == MAX_ENGINE_ARGS) {
				fprintf(stderr, "mmfuzz fuzz: at most %d --engine-arg\n", MAX_ENGINE_ARGS);
				return EXIT_USAGE;
			}
			c.engine_args[c.nengine_args++] = optarg;
			break;
		case 'q': c.quiet = true; break;
		case 't':
			if (parse_num("fuzz", "--time", optarg, 1, MAX_SECONDS, &v))
				return EXIT_USAGE;
			c.seconds = (long)v;
			break;
		case 'j':
			if (parse_num("fuzz", "--jobs", optarg, 1, MAX_JOBS, &v))
				return EXIT_USAGE;
			c.jobs = (int)v;
			break;
		case 's':
			/* libFuzzer's -seed and AFL++'s -s take 32 bits */
			if (parse_num("fuzz", "--seed", optarg, 0, 0xffffffffu, &v))
				return EXIT_USAGE;
			c.seed = (unsigned long)v;
			break;
		case 'i':
			if (parse_inject(optarg, &ro))
				return EXIT_USAGE;
			c.inject = ro.inject;
			break;
		case 'h':
		{
			char names[512];

			fuzz_target_names(names, sizeof(names));
			printf(fuzz_usage, names);
			return EXIT_CLEAN;
		}
		default:
			opt_error("fuzz", opt, argv);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "mmfuzz fuzz: unexpected argument '%s' (mmfuzz fuzz --help)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	if (strcmp(c.engine, "libfuzzer") && strcmp(c.engine, "afl") && strcmp(c.engine, "random")) {
		fprintf(stderr, "mmfuzz fuzz: --engine is libfuzzer, afl or random, not '%s'\n",
			c.engine);
		return EXIT_USAGE;
	}
	if (!target_lookup(c.target) && strcmp(c.target, "text")) {
		char names[512];

		fuzz_target_names(names, sizeof(names));
		fprintf(stderr, "mmfuzz fuzz: --target is one of %s (mmfuzz targets), not '%s'\n",
			names, c.target);
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
	if (!strcmp(c.engine, "random") &&
	    ((strcmp(c.target, "mm") && strcmp(c.target, "all")) || strcmp(c.sanitizer, "none"))) {
		fprintf(stderr, "mmfuzz fuzz: the random engine runs the mm seeds in this process "
			"(--target all or mm, --sanitizer none)\n");
		return EXIT_USAGE;
	}
	if (!c.seeds_from && getenv("MMFUZZ_SEEDS_DIR") && strcmp(c.target, "text")) {
		static char env_seeds[4096];

		if (snprintf(env_seeds, sizeof(env_seeds), "%s/%s", getenv("MMFUZZ_SEEDS_DIR"),
			     c.target) >= (int)sizeof(env_seeds)) {
			fprintf(stderr, "mmfuzz fuzz: MMFUZZ_SEEDS_DIR: a path too long\n");
			return EXIT_USAGE;
		}
		c.seeds_from = env_seeds;
	}
	if (c.seeds_from && !strcmp(c.target, "text")) {
		fprintf(stderr, "mmfuzz fuzz: --seeds is for the program targets, not text\n");
		return EXIT_USAGE;
	}
	if (find_root(&c)) {
		fprintf(stderr, "mmfuzz fuzz: cannot find the source tree (set MMFUZZ_ROOT)\n");
		return EXIT_USAGE;
	}
	if (!strcmp(c.engine, "libfuzzer") && campaign_engine_options(&c))
		return EXIT_USAGE;
	if (output_dir("fuzz", c.out))
		return EXIT_USAGE;
	c.run = cdir_lock("fuzz", c.out);
	if (c.run < 0)
		return EXIT_USAGE;
	if (make_dirs(&c)) {
		cdir_unlock(c.out);
		return EXIT_USAGE;
	}
	/* from here Ctrl-C stops the campaign, which writes its reproducers
	 * and exits 130; the lock goes whatever happens */
	signal(SIGINT, campaign_on_signal);
	signal(SIGTERM, campaign_on_signal);
	rc = campaign_run(&c);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	cdir_unlock(c.out);
	return rc;
}

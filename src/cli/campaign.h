// SPDX-License-Identifier: MIT
/*
 * A fuzzing campaign while it runs (campaign.c): the engine processes
 * (libFuzzer, AFL++ main and secondaries) or the random baseline in this
 * process, their output and stats files read into one progress line, and
 * the crash files classified as they appear.  cmd_fuzz.c parses the
 * options, builds the targets and reports at the end.
 */
#ifndef MMFUZZ_CLI_CAMPAIGN_H
#define MMFUZZ_CLI_CAMPAIGN_H

#include <stdbool.h>
#include <stdint.h>

#include "triage.h"

/* Seconds one execution may take before the engine calls it a hang. */
#define CAMPAIGN_EXEC_TIMEOUT 10

#define MAX_ENGINE_ARGS 16
#define MAX_ENGINE_OPTS 8	/* the [libfuzzer] lines of fuzz/fuzz_<target>.options */
#define MAX_JOBS	64	/* --jobs */
#define MAX_SECONDS	31536000L	/* --time: a year */

struct campaign {
	const char *engine, *target, *sanitizer, *out;
	const char *engine_args[MAX_ENGINE_ARGS];
	int nengine_args;
	char engine_opts[MAX_ENGINE_OPTS][128];	/* "-key=value", from the options file */
	int nengine_opts;
	int jobs;
	long seconds;
	uint64_t inject;
	bool ilv, until_found, quiet;
	unsigned long seed;
	int run;			/* its number in DIR/campaign */
	char tag[16];			/* "rN": what it writes is named so */
	char root[4096];
	char bin[4096];
	char seeds[4096];		/* the directory the engine starts from */
	const char *seeds_from;		/* --seeds DIR (text programs), or NULL */
	char notes[4200];		/* what each seed lost: NAME.txt (encode --dropped) */
	char crashes[4096];
	char stats[4200];		/* DIR/stats/rN */
	char build_log[4200];		/* DIR/logs/rN-build.log */
	char engine_log[4200];		/* DIR/logs/rN-engine.log */
	/* progress */
	unsigned long execs, execs_base, cov, ft, ilv_seen;
	unsigned long known;		/* known races met (6.6's drain), summed */
	unsigned long last_execs;	/* at the last progress line */
	double last_elapsed;
};

/* CLOCK_MONOTONIC in seconds. */
double campaign_now(void);
/* SIGINT/SIGTERM handler: the campaign stops, writes its reproducers and
 * exits 128 + the signal (130 for Ctrl-C). */
void campaign_on_signal(int sig);
/* The signal that stopped the campaign, 0 if none. */
int campaign_signal(void);

/*
 * Run the campaign from t0 until its time is up, it is interrupted, or
 * (until_found) something was found; *first gets the seconds to the first
 * finding.  0, or -1 when the engine could not run (said on stderr).
 */
/*
 * --seeds DIR: its text programs encoded (mmfuzz encode --keep-going) into
 * OUT/seeds/rN, which becomes c->seeds.  0, or -1 after saying why (a file
 * that even the seed mode cannot read is bad input).
 */
int campaign_seeds_encode(struct campaign *c);
/* Run @path (from PATH when @search) with @argv, its output appended to
 * the build log: the wait status, or -1 after saying why. */
int campaign_spawn_logged(struct campaign *c, const char *path, bool search, char *const argv[],
			  const char *what);
/* Each seed the engine gets that lost something to this tree (a yield site,
 * an operation, a key it no longer has): one line on stderr and in
 * OUT/logs/rN-seeds.log. */
void campaign_seeds_notes(struct campaign *c);
int campaign_random(struct campaign *c, struct triage *t, double t0, double *first);
int campaign_engine_options(struct campaign *c);
int campaign_engine(struct campaign *c, struct triage *t, double t0, double *first);

#endif /* MMFUZZ_CLI_CAMPAIGN_H */

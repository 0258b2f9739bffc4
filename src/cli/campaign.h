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

#define MAX_ENGINE_ARGS 16
#define MAX_JOBS	64	/* --jobs */

struct campaign {
	const char *engine, *target, *sanitizer, *out;
	const char *engine_args[MAX_ENGINE_ARGS];
	int nengine_args;
	int jobs;
	long seconds;
	uint64_t inject;
	bool ilv, until_found, quiet;
	unsigned long seed;
	char root[4096];
	char bin[4096];
	char seeds[4096];
	char crashes[4096];
	/* progress */
	unsigned long execs, execs_base, cov, ft, ilv_seen;
	double exec_rate;
};

/* CLOCK_MONOTONIC in seconds. */
double campaign_now(void);
/* SIGINT/SIGTERM handler: the campaign stops and reports what it found. */
void campaign_on_signal(int sig);

/*
 * Run the campaign from t0 until its time is up, it is interrupted, or
 * (until_found) something was found; *first gets the seconds to the first
 * finding.  0, or -1 when the engine could not run (said on stderr).
 */
int campaign_random(struct campaign *c, struct triage *t, double t0, double *first);
int campaign_engine(struct campaign *c, struct triage *t, double t0, double *first);

#endif /* MMFUZZ_CLI_CAMPAIGN_H */

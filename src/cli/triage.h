/* SPDX-License-Identifier: MIT */
/*
 * Triage: the engines' crash files grouped by signature, one per signature
 * minimized and written as a readable reproducer with its expect: line.
 */
#ifndef MMFUZZ_CLI_TRIAGE_H
#define MMFUZZ_CLI_TRIAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../prog/exec.h"
#include "campaign_dir.h"

/* A crash file that runs longer than this in triage is a hang. */
#define TRIAGE_RUN_SECONDS 20
/* Minimizing one signature's reproducer stops here with the best so far. */
#define TRIAGE_MIN_SECONDS 60
#define TRIAGE_MAX_SIGS 64

struct finding {
	char signature[128];
	char first_file[4096];		/* the smallest crash file with it */
	long first_size;
	uint64_t inject;		/* the switches it reproduces with */
	char target[16];		/* the fuzz target that ran its bytes */
	char bin[4096];			/* the fuzz target that classified it, if any */
	int count;
	bool sanitizer_only;		/* the plain model runs it clean */
	char reproducer[4096];		/* the .mmf written for it */
	int ops, preemptions;
};

/*
 * Which switches a crash file runs with: --inject's for every file when
 * given; else those of the campaign run that wrote it (its rN- tag and the
 * directory's ledger, campaign_dir.h); else, for a file no campaign of the
 * directory wrote, its own (a text's bugs: line, a binary's switch bits).
 */
struct triage {
	struct exec *e;
	struct cdir cd;			/* the campaigns of the directory */
	bool inject_set;		/* --inject given */
	uint64_t inject;
	const char *sanitizer_bin;	/* --sanitizer-bin: for every file */
	const char *target;		/* for files no campaign wrote (NULL: mm) */
	int only_run;			/* a running campaign: its own files (0: all) */
	struct finding f[TRIAGE_MAX_SIGS];
	int n;
	int files_seen;
	int not_reproduced;		/* crash files that ran clean alone */
	int empty_units;		/* empty ones of those: libFuzzer's unit at a
					 * sanitizer's exit report (TSan's "reported N
					 * warnings" after a finding), no program */
	int own_switches;		/* files no campaign here wrote */
	char seen_names[4096][64];	/* crash files already classified */
	int nseen_names;
};

/* Classify the crash files under @dir not seen yet; returns how many new
 * signatures. */
int triage_scan(struct triage *t, const char *dir);
/* Minimize one file per signature and write OUTDIR/<signature>.mmf; how
 * many were written. */
int triage_write(struct triage *t, const char *outdir, bool quiet);
/* A file name for a signature: [A-Za-z0-9_.@-], the rest as '_'. */
void signature_filename(const char *sig, char *out, size_t n);
/* Is @name (a base name, after its rN- tag) an engine's crash file? */
bool triage_is_crash_name(const char *name);

#endif /* MMFUZZ_CLI_TRIAGE_H */

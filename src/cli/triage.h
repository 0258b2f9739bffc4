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

#define TRIAGE_MAX_SIGS 64

struct finding {
	char signature[128];
	char first_file[4096];		/* the smallest crash file with it */
	long first_size;
	int count;
	bool sanitizer_only;		/* the plain model runs it clean */
	char reproducer[4096];		/* the .mmf written for it */
	int ops, preemptions;
};

struct triage {
	struct exec *e;
	uint64_t inject;		/* the campaign's switches (files' own bits ignored) */
	const char *sanitizer_bin;	/* fuzz binary to classify what the model misses */
	struct finding f[TRIAGE_MAX_SIGS];
	int n;
	int files_seen;
	int not_reproduced;		/* crash files that ran clean alone */
	char seen_names[4096][64];	/* crash files already classified */
	int nseen_names;
};

/* Classify the crash files under @dir not seen yet; returns how many new. */
int triage_scan(struct triage *t, const char *dir);
/* Minimize one file per signature and write OUTDIR/<signature>.mmf. */
int triage_write(struct triage *t, const char *outdir, bool quiet);
/* The signature of one crash file (a model violation, or the sanitizer's
 * report when the model runs it clean); "" if it does not fail. */
void triage_classify(struct triage *t, const char *path, char *sig, size_t n, bool *san_only);
/* A file name for a signature: [A-Za-z0-9_.@-], the rest as '_'. */
void signature_filename(const char *sig, char *out, size_t n);
/* Record/read the campaign's switches in DIR/campaign, for a later triage. */
void campaign_note_write(const char *dir, uint64_t inject, const char *target, const char *engine,
			 const char *sanitizer);
uint64_t campaign_note_inject(const char *dir);

#endif /* MMFUZZ_CLI_TRIAGE_H */

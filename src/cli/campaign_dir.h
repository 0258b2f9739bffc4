/* SPDX-License-Identifier: MIT */
/*
 * A campaign directory remembers every campaign that wrote to it, so that
 * triage reproduces each crash file with the switches of the campaign that
 * found it, and lets one campaign at a time write to it.
 *
 *   DIR/campaign   one line per campaign run, appended, never rewritten:
 *                  run N engine=E target=T sanitizer=S inject=a,b|none
 *                        seed=X seconds=Y started=TIME host=H bin=PATH
 *                  (bin last: the rest of the line; the fuzz target that
 *                  classifies what the model runs clean)
 *   DIR/lock       while a campaign runs: "pid P host H run N"
 *
 * Campaign N names what it writes rN-...: its crash files (DIR/crashes/
 * rN-crash-*, whoever writes them: the harness, libFuzzer's artifact prefix,
 * the random engine), its AFL++ instances (DIR/afl/rN, rN-main, rN-secK),
 * its logs (DIR/logs/rN-build.log, rN-engine.log) and stats (DIR/stats/rN).
 * fuzz/campaign writes the same lines and names.  A directory written by
 * mmfuzz before this had DIR/campaign as "inject a,b" and "key value"
 * lines: its switches apply to the files without a run tag.
 */
#ifndef MMFUZZ_CLI_CAMPAIGN_DIR_H
#define MMFUZZ_CLI_CAMPAIGN_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CDIR_MAX_RUNS 256

struct cdir_run {
	int n;
	uint64_t inject;
	bool unknown_switch;		/* a switch this mmfuzz does not know */
	char engine[16], target[16], sanitizer[16];
	char bin[4096];			/* "" if none */
};

struct cdir {
	struct cdir_run run[CDIR_MAX_RUNS];
	int nruns;
	bool old_note;			/* the old format: its switches for untagged files */
	uint64_t old_inject;
};

/* Read DIR/campaign (none: no runs).  -1 after saying why it cannot be read. */
int cdir_read(const char *dir, struct cdir *cd);
/* The run N of the ledger, or NULL. */
const struct cdir_run *cdir_find(const struct cdir *cd, int n);
/* The run a crash file belongs to, from its name ("rN-...") or an AFL++
 * instance directory on its path (".../rN[-...]/crashes/..."); 0 if none. */
int cdir_run_of(const char *path);

/*
 * Take DIR/lock for a new campaign run and return its number (one above
 * the ledger's last), or -1 after saying who holds the lock (exit 2).  A
 * lock left by a process of this host that is gone is taken over.
 */
int cdir_lock(const char *cmd, const char *dir);
void cdir_unlock(const char *dir);
/* Append run @r's line to DIR/campaign; -1 after saying why not. */
int cdir_append(const char *cmd, const char *dir, const struct cdir_run *r, unsigned long seed,
		long seconds);
/* "a,b" or "none" */
void cdir_inject_names(uint64_t inject, char *out, size_t n);

#endif /* MMFUZZ_CLI_CAMPAIGN_DIR_H */

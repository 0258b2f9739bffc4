/* SPDX-License-Identifier: MIT */
/* Shared by the subcommands: loading programs, atomic writes, options. */
#ifndef MMFUZZ_CLI_CLI_H
#define MMFUZZ_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../prog/exec.h"
#include "../prog/prog.h"

/* exit statuses */
#define EXIT_CLEAN	0
#define EXIT_FOUND	1
#define EXIT_USAGE	2

struct input {
	const char *path;
	uint8_t *data;
	size_t size;
	bool is_text;
	struct prog *prog;
};

/* Read and decode a file.  0, or -1 after printing the error (bad input:
 * "FILE:LINE:COL: message"; unreadable file). */
int input_load(struct input *in, const char *path);
void input_free(struct input *in);

/* Write @len bytes to @path through a temporary file and rename(2). */
int write_atomic(const char *path, const void *data, size_t len);

/* "--sched=input|pct:D|random:SEED|rr" into @o; -1 on a bad value. */
int parse_sched_opt(const char *v, struct run_opts *o);
/* "--inject NAME" into @o; -1 (after printing) for an unknown switch. */
int parse_inject(const char *name, struct run_opts *o);
int parse_u64(const char *s, uint64_t *out);

/*
 * The program as text, with decisions keyed to yield points: a binary
 * input's step decisions are replayed once to name them, and a schedule
 * override's choices become explicit decisions.  With @outcome, its
 * "expect:" says what happened.  Caller frees.
 */
char *program_text(struct exec *e, const struct input *in, const struct run_opts *o,
		   const struct run_result *outcome);

int cmd_run(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_minimize(int argc, char **argv);
int cmd_bugs(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_stress(int argc, char **argv);

#endif /* MMFUZZ_CLI_CLI_H */

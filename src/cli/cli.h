/* SPDX-License-Identifier: MIT */
/* Shared by the subcommands: loading programs, output paths, options. */
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
/* fuzz, triage: crash files were saved and none of them reproduces alone */
#define EXIT_UNREPRODUCED 3

struct input {
	const char *path;
	uint8_t *data;
	size_t size;
	bool is_text;
	struct prog *prog;
};

/* What a file holds: told by prog_detect_form, or forced (--text, --binary). */
enum input_form { INPUT_AUTO, INPUT_TEXT, INPUT_BINARY };

/*
 * Read and decode a file.  0, or -1 after printing the error (bad input:
 * "FILE:LINE:COL: message"; an unreadable file, a directory, an empty file,
 * text without the magic line) with nothing left allocated.
 */
int input_load(struct input *in, const char *path, enum input_form form);
/* --target T: binary inputs mean what they mean to fuzz target T (mm). */
extern const struct fuzz_target *input_target;
int input_target_opt(const char *cmd, const char *name);
/* Text inputs parsed in this mode when set (encode --keep-going: the
 * campaigns' seed mode, prog.h's struct text_mode); NULL: strict. */
extern struct text_mode *input_mode;
void input_free(struct input *in);
/* --text / --binary (@opt is "text" or "binary"); -1 for both at once. */
int input_form_opt(const char *cmd, const char *opt, enum input_form *form);

/*
 * Write @len bytes to @path.  A new name or a regular file is replaced
 * atomically (a temporary file beside it, renamed over it); a character
 * device or a FIFO (/dev/stdout, /dev/null, a pipe) is written in place; a
 * symbolic link is followed, never replaced; anything else (a directory, a
 * block device, a socket, a link to nothing) is refused.  0, or -1 after
 * saying why on stderr.  output_check() says beforehand whether
 * write_output() would refuse, so a command refuses before it works.
 */
int write_output(const char *path, const void *data, size_t len);
int output_check(const char *path);
/* A directory the command writes into, made if missing (not its parents);
 * -1 after saying why (not a directory, cannot be made). */
int output_dir(const char *cmd, const char *path);

/*
 * A number on the command line: decimal or 0x hex, nothing else, from @lo
 * to @hi.  0, or -1 after "mmfuzz CMD: bad OPT 'V': a number from LO to HI".
 */
int parse_num(const char *cmd, const char *opt, const char *s, uint64_t lo, uint64_t hi,
	      uint64_t *out);
int parse_u64(const char *s, uint64_t *out);

/* "--sched=input|pct:D[:SEED]|random:SEED|rr" into @o; -1 after saying
 * what is wrong with it. */
int parse_sched_opt(const char *cmd, const char *v, struct run_opts *o);
/* getopt_long's ':' (a missing value) or '?' (an unknown option), said
 * as "mmfuzz CMD: ..." (optstrings start with ':', opterr is 0). */
void opt_error(const char *cmd, int c, char **argv);
/* "--inject NAME" into @o; -1 (after printing) for an unknown switch. */
int parse_inject(const char *name, struct run_opts *o);

/*
 * The program as text, with decisions keyed to yield points: a binary
 * input's step decisions are replayed once to name them, and a schedule
 * override's choices become explicit decisions.  With @outcome, its
 * "expect:" says what happened.  Caller frees.
 */
char *program_text(struct exec *e, const struct input *in, const struct run_opts *o,
		   const struct run_result *outcome);

/*
 * After a run of @p with o.rec = REC_INPUT: how many of its own schedule
 * decisions never fired (passed by, or the run ended first), and in
 * @fired (p->ndec entries, may be NULL) which did.
 */
int decisions_never_fired(const struct exec *e, const struct prog *p, bool *fired);

int cmd_run(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_minimize(int argc, char **argv);
int cmd_bugs(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_stress(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_gen(int argc, char **argv);
/* The fuzz targets --target takes, "mm (default), pagealloc, ..., text"
 * (cmd_targets.c: the registry's, and the text parser). */
void fuzz_target_names(char *out, size_t n);

#endif /* MMFUZZ_CLI_CLI_H */

/* SPDX-License-Identifier: MIT */
/*
 * Which form a file holds: a text program, a binary one, or neither.  Any
 * byte string decodes as a binary program, so a text that lost its first
 * line would otherwise run as a random binary program; this tells them
 * apart before anything runs.
 *
 * The text form is recognised after an optional UTF-8 byte order mark and
 * any leading lines that are blank (spaces, tabs, CR) or comments (their
 * first other character is '#'), at the magic line: optional spaces or
 * tabs, "mmfuzz 1", then the end of the line or spacing and an optional
 * '#' comment.  The parser accepts the same lines before the magic line.
 *
 * Input that looks like text (printable ASCII or UTF-8 with tabs and line
 * ends, at least one newline, and a "task" line, a "key: value" line or a
 * line starting with "mmfuzz") but has no magic line is not a program; so
 * is empty input.  Everything else is binary.
 */
#ifndef MMFUZZ_PROG_FORM_H
#define MMFUZZ_PROG_FORM_H

#include <stddef.h>
#include <stdint.h>

enum prog_form {
	PROG_FORM_EMPTY,		/* no bytes at all */
	PROG_FORM_BINARY,
	PROG_FORM_TEXT,			/* the magic line found */
	PROG_FORM_NOT_PROGRAM,		/* text without a valid magic line */
};

/*
 * The form of @data.  For PROG_FORM_TEXT, *@line is the magic line (from
 * 1); for PROG_FORM_NOT_PROGRAM, *@line and *@col say where the magic line
 * should be: 1:1, or a line that starts with "mmfuzz" but is not it.
 */
enum prog_form prog_detect_form(const uint8_t *data, size_t size, int *line, int *col);

#endif /* MMFUZZ_PROG_FORM_H */

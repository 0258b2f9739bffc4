// SPDX-License-Identifier: MIT
/* Text, binary, or neither (see form.h). */
#include "form.h"

#include <stdbool.h>
#include <string.h>

#include "prog.h"

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static size_t line_end(const uint8_t *d, size_t size, size_t i)
{
	const uint8_t *nl = memchr(d + i, '\n', size - i);

	return nl ? (size_t)(nl - d) : size;
}

/* "mmfuzz 1", then the end of the line, or spacing and maybe a comment */
static bool is_magic(const uint8_t *p, size_t n)
{
	size_t k = strlen(TEXT_MAGIC);

	if (n < k || memcmp(p, TEXT_MAGIC, k))
		return false;
	if (k == n)
		return true;
	if (!is_space(p[k]))
		return false;
	while (k < n && is_space(p[k]))
		k++;
	return k == n || p[k] == '#';
}

/* Length of the valid UTF-8 sequence at @p (at most @n bytes), 0 if none. */
static size_t utf8_len(const uint8_t *p, size_t n)
{
	size_t len, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* "task ...", "key: value" or "mmfuzz...": a line of a program's text */
static bool is_program_line(const uint8_t *p, size_t n)
{
	size_t k = 0;

	while (k < n && is_space(p[k]))
		k++;
	p += k;
	n -= k;
	if (n >= 6 && !memcmp(p, "mmfuzz", 6))
		return true;
	if (n >= 5 && !memcmp(p, "task", 4) && is_space(p[4]))
		return true;
	for (k = 0; k < n && ((p[k] >= 'a' && p[k] <= 'z') || p[k] == '_'); k++)
		;
	return k > 0 && k < n && p[k] == ':' && (k + 1 == n || is_space(p[k + 1]));
}

static bool looks_like_text(const uint8_t *d, size_t size)
{
	bool newline = false, program_line = false;
	size_t i, start = 0;

	for (i = 0; i < size; i++) {
		uint8_t c = d[i];
		size_t k;

		if (c == '\n') {
			newline = true;
			program_line = program_line || is_program_line(d + start, i - start);
			start = i + 1;
		} else if (c >= 0x80) {
			k = utf8_len(d + i, size - i);
			if (!k)
				return false;
			i += k - 1;
		} else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			return false;
		}
	}
	program_line = program_line || is_program_line(d + start, size - start);
	return newline && program_line;
}

enum prog_form prog_detect_form(const uint8_t *data, size_t size, int *line, int *col)
{
	size_t i = 0, j, e;
	int lineno = 1;

	*line = 1;
	*col = 1;
	if (!size)
		return PROG_FORM_EMPTY;
	if (size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
		i = 3;
	/* blank lines and comments before the magic line */
	for (;;) {
		e = line_end(data, size, i);
		for (j = i; j < e && is_space(data[j]); j++)
			;
		if (j < e && data[j] != '#')
			break;
		if (e == size) {
			j = e;
			break;
		}
		i = e + 1;
		lineno++;
	}
	if (j < e && is_magic(data + j, e - j)) {
		*line = lineno;
		return PROG_FORM_TEXT;
	}
	if (e - j >= 6 && !memcmp(data + j, "mmfuzz", 6)) {
		*line = lineno;
		*col = (int)(j - i) + 1;
		return PROG_FORM_NOT_PROGRAM;
	}
	return looks_like_text(data, size) ? PROG_FORM_NOT_PROGRAM : PROG_FORM_BINARY;
}

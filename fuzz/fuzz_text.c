// SPDX-License-Identifier: MIT
/*
 * The text parser: any input is parsed or rejected with FILE:LINE:COL, never
 * a crash; what parses prints to a canonical text that parses back to
 * itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct prog p, q;
	char err[512], *text, *again;
	char *buf = malloc(size + 1);

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = 0;
	if (prog_parse_text(buf, "fuzz", &p, err, sizeof(err))) {
		if (strncmp(err, "fuzz:", 5)) {
			fprintf(stderr, "error without FILE:LINE:COL: %s\n", err);
			abort();
		}
		free(buf);
		return 0;
	}
	text = prog_print_text(&p);
	if (prog_parse_text(text, "printed", &q, err, sizeof(err))) {
		fprintf(stderr, "printed text does not parse: %s\n%s", err, text);
		abort();
	}
	again = prog_print_text(&q);
	if (strcmp(text, again)) {
		fprintf(stderr, "print(parse(print(p))) != print(p):\n%s---\n%s", text, again);
		abort();
	}
	free(again);
	free(text);
	free(buf);
	return 0;
}

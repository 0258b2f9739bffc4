// SPDX-License-Identifier: MIT
/* mmfuzz bugs: the bug switches. */
#include <stdio.h>
#include <string.h>

#include "../bugs/bugs.h"
#include "cli.h"

int cmd_bugs(int argc, char **argv)
{
	bool verbose = argc > 1 && (!strcmp(argv[1], "-v") || !strcmp(argv[1], "--verbose"));
	int i;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: mmfuzz bugs [-v]\n\nThe bug switches, one a line: name, then what it "
		       "does.\n-v adds the layer, the function it bites in and the checker "
		       "that catches it.\n");
		return EXIT_CLEAN;
	}
	if (argc > 1 && !verbose) {
		fprintf(stderr, "usage: mmfuzz bugs [-v]\n");
		return EXIT_USAGE;
	}
	for (i = 0; i < bugs_count(); i++) {
		const struct bug_info *b = bug_by_index(i);

		printf("%-22s %s\n", b->name, b->desc);
		if (verbose)
			printf("%-22s   layer %s, in %s, caught by %s\n", "", b->layer, b->where,
			       b->caught_by);
	}
	return EXIT_CLEAN;
}

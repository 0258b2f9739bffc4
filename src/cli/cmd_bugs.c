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
	for (i = 0; i < NR_BUGS; i++) {
		printf("%-22s %s\n", bug_table[i].name, bug_table[i].desc);
		if (verbose)
			printf("%-22s   layer %s, in %s, caught by %s\n", "", bug_table[i].layer,
			       bug_table[i].where, bug_table[i].caught_by);
	}
	return EXIT_CLEAN;
}

// SPDX-License-Identifier: MIT
/* cmpxchg_double's bug switch (its bit in cmpxchg_double.h). */
#include "cmpxchg_double.h"

static const struct bug_info bug_cmpxchg_double_one_word = {
	.bit = BUG_CMPXCHG_DOUBLE_ONE_WORD,
	.name = "cmpxchg_double_one_word", .layer = "kernel", .where = "cmpxchg_double",
	.caught_by = "I-FREELIST (an object handed out twice)",
	.desc = "cmpxchg_double compares the first word only: SLUB's fast path "
		"(freelist, tid) loses its ABA guard, and a task preempted between "
		"reading the freelist and the cmpxchg installs a stale next pointer",
};
BUG_SWITCH(bug_cmpxchg_double_one_word);

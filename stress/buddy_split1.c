// SPDX-License-Identifier: MIT
/*
 * buddy_split1: higher orders that split and merge.  Each iteration takes
 * a handful of blocks of random order 1..6 and gives them back in a random
 * order.  Orders 1-3 go through the pcp lists (refilled with batch >> order
 * blocks); orders 4-6 come straight from the buddy with rmqueue_buddy and go
 * back with __free_pages_ok, so every one splits a larger block (expand) and
 * merges again (__free_one_page) under zone->lock.  One op is one block
 * allocated and freed.
 */
#include "stress.h"

#define BUDDY_SPLIT1_BLOCKS	8
#define BUDDY_SPLIT1_MAX_ORDER	6

struct held_block {
	struct page *page;
	unsigned int order;
};

static void buddy_split1_testcase(struct stress_task *t)
{
	struct held_block b[BUDDY_SPLIT1_BLOCKS];

	while (stress_continue(t)) {
		int i, n = 0;

		for (i = 0; i < BUDDY_SPLIT1_BLOCKS; i++) {
			unsigned int order = 1 + (unsigned int)(rng_next(&t->rng) %
								BUDDY_SPLIT1_MAX_ORDER);
			struct page *page = stress_alloc_pages(GFP_KERNEL, order);

			if (!page)
				continue;
			stress_touch(page, order);
			b[n].page = page;
			b[n++].order = order;
		}
		/* Fisher-Yates: merges happen in every order, not only LIFO */
		for (i = n - 1; i > 0; i--) {
			int j = (int)(rng_next(&t->rng) % (uint64_t)(i + 1));
			struct held_block tmp = b[i];

			b[i] = b[j];
			b[j] = tmp;
		}
		for (i = 0; i < n; i++)
			__free_pages(b[i].page, b[i].order);
		stress_count(t, (unsigned long long)n);
	}
}

static const struct stress_workload stress_buddy_split1 = {
	.name = "buddy_split1",
	.description = "Order 1-6 blocks split from and merged back into the buddy lists",
	.testcase = buddy_split1_testcase,
};
STRESS_WORKLOAD(stress_buddy_split1);

// SPDX-License-Identifier: MIT
/*
 * drain1: drain_all_pages() and pcp high/batch updates while the others
 * allocate.  Task 0 drains every CPU's pcp lists, as direct reclaim and
 * memory hotplug do, and every 64th time switches every pcp between two
 * high/batch settings, as the percpu_pagelist_high_fraction sysctl does;
 * the other tasks run pcp_alloc1's loop, so each remote drain takes a pcp
 * lock its owner is using.  With a single task, task 0 does both.
 * One op is one page allocated and freed, or one drain_all_pages().
 */
#include "stress.h"

#include <stdlib.h>

#define DRAIN1_PAGES		256	/* pcp_alloc1's region */
#define DRAIN1_SWITCH_EVERY	64

static int drain1_prepare(struct stress_run *r, unsigned long tasks)
{
	unsigned long i;

	for (i = 0; i < tasks; i++) {
		r->tasks[i].priv = stress_task_calloc(DRAIN1_PAGES, sizeof(struct page *));
		if (!r->tasks[i].priv)
			return -1;
	}
	return 0;
}

static void drain1_testcase(struct stress_task *t)
{
	struct zone *zone = zone_by_idx(t->run->w, 0);
	int high = pa_world(t->run->w)->cfg.pcp_high, batch = pa_world(t->run->w)->cfg.pcp_batch;
	struct page **pages = t->priv;
	unsigned long drains = 0;

	while (stress_continue(t)) {
		if (t->nr != 0 || t->run->ntasks == 1)
			stress_count(t, stress_alloc_free_batch(pages, DRAIN1_PAGES, 0));
		if (t->nr != 0)
			continue;
		drain_all_pages(NULL);
		if (++drains % DRAIN1_SWITCH_EVERY == 0) {
			bool small = (drains / DRAIN1_SWITCH_EVERY) & 1;

			zone_pcp_set_high_batch(zone, small ? high / 4 : high,
						small ? max(batch / 4, 1) : batch);
		}
		stress_count(t, 1);
	}
}

static void drain1_cleanup(struct stress_run *r)
{
	unsigned long i;

	for (i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].priv);
		r->tasks[i].priv = NULL;
	}
}

static const struct stress_workload stress_drain1 = {
	.name = "drain1",
	.description = "drain_all_pages and pcp high/batch updates while the others allocate",
	.prepare = drain1_prepare,
	.testcase = drain1_testcase,
	.cleanup = drain1_cleanup,
};
STRESS_WORKLOAD(stress_drain1);

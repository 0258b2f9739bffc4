/* SPDX-License-Identifier: MIT */
/*
 * A small world for the model's unit tests, run sequentially by one
 * real-mode task with every under-lock checker attached (and the pages it
 * holds unknown to the shadow: check_final() after all are freed, not
 * check_quiescent()): a violation longjmps to the test's handler
 * (setjmp(mm_test_jb)).
 */
#ifndef MMFUZZ_TESTS_MM_WORLD_H
#define MMFUZZ_TESTS_MM_WORLD_H

#include <setjmp.h>
#include <string.h>

#include "check/check.h"
#include "mm/internal.h"

static struct task mm_test_task;
static jmp_buf mm_test_jb;

/* The signature of the violation @fn(@arg) raises, or NULL (the test's
 * handler restored after). */
static inline const char *mm_violation_of(void (*fn)(void *), void *arg)
{
	static jmp_buf jb;
	jmp_buf *saved = mm_test_task.exit_jb;
	const char *sig = NULL;

	violation_reset();
	mm_test_task.exit_jb = &jb;
	if (!setjmp(jb))
		fn(arg);
	else
		sig = g_violation.signature;
	mm_test_task.exit_jb = saved;
	return sig;
}

/* @tune may change the default config before the world is built. */
static inline struct world *mm_test_boot(void (*tune)(struct mm_config *))
{
	struct mm_config cfg;
	struct world *w;

	config_default(&cfg);
	config_set(&cfg, &ck_cpus, 1);
	if (tune)
		tune(&cfg);
	if (world_create(&cfg, &w))
		return NULL;
	shadow_run_begin(w, 1);
	check_run_begin(w);
	memset(&mm_test_task, 0, sizeof(mm_test_task));
	mm_test_task.exit_jb = &mm_test_jb;
	current_task = &mm_test_task;
	violation_reset();
	return w;
}

static inline unsigned long mm_nr_free(struct world *w, int zone, int order)
{
	return zone_by_idx(w, zone)->free_area[order].nr_free;
}

static inline bool mm_is_free_block(unsigned long pfn, int order)
{
	struct page *page = pfn_to_page(pfn);

	return PageBuddy(page) && buddy_order(page) == (unsigned int)order;
}

/* the pageblock type of @pfn */
static inline int mm_pb_type(unsigned long pfn)
{
	return get_pfnblock_migratetype(pfn_to_page(pfn), pfn);
}

/* every pcp back to the buddy (from this task's CPU and the others) */
static inline void mm_drain(struct world *w)
{
	int cpu, saved = mm_test_task.cpu;

	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		mm_test_task.cpu = cpu;
		preempt_disable();
		drain_local_pages(NULL);
		preempt_enable();
	}
	mm_test_task.cpu = saved;
}

/* fold every CPU's vmstat differentials */
static inline void mm_fold(struct world *w)
{
	int cpu, saved = mm_test_task.cpu;

	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		mm_test_task.cpu = cpu;
		refresh_cpu_vm_stats(false);
	}
	mm_test_task.cpu = saved;
}

/* pages on node 0's first zone's free lists, every order */
static inline long mm_zone0_free_pages(struct world *w)
{
	long n = 0;
	int o;

	for (o = 0; o <= pa_world(w)->max_order; o++)
		n += (long)mm_nr_free(w, 0, o) << o;
	return n;
}

#endif /* MMFUZZ_TESTS_MM_WORLD_H */

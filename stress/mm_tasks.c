// SPDX-License-Identifier: MIT
/*
 * What the address-space workloads share (page_fault1, brk1, mmap1,
 * tlb_flush2): the mms the tasks run in, the pages of the loop itself, the
 * machine they need, and the end of a task (exit_mm).
 *
 * Process mode gives each task an mm of its own (mm_alloc: at most the
 * layer's TLB_MAX_MMS); thread mode gives every task the one mm, with a
 * user reference each (mmget), as threads of one process hold it.  Each mm
 * maps a read-only page for the loop's code and a stack page per task;
 * stress_mm_user() reads the one and writes the other, the user half of
 * will-it-scale's loop around each system call: that loads the mm on the
 * task's CPU (switch_mm, mm_cpumask), fills its TLB, and lets a flush of
 * the mm cost what it costs a machine, a TLB miss at the next access.
 *
 * Prepare runs on the runner before the tasks exist; each task's state
 * (t->priv) is its own afterwards.  Nothing here takes a lock of its own:
 * the model's entry points take theirs (mm_types.h).
 */
#include "stress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../src/kernel/rcupdate.h"

/* The loop's code and stack beside the regions: pages and their tables. */
#define MM_LOOP_PAGES	16

/*
 * Pages one task may hold through the model at once for @region: the
 * region, its PTE tables (one a PTRS_PER_PTE pages), the gather's batch
 * pages while munmap zaps it (MAX_GATHER_BATCH = 6 pointers a 64-byte
 * page: a sixth), and the tables and table-batch pages of the two last
 * munmaps still waiting for their grace period (liburcu's call_rcu is
 * behind the task by a few milliseconds).  13/8 of the region covers it
 * on an idle machine; when the callback thread falls further behind (it
 * shares a core with a task), a fault that finds the zone short waits for
 * the grace period in direct reclaim instead of failing (docs/reclaim.md).
 */
static unsigned long pages_per_task(unsigned long region)
{
	return region * 13 / 8 + MM_LOOP_PAGES;
}

/* What the pcp lists of every CPU may hold, and a block of slack. */
static unsigned long zone_need(const struct mm_config *cfg, unsigned long tasks,
			       unsigned long region)
{
	unsigned long pcp = (unsigned long)config_get(cfg, &ck_cpus) *
			    (unsigned long)config_get(cfg, &ck_pcp_high);

	return tasks * pages_per_task(region) + pcp + 1024;
}

static unsigned long mm_pages_need(const struct stress_opts *o, unsigned long region)
{
	unsigned long per_mm = o->process_mode ? 1 : o->tasks;
	unsigned long need = per_mm * (region + 1) + MM_LOOP_PAGES;

	/* whole PTE tables, and the brk area below a quarter of the space */
	need = (need + need / 3 + 7) & ~7UL;
	return max(need, 64UL);
}

void stress_mm_configure(const struct stress_opts *o, struct mm_config *cfg,
			 unsigned long region_pages)
{
	unsigned long zone = (unsigned long)config_get(cfg, &ck_zone_pages);
	unsigned long need = zone_need(cfg, o->tasks, region_pages);
	long given;

	/* a larger zone unless --zone-pages said which: whole max-order blocks */
	if (!stress_opts_get(o, &ck_zone_pages, &given) && need > zone)
		config_set(cfg, &ck_zone_pages, (long)min((need + 1023) & ~1023UL, 65536UL));
	config_set(cfg, &ck_mm_pages, (long)min(mm_pages_need(o, region_pages), 65536UL));
}

static int map_loop_pages(struct stress_run *r, struct mm_struct *mm, unsigned long first,
			  unsigned long n)
{
	unsigned long text, stack, i;

	text = vm_mmap(mm, 0, PAGE_SIZE, PROT_READ, MAP_ANONYMOUS | MAP_PRIVATE);
	stack = vm_mmap(mm, 0, n * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE);
	if (IS_ERR_VALUE(text) || IS_ERR_VALUE(stack)) {
		fprintf(stderr, "mmfuzz stress: %s: cannot map the loop's pages: %ld\n",
			r->o->wl->name, (long)(IS_ERR_VALUE(text) ? text : stack));
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct stress_mm_task *mt = STRESS_MM_TASK(&r->tasks[first + i]);

		mt->mm = mm;
		mt->text = text;
		mt->stack = stack + i * PAGE_SIZE;
	}
	return 0;
}

int stress_mm_prepare(struct stress_run *r, unsigned long tasks, unsigned long region_pages)
{
	const struct stress_opts *o = r->o;
	unsigned long zone = pa_world(r->w)->cfg.zone_pages, need, nmm, i;
	struct mm_struct *mm = NULL;

	if (o->process_mode && tasks > TLB_MAX_MMS) {
		fprintf(stderr, "mmfuzz stress: %s: %lu processes, but the model holds %d mms at "
			"once (TLB_MAX_MMS): at most %d tasks in process mode\n", o->wl->name,
			tasks, TLB_MAX_MMS, TLB_MAX_MMS);
		return -1;
	}
	need = zone_need(&r->w->config, tasks, region_pages);
	if (need > zone || mm_pages_need(o, region_pages) > 65536) {
		fprintf(stderr, "mmfuzz stress: %s: %lu tasks of %lu-page regions need %lu pages "
			"and %lu virtual pages an mm; the zone has %lu (at most 65536), an mm at "
			"most 65536: fewer tasks\n", o->wl->name, tasks, region_pages, need,
			mm_pages_need(o, region_pages), zone);
		return -1;
	}
	for (i = 0; i < tasks; i++) {
		r->tasks[i].priv = stress_task_calloc(1, sizeof(struct stress_mm_task));
		if (!r->tasks[i].priv)
			return -1;
	}
	nmm = o->process_mode ? tasks : 1;
	for (i = 0; i < nmm; i++) {
		mm = mm_alloc();
		if (!mm) {
			fprintf(stderr, "mmfuzz stress: %s: mm_alloc failed\n", o->wl->name);
			return -1;
		}
		if (map_loop_pages(r, mm, o->process_mode ? i : 0, o->process_mode ? 1 : tasks))
			return -1;
	}
	/* threads: a user reference each (the first is mm_alloc's) */
	for (i = 1; !o->process_mode && i < tasks; i++)
		mmget(mm);
	return 0;
}

void stress_mm_user(struct stress_task *t)
{
	struct stress_mm_task *mt = STRESS_MM_TASK(t);
	int err;

	err = user_access(mt->mm, mt->text, false);
	if (!err)
		err = user_access(mt->mm, mt->stack, true);
	if (unlikely(err))
		stress_mm_assert(t, "the loop's own code or stack: access %d", err);
}

void stress_mm_exit(struct stress_task *t)
{
	struct stress_mm_task *mt = STRESS_MM_TASK(t);

	if (mt && mt->mm && !mt->exited) {
		mt->exited = true;
		exit_mm(mt->mm);
	}
}

/*
 * The page tables munmap freed wait for a grace period in their table
 * batch (call_rcu), which no owner source lists outside the checkers'
 * hooks (off in stress mode): let them go before the check.
 */
void stress_mm_quiesce(struct stress_run *r)
{
	(void)r;
	rcu_register_thread();
	rcu_barrier();
	rcu_unregister_thread();
}

/* After the tasks ended: each exited its mm (exit_mm) unless it never ran
 * its loop; the CPUs let go of theirs at the drain (tlb_drain). */
void stress_mm_cleanup(struct stress_run *r)
{
	unsigned long i;

	for (i = 0; i < r->ntasks; i++) {
		struct stress_mm_task *mt = STRESS_MM_TASK(&r->tasks[i]);

		if (mt && mt->mm && !mt->exited) {
			r->runner.cpu = r->tasks[i].task.cpu;
			stress_mm_exit(&r->tasks[i]);
		}
		free(mt);
		r->tasks[i].priv = NULL;
	}
}

void stress_mm_print_config(struct stress_run *r, FILE *out, unsigned long region_pages)
{
	const struct mm_config *c = &r->w->config;

	fprintf(out, "config.region_pages: %lu\n", region_pages);
	fprintf(out, "config.mm_pages: %ld\n", config_get(c, &ck_mm_pages));
	fprintf(out, "config.tlb_entries: %ld\n", config_get(c, &ck_tlb_entries));
	fprintf(out, "config.tlb_single_page_flush_ceiling: %ld\n",
		config_get(c, &ck_tlb_ceiling));
	fprintf(out, "config.tlb_asids: %ld\n", config_get(c, &ck_tlb_asids));
	fprintf(out, "config.gather_batch_count: %ld\n", config_get(c, &ck_gather_batch_count));
}

void stress_mm_assert(struct stress_task *t, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sched_violation("assert", t->run->o->wl->name, "%s", msg);
	__builtin_unreachable();
}

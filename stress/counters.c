// SPDX-License-Identifier: MIT
/*
 * The model's counters as LKP-style "key: value" stats, printed after
 * average: so will-it-scale's parsers skip them: the mm_stat items by their
 * names, vm events, and the lock statistics of zone->lock and of the pcp
 * locks (acquisitions, contended acquisitions, failed trylocks, hold time).
 *
 * Snapshots are taken while the tasks are parked (quiesce.c), so the plain
 * counters the lock holders update are read in order, not racily.  The
 * last snapshot also says where the pages on the per-CPU lists are: how
 * many, and how many runs of consecutive pfns each CPU's form (one run a
 * CPU: no CPU's struct pages sit beside another's).  Hold
 * time is kept in TSC cycles and turned into ns with the TSC rate measured
 * between the two snapshots.  The address-space workloads add the TLB
 * gather layer's counters and what they come to per operation.
 */
#include "stress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void stress_tlb_snap(struct world *w, struct stress_snap *s);

/*
 * The CPU time the task threads used (their thread CPU clocks).  On a
 * machine other jobs share, ops/s falls with the time the tasks wait for
 * a CPU; operations per CPU second of the tasks do not, and the ratio of
 * that at 2 tasks to 1 task is how well the model scales when each task
 * has a CPU: shared lines and spinning waits cost CPU time, waiting for a
 * CPU costs none.
 */
static uint64_t stress_task_cpu_ns(const struct stress_run *r)
{
	uint64_t sum = 0;
	unsigned long i;

	for (i = 0; i < r->nstarted; i++) {
		struct timespec ts;
		clockid_t cid;

		if (pthread_getcpuclockid(r->tasks[i].thread, &cid) ||
		    clock_gettime(cid, &ts))
			continue;
		sum += (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	return sum;
}

uint64_t stress_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void snap_quiesce(struct stress_run *r, void *arg)
{
	(void)arg;
	r->o->wl->quiesce(r);
}

void stress_snap_take(struct stress_run *r, struct stress_snap *s)
{
	struct world *w = r->w;
	int i, z, cpu;

	/* the tasks are parked (or not yet made), but what they left to other
	 * threads (RCU callbacks freeing page tables) may still run: finish it,
	 * so the reads below come after its writes */
	if (r->o->wl->quiesce)
		stress_as_runner(r, snap_quiesce, NULL);
	memset(s, 0, sizeof(*s));
	for (i = 0; i < NR_MM_STAT_ITEMS; i++)
		s->mm[i] = mm_stat_sum((enum mm_stat_item)i);
	s->pgalloc = sum_vm_event(PGALLOC);
	s->pgfree = sum_vm_event(PGFREE);
	for (z = 0; z < pa_world(w)->nr_zones; z++) {
		const struct lock_stat *st = &zone_by_idx(w, z)->lock.st;

		s->zone_acquired += st->acquired;
		s->zone_contended += __atomic_load_n(&st->contended, __ATOMIC_RELAXED);
		s->zone_trylock_failed += __atomic_load_n(&st->trylock_failed, __ATOMIC_RELAXED);
		s->zone_hold_cycles += st->hold_cycles;
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
			const struct lock_stat *p = &zone_by_idx(w, z)->per_cpu_pageset[cpu].lock.st;

			s->pcp_acquired += p->acquired;
			s->pcp_contended += __atomic_load_n(&p->contended, __ATOMIC_RELAXED);
			s->pcp_trylock_failed += __atomic_load_n(&p->trylock_failed,
								 __ATOMIC_RELAXED);
		}
	}
	stress_pcp_layout(w, &s->pcp_pages, &s->pcp_runs);
	stress_tlb_snap(w, s);
	s->task_cpu_ns = stress_task_cpu_ns(r);
	s->ntasks = r->nstarted;
	s->tsc = __lock_tsc();
	s->ns = stress_now_ns();
}

_Static_assert(MAX_CPUS < 255, "a CPU + 1 fits the owner byte");

void stress_pcp_layout(struct world *w, unsigned long *pages, unsigned long *runs)
{
	unsigned char *owner = calloc(pa_world(w)->nr_pages, 1);
	unsigned long pfn;
	int z, cpu, i;

	*pages = *runs = 0;
	if (!owner)
		return;
	for (z = 0; z < pa_world(w)->nr_zones; z++) {
		for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
			struct per_cpu_pages *pcp = &zone_by_idx(w, z)->per_cpu_pageset[cpu];

			for (i = 0; i < NR_PCP_LISTS; i++) {
				struct page *page;

				list_for_each_entry(page, &pcp->lists[i], pcp_list) {
					owner[page_to_pfn(page)] = (unsigned char)(cpu + 1);
					(*pages)++;
				}
			}
		}
	}
	for (pfn = 0; pfn < pa_world(w)->nr_pages; pfn++)
		if (owner[pfn] && (!pfn || owner[pfn] != owner[pfn - 1]))
			(*runs)++;
	free(owner);
}

/*
 * The TLB gather layer's counters (tlb_stat_item, summed over the CPUs)
 * and the mms' tlb_flush_pending now, when the workload made mms.
 */
static void stress_tlb_snap(struct world *w, struct stress_snap *s)
{
	struct tlb_world *tw = tlb_world_of(w);
	int i;

	s->tlb_used = READ_ONCE(tw->used);
	if (!s->tlb_used)
		return;
	for (i = 0; i < NR_TLB_STAT_ITEMS; i++)
		s->tlb[i] = tlb_stat_sum((enum tlb_stat_item)i);
	for (i = 0; i < TLB_MAX_MMS; i++)
		if (!(tw->mm_free & (1UL << i)) && tw->mms[i].live)
			s->tlb_flush_pending += mm_tlb_flush_pending_count(&tw->mms[i]);
}

static double per_op(unsigned long n, unsigned long long ops)
{
	return ops ? (double)n / (double)ops : 0.0;
}

/*
 * Flushes by kind (local full and one-page, sent to other CPUs, received
 * there and full there), IPIs, the TLB's hits and misses, faults, gathers
 * and their fallbacks; then what a flush costs per operation, and the
 * mms' tlb_flush_pending at the end (state: 0 when no gather is live).
 */
static void stress_tlb_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			     unsigned long long ops)
{
	int i;

	if (!b->tlb_used)
		return;
	for (i = 0; i < NR_TLB_STAT_ITEMS; i++)
		fprintf(out, "model.%s: %lu\n", tlb_stat_names[i], b->tlb[i] - a->tlb[i]);
	fprintf(out, "model.tlb_flush_full_per_op: %.3f\n",
		per_op(b->tlb[TLB_FLUSH_REQUESTS_FULL] - a->tlb[TLB_FLUSH_REQUESTS_FULL], ops));
	fprintf(out, "model.tlb_ipi_per_op: %.3f\n",
		per_op(b->tlb[TLB_IPI_SENT] - a->tlb[TLB_IPI_SENT], ops));
	fprintf(out, "model.tlb_miss_per_op: %.3f\n",
		per_op(b->tlb[TLB_MISS] - a->tlb[TLB_MISS], ops));
	fprintf(out, "model.tlb_flush_pending: %ld\n", b->tlb_flush_pending);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* How much of the run the tasks had a CPU, and what they did with it. */
static void stress_cpu_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			     uint64_t run_ns, unsigned long long ops)
{
	double cpu_ns = (double)(b->task_cpu_ns - a->task_cpu_ns);
	unsigned long ntasks = b->ntasks ? b->ntasks : 1;

	/* 100: every task on a CPU all the time; less: they waited for one */
	fprintf(out, "stress.task_cpu%%: %.1f\n", pct(cpu_ns, (double)run_ns * (double)ntasks));
	fprintf(out, "stress.ops_per_task_cpu_s: %.0f\n",
		cpu_ns > 0 ? (double)ops * 1e9 / cpu_ns : 0.0);
}

void stress_counters_print(FILE *out, const struct stress_snap *a, const struct stress_snap *b,
			   uint64_t run_ns, unsigned long long ops)
{
	double ns_per_cycle = b->tsc > a->tsc ? (double)(b->ns - a->ns) / (double)(b->tsc - a->tsc)
					      : 0.0;
	unsigned long acquired = b->zone_acquired - a->zone_acquired;
	unsigned long contended = b->zone_contended - a->zone_contended;
	double hold_ns = (double)(b->zone_hold_cycles - a->zone_hold_cycles) * ns_per_cycle;
	int i;

	for (i = 0; i < NR_MM_STAT_ITEMS; i++)
		fprintf(out, "model.%s: %lu\n", mm_stat_names[i], b->mm[i] - a->mm[i]);
	fprintf(out, "model.pgalloc: %lu\n", b->pgalloc - a->pgalloc);
	fprintf(out, "model.pgfree: %lu\n", b->pgfree - a->pgfree);
	fprintf(out, "model.zone_lock.acquired: %lu\n", acquired);
	fprintf(out, "model.zone_lock.contended: %lu\n", contended);
	fprintf(out, "model.zone_lock.contended%%: %.2f\n", pct((double)contended, (double)acquired));
	fprintf(out, "model.zone_lock.trylock_failed: %lu\n",
		b->zone_trylock_failed - a->zone_trylock_failed);
	fprintf(out, "model.zone_lock.hold_ns: %.0f\n", hold_ns);
	fprintf(out, "model.zone_lock.hold_ns_per_acquire: %.1f\n",
		acquired ? hold_ns / (double)acquired : 0.0);
	/* the share of the run zone->lock was held: 100 is one CPU's worth */
	fprintf(out, "model.zone_lock.busy%%: %.2f\n", pct(hold_ns, (double)run_ns));
	fprintf(out, "model.pcp_lock.acquired: %lu\n", b->pcp_acquired - a->pcp_acquired);
	fprintf(out, "model.pcp_lock.contended: %lu\n", b->pcp_contended - a->pcp_contended);
	fprintf(out, "model.pcp_lock.trylock_failed: %lu\n",
		b->pcp_trylock_failed - a->pcp_trylock_failed);
	/* state at the end, not a count over the measurement */
	fprintf(out, "model.pcp_pages: %lu\n", b->pcp_pages);
	fprintf(out, "model.pcp_page_runs: %lu\n", b->pcp_runs);
	stress_tlb_print(out, a, b, ops);
	stress_cpu_print(out, a, b, run_ns, ops);
}

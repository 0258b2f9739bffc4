// SPDX-License-Identifier: MIT
/*
 * The page allocator's counters for the stress runner (world_layer
 * stat_snap and stat_print, layer.h): the mm_stat items by their names, vm
 * events, and the lock statistics of zone->lock and of the pcp locks
 * (acquisitions, contended acquisitions, failed trylocks, hold time).
 *
 * Snapshots are taken while the tasks are parked, so the plain counters
 * the lock holders update are read in order, not racily.  The last
 * snapshot also says where the pages on the per-CPU lists are: how many,
 * and how many runs of consecutive pfns each CPU's form (one run a CPU: no
 * CPU's struct pages sit beside another's).  Hold time is kept in TSC
 * cycles and turned into ns with the TSC rate over the measurement.
 */
#include "internal.h"

#include <stdlib.h>

_Static_assert(MAX_CPUS < 255, "a CPU + 1 fits the owner byte");

void pcp_layout(struct world *w, unsigned long *pages, unsigned long *runs)
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

void pagealloc_stat_snap(struct world *w, void *snap)
{
	struct pagealloc_stat *s = snap;
	int i, z, cpu;

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
	pcp_layout(w, &s->pcp_pages, &s->pcp_runs);
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

void pagealloc_stat_print(FILE *out, const void *sa, const void *sb,
			  const struct layer_stat_span *span)
{
	const struct pagealloc_stat *a = sa, *b = sb;
	unsigned long acquired = b->zone_acquired - a->zone_acquired;
	unsigned long contended = b->zone_contended - a->zone_contended;
	double hold_ns = (double)(b->zone_hold_cycles - a->zone_hold_cycles) * span->ns_per_cycle;
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
	fprintf(out, "model.zone_lock.busy%%: %.2f\n", pct(hold_ns, (double)span->run_ns));
	fprintf(out, "model.pcp_lock.acquired: %lu\n", b->pcp_acquired - a->pcp_acquired);
	fprintf(out, "model.pcp_lock.contended: %lu\n", b->pcp_contended - a->pcp_contended);
	fprintf(out, "model.pcp_lock.trylock_failed: %lu\n",
		b->pcp_trylock_failed - a->pcp_trylock_failed);
	/* state at the end, not a count over the measurement */
	fprintf(out, "model.pcp_pages: %lu\n", b->pcp_pages);
	fprintf(out, "model.pcp_page_runs: %lu\n", b->pcp_runs);
}

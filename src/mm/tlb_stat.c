// SPDX-License-Identifier: MIT
/*
 * The TLB gather layer's counters for the stress runner (world_layer
 * stat_snap and stat_print, layer.h): tlb_stat_item summed over the CPUs,
 * and the mms' tlb_flush_pending now, when the workload made mms.
 */
#include "tlb.h"

void tlb_stat_snap(struct world *w, void *snap)
{
	struct tlb_stat *s = snap;
	struct tlb_world *tw = tlb_world_of(w);
	int i;

	s->used = READ_ONCE(tw->used);
	if (!s->used)
		return;
	for (i = 0; i < NR_TLB_STAT_ITEMS; i++)
		s->tlb[i] = tlb_stat_sum((enum tlb_stat_item)i);
	for (i = 0; i < TLB_MAX_MMS; i++)
		if (!(tw->mm_free & (1UL << i)) && tw->mms[i].live)
			s->flush_pending += mm_tlb_flush_pending_count(&tw->mms[i]);
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
void tlb_stat_print(FILE *out, const void *sa, const void *sb, const struct layer_stat_span *span)
{
	const struct tlb_stat *a = sa, *b = sb;
	unsigned long long ops = span->ops;
	int i;

	if (!b->used)
		return;
	for (i = 0; i < NR_TLB_STAT_ITEMS; i++)
		fprintf(out, "model.%s: %lu\n", tlb_stat_names[i], b->tlb[i] - a->tlb[i]);
	fprintf(out, "model.tlb_flush_full_per_op: %.3f\n",
		per_op(b->tlb[TLB_FLUSH_REQUESTS_FULL] - a->tlb[TLB_FLUSH_REQUESTS_FULL], ops));
	fprintf(out, "model.tlb_ipi_per_op: %.3f\n",
		per_op(b->tlb[TLB_IPI_SENT] - a->tlb[TLB_IPI_SENT], ops));
	fprintf(out, "model.tlb_miss_per_op: %.3f\n",
		per_op(b->tlb[TLB_MISS] - a->tlb[TLB_MISS], ops));
	fprintf(out, "model.tlb_flush_pending: %ld\n", b->flush_pending);
}

// SPDX-License-Identifier: MIT
/*
 * The TLB checker's memory for a world (tlb.c's checks read and write it):
 * the per-pfn table shadow tables[] and, for each of the TLB_MAX_MMS mm
 * slots, five per-page arrays (done[]: when a gather last flushed the
 * page's PTE, ubc[]: reclaim's deferred flush, faulted[]: when the PTE was
 * last faulted in, zapped[]: when a zap cleared it, cowed[]: when a write
 * fault last copied the zero page there).  A slot's part of the
 * five is cleared when the slot holds a new mm, in the 64-entry chunks
 * written since (slot_array), and is open for ASan only once a world's mm
 * has taken the slot: most runs take a few of the sixteen.
 *
 * No lock: the slot's owner is the mm's users; slots_open, done_ctx and
 * chunk_dirty are atomics (two tasks opening one slot at once is harmless).
 */
#include "check.h"

#include <errno.h>
#include <string.h>

#include "tlb_check.h"

struct tlb_check_world *tcw(void)
{
	return world_layer_state(mm_world, &tlb_check_layer);
}

static int tlb_check_create(struct world *w, const struct mm_config *c)
{
	struct tlb_check_world *s = world_layer_state(w, &tlb_check_layer);
	unsigned long i, k;

	s->nr_pages = pa_world(w)->nr_pages;
	s->task_pages = (unsigned long)config_get(c, &ck_mm_pages);
	s->tables = world_calloc(pa_world(w)->nr_pages, sizeof(*s->tables));
	/* a slot's part is cleared when the slot holds a new mm (slot_array:
	 * done_ctx is 0 at the start of every run, no mm's ctx_id is), and
	 * unpoisoned for ASan when the world's first mm takes the slot (most
	 * runs take a few of the 16 slots: ASan's shadow of all of the four
	 * cost more than clearing them, at every world built) */
	s->done = world_malloc_poisoned(TLB_MAX_MMS * s->task_pages, sizeof(*s->done));
	s->ubc = world_malloc_poisoned(TLB_MAX_MMS * s->task_pages, sizeof(*s->ubc));
	s->faulted = world_malloc_poisoned(TLB_MAX_MMS * s->task_pages, sizeof(*s->faulted));
	s->zapped = world_malloc_poisoned(TLB_MAX_MMS * s->task_pages, sizeof(*s->zapped));
	s->cowed = world_malloc_poisoned(TLB_MAX_MMS * s->task_pages, sizeof(*s->cowed));
	if (s->task_pages > TLB_CHUNK_WORDS * 64 * 64)
		return -EINVAL;
	for (i = 0; i < TLB_MAX_MMS; i++)
		for (k = 0; k < (s->task_pages + 63) / 64; k++)
			s->chunk_dirty[i][k / 64] |= 1ULL << (k % 64);
	return s->tables && s->done && s->ubc && s->faulted && s->zapped && s->cowed ? 0 : -ENOMEM;
}

/* Slot @i's part of done[], ubc[], faulted[], zapped[] and cowed[], for ASan (in
 * the fuzz builds this file is not built for ASan: src/world/world.c's calls) */
static __sched_notsan void slot_poison(struct tlb_check_world *s, int i, bool poison)
{
	u64 *const a[] = { s->done, s->ubc, s->faulted, s->zapped, s->cowed };
	size_t k, at = (size_t)i * s->task_pages;

	for (k = 0; k < sizeof(a) / sizeof(a[0]); k++) {
		if (!a[k])
			continue;
		if (poison)
			world_mem_close(a[k] + at, s->task_pages * sizeof(u64));
		else
			world_mem_open(a[k] + at, s->task_pages * sizeof(u64));
	}
}

static void tlb_check_destroy(struct world *w)
{
	struct tlb_check_world *s = world_layer_state(w, &tlb_check_layer);
	int i;

	/* tables[] is zero but where dirty says (tlb_run_begin): the next
	 * world's world_calloc clears none of it */
	if (s->tables && s->dirty)
		memset(s->tables, 0, s->nr_pages * sizeof(*s->tables));
	world_free_zeroed(s->tables);
	for (i = 0; i < TLB_MAX_MMS; i++)
		if (s->slots_open & (1UL << i))
			slot_poison(s, i, true);
	world_free_poisoned(s->done);
	world_free_poisoned(s->ubc);
	world_free_poisoned(s->faulted);
	world_free_poisoned(s->zapped);
	world_free_poisoned(s->cowed);
}

struct world_layer tlb_check_layer = {
	.name = "tlbcheck", .order = 1001, .state_size = sizeof(struct tlb_check_world),
	.create = tlb_check_create, .destroy = tlb_check_destroy,
};
WORLD_LAYER(tlb_check_layer);

/*
 * done[], ubc[], faulted[], zapped[] and cowed[] of @mm's slot, cleared when the
 * slot holds a new mm: the chunks written since the last clear (an entry
 * is written only through slot_entry, which marks its chunk; an unmarked
 * chunk is all zero), not all mm_pages entries of the five.
 */
__sched_notsan u64 *slot_array(struct tlb_check_world *s, u64 *base, struct mm_struct *mm)
{
	size_t at = (size_t)mm->slot * s->task_pages, c, n;
	int wd;

	if (!(__atomic_load_n(&s->slots_open, __ATOMIC_ACQUIRE) & (1UL << mm->slot))) {
		slot_poison(s, mm->slot, false);	/* twice at once is harmless */
		__atomic_fetch_or(&s->slots_open, 1UL << mm->slot, __ATOMIC_RELEASE);
	}
	if (__atomic_load_n(&s->done_ctx[mm->slot], __ATOMIC_RELAXED) != mm->context.ctx_id) {
		for (wd = 0; wd < TLB_CHUNK_WORDS; wd++) {
			u64 m = __atomic_exchange_n(&s->chunk_dirty[mm->slot][wd], 0,
						    __ATOMIC_RELAXED);

			for (; m; m &= m - 1) {
				c = ((size_t)wd * 64 + (size_t)__builtin_ctzll(m)) * 64;
				n = s->task_pages - c < 64 ? s->task_pages - c : 64;
				memset(s->done + at + c, 0, n * sizeof(u64));
				memset(s->ubc + at + c, 0, n * sizeof(u64));
				memset(s->faulted + at + c, 0, n * sizeof(u64));
				memset(s->zapped + at + c, 0, n * sizeof(u64));
				memset(s->cowed + at + c, 0, n * sizeof(u64));
			}
		}
		__atomic_store_n(&s->done_ctx[mm->slot], mm->context.ctx_id, __ATOMIC_RELAXED);
	}
	return base + at;
}

/* @base's entry for page @vpn of @mm, to be written: its chunk is marked */
__sched_notsan u64 *slot_entry(struct tlb_check_world *s, u64 *base, struct mm_struct *mm,
			       unsigned long vpn)
{
	u64 *a = slot_array(s, base, mm);

	__atomic_fetch_or(&s->chunk_dirty[mm->slot][vpn / 4096], 1ULL << (vpn / 64 % 64),
			  __ATOMIC_RELAXED);
	return &a[vpn];
}

/* SPDX-License-Identifier: MIT */
/*
 * Checkers: the invariants of reference/kernel-mm.md section 2, each
 * registered by its layer's file with when it runs:
 *
 *   under a lock    attach() hooks a validator on the locks it guards,
 *                   run right after every acquisition (spinlock.h)
 *   after each op   after_op(), on the CPU the op ran on
 *   at quiescence   quiescent(): no task holds any lock, no op in flight
 *   at the end      end(): after every handle was released and every
 *                   layer drained (world_drain)
 *
 * The page allocator's (pagealloc.c): I-BUD-1..4, I-PCP-1..2, I-VM-1..2.
 * I-CONS (cons.c) consumes every registered owner source: each says which
 * pfn intervals it owns (buddy, pcp lists, the program's handles; later slab
 * pages, page tables, gather batches, compaction lists), and every page must
 * have exactly one owner; objects that are not pages have owner spaces
 * (OWNER_SPACE, owner_add_obj).  shadow.c observes the page handles of the
 * executor's table (src/prog/handle.h).
 *
 * Checkers read the model and never change it.  A failure is a violation
 * with signature "CHECKER@SITE".
 */
#ifndef MMFUZZ_CHECK_CHECK_H
#define MMFUZZ_CHECK_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "../mm/mm.h"
#include "../sched/sched.h"

/* The first failure a checker run found. */
struct cfail {
	bool hit;
	const char *checker;
	const char *site;
	char msg[640];
};

/* No failure yet: only @hit is read until one is set (an initializer would
 * clear the whole message, at every hook of every checker) */
static inline void cfail_init(struct cfail *f)
{
	f->hit = false;
}

__attribute__((format(printf, 4, 5)))
void cfail_set(struct cfail *f, const char *checker, const char *site, const char *fmt, ...);
/* End a hidden-from-TSan check and report what it found. */
void cfail_report(struct cfail *f);

struct checker {
	const char *name;	/* what it checks: "I-BUD-1..4 I-PCP-1..2 I-VM-1..2" */
	const char *layer;
	int prio;		/* order: lower first (the first failure is the signature) */
	void (*attach)(struct world *w);
	void (*run_begin)(struct world *w);
	void (*after_op)(struct world *w, int cpu, struct cfail *f);
	void (*quiescent)(struct world *w, const char *where, struct cfail *f);
	void (*end)(struct world *w, struct cfail *f);
};
#define CHECKER(c)								\
	REGISTER(mmfuzz_checkers, const struct checker *, __chkp_##c, &(c))

/* ---- owners (cons.c) ---- */

struct owner_sink;
/* @who is the source's own number (a CPU, a handle, an order). */
void owner_add(struct owner_sink *s, unsigned long pfn, unsigned long len, unsigned who);

/* A source's table of naturally aligned blocks: 2^order pages at @pfn. */
struct owner_block {
	uint32_t pfn;
	uint16_t order, who;
};
/* owner_add() of each block, in one call: what the buddy and pcp sources
 * replay from their walk at every check. */
void owner_add_blocks(struct owner_sink *s, const struct owner_block *b, size_t n);

struct owner_source {
	const char *name;
	void (*collect)(struct world *w, struct owner_sink *s);
	/* "cpu1's pcp list", "handle h3" */
	void (*describe)(unsigned who, char *buf, size_t n);
};
#define OWNER_SOURCE(o)								\
	REGISTER(mmfuzz_owners, const struct owner_source *, __ownp_##o, &(o))

/*
 * Owners beyond pfns: a space of objects that are not pages (a slab object,
 * an RCU-pending free, a TLB range), each named by an id the space chooses.
 * A source says which objects it owns with owner_add_obj(), in the same
 * collect() that adds its pages; I-CONS reports an object owned twice, and,
 * when the space says how many objects it has (@nr: ids 0..nr-1), one owned
 * by nobody or an id outside the space.  @nr NULL: only "at most one owner"
 * is checked.  A space is registered with OWNER_SPACE() in its layer's file.
 */
struct owner_space {
	const char *name;			/* "slab object" */
	unsigned long (*nr)(struct world *w);
};
#define OWNER_SPACE(sp)								\
	REGISTER(mmfuzz_owner_spaces, const struct owner_space *, __ownsp_##sp, &(sp))
void owner_add_obj(struct owner_sink *s, const struct owner_space *space, unsigned long id,
		   unsigned who);

/* ---- what the executor calls (run.c) ---- */

/* Numbers each quiescent and final check: a checker may keep what it saw
 * for the ones after it in the same pass. */
extern unsigned long check_pass;
/* Tests: I-CONS also collects, sorts and walks every interval at every
 * check, and a verdict of its bitmap pass that differs is reported; the
 * tlb checker's sources and end check walk every gather slot and every
 * table, not only those their counts say are in use. */
extern bool check_cons_full;
/* A new run on @w (after its reset): hook the validators, clear state. */
void check_run_begin(struct world *w);
/* The same for the checker named @name alone (a stress workload that
 * wants a layer's checker on real threads): 0, or -1 if there is none. */
int check_run_begin_one(struct world *w, const char *name);
void check_after_op(struct world *w, int cpu);
void check_quiescent(struct world *w, const char *where);
/* After every handle was released and world_drain(). */
void check_final(struct world *w);

/* ---- what the program holds (shadow.c) ---- */

/*
 * Handles are numbered by the run (the defining op's index).  A page
 * handle's block carries an owner cookie in its memory, checked when it is
 * given back; the shadow knows which handle owns each pfn, so a page handed
 * out twice is caught on the second allocation.
 */
/*
 * The executor's table (src/prog/handle.h) is the program's store and the
 * one copy of what each handle holds; check may not include prog (DESIGN.md
 * section 2's arrows), so the executor gives the shadow this view of it
 * (src/prog/ops_pagealloc.c's page_table, before each run).  The shadow
 * keeps only which handle owns each pfn and how many page handles are live.
 */
struct shadow_block {
	struct page *page;
	unsigned int order;
	int name;			/* N of hN */
};
struct shadow_table {
	/* the blocks of the live page handles from the @from'th live handle
	 * (of any kind) on, in the table's order, into @out (at most @cap);
	 * the count, and where to go on in *@next (the live handles' count
	 * once every one was looked at) */
	int (*pages)(int from, struct shadow_block *out, int cap, int *next);
	/* the block live page handle @h holds, its order and N of hN; NULL
	 * when @h is no live page handle */
	struct page *(*page)(int h, unsigned int *order, int *name);
};
/* NULL: no table (a test's own takes); the handles' owner source is empty. */
void shadow_table_set(const struct shadow_table *t);
/* These are the page kind's observers (src/prog/ops_pagealloc.c's hk_page). */
void shadow_run_begin(struct world *w, uint64_t run_no);
/* The run is over (clean or not): the world's owner array back to zero. */
void shadow_run_end(void);
/* @h: the run's handle number; @name: N of hN in the text form. */
void shadow_page_take(int h, int name, struct page *page, unsigned int order);
/* Check the cookie, forget the owner; the caller frees the block. */
void shadow_page_drop(int h, int name, struct page *page, unsigned int order);
/* The model moved live page handle @h's block (migration; -1: no live page
 * handle held @from) from @from to @to: its owner follows. */
void shadow_page_moved(int h, struct page *from, struct page *to, unsigned int order);
/* A run a violation stopped left @h live: forget it, no cookie check. */
void shadow_page_forget(int h, struct page *page, unsigned int order);
/* Page handles live (taken and not dropped or forgotten). */
int shadow_live_count(void);

/* ---- the page allocator's read checker (pagealloc_read.c) ---- */

/* Known races (6.6's drain) are violations when this is set (--report-known);
 * either way they are counted. */
extern bool check_report_known;
unsigned long check_known_count(void);

/* State as coverage (state.c): attach the model's state_* hooks to the
 * engine's feature sink (sched/ilv_state.c).  The fuzz harness calls it. */
void check_state_attach(void);
void check_state_detach(void);
/* the features (state.h: each layer registers its own with STATE_FEATURE) */

/* ---- the report (report.c) ---- */

/* The report of a violation: signature, where, recent trace of each task,
 * and the program (text) it came from. */
typedef const char *(*op_name_fn)(int task, int op, void *arg);
void report_write(FILE *f, const struct violation *v, const struct fsched *fs,
		  op_name_fn op_name, void *arg, const char *program_text);

#endif /* MMFUZZ_CHECK_CHECK_H */

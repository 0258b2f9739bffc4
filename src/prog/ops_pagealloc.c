// SPDX-License-Identifier: MIT
/*
 * The page allocator's operations: their descriptors (binary codes
 * 0x00-0x1f, fixed forever), the page handle, the per-task state of a run
 * (which zone a task holds disabled), and the `pagealloc` fuzz target.
 */
#include "exec.h"
#include "gfp_op.h"
#include "handle.h"
#include "ops_pagealloc.h"

#include "../check/check.h"
#include "../kernel/percpu.h"
#include "../mm/oracle.h"

/* ---- the page handle ---- */

static void page_release(struct op_ctx *c, int h)
{
	unsigned long order;
	struct page *page = handle_get(h, &hk_page, &order);

	(void)c;
	if (page) {
		handle_drop(h);
		__free_pages(page, (unsigned int)order);
	}
}

/* what the shadow (check/shadow.c) sees of the table: the page kind's
 * observers, and the view its owner source reads (page_table) */
static void page_taken(int h, int name, void *obj, unsigned long aux)
{
	shadow_page_take(h, name, obj, (unsigned int)aux);
}

static void page_released(int h, int name, void *obj, unsigned long aux)
{
	shadow_page_drop(h, name, obj, (unsigned int)aux);
}

static void page_moved(int h, void *from, void *to, unsigned long aux)
{
	shadow_page_moved(h, from, to, (unsigned int)aux);
}

static void page_forget(int h, void *obj, unsigned long aux)
{
	shadow_page_forget(h, obj, (unsigned int)aux);
}

static struct page *page_of(int h, unsigned int *order, int *name)
{
	unsigned long aux;
	struct page *page = handle_peek(h, &hk_page, &aux);

	if (!page)
		return NULL;
	*order = (unsigned int)aux;
	*name = handle_name(h);
	return page;
}

static int pages_of(int from, struct shadow_block *out, int cap, int *next)
{
	struct handle_view v[64];
	int n, i;

	n = handle_live_of(&hk_page, from, v, cap < 64 ? cap : 64, next);
	for (i = 0; i < n; i++) {
		out[i].page = v[i].obj;
		out[i].order = (unsigned int)v[i].aux;
		out[i].name = v[i].name;
	}
	return n;
}

const struct shadow_table page_table = {
	.pages = pages_of, .page = page_of,
};

const struct handle_kind hk_page = {
	.name = "page", .prefix = "h", .release = page_release,
	.taken = page_taken, .released = page_released, .moved = page_moved,
	.forget = page_forget,
};

/* ---- the header section: the page allocator's config keys (mm_init.c) ---- */

static struct hdr_section pagealloc_section = {
	.layer = "pagealloc", .id = 2, .cfg_base = 1,
};
HEADER_SECTION(pagealloc_section);

/* The model's migration hook (HOOK(pagealloc, page_moved)): the handle
 * that holds @from follows it. */
void pagealloc_page_moved(struct page *from, struct page *to)
{
	handle_moved(&hk_page, from, to);
}

/* ---- per-run state ---- */

struct pagealloc_run {
	int pcp_disabled_zone[PROG_MAX_TASKS];	/* zone + 1 this task disabled */
};

static void pagealloc_task_exit(struct op_ctx *c);

static struct op_layer pagealloc_ops = {
	.name = "pagealloc",
	.state_size = sizeof(struct pagealloc_run),
	.task_exit = pagealloc_task_exit,
};
OP_LAYER(pagealloc_ops);

static struct pagealloc_run *run_state(struct op_ctx *c)
{
	return op_layer_state(c, &pagealloc_ops);
}

/*
 * zone_pcp_enable() of this task's disable.  Its mutex_unlock may let the
 * next disabler of the zone in and run it to the end before this returns.
 */
static void pcp_enable(struct op_ctx *c, int z)
{
	zone_pcp_enable(zone_by_idx(c->w, z));
	run_state(c)->pcp_disabled_zone[c->t->id] = 0;
}

/* A task that ends with the pcps disabled gives them back. */
static void pagealloc_task_exit(struct op_ctx *c)
{
	int z = run_state(c)->pcp_disabled_zone[c->t->id];

	if (z)
		pcp_enable(c, z - 1);
}

/* ---- operations ---- */

static const char *const mt_names[MIGRATE_PCPTYPES] = { "unmovable", "movable", "reclaimable" };

/*
 * gfp flags as the text form writes them, in the binary form's bit order
 * (fixed forever).  The migratetype is mt=, apart.
 */
static const char *const gfp_names[] = {
	"__GFP_HIGH", "__GFP_DIRECT_RECLAIM", "__GFP_KSWAPD_RECLAIM", "__GFP_COMP",
	"__GFP_ZERO", "__GFP_NOWARN", "__GFP_MEMALLOC", "__GFP_NOFAIL",
};
#define OPG_HIGH		0x01
#define OPG_DIRECT_RECLAIM	0x02
#define OPG_KSWAPD_RECLAIM	0x04
static const struct flag_alias gfp_aliases[] = {
	{ "GFP_KERNEL", OPG_DIRECT_RECLAIM | OPG_KSWAPD_RECLAIM },
	{ "GFP_ATOMIC", OPG_HIGH | OPG_KSWAPD_RECLAIM },
	{ "GFP_NOWAIT", OPG_KSWAPD_RECLAIM },
	{ NULL, 0 },
};

/*
 * The model's gfp_t for the op's gfp bits (gfp_op_bit[] is this order) and
 * migratetype.  An interrupt cannot sleep: in interrupt context the
 * allocation is GFP_ATOMIC, whatever else it asks for, without
 * __GFP_DIRECT_RECLAIM.
 */
static gfp_t op_gfp(int bits, int mt, bool irq)
{
	gfp_t gfp = gfp_from_op_bits((uint8_t)bits) | migratetype_gfp(mt);

	BUILD_BUG_ON(OPG_HIGH != 1u << 0 || OPG_DIRECT_RECLAIM != 1u << 1 ||
		     OPG_KSWAPD_RECLAIM != 1u << 2);
	if (irq)
		gfp = (gfp & ~__GFP_DIRECT_RECLAIM) | GFP_ATOMIC;
	return gfp;
}

static void do_alloc_pages(struct op_ctx *c)
{
	const struct op *op = c->op;
	struct page *page;

	page = alloc_pages(op_gfp(op->arg[2], op->arg[1], op->irq), (unsigned int)op->arg[0]);
	if (page)
		handle_set(op_handle_self(c), op_handle_name(c), &hk_page, page,
			   (unsigned long)op->arg[0]);
}

static struct op_desc op_alloc_pages = {
	OP_NAME("alloc_pages"), .code = 0x00, .layer = "pagealloc", .irq_ok = true,
	.desc = "alloc_pages(gfp | the migratetype's, order); GFP_ATOMIC in irq; the result is a handle",
	.defines = &hk_page,
	.nargs = 3,
	.args = {
		{ .name = "order", .kind = ARG_INT, .lo = 0, .hi = MODEL_MAX_ORDER,
		  .hi_key = &ck_max_order },
		{ .name = "mt", .kind = ARG_ENUM, .names = mt_names, .nnames = MIGRATE_PCPTYPES },
		{ .name = "gfp", .kind = ARG_FLAGS, .names = gfp_names, .nnames = 8,
		  .aliases = gfp_aliases, .has_def = true,
		  .def = OPG_DIRECT_RECLAIM | OPG_KSWAPD_RECLAIM },
	},
	.exec = do_alloc_pages,
};
OP_DESC(op_alloc_pages);

static void do_free_pages(struct op_ctx *c)
{
	page_release(c, op_handle_arg(c, 0));
}

static struct op_desc op_free_pages = {
	OP_NAME("free_pages"), .code = 0x01, .layer = "pagealloc", .irq_ok = true,
	.desc = "__free_pages() of an earlier alloc's handle (nothing if it is not live: "
		"not yet allocated, failed, or freed)",
	.nargs = 1,
	.args = { { .name = "h", .kind = ARG_HANDLE, .hk = &hk_page, .frees = true } },
	.exec = do_free_pages,
};
OP_DESC(op_free_pages);

static void do_drain_local(struct op_ctx *c)
{
	preempt_disable();
	drain_local_pages(NULL);
	preempt_enable();
}

static struct op_desc op_drain_local = {
	OP_NAME("drain_local"), .code = 0x02, .layer = "pagealloc",
	.desc = "drain_local_pages(NULL) on the task's CPU",
	.exec = do_drain_local,
};
OP_DESC(op_drain_local);

static void do_drain_all(struct op_ctx *c)
{
	int z = c->op->arg[1];

	__drain_all_pages(z < 0 ? NULL : zone_by_idx(c->w, z), c->op->arg[0]);
}

static struct op_desc op_drain_all = {
	OP_NAME("drain_all"), .code = 0x03, .layer = "pagealloc",
	.desc = "__drain_all_pages(zone or all, force_all_cpus)",
	.nargs = 2,
	.args = {
		{ .name = "force", .kind = ARG_INT, .lo = 0, .hi = 1 },
		{ .name = "zone", .kind = ARG_ZONE, .all = true },
	},
	.exec = do_drain_all,
};
OP_DESC(op_drain_all);

static void do_zone_pcp_disable(struct op_ctx *c)
{
	struct pagealloc_run *r = run_state(c);
	int z = c->op->arg[0];

	/* one disable at a time per task: a second would self-deadlock */
	if (r->pcp_disabled_zone[c->t->id])
		return;
	zone_pcp_disable(zone_by_idx(c->w, z));
	r->pcp_disabled_zone[c->t->id] = z + 1;
}

static struct op_desc op_zone_pcp_disable = {
	OP_NAME("zone_pcp_disable"), .code = 0x04, .layer = "pagealloc",
	.desc = "zone_pcp_disable(): high 0, drain, hold pcp_batch_high_lock",
	.nargs = 1,
	.args = { { .name = "zone", .kind = ARG_ZONE } },
	.exec = do_zone_pcp_disable,
};
OP_DESC(op_zone_pcp_disable);

static void do_zone_pcp_enable(struct op_ctx *c)
{
	if (run_state(c)->pcp_disabled_zone[c->t->id] == c->op->arg[0] + 1)
		pcp_enable(c, c->op->arg[0]);
}

static struct op_desc op_zone_pcp_enable = {
	OP_NAME("zone_pcp_enable"), .code = 0x05, .layer = "pagealloc",
	.desc = "zone_pcp_enable() after this task's disable (else nothing)",
	.nargs = 1,
	.args = { { .name = "zone", .kind = ARG_ZONE } },
	.exec = do_zone_pcp_enable,
};
OP_DESC(op_zone_pcp_enable);

static void do_set_pcp_high_batch(struct op_ctx *c)
{
	/* while this task holds pcp_batch_high_lock, nothing to do */
	if (run_state(c)->pcp_disabled_zone[c->t->id])
		return;
	zone_pcp_set_high_batch(zone_by_idx(c->w, c->op->arg[0]), c->op->arg[1], c->op->arg[2]);
}

static struct op_desc op_set_pcp_high_batch = {
	OP_NAME("set_pcp_high_batch"), .code = 0x06, .layer = "pagealloc",
	.desc = "new pcp high and batch for every CPU, under pcp_batch_high_lock",
	.nargs = 3,
	.args = {
		{ .name = "zone", .kind = ARG_ZONE },
		{ .name = "high", .kind = ARG_INT, .lo = 0, .hi = 4096, .bin_bytes = 2 },
		{ .name = "batch", .kind = ARG_INT, .lo = 1, .hi = 1024, .bin_bytes = 2 },
	},
	.exec = do_set_pcp_high_batch,
};
OP_DESC(op_set_pcp_high_batch);

static void do_migrate(struct op_ctx *c)
{
	sched_migrate(c->t, c->op->arg[0], YIELD_SITE(YP_POINT, "migrate"));
}

static struct op_desc op_migrate = {
	OP_NAME("migrate"), .code = 0x07, .layer = "pagealloc",
	.desc = "move the task to another CPU (between operations)",
	.nargs = 1,
	.args = { { .name = "cpu", .kind = ARG_CPU } },
	.exec = do_migrate,
};
OP_DESC(op_migrate);

static void do_read_counters(struct op_ctx *c)
{
	struct zone *zone = zone_by_idx(c->w, 0);
	unsigned long v[4];

	v[0] = zone_page_state(zone, NR_FREE_PAGES);
	HOOK(pagealloc, read_vmstat, zone, (long)v[0]);
	v[1] = zone_page_state_snapshot(zone, NR_FREE_PAGES);
	v[2] = sum_vm_event(PGALLOC);
	v[3] = sum_vm_event(PGFREE);
	(void)v;
}

static struct op_desc op_read_counters = {
	OP_NAME("read_counters"), .code = 0x08, .layer = "pagealloc",
	.desc = "read NR_FREE_PAGES, its snapshot and the events, as /proc/vmstat",
	.exec = do_read_counters,
};
OP_DESC(op_read_counters);

static void do_vmstat_refresh(struct op_ctx *c)
{
	refresh_cpu_vm_stats(true);
}

static struct op_desc op_vmstat_refresh = {
	OP_NAME("vmstat_refresh"), .code = 0x09, .layer = "pagealloc",
	.desc = "refresh_cpu_vm_stats() on the task's CPU (the vmstat worker)",
	.exec = do_vmstat_refresh,
};
OP_DESC(op_vmstat_refresh);

static void do_drain_zone_pages(struct op_ctx *c)
{
	struct zone *zone = zone_by_idx(c->w, c->op->arg[0]);

	/* the vmstat worker is bound to its CPU */
	preempt_disable();
	drain_zone_pages(zone, this_cpu_ptr(zone->per_cpu_pageset));
	preempt_enable();
}

static struct op_desc op_drain_zone_pages = {
	OP_NAME("drain_zone_pages"), .code = 0x0a, .layer = "pagealloc",
	.desc = "drain_zone_pages(): up to a batch of the task's CPU's pcp (the vmstat worker)",
	.nargs = 1,
	.args = { { .name = "zone", .kind = ARG_ZONE } },
	.exec = do_drain_zone_pages,
};
OP_DESC(op_drain_zone_pages);

static void do_balance_pgdat(struct op_ctx *c)
{
	/* kswapd of the zone's node, balancing up to the zone's type */
	struct zone *zone = zone_by_idx(c->w, c->op->arg[0]);

	balance_pgdat(zone->zone_pgdat, 0, zone_idx(zone));
}

static struct op_desc op_balance_pgdat = {
	OP_NAME("balance_pgdat"), .code = 0x0b, .layer = "pagealloc",
	.desc = "kswapd's balance_pgdat() up to the zone: ZONE_RECLAIM_ACTIVE on zones 0..zone "
		"for the pass (frees then keep at most batch * 4 pages on a pcp); no LRU: "
		"its reclaim is one point",
	.nargs = 1,
	.args = { { .name = "zone", .kind = ARG_ZONE } },
	.exec = do_balance_pgdat,
};
OP_DESC(op_balance_pgdat);

/* ---- the fuzz target ---- */

static const char *const pagealloc_layers[] = { "pagealloc", NULL };
static const unsigned char pagealloc_fold[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const struct fuzz_target pagealloc_target = {
	.name = "pagealloc", .desc = "the page allocator layer (buddy, pcp, vmstat)",
	.layers = pagealloc_layers, .fold = pagealloc_fold, .nfold = (int)sizeof(pagealloc_fold),
};
FUZZ_TARGET(pagealloc_target);

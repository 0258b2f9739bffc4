// SPDX-License-Identifier: MIT
/*
 * A layer dropped in from one file (issue 20's "Done when"): a per-CPU page
 * cache over the page allocator, the shape of the pcp lists and of SLUB's
 * per-CPU/node split, registered through every seam that exists, from
 * tests/ alone.  Nothing outside this file names it.
 *
 *   drop_get: irqs off, this CPU's cache (the lockless fast path); an empty
 *             cache refills drop_batch pages from the depot under
 *             drop->lock; an empty depot: alloc_pages() with irqs on
 *   drop_put: irqs off, onto this CPU's cache; past drop_high it flushes
 *             drop_batch pages to the depot under drop->lock
 *
 * Lock order: drop->lock (irqs off) -> zone->lock (none taken under it).
 *
 * Seams used: CONFIG_KEY (drop_high, drop_batch at binary bytes 41, 42),
 * WORLD_LAYER (create/boot/reset/drain/destroy, max_op_steps, stat_*),
 * OP_DESC x2, a handle kind, OP_LAYER, FUZZ_TARGET, CHECKER (quiescent,
 * after_op, end), OWNER_SOURCE, OWNER_SPACE, DECLARE_HOOKS/DEFINE_HOOKS/HOOK
 * with the checker attaching, STATE_FEATURE, BUG_SWITCH (bit 63: a test's
 * switch takes no bit a layer will), STRESS_WORKLOAD, run through
 * stress_run() for the counters.  The handles' pages live in the executor's
 * handle table (prog/handle.h), where the owner source reads them;
 * HEADER_SECTION holds its keys in the binary form (v3).
 *
 * The object space: every drop_get operation's handle holds one of
 * DROP_TOKENS tokens (its handle's aux word), taken from and given back to
 * the token pool under drop->lock; a token is owned by the pool or by one
 * handle, which I-CONS checks in the "drop token" space as it checks pages.
 */
#include <stdlib.h>
#include <string.h>

#include "../src/bugs/bugs.h"
#include "../src/check/check.h"
#include "../src/check/state.h"
#include "../src/kernel/hooks.h"
#include "../src/kernel/percpu.h"
#include "../src/world/layer.h"
#include "../src/prog/exec.h"
#include "../src/prog/handle.h"
#include "../src/prog/header.h"
#include "../stress/stress.h"
#include "tap.h"

/* ---- the layer's public header ---- */

#define DROP_MAX_HIGH	16
#define BUG_DROP_COUNT	63
#define DROP_TOKENS	32
#define DROP_TOKENS_ALL	((1UL << DROP_TOKENS) - 1)

enum { DROP_GET, DROP_PUT, DROP_REFILL, DROP_FLUSH, DROP_SLOW, NR_DROP_STAT };
static const char *const drop_stat_names[NR_DROP_STAT] = {
	"drop_get", "drop_put", "drop_refill", "drop_flush", "drop_slow",
};

struct drop_cpu {
	int count;				/* irqs off, this CPU */
	struct page *pages[DROP_MAX_HIGH + 1];
	unsigned long stat[NR_DROP_STAT];	/* irqs off, this CPU */
};

struct drop_world {
	spinlock_t lock;		/* protects depot, nr_depot, token_free */
	struct list_head depot;
	long nr_depot;
	unsigned long token_free;	/* the pool: bit N, token N is free */
	int high, batch;
	struct drop_cpu cpu[MAX_CPUS];
};

struct droplayer_hooks {
	/* drop_flush moved @moved pages of @cpu's cache to the depot, under
	 * drop->lock; the cache holds @left */
	void (*flushed)(const struct drop_world *d, int cpu, int moved, int left);
	/* state as coverage: drop_put left @count pages on a cache of @high */
	void (*state_cache)(int count, int high);
};
DECLARE_HOOKS(droplayer);

/* ---- the model (src/mm/<layer>.c) ---- */

DEFINE_HOOKS(droplayer);

static struct config_key ck_drop_high = {
	.name = "drop_high", .layer = "droplayer",
	.desc = "pages a CPU's drop cache holds before it flushes",
	.lo = 1, .hi = DROP_MAX_HIGH, .def = 4, .bin_off = 41, .bin_len = 1,
};
CONFIG_KEY(ck_drop_high);

static struct config_key ck_drop_batch = {
	.name = "drop_batch", .layer = "droplayer",
	.desc = "pages a refill or a flush moves",
	.lo = 1, .hi = DROP_MAX_HIGH, .def = 2, .bin_off = 42, .bin_len = 1,
};
CONFIG_KEY(ck_drop_batch);

/* its keys' section of the binary header (v3): an id no real layer will
 * take, its config bytes from place 41 */
static struct hdr_section drop_section = {
	.layer = "droplayer", .id = 200, .cfg_base = 41,
};
HEADER_SECTION(drop_section);

static struct world_layer drop_layer;

static struct drop_world *drop_of(struct world *w)
{
	return world_layer_state(w, &drop_layer);
}

static void drop_refill(struct drop_world *d, struct drop_cpu *pc)
{
	int n = 0;

	spin_lock(&d->lock);
	while (n < d->batch && !list_empty(&d->depot)) {
		struct page *page = list_first_entry(&d->depot, struct page, lru);

		list_del(&page->lru);
		pc->pages[pc->count++] = page;
		n++;
	}
	d->nr_depot -= n;
	spin_unlock(&d->lock);
	pc->stat[DROP_REFILL]++;
}

static void drop_flush(struct drop_world *d, struct drop_cpu *pc, int cpu)
{
	int n = 0;

	spin_lock(&d->lock);
	while (n < d->batch && pc->count) {
		list_add(&pc->pages[--pc->count]->lru, &d->depot);
		n++;
	}
	if (!bug_on(BUG_DROP_COUNT))
		d->nr_depot += n;
	HOOK(droplayer, flushed, d, cpu, n, pc->count);
	spin_unlock(&d->lock);
	pc->stat[DROP_FLUSH]++;
}

static struct page *drop_get(struct drop_world *d)
{
	struct page *page = NULL;
	struct drop_cpu *pc;
	unsigned long flags;

	local_irq_save(flags);
	pc = &d->cpu[smp_processor_id()];
	if (!pc->count)
		drop_refill(d, pc);
	if (pc->count)
		page = pc->pages[--pc->count];
	pc->stat[DROP_GET]++;
	if (!page)
		pc->stat[DROP_SLOW]++;
	local_irq_restore(flags);
	if (!page)
		page = alloc_pages(GFP_KERNEL, 0);
	return page;
}

static void drop_put(struct drop_world *d, struct page *page)
{
	struct drop_cpu *pc;
	unsigned long flags;
	int cpu;

	local_irq_save(flags);
	cpu = smp_processor_id();
	pc = &d->cpu[cpu];
	pc->pages[pc->count++] = page;
	pc->stat[DROP_PUT]++;
	HOOK(droplayer, state_cache, pc->count, d->high);
	if (pc->count > d->high)
		drop_flush(d, pc, cpu);
	local_irq_restore(flags);
}

static int drop_create(struct world *w, const struct mm_config *c)
{
	struct drop_world *d = drop_of(w);

	d->high = (int)config_get(c, &ck_drop_high);
	d->batch = (int)config_get(c, &ck_drop_batch);
	return 0;
}

static void drop_boot(struct world *w)
{
	struct drop_world *d = drop_of(w);

	spin_lock_init_named(&d->lock, "drop->lock", 0);
	INIT_LIST_HEAD(&d->depot);
	d->nr_depot = 0;
	d->token_free = DROP_TOKENS_ALL;
}

/* a token from the pool, or -1 when every one is out */
static int drop_token_get(struct drop_world *d)
{
	int id = -1;

	spin_lock(&d->lock);
	if (d->token_free) {
		id = __builtin_ctzl(d->token_free);
		d->token_free &= ~(1UL << id);
	}
	spin_unlock(&d->lock);
	return id;
}

static void drop_token_put(struct drop_world *d, int id)
{
	spin_lock(&d->lock);
	d->token_free |= 1UL << id;
	spin_unlock(&d->lock);
}

/* what the run touched: the caches and the table (the pages are the page
 * allocator's, which its own reset takes back) */
static void drop_reset(struct world *w)
{
	struct drop_world *d = drop_of(w);
	int high = d->high, batch = d->batch;

	memset(d, 0, sizeof(*d));
	d->high = high;
	d->batch = batch;
}

/* before the page allocator's: every cached page back to the buddy */
static void drop_drain(struct world *w)
{
	struct drop_world *d = drop_of(w);
	unsigned long flags;
	int cpu;

	for (cpu = 0; cpu < w->cfg.ncpus; cpu++) {
		struct drop_cpu *pc = &d->cpu[cpu];

		while (pc->count)
			__free_pages(pc->pages[--pc->count], 0);
	}
	spin_lock_irqsave(&d->lock, flags);
	while (!list_empty(&d->depot)) {
		struct page *page = list_first_entry(&d->depot, struct page, lru);

		list_del(&page->lru);
		d->nr_depot--;
		spin_unlock_irqrestore(&d->lock, flags);
		__free_pages(page, 0);
		spin_lock_irqsave(&d->lock, flags);
	}
	spin_unlock_irqrestore(&d->lock, flags);
}

static void drop_destroy(struct world *w)
{
	(void)w;
}

/* a flush or a refill: a batch of pages, a step each, and the lock */
static uint64_t drop_max_op_steps(const struct mm_config *c)
{
	return 4 * (uint64_t)config_get(c, &ck_drop_batch) + 8;
}

struct drop_stat {
	unsigned long s[NR_DROP_STAT];
};

static void drop_stat_snap(struct world *w, void *snap)
{
	struct drop_world *d = drop_of(w);
	struct drop_stat *s = snap;
	int cpu, i;

	memset(s, 0, sizeof(*s));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		for (i = 0; i < NR_DROP_STAT; i++)
			s->s[i] += d->cpu[cpu].stat[i];
}

static void drop_stat_print(FILE *out, const void *sa, const void *sb,
			    const struct layer_stat_span *span)
{
	const struct drop_stat *a = sa, *b = sb;
	int i;

	for (i = 0; i < NR_DROP_STAT; i++)
		fprintf(out, "model.%s: %lu\n", drop_stat_names[i], b->s[i] - a->s[i]);
	fprintf(out, "model.drop_slow_per_op: %.3f\n",
		span->ops ? (double)(b->s[DROP_SLOW] - a->s[DROP_SLOW]) / (double)span->ops : 0.0);
}

static struct world_layer drop_layer = {
	.name = "droplayer", .order = 50, .state_size = sizeof(struct drop_world),
	.create = drop_create, .boot = drop_boot, .reset = drop_reset,
	.drain = drop_drain, .destroy = drop_destroy,
	.max_op_steps = drop_max_op_steps,
	.stat_size = sizeof(struct drop_stat),
	.stat_snap = drop_stat_snap, .stat_print = drop_stat_print,
};
WORLD_LAYER(drop_layer);

/* ---- bug switches (src/mm/<layer>_bugs.c) ---- */

static const struct bug_info bug_drop_count = {
	.bit = BUG_DROP_COUNT,
	.name = "drop_count_leak", .layer = "droplayer", .where = "drop_flush",
	.caught_by = "I-DROP-1 (nr_depot is not the depot's length)",
	.desc = "drop_flush moves the pages but forgets nr_depot += n",
};
BUG_SWITCH(bug_drop_count);

/* ---- operations (src/prog/ops_<layer>.c) ---- */

struct drop_run {
	int gets;			/* this run's drop_get operations */
};

static struct op_layer drop_ops = {
	.name = "droplayer", .state_size = sizeof(struct drop_run),
};
OP_LAYER(drop_ops);

static const struct handle_kind hk_dropobj;

static void dropobj_release(struct op_ctx *c, int h)
{
	unsigned long token;
	struct page *page = handle_get(h, &hk_dropobj, &token);

	if (!page)
		return;
	handle_drop(h);
	drop_token_put(drop_of(c->w), (int)token);
	drop_put(drop_of(c->w), page);
}

static const struct handle_kind hk_dropobj = {
	.name = "dropobj", .prefix = "d", .release = dropobj_release,
};

static int run_gets;			/* the last run's, for the test */

static void do_drop_get(struct op_ctx *c)
{
	struct drop_world *d = drop_of(c->w);
	struct drop_run *r = op_layer_state(c, &drop_ops);
	struct page *page;
	int token;

	r->gets++;
	run_gets = r->gets;
	page = drop_get(d);
	if (!page)
		return;
	token = drop_token_get(d);
	if (token < 0) {		/* every token out: the page goes back */
		drop_put(d, page);
		return;
	}
	handle_set(op_handle_self(c), op_handle_name(c), &hk_dropobj, page, (unsigned long)token);
}

static void do_drop_put(struct op_ctx *c)
{
	dropobj_release(c, op_handle_arg(c, 0));
}

static struct op_desc op_drop_get = {
	OP_NAME("drop_get"), .code = 0xe0, .layer = "droplayer",
	.desc = "a page from this CPU's drop cache (refilled from the depot, or the buddy)",
	.defines = &hk_dropobj,
	.exec = do_drop_get,
};
OP_DESC(op_drop_get);

static struct op_desc op_drop_put = {
	OP_NAME("drop_put"), .code = 0xe1, .layer = "droplayer",
	.desc = "a page back onto this CPU's drop cache (flushed to the depot past drop_high)",
	.nargs = 1,
	.args = { { .name = "d", .kind = ARG_HANDLE, .hk = &hk_dropobj, .frees = true } },
	.exec = do_drop_put,
};
OP_DESC(op_drop_put);

static const char *const drop_target_layers[] = { "pagealloc", "droplayer", NULL };
static const unsigned char drop_fold[] = { 0xe0, 0xe0, 0xe1, 0xe1, 0x00, 0x01 };
static const struct fuzz_target drop_target = {
	.name = "droplayer", .desc = "the drop cache over the page allocator (tests only)",
	.layers = drop_target_layers, .fold = drop_fold, .nfold = (int)sizeof(drop_fold),
};
FUZZ_TARGET(drop_target);

/* ---- checkers and owners (src/check/<layer>.c) ---- */

static unsigned long flushes_seen;	/* the hook's, atomically: stress threads */
static int over_high;			/* a flush left a cache above drop_high */

static void drop_flushed(const struct drop_world *d, int cpu, int moved, int left)
{
	(void)cpu;
	(void)moved;
	__atomic_fetch_add(&flushes_seen, 1, __ATOMIC_RELAXED);
	if (left > d->high)
		__atomic_store_n(&over_high, 1, __ATOMIC_RELAXED);
}

static void drop_attach(struct world *w)
{
	(void)w;
	droplayer_hooks.flushed = drop_flushed;
}

/* state as coverage: how full a cache is against drop_high, in buckets */
static struct state_feature sf_drop_cache;

static __sched_notsan void drop_state_cache(int count, int high)
{
	state_feature(&sf_drop_cache, count < high ? 0 : count == high ? 1 : 2);
}
static void drop_state_attach(void) { droplayer_hooks.state_cache = drop_state_cache; }
static void drop_state_detach(void) { droplayer_hooks.state_cache = NULL; }
/* a key no real layer will take */
static struct state_feature sf_drop_cache = {
	.name = "drop cache fill", .key = 200,
	.attach = drop_state_attach, .detach = drop_state_detach,
};
STATE_FEATURE(sf_drop_cache);

static void drop_run_begin(struct world *w)
{
	(void)w;
	__atomic_store_n(&over_high, 0, __ATOMIC_RELAXED);
}

static void drop_after_op(struct world *w, int cpu, struct cfail *f)
{
	(void)w;
	if (__atomic_load_n(&over_high, __ATOMIC_RELAXED))
		cfail_set(f, "I-DROP-2", "drop_flush", "cpu%d's drop cache above drop_high after a flush",
			  cpu);
}

static void drop_quiescent(struct world *w, const char *where, struct cfail *f)
{
	struct drop_world *d = drop_of(w);
	struct page *page;
	long n = 0;

	list_for_each_entry(page, &d->depot, lru)
		n++;
	if (n != d->nr_depot)
		cfail_set(f, "I-DROP-1", where, "the depot holds %ld pages, nr_depot says %ld", n,
			  d->nr_depot);
}

static void drop_end(struct world *w, struct cfail *f)
{
	struct drop_world *d = drop_of(w);
	int cpu;

	drop_quiescent(w, "end", f);
	if (f->hit)
		return;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (d->cpu[cpu].count) {
			cfail_set(f, "I-DROP-3", "end", "cpu%d's drop cache holds %d pages after the drain",
				  cpu, d->cpu[cpu].count);
			return;
		}
	if (!list_empty(&d->depot))
		cfail_set(f, "I-DROP-3", "end", "the depot holds pages after the drain");
}

static const struct checker drop_checker = {
	.name = "I-DROP-1..3", .layer = "droplayer", .prio = 15,
	.attach = drop_attach, .run_begin = drop_run_begin, .after_op = drop_after_op,
	.quiescent = drop_quiescent, .end = drop_end,
};
CHECKER(drop_checker);

/* who: a CPU's cache (0..MAX_CPUS-1), the depot (MAX_CPUS), handle dN (above),
 * the token pool (DROP_WHO_POOL) */
#define DROP_WHO_POOL	(MAX_CPUS + 1 + 256)
static bool owner_forgets_depot;	/* the test's controls: I-CONS must notice */
static bool owner_forgets_pool;		/* a free token owned by nobody */
static bool owner_pool_keeps_0;		/* token 0 owned by the pool, handed out or not */

static unsigned long drop_tokens_nr(struct world *w)
{
	(void)w;
	return DROP_TOKENS;
}

static const struct owner_space drop_tokens = {
	.name = "drop token", .nr = drop_tokens_nr,
};
OWNER_SPACE(drop_tokens);

static void drop_collect(struct world *w, struct owner_sink *s)
{
	struct drop_world *d = drop_of(w);
	struct page *page;
	int cpu, i;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		for (i = 0; i < d->cpu[cpu].count; i++)
			owner_add(s, page_to_pfn(d->cpu[cpu].pages[i]), 1, (unsigned)cpu);
	if (!owner_forgets_depot)
		list_for_each_entry(page, &d->depot, lru)
			owner_add(s, page_to_pfn(page), 1, MAX_CPUS);
	for (i = 0; i < handle_live_count(); i++) {
		int h = handle_live_at(i);

		unsigned long token;

		page = handle_get(h, &hk_dropobj, &token);
		if (page) {
			owner_add(s, page_to_pfn(page), 1, MAX_CPUS + 1 + (unsigned)handle_name(h));
			owner_add_obj(s, &drop_tokens, token, MAX_CPUS + 1 + (unsigned)handle_name(h));
		}
	}
	for (i = 0; i < DROP_TOKENS; i++)
		if (((d->token_free >> i) & 1 && !owner_forgets_pool) ||
		    (i == 0 && owner_pool_keeps_0))
			owner_add_obj(s, &drop_tokens, (unsigned long)i, DROP_WHO_POOL);
}

static void drop_describe(unsigned who, char *buf, size_t n)
{
	if (who < MAX_CPUS)
		snprintf(buf, n, "cpu%u's drop cache", who);
	else if (who == MAX_CPUS)
		snprintf(buf, n, "the drop depot");
	else if (who == DROP_WHO_POOL)
		snprintf(buf, n, "the drop token pool");
	else
		snprintf(buf, n, "handle d%u", who - MAX_CPUS - 1);
}

static const struct owner_source drop_owner = {
	.name = "droplayer", .collect = drop_collect, .describe = drop_describe,
};
OWNER_SOURCE(drop_owner);

/* ---- a stress workload (stress/<workload>.c) ---- */

static int drop1_high;			/* the drop_high the workload's world has */

static void drop1_testcase(struct stress_task *t)
{
	struct drop_world *d = drop_of(t->run->w);
	struct page *pages[12];
	int i, n;

	__atomic_store_n(&drop1_high, d->high, __ATOMIC_RELAXED);
	while (stress_continue(t)) {
		for (n = 0; n < 12; n++)
			if (!(pages[n] = drop_get(d)))
				break;
		for (i = 0; i < n; i++)
			drop_put(d, pages[i]);
		stress_count(t, 1);
	}
}

static const struct stress_workload stress_drop1 = {
	.name = "drop1",
	.description = "twelve pages from the drop cache and back (tests/test_stress_droplayer.c)",
	.testcase = drop1_testcase,
};
STRESS_WORKLOAD(stress_drop1);

/* ---- the test ---- */

static const char prog_text[] =
	"mmfuzz 1\n"
	"cpus: 1\n"
	"drop_high: 2\n"
	"drop_batch: 2\n"
	"task T0 cpu=0\n"
	"  d0 = drop_get\n"
	"  d1 = drop_get\n"
	"  d2 = drop_get\n"
	"  h0 = alloc_pages order=0 mt=movable\n"
	"  drop_put d0\n"
	"  drop_put d1\n"
	"  drop_put d2\n"
	"  d3 = drop_get\n"
	"  free_pages h0\n";

static int run(struct exec *e, const char *text, uint64_t inject, struct run_result *r)
{
	struct run_opts o = { 0 };
	char err[256];
	struct prog p;

	memset(r, 0, sizeof(*r));
	r->outcome = (enum run_outcome)-1;	/* neither, unless it ran */
	if (prog_parse_text(text, "droplayer", &p, err, sizeof(err))) {
		diag("%s", err);
		return -1;
	}
	o.inject = inject;
	return exec_run(e, &p, &o, r);
}

/* the binary order is by place: drop_high then drop_batch, every key
 * before them below byte 41, every key after them above byte 42 */
static bool drop_keys_in_place(void)
{
	int i, n = config_nkeys(), at = -1;

	for (i = 0; i + 1 < n; i++)
		if (config_key_by_id(i) == &ck_drop_high && config_key_by_id(i + 1) == &ck_drop_batch)
			at = i;
	if (at < 0)
		return false;
	for (i = 0; i < n; i++)
		if (i < at ? config_key_by_id(i)->bin_off >= 41 :
		    i > at + 1 && config_key_by_id(i)->bin_off <= 42)
			return false;
	return true;
}

int main(void)
{
	const struct config_key *k = config_key_lookup("drop_high");
	const struct fuzz_target *t = target_lookup("droplayer");
	struct exec *e = exec_create();
	struct stress_opts so;
	struct run_result r;
	char err[256], *text, *out = NULL;
	size_t outlen = 0;
	struct prog p;
	FILE *f;
	int bit;

	tap_plan(20);

	/* the registries list it where they list every layer's */
	ok(k && !strcmp(k->layer, "droplayer") && k->bin_off == 41 &&
	   config_key_lookup("drop_batch"), "config_key_lookup finds drop_high and drop_batch");
	ok(drop_keys_in_place(), "its keys take their place in binary order (bytes 41, 42)");
	ok(layer_lookup("droplayer") == &drop_layer, "layer_lookup finds the world layer");
	ok(op_lookup("drop_get") == &op_drop_get && op_by_code(0xe1) == &op_drop_put &&
	   handle_kind_index(&hk_dropobj) >= 0, "its operations by name and code, its handle kind");
	ok(t && target_has(t, &op_drop_get) && target_fold(t, 0xe1) == 0xe1 &&
	   op_by_code(target_fold(t, 0x7f)) &&
	   !strcmp(op_by_code(target_fold(t, 0x7f))->layer, "droplayer"),
	   "the droplayer target keeps its codes and folds an unknown one onto its own");
	bit = bug_lookup("drop_count_leak");
	ok(bit == BUG_DROP_COUNT && stress_workload_lookup("drop1") == &stress_drop1,
	   "bug switch drop_count_leak (bit %d) and workload drop1 are registered", bit);

	/* its keys parse in text and print back */
	if (!ok(!prog_parse_text(prog_text, "droplayer", &p, err, sizeof(err)),
		"a program of its operations and keys parses"))
		diag("%s", err);
	text = prog_print_text(&p);
	ok(text && strstr(text, "drop_high: 2\n") && strstr(text, "d3 = drop_get") &&
	   strstr(text, "drop_put d2"), "its keys and operations print back");
	free(text);
	{
		static uint8_t bin[65536];
		struct run_opts o = { .rec = REC_INPUT };
		struct prog q;
		long len;

		/* as the CLI encodes: the keyed decisions become steps */
		exec_run(e, &p, &o, &r);
		exec_step_decisions(e, &p);
		len = prog_encode_binary(&p, bin, sizeof(bin));

		ok(len > 0 && prog_decode_binary(bin, (size_t)len, &q) &&
		   config_get(&q.cfg, &ck_drop_high) == 2 && config_get(&q.cfg, &ck_drop_batch) == 2 &&
		   q.nops == p.nops, "its keys and operations survive the binary form");
	}
	ok(prog_parse_text("mmfuzz 1\ndrop_high: 17\ntask T0 cpu=0\n  d0 = drop_get\n", "bad", &p,
			   err, sizeof(err)) && strstr(err, "bad:2:"),
	   "drop_high past its range is refused at its line: %s", err);

	/* the clean run is clean, its ops ran, its hook fired */
	flushes_seen = 0;
	run(e, prog_text, 0, &r);
	ok(r.outcome == RUN_CLEAN && run_gets == 4 && flushes_seen > 0,
	   "the clean program runs clean (%s), 4 drop_gets, %lu flushes seen by the hook",
	   r.outcome == RUN_CLEAN ? "-" : r.v.signature, flushes_seen);

	/* its switch is caught by its checker, with its signature */
	run(e, prog_text, 1ULL << BUG_DROP_COUNT, &r);
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-DROP-1"),
	   "drop_count_leak is caught: %s", r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	diag("%s", r.v.msg);
	run(e, "mmfuzz 1\ncpus: 1\ndrop_high: 1\ndrop_batch: 1\nbugs: drop_count_leak\n"
	       "task T0 cpu=0\n  d0 = drop_get\n  d1 = drop_get\n"
	       "  drop_put d0\n  drop_put d1\n", 0, &r);
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-DROP-1"),
	   "... and named in the program's bugs: line: %s",
	   r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	run(e, prog_text, 0, &r);
	ok(r.outcome == RUN_CLEAN, "clean again after the violation (the world reset)");
	owner_forgets_depot = true;
	run(e, prog_text, 0, &r);
	owner_forgets_depot = false;
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-CONS"),
	   "its owner source counts: without the depot, I-CONS reports %s",
	   r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	diag("%s", r.v.msg);

	/* its object space: every token owned by the pool or by one handle */
	owner_forgets_pool = true;
	run(e, prog_text, 0, &r);
	owner_forgets_pool = false;
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-CONS") &&
	   strstr(r.v.msg, "drop token"),
	   "its object space counts: a free token owned by nobody, I-CONS reports %s",
	   r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	diag("%s", r.v.msg);
	owner_pool_keeps_0 = true;
	run(e, prog_text, 0, &r);
	owner_pool_keeps_0 = false;
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-CONS") &&
	   strstr(r.v.msg, "drop token"),
	   "... and a token owned by the pool and a handle at once: %s",
	   r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	diag("%s", r.v.msg);

	/* its state feature: registered, fed while attached, the run unchanged */
	{
		const struct state_feature *sf = check_state_lookup("drop cache fill");
		unsigned long hits0 = sf ? sf->hits : 0;
		uint64_t steps = 0, hash = 0;

		run(e, prog_text, 0, &r);
		steps = r.steps;
		hash = r.trace_hash;
		check_state_attach();
		run(e, prog_text, 0, &r);
		check_state_detach();
		ok(sf == &sf_drop_cache && sf->hits > hits0 && r.outcome == RUN_CLEAN &&
		   r.steps == steps && r.trace_hash == hash,
		   "state feature \"drop cache fill\" (key %u) fed %lu times, the run's steps and "
		   "trace unchanged", sf ? sf->key : 0, sf ? sf->hits - hits0 : 0);
	}
	exec_destroy(e);

	/* the stress runner runs its workload with its keys and prints its counters */
	stress_opts_default(&so);
	so.wl = stress_workload_lookup("drop1");
	so.tasks = 2;		/* two CPUs on one depot lock */
	so.seconds = 1;
	so.sample_ms = 100;
	so.warmup = 1;
	stress_opts_set(&so, k, 8);
	f = open_memstream(&out, &outlen);
	flushes_seen = 0;
	bit = stress_run(&so, f);
	fclose(f);
	ok(bit == 0 && out && strstr(out, "model.drop_get: ") && strstr(out, "model.drop_flush: ") &&
	   flushes_seen > 0,
	   "stress drop1 runs clean (%d) on real threads, its checker attached (%lu flushes), "
	   "and prints the layer's counters", bit, flushes_seen);
	if (out) {
		const char *l = strstr(out, "model.drop_get: ");

		if (l)
			diag("%.*s", (int)strcspn(l, "\n"), l);
	}
	free(out);
	ok(drop1_high == 8, "stress --set drop_high=8 reaches the workload's world (%d)", drop1_high);
	return tap_failed ? 1 : 0;
}

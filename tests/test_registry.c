// SPDX-License-Identifier: MIT
/*
 * The registry (src/sched/registry.h): a section of this file's own is
 * collected, sorted and looked up; duplicates, overflow and NULL entries
 * are refused with a message naming the entry and the limit, and
 * registry_collect() stops the process on them.  Then the registries the
 * tool has, through their lookups.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mm_world.h"
#include "tap.h"
#include "../src/prog/prog.h"
#include "../src/bugs/bugs.h"
#include "../src/sched/registry.h"

struct thing {
	const char *name;
	int rank;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct thing *)a)->name, ((const struct thing *)b)->name);
}

static int cmp_rank(const void *a, const void *b)
{
	return ((const struct thing *)a)->rank - ((const struct thing *)b)->rank;
}

static const char *thing_name(const void *e)
{
	return ((const struct thing *)e)->name;
}

/* three entries in a section of this test's own, registered out of order */
static const struct thing t_b = { "bravo", 2 }, t_a = { "alpha", 3 }, t_c = { "charlie", 1 };
REGISTER(mmfuzz_test_things, const struct thing *, __tp_b, &t_b);
REGISTER(mmfuzz_test_things, const struct thing *, __tp_a, &t_a);
REGISTER(mmfuzz_test_things, const struct thing *, __tp_c, &t_c);
REGISTRY_SECTION(mmfuzz_test_things);

static const struct registry things = {
	.what = "thing", .limit = "the test's cap",
	REGISTRY_BOUNDS(mmfuzz_test_things), .cap = 4,
	.key = cmp_name, .order = cmp_rank, .name = thing_name,
};

/* A registry over @v[0..n) instead of a section. */
static struct registry over(const struct thing **v, size_t n, size_t cap)
{
	struct registry r = things;

	r.start = (void **)v;
	r.stop = (void **)v + n;
	r.cap = cap;
	return r;
}

static void test_section(void)
{
	const void *out[4];
	size_t n = registry_collect(&things, out);

	is_int((int)registry_count(&things), 3, "the section holds the three entries");
	is_int((int)n, 3, "collect: three entries");
	ok(n == 3 && out[0] == &t_c && out[1] == &t_b && out[2] == &t_a,
	   "collect: sorted by order (rank), not by link order or name");
	ok(registry_lookup(&things, out, n, "alpha") == &t_a, "lookup: alpha");
	ok(registry_lookup(&things, out, n, "charlie") == &t_c, "lookup: charlie");
	ok(!registry_lookup(&things, out, n, "delta"), "lookup: no delta");
	ok(!registry_lookup(&things, out, 0, "alpha"), "lookup: nothing in an empty registry");
}

static void test_refusals(void)
{
	static const struct thing twin = { "alpha", 9 }, same_rank = { "delta", 3 };
	const struct thing *dup[] = { &t_a, &t_b, &twin };
	const struct thing *many[] = { &t_a, &t_b, &t_c, &same_rank, &twin };
	const struct thing *hole[] = { &t_a, NULL };
	const void *out[8];
	struct registry r;
	char err[256];
	size_t n = 99;

	r = over(dup, 3, 8);
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == -1 && n == 0,
	   "a name registered twice is refused");
	ok(strstr(err, "thing alpha registered twice") != NULL, "the message names it: %s", err);

	/* the key is the rank: two entries of one rank with different names */
	r = over((const struct thing *[]){ &t_a, &same_rank }, 2, 8);
	r.key = cmp_rank;
	r.keyname = "rank";
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == -1,
	   "two entries equal under the key are refused");
	ok(strstr(err, "things alpha and delta have the same rank") ||
	   strstr(err, "things delta and alpha have the same rank"),
	   "the message names both and the key: %s", err);

	r = over(many, 5, 4);
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == -1 && n == 0,
	   "more entries than the capacity are refused");
	ok(strstr(err, "5 things registered, more than the 4 this build holds (the test's cap)") !=
	   NULL, "the message gives the count and the limit: %s", err);

	r = over(many, 4, 4);
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == 0 && n == 4,
	   "exactly the capacity is taken");

	r = over(hole, 2, 4);
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == -1 && strstr(err, "NULL"),
	   "a NULL entry is refused: %s", err);

	/* no key: equal names are allowed (the yield sites') */
	r = over(dup, 3, 8);
	r.key = NULL;
	ok(registry_try_collect(&r, out, &n, err, sizeof(err)) == 0 && n == 3,
	   "without a key nothing is a duplicate");
}

/* registry_collect() on @r in a child: its stderr and whether it aborted. */
static bool collect_dies(const struct registry *r, char *msg, size_t len)
{
	int fd[2], status;
	ssize_t got;
	pid_t pid;

	fflush(stdout);
	if (pipe(fd))
		return false;
	pid = fork();
	if (!pid) {
		const void *out[8];

		dup2(fd[1], 2);
		close(fd[0]);
		registry_collect(r, out);
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], msg, len - 1);
	msg[got > 0 ? got : 0] = 0;
	msg[strcspn(msg, "\n")] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_collect_stops(void)
{
	static const struct thing twin_b = { "bravo", 7 };
	const struct thing *dup[] = { &t_a, &twin_b, &t_b };
	struct registry r = over(dup, 3, 8);
	char msg[512];

	ok(collect_dies(&r, msg, sizeof(msg)), "registry_collect stops the tool on a duplicate");
	ok(strstr(msg, "mmfuzz: registry of things: thing bravo registered twice") != NULL,
	   "and says why: %s", msg);
	r = over(dup, 3, 2);
	ok(collect_dies(&r, msg, sizeof(msg)) && strstr(msg, "3 things registered"),
	   "and on an overflow: %s", msg);
}

/* The all target's fold list: built from the registry, each layer the same
 * number of entries, a layer's entries its own target's fold list cycled. */
static void test_all_target(void)
{
	const struct fuzz_target *all = target_lookup("all"), *mm = target_lookup("mm");
	const char *layers[16];
	int per[16] = { 0 }, share[16] = { 0 }, nl = 0, i, j, bad = 0;

	ok(all && !all->layers && all->nfold > 0 && !strcmp(FUZZ_DEFAULT_TARGET, "all"),
	   "fuzz targets: all, every layer, the campaigns' default");
	for (i = 0; i < OP_CODES; i++) {
		const struct op_desc *d = op_by_code((unsigned)i);

		if (!d)
			continue;
		for (j = 0; j < nl && strcmp(layers[j], d->layer); j++)
			;
		if (j == nl)
			layers[nl++] = d->layer;
	}
	for (i = 0; i < all->nfold; i++) {
		const struct op_desc *d = op_by_code(all->fold[i]);
		const struct fuzz_target *own;
		unsigned char mine[OP_CODES];
		int k, n = 0, pos = i / nl;

		if (!d || strcmp(d->layer, layers[i % nl])) {
			bad++;
			continue;
		}
		per[i % nl]++;
		/* entry pos of the layer: its own target's list, cycled */
		own = target_lookup(d->layer);
		if (!own)
			continue;
		for (k = 0; k < own->nfold; k++)
			if (!strcmp(op_by_code(own->fold[k])->layer, d->layer))
				mine[n++] = own->fold[k];
		bad += n && mine[pos % n] != all->fold[i];
	}
	for (j = 1; j < nl; j++)
		bad += per[j] != per[0];
	ok(!bad && nl >= 3 && all->nfold == nl * per[0],
	   "all: %d layers, %d fold entries each, interleaved, each its own target's list", nl,
	   per[0]);
	for (i = 0; i < OP_CODES; i++) {
		const struct op_desc *d = op_by_code(target_fold(all, (unsigned)i));

		for (j = 0; j < nl && strcmp(layers[j], d->layer); j++)
			;
		share[j]++;
	}
	for (j = 0, bad = 0; j < nl; j++) {
		diag("all: layer %s means %d of the 256 codes", layers[j], share[j]);
		bad += share[j] < OP_CODES / (nl + 1);
	}
	ok(!bad, "all: every layer means at least 1/%d of the codes", nl + 1);
	ok(mm && mm->nfold == 10 && target_fold(mm, 0xff) == 5 && target_fold(mm, 0xc6) == 8,
	   "mm: its pinned fold list (the page allocator's first ten)");
}

static void test_tool_registries(void)
{
	int i, model = 0, last_model = -1, first_checker = 1 << 30;

	ok(config_key_lookup("pcp_high") == &ck_pcp_high, "config keys: pcp_high");
	ok(!config_key_lookup("no_such_key"), "config keys: no such key");
	ok(op_lookup("alloc_pages") != NULL, "operations: alloc_pages");
	ok(!op_lookup("no_such_op"), "operations: no such operation");
	ok(target_lookup("mm") != NULL, "fuzz targets: mm");
	ok(layer_lookup("pagealloc") && layer_lookup("shadow"), "world layers: pagealloc, shadow");
	for (i = 0; i < layers_count(); i++) {
		const struct world_layer *l = layer_by_id(i);

		if (l->order < LAYER_ORDER_CHECKER) {
			model++;
			last_model = i;
		} else if (i < first_checker) {
			first_checker = i;
		}
	}
	ok(model <= MAX_MODEL_LAYERS && layers_count() - model <= MAX_CHECKER_LAYERS,
	   "%d model and %d checker-state layers, each within its capacity", model,
	   layers_count() - model);
	ok(layer_lookup("shadow")->order >= LAYER_ORDER_CHECKER,
	   "the shadow is checker state, not a model layer");
	ok(last_model < first_checker, "checker-state layers come after every model layer");
}

/*
 * The switches' bits are the corpus files' (the binary header stores the
 * switches as bits): pinned here, whichever file registers each.
 */
static void test_bug_bits(void)
{
	static const char *const pinned[] = {
		"pcp_pick_unlocked", "pcp_free_nolock", "free_one_page_nolock",
		"vmstat_lost_update", "pcp_count_apart", "pcp_lock_irq", "rcu_gp_early",
		"lock_inversion_rare", "complete_early", "cmpxchg_double_one_word",
		"pcp_free_boot_pageset", "refill_counts_batch", "free_count_after_unlock",
		"tlb_pending_leak", "tlb_nested_flush_miss", "tlb_free_before_flush",
		"tlb_table_free_no_gp", "fault_pte_nolock",
	};
	int i, n = (int)(sizeof(pinned) / sizeof(pinned[0])), same = 0;

	for (i = 0; i < n; i++)
		same += bug_lookup(pinned[i]) == i && bug_name(i) && !strcmp(bug_name(i), pinned[i]);
	is_int(same, n, "every switch keeps its bit");
	ok(bugs_count() >= n && bug_by_index(0)->bit == 0, "the switches are listed by bit");
	ok(bug_lookup("no_such_switch") == -1 && !bug_name(63), "no switch: -1, NULL");
	ok((bugs_known() & ((1ULL << n) - 1)) == (1ULL << n) - 1,
	   "the known bits hold every pinned switch's");
}

/*
 * A world layer of this test's own, after the model's and before the
 * checker state: its livelock share and its counters reach the executor's
 * bound and the stress runner's lines with no file naming it.
 */
struct test_stat {
	unsigned long n;
};
static uint64_t test_steps;
static unsigned long test_counter;

static uint64_t test_max_op_steps(const struct mm_config *c)
{
	return test_steps;
}

static void test_stat_snap(struct world *w, void *snap)
{
	((struct test_stat *)snap)->n = test_counter;
}

static void test_stat_print(FILE *out, const void *a, const void *b,
			    const struct layer_stat_span *s)
{
	fprintf(out, "model.test_counter: %lu\nmodel.test_per_op: %.1f\n",
		((const struct test_stat *)b)->n - ((const struct test_stat *)a)->n,
		(double)(((const struct test_stat *)b)->n - ((const struct test_stat *)a)->n) /
		(double)s->ops);
}

static struct world_layer test_layer = {
	.name = "test_registry", .order = 900,
	.max_op_steps = test_max_op_steps,
	.stat_size = sizeof(struct test_stat),
	.stat_snap = test_stat_snap, .stat_print = test_stat_print,
};
WORLD_LAYER(test_layer);

static void test_layer_hooks(void)
{
	struct layer_stat_span span = { .run_ns = 1000000, .ns_per_cycle = 1.0, .ops = 2 };
	struct mm_config cfg;
	uint64_t base, big;
	struct world *w;
	char *out = NULL, *mine, *pcp;
	size_t len = 0;
	void *a, *b;
	FILE *f;

	config_default(&cfg);
	base = layers_max_op_steps(&cfg);
	test_steps = 12345;
	is_int((int)(layers_max_op_steps(&cfg) - base), 12345,
	       "max_op_steps: the bound adds a new layer's share");
	test_steps = 0;
	config_set(&cfg, &ck_zone_pages, 2 * config_get(&cfg, &ck_zone_pages));
	big = layers_max_op_steps(&cfg);
	ok(big > base, "max_op_steps: a larger zone allows more steps (%llu > %llu)",
	   (unsigned long long)big, (unsigned long long)base);

	w = mm_test_boot(NULL);
	a = calloc(1, layers_stat_size());
	b = calloc(1, layers_stat_size());
	f = open_memstream(&out, &len);
	if (!w || !a || !b || !f) {
		ok(0, "a world and its snapshots");
		return;
	}
	layers_stat_snap(w, a);
	test_counter += 7;
	layers_stat_snap(w, b);
	layers_stat_print(f, a, b, &span);
	fclose(f);
	mine = strstr(out, "model.test_counter: 7\nmodel.test_per_op: 3.5\n");
	pcp = strstr(out, "model.pcp_page_runs: ");
	ok(mine != NULL, "stat hooks: the layer's snapshot and print, b - a over the span's ops");
	ok(pcp && mine && pcp < mine, "stat hooks: in layer order, after the page allocator's");
	free(out);
	free(a);
	free(b);
	world_destroy(w);
}

int main(void)
{
	tap_plan(40);
	test_section();
	test_refusals();
	test_collect_stops();
	test_tool_registries();
	test_all_target();
	test_bug_bits();
	test_layer_hooks();
	return tap_failed ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * What the SLUB workloads share (slub_stress.h): caches with the command
 * line's knobs, the owner check at quiescence, the
 * slabinfo reader, and the counters.
 */
#include "slub_stress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/kernel/rcu_real.h"
#include "../src/kernel/rcupdate.h"
#include "../src/mm/internal.h"

/* ---- caches ---- */

struct kmem_cache *slub_stress_cache(struct slub_stress *ss, const char *name, unsigned int size,
				     unsigned long flags)
{
	const struct stress_opts *o = ss->run->o;
	struct kmem_cache *s;

	if (ss->ncaches == SLUB_STRESS_CACHES)
		return NULL;
	s = kmem_cache_create(name, size, 0, flags, NULL);
	if (!s) {
		fprintf(stderr, "mmfuzz stress: kmem_cache_create(%s, %u) failed\n", name, size);
		return NULL;
	}
	/* what writing /sys/kernel/slab/<cache>/min_partial and cpu_partial
	 * does (min_partial_store, cpu_partial_store -> slub_set_cpu_partial) */
	if (o->slub_min_partial >= 0)
		s->min_partial = (unsigned long)o->slub_min_partial;
	if (o->slub_cpu_partial >= 0)
		s->cpu_partial_slabs = (unsigned int)o->slub_cpu_partial;
	ss->cache[ss->ncaches++] = s;
	return s;
}

/* ---- the slabinfo reader ---- */

/* what `cat /proc/slabinfo` reads of each cache: get_slabinfo() (6.6
 * mm/slub.c:7096, src/mm/slub_partial.c), whose count_partial walks the
 * node's partial list under n->list_lock with IRQs off */
static void slabinfo_read(struct slub_stress *ss)
{
	struct slub_reader *rd = &ss->rd;
	unsigned long long nfree = 0, nslabs = 0;
	uint64_t t0 = __lock_tsc(), d;
	int i;

	for (i = 0; i < ss->ncaches; i++) {
		struct slabinfo si;

		get_slabinfo(ss->cache[i], &si);
		nfree += si.num_objs - si.active_objs;
		nslabs += si.num_slabs;
	}
	d = __lock_tsc() - t0;
	rd->reads++;
	rd->read_cycles += d;
	if (d > rd->read_max)
		rd->read_max = d;
	rd->free_sum += nfree;
	rd->slabs_sum += nslabs;
	if (nfree > rd->free_max)
		rd->free_max = nfree;
}

static void timespec_add_ns(struct timespec *ts, uint64_t ns)
{
	ts->tv_nsec += (long)(ns % 1000000000u);
	ts->tv_sec += (time_t)(ns / 1000000000u);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_nsec -= 1000000000L;
		ts->tv_sec++;
	}
}

static void *reader_main(void *arg)
{
	struct slub_stress *ss = arg;
	struct slub_reader *rd = &ss->rd;
	struct stress_run *r = ss->run;
	uint64_t period = 1000000000u / rd->hz;
	struct timespec next, now;
	volatile bool in_read = false;

	current_task = &rd->task;
	rd->task.exit_jb = &rd->jb;
	if (setjmp(rd->jb)) {
		/* a model assertion in the read: as a task's (runner.c) */
		if (in_read)
			pthread_mutex_unlock(&rd->gate);
		current_task = NULL;
		pthread_mutex_lock(&r->bar_lock);
		__atomic_store_n(&r->failed, 1, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&r->bar_runner);
		pthread_mutex_unlock(&r->bar_lock);
		stress_wake_runner();
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!__atomic_load_n(&rd->exit, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&rd->go, __ATOMIC_ACQUIRE)) {
			pthread_mutex_lock(&rd->gate);
			in_read = true;
			/* parked tasks: nothing is read until they go on */
			if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED) == STOP_NONE &&
			    !__atomic_load_n(&rd->exit, __ATOMIC_RELAXED))
				slabinfo_read(ss);
			in_read = false;
			pthread_mutex_unlock(&rd->gate);
		}
		timespec_add_ns(&next, period);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec + 1)
			next = now;	/* descheduled for long: do not catch up */
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	current_task = NULL;
	return NULL;
}

/* the highest simulated CPU no slot and not call_rcu's thread takes */
static int reader_cpu(struct stress_run *r, unsigned long tasks)
{
	const struct stress_workload *wl = r->o->wl;
	unsigned long want = wl->nr_cpus ? (unsigned long)wl->nr_cpus(tasks) : tasks, i;
	unsigned long used = 0;
	int cpu, skipped = 0;

	for (i = 0; i < want && i < MAX_CPUS; i++)
		used |= 1UL << stress_slot_cpu(r, i);
	for (cpu = r->ncpus - 1; cpu >= 0; cpu--) {
		if (used & (1UL << cpu))
			continue;
		if (!skipped++)
			continue;	/* the first free one is call_rcu's (runner.c) */
		return cpu;
	}
	return -1;
}

int slub_stress_init(struct stress_run *r, struct slub_stress *ss, unsigned long tasks)
{
	struct slub_reader *rd = &ss->rd;

	ss->run = r;
	ss->lat = stress_task_calloc(tasks, sizeof(struct slub_lat));
	if (!ss->lat)
		return -1;
	pthread_mutex_init(&rd->gate, NULL);
	rd->hz = r->o->reader_hz;
	if (!rd->hz)
		return 0;
	rd->task.cpu = reader_cpu(r, tasks);
	if (rd->task.cpu < 0) {
		fprintf(stderr, "mmfuzz stress: --reader-hz: no simulated CPU is left for the "
			"reader beside %lu tasks and call_rcu's thread\n", tasks);
		return -1;
	}
	rd->task.id = -3;
	rd->task.name = "slabinfo";
	if (pthread_create(&rd->thread, NULL, reader_main, ss)) {
		fprintf(stderr, "mmfuzz stress: cannot start the slabinfo reader\n");
		return -1;
	}
	rd->started = true;
	return 0;
}

void slub_stress_task_start(struct stress_task *t)
{
	struct slub_stress *ss = t->run->priv;

	if (t->nr == 0)
		__atomic_store_n(&ss->rd.go, 1, __ATOMIC_RELEASE);
}

static void reader_stop(struct slub_stress *ss)
{
	if (!ss->rd.started)
		return;
	__atomic_store_n(&ss->rd.exit, 1, __ATOMIC_RELEASE);
	pthread_join(ss->rd.thread, NULL);
	ss->rd.started = false;
}

/* ---- quiescence ---- */

static bool slab_of(struct slub_stress *ss, struct page *page, struct kmem_cache **sp)
{
	int i;

	if (!(page->flags & (1UL << PG_slab)))
		return false;
	for (i = 0; i < ss->ncaches; i++) {
		if (page_slab(page)->slab_cache == ss->cache[i]) {
			*sp = ss->cache[i];
			return true;
		}
	}
	return false;
}

/* every slab page of the caches, by its head (PG_slab) in the memmap */
static void for_each_slab(struct stress_run *r, void (*fn)(struct kmem_cache *s,
							struct slab *slab, void *arg),
			  void *arg)
{
	struct slub_stress *ss = r->priv;
	unsigned long pfn, nr = pa_world(r->w)->nr_pages;
	struct kmem_cache *s;

	for (pfn = 0; pfn < nr; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (slab_of(ss, page, &s)) {
			fn(s, page_slab(page), arg);
			pfn += (1UL << oo_order(s->oo)) - 1;
		}
	}
}

static void count_owned(struct kmem_cache *s, struct slab *slab, void *arg)
{
	char *p = page_address(slab_page(slab));
	unsigned int i;

	for (i = 0; i < slab->objects; i++, p += s->size)
		if (__atomic_load_n(obj_cookie(s, p), __ATOMIC_RELAXED) != SLUB_COOKIE_FREE)
			(*(unsigned long *)arg)++;
}

/* the reader out of its read; it reads nothing more while r->stop is set */
static void reader_hold_off(struct slub_stress *ss)
{
	pthread_mutex_lock(&ss->rd.gate);
	pthread_mutex_unlock(&ss->rd.gate);
}

static void rcu_drain(void)
{
	rcu_register_thread();
	kfree_rcu_drain();
	rcu_barrier();
	rcu_unregister_thread();
}

void slub_stress_quiesce(struct stress_run *r, unsigned long expect_live)
{
	struct slub_stress *ss = r->priv;
	unsigned long owned = 0;
	int i;

	reader_hold_off(ss);
	if (ss->uses_rcu)
		rcu_drain();
	for (i = 0; i < ss->ncaches; i++)
		validate_slab_cache(ss->cache[i]);
	for_each_slab(r, count_owned, &owned);
	if (owned != expect_live)
		sched_violation("I-SL-OWNER", "slub_stress", "%lu objects owned in the caches' "
				"slabs, the tasks hold %lu", owned, expect_live);
}

void slub_stress_cleanup(struct stress_run *r)
{
	struct slub_stress *ss = r->priv;
	int i;

	reader_stop(ss);
	if (ss->uses_rcu)
		rcu_drain();
	for (i = 0; i < ss->ncaches; i++)
		kmem_cache_destroy(ss->cache[i]);
	ss->ncaches = 0;
	pthread_mutex_destroy(&ss->rd.gate);
	free(ss->lat);
	ss->lat = NULL;
}

void slub_stress_print_config(struct stress_run *r, FILE *out)
{
	const struct stress_opts *o = r->o;

	fprintf(out, "config.slub_reader_hz: %lu\n", o->reader_hz);
	if (o->slub_min_partial >= 0)
		fprintf(out, "config.slub_min_partial: %ld\n", o->slub_min_partial);
	else
		fprintf(out, "config.slub_min_partial: %d\n", SLUB_MIN_PARTIAL);
	if (o->slub_cpu_partial >= 0)
		fprintf(out, "config.slub_cpu_partial: %ld\n", o->slub_cpu_partial);
	else
		fprintf(out, "config.slub_cpu_partial: %d\n", SLUB_CPU_PARTIAL_SLABS);
}

/* ---- counters ---- */

size_t slub_stress_stat_size(void)
{
	return sizeof(struct slub_stress_stat);
}

void slub_stress_stat_snap(struct stress_run *r, void *snap)
{
	struct slub_stress *ss = r->priv;
	struct slub_stress_stat *st = snap;
	unsigned long t;
	int i, j;

	if (!ss)
		return;
	/* the reader's figures and list_lock's statistics are written under
	 * the gate or by parked tasks: the gate orders them before these reads
	 * and the hold_max reset before the reader's next acquisition */
	pthread_mutex_lock(&ss->rd.gate);
	for (i = 0; i < ss->ncaches; i++) {
		struct kmem_cache *s = ss->cache[i];
		struct kmem_cache_node *n = get_node(s, 0);
		struct lock_stat *ls = &n->list_lock.st;
		struct slab *slab;

		for (j = 0; j < NR_SLUB_STAT_ITEMS; j++)
			st->stat[j] += slub_stat_sum(s, (enum stat_item)j);
		st->ll_acquired += ls->acquired;
		st->ll_contended += __atomic_load_n(&ls->contended, __ATOMIC_RELAXED);
		st->ll_hold += ls->hold_cycles;
		if (ls->hold_max > st->ll_hold_max)
			st->ll_hold_max = ls->hold_max;
		ls->hold_max = 0;
		st->nr_partial += n->nr_partial;
		list_for_each_entry(slab, &n->partial, slab_list)
			st->partial_free += (unsigned long)(slab->objects - slab->inuse);
		if (!i)
			st->slab_pages = 1u << oo_order(s->oo);
	}
	st->reads = ss->rd.reads;
	st->read_cycles = ss->rd.read_cycles;
	st->read_max = ss->rd.read_max;
	ss->rd.read_max = 0;
	st->free_sum = ss->rd.free_sum;
	st->slabs_sum = ss->rd.slabs_sum;
	st->free_max = ss->rd.free_max;
	ss->rd.free_max = 0;
	pthread_mutex_unlock(&ss->rd.gate);
	kfree_rcu_stats(&st->krc);
	st->rcu_cbs_pending = rcu_cbs_pending();
	st->gp_cookie = get_state_synchronize_rcu();
	st->throttled = __atomic_load_n(&ss->throttled, __ATOMIC_RELAXED);
	for (t = 0; t < r->ntasks; t++) {
		for (j = 0; j < SLUB_LAT_BUCKETS; j++)
			st->lat[j] += ss->lat[t].n[j];
		st->ts_lookups += ss->lat[t].ts_lookups;
		st->ts_stale += ss->lat[t].ts_stale;
	}
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* the bucket's least value, in cycles */
static double lat_value(unsigned int idx)
{
	unsigned int e, sub;

	if (idx < 16)
		return idx;
	e = (idx - 16) / 8 + 4;
	sub = (idx - 16) % 8;
	return (double)((8ull + sub) << (e - 3));
}

/* the q-quantile of the histogram b - a, in cycles (the bucket's least) */
static double lat_quantile(const struct slub_stress_stat *a, const struct slub_stress_stat *b,
			   double q, unsigned long long total)
{
	unsigned long long want = (unsigned long long)(q * (double)total), sum = 0;
	unsigned int i;

	for (i = 0; i < SLUB_LAT_BUCKETS; i++) {
		sum += b->lat[i] - a->lat[i];
		if (sum > want)
			return lat_value(i);
	}
	return 0;
}

static const char *const slub_stat_names[NR_SLUB_STAT_ITEMS] = {
	[ALLOC_FASTPATH] = "alloc_fastpath", [ALLOC_SLOWPATH] = "alloc_slowpath",
	[FREE_FASTPATH] = "free_fastpath", [FREE_SLOWPATH] = "free_slowpath",
	[FREE_FROZEN] = "free_frozen", [CPU_PARTIAL_FREE] = "cpu_partial_free",
	[ALLOC_SLAB] = "alloc_slab", [FREE_SLAB] = "free_slab",
	[DEACTIVATE_FULL] = "deactivate_full",
	[CMPXCHG_DOUBLE_CPU_FAIL] = "cmpxchg_double_cpu_fail",
	[CMPXCHG_DOUBLE_FAIL] = "cmpxchg_double_fail",
	[ALLOC_FROM_PARTIAL] = "alloc_from_partial", [CPU_PARTIAL_NODE] = "cpu_partial_node",
};

void slub_stress_stat_print(FILE *out, const void *sa, const void *sb,
			    const struct layer_stat_span *span)
{
	const struct slub_stress_stat *a = sa, *b = sb;
	double npc = span->ns_per_cycle;
	unsigned long acq = b->ll_acquired - a->ll_acquired;
	unsigned long cont = b->ll_contended - a->ll_contended;
	double hold = (double)(b->ll_hold - a->ll_hold) * npc;
	unsigned long reads = b->reads - a->reads;
	unsigned long long nfree = 0, ops = span->ops ? span->ops : 1;
	unsigned int i;

	for (i = 0; i < NR_SLUB_STAT_ITEMS; i++) {
		if (slub_stat_names[i])
			fprintf(out, "model.slub.%s: %lu\n", slub_stat_names[i],
				b->stat[i] - a->stat[i]);
		else	/* an item slab.h added and this list has not named */
			fprintf(out, "model.slub.stat_item_%u: %lu\n", i, b->stat[i] - a->stat[i]);
	}
	fprintf(out, "model.slub.cmpxchg_retries: %lu\n",
		b->stat[CMPXCHG_DOUBLE_CPU_FAIL] - a->stat[CMPXCHG_DOUBLE_CPU_FAIL] +
		b->stat[CMPXCHG_DOUBLE_FAIL] - a->stat[CMPXCHG_DOUBLE_FAIL]);
	/* the page allocator's part of an op: slab pages per op */
	fprintf(out, "model.slub.slab_pages_per_kop: %.3f\n",
		1000.0 * (double)(b->stat[ALLOC_SLAB] - a->stat[ALLOC_SLAB]) * b->slab_pages /
		(double)ops);
	fprintf(out, "model.slub.list_lock.acquired: %lu\n", acq);
	fprintf(out, "model.slub.list_lock.contended: %lu\n", cont);
	fprintf(out, "model.slub.list_lock.contended%%: %.2f\n", pct((double)cont, (double)acq));
	fprintf(out, "model.slub.list_lock.hold_ns_per_acquire: %.1f\n", acq ? hold / (double)acq : 0.0);
	fprintf(out, "model.slub.list_lock.hold_ns_max: %.0f\n", (double)b->ll_hold_max * npc);
	fprintf(out, "model.slub.list_lock.busy%%: %.2f\n", pct(hold, (double)span->run_ns));
	/* state at the end */
	fprintf(out, "model.slub.nr_partial: %lu\n", b->nr_partial);
	fprintf(out, "model.slub.partial_free_objects: %lu\n", b->partial_free);
	for (i = 0; i < SLUB_LAT_BUCKETS; i++)
		nfree += b->lat[i] - a->lat[i];
	fprintf(out, "model.slub.frees_timed: %llu\n", nfree);
	if (nfree) {
		unsigned int top = SLUB_LAT_BUCKETS;

		fprintf(out, "model.slub.free_p50_ns: %.0f\n", lat_quantile(a, b, 0.5, nfree) * npc);
		fprintf(out, "model.slub.free_p99_ns: %.0f\n", lat_quantile(a, b, 0.99, nfree) * npc);
		fprintf(out, "model.slub.free_p999_ns: %.0f\n", lat_quantile(a, b, 0.999, nfree) * npc);
		fprintf(out, "model.slub.free_p9999_ns: %.0f\n",
			lat_quantile(a, b, 0.9999, nfree) * npc);
		while (top > 0 && b->lat[top - 1] == a->lat[top - 1])
			top--;
		fprintf(out, "model.slub.free_max_ns: %.0f\n", top ? lat_value(top - 1) * npc : 0.0);
	}
	fprintf(out, "model.slub.slabinfo_reads: %lu\n", reads);
	fprintf(out, "model.slub.slabinfo_read_ns: %.0f\n",
		reads ? (double)(b->read_cycles - a->read_cycles) * npc / (double)reads : 0.0);
	fprintf(out, "model.slub.slabinfo_read_ns_max: %.0f\n", (double)b->read_max * npc);
	/* nr_free: count_partial(n, count_free), the partial lists' free objects */
	fprintf(out, "model.slub.slabinfo_free_objs_mean: %.1f\n",
		reads ? (double)(b->free_sum - a->free_sum) / (double)reads : 0.0);
	fprintf(out, "model.slub.slabinfo_free_objs_max: %llu\n", b->free_max);
	fprintf(out, "model.slub.slabinfo_num_slabs_mean: %.1f\n",
		reads ? (double)(b->slabs_sum - a->slabs_sum) / (double)reads : 0.0);
	/* SLAB_TYPESAFE_BY_RCU lookups (slub_rcu1): found, and found reused */
	fprintf(out, "model.slub.typesafe_lookups: %lu\n", b->ts_lookups - a->ts_lookups);
	fprintf(out, "model.slub.typesafe_reused: %lu\n", b->ts_stale - a->ts_stale);
	fprintf(out, "model.rcu.kfree_rcu_calls: %lu\n", b->krc.calls - a->krc.calls);
	fprintf(out, "model.rcu.kfree_rcu_freed: %lu\n",
		b->krc.freed_polled + b->krc.freed_batch + b->krc.freed_inline -
		a->krc.freed_polled - a->krc.freed_batch - a->krc.freed_inline);
	fprintf(out, "model.rcu.kfree_rcu_freed_polled: %lu\n", b->krc.freed_polled - a->krc.freed_polled);
	fprintf(out, "model.rcu.kfree_rcu_head_list: %lu\n", b->krc.head_list - a->krc.head_list);
	/* each batch waits for a grace period of its own (queue_rcu_work) */
	fprintf(out, "model.rcu.kfree_rcu_batches: %lu\n", b->krc.batches - a->krc.batches);
	/* the synchronize_rcu() grace periods (kfree_rcu's inline frees, the
	 * drain at each check): the real-mode sequence moves 2 a grace period */
	fprintf(out, "model.rcu.synchronize_gps: %lu\n", (b->gp_cookie - a->gp_cookie) / 2);
	fprintf(out, "model.rcu.kfree_rcu_throttled: %lu\n", b->throttled - a->throttled);
	/* state at the end, after the drain: 0 unless a free was lost */
	fprintf(out, "model.rcu.kfree_rcu_pending: %lu\n", b->krc.pending);
	fprintf(out, "model.rcu.callbacks_pending: %lu\n", b->rcu_cbs_pending);
}

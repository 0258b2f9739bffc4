// SPDX-License-Identifier: MIT
/*
 * deferred_init1: seed 002's measurement.  The world boots as 6.6 boots
 * with CONFIG_DEFERRED_STRUCT_PAGE_INIT: each node's memmap past its
 * first_deferred_pfn is left uninitialised (src/mm/deferred.h), and the
 * run is page_alloc_init_late: one pgdatinit%d kernel thread per node,
 * bound to the node's first CPU, runs deferred_init_memmap, which hands
 * each free range to padata_do_multithreaded with
 * deferred_page_init_max_threads() helpers (--variant one: 6.6's generic
 * 1; node_cpus: x86's, and every architecture's after seed 002).  The
 * pgdatinit threads and padata's helpers are real threads (the runner's
 * worker pool, stress/unbound_wq.c, which padata takes as its
 * system_unbound_wq), each a task of the simulated CPU it was started on.
 *
 * The machine: 2 nodes of 4 CPUs, each node one zone of 2^20 pages (4 GiB
 * of 4 KiB pages: 2^20 struct pages of 64 bytes, 64 MiB of memmap a node,
 * and the model's 64 bytes of "memory" behind each page), sections of 2^15
 * pages (x86-64's 128 MiB).  --set zone_pages=N makes it smaller (the
 * tests), --set nodes=1 one node of 8 CPUs.
 *
 * What it prints, after testcase:, is what the kernel prints, one line a
 * node as each finishes:
 *
 *	node 0 deferred pages initialised in 210ms
 *
 * then per node the pages, threads, padata works, the time in ms, the CPU
 * time its chunks and its pgdatinit thread used, and per page and per GiB
 * beside seed 002's kernels (1.8 to 3.9 ms per GiB on one thread), then a
 * CSV (lines "csv,..."): a row per node, and with --sim-cpus N,... a row
 * per node and N: padata's arithmetic for a node of N CPUs
 * (padata_mt_nworks, padata_mt_chunk_size: the model's own), its chunks
 * handed to the helpers in claim order (each to the helper free first),
 * each chunk costing what the pfns it covers cost on this machine's
 * threads (their thread CPU time in this run), and the node's time the
 * largest helper share, one job after another.  pgdatinit's own CPU
 * time outside its chunks is printed beside (serial_cpu_ms), not added:
 * in real mode it includes its wait for the helpers, which
 * wait_for_completion spins through with sched_yield().
 *
 * --alloc-during-init: the tasks (-t) allocate order-0 and order-4 blocks
 * (GFP_NOWAIT) up to more than boot initialised, free them, and again,
 * from before the init starts (so allocations run out of initialised
 * memory and deferred_grow_zone grows the zone) until it is over.  One op
 * of the run is a page initialised (average: pages per second of the
 * init); the tasks' batches are not counted.  Without it the tasks wait.
 *
 * Lock order: di->lock is a leaf (no model lock is held under it).
 */
#include "stress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/kernel/padata.h"
#include "../src/mm/deferred.h"

#define DI1_MAX_CHUNKS	16384
#define DI1_SECTION_SHIFT	5	/* x86-64: 2^15-page sections (SECTION_SIZE_BITS 27) over
					 * 2^10-page MAX_ORDER blocks */
#define DI1_ZONE_PAGES	(1L << 20)	/* 4 GiB of 4 KiB pages */

/* One thread_fn call of padata, timed on the thread that ran it. */
struct di1_chunk {
	int nid;
	bool by_caller;			/* the pgdatinit thread ran it */
	unsigned long start, end, job_start, align, min_chunk;
	uint64_t cpu_ns, wall_ns;
};

struct di1_node {
	struct di1 *di;
	pg_data_t *pgdat;
	int nid, cpu;
	char name[16];
	uint64_t t0, t1, cpu_ns;	/* pgdatinit's wall clock and CPU time */
	bool done;
	long managed0, managed1;
};

struct di1 {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int nodes_left;
	int done;			/* the init is over: tasks stop (atomic) */
	int order_done[MAX_NUMNODES];	/* nodes in the order they finished */
	int norder;
	struct di1_node node[MAX_NUMNODES];
	int nnodes;
	unsigned long hold;		/* pages a task holds at most (alloc) */
	unsigned long long fails;	/* the tasks' failed allocations (atomic) */
	unsigned long long batches;	/* (atomic) */
};

static struct di1_chunk di1_chunks[DI1_MAX_CHUNKS];
static unsigned int di1_nchunks;	/* atomic; may pass the array: not kept */
static __thread uint64_t di1_tls_cpu0, di1_tls_wall0;
static __thread bool di1_tls_pgdatinit;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int pfn_nid(unsigned long pfn)
{
	pg_data_t *pgdat;

	for_each_online_pgdat(pgdat)
		if (pfn >= pgdat->node_start_pfn &&
		    pfn < pgdat->node_start_pfn + pgdat->node_spanned_pages)
			return pgdat->node_id;
	return 0;
}

/* padata_hooks.chunk: a chunk's thread CPU time and wall clock */
static void di1_chunk_hook(const struct padata_mt_job *job, unsigned long job_start,
			   unsigned long start, unsigned long end, bool done)
{
	struct di1_chunk *c;
	unsigned int i;

	if (!done) {
		di1_tls_cpu0 = thread_cpu_ns();
		di1_tls_wall0 = stress_now_ns();
		return;
	}
	i = __atomic_fetch_add(&di1_nchunks, 1, __ATOMIC_RELAXED);
	if (i >= DI1_MAX_CHUNKS)
		return;
	c = &di1_chunks[i];
	c->cpu_ns = thread_cpu_ns() - di1_tls_cpu0;
	c->wall_ns = stress_now_ns() - di1_tls_wall0;
	c->nid = pfn_nid(start);
	c->by_caller = di1_tls_pgdatinit;
	c->start = start;
	c->end = end;
	c->job_start = job_start;
	c->align = job->align;
	c->min_chunk = job->min_chunk;
}

static void di1_configure(const struct stress_opts *o, struct mm_config *cfg)
{
	(void)o;
	config_big_zones = true;
	config_set(cfg, &ck_nodes, 2);
	config_set(cfg, &ck_zones, 1);
	config_set(cfg, &ck_zone_pages, DI1_ZONE_PAGES);
	config_set(cfg, &ck_deferred_init, 1);
	config_set(cfg, &ck_section_order, DI1_SECTION_SHIFT);
}

static int di1_prepare(struct stress_run *r, unsigned long tasks)
{
	struct di1 *di = calloc(1, sizeof(*di));
	unsigned long managed = 0, i;
	pg_data_t *pgdat;

	if (!di)
		return -1;
	pthread_mutex_init(&di->lock, NULL);
	pthread_cond_init(&di->cond, NULL);
	r->priv = di;
	if (!deferred_init_pending(r->w)) {
		fprintf(stderr, "mmfuzz stress: deferred_init1: the world booted with no deferred "
			"init pending (--set deferred_init=0, or nodes too small for a section "
			"past the first)\n");
		return -1;
	}
	for_each_online_pgdat(pgdat) {
		struct di1_node *n = &di->node[di->nnodes++];
		struct zone *zone;
		int cpu;

		n->di = di;
		n->pgdat = pgdat;
		n->nid = pgdat->node_id;
		for (cpu = 0; cpu < r->ncpus; cpu++)
			if (cpumask_test_cpu(cpu, cpumask_of_node(n->nid)))
				break;
		n->cpu = cpu < r->ncpus ? cpu : 0;
		snprintf(n->name, sizeof(n->name), "pgdatinit%d", n->nid);
		for (zone = pgdat->node_zones; zone < pgdat->node_zones + MAX_NR_ZONES; zone++)
			managed += (unsigned long)atomic_long_read(&zone->managed_pages);
	}
	/* more than boot initialised, all tasks together: some must grow */
	di->hold = managed * 5 / 4 / (tasks ? tasks : 1) + 64;
	for (i = 0; r->o->alloc_during_init && i < tasks; i++) {
		r->tasks[i].priv = stress_task_calloc(di->hold, sizeof(struct page *));
		if (!r->tasks[i].priv)
			return -1;
	}
	/*
	 * The run of deferred init's checker (I-DI-1..4) on this world, alone
	 * (the others' run_begin is for fiber runs: the oracles): it counts
	 * every pfn's inits and frees through its hooks, and its owner source
	 * then knows which deferred pfns the buddy has (without the counts it
	 * can only say "all of them still deferred").
	 */
	if (check_run_begin_one(r->w, "I-DI-1..4")) {
		fprintf(stderr, "mmfuzz stress: deferred_init1: no checker I-DI-1..4\n");
		return -1;
	}
	__atomic_store_n(&di1_nchunks, 0, __ATOMIC_RELAXED);
	stress_wq_start(r);
	/* pgdatinit and every helper of every node at once, made beforehand */
	stress_wq_prestart(di->nnodes * (r->ncpus / di->nnodes + 1));
	return 0;
}

static bool di1_done(struct di1 *di)
{
	return __atomic_load_n(&di->done, __ATOMIC_ACQUIRE);
}

/* Allocate up to di->hold pages (order 0 and 4 in turn), touch, free all. */
static void di1_batch(struct stress_task *t, struct di1 *di)
{
	struct page **pg = t->priv;
	unsigned long n = 0, pages = 0, i;

	while (pages < di->hold && !di1_done(di)) {
		unsigned int order = (n & 1) ? 4 : 0;
		struct page *page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, order);

		if (!page) {
			__atomic_fetch_add(&di->fails, 1, __ATOMIC_RELAXED);
			break;
		}
		stress_touch(page, order);
		pg[n++] = page;
		pages += 1UL << order;
	}
	for (i = 0; i < n; i++)
		__free_pages(pg[i], (i & 1) ? 4 : 0);
	__atomic_fetch_add(&di->batches, 1, __ATOMIC_RELAXED);
}

static void di1_testcase(struct stress_task *t)
{
	struct di1 *di = t->run->priv;

	while (stress_continue(t)) {
		if (t->run->o->alloc_during_init && !di1_done(di)) {
			di1_batch(t, di);
			stress_count(t, 1);
			continue;
		}
		/* nothing to do until the init is over; then park and end */
		pthread_mutex_lock(&di->lock);
		while (!di1_done(di))
			pthread_cond_wait(&di->cond, &di->lock);
		pthread_mutex_unlock(&di->lock);
		if (!__atomic_load_n(&t->run->stop, __ATOMIC_RELAXED))
			sched_yield();
	}
}

/* pgdatinit%d: deferred_init_memmap on the node's first CPU */
static void di1_pgdatinit(void *arg)
{
	struct di1_node *n = arg;
	struct di1 *di = n->di;
	uint64_t cpu0 = thread_cpu_ns();

	di1_tls_pgdatinit = true;
	n->t0 = stress_now_ns();
	deferred_init_memmap(n->pgdat);
	n->t1 = stress_now_ns();
	n->cpu_ns = thread_cpu_ns() - cpu0;
	di1_tls_pgdatinit = false;
	pthread_mutex_lock(&di->lock);
	n->done = true;
	di->order_done[di->norder++] = n->nid;
	di->nodes_left--;
	pthread_cond_broadcast(&di->cond);
	pthread_mutex_unlock(&di->lock);
}

/* page_alloc_init_late's tail on the runner: every node done, key off */
static void di1_init_late(struct stress_run *r, void *arg)
{
	(void)r;
	(void)arg;
	deferred_init_wait();
}

static long node_managed(pg_data_t *pgdat)
{
	struct zone *zone;
	long m = 0;

	for (zone = pgdat->node_zones; zone < pgdat->node_zones + MAX_NR_ZONES; zone++)
		m += atomic_long_read(&zone->managed_pages);
	return m;
}

static double ms_per_gib(double ms, unsigned long pages)
{
	return pages ? ms / ((double)pages * 4096.0 / (double)(1UL << 30)) : 0;
}

/* The CPU ns the measured chunks of @nid spent on [s, e), pro rata. */
static double cost_of(int nid, unsigned long s, unsigned long e, unsigned int nchunks)
{
	double ns = 0;
	unsigned int i;

	for (i = 0; i < nchunks; i++) {
		const struct di1_chunk *c = &di1_chunks[i];
		unsigned long lo = c->start > s ? c->start : s, hi = c->end < e ? c->end : e;

		if (c->nid == nid && lo < hi && c->end > c->start)
			ns += (double)c->cpu_ns * (double)(hi - lo) / (double)(c->end - c->start);
	}
	return ns;
}

/*
 * A node of @ncpus CPUs: each job the node ran (the chunks with one job
 * start, the job ending where its last chunk ends), padata's arithmetic
 * for max_threads @ncpus, its chunks claimed in order by the helper free
 * first.  Returns the node's ns (the jobs one after another, each its
 * largest helper share); the works and chunk size of the largest job and
 * its largest share in pages.
 */
static double sim_node(int nid, unsigned int ncpus, unsigned int nchunks,
		       int *nworks_out, unsigned long *chunk_out, unsigned long *share_out)
{
	double total = 0, load[4096];
	unsigned long share[4096], done_start[64];
	unsigned long biggest = 0;
	unsigned int i, njobs = 0;

	*nworks_out = 0;
	*chunk_out = 0;
	*share_out = 0;
	for (i = 0; i < nchunks; i++) {
		const struct di1_chunk *c = &di1_chunks[i];
		struct padata_mt_job job;
		unsigned long start, job_end = 0, s, cs;
		double span = 0;
		unsigned int j, k, kmax;
		int nworks;
		bool seen = false;

		if (c->nid != nid)
			continue;
		for (j = 0; j < njobs; j++)
			seen |= done_start[j] == c->job_start;
		if (seen || njobs == 64)
			continue;
		done_start[njobs++] = c->job_start;
		start = c->job_start;
		for (j = 0; j < nchunks; j++)
			if (di1_chunks[j].nid == nid && di1_chunks[j].job_start == c->job_start &&
			    di1_chunks[j].end > job_end)
				job_end = di1_chunks[j].end;
		memset(&job, 0, sizeof(job));
		job.start = start;
		job.size = job_end - start;
		job.align = c->align;
		job.min_chunk = c->min_chunk;
		job.max_threads = (int)ncpus;
		nworks = padata_mt_nworks(&job);
		if (nworks > 4096)
			nworks = 4096;
		cs = nworks == 1 ? job.size : padata_mt_chunk_size(&job, nworks);
		for (k = 0; k < (unsigned int)nworks; k++) {
			load[k] = 0;
			share[k] = 0;
		}
		for (s = job.start; s < job_end;) {
			unsigned long e = (s + cs) / cs * cs;	/* roundup(s + 1, cs) */
			unsigned int best = 0;

			if (e > job_end)
				e = job_end;
			for (k = 1; k < (unsigned int)nworks; k++)
				if (load[k] < load[best])
					best = k;
			load[best] += cost_of(nid, s, e, nchunks);
			share[best] += e - s;
			s = e;
		}
		kmax = 0;
		for (k = 1; k < (unsigned int)nworks; k++)
			if (load[k] > load[kmax])
				kmax = k;
		span = load[kmax];
		total += span;
		if (job.size >= biggest) {
			biggest = job.size;
			*nworks_out = nworks;
			*chunk_out = cs;
			*share_out = share[kmax];
		}
	}
	return total;
}

static const char *variant_name(struct stress_run *r, char *buf, size_t n)
{
	return config_value_str(&ck_deferred_threads, config_get(&r->w->config, &ck_deferred_threads),
				buf, n);
}

static int di1_run(struct stress_run *r, FILE *out, unsigned long long *ops, uint64_t *ns)
{
	struct di1 *di = r->priv;
	uint64_t t0, t1, wait_until;
	unsigned long long pages_all = 0;
	unsigned int nchunks, k;
	char vbuf[32];
	int i, rc = 0;

	/* the allocating tasks first use up what boot initialised */
	wait_until = stress_now_ns() + 2000000000ull;
	while (r->o->alloc_during_init && stress_now_ns() < wait_until &&
	       __atomic_load_n(&di->batches, __ATOMIC_RELAXED) < r->ntasks &&
	       !__atomic_load_n(&r->failed, __ATOMIC_ACQUIRE))
		sched_yield();

	padata_hooks.chunk = di1_chunk_hook;
	pthread_mutex_lock(&di->lock);
	for (i = 0; i < di->nnodes; i++) {
		di->node[i].managed0 = node_managed(di->node[i].pgdat);
		di->nodes_left++;
	}
	pthread_mutex_unlock(&di->lock);
	/*
	 * page_alloc_init_late's first half (deferred_init_start) with real
	 * threads: "there will be num_node_state(N_MEMORY) threads", then
	 * kthread_run per node.  deferred_init_start has fibers' kthreads
	 * only (in real mode it runs every node in the caller, one after
	 * another), so the workload does its two steps here.
	 */
	{
		struct deferred_world *dw = deferred_world(r->w);

		atomic_set(&dw->pgdat_init_n_undone, di->nnodes);
		__atomic_store_n(&dw->init_started, true, __ATOMIC_RELEASE);
	}
	t0 = stress_now_ns();
	for (i = 0; i < di->nnodes; i++)
		if (!stress_kthread_run(di1_pgdatinit, &di->node[i], di->node[i].cpu,
					di->node[i].name))
			di1_pgdatinit(&di->node[i]);	/* no worker: in the runner */
	pthread_mutex_lock(&di->lock);
	while (di->nodes_left && !__atomic_load_n(&r->failed, __ATOMIC_ACQUIRE)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20000000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&di->cond, &di->lock, &ts);
	}
	pthread_mutex_unlock(&di->lock);
	if (__atomic_load_n(&r->failed, __ATOMIC_ACQUIRE)) {
		stress_report_violation(r);
		return 1;
	}
	if (stress_as_runner(r, di1_init_late, NULL))
		return 1;
	t1 = stress_now_ns();
	padata_hooks.chunk = NULL;
	stress_wq_flush();

	pthread_mutex_lock(&di->lock);
	__atomic_store_n(&di->done, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&di->cond);
	pthread_mutex_unlock(&di->lock);

	/* the kernel's lines, as each node finished */
	for (k = 0; k < (unsigned int)di->norder; k++) {
		struct deferred_node_stat st;
		int nid = di->order_done[k];
		struct di1_node *n = &di->node[nid];

		deferred_node_stat_get(r->w, nid, &st);
		fprintf(out, "node %d deferred pages initialised in %llums\n", nid,
			(unsigned long long)((st.ns ? st.ns : n->t1 - n->t0) / 1000000u));
	}
	nchunks = __atomic_load_n(&di1_nchunks, __ATOMIC_RELAXED);
	if (nchunks > DI1_MAX_CHUNKS) {
		fprintf(stderr, "mmfuzz stress: deferred_init1: %u chunks, %d timed: --sim-cpus "
			"and the CPU times count the first ones only\n", nchunks, DI1_MAX_CHUNKS);
		nchunks = DI1_MAX_CHUNKS;
	}
	fprintf(out, "csv,kind,variant,node,threads,nworks,jobs,pages,ms,cpu_ms,ns_per_page,"
		"ms_per_gib\n");
	for (i = 0; i < di->nnodes; i++) {
		struct di1_node *n = &di->node[i];
		struct deferred_node_stat st;
		double ms, cpu_ms = (double)n->cpu_ns / 1e6, serial_ns = (double)n->cpu_ns, one;
		unsigned long pages;

		deferred_node_stat_get(r->w, n->nid, &st);
		n->managed1 = node_managed(n->pgdat);
		/* what the init freed to the buddy (managed_pages is earned) */
		pages = st.pages_initialised ? st.pages_initialised
					     : (unsigned long)(n->managed1 - n->managed0);
		pages_all += pages;
		ms = (double)(st.ns ? st.ns : n->t1 - n->t0) / 1e6;
		for (k = 0; k < nchunks; k++)
			if (di1_chunks[k].nid == n->nid) {
				if (di1_chunks[k].by_caller)
					serial_ns -= (double)di1_chunks[k].cpu_ns;
				else
					cpu_ms += (double)di1_chunks[k].cpu_ns / 1e6;
			}
		if (serial_ns < 0)
			serial_ns = 0;
		fprintf(out, "deferred_init1.node%d.serial_cpu_ms: %.2f\n", n->nid, serial_ns / 1e6);
		fprintf(out, "deferred_init1.node%d.pages: %lu\n", n->nid, pages);
		fprintf(out, "deferred_init1.node%d.pages_grown: %lu\n", n->nid, st.pages_grown);
		fprintf(out, "deferred_init1.node%d.grows: %lu\n", n->nid, st.nr_grows);
		fprintf(out, "deferred_init1.node%d.managed_pages_added: %ld\n", n->nid,
			n->managed1 - n->managed0);
		fprintf(out, "deferred_init1.node%d.threads: %d\n", n->nid, st.max_threads);
		fprintf(out, "deferred_init1.node%d.nworks: %d\n", n->nid, st.nworks);
		fprintf(out, "deferred_init1.node%d.jobs: %lu\n", n->nid, st.nr_jobs);
		fprintf(out, "deferred_init1.node%d.ms: %.2f\n", n->nid, ms);
		fprintf(out, "deferred_init1.node%d.cpu_ms: %.2f\n", n->nid, cpu_ms);
		fprintf(out, "deferred_init1.node%d.ns_per_page: %.2f\n", n->nid,
			pages ? ms * 1e6 / (double)pages : 0);
		fprintf(out, "deferred_init1.node%d.cpu_ns_per_page: %.2f\n", n->nid,
			pages ? cpu_ms * 1e6 / (double)pages : 0);
		fprintf(out, "deferred_init1.node%d.ms_per_gib: %.2f\n", n->nid, ms_per_gib(ms, pages));
		fprintf(out, "deferred_init1.node%d.cpu_ms_per_gib: %.2f\n", n->nid,
			ms_per_gib(cpu_ms, pages));
		fprintf(out, "csv,run,%s,%d,%d,%d,%lu,%lu,%.2f,%.2f,%.2f,%.2f\n",
			variant_name(r, vbuf, sizeof(vbuf)), n->nid, st.max_threads, st.nworks,
			st.nr_jobs, pages, ms, cpu_ms, pages ? ms * 1e6 / (double)pages : 0,
			ms_per_gib(ms, pages));
		if (!r->o->sim_cpus[0])
			continue;
		one = 0;
		for (k = 0; k <= 8 && (k == 0 || r->o->sim_cpus[k - 1]); k++) {
			unsigned int nc = k == 0 ? 1 : r->o->sim_cpus[k - 1];
			unsigned long cs, share;
			int nw;
			double sim = sim_node(n->nid, nc, nchunks, &nw, &cs, &share) / 1e6;

			if (k == 0)
				one = sim;
			fprintf(out, "deferred_init1.sim.node%d.cpus%u: nworks %d chunk_pages %lu "
				"largest_share_pages %lu ms %.2f (%+.0f%% against 1 CPU)\n", n->nid, nc,
				nw, cs, share, sim, one > 0 ? 100.0 * (sim - one) / one : 0);
			fprintf(out, "csv,sim,%s,%d,%u,%d,%lu,%lu,%.2f,%.2f,%.2f,%.2f\n",
				variant_name(r, vbuf, sizeof(vbuf)), n->nid, nc, nw, st.nr_jobs, pages,
				sim, sim, pages ? sim * 1e6 / (double)pages : 0, ms_per_gib(sim, pages));
		}
	}
	fprintf(out, "deferred_init1.kernel_ms_per_gib_one_thread: 1.80-3.86 (seed 002: x13s 108 ms "
		"for 32 GB, SA8775p 72/36, Ampere R137 224/58, HR330 324/128, POWER 230 ms a "
		"node of 128 GB)\n");
	fprintf(out, "deferred_init1.alloc_batches: %llu\n",
		__atomic_load_n(&di->batches, __ATOMIC_RELAXED));
	fprintf(out, "deferred_init1.alloc_failed: %llu\n",
		__atomic_load_n(&di->fails, __ATOMIC_RELAXED));
	fprintf(out, "deferred_init1.threads_made: %d\n", stress_wq_workers());
	*ops = pages_all;
	*ns = t1 - t0;
	return rc;
}

static void di1_cleanup(struct stress_run *r)
{
	unsigned long i;

	stress_wq_stop();
	for (i = 0; i < r->ntasks; i++) {
		free(r->tasks[i].priv);
		r->tasks[i].priv = NULL;
	}
	if (r->priv) {
		struct di1 *di = r->priv;

		pthread_mutex_destroy(&di->lock);
		pthread_cond_destroy(&di->cond);
		free(di);
		r->priv = NULL;
	}
}

/* VmHWM of /proc/self/status, in MiB, or -1 */
static long rss_peak_mib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

static void di1_print_config(struct stress_run *r, FILE *out)
{
	unsigned long pages = (unsigned long)config_get(&r->w->config, &ck_zone_pages);
	char vbuf[32];

	fprintf(out, "config.nodes: %d\n", pa_world(r->w)->nodes_online);
	fprintf(out, "config.node_pages: %lu\n", pages);
	fprintf(out, "config.node_gib_of_4k_pages: %.2f\n", (double)pages * 4096 / (1UL << 30));
	fprintf(out, "config.memmap_mib_per_node: %.1f\n",
		(double)pages * sizeof(struct page) / (1UL << 20));
	fprintf(out, "config.pages_per_section: %ld\n",
		1L << (config_get(&r->w->config, &ck_section_order) +
		       config_get(&r->w->config, &ck_max_order)));
	fprintf(out, "config.deferred_page_init_max_threads: %s\n",
		variant_name(r, vbuf, sizeof(vbuf)));
	fprintf(out, "config.alloc_during_init: %s\n", r->o->alloc_during_init ? "on" : "off");
	fprintf(out, "stress.rss_peak_mib: %ld\n", rss_peak_mib());
}

static const struct stress_workload stress_deferred_init1 = {
	.name = "deferred_init1",
	.description = "Deferred struct page init: pgdatinit per node with padata's helpers, timed",
	.configure = di1_configure,
	.prepare = di1_prepare,
	.testcase = di1_testcase,
	.cleanup = di1_cleanup,
	.print_config = di1_print_config,
	.run = di1_run,
	.wl_opts = STRESS_WL_ALLOC_DURING_INIT | STRESS_WL_SIM_CPUS,
};
STRESS_WORKLOAD(stress_deferred_init1);

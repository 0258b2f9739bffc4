// SPDX-License-Identifier: MIT
/*
 * padata_do_multithreaded under PCT schedules: each job's chunks partition
 * it exactly (no overlap, no gap), every chunk end but the last is a
 * multiple of chunk_size, nworks and chunk_size are 6.6.0's arithmetic,
 * nworks_fini == nworks, the helpers are kthreads on other CPUs than the
 * caller's (some chunks run on them), a small pool gives fewer works, and
 * the pool gets every work back.
 */
#include <string.h>

#include "kernel/padata.h"
#include "sched/sched.h"
#include "tap.h"

#define MAXCH 4096

struct chunk { unsigned long s, e; int task, cpu; };

static struct chunk ch[MAXCH];
static int nch;
static spinlock_t rec_lock;
static struct padata_pool pool;
static struct padata_mt_job job;
static struct padata_stat st;
static unsigned long job_start, job_size;

static void rec(unsigned long s, unsigned long e, void *arg)
{
	(void)arg;
	cond_resched();
	spin_lock(&rec_lock);
	if (nch < MAXCH) {
		ch[nch].s = s;
		ch[nch].e = e;
		ch[nch].task = current_task->id;
		ch[nch].cpu = current_task->cpu;
		nch++;
	}
	spin_unlock(&rec_lock);
}

static void body(struct task *t, void *arg)
{
	(void)t;
	(void)arg;
	padata_do_multithreaded(&pool, &job, &st);
}

static int cmp(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->s < y->s ? -1 : x->s > y->s;
}

/* the chunks partition [job_start, job_start + job_size) with aligned ends */
static bool partition_ok(char *why, size_t n)
{
	unsigned long at = job_start;
	int i;

	qsort(ch, (size_t)nch, sizeof(ch[0]), cmp);
	for (i = 0; i < nch; i++) {
		if (ch[i].s != at) {
			snprintf(why, n, "chunk %d starts at %lu, expected %lu", i, ch[i].s, at);
			return false;
		}
		if (ch[i].e <= ch[i].s) {
			snprintf(why, n, "chunk %d empty [%lu, %lu)", i, ch[i].s, ch[i].e);
			return false;
		}
		if (ch[i].e != job_start + job_size && ch[i].e % st.chunk_size) {
			snprintf(why, n, "chunk %d ends at %lu, not a multiple of %lu", i,
				 ch[i].e, st.chunk_size);
			return false;
		}
		at = ch[i].e;
	}
	if (at != job_start + job_size) {
		snprintf(why, n, "chunks end at %lu, job at %lu", at, job_start + job_size);
		return false;
	}
	return true;
}

static unsigned long ru(unsigned long x, unsigned long y) { return (x + y - 1) / y * y; }

/* 6.6.0's nworks before the pool and chunk_size for a given nworks */
static int want_nworks(void)
{
	unsigned long d = job.min_chunk > job.align ? job.min_chunk : job.align;
	unsigned long n = job_size / d;

	if (n < 1)
		n = 1;
	if (n > (unsigned long)job.max_threads)
		n = (unsigned long)job.max_threads;
	return (int)n;
}

static unsigned long want_chunk(int nworks)
{
	unsigned long c = job_size / ((unsigned long)nworks * 4);

	if (c < job.min_chunk)
		c = job.min_chunk;
	return ru(c, job.align);
}

struct shape { unsigned long start, size, align, min_chunk; int max_threads, pool; };

int main(void)
{
	static const struct shape shapes[] = {
		{ 0, 4096, 512, 512, 4, 8 },		/* aligned, 4 works */
		{ 1234, 70000, 512, 1024, 3, 8 },	/* unaligned start and end */
		{ 300, 511, 512, 512, 4, 8 },		/* size < min_chunk: one work */
		{ 0, 1 << 20, 512, 512, 8, 3 },		/* the pool gives 3 works: 4 of 8 with the caller */
		{ 7, 99999, 1, 1, 2, 8 },		/* align 1 */
		{ 32768, 32768 * 5 + 17, 32768, 32768, 4, 16 },
	};
	struct fsched *fs = fsched_create(MAX_TASKS);
	struct task_init init[1] = { { .cpu = 0, .irq = false } };
	struct sched_policy pol;
	char why[160];
	unsigned i;
	int seed;

	tap_plan((int)(sizeof(shapes) / sizeof(shapes[0])) * 4 + 1);
	spin_lock_init_named(&rec_lock, "rec_lock", -1);
	memset(&pol, 0, sizeof(pol));
	pol.kind = POL_PCT;
	pol.depth = 3;
	pol.horizon = 300;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *s = &shapes[i];
		bool part = true, arith = true, fini = true, pooled = true;
		int helped = 0, nseeds = 40;

		for (seed = 1; seed <= nseeds; seed++) {
			int rc, nw, j;

			padata_pool_init(&pool, s->pool);
			memset(&job, 0, sizeof(job));
			job.thread_fn = rec;
			job.start = job_start = s->start;
			job.size = job_size = s->size;
			job.align = s->align;
			job.min_chunk = s->min_chunk;
			job.max_threads = s->max_threads;
			nch = 0;
			pol.seed = (uint64_t)seed;
			rc = fsched_run(fs, 1, 4, init, &pol, body, NULL);
			if (rc) {
				diag("shape %u seed %d: run failed %d", i, seed, rc);
				part = false;
				break;
			}
			nw = want_nworks();
			if (part && !partition_ok(why, sizeof(why))) {
				diag("shape %u seed %d: %s", i, seed, why);
				part = false;
			}
			if (st.nworks_asked != nw ||
			    st.nworks != (nw < s->pool + 1 ? nw : s->pool + 1) ||
			    (nw > 1 && st.chunk_size != want_chunk(st.nworks))) {
				if (arith)
					diag("shape %u: nworks asked %d given %d chunk %lu; want %d, %lu",
					     i, st.nworks_asked, st.nworks, st.chunk_size, nw,
					     nw > 1 ? want_chunk(st.nworks) : 0);
				arith = false;
			}
			if (st.nworks_fini != st.nworks)
				fini = false;
			if (padata_pool_free(&pool) != s->pool)
				pooled = false;
			for (j = 0; j < nch; j++)
				if (ch[j].task != 0) {
					helped++;
					break;
				}
		}
		ok(part, "shape %u [%lu, +%lu) align %lu min_chunk %lu: chunks partition the job, "
		   "aligned ends, %d seeds", i, s->start, s->size, s->align, s->min_chunk, nseeds);
		ok(arith, "shape %u: nworks %d (pool %d), chunk_size %lu as 6.6.0 computes", i,
		   st.nworks, s->pool, st.chunk_size);
		ok(fini && pooled, "shape %u: nworks_fini == nworks, every work back in the pool", i);
		if (st.nworks > 1)
			ok(helped > 0, "shape %u: helpers ran chunks in %d of %d seeds", i, helped,
			   nseeds);
		else
			ok(helped == 0 && nch == 1, "shape %u: one work, the caller ran the one chunk",
			   i);
	}
	{
		/* the chunks ran on kthreads on other CPUs than the caller's */
		int j, other = 0;

		for (j = 0; j < nch; j++)
			other += ch[j].cpu != 0;
		ok(other > 0 || st.nworks == 1, "helpers are unbound kthreads: %d of %d chunks "
		   "of the last run on CPUs other than the caller's", other, nch);
	}
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * padata_do_multithreaded and padata_mt_helper as Linux 6.6.0 has them
 * (kernel/padata.c): see padata.h for the model's choices.
 */
#include <string.h>

#include "padata.h"
#include "cpu.h"
#include "../bugs/bugs.h"
#include "../sched/sched.h"

#define roundup(x, y)	((((x) + ((y) - 1)) / (y)) * (y))

static const struct padata_real_ops *padata_real;
DEFINE_HOOKS(padata);

void padata_set_real_ops(const struct padata_real_ops *ops)
{
	__atomic_store_n(&padata_real, ops, __ATOMIC_RELEASE);
}

void padata_pool_init(struct padata_pool *pool, int nr)
{
	int i;

	if (nr < 1)
		nr = 1;
	if (nr > PADATA_MAX_WORKS)
		nr = PADATA_MAX_WORKS;
	memset(pool, 0, sizeof(*pool));
	spin_lock_init_named(&pool->padata_works_lock, "padata_works_lock", -1);
	INIT_LIST_HEAD(&pool->padata_free_works);
	for (i = 0; i < nr; i++) {
		pool->works[i].pool = pool;
		__list_add(&pool->works[i].pw_list, pool->padata_free_works.prev,
			   &pool->padata_free_works, __func__);
	}
	pool->nr = nr;
}

int padata_pool_free(struct padata_pool *pool)
{
	struct list_head *l;
	int n = 0;

	for (l = pool->padata_free_works.next; l != &pool->padata_free_works; l = l->next)
		n++;
	return n;
}

/* padata_work_alloc: the first free work, or NULL; padata_works_lock held. */
static struct padata_work *padata_work_alloc(struct padata_pool *pool)
{
	struct padata_work *pw;

	if (list_empty(&pool->padata_free_works))
		return NULL;
	pw = list_first_entry(&pool->padata_free_works, struct padata_work, pw_list);
	list_del(&pw->pw_list);
	return pw;
}

/*
 * padata_work_alloc_mt (6.6.0 104-122): up to nworks - 1 works, "start at
 * 1 because the current task participates in the job"; returns how many
 * workers the job has, the caller included.  A fiber run also stops at
 * the kthread slots it has left (keeping the slots a run's own kthreads
 * need), which is the pool giving fewer.
 */
static int padata_work_alloc_mt(struct padata_pool *pool, int nworks,
				struct padata_mt_job_state *ps, struct list_head *head)
{
	struct task *t = current_task;
	int i, slots = nworks;

	if (!t || !t->fs)
		/* real mode: the harness's workqueue, or no helper */
		slots = t && __atomic_load_n(&padata_real, __ATOMIC_ACQUIRE) ? nworks : 1;
	else if (fsched_tasks_left(t->fs) - (MAX_CPUS + 1) < nworks - 1)
		slots = 1 + (fsched_tasks_left(t->fs) > MAX_CPUS + 1 ?
			     fsched_tasks_left(t->fs) - (MAX_CPUS + 1) : 0);
	spin_lock(&pool->padata_works_lock);
	for (i = 1; i < nworks && i < slots; ++i) {
		struct padata_work *pw = padata_work_alloc(pool);

		if (!pw)
			break;
		pw->pw_data = ps;
		list_add(&pw->pw_list, head);
	}
	spin_unlock(&pool->padata_works_lock);
	return i;
}

/* padata_works_free: the job's works back on the free list. */
static void padata_works_free(struct padata_pool *pool, struct list_head *works)
{
	struct padata_work *cur, *next;

	if (list_empty(works))
		return;
	spin_lock(&pool->padata_works_lock);
	list_for_each_entry_safe(cur, next, works, pw_list) {
		list_del(&cur->pw_list);
		list_add(&cur->pw_list, &pool->padata_free_works);
	}
	spin_unlock(&pool->padata_works_lock);
}

/* padata_mt_helper (6.6.0 441-473) */
static void padata_mt_helper(struct padata_mt_job_state *ps)
{
	struct padata_mt_job *job = ps->job;
	bool done;

	spin_lock(&ps->lock);

	while (job->size > 0) {
		unsigned long start, size, end;

		start = job->start;
		/* So end is chunk size aligned if enough work remains. */
		size = roundup(start + 1, ps->chunk_size) - start;
		if (size > job->size)
			size = job->size;
		end = start + size;

		job->start = end;
		job->size -= size;
		/* the bugs: the next chunk a pfn back, or one skipped */
		if (bug_on(BUG_PADATA_CHUNK_GAP) && job->size > 1) {
			job->start++;
			job->size--;
		}
		if (bug_on(BUG_PADATA_CHUNK_OVERLAP) && start > ps->job_start)
			start--;

		spin_unlock(&ps->lock);
		HOOK(padata, chunk, job, ps->job_start, start, end, false);
		job->thread_fn(start, end, job->fn_arg);
		HOOK(padata, chunk, job, ps->job_start, start, end, true);
		spin_lock(&ps->lock);
	}

	++ps->nworks_fini;
	done = (ps->nworks_fini == ps->nworks);
	spin_unlock(&ps->lock);

	if (done)
		complete(&ps->completion);
}

/* A queued work on system_unbound_wq: a kthread that runs the helper once. */
static void padata_work_kthread(struct task *t, void *arg)
{
	struct padata_work *pw = arg;

	(void)t;
	padata_mt_helper(pw->pw_data);
}

/* The same work on real mode's workqueue thread (padata_real_ops). */
static void padata_work_real(void *arg)
{
	struct padata_work *pw = arg;

	padata_mt_helper(pw->pw_data);
}

/* The next online CPU after @cpu, round robin (queue_work's placement). */
static int padata_next_cpu(struct task *t, int cpu)
{
	int n = t->fs ? t->fs->ncpus : nr_cpu_ids_now(), i;

	for (i = 0; i < n; i++) {
		cpu = (cpu + 1) % n;
		if (t->fs ? fsched_cpu_online(t->fs, cpu) : cpu_online(cpu))
			break;
	}
	return cpu;
}

int padata_mt_nworks(const struct padata_mt_job *job)
{
	unsigned long nw, div;

	/* Ensure at least one thread when size < min_chunk. */
	div = job->min_chunk > job->align ? job->min_chunk : job->align;
	nw = div ? job->size / div : job->size;
	if (nw < 1)
		nw = 1;
	if (nw > (unsigned long)job->max_threads)
		nw = (unsigned long)(job->max_threads > 0 ? job->max_threads : 1);
	return (int)nw;
}

unsigned long padata_mt_chunk_size(const struct padata_mt_job *job, int nworks)
{
	/* In case threads finish at different times. */
	static const unsigned long load_balance_factor = 4;
	unsigned long chunk_size;

	chunk_size = job->size / ((unsigned long)nworks * load_balance_factor);
	if (chunk_size < job->min_chunk)
		chunk_size = job->min_chunk;
	return roundup(chunk_size, job->align);
}

void padata_do_multithreaded(struct padata_pool *pool, struct padata_mt_job *job,
			     struct padata_stat *st)
{
	struct padata_mt_job_state ps;
	struct padata_work *pw;
	struct list_head works;
	struct task *t;
	int nworks, cpu;

	if (st)
		memset(st, 0, sizeof(*st));
	if (job->size == 0)
		return;

	nworks = padata_mt_nworks(job);
	if (st)
		st->nworks_asked = nworks;

	if (nworks == 1) {
		/* Single thread, no coordination needed, cut to the chase. */
		if (st) {
			st->nworks = st->nworks_fini = 1;
			st->chunk_size = job->size;
		}
		HOOK(padata, chunk, job, job->start, job->start, job->start + job->size, false);
		job->thread_fn(job->start, job->start + job->size, job->fn_arg);
		HOOK(padata, chunk, job, job->start, job->start, job->start + job->size, true);
		return;
	}

	INIT_LIST_HEAD(&works);
	spin_lock_init_named(&ps.lock, "ps->lock", -1);
	init_completion_named(&ps.completion, "ps->completion");
	ps.job = job;
	ps.job_start = job->start;
	ps.nworks = padata_work_alloc_mt(pool, nworks, &ps, &works);
	ps.nworks_fini = 0;

	/*
	 * Chunk size is the amount of work a helper does per call to the
	 * thread function.  Load balance large jobs between threads by
	 * increasing the number of chunks, guarantee at least the minimum
	 * chunk size from the caller, and honor the caller's alignment.
	 * (6.6.0 has no max(chunk_size, 1): min_chunk and align are >= 1.)
	 */
	ps.chunk_size = padata_mt_chunk_size(job, ps.nworks);

	/* queue_work(system_unbound_wq, ...): a kthread on any CPU */
	t = current_task;
	cpu = t ? t->cpu : 0;
	list_for_each_entry(pw, &works, pw_list) {
		bool queued;

		cpu = padata_next_cpu(t, cpu);
		if (t->fs)
			queued = fsched_kthread_run(t->fs, padata_work_kthread, pw, "padata", cpu,
						    false) != NULL;
		else
			queued = __atomic_load_n(&padata_real, __ATOMIC_ACQUIRE)->queue_work(
					padata_work_real, pw, cpu);
		if (!queued)
			padata_mt_helper(&ps);	/* counted: alloc_mt left the slots */
	}

	/* Use the current thread, which saves starting a workqueue worker. */
	padata_mt_helper(&ps);

	/* Wait for all the helpers to finish. */
	wait_for_completion(&ps.completion);

	if (st) {
		st->nworks = ps.nworks;
		st->nworks_fini = ps.nworks_fini;
		st->chunk_size = ps.chunk_size;
	}
	padata_works_free(pool, &works);
}

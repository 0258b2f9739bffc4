/* SPDX-License-Identifier: MIT */
/*
 * padata_do_multithreaded (kernel/padata.c of Linux 6.6.0, lines 441-528):
 * a job [start, start + size) cut into chunks that helpers claim under
 * ps->lock, each chunk [start, roundup(start + 1, chunk_size)) clipped to
 * the job, so every chunk end but the job's last is a multiple of
 * chunk_size.  The caller runs a helper too and waits on ps->completion,
 * completed by the helper whose ++nworks_fini reaches nworks.
 *
 * The helpers are kernel-thread tasks on no particular node: 6.6 queues
 * them on system_unbound_wq, so the model starts each on the next online
 * CPU after the caller's, round robin over the machine.  The works come
 * from a preallocated pool (padata_free_works, padata_works_lock) that may
 * give fewer than asked: ps.nworks is what it gave, the caller included.
 * A fiber run with no task slot left for a kthread counts as the pool
 * running dry (the work is given back), so nworks stays exact.
 *
 * Real mode (stress: no fiber scheduler) has no kthreads of its own: the
 * harness gives padata its system_unbound_wq (padata_set_real_ops), whose
 * queue_work runs the helper on a worker thread as a task of the CPU
 * padata picked.  Without one, real mode runs a job in the caller alone.
 *
 * Lock order: padata_works_lock and ps->lock are leaves; thread_fn runs
 * with neither held.
 */
#ifndef MMFUZZ_KERNEL_PADATA_H
#define MMFUZZ_KERNEL_PADATA_H

#include "completion.h"
#include "hooks.h"
#include "list.h"
#include "spinlock.h"

/* bug switches that bite in padata_mt_helper (registered by the deferred
 * init layer, src/mm/deferred_bugs.c; bits fixed forever) */
enum {
	BUG_PADATA_CHUNK_OVERLAP = 32,	/* a chunk starts a pfn before job->start */
	BUG_PADATA_CHUNK_GAP = 33,	/* job->start moves a pfn past the chunk's end */
};

#define PADATA_MAX_WORKS	16	/* the pool: 6.6 has num_possible_cpus() */

struct padata_mt_job {
	void (*thread_fn)(unsigned long start, unsigned long end, void *arg);
	void *fn_arg;
	unsigned long start;
	unsigned long size;
	unsigned long align;
	unsigned long min_chunk;
	int max_threads;
};

struct padata_mt_job_state {
	spinlock_t lock;
	struct completion completion;
	struct padata_mt_job *job;
	unsigned long job_start;	/* the model's: where the job began (the bugs) */
	int nworks;
	int nworks_fini;
	unsigned long chunk_size;
};

struct padata_work {
	struct list_head pw_list;	/* padata_free_works or the job's works */
	struct padata_mt_job_state *pw_data;
	struct padata_pool *pool;
};

struct padata_pool {
	spinlock_t padata_works_lock;
	struct list_head padata_free_works;
	struct padata_work works[PADATA_MAX_WORKS];
	int nr;				/* works the pool was made with */
};

/*
 * What the last padata_do_multithreaded of this pool computed (read by
 * checkers and tests, never by the model): nworks asked, given, and the
 * chunk size.
 */
struct padata_stat {
	int nworks_asked;
	int nworks;
	int nworks_fini;
	unsigned long chunk_size;
};

/*
 * Real mode's system_unbound_wq: queue_work(fn, arg, cpu) runs fn(arg) on
 * a worker thread of its own, as a kernel-thread task of simulated CPU
 * @cpu (current_task set, a violation unwinding to its own exit_jb), and
 * returns true; false when it has no worker to give, which padata counts
 * as the pool giving fewer (the caller runs that work's helper itself).
 * @ops NULL: none (a job runs in the caller alone).
 */
struct padata_real_ops {
	bool (*queue_work)(void (*fn)(void *arg), void *arg, int cpu);
};
void padata_set_real_ops(const struct padata_real_ops *ops);

/*
 * padata's hooks (hooks.h): chunk(job, job_start, start, end, done) on the
 * thread that runs thread_fn(start, end), just before it (@done false) and
 * just after (@done true), the caller's single-work run included;
 * @job_start is where the job began (job->start moves as helpers claim
 * chunks under ps->lock: the hook reads only @job's constant fields).  For
 * the harness (stress mode times the chunks; a checker may follow them).
 */
struct padata_hooks {
	void (*chunk)(const struct padata_mt_job *job, unsigned long job_start,
		      unsigned long start, unsigned long end, bool done);
};
DECLARE_HOOKS(padata);

/* padata_init's part: @nr works (1..PADATA_MAX_WORKS) on the free list. */
void padata_pool_init(struct padata_pool *pool, int nr);
/* The number of works on the free list (0..nr); for tests and checkers. */
int padata_pool_free(struct padata_pool *pool);

/*
 * padata_do_multithreaded's arithmetic, for the harness to plan with (a
 * simulated machine) and for the function itself: the works @job asks
 * for, min(max(size / max(min_chunk, align), 1), max_threads), and the
 * chunk size when @nworks works (the caller included) run it,
 * roundup(max(size / (nworks * 4), min_chunk), align).
 */
int padata_mt_nworks(const struct padata_mt_job *job);
unsigned long padata_mt_chunk_size(const struct padata_mt_job *job, int nworks);

/*
 * Run @job on helpers from @pool and the calling task; returns when every
 * chunk has run.  @st (may be NULL) gets what was computed.
 */
void padata_do_multithreaded(struct padata_pool *pool, struct padata_mt_job *job,
			     struct padata_stat *st);

#endif /* MMFUZZ_KERNEL_PADATA_H */

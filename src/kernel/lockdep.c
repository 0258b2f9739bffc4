// SPDX-License-Identifier: MIT
/*
 * Lockdep: lock classes, the dependency graph and the IRQ-usage rule
 * (lockdep.h says what is recorded and reported).
 *
 * A violation changes nothing that persists: the edge that closes a cycle,
 * or the usage bit that completes a conflict, is not recorded, so replaying
 * the run reports the same thing at the same step.
 */
#include "lockdep.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bugs/bugs.h"

#define LOCKDEP_MAX_EDGES	512
#define LOCKDEP_STACK		6	/* trace events kept per edge */

bool lockdep_enabled = true;
unsigned char lockdep_usage[LOCKDEP_MAX_CLASSES];

/* Where something was recorded: the task and its last events. */
struct lockdep_where {
	char task[16];
	int op;
	unsigned long run;		/* lockdep_runs when recorded */
	const char *fn;			/* the function that took the lock */
	const struct yield_site *site;
	int nev;
	unsigned short ev_site[LOCKDEP_STACK];
	signed char ev_cpu[LOCKDEP_STACK];
	short ev_op[LOCKDEP_STACK];
};

struct lockdep_edge {
	unsigned char from, to;
	struct lockdep_where prev;	/* where the held lock was taken */
	struct lockdep_where next;	/* where the new one was */
};

static pthread_mutex_t lockdep_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *class_name[LOCKDEP_MAX_CLASSES];	/* [0] unused */
static int nr_classes = 1;
static uint64_t adj[LOCKDEP_MAX_CLASSES];		/* bit b of adj[a]: a -> b */
static struct lockdep_edge edges[LOCKDEP_MAX_EDGES];
static int nr_edges;
static short edge_of[LOCKDEP_MAX_CLASSES][LOCKDEP_MAX_CLASSES];	/* index + 1 */
static struct lockdep_where usage_where[LOCKDEP_MAX_CLASSES][2];
static unsigned long lockdep_runs;	/* fsched runs seen: which run recorded */
#define NAME_CACHE 32
static unsigned char name_cache[NAME_CACHE];	/* class by its name's address */

static __sched_notsan void lockdep_off(const char *why)
{
	if (__atomic_exchange_n(&lockdep_enabled, false, __ATOMIC_RELAXED))
		fprintf(stderr, "mmfuzz: lockdep: %s; lockdep turned off\n", why);
}

/* The class of @l, found by name on its first use since its init. */
static __sched_notsan unsigned class_of(struct sched_lock *l)
{
	unsigned c = l->lockdep_class;
	int i, n;

	if (c)
		return c;
	/* a lock re-initialised by every world reset looks its class up
	 * again: by its name's address first (a small cache, then the
	 * table), with no lock and no strcmp */
	c = __atomic_load_n(&name_cache[((uintptr_t)l->name >> 4) % NAME_CACHE], __ATOMIC_RELAXED);
	if (c && __atomic_load_n(&class_name[c], __ATOMIC_RELAXED) == l->name) {
		l->lockdep_class = (unsigned char)c;
		return c;
	}
	n = __atomic_load_n(&nr_classes, __ATOMIC_ACQUIRE);
	for (i = 1; i < n; i++)
		if (__atomic_load_n(&class_name[i], __ATOMIC_RELAXED) == l->name) {
			l->lockdep_class = (unsigned char)i;
			__atomic_store_n(&name_cache[((uintptr_t)l->name >> 4) % NAME_CACHE],
					 (unsigned char)i, __ATOMIC_RELAXED);
			return (unsigned)i;
		}
	pthread_mutex_lock(&lockdep_lock);
	for (i = 1; i < nr_classes; i++)
		if (class_name[i] == l->name || !strcmp(class_name[i], l->name))
			break;
	if (i == nr_classes) {
		if (nr_classes == LOCKDEP_MAX_CLASSES) {
			pthread_mutex_unlock(&lockdep_lock);
			lockdep_off("more than 63 lock classes");
			return 0;
		}
		__atomic_store_n(&class_name[nr_classes], l->name, __ATOMIC_RELAXED);
		__atomic_store_n(&nr_classes, nr_classes + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lockdep_lock);
	l->lockdep_class = (unsigned char)i;
	return (unsigned)i;
}

static __sched_notsan void where_fill(struct lockdep_where *w, const struct task *t,
				      const char *fn, const struct yield_site *site)
{
	unsigned n, i;

	snprintf(w->task, sizeof(w->task), "%s", t->name ? t->name : "?");
	w->op = t->op;
	w->run = lockdep_runs;
	w->fn = fn;
	w->site = site;
	w->nev = 0;
	if (!t->fs || !t->fs->ring)
		return;
	n = t->ring_n < LOCKDEP_STACK ? t->ring_n : LOCKDEP_STACK;
	for (i = t->ring_n - n; i < t->ring_n; i++) {
		const struct trace_ev *e = &t->ring[i % TRACE_RING];

		w->ev_site[w->nev] = e->site;
		w->ev_cpu[w->nev] = e->cpu;
		w->ev_op[w->nev] = e->op;
		w->nev++;
	}
}

static __sched_notsan size_t where_print(char *buf, size_t len, size_t n,
					 const struct lockdep_where *w)
{
	int i;

#define P(...) (len += (size_t)snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, __VA_ARGS__))
	P("%s op%d in %s", w->task, w->op, w->fn ? w->fn : "?");
	if (w->site && w->site->name)
		P(" at %s", w->site->name);
	if (w->run != lockdep_runs)
		P(" (%lu runs ago)", lockdep_runs - w->run);
	if (w->nev) {
		P("; trace:");
		for (i = 0; i < w->nev; i++) {
			const struct yield_site *s = site_by_id(w->ev_site[i]);

			P(" [cpu%d op%d %s]", w->ev_cpu[i], w->ev_op[i],
			  s && s->name ? s->name : "?");
		}
	}
#undef P
	return len;
}

/* A path of existing edges from class @from to class @to: the classes on
 * it, @to last; 0 if none. */
static __sched_notsan int find_path(unsigned from, unsigned to, unsigned char *path)
{
	unsigned char parent[LOCKDEP_MAX_CLASSES], queue[LOCKDEP_MAX_CLASSES];
	uint64_t seen = 1ULL << from;
	int head = 0, tail = 0, n = 0;
	unsigned c;

	queue[tail++] = (unsigned char)from;
	while (head < tail) {
		uint64_t next;

		c = queue[head++];
		next = __atomic_load_n(&adj[c], __ATOMIC_RELAXED) & ~seen;
		while (next) {
			unsigned d = (unsigned)__builtin_ctzll(next);

			next &= next - 1;
			seen |= 1ULL << d;
			parent[d] = (unsigned char)c;
			if (d == to)
				goto found;
			queue[tail++] = (unsigned char)d;
		}
	}
	return 0;
found:
	/* walk back to @from, then reverse */
	for (c = to; c != from; c = parent[c])
		path[n++] = (unsigned char)c;
	path[n++] = (unsigned char)from;
	for (head = 0, tail = n - 1; head < tail; head++, tail--) {
		unsigned char x = path[head];

		path[head] = path[tail];
		path[tail] = x;
	}
	return n;
}

static __sched_notsan __attribute__((noreturn)) void report_cycle(
	struct task *t, unsigned pc, unsigned c, const struct lockdep_where *prev,
	const struct lockdep_where *next, const unsigned char *path, int npath)
{
	char msg[1000], site[64];
	size_t len = 0, n = sizeof(msg);
	int i;

#define P(...) (len += (size_t)snprintf(len < n ? msg + len : NULL, len < n ? n - len : 0, __VA_ARGS__))
	P("%s takes %s while holding %s, but %s -> ", t->name, class_name[c], class_name[pc],
	  class_name[c]);
	for (i = 1; i < npath; i++)
		P("%s%s", class_name[path[i]], i + 1 < npath ? " -> " : "");
	P(" was recorded before: a possible deadlock.\n  new %s -> %s: held since ",
	  class_name[pc], class_name[c]);
	len = where_print(msg, len, n, prev);
	P("; taking it: ");
	len = where_print(msg, len, n, next);
	for (i = 0; i + 1 < npath; i++) {
		const struct lockdep_edge *e = &edges[edge_of[path[i]][path[i + 1]] - 1];

		P("\n  old %s -> %s: ", class_name[e->from], class_name[e->to]);
		len = where_print(msg, len, n, &e->next);
	}
#undef P
	snprintf(site, sizeof(site), "%s->%s", class_name[pc], class_name[c]);
	sched_violation("lock-order", site, "%s", msg);
}

/* Record prev -> c, or report the cycle it closes. */
static __sched_notsan void add_edge(struct task *t, int hi, unsigned c, const char *fn)
{
	struct sched_lock *held = t->held[hi];
	unsigned pc = class_of(held);
	unsigned char path[LOCKDEP_MAX_CLASSES];
	struct lockdep_where prev, next;
	int npath;

	if (!pc || pc == c)	/* same class nested: not tracked (spin_lock_nested) */
		return;
	if (__atomic_load_n(&adj[pc], __ATOMIC_RELAXED) & (1ULL << c))
		return;
	where_fill(&prev, t, t->held_fn[hi], t->held_site[hi]);
	where_fill(&next, t, fn, t->site);
	pthread_mutex_lock(&lockdep_lock);
	if (adj[pc] & (1ULL << c)) {
		pthread_mutex_unlock(&lockdep_lock);
		return;
	}
	npath = find_path(c, pc, path);
	if (npath) {
		pthread_mutex_unlock(&lockdep_lock);
		report_cycle(t, pc, c, &prev, &next, path, npath);
	}
	if (nr_edges == LOCKDEP_MAX_EDGES) {
		pthread_mutex_unlock(&lockdep_lock);
		lockdep_off("more than 512 lock dependencies");
		return;
	}
	edges[nr_edges].from = (unsigned char)pc;
	edges[nr_edges].to = (unsigned char)c;
	edges[nr_edges].prev = prev;
	edges[nr_edges].next = next;
	edge_of[pc][c] = (short)++nr_edges;
	__atomic_or_fetch(&adj[pc], 1ULL << c, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lockdep_lock);
}

static __sched_notsan void mark_usage(struct task *t, struct sched_lock *l, unsigned c,
				      unsigned usage, const char *fn)
{
	unsigned have = __atomic_load_n(&lockdep_usage[c], __ATOMIC_RELAXED);
	unsigned now = usage & ~have;
	struct lockdep_where w;

	if (!now)
		return;
	where_fill(&w, t, fn, t->site);
	pthread_mutex_lock(&lockdep_lock);
	have = lockdep_usage[c];
	now = usage & ~have;
	if ((have | now) == (LOCKDEP_USED_IN_IRQ | LOCKDEP_ENABLED_IRQ) && now) {
		/* the other half was recorded before: report, record nothing */
		const struct lockdep_where *other =
			&usage_where[c][(have & LOCKDEP_USED_IN_IRQ) ? 0 : 1];
		char msg[1000];
		size_t len = 0;

		pthread_mutex_unlock(&lockdep_lock);
		len += (size_t)snprintf(msg, sizeof(msg),
					"%s is taken in interrupt context and with IRQs enabled: an "
					"interrupt that takes it on a CPU holding it deadlocks.\n  %s: ",
					l->name, (have & LOCKDEP_USED_IN_IRQ) ? "in IRQ" : "IRQs on");
		len = where_print(msg, len, sizeof(msg), other);
		len += (size_t)snprintf(len < sizeof(msg) ? msg + len : NULL,
					len < sizeof(msg) ? sizeof(msg) - len : 0,
					"\n  %s: ", (now & LOCKDEP_USED_IN_IRQ) ? "in IRQ" : "IRQs on");
		where_print(msg, len, sizeof(msg), &w);
		sched_violation("lock-irq", l->name, "%s", msg);
	}
	if (now & LOCKDEP_USED_IN_IRQ)
		usage_where[c][0] = w;
	if (now & LOCKDEP_ENABLED_IRQ)
		usage_where[c][1] = w;
	__atomic_or_fetch(&lockdep_usage[c], (unsigned char)now, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lockdep_lock);
}

__sched_notsan void __lockdep_acquire(struct task *t, struct sched_lock *l, const char *fn)
{
	unsigned c = class_of(l);
	int i;

	if (!c)
		return;
	if ((__atomic_load_n(&lockdep_usage[c], __ATOMIC_RELAXED) & lockdep_usage_of(t)) !=
	    lockdep_usage_of(t))
		mark_usage(t, l, c, lockdep_usage_of(t), fn);
	/* from the nearest held lock not taken by a trylock, and the
	 * trylocks above it (check_prevs_add) */
	for (i = t->nheld - 1; i >= 0; i--) {
		add_edge(t, i, c, fn);
		if (!t->held_try[i])
			break;
	}
}

__sched_notsan void __lockdep_trylock(struct task *t, struct sched_lock *l, const char *fn)
{
	unsigned c = class_of(l);

	if (c)
		mark_usage(t, l, c, lockdep_usage_of(t) & LOCKDEP_ENABLED_IRQ, fn);
}

void lockdep_reset(void)
{
	pthread_mutex_lock(&lockdep_lock);
	memset(adj, 0, sizeof(adj));
	memset(edge_of, 0, sizeof(edge_of));
	memset(lockdep_usage, 0, sizeof(lockdep_usage));
	nr_edges = 0;
	pthread_mutex_unlock(&lockdep_lock);
}

static uint32_t lockdep_bugs;	/* the switches of the runs recorded */

/* Another set of bug switches is another kernel: forget its lock graph. */
static void lockdep_run_hook(struct fsched *fs)
{
	(void)fs;
	if (bugs_enabled != lockdep_bugs) {
		bool on = lockdep_enabled;

		lockdep_reset();
		lockdep_enabled = on;
		lockdep_bugs = bugs_enabled;
	}
	lockdep_runs++;
}

__attribute__((constructor)) static void lockdep_init(void)
{
	const char *e = getenv("MMFUZZ_PROVE_LOCKING");

	if (e && !strcmp(e, "0"))
		lockdep_enabled = false;
	fsched_register_run_hook(lockdep_run_hook);
}

int lockdep_nr_edges(void)
{
	return __atomic_load_n(&nr_edges, __ATOMIC_ACQUIRE);
}

void lockdep_edge(int i, const char **from, const char **to)
{
	*from = class_name[edges[i].from];
	*to = class_name[edges[i].to];
}

bool lockdep_has_edge(const char *from, const char *to)
{
	int i;

	for (i = 0; i < lockdep_nr_edges(); i++)
		if (!strcmp(class_name[edges[i].from], from) && !strcmp(class_name[edges[i].to], to))
			return true;
	return false;
}

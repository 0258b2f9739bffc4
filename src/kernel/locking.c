// SPDX-License-Identifier: MIT
/* The out-of-line parts of the model's locks. */
#include "hooks.h"
#include "spinlock.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lock_validate_enabled = true;

DEFINE_HOOKS(kernel);
bool lock_stat_enabled;

void kernel_no_task(const char *fn)
{
	fprintf(stderr, "mmfuzz: internal error: %s() called outside a task\n", fn);
	abort();
}

void spin_lock_init_named(spinlock_t *l, const char *name, int idx)
{
	memset(l, 0, sizeof(*l));
	l->sl.name = name;
	l->sl.idx = idx;
	l->sl.tsan = SL_TSAN_MUTEX;
#if MMFUZZ_TSAN
	__tsan_mutex_create(&l->sl, __tsan_mutex_not_static);
#endif
}

void mutex_init_named(struct mutex *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->sl.name = name;
	m->sl.idx = -1;
	m->sl.sleeping = true;
	m->sl.tsan = SL_TSAN_MUTEX;
#if MMFUZZ_TSAN
	__tsan_mutex_create(&m->sl, __tsan_mutex_not_static);
#endif
}

void __lock_misuse(const struct sched_lock *l, const char *fn, const char *what)
{
	sched_violation("lock-misuse", fn, "%s: %s", l->name, what);
}

void __real_spin_lock(spinlock_t *l, struct task *t, const char *fn)
{
	struct task *none = NULL;

	if (unlikely(__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED) == t))
		sched_violation("deadlock", l->sl.name, "%s: recursive spin_lock in %s",
				l->sl.name, fn);
#if MMFUZZ_TSAN
	__tsan_mutex_pre_lock(&l->sl, 0);
#endif
	if (!__atomic_compare_exchange_n(&l->sl.owner, &none, t, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		if (lock_stat_enabled)
			__atomic_fetch_add(&l->st.contended, 1, __ATOMIC_RELAXED);
		for (;;) {
			while (__atomic_load_n(&l->sl.owner, __ATOMIC_RELAXED)) {
				real_wait_poll(t);
				__builtin_ia32_pause();
			}
			none = NULL;
			if (__atomic_compare_exchange_n(&l->sl.owner, &none, t, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				break;
		}
	}
#if MMFUZZ_TSAN
	__tsan_mutex_post_lock(&l->sl, 0, 0);
#endif
	if (lock_stat_enabled) {
		l->st.acquired++;
		l->st.t_acquired = __lock_tsc();
	}
}

void __real_mutex_lock(struct mutex *m, struct task *t, const char *fn)
{
	struct task *none = NULL;

	if (unlikely(__atomic_load_n(&m->sl.owner, __ATOMIC_RELAXED) == t))
		sched_violation("deadlock", m->sl.name, "%s: recursive mutex_lock in %s",
				m->sl.name, fn);
#if MMFUZZ_TSAN
	__tsan_mutex_pre_lock(&m->sl, 0);
#endif
	while (!__atomic_compare_exchange_n(&m->sl.owner, &none, t, false, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		none = NULL;
		real_wait_poll(t);
		sched_yield();
	}
#if MMFUZZ_TSAN
	__tsan_mutex_post_lock(&m->sl, 0, 0);
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * struct cpumask (include/linux/cpumask.h) for the model's MAX_CPUS: one
 * word.  cpumask_set_cpu() and cpumask_clear_cpu() are atomic bit
 * operations and yield points, as mm_cpumask() updates race with the IPIs
 * that read it; the __ versions are plain.  cpu_online_mask and
 * cpu_dying_mask are the kernel's (src/kernel/cpu.c keeps them).
 */
#ifndef MMFUZZ_KERNEL_CPUMASK_H
#define MMFUZZ_KERNEL_CPUMASK_H

#include <stdbool.h>

#include "compiler.h"
#include "preempt.h"

struct cpumask {
	unsigned long bits;
};
typedef struct cpumask cpumask_t;

BUILD_BUG_ON(MAX_CPUS > 64);

#define CPU_MASK_NONE		{ 0 }

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return __atomic_load_n(&m->bits, __ATOMIC_RELAXED) & (1UL << cpu);
}

static inline void __cpumask_set_cpu(int cpu, struct cpumask *m)
{
	WRITE_ONCE(m->bits, m->bits | (1UL << cpu));
}

static inline void __cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	WRITE_ONCE(m->bits, m->bits & ~(1UL << cpu));
}

#define cpumask_set_cpu(cpu, m) do {						\
	yield_point(YIELD_SITE(YP_ATOMIC, #m));					\
	__atomic_fetch_or(&(m)->bits, 1UL << (cpu), __ATOMIC_RELAXED);		\
} while (0)

#define cpumask_clear_cpu(cpu, m) do {						\
	yield_point(YIELD_SITE(YP_ATOMIC, #m));					\
	__atomic_fetch_and(&(m)->bits, ~(1UL << (cpu)), __ATOMIC_RELAXED);	\
} while (0)

static inline void cpumask_clear(struct cpumask *m)
{
	WRITE_ONCE(m->bits, 0);
}

static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s)
{
	WRITE_ONCE(d->bits, READ_ONCE(s->bits));
}

static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a,
			       const struct cpumask *b)
{
	WRITE_ONCE(d->bits, READ_ONCE(a->bits) & READ_ONCE(b->bits));
	return d->bits != 0;
}

static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{
	WRITE_ONCE(d->bits, READ_ONCE(a->bits) | READ_ONCE(b->bits));
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	return READ_ONCE(m->bits) == 0;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return (unsigned int)__builtin_popcountl(READ_ONCE(m->bits));
}

/* The first CPU at or after @n in @m, or MAX_CPUS. */
static inline int cpumask_next_from(int n, const struct cpumask *m)
{
	unsigned long b = READ_ONCE(m->bits);

	if (n >= MAX_CPUS)
		return MAX_CPUS;
	b &= ~0UL << n;
	return b ? __builtin_ctzl(b) : MAX_CPUS;
}
#define cpumask_first(m)	cpumask_next_from(0, (m))
#define cpumask_next(n, m)	cpumask_next_from((n) + 1, (m))

#define for_each_cpu(cpu, m)							\
	for ((cpu) = cpumask_first(m); (cpu) < MAX_CPUS; (cpu) = cpumask_next((cpu), (m)))

/* for_each_cpu_or(cpu, a, b): the CPUs in either */
#define for_each_cpu_or(cpu, a, b)						\
	for ((cpu) = cpumask_next_from(0, &(struct cpumask){ READ_ONCE((a)->bits) |	\
							     READ_ONCE((b)->bits) });	\
	     (cpu) < MAX_CPUS;							\
	     (cpu) = cpumask_next_from((cpu) + 1, &(struct cpumask){ READ_ONCE((a)->bits) | \
								     READ_ONCE((b)->bits) }))

/* src/kernel/cpu.c */
extern struct cpumask __cpu_online_mask, __cpu_dying_mask;
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)
#define cpu_dying_mask		((const struct cpumask *)&__cpu_dying_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_dying(cpu)		cpumask_test_cpu((cpu), cpu_dying_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)

#endif /* MMFUZZ_KERNEL_CPUMASK_H */

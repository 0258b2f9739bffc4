// SPDX-License-Identifier: MIT
/*
 * The registry of yield sites.  Every YIELD_SITE() leaves a pointer in the
 * mmfuzz_ysites section; sites_init() names them, sorts the names (link order
 * differs between compilers) and gives equal names one id, so ids and hashes
 * are the same in every build and a schedule can name any site in the code.
 */
#include "sched.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_SECTION(mmfuzz_ysites);

/* Equal names are one site, not duplicates: no key.  A site's id is an
 * unsigned short (struct yield_site). */
static const struct registry sites_registry = {
	.what = "yield site", .limit = "the unsigned short of yield_site.id",
	REGISTRY_BOUNDS(mmfuzz_ysites), .cap = 65536,
};

static const char *const yield_type_names[NR_YIELD_TYPES] = {
	[YP_OP] = "op",
	[YP_SPIN_LOCK] = "spin_lock",
	[YP_SPIN_TRYLOCK] = "spin_trylock",
	[YP_SPIN_UNLOCK] = "spin_unlock",
	[YP_MUTEX_LOCK] = "mutex_lock",
	[YP_MUTEX_UNLOCK] = "mutex_unlock",
	[YP_ATOMIC] = "atomic",
	[YP_CMPXCHG] = "cmpxchg",
	[YP_PREEMPT] = "preempt_enable",
	[YP_IRQ] = "irq_restore",
	[YP_POINT] = "point",
	[YP_LOOP] = "loop",
	[YP_KTHREAD] = "kthread",
	[YP_COMPLETE] = "complete",
	[YP_WAIT_COMPLETION] = "wait_for_completion",
	[YP_DOWN_READ] = "down_read",
	[YP_DOWN_WRITE] = "down_write",
	[YP_DOWN_TRYLOCK] = "down_trylock",
	[YP_UP_READ] = "up_read",
	[YP_UP_WRITE] = "up_write",
	[YP_DOWNGRADE_WRITE] = "downgrade_write",
	[YP_LOCAL_LOCK] = "local_lock",
	[YP_LOCAL_UNLOCK] = "local_unlock",
	[YP_CMPXCHG_DOUBLE] = "cmpxchg_double",
	[YP_BIT_SPIN_LOCK] = "bit_spin_lock",
	[YP_BIT_SPIN_UNLOCK] = "bit_spin_unlock",
	[YP_IPI_SEND] = "smp_call_function",
	[YP_IPI] = "ipi",
	[YP_RCU_READ_LOCK] = "rcu_read_lock",
	[YP_RCU_READ_UNLOCK] = "rcu_read_unlock",
	[YP_SYNCHRONIZE_RCU] = "synchronize_rcu",
	[YP_CALL_RCU] = "call_rcu",
	[YP_RCU_GP] = "rcu_gp",
	[YP_CPUHP] = "cpuhp",
	[YP_RACY_READ] = "racy_read",
	[YP_RACY_WRITE] = "racy_write",
};
_Static_assert(sizeof(yield_type_names) / sizeof(yield_type_names[0]) == NR_YIELD_TYPES,
	       "a name for every yield type");

static const struct yield_site **site_table;	/* by id: one site per name */
static unsigned nsites;
static pthread_once_t sites_once = PTHREAD_ONCE_INIT;

const char *yield_type_name(enum yield_type t)
{
	return t < NR_YIELD_TYPES ? yield_type_names[t] : "?";
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static void squeeze_spaces(char *s)
{
	char *d = s;

	for (; *s; s++)
		if (*s != ' ')
			*d++ = *s;
	*d = 0;
}

static int cmp_site_name(const void *a, const void *b)
{
	const struct yield_site *x = *(const struct yield_site *const *)a;
	const struct yield_site *y = *(const struct yield_site *const *)b;

	return strcmp(x->name, y->name);
}

static void sites_build(void)
{
	size_t n = registry_count(&sites_registry);
	struct yield_site **all = malloc((n ? n : 1) * sizeof(*all));
	size_t i;

	if (!all)
		abort();
	n = registry_collect(&sites_registry, (const void **)all);
	for (i = 0; i < n; i++) {
		struct yield_site *s = all[i];
		const char *what = s->what ? s->what : "";
		char buf[256];

		/* spin_lock(&zone->lock) stringifies as "&zone->lock"; macro
		 * locals are named __pcp: "pcp->lock" */
		while (*what == '&' || *what == ' ' || *what == '_')
			what++;
		if (s->type == YP_OP)
			snprintf(buf, sizeof(buf), "op(%s)", what);
		else
			snprintf(buf, sizeof(buf), "%s:%s(%s)", s->func,
				 yield_type_name((enum yield_type)s->type), what);
		/* a stringified expression ("pcp_count(pcp, cpu)") keeps no
		 * spaces: a site name is one word of the text form */
		squeeze_spaces(buf);
		s->name = strdup(buf);
		if (!s->name)
			abort();
		s->hash = fnv1a(s->name);
	}
	qsort(all, n, sizeof(*all), cmp_site_name);
	site_table = malloc((n ? n : 1) * sizeof(*site_table));
	if (!site_table)
		abort();
	for (i = 0; i < n; i++) {
		if (nsites && !strcmp(site_table[nsites - 1]->name, all[i]->name)) {
			all[i]->id = site_table[nsites - 1]->id;
			continue;
		}
		all[i]->id = (unsigned short)nsites;
		site_table[nsites++] = all[i];
	}
	free(all);
}

void sites_init(void)
{
	pthread_once(&sites_once, sites_build);
}

unsigned sites_count(void)
{
	sites_init();
	return nsites;
}

const struct yield_site *site_by_id(unsigned id)
{
	sites_init();
	return id < nsites ? site_table[id] : NULL;
}

const struct yield_site *site_lookup(const char *name)
{
	unsigned lo = 0, hi;

	sites_init();
	hi = nsites;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = strcmp(site_table[mid]->name, name);

		if (!c)
			return site_table[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

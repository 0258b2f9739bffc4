/* SPDX-License-Identifier: MIT */
/*
 * SLUB's structures as Linux 6.6 has them (mm/slab.h, include/linux/
 * slub_def.h): struct slab overlaying struct page (SLAB_MATCH), the
 * per-CPU kmem_cache_cpu with its 16-byte {freelist, tid} freelist_aba_t,
 * the node's kmem_cache_node, and struct kmem_cache.
 *
 * The model has one node: each cache has node[0] only.  Its pages are
 * MODEL_PAGE_SIZE (64) bytes, so a slab's order is chosen to hold at least
 * SLUB_MIN_OBJECTS (16) objects (calculate_order below; docs/layer-slub.md).
 *
 * Locks (6.6 mm/slub.c's comment "Lock order": slab_mutex,
 * node->list_lock, kmem_cache->cpu_slab->lock, slab_lock(slab)):
 *   n->list_lock            the node's partial list, nr_partial
 *     s->cpu_slab[cpu].lock local_lock: this CPU's slab and partial list
 *       slab_lock           PG_locked of the slab's page: only for caches
 *                           without the double-word cmpxchg (debug caches,
 *                           every cache under freelist_update: slab_lock)
 * Lock order: cpu_hotplug_lock -> slab_mutex -> s->cpu_slab->lock (slub_cpu_dead)
 * Lock order: slab_mutex -> n->list_lock (slub_cpu_dead's deactivations)
 * Lock order: cpu_hotplug_lock -> s->cpu_slab->lock (flush_all under cpus_read_lock)
 * Lock order: cpu_hotplug_lock -> n->list_lock (flush_all's deactivations, slub_cpu_dead)
 * Lock order: n->list_lock -> s->cpu_slab->lock (get_partial_node's
 *   put_cpu_partial under list_lock, as 6.6's)
 * Lock order: pcp_batch_high_lock -> n->list_lock (an allocation under
 *   zone_pcp_disable, as offline_pages' migration allocates)
 * Lock order: s->cpu_slab->lock -> slab_lock (___slab_alloc's get_freelist
 *   under the local lock, on a cache without __CMPXCHG_DOUBLE)
 * What each protects:
 *   cpu lock    c->slab, c->partial (and the slow path's c->freelist and
 *               tid changes); the fast path changes c->{freelist,tid} with
 *               this_cpu_cmpxchg_double and preemption enabled
 *   list_lock   n->partial, n->nr_partial, slab->slab_list of slabs on it,
 *               the frozen bit's transitions of slabs on the list
 *   cmpxchg     slab->{freelist,counters} (slab_update_freelist)
 */
#ifndef MMFUZZ_MM_SLAB_H
#define MMFUZZ_MM_SLAB_H

#include <stddef.h>

#include "../kernel/atomic.h"
#include "../kernel/hooks.h"
#include "../kernel/cmpxchg_double.h"
#include "../kernel/list.h"
#include "../kernel/local_lock.h"
#include "../kernel/rcupdate.h"
#include "../kernel/spinlock.h"
#include "mm.h"
#include "../kernel/hooks.h"

/* page flags the slab uses (6.6 enum pageflags' numbers) */
#define PG_locked		0
#define PG_slab			11
_Static_assert(PG_slab < NR_PAGEFLAGS && PG_locked < PG_head, "slab page flags in range");

#define SLUB_MIN_OBJECTS	16
#define SLUB_MAX_OBJECTS	0x7fff	/* objects:15 */
#define SLUB_MIN_PARTIAL	2	/* min_partial of every cache (set_min_partial's floor) */
#define SLUB_CPU_PARTIAL_SLABS	2	/* slub_set_cpu_partial's slabs for small caches */

/* kmem_cache flags (6.6 include/linux/slab.h; the debug ones need
 * CONFIG_SLUB_DEBUG, which the model always has) */
#define SLAB_CONSISTENCY_CHECKS	0x00000100UL	/* debug: no cmpxchg_double, checks */
#define SLAB_RED_ZONE		0x00000400UL	/* accepted; no red zone in the model */
#define SLAB_POISON		0x00000800UL	/* accepted; objects are ASan-poisoned anyway */
#define SLAB_STORE_USER		0x00010000UL	/* accepted; the owner cookie stands for it */
#define SLAB_TYPESAFE_BY_RCU	0x00080000UL	/* slab pages freed after a grace period */
#define SLAB_TRACE		0x00200000UL
#define __CMPXCHG_DOUBLE	0x40000000UL	/* s->flags: the cache uses it */

/* mm/slab.h 6.6: what makes a cache a debug cache */
#define SLAB_DEBUG_FLAGS	(SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | \
				 SLAB_TRACE | SLAB_CONSISTENCY_CHECKS)
/* mm/slub.c 6.6: debug caches that run without the double-word cmpxchg */
#define SLAB_NO_CMPXCHG		(SLAB_CONSISTENCY_CHECKS | SLAB_STORE_USER | SLAB_TRACE)
/* what kmem_cache_create takes (SLAB_FLAGS_PERMITTED, the model's subset) */
#define SLAB_FLAGS_PERMITTED	(SLAB_DEBUG_FLAGS | SLAB_TYPESAFE_BY_RCU)

typedef union {
	struct {
		void *freelist;
		unsigned long counter;
	};
	u128 full;
} freelist_aba_t;

struct kmem_cache;

struct slab {
	unsigned long __page_flags;
	struct kmem_cache *slab_cache;
	union {
		struct {
			union {
				struct list_head slab_list;
				struct {		/* on a CPU partial list */
					struct slab *next;
					int slabs;	/* slabs from here to the chain's end */
				};
			};
			union {
				struct {
					void *freelist;		/* first free object */
					union {
						unsigned long counters;
						struct {
							unsigned inuse:16;
							unsigned objects:15;
							unsigned frozen:1;
						};
					};
				};
				freelist_aba_t freelist_counter;
			};
		};
		struct rcu_head rcu_head;	/* SLAB_TYPESAFE_BY_RCU: rcu_free_slab */
	};
	unsigned int __unused;
	atomic_t __page_refcount;
	unsigned long memcg_data;
};

#define SLAB_MATCH(pg, sl)						\
	_Static_assert(offsetof(struct page, pg) == offsetof(struct slab, sl), "slab overlays page: " #pg)
SLAB_MATCH(flags, __page_flags);
SLAB_MATCH(compound_head, slab_cache);	/* ensure bit 0 is clear */
SLAB_MATCH(_refcount, __page_refcount);
SLAB_MATCH(memcg_data, memcg_data);
#undef SLAB_MATCH
_Static_assert(sizeof(struct slab) <= sizeof(struct page), "struct slab fits a struct page");
_Static_assert(offsetof(struct slab, freelist) % 16 == 0, "freelist_counter 16-byte aligned");
_Static_assert(offsetof(struct slab, rcu_head) + sizeof(struct rcu_head) <=
	       offsetof(struct slab, __unused), "rcu_head within the union: page_type untouched");

#define slab_page(s)	((struct page *)(s))
#define page_slab(p)	((struct slab *)(p))

static inline bool slab_test_frozen_raw(const struct slab *slab)
{
	return slab->frozen;
}

/* slab->objects where a lockless __slab_free may be rewriting the word it
 * shares with inuse and frozen (the list_lock paths of seed 004's series):
 * objects never changes while the slab lives, and 6.6 reads the bitfield
 * plainly; the model reads the whole word, no yield point (TSan: a plain
 * read of the bitfield races with __update_freelist_slow's store) */
static inline unsigned int slab_objects_racy(const struct slab *slab)
{
	struct slab c;

	c.counters = __READ_ONCE(slab->counters);
	return c.objects;
}

/* CONFIG_SLUB_STATS' items the model counts (6.6 enum stat_item) */
enum stat_item {
	ALLOC_FASTPATH,			/* allocation from the CPU slab's freelist */
	ALLOC_SLOWPATH,			/* allocation through ___slab_alloc */
	FREE_FASTPATH,			/* free to the CPU slab */
	FREE_SLOWPATH,			/* __slab_free */
	FREE_FROZEN,			/* __slab_free to a frozen slab */
	CPU_PARTIAL_FREE,		/* a full slab frozen onto a CPU partial list */
	ALLOC_SLAB,			/* new_slab */
	FREE_SLAB,			/* discard_slab */
	DEACTIVATE_FULL,		/* deactivate_slab: no free object left */
	CMPXCHG_DOUBLE_CPU_FAIL,	/* the fast path's this_cpu_cmpxchg failed */
	CMPXCHG_DOUBLE_FAIL,		/* slab_update_freelist failed */
	ALLOC_FROM_PARTIAL,		/* get_partial_node: a node slab for the CPU */
	CPU_PARTIAL_NODE,		/* get_partial_node: a node slab to the CPU partial list */
	NR_SLUB_STAT_ITEMS
};

struct kmem_cache_cpu {
	union {
		struct {
			void **freelist;	/* next available object */
			unsigned long tid;	/* globally unique transaction id */
		};
		freelist_aba_t freelist_tid;
	};
	struct slab *slab;		/* the slab we are allocating from */
	struct slab *partial;		/* partially allocated frozen slabs */
	local_lock_t lock;		/* protects the fields above */
	/* CONFIG_SLUB_STATS: this CPU's counts (stat(): raw_cpu_inc, no
	 * atomic RMW and no line shared with another CPU; read summed) */
	unsigned int stat[NR_SLUB_STAT_ITEMS];
};

/* ---- seed 004: the partial list's object counts (slub_partial.c) ---- */

/* how /proc/slabinfo counts the partial slabs' free objects (config key
 * slub_partial) */
enum slub_partial_variant {
	PARTIAL_COUNT_WALK,		/* count_partial: 6.6's walk under list_lock */
	PARTIAL_COUNTERS,		/* the series: per-node total, per-CPU free */
	PARTIAL_COUNTERS_ATOMIC,	/* the total and one shared atomic free counter */
	NR_SLUB_PARTIAL_VARIANTS
};

/* bug switches (slub_partial.c registers them) */
enum {
	BUG_PARTIAL_COUNTER_REREAD_INUSE = 20,	/* series v2: slab->inuse re-read */
	BUG_PARTIAL_TOTAL_UNLOCKED = 21,	/* partial_total_objs changed outside list_lock */
	BUG_COUNT_PARTIAL_NOLOCK = 22,		/* count_partial without list_lock */
};

/* one CPU's partial_free_objs (alloc_percpu(unsigned long) in the series):
 * a CPU's own may go negative, the sum over CPUs is what counts */
struct partial_free_cpu {
	long objs;
} ____percpu_aligned;

struct kmem_cache_node {
	spinlock_t list_lock;
	unsigned long nr_partial;
	/* 16-byte aligned: list_for_each_entry's last container_of on the
	 * head makes a struct slab pointer, which must be aligned */
	struct list_head partial __attribute__((aligned(16)));
	/* CONFIG_SLUB_DEBUG (on in 6.6's distro configs): every slab of the
	 * node and its objects, atomics changed outside list_lock
	 * (inc_slabs_node / dec_slabs_node, slub.c:1381-1402) */
	atomic_long_t nr_slabs;
	atomic_long_t total_objects;
	struct list_head full __attribute__((aligned(16)));	/* debug caches: full slabs */
	/* seed 004's counters (slub_partial.c; 6.6 + the series keep them in
	 * mm/slub.c): enum slub_partial_variant, fixed at the cache's creation */
	int partial_variant;
	unsigned long partial_total_objs;	/* objects of the partial slabs: list_lock */
	struct partial_free_cpu *partial_free_objs;	/* [MAX_CPUS]: this_cpu_add, lockless */
	atomic_long_t partial_free_atomic;	/* partial_counters_atomic's one counter */
};

struct kmem_cache_order_objects {
	unsigned int x;			/* order << 16 | objects */
};

struct kmem_cache {
	struct kmem_cache_cpu *cpu_slab;	/* [MAX_CPUS], 16-byte aligned */
	unsigned long flags;
	unsigned long min_partial;
	unsigned int size;		/* the slot: object + the owner cookie */
	unsigned int object_size;	/* what the caller asked for */
	unsigned int offset;		/* the free pointer's, in the object */
	unsigned int cpu_partial_slabs;
	struct kmem_cache_order_objects oo;
	unsigned int cookie;		/* the owner cookie's offset in the slot */
	char name[24];
	/* slab_caches; 16-byte aligned, as the list's head: the walk's last
	 * container_of on the head makes a struct kmem_cache pointer, which
	 * UBSan requires aligned (the struct is, for node0's lists) */
	struct list_head list __attribute__((aligned(16)));
	struct kmem_cache_node *node[1];
	struct kmem_cache_node node0;
};

static inline unsigned int oo_order(struct kmem_cache_order_objects x) { return x.x >> 16; }
static inline unsigned int oo_objects(struct kmem_cache_order_objects x) { return x.x & 0xffff; }

/* kmem_cache_debug_flags / kmem_cache_debug (mm/slub.c 6.6) */
static inline bool kmem_cache_debug_flags(const struct kmem_cache *s, unsigned long flags)
{
	return s->flags & flags;
}

static inline bool kmem_cache_debug(const struct kmem_cache *s)
{
	return kmem_cache_debug_flags(s, SLAB_DEBUG_FLAGS);
}

/* The owner cookie: the task id + 1 that holds the object, 0 when free. */
#define SLUB_COOKIE_FREE	0UL

/* the model's one node */
static inline struct kmem_cache_node *get_node(struct kmem_cache *s, int node)
{
	(void)node;
	return s->node[0];
}

/* the free pointer inside a free object (no yield point: the fast path's
 * racy read is get_freepointer_safe in slub.c) */
static inline void *get_freepointer(struct kmem_cache *s, void *object)
{
	return __READ_ONCE(*(void **)((char *)object + s->offset));
}

static inline unsigned long *obj_cookie(struct kmem_cache *s, void *object)
{
	return (unsigned long *)((char *)object + s->cookie);
}

/* ---- the interface (slub.c; the checks in check/slab.c) ---- */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     unsigned long flags, void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfpflags);
void kmem_cache_free(struct kmem_cache *s, void *x);
int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t flags, size_t size, void **p);
void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p);
int kmem_cache_shrink(struct kmem_cache *s);
void kfree(const void *x);
/* every CPU's slab and partials back to the node (flush_all) */
void flush_all(struct kmem_cache *s);
/* slub.c's, for the flushing in slub_flush.c */
void deactivate_slab(struct kmem_cache *s, struct slab *slab, void *freelist);
void __unfreeze_partials(struct kmem_cache *s, struct slab *partial_slab);
/* slub_cpu_dead: the dead CPU's slabs back to the node */
int slub_cpu_dead(unsigned int cpu);
/* slub_partial.c: count_partial, /proc/slabinfo's get_slabinfo */
unsigned long count_partial(struct kmem_cache_node *n, int (*get_count)(struct slab *));
int count_free(struct slab *slab);

/* what /proc/slabinfo prints of a cache (6.6 mm/slab.h) */
struct slabinfo {
	unsigned long active_objs;
	unsigned long num_objs;
	unsigned long active_slabs;
	unsigned long num_slabs;
	unsigned long shared_avail;
	unsigned int limit;
	unsigned int batchcount;
	unsigned int shared;
	unsigned int objects_per_slab;
	unsigned int cache_order;
};
void get_slabinfo(struct kmem_cache *s, struct slabinfo *sinfo);

/* the counters' upkeep, called by slub.c and slab_common.c where the
 * series updates them */
const char *slub_partial_variant_name(int v);
/* the variant: config key slub_partial, the running world's when a cache
 * is created (kmem_cache_create) */
extern struct config_key ck_slub_partial;
int init_kmem_cache_node_partial(struct kmem_cache *s, struct kmem_cache_node *n);
void free_kmem_cache_node_partial(struct kmem_cache_node *n);
void __update_partial_total(struct kmem_cache_node *n, long delta);
void __update_partial_free(struct kmem_cache_node *n, long delta);
/* __slab_free: @cnt objects freed to a slab on the node's list */
void partial_free_freed(struct kmem_cache_node *n, long cnt);
/* before __slab_free's update of such a slab, and after one that failed */
void partial_free_begin(struct kmem_cache_node *n, long cnt);
void partial_free_cancel(struct kmem_cache_node *n, long cnt);
/* a slab unfrozen onto the node's list with counters @counters (new.*) */
void partial_free_unfrozen(struct kmem_cache_node *n, struct slab *slab, unsigned long counters);
/* BUG_PARTIAL_TOTAL_UNLOCKED: the total's update after the unlock */
void partial_total_add_unlocked(struct kmem_cache_node *n, long delta);
enum partial_item { PARTIAL_FREE, PARTIAL_TOTAL, PARTIAL_INUSE };
/* the series' partial_counter(): per-CPU counters summed, clamped at 0 */
unsigned long partial_counter(struct kmem_cache_node *n, enum partial_item item);
/* the signed sum of the free counter(s), for the checkers */
long partial_free_sum(const struct kmem_cache_node *n);

/* what the checkers see of the counters (DEFINE_HOOKS in slub_partial.c) */
struct slub_partial_hooks {
	/* __slab_free is about to free @cnt objects to a slab on @n's list
	 * (before its update: free_counted takes them back when it fails);
	 * free_counted once they are in the free counter (no yield between
	 * the add and its hook) */
	void (*free_pending)(const struct kmem_cache_node *n, long cnt);
	void (*free_counted)(const struct kmem_cache_node *n, long cnt);
	/* count_partial is about to read the slab at @pos of @n's list (or
	 * the head), before it dereferences it */
	void (*partial_walk)(const struct kmem_cache_node *n, const struct list_head *pos);
	/* state as coverage (key 11): a free-counter update at @site
	 * (enum partial_site), right after it */
	void (*state_partial)(const struct kmem_cache_node *n, int site);
};
DECLARE_HOOKS(slub_partial);
enum partial_site {
	PARTIAL_SITE_FREED,	/* __slab_free's cnt (list_lock held or not) */
	PARTIAL_SITE_UNFROZEN,	/* deactivate_slab, __unfreeze_partials */
	NR_PARTIAL_SITES
};

static inline unsigned long node_nr_slabs(struct kmem_cache_node *n)
{
	return (unsigned long)atomic_long_read(&n->nr_slabs);
}

static inline unsigned long node_nr_objs(struct kmem_cache_node *n)
{
	return (unsigned long)atomic_long_read(&n->total_objects);
}

/* 6.6 slub.c:1381-1402: called for every cache (CONFIG_SLUB_DEBUG) */
static inline void inc_slabs_node(struct kmem_cache *s, int node, int objects)
{
	struct kmem_cache_node *n = get_node(s, node);

	atomic_long_inc(&n->nr_slabs);
	atomic_long_add(objects, &n->total_objects);
}

static inline void dec_slabs_node(struct kmem_cache *s, int node, int objects)
{
	struct kmem_cache_node *n = get_node(s, node);

	atomic_long_dec(&n->nr_slabs);
	atomic_long_sub(objects, &n->total_objects);
}
/* the slab of an object (virt_to_slab) */
struct slab *virt_to_slab(const void *x);
/* the live objects' count of @s at quiescence: slabs' inuse summed */
long slub_objects_inuse(struct kmem_cache *s);
/* a violation (I-SL) when @s's lists and counters disagree (at quiescence) */
void validate_slab_cache(struct kmem_cache *s);
/* check/slab.c, seed 004: I-SL-PTOTAL and I-SL-PFREE of @s (exact when
 * @quiescent, else within the frees in flight); the hooks and the
 * list_lock validator that check them, and clearing the frees in flight */
void slab_partial_check(struct kmem_cache *s, bool quiescent, const char *where);
void slab_list_lock_validate(void *arg, const char *fn);
void slab_partial_attach(void);
void slab_partial_run_begin(void);
/* the objects of the frees in flight on @n (the hooks' count) */
long slab_partial_inflight(const struct kmem_cache_node *n);
/* its node part: the partial list, its slabs' freelists, nr_partial */
void validate_slab_node(struct kmem_cache *s, struct kmem_cache_node *n);

/* kmalloc's size classes (6.6 mm/slab_common.c kmalloc_info, cut at
 * KMALLOC_MAX_CACHE_SIZE): created by create_kmalloc_caches() */
#define KMALLOC_MIN_SIZE	8
#define KMALLOC_MAX_CACHE_SIZE	256
#define NR_KMALLOC_CLASSES	8	/* 8 16 32 64 96 128 192 256 */
extern struct kmem_cache *kmalloc_caches[NR_KMALLOC_CLASSES];
void create_kmalloc_caches(unsigned long flags);
/* the cache kmalloc(@size) takes (kmalloc_slab), NULL past the classes */
struct kmem_cache *kmalloc_slab(size_t size);
void *kmalloc(size_t size, gfp_t flags);
/* flush_all on every online CPU from a fiber task: it migrates to each
 * (6.6 flush_all_cpus_locked queues flush_cpu_slab there); the caller
 * holds cpus_read_lock */
void flush_all_cpus_locked(struct kmem_cache *s);

/*
 * The harness's hooks (kernel/hooks.h; DEFINE_HOOKS in slub_world.c):
 * cache_created: kmem_cache_create made @s (its list_lock initialised,
 *   no slab yet): a checker puts its under-lock validator on the lock.
 */
struct slub_hooks {
	void (*cache_created)(struct kmem_cache *s);
	/* state as coverage (check/slab_features.c): add_partial made the
	 * node's list @nr_partial long (@s's min_partial decides discards) */
	void (*state_node_partial)(const struct kmem_cache *s, unsigned long nr_partial);
	/* put_cpu_partial put a slab on this CPU's chain, now @slabs long;
	 * @unfreeze: the old chain, at cpu_partial_slabs, went to the node */
	void (*state_cpu_partial)(const struct kmem_cache *s, int slabs, bool unfreeze);
	/* this CPU's s->cpu_slab->lock just taken (@held) or just dropped,
	 * before the yield point after it (check/slab_run.c: I-SL-TID, the tid
	 * moved with every change of the CPU's freelist or slab) */
	void (*cpu_lock)(struct kmem_cache *s, int cpu, bool held, const char *fn);
};
DECLARE_HOOKS(slub);

/* ---- slub.c's and slub_debug.c's, between them (and slab_common.c) ---- */

/* 6.6's raw_cpu_inc(s->cpu_slab->stat[si]) on the CPU the task is on: a
 * load and a store of this CPU's count (relaxed atomics, for TSan: a
 * reader sums the CPUs' counts while they change) */
static inline void stat(struct kmem_cache *s, enum stat_item si)
{
	unsigned int *p = &s->cpu_slab[raw_smp_processor_id()].stat[si];

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* what /sys/kernel/slab/<cache>/<item> shows (show_stat): the CPUs' sum */
static inline unsigned long slub_stat_sum(const struct kmem_cache *s, enum stat_item si)
{
	unsigned long sum = 0;
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		sum += __atomic_load_n(&s->cpu_slab[cpu].stat[si], __ATOMIC_RELAXED);
	return sum;
}

static inline void set_freepointer(struct kmem_cache *s, void *object, void *fp)
{
	__WRITE_ONCE(*(void **)((char *)object + s->offset), fp);
}

static inline void *slab_address(const struct slab *slab)
{
	return page_address(slab_page(slab));
}

/* kmem_cache_has_cpu_partial: debug caches keep no CPU slabs */
static inline bool kmem_cache_has_cpu_partial(const struct kmem_cache *s)
{
	return !kmem_cache_debug(s);
}

void add_partial(struct kmem_cache_node *n, struct slab *slab, int tail);
#define DEACTIVATE_TO_HEAD	0
#define DEACTIVATE_TO_TAIL	1
/* free_slab: the pages back, after a grace period for SLAB_TYPESAFE_BY_RCU */
void free_slab(struct kmem_cache *s, struct slab *slab);
/* the pages back to the page allocator now (slub.c) */
void __free_slab(struct kmem_cache *s, struct slab *slab);

/* slub_debug.c: the (freelist, counters) update, with slab_lock for caches
 * without __CMPXCHG_DOUBLE; __slab_update_freelist wants IRQs off */
extern bool system_has_freelist_aba;	/* false: no cache gets __CMPXCHG_DOUBLE */
/* the config key freelist_update (slab_lock: every cache on slab_lock) */
extern struct config_key ck_freelist_update;
/* 6.6's system_has_freelist_aba(): the world's key and the test's switch */
bool slub_system_has_freelist_aba(void);
/* the config key slub_debug (6.6's slub_debug=F or =FU): the flags of a
 * cache a program marks debug */
extern struct config_key ck_slub_debug;
unsigned long slub_debug_flags(void);
bool __slab_update_freelist(struct kmem_cache *s, struct slab *slab, void *freelist_old,
			    unsigned long counters_old, void *freelist_new,
			    unsigned long counters_new, const char *n);
bool slab_update_freelist(struct kmem_cache *s, struct slab *slab, void *freelist_old,
			  unsigned long counters_old, void *freelist_new,
			  unsigned long counters_new, const char *n);
/* debug caches (kmem_cache_debug): one object at a time under list_lock */
void *alloc_single_from_partial(struct kmem_cache *s, struct kmem_cache_node *n,
				struct slab *slab);
void *alloc_single_from_new_slab(struct kmem_cache *s, struct slab *slab);
void free_to_partial_list(struct kmem_cache *s, struct slab *slab, void *head, void *tail,
			  int bulk_cnt);
/* the sysfs validate file: "1" on a debug cache runs validate_slab_cache
 * (6.6's, which flush_all()s and then walks each node under list_lock;
 * a disagreement is the violation I-SL-VALIDATE); the slabs counted, or
 * -EINVAL */
long validate_store(struct kmem_cache *s, const char *buf);

/* SLAB_TYPESAFE_BY_RCU's record (slub_debug.c): a slab queued for
 * rcu_free_slab; the check at its page's free (I-RCU-TYPESAFE); the slabs
 * still waiting, for I-CONS (how many; at most @max of them in @out) */
void slab_rcu_queued(struct slab *slab);
void slab_rcu_check_free(struct kmem_cache *s, struct slab *slab, const char *fn);
size_t slab_rcu_pending(struct slab **out, size_t max);

/* the layer's bug switches (src/bugs/bugs.h): a bit is a switch's forever */
enum {
	BUG_DEACTIVATE_SLAB_LOST_INUSE = 23,	/* deactivate_slab keeps free_delta in inuse */
	BUG_TYPESAFE_FREE_NO_GP = 24,		/* a typesafe slab's page freed at once */
};

/* slub.c's, for slab_common.c */
#define TID_STEP		MAX_CPUS	/* roundup_pow_of_two(CONFIG_NR_CPUS) */
_Static_assert((MAX_CPUS & (MAX_CPUS - 1)) == 0, "TID_STEP a power of two");
static inline unsigned long init_tid(int cpu) { return (unsigned long)cpu; }
extern struct list_head slab_caches;
extern struct mutex slab_mutex;	/* the list's lock (slab_common.c) */
void discard_slab(struct kmem_cache *s, struct slab *slab);
void remove_partial(struct kmem_cache_node *n, struct slab *slab);

/* slub.c's, for slub_bulk.c: the paths the bulk calls take */
static inline unsigned long next_tid(unsigned long tid) { return tid + TID_STEP; }
void *___slab_alloc(struct kmem_cache *s, gfp_t gfpflags, int node);
void do_slab_free(struct kmem_cache *s, struct slab *slab, void *head, void *tail, int cnt);
void slab_post_alloc_hook(struct kmem_cache *s, void *object, const char *fn);
void slab_free_hook(struct kmem_cache *s, void *object, const char *fn);
/* local_lock_irqsave(&s->cpu_slab->lock, flags) on this CPU's */
#define slub_local_lock_irqsave(s, flags) do {					\
	struct task *__t = current;						\
	yield_point(YIELD_SITE(YP_LOCAL_LOCK, "s->cpu_slab->lock"));		\
	(flags) = __local_irq_save(__t);					\
	__local_lock_acquire(&this_cpu_ptr((s)->cpu_slab)->lock, __t, __func__); \
	HOOK(slub, cpu_lock, (s), (int)raw_smp_processor_id(), true, __func__);	\
} while (0)

#define slub_local_unlock_irqrestore(s, flags) do {				\
	struct task *__t = current;						\
	int __cpu = (int)raw_smp_processor_id();				\
	__local_lock_release(&this_cpu_ptr((s)->cpu_slab)->lock, __t, __func__); \
	__local_irq_restore(__t, (flags), __func__);				\
	/* nothing runs on the CPU before the yield point: the section's	\
	 * changes are still what the hook compares */			\
	HOOK(slub, cpu_lock, (s), __cpu, false, __func__);			\
	yield_point(YIELD_SITE(YP_LOCAL_UNLOCK, "s->cpu_slab->lock"));		\
} while (0)

#endif /* MMFUZZ_MM_SLAB_H */

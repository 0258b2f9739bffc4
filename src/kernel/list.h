/* SPDX-License-Identifier: MIT */
/*
 * Doubly linked lists as in include/linux/list.h, always with the
 * CONFIG_DEBUG_LIST checks: a corrupted list is a violation named after the
 * model function that touched it ("list-corruption@free_pcppages_bulk"), not
 * a crash later on.
 */
#ifndef MMFUZZ_KERNEL_LIST_H
#define MMFUZZ_KERNEL_LIST_H

#include <stdbool.h>

#include "compiler.h"
#include "../sched/sched.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_POISON1 ((struct list_head *)0x100)
#define LIST_POISON2 ((struct list_head *)0x122)

#define LIST_HEAD_INIT(name) { &(name), &(name) }

/*
 * As in the kernel, ->next is written with WRITE_ONCE and list_empty() reads
 * it with READ_ONCE, so a racy emptiness check (free_area_empty() in the
 * watermark check) is a marked access; everything else is plain.  They are
 * the __ forms, without a yield point: nearly every list_empty() runs under
 * the list's lock, and the racy one is marked where it is made
 * (__zone_watermark_ok: __data_race(free_area_empty(...)), in one step with
 * the data_race(area->nr_free) before it).
 */
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	__WRITE_ONCE(l->next, l);
	l->prev = l;
}

static inline bool __list_add_valid(struct list_head *new, struct list_head *prev,
				    struct list_head *next, const char *fn)
{
	if (unlikely(next->prev != prev || prev->next != next || new == prev || new == next))
		sched_violation("list-corruption", fn,
				"list_add: prev->next %p next->prev %p (prev %p next %p new %p)",
				(void *)prev->next, (void *)next->prev, (void *)prev,
				(void *)next, (void *)new);
	return true;
}

static inline bool __list_del_valid(struct list_head *e, const char *fn)
{
	struct list_head *prev = e->prev, *next = e->next;

	if (unlikely(next == LIST_POISON1 || prev == LIST_POISON2))
		sched_violation("list-corruption", fn, "list_del: entry %p already deleted",
				(void *)e);
	if (unlikely(prev->next != e || next->prev != e))
		sched_violation("list-corruption", fn,
				"list_del: entry %p: prev->next %p next->prev %p", (void *)e,
				(void *)prev->next, (void *)next->prev);
	return true;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next, const char *fn)
{
	__list_add_valid(new, prev, next, fn);
	next->prev = new;
	new->next = next;
	new->prev = prev;
	__WRITE_ONCE(prev->next, new);
}

static inline void __list_del_entry(struct list_head *e, const char *fn)
{
	__list_del_valid(e, fn);
	e->next->prev = e->prev;
	__WRITE_ONCE(e->prev->next, e->next);
}

#define list_add(new, head)	 __list_add((new), (head), (head)->next, __func__)
#define list_add_tail(new, head) __list_add((new), (head)->prev, (head), __func__)

#define list_del(e) do {							\
	struct list_head *__e = (e);						\
	__list_del_entry(__e, __func__);					\
	__e->next = LIST_POISON1;						\
	__e->prev = LIST_POISON2;						\
} while (0)

#define list_del_init(e) do {							\
	struct list_head *__e = (e);						\
	__list_del_entry(__e, __func__);					\
	INIT_LIST_HEAD(__e);							\
} while (0)

#define list_move(e, head) do {							\
	struct list_head *__e = (e), *__h = (head);				\
	__list_del_entry(__e, __func__);					\
	__list_add(__e, __h, __h->next, __func__);				\
} while (0)

#define list_move_tail(e, head) do {						\
	struct list_head *__e = (e), *__h = (head);				\
	__list_del_entry(__e, __func__);					\
	__list_add(__e, __h->prev, __h, __func__);				\
} while (0)

static inline bool list_empty(const struct list_head *head)
{
	return __READ_ONCE(head->next) == head;
}

/* Splice @list onto the front of @head; @list is left undefined. */
static inline void list_splice(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev, *at = head->next;

		first->prev = head;
		__WRITE_ONCE(head->next, first);
		__WRITE_ONCE(last->next, at);
		at->prev = last;
	}
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(h, type, m)	list_entry((h)->next, type, m)
#define list_last_entry(h, type, m)	list_entry((h)->prev, type, m)
#define list_first_entry_or_null(h, type, m) \
	(list_empty(h) ? NULL : list_first_entry(h, type, m))

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_entry(pos, head, member)					\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);		\
	     &pos->member != (head);						\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

#define list_for_each_entry_safe(pos, n, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),		\
	     n = list_entry(pos->member.next, __typeof__(*pos), member);	\
	     &pos->member != (head);						\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif /* MMFUZZ_KERNEL_LIST_H */

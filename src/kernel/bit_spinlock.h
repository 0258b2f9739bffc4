/* SPDX-License-Identifier: MIT */
/*
 * bit_spin_lock() (include/linux/bit_spinlock.h): a spinlock in one bit of
 * a word, SLUB's slab_lock() on the slab's PG_locked.  Preemption is off
 * while it is held or spun on, as in the kernel.
 *
 * The kernel's lockdep does not see bit spinlocks; the model gives each
 * use a class (its name, "slab_lock") so the lock order it sits in is
 * checked too.  A bit has no room for an owner: in fiber mode the holder
 * is found among the tasks' held locks (the deadlock report), each task
 * keeping a small record per bit lock it holds.  Real mode:
 * test_and_set_bit_lock / clear_bit_unlock, acquire and release.
 */
#ifndef MMFUZZ_KERNEL_BIT_SPINLOCK_H
#define MMFUZZ_KERNEL_BIT_SPINLOCK_H

#include "spinlock.h"

void __bit_spin_lock(int bitnum, unsigned long *addr, const char *name,
		     const struct yield_site *s, const char *fn);
void __bit_spin_unlock(int bitnum, unsigned long *addr, const struct yield_site *s,
		       const char *fn);
int __bit_spin_trylock(int bitnum, unsigned long *addr, const char *name, const char *fn);

static inline bool bit_spin_is_locked(int bitnum, unsigned long *addr)
{
	return __atomic_load_n(addr, __ATOMIC_RELAXED) & (1UL << bitnum);
}

/* @name: the lock's class ("slab_lock") */
#define bit_spin_lock_named(bitnum, addr, name)					\
	__bit_spin_lock((bitnum), (addr), (name), YIELD_SITE(YP_BIT_SPIN_LOCK, name), __func__)
#define bit_spin_unlock_named(bitnum, addr, name)				\
	__bit_spin_unlock((bitnum), (addr), YIELD_SITE(YP_BIT_SPIN_UNLOCK, name), __func__)

#endif /* MMFUZZ_KERNEL_BIT_SPINLOCK_H */

/* SPDX-License-Identifier: MIT */
/*
 * gfp_t: Linux 6.6 include/linux/gfp_types.h, with the kernel's bit values
 * (so a flag printed by the kernel reads the same here), cut down to the
 * flags the model gives a meaning.  What each one does in the model:
 *
 *   __GFP_MOVABLE, __GFP_RECLAIMABLE  the migratetype (gfp_migratetype())
 *   __GFP_HIGH           ALLOC_MIN_RESERVE: half of the min watermark
 *   __GFP_DIRECT_RECLAIM may enter direct reclaim.  The model has nothing to
 *                        reclaim: the slow path counts the attempt, makes no
 *                        progress, retries as 6.6 does and stops where the
 *                        OOM killer would run (there is none)
 *   __GFP_KSWAPD_RECLAIM ALLOC_KSWAPD: wake_all_kswapds() is counted; no
 *                        kswapd runs
 *   __GFP_IO, __GFP_FS   nothing: no I/O or filesystem reclaim (GFP_KERNEL
 *                        and GFP_NOIO behave alike)
 *   __GFP_COMP           a compound page (head and tails, a folio)
 *   __GFP_ZERO           the page's memory is zeroed
 *   __GFP_NOWARN         a failure is not counted as a warn_alloc() report
 *   __GFP_MEMALLOC       ALLOC_NO_WATERMARKS in the slow path
 *   __GFP_NOMEMALLOC     no ALLOC_NON_BLOCK, no memory reserves
 *   __GFP_NOFAIL         the slow path's last tries (ALLOC_NO_WATERMARKS,
 *                        then ALLOC_MIN_RESERVE); where the kernel would then
 *                        loop until memory is freed, the model fails and
 *                        counts it (MM_NOFAIL_STOP)
 *   __GFP_NORETRY, __GFP_RETRY_MAYFAIL  where the slow path gives up
 *   __GFP_HIGHMEM, __GFP_HARDWALL  nothing: no highmem zone, no cpusets
 */
#ifndef MMFUZZ_MM_GFP_H
#define MMFUZZ_MM_GFP_H

#include <stddef.h>
#include <stdint.h>

#include "../kernel/bug.h"
#include "mmzone.h"

typedef unsigned int gfp_t;

/* Plain integer GFP bitmasks, as 6.6 numbers them.  Do not use directly. */
#define ___GFP_HIGHMEM		0x02u
#define ___GFP_MOVABLE		0x08u
#define ___GFP_RECLAIMABLE	0x10u
#define ___GFP_HIGH		0x20u
#define ___GFP_IO		0x40u
#define ___GFP_FS		0x80u
#define ___GFP_ZERO		0x100u
/* 0x200u unused (___GFP_ATOMIC until 6.3) */
#define ___GFP_DIRECT_RECLAIM	0x400u
#define ___GFP_KSWAPD_RECLAIM	0x800u
#define ___GFP_NOWARN		0x2000u
#define ___GFP_RETRY_MAYFAIL	0x4000u
#define ___GFP_NOFAIL		0x8000u
#define ___GFP_NORETRY		0x10000u
#define ___GFP_MEMALLOC		0x20000u
#define ___GFP_COMP		0x40000u
#define ___GFP_NOMEMALLOC	0x80000u
#define ___GFP_HARDWALL		0x100000u

#define __GFP_HIGHMEM		((gfp_t)___GFP_HIGHMEM)
#define __GFP_MOVABLE		((gfp_t)___GFP_MOVABLE)
#define __GFP_RECLAIMABLE	((gfp_t)___GFP_RECLAIMABLE)
#define GFP_MOVABLE_MASK	(__GFP_RECLAIMABLE | __GFP_MOVABLE)
#define GFP_MOVABLE_SHIFT	3

#define __GFP_HIGH		((gfp_t)___GFP_HIGH)
#define __GFP_MEMALLOC		((gfp_t)___GFP_MEMALLOC)
#define __GFP_NOMEMALLOC	((gfp_t)___GFP_NOMEMALLOC)
#define __GFP_HARDWALL		((gfp_t)___GFP_HARDWALL)

#define __GFP_IO		((gfp_t)___GFP_IO)
#define __GFP_FS		((gfp_t)___GFP_FS)
#define __GFP_DIRECT_RECLAIM	((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM	((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM		((gfp_t)(___GFP_DIRECT_RECLAIM | ___GFP_KSWAPD_RECLAIM))
#define __GFP_RETRY_MAYFAIL	((gfp_t)___GFP_RETRY_MAYFAIL)
#define __GFP_NOFAIL		((gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY		((gfp_t)___GFP_NORETRY)

#define __GFP_NOWARN		((gfp_t)___GFP_NOWARN)
#define __GFP_COMP		((gfp_t)___GFP_COMP)
#define __GFP_ZERO		((gfp_t)___GFP_ZERO)

/* The useful combinations, composed as 6.6 composes them. */
#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO		(__GFP_RECLAIM)
#define GFP_NOFS		(__GFP_RECLAIM | __GFP_IO)
#define GFP_USER		(__GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_HARDWALL)
#define GFP_HIGHUSER		(GFP_USER | __GFP_HIGHMEM)
#define GFP_HIGHUSER_MOVABLE	(GFP_HIGHUSER | __GFP_MOVABLE)

/*
 * Group based on mobility: __GFP_MOVABLE is 1 << GFP_MOVABLE_SHIFT, so the
 * two mobility bits shifted down are the migratetype (both set would be
 * MIGRATE_HIGHATOMIC, which the kernel warns about).
 */
static inline int gfp_migratetype(const gfp_t gfp_flags)
{
	BUILD_BUG_ON((1UL << GFP_MOVABLE_SHIFT) != ___GFP_MOVABLE);
	BUILD_BUG_ON((___GFP_MOVABLE >> GFP_MOVABLE_SHIFT) != MIGRATE_MOVABLE);
	BUILD_BUG_ON((___GFP_RECLAIMABLE >> GFP_MOVABLE_SHIFT) != MIGRATE_RECLAIMABLE);
	BUILD_BUG_ON(((___GFP_MOVABLE | ___GFP_RECLAIMABLE) >> GFP_MOVABLE_SHIFT) !=
		     MIGRATE_HIGHATOMIC);
	VM_WARN_ON((gfp_flags & GFP_MOVABLE_MASK) == GFP_MOVABLE_MASK);
	return (int)((gfp_flags & GFP_MOVABLE_MASK) >> GFP_MOVABLE_SHIFT);
}

/* The mobility bits gfp_migratetype() maps back to @mt (model helper). */
static inline gfp_t migratetype_gfp(int mt)
{
	return mt == MIGRATE_MOVABLE ? __GFP_MOVABLE :
	       mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0;
}

/* No __GFP_DMA/__GFP_DMA32 in the model: every allocation may use Normal. */
static inline enum zone_type gfp_zone(gfp_t flags)
{
	(void)flags;
	return ZONE_NORMAL;
}

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

#endif /* MMFUZZ_MM_GFP_H */

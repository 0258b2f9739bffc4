// SPDX-License-Identifier: MIT
/*
 * gfp_t: the kernel's bit values, the combinations as 6.6 composes them,
 * the alloc flags 6.6 derives from them (gfp_to_alloc_flags,
 * __gfp_pfmemalloc_flags, alloc_flags_nofragment), and a program's gfp in
 * its two forms (eight bits, names).
 */
#include "mm_world.h"
#include "prog/ops.h"
#include "prog/gfp_op.h"
#include "tap.h"

/* the name gfp_op_names gives @mask: a single flag's (__GFP_) or a
 * combination's (GFP_; GFP_NOWAIT is __GFP_KSWAPD_RECLAIM alone), or "" */
static const char *gfp_name_of(gfp_t mask, bool single)
{
	const struct gfp_name *f;

	for (f = gfp_op_names; f->name; f++)
		if (f->mask == mask && (f->name[0] == '_') == single)
			return f->name;
	return "";
}

static void two_zones(struct mm_config *cfg)
{
	config_set(cfg, &ck_zones, 2);
}

int main(void)
{
	struct world *w;
	gfp_t g;
	size_t bad = 0;
	char buf[128];
	int b, bits_ok = 1, text_ok = 1;

	tap_plan(33);
	if (setjmp(mm_test_jb)) {
		ok(0, "violation %s: %s", g_violation.signature, g_violation.msg);
		return tap_done();
	}

	/* the values %pGg prints in a kernel log, and the combinations */
	ok(__GFP_HIGH == 0x20 && __GFP_IO == 0x40 && __GFP_FS == 0x80 && __GFP_ZERO == 0x100 &&
	   __GFP_DIRECT_RECLAIM == 0x400 && __GFP_KSWAPD_RECLAIM == 0x800 &&
	   __GFP_NOWARN == 0x2000 && __GFP_NOFAIL == 0x8000 && __GFP_MEMALLOC == 0x20000 &&
	   __GFP_COMP == 0x40000 && __GFP_MOVABLE == 0x08 && __GFP_RECLAIMABLE == 0x10,
	   "the bits have 6.6's values");
	ok(GFP_KERNEL == 0xcc0 && GFP_ATOMIC == 0x820 && GFP_NOWAIT == 0x800,
	   "GFP_KERNEL 0xcc0, GFP_ATOMIC 0x820, GFP_NOWAIT 0x800 as a 6.6 log shows them");
	ok(gfp_migratetype(GFP_KERNEL) == MIGRATE_UNMOVABLE &&
	   gfp_migratetype(GFP_HIGHUSER_MOVABLE) == MIGRATE_MOVABLE &&
	   gfp_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE) == MIGRATE_RECLAIMABLE,
	   "gfp_migratetype: unmovable, movable, reclaimable");

	/* gfp_to_alloc_flags, the slow path's flags */
	is_int(gfp_to_alloc_flags(GFP_KERNEL, 0), ALLOC_WMARK_MIN | ALLOC_CPUSET | ALLOC_KSWAPD,
	       "GFP_KERNEL: the min watermark, kswapd, no reserves");
	is_int(gfp_to_alloc_flags(GFP_ATOMIC, 0),
	       ALLOC_WMARK_MIN | ALLOC_KSWAPD | ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK,
	       "GFP_ATOMIC order 0: ALLOC_MIN_RESERVE and ALLOC_NON_BLOCK, no cpuset");
	is_int(gfp_to_alloc_flags(GFP_ATOMIC, 2),
	       ALLOC_WMARK_MIN | ALLOC_KSWAPD | ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK |
	       ALLOC_HIGHATOMIC, "GFP_ATOMIC order 2: and ALLOC_HIGHATOMIC");
	is_int(gfp_to_alloc_flags(GFP_NOWAIT, 1),
	       ALLOC_WMARK_MIN | ALLOC_CPUSET | ALLOC_KSWAPD | ALLOC_NON_BLOCK | ALLOC_HIGHATOMIC,
	       "GFP_NOWAIT order 1: non-blocking and highatomic (6.6), no min reserve");
	is_int(gfp_to_alloc_flags(GFP_ATOMIC | __GFP_NOMEMALLOC, 2),
	       ALLOC_WMARK_MIN | ALLOC_KSWAPD | ALLOC_MIN_RESERVE,
	       "__GFP_NOMEMALLOC: no ALLOC_NON_BLOCK, no ALLOC_HIGHATOMIC");
	is_int(gfp_to_alloc_flags(GFP_KERNEL | __GFP_HIGH, 3),
	       ALLOC_WMARK_MIN | ALLOC_CPUSET | ALLOC_KSWAPD | ALLOC_MIN_RESERVE,
	       "GFP_KERNEL | __GFP_HIGH: the min reserve, blocking, so not highatomic");

	/* __gfp_pfmemalloc_flags needs a world (the OOM victims) */
	w = mm_test_boot(two_zones);
	ok(w != NULL, "a world of two zones, DMA32 and Normal");
	is_int(__gfp_pfmemalloc_flags(GFP_KERNEL | __GFP_MEMALLOC), ALLOC_NO_WATERMARKS,
	       "__GFP_MEMALLOC: ALLOC_NO_WATERMARKS");
	is_int(__gfp_pfmemalloc_flags(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOMEMALLOC), 0,
	       "__GFP_NOMEMALLOC wins over __GFP_MEMALLOC");
	is_int(__gfp_pfmemalloc_flags(GFP_KERNEL), 0, "a task that is no OOM victim: nothing");
	mark_oom_victim(current);
	is_int(__gfp_pfmemalloc_flags(GFP_KERNEL), ALLOC_OOM, "an OOM victim: ALLOC_OOM");
	mm_test_task.irq_ctx = true;
	is_int(__gfp_pfmemalloc_flags(GFP_ATOMIC), 0, "but not in interrupt context");
	mm_test_task.irq_ctx = false;
	world_reset(w);
	is_int(__gfp_pfmemalloc_flags(GFP_KERNEL), 0, "a reset forgets the OOM victims");

	/* ALLOC_NOFRAGMENT: for Normal when DMA32 is below it */
	is_int(alloc_flags_nofragment(zone_by_idx(w, 1), GFP_KERNEL), ALLOC_NOFRAGMENT | ALLOC_KSWAPD,
	       "Normal over DMA32: ALLOC_NOFRAGMENT, and ALLOC_KSWAPD from the gfp");
	is_int(alloc_flags_nofragment(zone_by_idx(w, 0), GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM), 0,
	       "DMA32: no ALLOC_NOFRAGMENT");
	ok(zone_idx(zone_by_idx(w, 0)) == ZONE_DMA32 && zone_idx(zone_by_idx(w, 1)) == ZONE_NORMAL,
	   "zone 0 is DMA32, zone 1 Normal");
	world_destroy(w);
	w = mm_test_boot(NULL);
	ok(zone_idx(zone_by_idx(w, 0)) == ZONE_NORMAL &&
	   alloc_flags_nofragment(zone_by_idx(w, 0), 0) == ALLOC_NOFRAGMENT,
	   "one zone is Normal, and on one node 6.6 assumes DMA32 below it: ALLOC_NOFRAGMENT");
	world_destroy(w);

	/* a program's gfp: eight bits in a fixed order */
	ok(gfp_op_bit[0] == __GFP_HIGH && gfp_op_bit[1] == __GFP_DIRECT_RECLAIM &&
	   gfp_op_bit[2] == __GFP_KSWAPD_RECLAIM && gfp_op_bit[3] == __GFP_COMP &&
	   gfp_op_bit[4] == __GFP_ZERO && gfp_op_bit[5] == __GFP_NOWARN &&
	   gfp_op_bit[6] == __GFP_MEMALLOC && gfp_op_bit[7] == __GFP_NOFAIL,
	   "the binary order: HIGH DIRECT_RECLAIM KSWAPD_RECLAIM COMP ZERO NOWARN MEMALLOC NOFAIL");
	is_int(gfp_from_op_bits(0x06), GFP_KERNEL, "both reclaim bits are GFP_KERNEL");
	is_int(gfp_to_op_bits(GFP_ATOMIC | __GFP_COMP | __GFP_MOVABLE), 0x0d,
	       "GFP_ATOMIC|__GFP_COMP is bits 0, 2, 3 (the migratetype is not a gfp bit here)");
	for (b = 0; b < 256; b++) {
		gfp_t back;

		if (gfp_to_op_bits(gfp_from_op_bits((uint8_t)b)) != b)
			bits_ok = 0;
		gfp_op_format(buf, sizeof(buf), gfp_from_op_bits((uint8_t)b));
		if (gfp_op_parse(buf, strlen(buf), &back, &bad) ||
		    back != gfp_from_op_bits((uint8_t)b))
			text_ok = 0;
	}
	ok(bits_ok, "all 256 byte values survive bits -> gfp -> bits");
	ok(text_ok, "all 256 survive gfp -> text -> gfp");

	gfp_op_format(buf, sizeof(buf), GFP_ATOMIC | __GFP_COMP);
	ok(!strcmp(buf, "GFP_ATOMIC|__GFP_COMP"), "GFP_ATOMIC|__GFP_COMP prints as such: %s", buf);
	gfp_op_format(buf, sizeof(buf), GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	ok(!strcmp(buf, "GFP_KERNEL|__GFP_NOWARN|__GFP_ZERO"),
	   "combinations first, then single flags: %s", buf);
	gfp_op_format(buf, sizeof(buf), 0);
	ok(!strcmp(buf, "0"), "no flag prints as 0");
	ok(gfp_op_parse("GFP_NOWAIT|__GFP_HIGH", 21, &g, &bad) == 0 && g == GFP_ATOMIC,
	   "GFP_NOWAIT|__GFP_HIGH parses to GFP_ATOMIC's bits");
	ok(gfp_op_parse("GFP_ATOMIC|__GFP_BOGUS", 22, &g, &bad) == -1 && bad == 11,
	   "an unknown name is refused at its first character (column %zu)", bad);
	ok(gfp_op_parse("GFP_KERNEL|", 11, &g, &bad) == -1 && bad == 11,
	   "an empty name after | is refused where it would start");
	ok(gfp_op_parse("__GFP_MOVABLE", 13, &g, &bad) == -1 && bad == 0,
	   "__GFP_MOVABLE is not a program's gfp name: the migratetype is mt=");

	/* the operation's descriptor spells the same bits and aliases */
	{
		const struct op_desc *d = op_lookup("alloc_pages");
		const struct op_arg *a = NULL;
		const struct flag_alias *al;
		int k, same = 1;

		for (k = 0; d && k < d->nargs; k++)
			if (!strcmp(d->args[k].name, "gfp"))
				a = &d->args[k];
		for (k = 0; a && k < GFP_OP_BITS; k++)
			if (k >= a->nnames || strcmp(a->names[k], gfp_name_of(gfp_op_bit[k], true)))
				same = 0;
		for (al = a ? a->aliases : NULL; al && al->name; al++)
			if (strcmp(gfp_name_of(gfp_from_op_bits((uint8_t)al->bits), false), al->name))
				same = 0;
		ok(a && same && a->has_def && gfp_from_op_bits((uint8_t)a->def) == GFP_KERNEL,
		   "alloc_pages' gfp= names the eight bits in this order, its aliases are these "
		   "combinations, and it defaults to GFP_KERNEL");
	}
	current_task = NULL;
	return tap_done();
}

// SPDX-License-Identifier: MIT
/* The operation table and the canonical form of a program. */
#include "prog.h"

#include <string.h>

const char *const prog_mt_names[MIGRATE_PCPTYPES] = { "unmovable", "movable", "reclaimable" };

const struct op_info op_table[NR_OPS] = {
	[OP_ALLOC_PAGES] = { "alloc_pages", 2, { "order", "mt" }, true,
			     "alloc_pages(gfp of the migratetype, order); the result is a handle" },
	[OP_FREE_PAGES] = { "free_pages", 1, { "h" }, true,
			    "__free_pages() of an earlier alloc's handle (nothing if not live)" },
	[OP_DRAIN_LOCAL] = { "drain_local", 0, { 0 }, false,
			     "drain_local_pages(NULL) on the task's CPU" },
	[OP_DRAIN_ALL] = { "drain_all", 2, { "force", "zone" }, false,
			   "__drain_all_pages(zone or all, force_all_cpus)" },
	[OP_ZONE_PCP_DISABLE] = { "zone_pcp_disable", 1, { "zone" }, false,
				  "zone_pcp_disable(): high 0, drain, hold pcp_batch_high_lock" },
	[OP_ZONE_PCP_ENABLE] = { "zone_pcp_enable", 1, { "zone" }, false,
				 "zone_pcp_enable() after this task's disable (else nothing)" },
	[OP_SET_PCP_HIGH_BATCH] = { "set_pcp_high_batch", 3, { "zone", "high", "batch" }, false,
				    "new pcp high and batch for every CPU, under pcp_batch_high_lock" },
	[OP_MIGRATE] = { "migrate", 1, { "cpu" }, false,
			 "move the task to another CPU (between operations)" },
	[OP_READ_COUNTERS] = { "read_counters", 0, { 0 }, false,
			       "read NR_FREE_PAGES, its snapshot and the events, as /proc/vmstat" },
	[OP_VMSTAT_REFRESH] = { "vmstat_refresh", 0, { 0 }, false,
				"refresh_cpu_vm_stats() on the task's CPU (the vmstat worker)" },
};

int op_lookup(const char *name)
{
	int i;

	for (i = 0; i < NR_OPS; i++)
		if (!strcmp(op_table[i].name, name))
			return i;
	return -1;
}

void prog_init(struct prog *p)
{
	memset(p, 0, sizeof(*p));
	mm_config_default(&p->cfg);
	p->ntasks = 2;
	p->task_cpu[0] = 0;
	p->task_cpu[1] = 1;
	p->fallback_depth = 0;
}

int prog_alloc_index(const struct prog *p, int i)
{
	int j, n = 0;

	if (p->ops[i].kind != OP_ALLOC_PAGES)
		return -1;
	for (j = 0; j < i; j++)
		n += p->ops[j].kind == OP_ALLOC_PAGES;
	return n;
}

int prog_nallocs(const struct prog *p)
{
	int i, n = 0;

	for (i = 0; i < p->nops; i++)
		n += p->ops[i].kind == OP_ALLOC_PAGES;
	return n;
}

int prog_task_ops(const struct prog *p, int t, int *first)
{
	int i, n = 0;

	*first = p->nops;
	for (i = 0; i < p->nops; i++)
		if (p->ops[i].task == t) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

/*
 * Group the ops by task, keeping each task's order; a free keeps naming the
 * same alloc (by identity), renumbered to the alloc's new index.  Frees of
 * nothing (no alloc in the program) are dropped.
 */
void prog_canonicalize(struct prog *p)
{
	struct op out[PROG_MAX_OPS];
	int alloc_old_pos[PROG_MAX_ALLOCS], new_idx_of_old[PROG_MAX_OPS];
	int i, t, n = 0, na = 0, nallocs;

	for (i = 0; i < p->nops; i++)
		if (p->ops[i].kind == OP_ALLOC_PAGES && na < PROG_MAX_ALLOCS)
			alloc_old_pos[na++] = i;
	for (t = 0; t < p->ntasks; t++)
		for (i = 0; i < p->nops; i++)
			if (p->ops[i].task == t) {
				new_idx_of_old[i] = n;
				out[n++] = p->ops[i];
			}
	/* new alloc numbering: position of each alloc in the new order */
	nallocs = 0;
	{
		int new_alloc_num[PROG_MAX_OPS];

		for (i = 0; i < n; i++)
			new_alloc_num[i] = out[i].kind == OP_ALLOC_PAGES ? nallocs++ : -1;
		for (i = 0; i < n; i++) {
			if (out[i].kind != OP_FREE_PAGES)
				continue;
			if (!na) {
				out[i].kind = 0xff;	/* drop below */
				continue;
			}
			out[i].arg[0] = (short)new_alloc_num[new_idx_of_old[alloc_old_pos[out[i].arg[0] % na]]];
		}
	}
	p->nops = 0;
	for (i = 0; i < n; i++)
		if (out[i].kind != 0xff)
			p->ops[p->nops++] = out[i];
}

const char *prog_op_name(int task, int op, void *arg)
{
	const struct prog *p = arg;
	int first, n;

	if (!p || task < 0 || task >= p->ntasks || op < 0)
		return "-";
	n = prog_task_ops(p, task, &first);
	if (op >= n)
		return "exit";
	return op_table[p->ops[first + op].kind].name;
}

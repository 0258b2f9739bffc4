// SPDX-License-Identifier: MIT
/* mmfuzz stress: will-it-scale style workloads on real threads. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* cli.h first: <pthread.h> defines SCHED_RR, a name exec.h uses */
#include "cli.h"
#include "../../stress/stress.h"
#include "../bugs/bugs.h"

static const char stress_usage[] =
	"usage: mmfuzz stress WORKLOAD [-t TASKS] [-s SECONDS] [-m] [-n] [-v] [options]\n"
	"       mmfuzz stress --scaling WORKLOAD [-s SECONDS] [-o FILE.csv] [options]\n"
	"       mmfuzz stress --compare (--variant NAME | --drain NAME | --inject NAME)... WORKLOAD\n"
	"                     [-t TASKS] [-s SECONDS] [-r RUNS] [options]\n"
	"       mmfuzz stress WORKLOAD --host [-t TASKS] [-s SECONDS] [--mode MODE]\n"
	"       mmfuzz stress --scaling --host WORKLOAD [-s SECONDS] [-o FILE.csv]\n"
	"       mmfuzz stress --list\n"
	"\n"
	"Run a workload on the page allocator model with one pthread per task and\n"
	"print what will-it-scale prints (testcase:, warmup, one min/max/total line\n"
	"per second, measurement, average:), then the model's counters as\n"
	"key: value lines and invariant_violations: N.  Every check interval the\n"
	"tasks stop between iterations and the invariants are checked.\n"
	"\n"
	"  -t TASKS           tasks, one thread each (default 1, at most 2048)\n"
	"  -s SECONDS         measured samples, 1 to 1000000 (default: until Ctrl-C, as\n"
	"                     will-it-scale; 5 for --scaling and --compare, as runtest.py)\n"
	"  -m                 pin tasks to hardware threads (default: one per core)\n"
	"  -n                 no affinity\n"
	"  -v                 every task's count in every sample\n"
	"  --inject NAME      turn a bug switch on (repeatable; mmfuzz bugs lists them;\n"
	"                     none: no switch, a --compare column of its own)\n"
	"  --variant NAME     a value of an enumerated tune key, found by its name\n"
	"                     (--keys): free_pcppages_bulk's variant: single_pass (6.6,\n"
	"                     default), pick_outside (4.17, seed 000's patch), locked_rr\n"
	"                     (4.16); SLUB's slub_partial (seed 004): count_partial (6.6,\n"
	"                     default), partial_counters, partial_counters_atomic;\n"
	"                     deferred init's max threads: one (6.6's generic), node_cpus\n"
	"  --drain NAME       drain_pages_zone: racy_count (6.6.0, default) or\n"
	"                     locked_count (6.6.45's fix)\n"
	"  --mode MODE        thread (default) or process; --scaling: both (default)\n"
	"  --warmup N         samples discarded first (default 6, WARMUP_ITERATIONS + 1)\n"
	"  --sample-ms MS     length of a sample (default 1000; shorter for tests): the\n"
	"                     min/max/total lines count per sample, average: per second\n"
	"  --check-every N    check the invariants every N samples (default 1; 0: only\n"
	"                     at the end, after the final drain)\n"
	"  --stall-ms MS      tasks that do not stop within MS are a stall (default 10000)\n"
	"  --set KEY=VALUE    a config key of the model, as a text program's header\n"
	"                     writes it (pcp_high=12, variant=pick_outside; mmfuzz stress\n"
	"                     --keys lists them); it wins over the workload's machine;\n"
	"                     repeatable, the last of a key counts; not cpus (the\n"
	"                     runner's simulated CPUs; --cpu-stride places the tasks)\n"
	"  --pcp-high N, --pcp-batch N, --zone-pages N   --set pcp_high=N, ...\n"
	"  --keys             the config keys --set takes, with their ranges\n"
	"  --emit-config      print the run's machine as a text program's header, and exit\n"
	"  --cpu-stride N     task i runs on simulated CPU i*N of 8 (default 1)\n"
	"  --scaling          tasks 1..nproc, runtest.py's CSV on stdout and in -o FILE\n"
	"                     (default WORKLOAD.csv), and a PNG plot beside it (gnuplot)\n"
	"  --max-tasks N      --scaling up to N tasks instead of nproc\n"
	"  --compare          LKP's %stddev %change table: each --variant or --inject is a\n"
	"                     column, the first the base; with one, the base is none\n"
	"  -r RUNS            runs per configuration for --compare (default 3, at least 3)\n"
	"  --host             will-it-scale's own testcase of WORKLOAD on this machine's\n"
	"                     kernel (page_fault1, brk1, mmap1, tlb_flush2), with the same\n"
	"                     tasks, mode, affinity and sampling; with --scaling, the\n"
	"                     model's and the kernel's curves side by side (CSV columns\n"
	"                     host_*, one PNG, the fidelity figure on stderr)\n"
	"  --alloc-during-init  deferred_init1: the tasks allocate while the init runs\n"
	"  --sim-cpus N,...   deferred_init1: padata's arithmetic for nodes of N CPUs, each\n"
	"                     helper's share timed on this machine's threads\n"
	"  --reader-hz N      the SLUB workloads: a slabinfo reader (get_slabinfo of\n"
	"                     each cache) N times a second beside the tasks (0: none)\n"
	"  --min-partial N, --cpu-partial N   the SLUB workloads' caches' min_partial\n"
	"                     and cpu_partial_slabs (/sys/kernel/slab/*/): a large\n"
	"                     min_partial keeps empty slabs, so partial lists grow long\n"
	"  --list             the workloads\n"
	"\n"
	"Exit status: 0 clean, 1 an invariant violation, 2 bad input or usage,\n"
	"130 interrupted (what was measured so far is printed).\n";

enum {
	OPT_INJECT = 256, OPT_VARIANT, OPT_DRAIN, OPT_MODE, OPT_WARMUP, OPT_SAMPLE_MS, OPT_CHECK_EVERY,
	OPT_STALL_MS, OPT_PCP_HIGH, OPT_PCP_BATCH, OPT_ZONE_PAGES, OPT_SCALING, OPT_COMPARE,
	OPT_MAX_TASKS, OPT_LIST, OPT_CPU_STRIDE, OPT_EMIT_CONFIG, OPT_SET, OPT_KEYS, OPT_HOST,
	OPT_ALLOC_DURING_INIT, OPT_SIM_CPUS,
	OPT_READER_HZ, OPT_MIN_PARTIAL, OPT_CPU_PARTIAL,
};

/* --sim-cpus 8,80: up to 8 CPU counts, 1..4096; -1 after saying why not */
static int parse_sim_cpus(struct stress_opts *o, const char *arg)
{
	const char *p = arg;
	int n = 0;

	memset(o->sim_cpus, 0, sizeof(o->sim_cpus));
	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v < 1 || v > 4096 || n == 8 || (*end && *end != ',')) {
			fprintf(stderr, "mmfuzz stress: bad --sim-cpus '%s': up to 8 CPU counts "
				"1..4096, comma separated\n", arg);
			return -1;
		}
		o->sim_cpus[n++] = (unsigned int)v;
		p = *end ? end + 1 : end;
	}
	if (!n) {
		fprintf(stderr, "mmfuzz stress: bad --sim-cpus '%s'\n", arg);
		return -1;
	}
	return 0;
}

/* parse_num into an unsigned long; -1 after printing the error */
static int number(const char *opt, const char *v, uint64_t lo, uint64_t hi, unsigned long *out)
{
	uint64_t x;

	if (parse_num("stress", opt, v, lo, hi, &x))
		return -1;
	*out = (unsigned long)x;
	return 0;
}

/*
 * --scaling's CSV (and the PNG beside it): replaced by rename, so a regular
 * file or a new name; and quoted in gnuplot's script, so no quote or line
 * end in it.  -1 after saying why not.
 */
static int csv_path_ok(const char *csv)
{
	struct stat st;

	if (strpbrk(csv, "'\n\r")) {
		fprintf(stderr, "mmfuzz stress: -o '%s': a quote or line end gnuplot cannot take\n",
			csv);
		return -1;
	}
	if (!lstat(csv, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "mmfuzz stress: -o %s: not a regular file (the CSV replaces it: a "
			"regular file or a new name)\n", csv);
		return -1;
	}
	return 0;
}

static void list_keys(FILE *f)
{
	char lo[64], hi[64], def[64];
	int i;

	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);

		fprintf(f, "%-16s %-10s %s..%s (default %s)  %s\n", k->name, k->layer,
			config_value_str(k, k->lo, lo, sizeof(lo)),
			config_value_str(k, k->hi, hi, sizeof(hi)),
			config_value_str(k, k->def, def, sizeof(def)), k->desc);
	}
}

/* what --variant takes: every enumerated tune key's value names */
static void list_variants(FILE *f)
{
	int i, n = 0;
	long v;

	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);

		if (!k->tune || !k->names)
			continue;
		fprintf(f, "%s%s:", n++ ? "; " : "", k->name);
		for (v = k->lo; v <= k->hi; v++)
			fprintf(f, "%s %s", v > k->lo ? "," : "", k->names[v]);
	}
}

/*
 * --set KEY=VALUE: a key of the config table, its value a number in the
 * key's range or one of an enumerated key's names.  The range a key has
 * given the others (zone_pages in max-order blocks) is checked once every
 * option is read (stress_config_check).  -1 after saying why not.
 */
static int set_key(struct stress_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const struct config_key *k;
	char name[64], *end;
	long v;
	int i;

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "mmfuzz stress: bad --set '%s': KEY=VALUE (mmfuzz stress --keys "
			"lists the keys)\n", arg);
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	k = (size_t)(eq - arg) < sizeof(name) ? config_key_lookup(name) : NULL;
	if (!k) {
		fprintf(stderr, "mmfuzz stress: --set %s: no config key '%s'; there are:", arg, name);
		for (i = 0; i < config_nkeys(); i++)
			fprintf(stderr, " %s", config_key_by_id(i)->name);
		fprintf(stderr, "\n");
		return -1;
	}
	if (k == &ck_cpus) {
		fprintf(stderr, "mmfuzz stress: --set %s: the runner's simulated CPUs are fixed at "
			"%d (tasks spread over them: --cpu-stride)\n", arg, MAX_CPUS);
		return -1;
	}
	if (k->names) {
		v = config_enum_lookup(k, eq + 1);
		if (v < 0) {
			fprintf(stderr, "mmfuzz stress: --set %s: %s is one of:", arg, k->name);
			for (i = 0; i <= k->hi - k->lo; i++)
				fprintf(stderr, " %s", k->names[i]);
			fprintf(stderr, "\n");
			return -1;
		}
	} else {
		errno = 0;
		v = strtol(eq + 1, &end, 10);
		if (*end || errno || v < k->lo || v > k->hi) {
			fprintf(stderr, "mmfuzz stress: --set %s: %s is a number from %ld to %ld\n",
				arg, k->name, k->lo, k->hi);
			return -1;
		}
	}
	stress_opts_set(o, k, v);
	return 0;
}

static void list_workloads(FILE *f)
{
	int i;

	for (i = 0; i < stress_workloads_count(); i++)
		fprintf(f, "%-14s %s\n", stress_workload_by_index(i)->name,
			stress_workload_by_index(i)->description);
}

struct stress_cli {
	struct stress_opts o;
	const char *workload, *csv, *mode;
	char csv_default[256];
	bool scaling, compare, seconds_set, tasks_set, emit_config;
	const char *model_only;		/* the first option --host has no use for */
	char *host_child[16];		/* --scaling --host: the kernel's runs' options */
	int nhost_child;
	unsigned long runs, max_tasks;
	struct compare_config cfg[8];
	int ncfg, nvariants, ndrains;
	/* each --variant's key and value (the key found by the value's name) */
	const struct config_key *vkey[8];
	long vval[8];
	char *child[64 + 2 * MM_CONFIG_MAX];
	char numbuf[24][24];
	char setbuf[MM_CONFIG_MAX][96];	/* the children's --set KEY=VALUE */
	int nchild, nnum;
};

static void child_arg(struct stress_cli *c, const char *opt, unsigned long v, bool with_value)
{
	c->child[c->nchild++] = (char *)opt;
	if (with_value) {
		snprintf(c->numbuf[c->nnum], sizeof(c->numbuf[0]), "%lu", v);
		c->child[c->nchild++] = c->numbuf[c->nnum++];
	}
}

static int add_config(struct stress_cli *c, const char *opt, const char *name)
{
	struct compare_config *k;

	if (c->ncfg == 8) {
		fprintf(stderr, "mmfuzz stress: at most 8 configurations\n");
		return -1;
	}
	k = &c->cfg[c->ncfg++];
	snprintf(k->label, sizeof(k->label), "%s", name);
	k->args[0] = (char *)opt;
	k->args[1] = (char *)name;
	k->nargs = 2;
	return 0;
}

/* --host with what it cannot take: -1 after saying why. */
static int host_usage(const struct stress_cli *c)
{
	int i;

	if (!stress_host_lookup(c->workload)) {
		fprintf(stderr, "mmfuzz stress: --host: %s has no will-it-scale counterpart to run on "
			"this kernel; these have:", c->workload);
		for (i = 0; i < stress_hosts_count(); i++)
			fprintf(stderr, " %s", stress_host_by_index(i)->name);
		fprintf(stderr, "\n");
		return -1;
	}
	if (c->compare) {
		fprintf(stderr, "mmfuzz stress: --host goes with one run or --scaling, not "
			"--compare (the kernel has no --variant or --inject)\n");
		return -1;
	}
	if (c->model_only && !c->scaling) {
		fprintf(stderr, "mmfuzz stress: --host runs the machine's kernel: --%s is the "
			"model's (with --scaling --host it sets the model's curve)\n", c->model_only);
		return -1;
	}
	return 0;
}

static int parse_args(struct stress_cli *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "inject", required_argument, 0, OPT_INJECT },
		{ "variant", required_argument, 0, OPT_VARIANT },
		{ "drain", required_argument, 0, OPT_DRAIN },
		{ "mode", required_argument, 0, OPT_MODE },
		{ "warmup", required_argument, 0, OPT_WARMUP },
		{ "sample-ms", required_argument, 0, OPT_SAMPLE_MS },
		{ "check-every", required_argument, 0, OPT_CHECK_EVERY },
		{ "stall-ms", required_argument, 0, OPT_STALL_MS },
		{ "pcp-high", required_argument, 0, OPT_PCP_HIGH },
		{ "pcp-batch", required_argument, 0, OPT_PCP_BATCH },
		{ "zone-pages", required_argument, 0, OPT_ZONE_PAGES },
		{ "cpu-stride", required_argument, 0, OPT_CPU_STRIDE },
		{ "scaling", no_argument, 0, OPT_SCALING },
		{ "compare", no_argument, 0, OPT_COMPARE },
		{ "max-tasks", required_argument, 0, OPT_MAX_TASKS },
		{ "runs", required_argument, 0, 'r' },
		{ "list", no_argument, 0, OPT_LIST },
		{ "emit-config", no_argument, 0, OPT_EMIT_CONFIG },
		{ "set", required_argument, 0, OPT_SET },
		{ "keys", no_argument, 0, OPT_KEYS },
		{ "host", no_argument, 0, OPT_HOST },
		{ "alloc-during-init", no_argument, 0, OPT_ALLOC_DURING_INIT },
		{ "sim-cpus", required_argument, 0, OPT_SIM_CPUS },
		{ "reader-hz", required_argument, 0, OPT_READER_HZ },
		{ "min-partial", required_argument, 0, OPT_MIN_PARTIAL },
		{ "cpu-partial", required_argument, 0, OPT_CPU_PARTIAL },
		{ "help", no_argument, 0, 'h' },
		{ 0 } };
	struct stress_opts *o = &c->o;
	unsigned long v;
	int opt, id;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":t:s:mnvr:o:h", lo, NULL)) != -1) {
		switch (opt) {
		case OPT_INJECT: case OPT_VARIANT: case OPT_CHECK_EVERY: case OPT_PCP_HIGH:
		case OPT_PCP_BATCH: case OPT_ZONE_PAGES: case OPT_SET: case OPT_CPU_STRIDE:
		case OPT_EMIT_CONFIG: case OPT_READER_HZ: case OPT_MIN_PARTIAL:
		case OPT_CPU_PARTIAL:
			/* the model's machine: nothing of it on the host */
			for (id = 0; !c->model_only && lo[id].name; id++)
				if (lo[id].val == opt)
					c->model_only = lo[id].name;
			break;
		default:
			break;
		}
		switch (opt) {
		case 't':
			if (number("-t", optarg, 1, STRESS_MAX_TASKS, &o->tasks))
				return EXIT_USAGE;
			c->tasks_set = true;
			break;
		case 's':
			/* 0 would be will-it-scale's "until Ctrl-C": leave -s out for that */
			if (number("-s", optarg, 1, 1000000, &o->seconds))
				return EXIT_USAGE;
			c->seconds_set = true;
			break;
		case 'm':
		case 'n':
			/* will-it-scale's usage(): SMT placement needs affinity */
			if (o->affinity == (opt == 'm' ? AFF_NONE : AFF_SMT)) {
				fprintf(stderr, "mmfuzz stress: -m and -n do not go together\n");
				return EXIT_USAGE;
			}
			o->affinity = opt == 'm' ? AFF_SMT : AFF_NONE;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'r':
			if (number("-r", optarg, 3, 1000, &c->runs))
				return EXIT_USAGE;
			break;
		case 'o':
			c->csv = optarg;
			break;
		case OPT_INJECT:
			if (!strcmp(optarg, "none")) {
				/* --compare: the model without switches, as a column */
				if (add_config(c, "--inject", optarg))
					return EXIT_USAGE;
				c->cfg[c->ncfg - 1].nargs = 0;
				break;
			}
			id = bug_lookup(optarg);
			if (id < 0) {
				fprintf(stderr, "mmfuzz stress: unknown bug switch '%s' "
					"(mmfuzz bugs lists them)\n", optarg);
				return EXIT_USAGE;
			}
			o->inject |= 1ULL << id;
			if (add_config(c, "--inject", optarg))
				return EXIT_USAGE;
			break;
		case OPT_VARIANT: {
			const struct config_key *k;
			long val;

			/* any enumerated tune key's value, by its name alone */
			k = config_variant_lookup(optarg, &val);
			if (!k) {
				fprintf(stderr, "mmfuzz stress: unknown variant '%s' (", optarg);
				list_variants(stderr);
				fprintf(stderr, ")\n");
				return EXIT_USAGE;
			}
			if (k == &ck_variant)
				o->variant = (int)val;
			c->vkey[c->nvariants % 8] = k;
			c->vval[c->nvariants % 8] = val;
			c->nvariants++;
			if (add_config(c, "--variant", optarg))
				return EXIT_USAGE;
			break;
		}
		case OPT_DRAIN:
			id = (int)config_enum_lookup(&ck_drain, optarg);
			if (id < 0) {
				fprintf(stderr, "mmfuzz stress: unknown drain '%s' (racy_count, "
					"locked_count)\n", optarg);
				return EXIT_USAGE;
			}
			o->drain = id;
			c->ndrains++;
			if (add_config(c, "--drain", optarg))
				return EXIT_USAGE;
			break;
		case OPT_MODE:
			if (strcmp(optarg, "thread") && strcmp(optarg, "process") &&
			    strcmp(optarg, "both")) {
				fprintf(stderr, "mmfuzz stress: bad --mode '%s': thread, process "
					"or both\n", optarg);
				return EXIT_USAGE;
			}
			c->mode = optarg;
			o->process_mode = !strcmp(optarg, "process");
			break;
		case OPT_WARMUP:
			if (number("--warmup", optarg, 0, 1000, &o->warmup))
				return EXIT_USAGE;
			break;
		case OPT_SAMPLE_MS:
			if (number("--sample-ms", optarg, 10, 60000, &o->sample_ms))
				return EXIT_USAGE;
			break;
		case OPT_CHECK_EVERY:
			if (number("--check-every", optarg, 0, 1000000, &o->check_every))
				return EXIT_USAGE;
			break;
		case OPT_STALL_MS:
			if (number("--stall-ms", optarg, 100, 3600000, &o->stall_ms))
				return EXIT_USAGE;
			break;
		case OPT_PCP_HIGH:
			if (number("--pcp-high", optarg, 0, 4096, &v))
				return EXIT_USAGE;
			stress_opts_set(o, &ck_pcp_high, (long)v);
			break;
		case OPT_PCP_BATCH:
			if (number("--pcp-batch", optarg, 1, 1024, &v))
				return EXIT_USAGE;
			stress_opts_set(o, &ck_pcp_batch, (long)v);
			break;
		case OPT_ZONE_PAGES:
			if (number("--zone-pages", optarg, 1024, 65536, &v))
				return EXIT_USAGE;
			stress_opts_set(o, &ck_zone_pages, (long)v);
			break;
		case OPT_SET:
			if (set_key(o, optarg))
				return EXIT_USAGE;
			break;
		case OPT_KEYS:
			list_keys(stdout);
			return EXIT_CLEAN;
		case OPT_CPU_STRIDE:
			if (number("--cpu-stride", optarg, 1, MAX_CPUS, &v))
				return EXIT_USAGE;
			o->cpu_stride = (int)v;
			break;
		case OPT_READER_HZ:
			if (number("--reader-hz", optarg, 0, 100000, &o->reader_hz))
				return EXIT_USAGE;
			break;
		case OPT_MIN_PARTIAL:
			if (number("--min-partial", optarg, 0, 1000000, &v))
				return EXIT_USAGE;
			o->slub_min_partial = (long)v;
			break;
		case OPT_CPU_PARTIAL:
			if (number("--cpu-partial", optarg, 0, 1000, &v))
				return EXIT_USAGE;
			o->slub_cpu_partial = (long)v;
			break;
		case OPT_SCALING:
			c->scaling = true;
			break;
		case OPT_COMPARE:
			c->compare = true;
			break;
		case OPT_HOST:
			o->host = true;
			break;
		case OPT_ALLOC_DURING_INIT:
			o->alloc_during_init = true;
			break;
		case OPT_SIM_CPUS:
			if (parse_sim_cpus(o, optarg))
				return EXIT_USAGE;
			break;
		case OPT_MAX_TASKS:
			if (number("--max-tasks", optarg, 1, STRESS_MAX_TASKS, &c->max_tasks))
				return EXIT_USAGE;
			break;
		case OPT_LIST:
			list_workloads(stdout);
			return EXIT_CLEAN;
		case OPT_EMIT_CONFIG:
			c->emit_config = true;
			break;
		case 'h':
			fputs(stress_usage, stdout);
			return EXIT_CLEAN;
		default:
			opt_error("stress", opt, argv);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mmfuzz stress: no WORKLOAD given (mmfuzz stress --list)\n\n%s",
			stress_usage);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "mmfuzz stress: one WORKLOAD only, not '%s'\n", argv[optind + 1]);
		return EXIT_USAGE;
	}
	c->workload = argv[optind];
	o->wl = stress_workload_lookup(c->workload);
	if (!o->wl) {
		fprintf(stderr, "mmfuzz stress: unknown workload '%s'; there are:\n", c->workload);
		list_workloads(stderr);
		return EXIT_USAGE;
	}
	if ((o->alloc_during_init && !(o->wl->wl_opts & STRESS_WL_ALLOC_DURING_INIT)) ||
	    (o->sim_cpus[0] && !(o->wl->wl_opts & STRESS_WL_SIM_CPUS))) {
		fprintf(stderr, "mmfuzz stress: --%s is deferred_init1's, not %s's\n",
			o->alloc_during_init ? "alloc-during-init" : "sim-cpus", o->wl->name);
		return EXIT_USAGE;
	}
	if ((o->reader_hz || o->slub_min_partial >= 0 || o->slub_cpu_partial >= 0) &&
	    !(o->wl->wl_opts & STRESS_WL_SLUB)) {
		fprintf(stderr, "mmfuzz stress: --%s is the SLUB workloads' (slub_alloc1, "
			"slub_xfree1, slub_rcu1), not %s's\n", o->reader_hz ? "reader-hz" :
			o->slub_min_partial >= 0 ? "min-partial" : "cpu-partial", o->wl->name);
		return EXIT_USAGE;
	}
	{
		char msg[160];
		long given;

		int i;

		/* --set would win over every --variant column */
		for (i = 0; i < c->nvariants && i < 8; i++)
			if (stress_opts_get(o, c->vkey[i], &given)) {
				fprintf(stderr, "mmfuzz stress: --variant %s and --set %s= do not go "
					"together\n", c->vkey[i]->names[c->vval[i]], c->vkey[i]->name);
				return EXIT_USAGE;
			}
		/* one run: its --variant's key (the pcp one is o->variant);
		 * --compare and --scaling pass each --variant to their runs */
		if (!c->compare && !c->scaling && c->nvariants == 1 && c->vkey[0] != &ck_variant)
			stress_opts_set(o, c->vkey[0], c->vval[0]);
		if (stress_config_check(o, msg, sizeof(msg))) {
			fprintf(stderr, "mmfuzz stress: the machine of %s with these options: %s\n",
				o->wl->name, msg);
			return EXIT_USAGE;
		}
	}
	if (o->host && host_usage(c))
		return EXIT_USAGE;
	if (c->emit_config)
		return stress_emit_config(o, stdout) ? EXIT_USAGE : EXIT_CLEAN;
	return -1;
}

/* The options every child of --scaling and --compare gets. */
static void child_common(struct stress_cli *c)
{
	const struct stress_opts *o = &c->o;
	int i;

	child_arg(c, "-s", c->seconds_set ? o->seconds : 5, true);
	child_arg(c, "--warmup", o->warmup, true);
	child_arg(c, "--sample-ms", o->sample_ms, true);
	child_arg(c, "--check-every", o->check_every, true);
	child_arg(c, "--stall-ms", o->stall_ms, true);
	for (i = 0; i < o->nset; i++) {
		char val[64];

		snprintf(c->setbuf[i], sizeof(c->setbuf[0]), "%s=%s", o->set[i].k->name,
			 config_value_str(o->set[i].k, o->set[i].v, val, sizeof(val)));
		c->child[c->nchild++] = "--set";
		c->child[c->nchild++] = c->setbuf[i];
	}
	if (o->cpu_stride)
		child_arg(c, "--cpu-stride", (unsigned long)o->cpu_stride, true);
	if (o->alloc_during_init)
		child_arg(c, "--alloc-during-init", 0, false);
	if (o->reader_hz)
		child_arg(c, "--reader-hz", o->reader_hz, true);
	if (o->slub_min_partial >= 0)
		child_arg(c, "--min-partial", (unsigned long)o->slub_min_partial, true);
	if (o->slub_cpu_partial >= 0)
		child_arg(c, "--cpu-partial", (unsigned long)o->slub_cpu_partial, true);
	if (o->affinity == AFF_SMT)
		child_arg(c, "-m", 0, false);
	if (o->affinity == AFF_NONE)
		child_arg(c, "-n", 0, false);
}

static int run_compare(struct stress_cli *c)
{
	struct compare_opts co;
	int i;

	if (c->ncfg == 0) {
		fprintf(stderr, "mmfuzz stress: --compare needs --variant, --drain or --inject "
			"configurations\n");
		return EXIT_USAGE;
	}
	if (c->mode && !strcmp(c->mode, "both")) {
		fprintf(stderr, "mmfuzz stress: --compare runs one mode, thread or process\n");
		return EXIT_USAGE;
	}
	memset(&co, 0, sizeof(co));
	co.workload = c->workload;
	co.tasks = c->o.tasks;
	co.runs = c->runs ? (int)c->runs : 3;
	co.process_mode = c->o.process_mode;
	if (c->ncfg == 1) {
		/* one configuration: against none, the 6.6 model as it is */
		snprintf(co.cfg[0].label, sizeof(co.cfg[0].label), "none");
		co.cfg[1] = c->cfg[0];
		co.ncfg = 2;
	} else {
		for (i = 0; i < c->ncfg; i++)
			co.cfg[i] = c->cfg[i];
		co.ncfg = c->ncfg;
	}
	child_common(c);
	if (c->o.process_mode) {
		c->child[c->nchild++] = "--mode";
		c->child[c->nchild++] = "process";
	}
	co.child_args = c->child;
	co.nchild_args = c->nchild;
	return stress_compare(&co);
}

static int run_scaling(struct stress_cli *c)
{
	struct scaling_opts so;
	int i;

	if (c->nvariants > 1) {
		fprintf(stderr, "mmfuzz stress: --scaling takes one --variant\n");
		return EXIT_USAGE;
	}
	if (c->tasks_set) {
		fprintf(stderr, "mmfuzz stress: --scaling runs 1..nproc tasks; --max-tasks N "
			"sets the last\n");
		return EXIT_USAGE;
	}
	if (c->csv && csv_path_ok(c->csv))
		return EXIT_USAGE;
	if (!c->csv) {
		snprintf(c->csv_default, sizeof(c->csv_default), "%s.csv", c->workload);
		if (csv_path_ok(c->csv_default))
			return EXIT_USAGE;
	}
	memset(&so, 0, sizeof(so));
	so.workload = c->workload;
	so.max_tasks = c->max_tasks;
	so.csv_path = c->csv;
	so.want_processes = !c->mode || strcmp(c->mode, "thread");
	so.want_threads = !c->mode || strcmp(c->mode, "process");
	child_common(c);
	for (i = 0; i < c->ncfg; i++) {
		c->child[c->nchild++] = c->cfg[i].args[0];
		c->child[c->nchild++] = c->cfg[i].args[1];
	}
	so.child_args = c->child;
	so.nchild_args = c->nchild;
	if (c->o.host) {
		/* the kernel's runs: the same sampling and affinity, no model
		 * (child_common's first five pairs: -s, --warmup, --sample-ms,
		 * --check-every, --stall-ms) */
		char **h = c->host_child;
		int n = 0;

		h[n++] = "--host";
		h[n++] = "-s";
		h[n++] = c->child[1];
		h[n++] = "--warmup";
		h[n++] = c->child[3];
		h[n++] = "--sample-ms";
		h[n++] = c->child[5];
		h[n++] = "--stall-ms";
		h[n++] = c->child[9];
		if (c->o.affinity == AFF_SMT)
			h[n++] = "-m";
		if (c->o.affinity == AFF_NONE)
			h[n++] = "-n";
		so.host = true;
		so.host_args = h;
		so.nhost_args = n;
	}
	return stress_scaling(&so);
}

int cmd_stress(int argc, char **argv)
{
	struct stress_cli *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return EXIT_USAGE;
	stress_opts_default(&c->o);
	rc = parse_args(c, argc, argv);
	if (rc >= 0)
		goto out;
	if (c->scaling && c->compare) {
		fprintf(stderr, "mmfuzz stress: --scaling or --compare, not both\n");
		rc = EXIT_USAGE;
	} else if (c->compare) {
		rc = run_compare(c);
	} else if (c->scaling) {
		rc = run_scaling(c);
	} else if (c->nvariants > 1 || c->ndrains > 1) {
		fprintf(stderr, "mmfuzz stress: one --variant and one --drain per run (--compare "
			"takes more)\n");
		rc = EXIT_USAGE;
	} else if (c->mode && !strcmp(c->mode, "both")) {
		fprintf(stderr, "mmfuzz stress: --mode both is for --scaling\n");
		rc = EXIT_USAGE;
	} else if (c->runs || c->csv || c->max_tasks) {
		fprintf(stderr, "mmfuzz stress: -r, -o and --max-tasks go with --compare or "
			"--scaling\n");
		rc = EXIT_USAGE;
	} else {
		rc = stress_run(&c->o, stdout);
	}
out:
	free(c);
	return rc;
}

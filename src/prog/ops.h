/* SPDX-License-Identifier: MIT */
/*
 * Operation descriptors.  Each operation is one descriptor, in the ops file
 * of its layer (ops_pagealloc.c, ...): its name, binary code, typed
 * arguments, whether it may run in interrupt context, and its execute
 * function.  Everything else is derived from the descriptors: binary decode
 * and encode, text parse and print, the trace's op names, the minimizer's
 * argument shrinking and the machine-size checks.
 *
 * Binary codes are fixed forever once given, like system call numbers:
 *
 *   0x00-0x1f pagealloc      0x20-0x3f kernel (hotplug, torture)
 *   0x40-0x5f tlb            0x60-0x7f slub
 *   0x80-0x9f compaction     0xa0-0xbf deferred init
 *
 * A code no descriptor has, or one outside the fuzz target's operations,
 * folds onto the target's fold list (fixed when the target is made), so a
 * new operation changes the meaning of no corpus file but those that used
 * its code.
 *
 * Handles: an operation may define a handle of a kind (a page block; later
 * a slab object, an mm, a mapped range) and others use it.  The text form
 * names them by the kind's prefix and their index among the program's
 * handles of that kind ("h3 = alloc_pages ...", "free_pages h3"); in memory
 * and in the binary form a use is that index (binary: modulo how many the
 * program defines).  The model may re-point a handle at another object
 * (migration moves a page, handle_moved): the executor's table keeps them
 * (handle.h), the checkers observe it through the kind's hooks.
 */
#ifndef MMFUZZ_PROG_OPS_H
#define MMFUZZ_PROG_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../mm/mm.h"
#include "../sched/sched.h"

#define OP_MAX_ARGS	4
#define OP_CODES	256

struct exec;
struct op;
struct prog;
struct op_ctx;

enum arg_kind {
	ARG_INT,		/* lo..hi; hi_key: at most that key's value */
	ARG_ENUM,		/* one of names[] */
	ARG_FLAGS,		/* a set of names[] bits ("A|B"), aliases allowed */
	ARG_ZONE,		/* 0..zones-1, and "all" (-1) when .all */
	ARG_CPU,		/* 0..cpus-1 */
	ARG_HANDLE,		/* an earlier handle of kind .hk (positional in text) */
};

struct flag_alias {
	const char *name;	/* "GFP_ATOMIC" */
	int bits;
};

struct op_arg {
	const char *name;			/* text key: "order=" */
	unsigned char kind;			/* enum arg_kind */
	unsigned char bin_bytes;		/* binary width, 1 or 2 (0: 1) */
	int lo, hi;				/* ARG_INT */
	const struct config_key *hi_key;	/* ARG_INT: hi is min(hi, this key) */
	bool all;				/* ARG_ZONE: "all" (-1) allowed */
	const char *const *names;		/* ARG_ENUM, ARG_FLAGS */
	int nnames;
	const struct flag_alias *aliases;	/* ARG_FLAGS, NULL-terminated */
	bool has_def;				/* text may leave it out ... */
	int def;				/* ... meaning this; printed only when not */
	const struct handle_kind *hk;		/* ARG_HANDLE */
	bool frees;				/* ARG_HANDLE: the op ends the handle */
};

/* A kind of handle: what an operation gives the program to use later. */
struct handle_kind {
	const char *name;		/* "page" */
	const char *prefix;		/* "h": h0, h1, ... in the text form */
	/* The end of a run: give a live handle's object back to the model. */
	void (*release)(struct op_ctx *c, int handle);
	/* What the checkers see of the table (handle.h), each may be NULL:
	 * handle_set, handle_drop, handle_moved (@h -1: no live handle of the
	 * kind held @from), and a handle still live when the run ends
	 * (a violation stopped it: the observer's state goes back to empty). */
	void (*taken)(int h, int name, void *obj, unsigned long aux);
	void (*released)(int h, int name, void *obj, unsigned long aux);
	void (*moved)(int h, void *from, void *to, unsigned long aux);
	void (*forget)(int h, void *obj, unsigned long aux);
};

struct op_desc {
	const char *name;
	unsigned char code;			/* binary code: fixed forever */
	const char *layer;			/* "pagealloc" */
	const char *desc;
	bool irq_ok;				/* may run in interrupt context */
	const struct handle_kind *defines;	/* the handle it makes, or NULL */
	int nargs;
	struct op_arg args[OP_MAX_ARGS];
	void (*exec)(struct op_ctx *c);
	struct yield_site site;			/* "op(NAME)", filled by OP_DESC */
};

/* A descriptor's name and its operation-boundary yield site "op(NAME)". */
#define OP_NAME(n)	.name = (n), .site = { "op", (n), YP_OP, 0, 0, 0 }

#define __OP_SECTION __registry(mmfuzz_ops)
/*
 * Register @d, a `static struct op_desc` with its fields set (the name with
 * OP_NAME), and its yield site.
 */
#define OP_DESC(d)								\
	static struct op_desc *__opp_##d __OP_SECTION = &(d);			\
	static struct yield_site *__opys_##d __YS_SECTION = &(d).site

/*
 * An operation layer's per-run state: each run starts with state_size zero
 * bytes (the executor zeroes those op_layer_state() handed out since they
 * were last zeroed: a layer writes its state through what op_layer_state()
 * gave it in the same run, never through a pointer kept from an earlier
 * one); when the program's header makes something at
 * the start (its mms), calls run_begin before any task runs (on the
 * scheduler, alone: no decision names what it does); calls task_exit when
 * a task ends (a task that ends holding something gives it back:
 * zone_pcp_enable after a disable); and op_layer_state() finds it.
 */
struct op_layer {
	const char *name;
	size_t state_size;
	void (*run_begin)(struct op_ctx *c);
	void (*task_exit)(struct op_ctx *c);
	/* its operations may start kernel threads (an IPI's handler, the
	 * grace-period kthread): a schedule decision may name one, with the
	 * ids after the program's tasks */
	bool kthreads;
	int id;
};
#define MAX_OP_LAYERS	8
#define OP_LAYER(l)								\
	REGISTER(mmfuzz_oplayers, struct op_layer *, __oplp_##l, &(l))

/*
 * A fuzz target: the operations of some layers.  Codes outside it fold
 * onto fold[code % nfold]: a list of codes in the target, fixed when the
 * target is made and never changed.
 */
struct fuzz_target {
	const char *name;
	const char *desc;
	const char *const *layers;	/* NULL-terminated; NULL: every layer */
	const unsigned char *fold;
	int nfold;
};
#define FUZZ_TARGET(t)								\
	REGISTER(mmfuzz_targets, const struct fuzz_target *, __ftp_##t, &(t))

/* ---- the registries (ops.c) ---- */

void ops_init(void);
/* Descriptors by code (NULL: no such code) and by name. */
extern const struct op_desc *op_table[OP_CODES];
static inline const struct op_desc *op_by_code(unsigned code)
{
	return code < OP_CODES ? op_table[code] : NULL;
}
const struct op_desc *op_lookup(const char *name);
/* Every descriptor, in code order. */
int ops_count(void);
const struct op_desc *op_by_index(int i);
const struct fuzz_target *target_lookup(const char *name);
/* The target a binary input means when none is said: "mm" (every operation,
 * its fold list pinned for old corpora). */
const struct fuzz_target *target_default(void);
/* The target mmfuzz fuzz and make fuzz run when none is said: "all" (every
 * operation, each layer an equal share of the folded codes). */
#define FUZZ_DEFAULT_TARGET	"all"
int targets_count(void);
const struct fuzz_target *target_by_index(int i);
bool target_has(const struct fuzz_target *t, const struct op_desc *d);
/* The code @code means in target @t. */
unsigned target_fold(const struct fuzz_target *t, unsigned code);
/* target_fold of every code, for a registered target (NULL: not one) */
const unsigned char *target_fold_map(const struct fuzz_target *t);
int handle_kinds_count(void);
const struct handle_kind *handle_kind_by_index(int i);
int handle_kind_index(const struct handle_kind *hk);
int op_layers_count(void);
struct op_layer *op_layer_by_index(int i);

/* ---- arguments (args.c) ---- */

/* The highest value arg @a may take in a program of config @c. */
int arg_hi(const struct op_arg *a, const struct mm_config *c);
int arg_lo(const struct op_arg *a);
/* Fold a raw binary value into the argument's range. */
int arg_from_raw(const struct op_arg *a, unsigned raw, const struct mm_config *c);
unsigned arg_to_raw(const struct op_arg *a, int v);
/* Is @v a value of @a under @c? */
bool arg_valid(const struct op_arg *a, int v, const struct mm_config *c);
/* The text of value @v ("movable", "all", "GFP_ATOMIC|__GFP_COMP"). */
const char *arg_str(const struct op_arg *a, int v, char *buf, size_t n);
/* Parse a value (not handles); 0, or -1 with a message in @err. */
int arg_parse(const struct op_arg *a, const char *s, size_t n, const struct mm_config *c,
	      int *out, char *err, size_t errlen);

/* ---- what an execute function may use (exec.c) ---- */

struct op_ctx {
	struct exec *e;
	struct task *t;
	struct world *w;
	const struct op *op;
	const struct op_desc *d;
	int idx;			/* index of the op in the program */
};

/* The handle number argument @i names (an index into the run's handles). */
int op_handle_arg(struct op_ctx *c, int i);
/* The handle this op defines, and its N in the text form's hN. */
int op_handle_self(struct op_ctx *c);
int op_handle_name(struct op_ctx *c);
void *op_layer_state(struct op_ctx *c, const struct op_layer *l);
/* The program that runs. */
const struct prog *op_prog(struct op_ctx *c);

#endif /* MMFUZZ_PROG_OPS_H */

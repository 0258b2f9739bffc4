// SPDX-License-Identifier: MIT
/*
 * I-CONS's object space (cons.c, owner_add_obj): two owner sources,
 * registered from this file as a layer's would be, own the objects of a
 * space of two (ids 0 and 1) that this file registers too.  One owner per
 * object is clean; an object both sources claim is reported with both
 * owners; an object neither claims is owned by nobody; an id past the
 * space's end is refused; with no object added at all, object 0 is owned by
 * nobody (a space that counts its objects is walked even then).  The same
 * in I-CONS's full mode.
 */
#include <string.h>

#include "check/check.h"
#include "prog/exec.h"
#include "tap.h"

static unsigned a_mask, b_mask;		/* which ids each source claims */

static unsigned long test_nr(struct world *w)
{
	(void)w;
	return 2;
}

static const struct owner_space test_space = { .name = "test object", .nr = test_nr };
OWNER_SPACE(test_space);

static void claim(struct owner_sink *s, unsigned mask)
{
	unsigned long id;

	for (id = 0; id < 4; id++)
		if (mask & (1u << id))
			owner_add_obj(s, &test_space, id, (unsigned)id);
}

static void a_collect(struct world *w, struct owner_sink *s)
{
	(void)w;
	claim(s, a_mask);
}

static void b_collect(struct world *w, struct owner_sink *s)
{
	(void)w;
	claim(s, b_mask);
}

static void a_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "owner a's o%u", who);
}

static void b_describe(unsigned who, char *buf, size_t n)
{
	snprintf(buf, n, "owner b's o%u", who);
}

static const struct owner_source src_a = { .name = "test a", .collect = a_collect,
					   .describe = a_describe };
static const struct owner_source src_b = { .name = "test b", .collect = b_collect,
					   .describe = b_describe };
OWNER_SOURCE(src_a);
OWNER_SOURCE(src_b);

static void run(struct exec *e, const struct prog *p, unsigned a, unsigned b, struct run_result *r)
{
	struct run_opts o = { 0 };

	a_mask = a;
	b_mask = b;
	exec_run(e, p, &o, r);
}

static bool says(const struct run_result *r, const char *msg)
{
	return r->outcome == RUN_VIOLATION && !strcmp(r->v.checker, "I-CONS") &&
	       strstr(r->v.msg, msg);
}

int main(void)
{
	static const char text[] =
		"mmfuzz 1\n"
		"cpus: 1\n"
		"task T0 cpu=0\n"
		"  h0 = alloc_pages order=1 mt=movable\n"
		"  free_pages h0\n";
	static const char *twice = "test object 1 is owned twice: by owner a's o1 and by owner b's o1";
	struct exec *e = exec_create();
	struct run_result r;
	static struct prog p;
	char err[256];
	int full;

	tap_plan(11);
	if (!ok(!prog_parse_text(text, "t", &p, err, sizeof(err)), "the program parses"))
		diag("%s", err);
	for (full = 0; full < 2; full++) {
		check_cons_full = full;
		run(e, &p, 1, 2, &r);
		ok(r.outcome == RUN_CLEAN, "%s: one owner per object is clean (%s)",
		   full ? "full" : "quick", r.outcome == RUN_CLEAN ? "-" : r.v.msg);
		run(e, &p, 3, 2, &r);
		ok(says(&r, twice), "%s: two owners of one object: %s", full ? "full" : "quick",
		   r.outcome == RUN_VIOLATION ? r.v.msg : "clean");
		run(e, &p, 1, 0, &r);
		ok(says(&r, "test object 1 is owned by nobody"), "%s: an object nobody owns: %s",
		   full ? "full" : "quick", r.outcome == RUN_VIOLATION ? r.v.msg : "clean");
		run(e, &p, 0, 0, &r);
		ok(says(&r, "test object 0 is owned by nobody"), "%s: no object owned at all: %s",
		   full ? "full" : "quick", r.outcome == RUN_VIOLATION ? r.v.msg : "clean");
		run(e, &p, 1, 6, &r);
		ok(says(&r, "test object 2 is owned by owner b's o2 but the space has 2"),
		   "%s: an id past the space: %s", full ? "full" : "quick",
		   r.outcome == RUN_VIOLATION ? r.v.msg : "clean");
	}
	check_cons_full = false;
	exec_destroy(e);
	return tap_done();
}

// SPDX-License-Identifier: MIT
/*
 * Handles follow what they hold when the model moves it.  A test-only
 * operation, registered from this file as a layer's would be (code 0xf0,
 * outside every block a layer takes), migrates a handle's block the way
 * the kernel's migration does: a new block, the contents copied,
 * page_moved(), the old block freed.  The program that frees the handle
 * afterwards frees the new block, and every check holds; a migration that
 * forgets page_moved() leaves the handle on a block that is free again,
 * and I-CONS says so.
 *
 *      T0: h0 = alloc_pages order=1      pfns [a, a+1]   owned by h0
 *          test_migrate h0               pfns [b, b+1]   owned by h0, [a, a+1] freed
 *          free_pages h0                 [b, b+1] freed
 */
#include <string.h>

#include "check/check.h"
#include "prog/exec.h"
#include "prog/handle.h"
#include "prog/ops_pagealloc.h"
#include "tap.h"

static bool forget;			/* a migration without page_moved() */
static unsigned long moved_from, moved_to;

static void do_test_migrate(struct op_ctx *c)
{
	unsigned long aux;
	unsigned int order;
	struct page *page = handle_get(op_handle_arg(c, 0), &hk_page, &aux), *newpage;

	if (!page)
		return;
	order = (unsigned int)aux;
	newpage = alloc_pages(GFP_HIGHUSER_MOVABLE, order);
	if (!newpage)
		return;
	memcpy(page_address(newpage), page_address(page), (1UL << order) * MODEL_PAGE_SIZE);
	moved_from = page_to_pfn(page);
	moved_to = page_to_pfn(newpage);
	if (!forget)
		HOOK(pagealloc, page_moved, page, newpage);
	__free_pages(page, order);
}

static struct op_desc op_test_migrate = {
	OP_NAME("test_migrate"), .code = 0xf0, .layer = "test",
	.desc = "migrate a page handle's block (tests/test_handles.c)",
	.nargs = 1,
	.args = { { .name = "h", .kind = ARG_HANDLE, .hk = &hk_page } },
	.exec = do_test_migrate,
};
OP_DESC(op_test_migrate);

int main(void)
{
	static const char text[] =
		"mmfuzz 1\n"
		"cpus: 1\n"
		"task T0 cpu=0\n"
		"  h0 = alloc_pages order=1 mt=movable\n"
		"  test_migrate h0\n"
		"  free_pages h0\n";
	struct exec *e = exec_create();
	struct run_opts o = { 0 };
	struct run_result r;
	struct prog p;
	char err[256];

	tap_plan(5);
	if (!ok(!prog_parse_text(text, "t", &p, err, sizeof(err)), "a layer's own operation parses"))
		diag("%s", err);
	exec_run(e, &p, &o, &r);
	ok(r.outcome == RUN_CLEAN && moved_from != moved_to,
	   "the handle follows its block from pfn %lu to pfn %lu: clean (%s)", moved_from, moved_to,
	   r.outcome == RUN_CLEAN ? "-" : r.v.signature);
	forget = true;
	exec_run(e, &p, &o, &r);
	ok(r.outcome == RUN_VIOLATION && !strcmp(r.v.checker, "I-CONS"),
	   "a migration that does not tell: %s", r.outcome == RUN_VIOLATION ? r.v.signature : "clean");
	diag("%s", r.v.msg);
	forget = false;
	exec_run(e, &p, &o, &r);
	ok(r.outcome == RUN_CLEAN, "and clean again with page_moved()");

	/* I-CONS reads the live page handles 64 at a time (shadow.c's
	 * handle_collect): 150 held at once are all owned, none lost */
	{
		static char many[150 * 48 + 64];
		size_t n = (size_t)snprintf(many, sizeof(many), "mmfuzz 1\ncpus: 1\nzone_pages: 1024\n"
					    "task T0 cpu=0\n");
		int i;

		for (i = 0; i < 150; i++)
			n += (size_t)snprintf(many + n, sizeof(many) - n,
					      "  h%d = alloc_pages order=0 mt=movable\n", i);
		if (prog_parse_text(many, "many", &p, err, sizeof(err)))
			diag("%s", err);
		exec_run(e, &p, &o, &r);
		ok(r.outcome == RUN_CLEAN && r.ops_run == 150, "150 page handles live at once: clean (%s)",
		   r.outcome == RUN_CLEAN ? "-" : r.v.signature);
	}
	exec_destroy(e);
	return tap_done();
}

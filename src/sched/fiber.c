// SPDX-License-Identifier: MIT
/*
 * Fibers: stacks, first entry, switches with the ASan and TSan annotations.
 * See fiber.h for the protocol.
 */
#include "fiber.h"
#include "san.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
void mmfuzz_ctx_switch(void **save_sp, void *new_sp);
void mmfuzz_ctx_trampoline(void);
#endif

#if MMFUZZ_ASAN
/* The fiber a switch left: ASan tells its stack bounds only on arrival. */
static __thread struct fiber *fiber_prev;

static void fiber_learn_prev(const void *bottom, size_t size)
{
	if (fiber_prev && !fiber_prev->stack) {
		fiber_prev->asan_bottom = bottom;
		fiber_prev->asan_size = size;
	}
}
#endif

/* The first code a new fiber runs: finish the ASan switch, then the entry. */
static void fiber_start(void *p)
{
	struct fiber *f = p;

#if MMFUZZ_ASAN
	{
		const void *bottom;
		size_t size;

		__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
		fiber_learn_prev(bottom, size);
	}
#endif
	f->entry(f->arg);
	abort();		/* entries loop forever */
}

#if !defined(__x86_64__)
static void fiber_start_uc(unsigned lo, unsigned hi)
{
	fiber_start((void *)(((uintptr_t)hi << 32) | lo));
}
#endif

static void fiber_make_context(struct fiber *f)
{
#if defined(__x86_64__)
	uintptr_t top = ((uintptr_t)f->stack + f->stack_size) & ~(uintptr_t)15;
	void **sp = (void **)(top - 72);

	sp[0] = 0;			/* r15 */
	sp[1] = 0;			/* r14 */
	sp[2] = f;			/* r13: argument */
	sp[3] = (void *)fiber_start;	/* r12: function */
	sp[4] = 0;			/* rbx */
	sp[5] = 0;			/* rbp */
	sp[6] = (void *)mmfuzz_ctx_trampoline;
	f->sp = sp;
#else
	getcontext(&f->uc);
	f->uc.uc_stack.ss_sp = f->stack;
	f->uc.uc_stack.ss_size = f->stack_size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, (void (*)(void))fiber_start_uc, 2,
		    (unsigned)(uintptr_t)f, (unsigned)((uintptr_t)f >> 32));
#endif
}

void fiber_init_main(struct fiber *main)
{
	memset(main, 0, sizeof(*main));
	main->name = "main";
#if MMFUZZ_TSAN
	main->tsan = __tsan_get_current_fiber();
#endif
}

int fiber_create(struct fiber *f, size_t stack_size, void (*entry)(void *), void *arg,
		 const char *name)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t sz = (stack_size + (size_t)pg - 1) & ~((size_t)pg - 1);
	char *mem;

	memset(f, 0, sizeof(*f));
	/* One guard page below the stack turns an overflow into a clean SEGV. */
	mem = mmap(NULL, sz + (size_t)pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	mprotect(mem, (size_t)pg, PROT_NONE);
	f->stack = mem + pg;
	f->stack_size = sz;
	f->entry = entry;
	f->arg = arg;
	f->name = name;
#if MMFUZZ_TSAN
	f->tsan = __tsan_create_fiber(0);
	__tsan_set_fiber_name(f->tsan, name);
#endif
	fiber_make_context(f);
	return 0;
}

void fiber_reset(struct fiber *f)
{
	/* An abandoned stack still carries ASan redzones of its dead frames. */
	san_unpoison(f->stack, f->stack_size);
#if MMFUZZ_TSAN
	/* A TSan fiber's shadow call stack cannot be rewound: start a new one. */
	__tsan_destroy_fiber(f->tsan);
	f->tsan = __tsan_create_fiber(0);
	__tsan_set_fiber_name(f->tsan, f->name);
#endif
	f->asan_fake = NULL;
	fiber_make_context(f);
}

void fiber_destroy(struct fiber *f)
{
	long pg = sysconf(_SC_PAGESIZE);

	if (!f->stack)
		return;
#if MMFUZZ_TSAN
	__tsan_destroy_fiber(f->tsan);
#endif
	munmap((char *)f->stack - pg, f->stack_size + (size_t)pg);
	f->stack = NULL;
}

/*
 * The TSan call must sit in the same function as the switch itself: a helper
 * that returns in between unbalances TSan's shadow stack (wrapbug.c).
 */
__sched_notsan void fiber_switch(struct fiber *from, struct fiber *to, bool sync, bool last)
{
#if MMFUZZ_TSAN
	__tsan_switch_to_fiber(to->tsan, sync ? 0 : __tsan_switch_to_fiber_no_sync);
#else
	(void)sync;
#endif
#if MMFUZZ_ASAN
	fiber_prev = from;
	__sanitizer_start_switch_fiber(last ? NULL : &from->asan_fake,
				       to->stack ? to->stack : to->asan_bottom,
				       to->stack ? to->stack_size : to->asan_size);
#else
	(void)last;
#endif
#if defined(__x86_64__)
	mmfuzz_ctx_switch(&from->sp, to->sp);
#else
	swapcontext(&from->uc, &to->uc);
#endif
#if MMFUZZ_ASAN
	{
		const void *bottom;
		size_t size;

		__sanitizer_finish_switch_fiber(from->asan_fake, &bottom, &size);
		fiber_learn_prev(bottom, size);
	}
#endif
}

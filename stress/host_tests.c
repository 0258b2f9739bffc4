// SPDX-License-Identifier: MIT
/*
 * will-it-scale's testcases of the address-space workloads, on the
 * machine's kernel (stress --host, host.c): page_fault1, brk1, mmap1 and
 * tlb_flush2 as will-it-scale's tests/<name>.c have them (128 MB regions,
 * brk by a page, a 1 MB region whose pages are written, dropped with
 * madvise(MADV_DONTNEED) and read back one by one), each registered under
 * the name of the model workload it stands beside.  The loops are
 * will-it-scale's with while (1) read as while (stress_host_continue())
 * and its assert() as stress_host_fail(); each probe tries the system
 * calls once, so a kernel that refuses them is said before the run.
 */
#include "stress.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MEMSIZE		(128UL * 1024 * 1024)	/* page_fault1, mmap1 */
#define MEMORYSIZE	(1UL * 1024 * 1024)	/* tlb_flush2 */

/* MemAvailable of /proc/meminfo in bytes, or 0 if unknown */
static unsigned long long mem_available(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

/* mmap and munmap @len once; with @touch, every task's worth must fit. */
static int probe_mmap(unsigned long tasks, unsigned long len, bool touch, char *msg, size_t n)
{
	unsigned long long avail = mem_available();
	void *c = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (c == MAP_FAILED) {
		snprintf(msg, n, "mmap of %lu MiB of anonymous memory: %s", len >> 20,
			 strerror(errno));
		return -1;
	}
	if (munmap(c, len)) {
		snprintf(msg, n, "munmap of %lu MiB: %s", len >> 20, strerror(errno));
		return -1;
	}
	/* each task touches its whole region: no room, the OOM killer */
	if (touch && avail && avail < (unsigned long long)tasks * len + (64ULL << 20)) {
		snprintf(msg, n, "%lu tasks touch %lu MiB each, but MemAvailable is %llu MiB: "
			 "fewer tasks", tasks, len >> 20, avail >> 20);
		return -1;
	}
	return 0;
}

/* ---- page_fault1 ---- */

static int page_fault1_probe(unsigned long tasks, char *msg, size_t n)
{
	return probe_mmap(tasks, MEMSIZE, true, msg, n);
}

static void page_fault1_testcase(unsigned long long *iterations, unsigned long nr)
{
	unsigned long pgsize = (unsigned long)getpagesize();

	while (stress_host_continue()) {
		unsigned long i;
		volatile char *c = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			stress_host_fail(nr, "mmap of 128 MiB", errno);
		for (i = 0; i < MEMSIZE; i += pgsize) {
			c[i] = 0;
			stress_host_count(iterations, 1);
		}
		munmap((void *)c, MEMSIZE);
	}
}

static const struct stress_host host_page_fault1 = {
	.name = "page_fault1",
	.description = "Anonymous memory page fault",
	.probe = page_fault1_probe,
	.testcase = page_fault1_testcase,
};
STRESS_HOST(host_page_fault1);

/* ---- brk1 ---- */

static int brk1_probe(unsigned long tasks, char *msg, size_t n)
{
	char *addr = sbrk(0);

	(void)tasks;
	if (addr == (void *)-1 || brk(addr + getpagesize()) || brk(addr)) {
		snprintf(msg, n, "brk by a page: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void brk1_testcase(unsigned long long *iterations, unsigned long nr)
{
	char *addr = sbrk(0);
	unsigned long page_size = (unsigned long)getpagesize();

	(void)nr;
	while (stress_host_continue()) {
		addr += page_size;
		(void)brk(addr);

		addr -= page_size;
		(void)brk(addr);

		stress_host_count(iterations, 2);
	}
}

static const struct stress_host host_brk1 = {
	.name = "brk1",
	.description = "brk increase/decrease of one page",
	.probe = brk1_probe,
	.testcase = brk1_testcase,
};
STRESS_HOST(host_brk1);

/* ---- mmap1 ---- */

static int mmap1_probe(unsigned long tasks, char *msg, size_t n)
{
	return probe_mmap(tasks, MEMSIZE, false, msg, n);
}

static void mmap1_testcase(unsigned long long *iterations, unsigned long nr)
{
	while (stress_host_continue()) {
		char *c = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (c == MAP_FAILED)
			stress_host_fail(nr, "mmap of 128 MiB", errno);
		munmap(c, MEMSIZE);

		stress_host_count(iterations, 1);
	}
}

static const struct stress_host host_mmap1 = {
	.name = "mmap1",
	.description = "Anonymous memory mmap/munmap of 128MB",
	.probe = mmap1_probe,
	.testcase = mmap1_testcase,
};
STRESS_HOST(host_mmap1);

/* ---- tlb_flush2 ---- */

static int tlb_flush2_probe(unsigned long tasks, char *msg, size_t n)
{
	char *addr;

	if (probe_mmap(tasks, MEMORYSIZE, true, msg, n))
		return -1;
	addr = mmap(NULL, MEMORYSIZE, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (addr == MAP_FAILED) {
		snprintf(msg, n, "mmap of 1 MiB: %s", strerror(errno));
		return -1;
	}
	*addr = 1;
	if (madvise(addr, (size_t)getpagesize(), MADV_DONTNEED) || *(volatile char *)addr) {
		snprintf(msg, n, "madvise(MADV_DONTNEED) of a written page: %s",
			 *(volatile char *)addr ? "the page kept its data" : strerror(errno));
		munmap(addr, MEMORYSIZE);
		return -1;
	}
	munmap(addr, MEMORYSIZE);
	return 0;
}

static void tlb_flush2_testcase(unsigned long long *iteration, unsigned long nr)
{
	unsigned long pgsize = (unsigned long)getpagesize();
	unsigned long i;

	while (stress_host_continue()) {
		volatile char *addr = mmap(NULL, MEMORYSIZE, PROT_READ | PROT_WRITE,
					   MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);

		if (addr == MAP_FAILED)
			stress_host_fail(nr, "mmap of 1 MiB", errno);
		for (i = 0; i < MEMORYSIZE; i += pgsize) {
			*(addr + i) = 1;
			madvise((void *)(addr + i), pgsize, MADV_DONTNEED);
			if (*(addr + i) != 0)
				stress_host_fail(nr, "*(addr + i) == 0", 0);
			stress_host_count(iteration, 1);
		}
		munmap((void *)addr, MEMORYSIZE);
	}
}

static const struct stress_host host_tlb_flush2 = {
	.name = "tlb_flush2",
	.description = "TLB flush of anonymous memory private mapping",
	.probe = tlb_flush2_probe,
	.testcase = tlb_flush2_testcase,
};
STRESS_HOST(host_tlb_flush2);

// SPDX-License-Identifier: MIT
/* The campaign directory's ledger and lock (see campaign_dir.h). */
#include "campaign_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bugs/bugs.h"

void cdir_inject_names(uint64_t inject, char *out, size_t n)
{
	size_t k = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < BUGS_MAX && k < n; i++)
		if ((inject & (1ULL << i)) && bug_name(i))
			k += (size_t)snprintf(out + k, n - k, "%s%s", k ? "," : "", bug_name(i));
	if (!k)
		snprintf(out, n, "none");
}

/* "a,b" or "none" or "" into switches; false if one is unknown */
static bool parse_inject(char *list, uint64_t *inject)
{
	char *save = NULL, *name;
	bool known = true;

	*inject = 0;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int id = bug_lookup(name);

		if (!strcmp(name, "none"))
			continue;
		if (id < 0)
			known = false;
		else
			*inject |= 1ULL << id;
	}
	return known;
}

/* "run N key=value ... bin=REST" */
static int parse_run(char *line, struct cdir_run *r)
{
	char *p, *save = NULL, *bin = strstr(line, " bin=");

	memset(r, 0, sizeof(*r));
	if (bin) {
		*bin = 0;
		snprintf(r->bin, sizeof(r->bin), "%s", bin + 5);
	}
	if (sscanf(line, "run %d", &r->n) != 1 || r->n < 1)
		return -1;
	strtok_r(line, " ", &save);
	strtok_r(NULL, " ", &save);
	while ((p = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(p, '=');

		if (!eq)
			continue;
		*eq++ = 0;
		if (!strcmp(p, "inject"))
			r->unknown_switch = !parse_inject(eq, &r->inject);
		else if (!strcmp(p, "engine"))
			snprintf(r->engine, sizeof(r->engine), "%s", eq);
		else if (!strcmp(p, "target"))
			snprintf(r->target, sizeof(r->target), "%s", eq);
		else if (!strcmp(p, "sanitizer"))
			snprintf(r->sanitizer, sizeof(r->sanitizer), "%s", eq);
	}
	return 0;
}

int cdir_read(const char *dir, struct cdir *cd)
{
	char path[4200], line[8192];
	int lineno = 0;
	FILE *f;

	memset(cd, 0, sizeof(*cd));
	snprintf(path, sizeof(path), "%s/campaign", dir);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		lineno++;
		if (!strncmp(line, "inject ", 7) && !cd->nruns) {
			/* the format before the ledger: one campaign, by keys */
			cd->old_note = true;
			if (!parse_inject(line + 7, &cd->old_inject))
				fprintf(stderr, "%s:%d: warning: a switch this mmfuzz does not know\n",
					path, lineno);
		} else if (!strncmp(line, "run ", 4)) {
			if (cd->nruns == CDIR_MAX_RUNS) {
				fprintf(stderr, "%s: more than %d campaign runs\n", path, CDIR_MAX_RUNS);
				fclose(f);
				return -1;
			}
			if (parse_run(line, &cd->run[cd->nruns])) {
				fprintf(stderr, "%s:%d: not a campaign run line\n", path, lineno);
				fclose(f);
				return -1;
			}
			if (cd->run[cd->nruns].unknown_switch)
				fprintf(stderr, "%s:%d: warning: a switch this mmfuzz does not know: "
					"run %d's crash files run without it\n", path, lineno,
					cd->run[cd->nruns].n);
			cd->nruns++;
		}
	}
	fclose(f);
	return 0;
}

const struct cdir_run *cdir_find(const struct cdir *cd, int n)
{
	int i;

	for (i = 0; i < cd->nruns; i++)
		if (cd->run[i].n == n)
			return &cd->run[i];
	return NULL;
}

/* "rN" or "rN-..." at @s (up to @end), N >= 1 */
static int run_tag(const char *s, const char *end)
{
	char *stop;
	long n;

	if (*s != 'r' || s[1] < '1' || s[1] > '9')
		return 0;
	n = strtol(s + 1, &stop, 10);
	return (stop == end || *stop == '-') && n < 1000000 ? (int)n : 0;
}

int cdir_run_of(const char *path)
{
	const char *base = strrchr(path, '/'), *p;
	int n;

	base = base ? base + 1 : path;
	n = run_tag(base, base + strlen(base));
	if (n)
		return n;
	/* AFL++: .../afl/<instance>/crashes/<file> */
	for (p = base - 1; p > path && p[-1] != '/'; p--)
		;
	if (p <= path || strncmp(p, "crashes/", 8))
		return 0;
	for (base = p - 1; base > path && base[-1] != '/'; base--)
		;
	return p > base ? run_tag(base, p - 1) : 0;
}

static int ledger_last(const char *dir)
{
	struct cdir *cd = malloc(sizeof(*cd));
	int i, last = 0;

	if (!cd || cdir_read(dir, cd)) {
		free(cd);
		return -1;
	}
	for (i = 0; i < cd->nruns; i++)
		if (cd->run[i].n > last)
			last = cd->run[i].n;
	free(cd);
	return last;
}

int cdir_lock(const char *cmd, const char *dir)
{
	char path[4200], buf[512], host[256] = "?", other[256];
	int fd, try, pid, run, n;

	gethostname(host, sizeof(host) - 1);
	snprintf(path, sizeof(path), "%s/lock", dir);
	for (try = 0; try < 2; try++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0)
			break;
		if (errno != EEXIST) {
			fprintf(stderr, "mmfuzz %s: %s: %s\n", cmd, path, strerror(errno));
			return -1;
		}
		fd = open(path, O_RDONLY);
		n = fd >= 0 ? (int)read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		if (sscanf(buf, "pid %d host %255s run %d", &pid, other, &run) != 3) {
			fprintf(stderr, "mmfuzz %s: %s is in use (%s); remove the lock if no campaign "
				"runs there\n", cmd, dir, path);
			return -1;
		}
		if (strcmp(other, host) || pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) {
			fprintf(stderr, "mmfuzz %s: %s is in use by campaign %d, pid %d on %s (%s); "
				"one campaign a directory at a time\n", cmd, dir, run, pid, other, path);
			return -1;
		}
		fprintf(stderr, "mmfuzz %s: %s: campaign %d (pid %d) is gone; taking its lock\n",
			cmd, path, run, pid);
		unlink(path);
	}
	if (fd < 0) {
		fprintf(stderr, "mmfuzz %s: cannot take %s\n", cmd, path);
		return -1;
	}
	run = ledger_last(dir);
	if (run < 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	run++;
	n = snprintf(buf, sizeof(buf), "pid %d host %s run %d\n", (int)getpid(), host, run);
	if (write(fd, buf, (size_t)n) != n || close(fd)) {
		fprintf(stderr, "mmfuzz %s: %s: %s\n", cmd, path, strerror(errno));
		unlink(path);
		return -1;
	}
	return run;
}

void cdir_unlock(const char *dir)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/lock", dir);
	unlink(path);
}

int cdir_append(const char *cmd, const char *dir, const struct cdir_run *r, unsigned long seed,
		long seconds)
{
	char path[4200], line[8192], inj[512], when[64], host[256] = "?";
	time_t now = time(NULL);
	struct tm tm;
	int fd, n;

	gethostname(host, sizeof(host) - 1);
	cdir_inject_names(r->inject, inj, sizeof(inj));
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	n = snprintf(line, sizeof(line), "run %d engine=%s target=%s sanitizer=%s inject=%s seed=%lu "
		     "seconds=%ld started=%s host=%s%s%s\n", r->n, r->engine, r->target,
		     r->sanitizer, inj, seed, seconds, when, host,
		     r->bin[0] && !strchr(r->bin, '\n') ? " bin=" : "",
		     r->bin[0] && !strchr(r->bin, '\n') ? r->bin : "");
	snprintf(path, sizeof(path), "%s/campaign", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0 || n >= (int)sizeof(line) || write(fd, line, (size_t)n) != n || close(fd)) {
		fprintf(stderr, "mmfuzz %s: %s: %s\n", cmd, path,
			n >= (int)sizeof(line) ? "line too long" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * A campaign's seeds (campaign.h): the binary twins make corpus built
 * (build/corpus/<target>), or the text programs of --seeds DIR encoded here
 * into OUT/seeds/rN, both by `mmfuzz encode --keep-going`: a seed that names
 * a yield site, an operation or a key this tree no longer has (a code change
 * removed or renamed it) is kept with that dropped, and each such seed is
 * said once, in one line, on stderr and in OUT/logs/rN-seeds.log.
 */
/* cli.h first: <spawn.h> brings <sched.h>, whose SCHED_RR exec.h names */
#include "campaign.h"
#include "cli.h"
#include "../bugs/bugs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* NAME of DIR/NAME.EXT, at most @n bytes; false for dot files */
static bool stem(const char *name, char *out, size_t n)
{
	const char *dot = strrchr(name, '.');
	size_t len = dot && dot != name ? (size_t)(dot - name) : strlen(name);

	if (name[0] == '.' || len >= n)
		return false;
	memcpy(out, name, len);
	out[len] = 0;
	return true;
}

/*
 * @path (searched in PATH when @search) with @argv, stdin /dev/null, its
 * output appended to the campaign's build log; an argument vector, never
 * a shell.  Its wait status, or -1 after saying why (@what names it).
 */
int campaign_spawn_logged(struct campaign *c, const char *path, bool search, char *const argv[],
			  const char *what)
{
	posix_spawn_file_actions_t fa;
	int fd, status, err;
	pid_t pid;

	fd = open(c->build_log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0) {
		fprintf(stderr, "mmfuzz fuzz: %s: %s\n", c->build_log, strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	err = search ? posix_spawnp(&pid, path, &fa, NULL, argv, environ)
		     : posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	if (err) {
		fprintf(stderr, "mmfuzz fuzz: cannot run %s: %s\n", what, strerror(err));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/* mmfuzz encode --keep-going --dropped NOTE [--inject NAME...] SRC -o OUT,
 * its output in the build log; the exit status, or -1 */
static int encode_one(struct campaign *c, const char *src, const char *out, const char *note,
		      uint64_t inject)
{
	char *argv[8 + 2 * 64] = { "mmfuzz", "encode", "--keep-going", "--dropped", (char *)note };
	int status, n = 5, i;

	for (i = 0; i < 64 && n + 5 < (int)(sizeof(argv) / sizeof(argv[0])); i++)
		if ((inject & (1ULL << i)) && bug_name(i)) {
			argv[n++] = "--inject";
			argv[n++] = (char *)bug_name(i);
		}
	argv[n++] = (char *)src;
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n] = NULL;
	status = campaign_spawn_logged(c, "/proc/self/exe", false, argv, "mmfuzz encode");
	if (status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Every DIR/NAME.mmf into c->seeds as PREFIXNAME.bin; with switches
 * injected, also as PREFIXNAME+inject.bin, its steps counted with them on.
 * Both: a switch that takes yield points away before a seed's window (a
 * lock count_partial_nolock drops) moves the plain twin's step off it,
 * and one that renames the window's own site (vmstat_lost_update's split
 * atomic) makes the keyed decision never fire on the switched model, where
 * the plain twin's step still lands beside it.  The number of files
 * encoded, or -1 (a seed even the seed mode cannot read is bad input:
 * counted in *@bad, said once).
 */
static int encode_dir(struct campaign *c, const char *from, const char *prefix, const char *what,
		      int *bad)
{
	char src[4400], out[4400], note[4400], name[256];
	struct dirent *de;
	DIR *d = opendir(from);
	int n = 0;

	if (!d) {
		fprintf(stderr, "mmfuzz fuzz: %s %s: %s\n", what, from, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		int rc, twin;

		if (len < 5 || strcmp(de->d_name + len - 4, ".mmf") || !stem(de->d_name, name,
									      sizeof(name)))
			continue;
		snprintf(src, sizeof(src), "%s/%s", from, de->d_name);
		for (twin = 0; twin < (c->inject ? 2 : 1); twin++) {
			const char *sfx = twin ? "+inject" : "";

			snprintf(out, sizeof(out), "%s/%s%s%s.bin", c->seeds, prefix, name, sfx);
			snprintf(note, sizeof(note), "%s/%s%s%s.txt", c->notes, prefix, name, sfx);
			rc = encode_one(c, src, out, note, twin ? c->inject : 0);
			if (rc < 0 || campaign_signal()) {
				closedir(d);
				return -1;
			}
			if (rc && twin) {
				/* the switched model stopped the counting run (a
				 * sanitizer's report of the switch's own race): the
				 * seed goes in once, as make corpus counted it */
				unlink(out);
				if (!c->quiet)
					fprintf(stderr, "mmfuzz fuzz: seed %s%s: its steps cannot be "
						"counted with the switches on (see %s); kept as "
						"counted without them\n", prefix, name, c->build_log);
				break;
			}
			if (rc) {
				fprintf(stderr, "mmfuzz fuzz: %s: %s is no program this tree can "
					"run; see %s\n", what, src, c->build_log);
				(*bad)++;
				break;
			}
			n++;
		}
	}
	closedir(d);
	return n;
}

int campaign_seeds_encode(struct campaign *c)
{
	char dir[4300], sub[4400], prefix[300];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int n = 0, k, bad = 0;

	snprintf(dir, sizeof(dir), "%s/seeds", c->out);
	if (output_dir("fuzz", dir))
		return -1;
	if (snprintf(c->seeds, sizeof(c->seeds), "%s/seeds/%s", c->out, c->tag) >=
		    (int)sizeof(c->seeds) ||
	    snprintf(c->notes, sizeof(c->notes), "%s/seeds/%s-dropped", c->out, c->tag) >=
		    (int)sizeof(c->notes) ||
	    output_dir("fuzz", c->seeds) || output_dir("fuzz", c->notes))
		return -1;
	if (c->seeds_from) {
		n = encode_dir(c, c->seeds_from, "", "--seeds", &bad);
		if (n < 0)
			return -1;
	} else {
		/* --inject on the shipped corpus: the target's text seeds, as
		 * make corpus takes them (corpus/TARGET/, every directory but
		 * regress/ for all and mm), named DIR-NAME as there */
		bool every = !strcmp(c->target, "all") || !strcmp(c->target, "mm");

		snprintf(dir, sizeof(dir), "%s/corpus", c->root);
		d = opendir(dir);
		if (!d) {
			fprintf(stderr, "mmfuzz fuzz: %s: %s\n", dir, strerror(errno));
			return -1;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || !strcmp(de->d_name, "regress") ||
			    (!every && strcmp(de->d_name, c->target)))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
			if (stat(sub, &st) || !S_ISDIR(st.st_mode))
				continue;
			snprintf(prefix, sizeof(prefix), "%s-", de->d_name);
			k = encode_dir(c, sub, prefix, "seed", &bad);
			if (k < 0) {
				closedir(d);
				return -1;
			}
			n += k;
		}
		closedir(d);
	}
	if (bad)
		return -1;
	if (!n && !c->quiet)
		fprintf(stderr, "mmfuzz fuzz: %s has no .mmf: the engine starts from nothing\n",
			c->seeds_from ? c->seeds_from : "the corpus");
	return 0;
}

void campaign_seeds_notes(struct campaign *c)
{
	char path[4400], line[1024], name[256];
	struct dirent *de;
	FILE *log = NULL;
	DIR *d;

	if (!c->notes[0] && snprintf(c->notes, sizeof(c->notes), "%s/build/corpus/dropped",
				     c->root) >= (int)sizeof(c->notes))
		return;
	d = opendir(c->seeds);
	if (!d)
		return;
	/* the seeds the engine gets, each with what it lost, if anything */
	while ((de = readdir(d))) {
		FILE *f;

		if (!stem(de->d_name, name, sizeof(name)))
			continue;
		snprintf(path, sizeof(path), "%s/%s.txt", c->notes, name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = 0;
			fprintf(stderr, "mmfuzz fuzz: seed %s: %s\n", name, line);
			if (!log) {
				snprintf(path, sizeof(path), "%s/logs/%s-seeds.log", c->out, c->tag);
				log = fopen(path, "a");
			}
			if (log)
				fprintf(log, "seed %s: %s\n", name, line);
		}
		fclose(f);
	}
	closedir(d);
	if (log)
		fclose(log);
}

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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* mmfuzz encode --keep-going --dropped NOTE SRC -o OUT, its output in the
 * build log; the exit status, or -1 */
static int encode_one(struct campaign *c, const char *src, const char *out, const char *note)
{
	char *argv[] = { "mmfuzz", "encode", "--keep-going", "--dropped", (char *)note,
			 (char *)src, "-o", (char *)out, NULL };
	int status = campaign_spawn_logged(c, "/proc/self/exe", false, argv, "mmfuzz encode");

	if (status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int campaign_seeds_encode(struct campaign *c)
{
	char dir[4300], src[4400], out[4400], note[4400], name[256];
	struct dirent *de;
	DIR *d;
	int n = 0, bad = 0;

	snprintf(dir, sizeof(dir), "%s/seeds", c->out);
	if (output_dir("fuzz", dir))
		return -1;
	if (snprintf(c->seeds, sizeof(c->seeds), "%s/seeds/%s", c->out, c->tag) >=
		    (int)sizeof(c->seeds) ||
	    snprintf(c->notes, sizeof(c->notes), "%s/seeds/%s-dropped", c->out, c->tag) >=
		    (int)sizeof(c->notes) ||
	    output_dir("fuzz", c->seeds) || output_dir("fuzz", c->notes))
		return -1;
	d = opendir(c->seeds_from);
	if (!d) {
		fprintf(stderr, "mmfuzz fuzz: --seeds %s: %s\n", c->seeds_from, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		int rc;

		if (len < 5 || strcmp(de->d_name + len - 4, ".mmf") || !stem(de->d_name, name,
									      sizeof(name)))
			continue;
		snprintf(src, sizeof(src), "%s/%s", c->seeds_from, de->d_name);
		snprintf(out, sizeof(out), "%s/%s.bin", c->seeds, name);
		snprintf(note, sizeof(note), "%s/%s.txt", c->notes, name);
		rc = encode_one(c, src, out, note);
		if (rc < 0 || campaign_signal()) {
			closedir(d);
			return -1;
		}
		if (rc) {
			/* what even the seed mode cannot read is bad input */
			fprintf(stderr, "mmfuzz fuzz: --seeds: %s is no program this tree can "
				"run; see %s\n", src, c->build_log);
			bad++;
		}
		n++;
	}
	closedir(d);
	if (bad)
		return -1;
	if (!n && !c->quiet)
		fprintf(stderr, "mmfuzz fuzz: --seeds %s has no .mmf: the engine starts from "
			"nothing\n", c->seeds_from);
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

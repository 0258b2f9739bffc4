// SPDX-License-Identifier: MIT
/*
 * Output paths (see cli.h): a new name or a regular file is replaced
 * atomically, through a temporary file beside it and rename(2); a
 * character device or a FIFO is written in place; a symbolic link is
 * followed and never replaced; anything else is refused.  Renaming over
 * /dev/full would turn a device node into a regular file, and over a link
 * would replace the link.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum out_kind { OUT_REPLACE, OUT_IN_PLACE };

/*
 * What writing @path means.  For OUT_REPLACE, @real gets the path to
 * rename over (a link's target, resolved) and *@mode the mode to keep
 * (-1 for a new name).  -1 after saying why not.
 */
static int out_classify(const char *path, char *real, size_t n, enum out_kind *kind, int *mode)
{
	struct stat st;
	char *r;

	*mode = -1;
	if (!*path) {
		fprintf(stderr, "mmfuzz: an empty output path\n");
		return -1;
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			return -1;
		}
		if (snprintf(real, n, "%s", path) >= (int)n) {
			fprintf(stderr, "%s: path too long\n", path);
			return -1;
		}
		*kind = OUT_REPLACE;
		return 0;
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st)) {
		if (errno == ENOENT)
			fprintf(stderr, "%s: a symbolic link to nothing: not replaced\n", path);
		else
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		/* a link to a regular file: its target is replaced, the link stays */
		r = realpath(path, NULL);
		if (!r || snprintf(real, n, "%s", r) >= (int)n) {
			fprintf(stderr, "%s: %s\n", path, r ? "path too long" : strerror(errno));
			free(r);
			return -1;
		}
		free(r);
		*mode = (int)(st.st_mode & 07777);
		*kind = OUT_REPLACE;
		return 0;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*kind = OUT_IN_PLACE;
		return 0;
	}
	fprintf(stderr, "%s: %s: not written\n", path,
		S_ISDIR(st.st_mode) ? "is a directory" :
		S_ISBLK(st.st_mode) ? "is a block device" : "is a socket");
	return -1;
}

int output_check(const char *path)
{
	char real[PATH_MAX];
	enum out_kind kind;
	int mode;

	return out_classify(path, real, sizeof(real), &kind, &mode);
}

static int write_all(int fd, const void *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t k = write(fd, (const char *)data + off, len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		off += (size_t)k;
	}
	return 0;
}

int write_output(const char *path, const void *data, size_t len)
{
	char real[PATH_MAX], tmp[PATH_MAX + 64];
	const char *slash;
	enum out_kind kind;
	int fd, mode, err;

	if (out_classify(path, real, sizeof(real), &kind, &mode))
		return -1;
	if (kind == OUT_IN_PLACE) {
		fd = open(path, O_WRONLY | O_NOCTTY);
		if (fd < 0 || write_all(fd, data, len)) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (close(fd)) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	/* .NAME.tmp.PID beside it: hidden, so directory scans pass it by */
	slash = strrchr(real, '/');
	snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.%d", slash ? (int)(slash - real + 1) : 0, real,
		 slash ? slash + 1 : real, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode >= 0 ? mode : 0666);
	if (fd < 0) {
		/* say the path the user gave: the directory is what is missing */
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (mode >= 0)
		(void)!fchmod(fd, (mode_t)mode);
	if (write_all(fd, data, len) || fsync(fd)) {
		err = errno;
		close(fd);
		unlink(tmp);
		fprintf(stderr, "%s: %s\n", path, strerror(err));
		return -1;
	}
	if (close(fd) || rename(tmp, real)) {
		err = errno;
		unlink(tmp);
		fprintf(stderr, "%s: %s\n", path, strerror(err));
		return -1;
	}
	return 0;
}

int output_dir(const char *cmd, const char *path)
{
	struct stat st;

	if (!*path) {
		fprintf(stderr, "mmfuzz %s: an empty directory path\n", cmd);
		return -1;
	}
	if (stat(path, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "mmfuzz %s: %s: not a directory\n", cmd, path);
			return -1;
		}
	} else if (errno != ENOENT || mkdir(path, 0777)) {
		fprintf(stderr, "mmfuzz %s: cannot make the directory %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	if (access(path, W_OK | X_OK)) {
		fprintf(stderr, "mmfuzz %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Triage of crash files: each is run (in a child process, so a file that
 * crashes the tool cannot take the triage down) on the model with the bug
 * switches of the campaign that found it; its signature is the model's
 * violation, or, when
 * the model runs it clean, what the sanitizer build of the fuzz target
 * reports.  One file per signature, the smallest, is minimized and written
 * atomically as text with its expect: line, ready for corpus/regress/.
 */
#include "triage.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bugs/bugs.h"
#include "../prog/form.h"
#include "../prog/ops.h"
#include "cli.h"

void signature_filename(const char *sig, char *out, size_t n)
{
	size_t i;

	for (i = 0; sig[i] && i + 1 < n; i++) {
		char c = sig[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '_' || c == '.' || c == '@' || c == '-' ? c : '_';
	}
	out[i] = 0;
}

/* A crash file: text if it says so, else bytes as the fuzz target that ran
 * them means them (@target, NULL: every operation). */
static int load_binary(const char *path, struct prog *p, const char *target)
{
	const struct fuzz_target *t = target && *target ? target_lookup(target) : NULL;
	uint8_t *buf;
	int line, col;
	long n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		return -1;
	}
	n = (long)fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	/* an engine's input is bytes, whatever they look like; the random
	 * engine's crash files are text programs */
	if (prog_detect_form(buf, (size_t)n, &line, &col) == PROG_FORM_TEXT) {
		char err[512];

		buf[n] = 0;
		n = prog_parse_text_n((const char *)buf, (size_t)n, path, p, err, sizeof(err));
	} else {
		prog_decode_binary_target(buf, (size_t)n, p, t ? t : target_default());
		n = 0;
	}
	free(buf);
	return n ? -1 : 0;
}

/* The sanitizer build of the fuzz target on @path, its report's summary as
 * a signature.  The file goes on an argument vector, never through a shell. */
static void sanitizer_signature(const char *bin, const char *path, uint64_t inject, char *sig,
				size_t n)
{
	char line[1024], inj[512];
	int fds[2], status;
	FILE *p;
	pid_t pid;

	sig[0] = 0;
	if (!bin || pipe(fds))
		return;
	cdir_inject_names(inject, inj, sizeof(inj));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		char *argv[] = { (char *)bin, (char *)path, NULL };

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		setenv("MMFUZZ_INJECT", strcmp(inj, "none") ? inj : "", 1);
		unsetenv("MMFUZZ_CRASHES");
		execv(bin, argv);
		fprintf(stderr, "cannot run %s: %s\n", bin, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	p = fdopen(fds[0], "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *in, *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (sig[0])
			continue;	/* read it all: the target must not block on a full pipe */
		if (!strncmp(line, "MMFUZZ-SIGNATURE: ", 18)) {
			snprintf(sig, n, "%.*s", (int)n - 1, line + 18);
		} else if (strstr(line, "SUMMARY: ThreadSanitizer: data race") &&
			   (in = strstr(line, " in "))) {
			snprintf(sig, n, "data-race@%.*s", (int)n - 11, in + 4);
		} else if (strstr(line, "SUMMARY: AddressSanitizer: ") && (in = strstr(line, " in "))) {
			char kind[64] = "";

			sscanf(strstr(line, "SUMMARY: AddressSanitizer: ") + 27, "%63s", kind);
			snprintf(sig, n, "asan-%s@%.*s", kind, (int)(n - 7 - strlen(kind)), in + 4);
		} else if (strstr(line, "SUMMARY: UndefinedBehaviorSanitizer")) {
			snprintf(sig, n, "ubsan@%.*s", (int)n - 7, strstr(line, "undefined-behavior ") ?
						      strstr(line, "undefined-behavior ") + 19 : "?");
		} else if (strstr(line, "mmfuzz: internal error")) {
			snprintf(sig, n, "internal-error@scheduler");
		}
	}
	if (p)
		fclose(p);
	else
		close(fds[0]);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !sig[0]) {
		fprintf(stderr, "mmfuzz triage: cannot run %s on %s\n", bin, path);
		return;
	}
	/* the target ran it to the end without a report: it does not reproduce
	 * alone (a race TSan pinned on it that began in an earlier execution) */
	if (!sig[0] && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		snprintf(sig, n, "crash@unknown");
}

/*
 * The switches crash file @path runs with and the fuzz target that
 * classifies it (see struct triage); false when no campaign of the
 * directory wrote it and it runs with its own.
 */
static bool file_switches(const struct triage *t, const char *path, uint64_t *inject,
			  const char **bin, const char **target)
{
	const struct cdir_run *r = cdir_find(&t->cd, cdir_run_of(path));
	struct prog *p;

	*bin = t->sanitizer_bin ? t->sanitizer_bin : r && r->bin[0] ? r->bin : NULL;
	*target = r ? r->target : t->target;
	if (t->inject_set || r || t->cd.old_note) {
		*inject = t->inject_set ? t->inject : r ? r->inject : t->cd.old_inject;
		return true;
	}
	p = malloc(sizeof(*p));
	*inject = p && !load_binary(path, p, *target) ? p->bugs : 0;
	free(p);
	return false;
}

/* The signature of one crash file (a model violation, or the sanitizer's
 * report when the model runs it clean); "" if it does not fail.  The model
 * runs it in a child: a file that crashes the tool cannot take triage down. */
static void classify(struct triage *t, const char *path, uint64_t inject, const char *bin,
		     const char *target, char *sig, size_t n, bool *san_only)
{
	int fds[2], status;
	pid_t pid;
	ssize_t k;

	sig[0] = 0;
	*san_only = false;
	if (pipe(fds))
		return;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		struct prog *p = malloc(sizeof(*p));
		struct run_opts o = { 0 };
		struct run_result r;

		close(fds[0]);
		/* every model loop is bounded by the step bound: a run that
		 * still does not end is a hang of the tool, reported as one */
		alarm(TRIAGE_RUN_SECONDS);
		if (p && !load_binary(path, p, target)) {
			p->bugs = inject;
			o.max_steps = 20000;
			if (!exec_run(t->e, p, &o, &r) && r.outcome == RUN_VIOLATION)
				(void)!write(fds[1], r.v.signature, strlen(r.v.signature));
		}
		_exit(0);
	}
	close(fds[1]);
	k = read(fds[0], sig, n - 1);
	sig[k > 0 ? k : 0] = 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (!sig[0]) {
		/* the model runs it clean, or the tool itself died on it */
		sanitizer_signature(bin, path, inject, sig, n);
		*san_only = sig[0] != 0;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && !sig[0])
			snprintf(sig, n, "hang@run");
		else if (WIFSIGNALED(status) && !sig[0])
			snprintf(sig, n, "crash@signal-%d", WTERMSIG(status));
	}
}

bool triage_is_crash_name(const char *name)
{
	return !strncmp(name, "crash-", 6) || !strncmp(name, "id:", 3) || !strncmp(name, "leak-", 5) ||
	       !strncmp(name, "timeout-", 8) || !strncmp(name, "oom-", 4);
}

static bool seen(struct triage *t, const char *name)
{
	int i;

	for (i = 0; i < t->nseen_names; i++)
		if (!strcmp(t->seen_names[i], name))
			return true;
	if (t->nseen_names < 4096)
		snprintf(t->seen_names[t->nseen_names++], sizeof(t->seen_names[0]), "%s", name);
	return false;
}

/* Crash files are in @dir, or in @dir/<instance>/crashes (AFL++). */
int triage_scan(struct triage *t, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int added = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[4096], sig[128], *dash;
		const char *name, *bin, *target;
		struct stat st;
		uint64_t inject;
		bool san_only;
		int i;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			char sub[4200];

			snprintf(sub, sizeof(sub), "%s/crashes", path);
			added += triage_scan(t, sub);
			snprintf(sub, sizeof(sub), "%s/hangs", path);
			added += triage_scan(t, sub);
			continue;
		}
		name = de->d_name;
		if (cdir_run_of(path) && (dash = strchr(name, '-')))
			name = dash + 1;	/* rN-crash-... */
		if (!triage_is_crash_name(name))
			continue;
		if (t->only_run && cdir_run_of(path) != t->only_run)
			continue;
		if (seen(t, path + (strlen(path) > 63 ? strlen(path) - 63 : 0)))
			continue;
		t->files_seen++;
		if (!file_switches(t, path, &inject, &bin, &target))
			t->own_switches++;
		classify(t, path, inject, bin, target, sig, sizeof(sig), &san_only);
		if (!sig[0]) {
			/* TSan with halt_on_error=0 reports its warning count at
			 * exit, and libFuzzer's death callback then writes the
			 * unit it holds, empty: not an input that crashed */
			if (st.st_size == 0)
				t->empty_units++;
			else
				t->not_reproduced++;
			continue;
		}
		for (i = 0; i < t->n; i++)
			if (!strcmp(t->f[i].signature, sig))
				break;
		if (i == t->n) {
			if (t->n == TRIAGE_MAX_SIGS)
				continue;
			memset(&t->f[i], 0, sizeof(t->f[i]));
			snprintf(t->f[i].signature, sizeof(t->f[i].signature), "%s", sig);
			t->f[i].sanitizer_only = san_only;
			t->n++;
			added++;
		}
		t->f[i].count++;
		if (!t->f[i].first_file[0] || st.st_size < t->f[i].first_size) {
			snprintf(t->f[i].first_file, sizeof(t->f[i].first_file), "%s", path);
			t->f[i].first_size = st.st_size;
			t->f[i].inject = inject;
			snprintf(t->f[i].target, sizeof(t->f[i].target), "%s", target ? target : "");
			snprintf(t->f[i].bin, sizeof(t->f[i].bin), "%s", bin ? bin : "");
		}
	}
	closedir(d);
	return added;
}

static bool triage_tsan_race(const struct finding *f)
{
	return f->sanitizer_only && !strncmp(f->signature, "data-race@", 10);
}

/* Minimize in a child too: a candidate that crashes the tool loses nothing. */
static int minimize_one(struct triage *t, struct finding *f, const char *out)
{
	int fds[2], status, res[2] = { -1, -1 };
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct prog *p = malloc(sizeof(*p));
		struct run_opts o = { 0 };
		struct min_stats st;
		char *text = NULL;
		int r[2] = { -1, -1 };

		close(fds[0]);
		if (p && !load_binary(f->first_file, p, f->target)) {
			/*
			 * expect_tsan: race only for a data race the TSan build
			 * reported on this file: a crash file's flag byte is
			 * the engine's mutation like any other, and a model
			 * violation's reproducer says nothing of TSan (its
			 * minimized program is not run under TSan).
			 */
			p->expect_tsan_race = triage_tsan_race(f);
			p->bugs = f->inject;
			o.max_steps = 20000;
			if (!f->sanitizer_only &&
			    !prog_minimize_budget(t->e, p, &o, 5000, TRIAGE_MIN_SECONDS, &st)) {
				r[0] = st.ops;
				r[1] = st.preemptions;
				text = prog_print_text(p);
			} else {
				/* the model runs it clean: keep it whole, with what it is */
				struct run_result rr;

				exec_run(t->e, p, &o, &rr);
				text = exec_program_text(t->e, p, &o, &rr);
				r[0] = p->nops;
			}
			if (text && !write_output(out, text, strlen(text)))
				(void)!write(fds[1], r, sizeof(r));
		}
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], res, sizeof(res)) != sizeof(res))
		res[0] = res[1] = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	f->ops = res[0];
	f->preemptions = res[1];
	return res[0] < 0 && res[1] < 0 ? -1 : 0;
}

int triage_write(struct triage *t, const char *outdir, bool quiet)
{
	int i, written = 0;

	for (i = 0; i < t->n; i++) {
		struct finding *f = &t->f[i];
		char name[160];

		signature_filename(f->signature, name, sizeof(name));
		snprintf(f->reproducer, sizeof(f->reproducer), "%s/%s.mmf", outdir, name);
		if (minimize_one(t, f, f->reproducer)) {
			f->reproducer[0] = 0;
			continue;
		}
		written++;
		if (!quiet) {
			if (f->preemptions >= 0)
				printf("%-44s %4d found  %s  (%d ops, bug depth %d)\n", f->signature,
				       f->count, f->reproducer, f->ops, f->preemptions);
			else
				printf("%-44s %4d found  %s  (%s, %d ops, not minimized)\n",
				       f->signature, f->count, f->reproducer,
				       f->sanitizer_only ? "sanitizer only" : "kept whole", f->ops);
		}
	}
	return written;
}

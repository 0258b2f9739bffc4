// SPDX-License-Identifier: MIT
/*
 * Triage of crash files: each is run (in a child process, so a file that
 * crashes the tool cannot take the triage down) on the model with the
 * campaign's bug switches; its signature is the model's violation, or, when
 * the model runs it clean, what the sanitizer build of the fuzz target
 * reports.  One file per signature, the smallest, is minimized and written
 * atomically as text with its expect: line, ready for corpus/regress/.
 */
#include "triage.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bugs/bugs.h"
#include "../prog/form.h"
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

/*
 * DIR/campaign: what the campaign ran, so that triage later knows which
 * switches were on.  The switches go by name (bit numbers change as
 * switches are added):
 *   inject pcp_count_apart,vmstat_lost_update
 *   target mm
 *   engine libfuzzer
 *   sanitizer address
 */
void campaign_note_write(const char *dir, uint64_t inject, const char *target, const char *engine,
			 const char *sanitizer)
{
	char path[4096], buf[1024];
	int i, n;

	snprintf(path, sizeof(path), "%s/campaign", dir);
	n = snprintf(buf, sizeof(buf), "inject ");
	for (i = 0; i < NR_BUGS; i++)
		if (inject & (1ULL << i))
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%s",
				      buf[n - 1] == ' ' ? "" : ",", bug_table[i].name);
	snprintf(buf + n, sizeof(buf) - (size_t)n, "\ntarget %s\nengine %s\nsanitizer %s\n", target,
		 engine, sanitizer);
	write_output(path, buf, strlen(buf));
}

uint64_t campaign_note_inject(const char *dir)
{
	char path[4096], line[1024], *save = NULL, *name;
	uint64_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/campaign", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "inject ", 7))
			continue;
		for (name = strtok_r(line + 7, ", \n", &save); name;
		     name = strtok_r(NULL, ", \n", &save)) {
			int id = bug_lookup(name);

			if (id >= 0)
				v |= 1ULL << id;
			else
				fprintf(stderr, "mmfuzz: %s: unknown bug switch '%s' ignored\n", path,
					name);
		}
		break;
	}
	fclose(f);
	return v;
}

static int load_binary(const char *path, struct prog *p)
{
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
		n = prog_parse_text((const char *)buf, path, p, err, sizeof(err));
	} else {
		prog_decode_binary(buf, (size_t)n, p);
		n = 0;
	}
	free(buf);
	return n ? -1 : 0;
}

/* Run the sanitizer build of the fuzz target on @path and read its summary. */
static void sanitizer_signature(const char *bin, const char *path, uint64_t inject, char *sig,
				size_t n)
{
	char cmd[12288], line[1024], inj[512] = "";
	FILE *p;
	int i, k = 0, status;

	sig[0] = 0;
	if (!bin)
		return;
	for (i = 0; i < 32; i++)
		if (inject & (1ULL << i))
			k += snprintf(inj + k, sizeof(inj) - (size_t)k, "%s%s", k ? "," : "",
				      bug_table[i].name);
	snprintf(cmd, sizeof(cmd), "MMFUZZ_INJECT='%s' '%s' '%s' 2>&1", inj, bin, path);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *in, *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (!strncmp(line, "MMFUZZ-SIGNATURE: ", 18)) {
			snprintf(sig, n, "%s", line + 18);
			break;
		}
		if (strstr(line, "SUMMARY: ThreadSanitizer: data race") && (in = strstr(line, " in "))) {
			snprintf(sig, n, "data-race@%s", in + 4);
			break;
		}
		if (strstr(line, "SUMMARY: AddressSanitizer: ") && (in = strstr(line, " in "))) {
			char kind[64] = "";

			sscanf(strstr(line, "SUMMARY: AddressSanitizer: ") + 27, "%63s", kind);
			snprintf(sig, n, "asan-%s@%s", kind, in + 4);
			break;
		}
		if (strstr(line, "SUMMARY: UndefinedBehaviorSanitizer")) {
			snprintf(sig, n, "ubsan@%s", strstr(line, "undefined-behavior ") ?
						      strstr(line, "undefined-behavior ") + 19 : "?");
			break;
		}
		if (strstr(line, "mmfuzz: internal error")) {
			snprintf(sig, n, "internal-error@scheduler");
			break;
		}
	}
	/* the target ran it to the end without a report: it does not reproduce
	 * alone (a race TSan pinned on it that began in an earlier execution) */
	status = pclose(p);
	if (!sig[0] && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		snprintf(sig, n, "crash@unknown");
}

void triage_classify(struct triage *t, const char *path, char *sig, size_t n, bool *san_only)
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
	if (pid == 0) {
		struct prog *p = malloc(sizeof(*p));
		struct run_opts o = { 0 };
		struct run_result r;

		close(fds[0]);
		if (p && !load_binary(path, p)) {
			p->bugs = t->inject;
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
		sanitizer_signature(t->sanitizer_bin, path, t->inject, sig, n);
		*san_only = sig[0] != 0;
		if (WIFSIGNALED(status) && !sig[0])
			snprintf(sig, n, "crash@signal-%d", WTERMSIG(status));
	}
}

static bool is_crash_name(const char *name)
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
		char path[4096], sig[128];
		struct stat st;
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
			continue;
		}
		if (!is_crash_name(de->d_name) || !strcmp(de->d_name, "README.txt"))
			continue;
		if (seen(t, path + (strlen(path) > 63 ? strlen(path) - 63 : 0)))
			continue;
		t->files_seen++;
		triage_classify(t, path, sig, sizeof(sig), &san_only);
		if (!sig[0]) {
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
		}
	}
	closedir(d);
	return added;
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
		if (p && !load_binary(f->first_file, p)) {
			p->bugs = t->inject;
			o.max_steps = 20000;
			if (!f->sanitizer_only && !prog_minimize(t->e, p, &o, 5000, &st)) {
				r[0] = st.ops;
				r[1] = st.preemptions;
				text = prog_print_text(p);
			} else {
				/* the model runs it clean: keep it whole, with what it is */
				struct run_result rr;

				exec_run(t->e, p, &o, &rr);
				text = exec_program_text(t->e, p, &o, &rr);
				r[0] = p->nops;
				if (text && f->sanitizer_only && strstr(f->signature, "data-race")) {
					char *marked = malloc(strlen(text) + 64), *at;

					at = strstr(text, "\n\ntask ");
					if (marked && at) {
						snprintf(marked, strlen(text) + 64, "%.*s\nexpect_tsan: race%s",
							 (int)(at - text), text, at);
						free(text);
						text = marked;
					}
				}
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

	mkdir(outdir, 0755);
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

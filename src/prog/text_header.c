// SPDX-License-Identifier: MIT
/*
 * The text form's header, parsed: the config keys (world/config.h), the
 * lines a layer's header section owns (header.h: the TLB layer's "mms:",
 * ops_tlb_header.c), "bugs:", "expect:" and "expect_tsan:" (text.c reads
 * the lines and calls these).
 */
#include "text_parse.h"

#include "../bugs/bugs.h"

static struct hdr_parse section_parse(struct parser *ps, struct pstate *st,
				      const struct hdr_section *s)
{
	struct hdr_parse h = { ps, st->p, prog_area(st->p, s), st->sec_at[s->slot],
			       &st->sec_seen[s->slot] };

	return h;
}

/* A mutant id as bench/mutgen.pl names them: CLASS@FUNCTION#N or #N.K. */
static bool mutant_id_ok(const char *s)
{
	static const char *const classes[] = {
		"lock-drop", "counter-unlocked", "counter-yield", "atomic-split",
		"recheck-drop", "clamp-drop", "list-count-swap", "racy-trusted" };
	const char *at = strchr(s, '@'), *hash = strrchr(s, '#'), *c;
	size_t i;

	if (!at || !hash || hash < at + 2 || !hash[1])
		return false;
	for (c = at + 1; c < hash; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	/* "#N", or "#N.K" for one argument of a clamp */
	for (c = hash + 1; *c; c++)
		if (!isdigit((unsigned char)*c) && (*c != '.' || c == hash + 1 || !c[1]))
			return false;
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i]) == (size_t)(at - s) && !strncmp(s, classes[i], (size_t)(at - s)))
			return true;
	return false;
}

/*
 * "aim: pcp_free_nolock, lock-drop@free_pcppages_bulk#1, rmqueue_bulk:spin_unlock(zone->lock)"
 * or "aim: none": the bug switches (mmfuzz bugs), catalogue mutants
 * (CLASS@FUNCTION#N) and windows (yield sites) the program was written for.
 * A word with '@' is a mutant, one with ':' or '(' a yield site, any other
 * a switch.  Metadata: kept in p->aim, canonical ", " apart, never encoded.
 */
static int parse_aim(struct parser *ps, struct pstate *st)
{
	struct prog *p = st->p;
	size_t len = 0;
	const char *w;
	size_t wn;

	if (st->seen_aim)
		return perr(ps, ps->pos, "'aim' given twice");
	st->seen_aim = true;
	p->aim[0] = 0;
	w = ps->pos;
	wn = strcspn(w, " \t\r,");
	if (tok_is(w, wn, "none")) {
		ps->pos += wn;
		goto eol;
	}
	if (!*ps->pos)
		return perr(ps, ps->pos, "aim: bug switches, mutants (CLASS@FUNCTION#N) or "
			    "yield sites, ', ' apart, or none");
	while (*ps->pos) {
		const char *b = ps->pos;
		char word[160];
		bool known;

		while (*ps->pos && *ps->pos != ',' && !isspace((unsigned char)*ps->pos))
			ps->pos++;
		if (ps->pos == b)
			return perr(ps, b, "aim: an empty item");
		snprintf(word, sizeof(word), "%.*s", (int)(ps->pos - b), b);
		if (strchr(word, '@'))
			known = mutant_id_ok(word);
		else if (strchr(word, ':') || strchr(word, '('))
			known = site_lookup(word) != NULL;
		else
			known = bug_lookup(word) >= 0;
		if (!known) {
			if (pdrop(ps, b, "that aim", strchr(word, '@') ? "aim: '%s' is no mutant id "
				  "(CLASS@FUNCTION#N of bench/mutgen.pl's classes)" :
				  strchr(word, ':') || strchr(word, '(') ?
				  "aim: unknown yield site '%s'" :
				  "aim: unknown bug switch '%s' (see mmfuzz bugs)", word) < 0)
				return -1;
		} else {
			if (len + strlen(word) + 3 >= sizeof(p->aim))
				return perr(ps, b, "aim: longer than %d characters", PROG_AIM_MAX - 1);
			len += (size_t)snprintf(p->aim + len, sizeof(p->aim) - len, "%s%s",
						len ? ", " : "", word);
		}
		skip_ws(ps);
		if (*ps->pos == ',') {
			ps->pos++;
			skip_ws(ps);
			if (!*ps->pos)
				return perr(ps, ps->pos, "aim: an item after ','");
		}
	}
	return 0;
eol:
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after the value of 'aim'");
	return 0;
}

/* A header key a layer's section owns ("mms"): 1 when none does. */
static int parse_section_key(struct parser *ps, struct pstate *st, const char *name,
			     const char *k)
{
	int i, rc;

	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);
		struct hdr_parse h = section_parse(ps, st, s);

		if (s->parse && (rc = s->parse(&h, name, k)) <= 0)
			return rc;
	}
	return 1;
}

int text_check_sections(struct parser *ps, struct pstate *st)
{
	int i;

	for (i = 0; i < hdr_nsections(); i++) {
		const struct hdr_section *s = hdr_section_by_index(i);
		struct hdr_parse h = section_parse(ps, st, s);

		if (s->parse_end && s->parse_end(&h))
			return -1;
	}
	return 0;
}

int text_parse_header(struct parser *ps, struct pstate *st, const char *k, size_t kn)
{
	struct prog *p = st->p;
	const struct config_key *key;
	char name[40];
	const char *w;
	size_t wn;
	int rc;

	snprintf(name, sizeof(name), "%.*s", (int)kn, k);
	if (*ps->pos != ':')
		return perr(ps, ps->pos, "expected ':' after '%s'", name);
	ps->pos++;
	skip_ws(ps);
	rc = parse_section_key(ps, st, name, k);
	if (rc <= 0)
		return rc;
	if (!strcmp(name, "bugs")) {
		if (st->seen_bugs)
			return perr(ps, k, "'bugs' given twice");
		st->seen_bugs = true;
		wn = token(ps, &w);
		if (tok_is(w, wn, "none"))
			goto eol;
		ps->pos = w;
		while (*ps->pos) {
			const char *b = ps->pos;
			char bname[64];
			int id;

			while (*ps->pos && *ps->pos != ',' && !isspace((unsigned char)*ps->pos))
				ps->pos++;
			snprintf(bname, sizeof(bname), "%.*s", (int)(ps->pos - b), b);
			id = bug_lookup(bname);
			if (id < 0 && pdrop(ps, b, "the switch",
					    "unknown bug switch '%s' (see mmfuzz bugs)", bname) < 0)
				return -1;
			if (id >= 0)
				p->bugs |= 1ULL << id;
			skip_ws(ps);
			if (*ps->pos == ',')
				ps->pos++;
			skip_ws(ps);
		}
		return 0;
	}
	if (!strcmp(name, "expect")) {
		if (st->seen_expect)
			return perr(ps, k, "'expect' given twice");
		st->seen_expect = true;
		wn = token(ps, &w);
		if (tok_is(w, wn, "clean")) {
			p->expect = EXPECT_CLEAN;
		} else if (tok_is(w, wn, "violation")) {
			const char *sig;
			size_t sn = token(ps, &sig);

			size_t i;

			if (!sn || !memchr(sig, '@', sn))
				return perr(ps, sig, "expected a signature CHECKER@SITE");
			/* what the checkers and triage write: C names, digits
			 * and punctuation, never a byte another tool cannot show */
			for (i = 0; i < sn; i++)
				if ((unsigned char)sig[i] < 0x21 || (unsigned char)sig[i] > 0x7e)
					return perr(ps, sig + i, "a signature is printable ASCII, "
						    "not the byte 0x%02x", (unsigned char)sig[i]);
			if (sn >= sizeof(p->expect_sig))
				return perr(ps, sig, "signature too long");
			p->expect = EXPECT_VIOLATION;
			memcpy(p->expect_sig, sig, sn);
			p->expect_sig[sn] = 0;
		} else {
			return perr(ps, w, "expect: clean, or violation CHECKER@SITE");
		}
		goto eol;
	}
	if (!strcmp(name, "expect_tsan")) {
		if (st->seen_tsan)
			return perr(ps, k, "'expect_tsan' given twice");
		st->seen_tsan = true;
		wn = token(ps, &w);
		if (!tok_is(w, wn, "race"))
			return perr(ps, w, "expect_tsan: race is the only value");
		p->expect_tsan_race = true;
		goto eol;
	}
	if (!strcmp(name, "aim"))
		return parse_aim(ps, st);
	key = config_key_lookup(name);
	if (!key)
		return pdrop(ps, k, "its line", "unknown header key '%s'", name);
	if (st->key_at[key->id].line)
		return perr(ps, k, "'%s' given twice", name);
	wn = token(ps, &w);
	if (key->names) {
		char v[40];
		long x;

		snprintf(v, sizeof(v), "%.*s", (int)wn, w);
		x = config_enum_lookup(key, v);
		if (x < 0) {
			char msg[200];
			size_t len = (size_t)snprintf(msg, sizeof(msg), "unknown %s '%s' (", name, v);
			long i;

			for (i = key->lo; i <= key->hi && len < sizeof(msg); i++)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s",
							i > key->lo ? ", " : "", key->names[i]);
			return perr(ps, w, "%s)", msg);
		}
		config_set(&p->cfg, key, x);
	} else {
		long x;

		if (parse_num(ps, w, wn, key->lo, key->hi, &x, name))
			return -1;
		config_set(&p->cfg, key, x);
	}
	st->key_at[key->id].line = ps->lineno;
	st->key_at[key->id].col = (int)(w - ps->line);
	st->key_at[key->id].linecopy = strdup(ps->line);
eol:
	if (!at_eol(ps))
		return perr(ps, ps->pos, "unexpected text after the value of '%s'", name);
	return 0;
}

/* The config as a whole, checked once the header is over: an error points
 * at the line of the key that is out of its range. */
int text_check_config(struct parser *ps, struct pstate *st)
{
	const struct config_key *bad = NULL;
	char msg[200];

	if (!config_check(&st->p->cfg, &bad, msg, sizeof(msg)))
		return 0;
	if (bad && st->key_at[bad->id].line) {
		ps->lineno = st->key_at[bad->id].line;
		ps->line = st->key_at[bad->id].linecopy;
		return perr(ps, ps->line + st->key_at[bad->id].col, "%s", msg);
	}
	return perr(ps, NULL, "%s (its default, with the keys given)", msg);
}

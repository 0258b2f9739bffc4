// SPDX-License-Identifier: MIT
/*
 * Header sections (header.h): the registry, the config bytes each section
 * holds, and the machine's own section (the `cpus` key: the machine has no
 * ops file of its own).
 */
#include "header.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../world/config.h"
#include "prog.h"

REGISTRY_SECTION(mmfuzz_hdr_sections);

static const struct hdr_section *sections[HDR_MAX_SECTIONS];
static int nsections;
/* which section holds each place of the config block (-1: none) */
static signed char owner[CONFIG_PLACES];
static pthread_once_t hdr_once = PTHREAD_ONCE_INIT;

static int cmp_id(const void *a, const void *b)
{
	return (int)((const struct hdr_section *)a)->id - (int)((const struct hdr_section *)b)->id;
}

static const char *section_name(const void *e)
{
	return ((const struct hdr_section *)e)->layer;
}

static const struct registry hdr_registry = {
	.what = "header section", .limit = "HDR_MAX_SECTIONS in src/prog/header.h",
	REGISTRY_BOUNDS(mmfuzz_hdr_sections), .cap = HDR_MAX_SECTIONS,
	.key = cmp_id, .keyname = "id", .name = section_name,
};

static void hdr_build(void)
{
	int i, j, n;

	n = (int)registry_collect(&hdr_registry, (const void **)sections);
	for (i = 0; i < n; i++) {
		struct hdr_section *s = (struct hdr_section *)sections[i];

		for (j = 0; j < i; j++)
			if (!strcmp(sections[j]->layer, s->layer)) {
				fprintf(stderr, "mmfuzz: header sections %u and %u are both layer %s's\n",
					sections[j]->id, s->id, s->layer);
				abort();
			}
		if (s->area_size > HDR_AREA_BYTES || !s->id) {
			fprintf(stderr, "mmfuzz: header section %u (%s): id 0 or area past "
				"HDR_AREA_BYTES\n", s->id, s->layer);
			abort();
		}
		s->slot = i;
	}
	nsections = n;
	memset(owner, -1, sizeof(owner));
	config_init();
	for (i = 0; i < config_nkeys(); i++) {
		const struct config_key *k = config_key_by_id(i);
		int s = -1;

		for (j = 0; j < n; j++)
			if (!strcmp(sections[j]->layer, k->layer))
				s = j;
		/* a key no section holds would have no v3 place: refuse to
		 * start rather than lose it */
		if (s < 0 || k->bin_off < sections[s]->cfg_base) {
			fprintf(stderr, "mmfuzz: config key %s: no header section of layer %s holds "
				"it (HEADER_SECTION in the layer's ops file, cfg_base <= %u)\n",
				k->name, k->layer, k->bin_off);
			abort();
		}
		for (j = k->bin_off; j < k->bin_off + k->bin_len; j++)
			owner[j] = (signed char)s;
	}
}

void hdr_init(void)
{
	pthread_once(&hdr_once, hdr_build);
}

int hdr_nsections(void)
{
	hdr_init();
	return nsections;
}

const struct hdr_section *hdr_section_by_index(int i)
{
	hdr_init();
	return i >= 0 && i < nsections ? sections[i] : NULL;
}

const struct hdr_section *hdr_section_by_id(int id)
{
	int i;

	hdr_init();
	for (i = 0; i < nsections; i++)
		if (sections[i]->id == id)
			return sections[i];
	return NULL;
}

void *prog_area(struct prog *p, const struct hdr_section *s)
{
	return p->hdr_area[s->slot].b;
}

const void *prog_area_c(const struct prog *p, const struct hdr_section *s)
{
	return p->hdr_area[s->slot].b;
}

void hdr_canonicalize(struct prog *p)
{
	int i;

	for (i = 0; i < hdr_nsections(); i++)
		if (sections[i]->canonicalize)
			sections[i]->canonicalize(prog_area(p, sections[i]), p);
}

bool hdr_run_begin(const struct prog *p)
{
	int i;

	for (i = 0; i < hdr_nsections(); i++)
		if (sections[i]->run_begin && sections[i]->run_begin(prog_area_c(p, sections[i]), p))
			return true;
	return false;
}

size_t hdr_config_get(const struct hdr_section *s, const uint8_t *block, uint8_t *out, size_t cap)
{
	size_t n = 0, j;

	hdr_init();
	for (j = 0; s->cfg_base + j < CONFIG_PLACES && j < cap; j++) {
		out[j] = owner[s->cfg_base + j] == s->slot ? block[s->cfg_base + j] : 0;
		if (out[j])
			n = j + 1;
	}
	return n;
}

void hdr_config_put(const struct hdr_section *s, uint8_t *block, const uint8_t *in, size_t n)
{
	size_t j;

	hdr_init();
	for (j = 0; j < n && s->cfg_base + j < CONFIG_PLACES; j++)
		if (owner[s->cfg_base + j] == s->slot)
			block[s->cfg_base + j] = in[j];
}

/* The machine: `cpus` (src/world/world.c) and nothing else. */
static struct hdr_section machine_section = {
	.layer = "machine", .id = 1, .cfg_base = 0,
};
HEADER_SECTION(machine_section);

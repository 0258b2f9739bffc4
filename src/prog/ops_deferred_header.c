// SPDX-License-Identifier: MIT
/*
 * The deferred-init layer's header section (id 6): its config keys,
 * places 80..111 (src/mm/deferred_init.c has 80..95; helper deferredops
 * adds the node map and its keys to this section).
 */
#include "header.h"

static struct hdr_section deferred_section = {
	.layer = "deferred", .id = 6, .cfg_base = 80,
};
HEADER_SECTION(deferred_section);

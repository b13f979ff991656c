// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for [X-Memtide] drop-ins (src/policy.c): any text. A drop-in is applied
 * whole or not at all: on an error the policy is unchanged and the warning is one line
 * naming the drop-in; on success every field is within its documented range.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "policy.h"

static void expect(int cond)
{
	if (!cond)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), warn[256];
	struct policy p, before;
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	policy_default(&p);
	p.release_priority = 7;	/* not the default, so that "unchanged" means something */
	before = p;
	memset(warn, 0, sizeof(warn));
	ret = policy_apply_text(text, "fuzz.conf", &p, warn, sizeof(warn));
	expect(ret == 0 || ret == -EINVAL);
	if (ret) {
		expect(!memcmp(&p, &before, sizeof(p)));
		expect(!strncmp(warn, "fuzz.conf:", 10) && !strchr(warn, '\n'));
	} else {
		expect(p.release_priority >= 0 && p.release_priority <= POLICY_MAX_PRIORITY);
		expect(p.idle_threshold_us > 0 && p.idle_threshold_us <= DURATION_MAX_US);
	}
	free(text);
	return 0;
}

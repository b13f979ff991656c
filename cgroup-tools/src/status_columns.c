// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "status_columns.h"

static const struct {
	const char *name, *key;
	bool numeric;
} columns[SC_COUNT] = {
	[SC_CGROUP] = { "CGROUP", "cgroup", false },
	[SC_CURRENT] = { "CURRENT", "current", true },
	[SC_SWAP] = { "SWAP", "swap", true },
	[SC_ANON] = { "ANON", "anon", true },
	[SC_FILE] = { "FILE", "file", true },
	[SC_SHMEM] = { "SHMEM", "shmem", true },
	[SC_PSI10] = { "PSI10", "pressure_some_avg10", true },
	[SC_SCAN] = { "SCAN", "scan_pressure", true },
	[SC_LAST] = { "LAST", "last", false },
};

const char *status_column_name(enum status_column c)
{
	return columns[c].name;
}

const char *status_column_key(enum status_column c)
{
	return columns[c].key;
}

bool status_column_numeric(enum status_column c)
{
	return columns[c].numeric;
}

void status_columns_default(struct status_columns *cols)
{
	cols->n = 0;
	for (int c = 0; c < SC_COUNT; c++)
		if (c != SC_SHMEM)
			cols->c[cols->n++] = c;
}

int status_columns_parse(const char *list, struct status_columns *cols, char *bad, size_t len)
{
	char words[256], *rest = words, *w;

	if (list[0] == '+') {
		status_columns_default(cols);
		list++;
	} else {
		cols->n = 0;
	}
	snprintf(bad, len, "%s", "");
	if (strlen(list) >= sizeof(words))
		return -E2BIG;
	if (!list[0])
		return -ENODATA;
	strcpy(words, list);
	/* strsep(), not strtok(): "a,,b" has an empty word, which is a mistake */
	while ((w = strsep(&rest, ","))) {
		int c;

		for (c = 0; c < SC_COUNT && strcasecmp(w, columns[c].name); c++)
			;
		if (c == SC_COUNT) {
			snprintf(bad, len, "%s", w);
			return -EINVAL;
		}
		if (cols->n == STATUS_COLUMNS_MAX)
			return -E2BIG;
		cols->c[cols->n++] = c;
	}
	return 0;
}

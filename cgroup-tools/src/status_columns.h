/* SPDX-License-Identifier: GPL-2.0 */
/* The columns of memtide status: their names, and the -o/--output list that picks them. */
#ifndef MEMTIDE_STATUS_COLUMNS_H
#define MEMTIDE_STATUS_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

enum status_column {
	SC_CGROUP,
	SC_CURRENT,
	SC_SWAP,
	SC_ANON,
	SC_FILE,
	SC_SHMEM,
	SC_PSI10,
	SC_SCAN,
	SC_LAST,
	SC_COUNT
};

/* for messages and help */
#define STATUS_COLUMN_NAMES "CGROUP, CURRENT, SWAP, ANON, FILE, SHMEM, PSI10, SCAN, LAST"

/* more than any list needs (lsblk allows a column twice; so does this) */
#define STATUS_COLUMNS_MAX 32

struct status_columns {
	unsigned char c[STATUS_COLUMNS_MAX];	/* enum status_column, in output order */
	int n;					/* 0: the defaults */
};

/* The heading of column C ("CURRENT"), and its key in status --json ("current") */
const char *status_column_name(enum status_column c);
const char *status_column_key(enum status_column c);
/* Whether C holds a number (right-aligned) */
bool status_column_numeric(enum status_column c);

/* The columns shown without -o: every one but SHMEM */
void status_columns_default(struct status_columns *cols);

/*
 * LIST, as lsblk's -o takes it: column names separated by commas, in any case ("current,SWAP");
 * "+LIST" adds them to the defaults. Returns 0; -ENODATA for no name at all ("", "+");
 * -EINVAL with the word that is no column's name in BAD ("" for an empty one: "a,,b");
 * -E2BIG for more than STATUS_COLUMNS_MAX.
 */
int status_columns_parse(const char *list, struct status_columns *cols, char *bad, size_t len);

#endif

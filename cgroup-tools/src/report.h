/* SPDX-License-Identifier: GPL-2.0 */
/* Printing what reclaim and release did: one line per target, or JSON. */
#ifndef MEMTIDE_REPORT_H
#define MEMTIDE_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "memtide.h"

/* One human line for RES on TARGET ("/spot.slice: reclaimed 700.0 MiB ... in 8.4 s"). */
void report_line(FILE *out, const char *cgroup, const struct op_result *res);
/* RES as a JSON object; TARGET is what the user gave, CGROUP its path or NULL. */
json_object *report_json(const char *target, const char *cgroup, const struct op_result *res);
/* "memtide: warning: WARNING" on stderr (a policy_warn_fn) */
void print_warning(const char *warning);
/*
 * Print OBJ on stdout as JSON, and free it: indented on a terminal or with --json=pretty,
 * else on one line.
 */
void print_json(const struct options *o, json_object *obj);
/* "done", "partial", "interrupted", "error" */
const char *op_status_name(enum op_status status);

#endif

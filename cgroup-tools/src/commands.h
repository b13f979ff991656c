/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands; each returns its exit code (memtide.h). */
#ifndef MEMTIDE_COMMANDS_H
#define MEMTIDE_COMMANDS_H

#include <json-c/json.h>
#include <stdbool.h>

#include "memtide.h"

/* The command line (cli.c): parse ARGV, run the command, close stdout; the exit code. */
int memtide_main(int argc, char **argv);

/*
 * reclaim and release: TARGETS resolved first, so a bad one means nothing is written; a
 * pattern stands for every cgroup it matches
 */
int cmd_operate(const struct options *o, const char *operation, char **targets, int n);
int cmd_status(const struct options *o, char **targets, int n);
int cmd_features(const struct options *o);
/* hibernate [--prepare-only] [--dry-run], and resume: the hibernation flow (plan.h) */
int cmd_hibernate(const struct options *o);
int cmd_resume(const struct options *o);
/* Whether the sleep hook's switch file says SLEEP_HOOK=yes, as the hook reads it */
bool sleep_hook_on(void);
/* idle [--interval DURATION] [--count N]: the idle-time shrinking daemon */
int cmd_idle(const struct options *o);
/* criu-action: CRIU's --action-script (pre-dump: release the tree's cgroup); always 0 */
int cmd_criu_action(const struct options *o);

/*
 * The request O's command line makes of a target, for AMOUNT (O's, or its share of one):
 * the commands' way into the library, which takes no struct options
 */
struct op_request op_request_of(const struct options *o, uint64_t amount);

/* "memtide: TARGET: REASON" on stderr */
void target_error(const char *target, const char *reason);
/* What a command has said so far, over its targets (report_result()) */
struct said {
	char note[sizeof(((struct op_result *)0)->message)];	/* the last note */
};
/*
 * What a command says of one reclaim or release, after recording it (state.h): an error as
 * target_error(ARG, ...), else RES's line unless --json or --quiet, and the note of an
 * approximate figure unless it is the one said last (a stock kernel's reclaim says the same
 * for every cgroup; its release names each cgroup's skipped processes); ARRAY, if not NULL,
 * gets RES as JSON.
 */
void report_result(const struct options *o, const char *arg, const char *path,
		   const struct op_result *res, json_object *array, struct said *said);

#endif

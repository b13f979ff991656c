/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reclaims and releases of a flow over many cgroups (hibernate's prepare, resume's
 * release): the kernel's features read and the cgroup2 mount opened once for all of them,
 * each cgroup found by the path the flow planned or recorded. Nothing here parses a command
 * line or prints: the flow says what was done as it wants (cmd_operate.c's report_result()).
 */
#ifndef MEMTIDE_OP_SESSION_H
#define MEMTIDE_OP_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroup.h"
#include "kernel_features.h"
#include "memtide.h"

struct op_session {
	struct features f;
	struct cgroot root;
};

/* Returns 0, or -errno with ERR saying what could not be read or opened. */
int op_session_open(struct op_session *s, char *err, size_t len);
void op_session_close(struct op_session *s);
/*
 * Reclaim (RECLAIM) or release what REQ asks of the cgroup at PATH ("/a.slice"), with RES
 * filled; a cgroup that is gone or not a memory cgroup is an OP_ERROR that says so.
 */
void op_session_run(struct op_session *s, const struct op_request *req, const char *path,
		    bool reclaim, struct op_result *res);

#endif

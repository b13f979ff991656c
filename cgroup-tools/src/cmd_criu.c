// SPDX-License-Identifier: GPL-2.0
/*
 * memtide criu-action: a CRIU --action-script. CRIU dumps swapped-out pages by faulting them
 * in one at a time while the tasks are frozen; at "pre-dump", before CRIU freezes anything,
 * this releases the task tree's cgroup in swap-offset order, so that the dump reads RAM.
 * It first reclaims the cgroup's page cache (swappiness=0: file pages only), which the
 * dump does not need, to make room. It never fails a dump: whatever goes wrong is logged
 * (CRIU keeps a script's output in its log) and the exit status is 0. Other actions are
 * ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "parse.h"
#include "report.h"

int cmd_criu_action(const struct options *o)
{
	const char *action = getenv("CRTOOLS_SCRIPT_ACTION");
	const char *pid = getenv("CRTOOLS_INIT_PID");
	struct options op = *o;
	struct op_result res;
	struct features f;
	struct cgroot root;
	struct target t;
	char arg[64], err[512], name[CESCAPE_SIZE(PATH_MAX)];

	if (!action || strcmp(action, "pre-dump"))
		return EXIT_DONE;
	if (!pid || !*pid) {
		fprintf(stderr, "memtide: criu-action: pre-dump without CRTOOLS_INIT_PID; nothing done\n");
		return EXIT_DONE;
	}
	snprintf(arg, sizeof(arg), "pid:%s", pid);
	if (features_load(&f) || cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: criu-action: no cgroup2 memory controller; nothing done\n");
		return EXIT_DONE;
	}
	if (target_resolve(&root, arg, &t, err, sizeof(err))) {
		fprintf(stderr, "memtide: criu-action: %s: %s; nothing done\n",
			cescape(arg, name, sizeof(name)), err);
		cgroot_close(&root);
		return EXIT_DONE;
	}
	if (!strcmp(t.path, "/")) {
		/* releasing the root would bring back the whole system's swap for one dump */
		fprintf(stderr, "memtide: criu-action: process %s is in the root cgroup; nothing done\n",
			pid);
		goto out;
	}
	cescape(t.path, name, sizeof(name));
	op.amount = AMOUNT_MAX;
	op.progress = false;
	op.swappiness = 0;
	op_reclaim(&op, &f, &t, &res);
	if (res.status == OP_ERROR)
		fprintf(stderr, "memtide: criu-action: %s: %s\n", name, res.message);
	else
		report_line(stderr, t.path, &res);
	op.swappiness = -1;
	op_release(&op, &f, &t, &res);
	if (res.status == OP_ERROR)
		fprintf(stderr, "memtide: criu-action: %s: %s\n", name, res.message);
	else
		report_line(stderr, t.path, &res);
out:
	target_close(&t);
	cgroot_close(&root);
	return EXIT_DONE;
}

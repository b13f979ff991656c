// SPDX-License-Identifier: GPL-2.0
/*
 * memtide criu-action: a CRIU --action-script. CRIU dumps swapped-out pages by faulting them
 * in one at a time while the tasks are frozen; at "pre-dump", before CRIU freezes anything,
 * this releases the task tree's cgroup in swap-offset order, so that the dump reads RAM.
 * It first reclaims the cgroup's page cache (swappiness=0: file pages only), which the
 * dump does not need, to make room. It never fails a dump, nor holds it back for long: both
 * steps stop at CRIU_TIMEOUT_US (CRIU waits for the script, and what is not released by
 * then the dump reads itself); whatever goes wrong is logged (CRIU keeps a script's output
 * in its log) and the exit status is 0. Other actions are ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "parse.h"
#include "report.h"
#include "stop.h"
#include "target.h"

#define CRIU_TIMEOUT_US 60000000ULL

/*
 * What one step did, or why it failed, and its note (an estimate, a wait given up); CGROUP
 * and the reason cescape()d here, as report_line() and target_error() do.
 */
static void log_result(const char *cgroup, const struct op_result *res)
{
	char name[CESCAPE_SIZE(PATH_MAX)], why[CESCAPE_SIZE(sizeof(res->message))];

	if (res->status == OP_ERROR) {
		fprintf(stderr, "memtide: criu-action: %s: %s\n",
			cescape(cgroup, name, sizeof(name)), cescape(res->message, why, sizeof(why)));
		return;
	}
	report_line(stderr, cgroup, res);
	if (res->approximate)
		fprintf(stderr, "memtide: criu-action: note: %s\n", res->message);
}

int cmd_criu_action(const struct options *o)
{
	const char *action = getenv("CRTOOLS_SCRIPT_ACTION");
	const char *pid = getenv("CRTOOLS_INIT_PID");
	struct op_request op = { .amount = AMOUNT_MAX, .swappiness = 0 };
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
	if (target_resolve(&root, UNIT_MANAGER_SYSTEM, arg, &t, err, sizeof(err))) {
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
	/* a deadline needs the handlers: they let the watcher end a blocked write */
	stop_install();
	op.deadline_us = now_us() + CRIU_TIMEOUT_US;
	op_reclaim(&op, &f, &t, &res);
	log_result(t.path, &res);
	op.swappiness = -1;
	op_release(&op, &f, &t, &res);
	log_result(t.path, &res);
out:
	target_close(&t);
	cgroot_close(&root);
	return EXIT_DONE;
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "report.h"
#include "state.h"
#include "watch.h"

void target_error(const char *target, const char *reason)
{
	char t[CESCAPE_SIZE(PATH_MAX)], r[CESCAPE_SIZE(512)];

	/* both may carry a cgroup's name, which its owner chose */
	fprintf(stderr, "memtide: %s: %s\n", cescape(target, t, sizeof(t)),
		cescape(reason, r, sizeof(r)));
}

int cmd_operate(const struct options *o, const char *operation, char **args, int n)
{
	bool reclaim = !strcmp(operation, "reclaim");
	struct target *targets = calloc(n, sizeof(*targets));
	struct op_result *results = calloc(n, sizeof(*results));
	json_object *array = o->json ? json_object_new_array() : NULL;
	struct features f;
	struct cgroot root;
	char err[512];
	int code = EXIT_ERROR, done = 0, ret;

	if (!targets || !results) {
		fprintf(stderr, "memtide: %s\n", strerror(ENOMEM));
		goto out;
	}
	for (int i = 0; i < n; i++)
		targets[i].fd = -1;
	root.fd = -1;
	ret = features_load(&f);
	if (ret) {
		fprintf(stderr, "memtide: %s: %s\n", FEATURES_FILE, strerror(-ret));
		goto out;
	}
	if (cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", err);
		goto out;
	}
	/* Resolve every target before touching any: a typo in the last one changes nothing. */
	for (int i = 0; i < n; i++) {
		if (target_resolve(&root, args[i], &targets[i], err, sizeof(err))) {
			target_error(args[i], err);
			goto close;
		}
	}
	stop_install();
	for (; done < n; done++) {
		struct op_result *res = &results[done];

		if (reclaim)
			op_reclaim(o, &f, &targets[done], res);
		else
			op_release(o, &f, &targets[done], res);
		state_record(targets[done].path, res);
		if (res->status == OP_ERROR)
			target_error(args[done], res->message);
		else if (!o->json && !o->quiet)
			report_line(stdout, targets[done].path, res);
		if (res->approximate && res->status != OP_ERROR && !o->json && !o->quiet)
			fprintf(stderr, "memtide: note: %s\n", res->message);
		if (array)
			json_object_array_add(array, report_json(args[done], targets[done].path, res));
		if (res->status == OP_INTERRUPTED) {
			done++;
			break;	/* a stop is for the whole command */
		}
	}
	if (done < n && !o->quiet)
		fprintf(stderr, "memtide: stopped before %d more target%s\n", n - done,
			n - done > 1 ? "s" : "");
	code = op_exit_code(results, done);
close:
	for (int i = 0; i < n; i++)
		target_close(&targets[i]);
	cgroot_close(&root);
out:
	if (array)
		print_json(array);
	free(targets);
	free(results);
	return code;
}

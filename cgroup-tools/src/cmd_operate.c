// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "parse.h"
#include "report.h"
#include "state.h"
#include "stop.h"
#include "target.h"

void target_error(const char *target, const char *reason)
{
	char t[CESCAPE_SIZE(PATH_MAX)], r[CESCAPE_SIZE(512)];

	/* both may carry a cgroup's name, which its owner chose */
	fprintf(stderr, "memtide: %s: %s\n", cescape(target, t, sizeof(t)),
		cescape(reason, r, sizeof(r)));
}

void report_result(const struct options *o, const char *arg, const char *path,
		   const struct op_result *res, json_object *array, struct said *said)
{
	state_record(path, res);
	if (res->status == OP_ERROR)
		target_error(arg, res->message);
	else if (!o->json && !o->quiet)
		report_line(stdout, path, res);
	if (res->approximate && res->status != OP_ERROR && !o->json && !o->quiet &&
	    strcmp(res->message, said->note)) {
		fprintf(stderr, "memtide: note: %s\n", res->message);
		snprintf(said->note, sizeof(said->note), "%s", res->message);
	}
	if (array)
		json_object_array_add(array, report_json(arg, path, res));
}

/*
 * What O's share of T comes to, read once before anything is written: of memory.current
 * for reclaim (anon + file of memory.stat at the root, which has no memory.current, as for
 * max), of memory.swap.current for release (the caller refuses the root, which has none).
 * Returns 0, or -errno with ERR saying which file.
 */
struct op_request op_request_of(const struct options *o, uint64_t amount)
{
	return (struct op_request){
		.amount = amount, .swappiness = o->swappiness, .deadline_us = o->deadline_us,
		.progress = o->progress, .progress_delay_us = o->progress_delay_us,
	};
}

static int share_amount(const struct options *o, const struct target *t, bool reclaim,
			uint64_t *bytes, char *err, size_t len)
{
	const char *file = reclaim ? "memory.current" : "memory.swap.current";
	struct cg_usage u;
	uint64_t held = 0;
	int ret;

	if (reclaim && !strcmp(t->path, "/")) {
		file = "memory.stat";
		ret = cg_read_usage(t, &u);
		held = u.current;
	} else {
		ret = cg_read_u64(t, file, &held);
	}
	if (ret) {
		snprintf(err, len, "%s: %s", file, strerror(-ret));
		return ret;
	}
	/* never max's sentinel: a share is always a number of bytes */
	*bytes = share_of(held, o->share_ppm);
	if (*bytes == AMOUNT_MAX)
		(*bytes)--;
	return 0;
}

/*
 * A share that comes to 0 bytes of T (it holds less than a byte's worth): nothing is
 * written to it, which the kernel would take as done, and a line says so. RES is done.
 */
static void nothing_to_do(const struct options *o, bool reclaim, const char *arg,
			  const struct target *t, json_object *array, struct op_result *res)
{
	char name[CESCAPE_SIZE(PATH_MAX)], share[16];

	res->operation = reclaim ? "reclaim" : "release";
	res->status = OP_DONE;
	snprintf(res->message, sizeof(res->message), "%s comes to 0 bytes: nothing to %s",
		 format_share(o->share_ppm, share, sizeof(share)), res->operation);
	if (array) {
		json_object *j = report_json(arg, t->path, res);

		if (o->dry_run)
			json_object_object_add(j, "dry_run", json_object_new_boolean(true));
		json_object_array_add(array, j);
	} else if (!o->quiet) {
		printf("%s: %s\n", cescape(t->path, name, sizeof(name)), res->message);
	}
}

/*
 * --dry-run of one target: where memtide would write what, and what the cgroup holds now
 * (memory.current, anon + file at the root; memory.swap.current, absent at the root).
 * The file is opened for writing, and closed unwritten: where the write would fail, RES
 * is that error, reported as the command would.
 */
static void dry_run(const struct options *o, uint64_t amount_asked, const struct features *f,
		    bool reclaim, const char *arg, const struct target *t, json_object *array,
		    struct op_result *res)
{
	const struct op_request req = op_request_of(o, amount_asked);
	const char *operation = reclaim ? "reclaim" : "release";
	char name[CESCAPE_SIZE(PATH_MAX)], amount[32], share[16], current[32], swap[32];
	bool has_swap;
	struct op_plan p;
	struct cg_usage u;
	uint64_t swapped;

	op_plan(&req, f, t, reclaim, &p);
	res->operation = operation;
	res->status = OP_DONE;
	if (p.file) {
		int fd = cg_open(t, p.file, O_WRONLY);

		if (fd < 0) {
			res->status = OP_ERROR;
			res->error = -fd;
			snprintf(res->message, sizeof(res->message), "%s: %s", p.file,
				 strerror(-fd));
			target_error(arg, res->message);
			if (array)
				json_object_array_add(array, report_json(arg, t->path, res));
			return;
		}
		close(fd);
	}
	cg_read_usage(t, &u);
	has_swap = !cg_read_u64(t, "memory.swap.current", &swapped);
	if (array) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "target", json_object_new_string(arg));
		json_object_object_add(j, "cgroup", json_object_new_string(t->path));
		json_object_object_add(j, "operation", json_object_new_string(operation));
		json_object_object_add(j, "dry_run", json_object_new_boolean(true));
		/* as in the results: a number, or null and requested_max */
		json_object_object_add(j, "requested", amount_asked == AMOUNT_MAX ? NULL :
				       json_object_new_uint64(amount_asked));
		if (amount_asked == AMOUNT_MAX)
			json_object_object_add(j, "requested_max", json_object_new_boolean(true));
		json_object_object_add(j, "file", p.file ? json_object_new_string(p.file) : NULL);
		json_object_object_add(j, "write", p.file ? json_object_new_string(p.write) : NULL);
		if (o->share_ppm)
			json_object_object_add(j, "share", json_object_new_string(
				format_share(o->share_ppm, share, sizeof(share))));
		json_object_object_add(j, "current", json_object_new_uint64(u.current));
		json_object_object_add(j, "swap", has_swap ? json_object_new_uint64(swapped) : NULL);
		if (p.note)
			json_object_object_add(j, "note", json_object_new_string(p.note));
		json_object_array_add(array, j);
		return;
	}
	if (o->quiet)
		return;
	if (amount_asked == AMOUNT_MAX)
		snprintf(amount, sizeof(amount), "max");
	else
		format_size(amount_asked, amount, sizeof(amount));
	printf("%s: would %s ", cescape(t->path, name, sizeof(name)), operation);
	if (o->share_ppm)
		printf("%s (%s): ", format_share(o->share_ppm, share, sizeof(share)), amount);
	else
		printf("%s: ", amount);
	if (p.file)
		printf("\"%s\" to %s", p.write, p.file);
	else
		printf("process_madvise(MADV_WILLNEED) over the processes of cgroup.procs");
	if (p.note)
		printf(" (%s)", p.note);
	printf("; current %s, swap %s\n", format_size(u.current, current, sizeof(current)),
	       has_swap ? format_size(swapped, swap, sizeof(swap)) : "-");
}

int cmd_operate(const struct options *o, const char *operation, char **args, int nargs)
{
	bool reclaim = !strcmp(operation, "reclaim");
	struct target_list list = { 0 };
	struct target *targets;
	struct op_result *results = NULL;
	uint64_t *amounts = NULL;	/* each target's: O's, or its share of the target */
	json_object *array = o->json ? json_object_new_array() : NULL;
	struct features f;
	struct cgroot root;
	char err[512];
	int code = EXIT_ERROR, done = 0, n, ret;
	struct said said = { "" };

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
	for (int i = 0; i < nargs; i++) {
		if (target_expand(&root, o->manager, args[i], &list, err, sizeof(err))) {
			target_error(args[i], err);
			goto close;
		}
	}
	/* one entry per cgroup from here on: a pattern stands for each one it matched */
	targets = list.t;
	n = list.n;
	results = calloc(n, sizeof(*results));
	amounts = calloc(n, sizeof(*amounts));
	if (!results || !amounts) {
		fprintf(stderr, "memtide: %s\n", strerror(ENOMEM));
		goto close;
	}
	/*
	 * Reclaim of the root (/, -.slice, the mount, pid:N of a process in it) pushes every
	 * process on the machine into swap, memtide and sshd too: only with --force. It is
	 * refused as a usage error (exit 2): the command line asks for it, nothing is
	 * written, and the same words with --force would do it, which a script tells from a
	 * cgroup that could not be acted on (exit 1). A release of the root only reads back
	 * what is in swap, as far as there is room (memory.release stops at memory.high,
	 * memory.max or a full RAM), and needs no --force.
	 */
	for (int i = 0; i < n; i++) {
		const char *why = NULL;

		if (strcmp(targets[i].path, "/"))
			continue;
		if (reclaim && !o->force)
			why = "the root cgroup: reclaim would swap out every process on the machine; add --force to do it";
		/* the same for a share of what it does not have, where a size or max would do */
		else if (!reclaim && o->share_ppm)
			why = "the root cgroup has no memory.swap.current: release a size or max";
		if (why) {
			target_error(targets[i].arg, why);
			code = EXIT_USAGE;
			goto close;
		}
	}
	/* a share is of what each target holds at the start: all read before any is written */
	for (int i = 0; i < n; i++) {
		amounts[i] = o->amount;
		if (o->share_ppm &&
		    share_amount(o, &targets[i], reclaim, &amounts[i], err, sizeof(err))) {
			target_error(targets[i].arg, err);
			goto close;
		}
	}
	if (o->dry_run) {
		for (int i = 0; i < n; i++) {
			if (o->share_ppm && !amounts[i])
				nothing_to_do(o, reclaim, targets[i].arg, &targets[i], array,
					      &results[i]);
			else
				dry_run(o, amounts[i], &f, reclaim, targets[i].arg, &targets[i],
					array, &results[i]);
		}
		code = op_exit_code(results, n);
		goto close;
	}
	stop_install();
	for (; done < n; done++) {
		const struct op_request req = op_request_of(o, amounts[done]);
		struct op_result *res = &results[done];
		struct target *t = &targets[done];

		if (o->share_ppm && !amounts[done]) {
			nothing_to_do(o, reclaim, t->arg, t, array, res);
			continue;
		}
		if (reclaim)
			op_reclaim(&req, &f, t, res);
		else
			op_release(&req, &f, t, res);
		report_result(o, t->arg, t->path, res, array, &said);
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
	target_list_close(&list);
	cgroot_close(&root);
out:
	/* a usage error is one line on stderr and nothing on stdout, --json or not */
	if (array && code == EXIT_USAGE)
		json_object_put(array);
	else if (array) {
		json_object *top = json_object_new_object();

		json_object_object_add(top, "results", array);
		print_json(o, top);
	}
	free(results);
	free(amounts);
	return code;
}

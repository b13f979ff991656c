// SPDX-License-Identifier: GPL-2.0
/* memtide status: the memory of a cgroup tree, one row per cgroup. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "report.h"
#include "state.h"
#include "target.h"
#include <time.h>
#include "parse.h"

struct row {
	struct cg_usage mem;
	bool has_swap, has_pressure;
	uint64_t swap;
	long pressure;			/* some avg10, hundredths of a percent */
};

/* Returns 0, or the -errno of memory.stat */
static int read_row(const struct target *t, struct row *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = cg_read_usage(t, &r->mem);
	r->has_swap = !cg_read_u64(t, "memory.swap.current", &r->swap);
	r->has_pressure = !cg_read_pressure(t, &r->pressure);
	return ret;
}

struct status_walk {
	const struct options *o;
	json_object *array;
	int code;			/* EXIT_ERROR once a memory.stat could not be read */
};

/* The more recent of the last reclaim and release: "reclaim 700.0 MiB 5m ago" */
static void last_cell(const char *path, char *buf, size_t len)
{
	struct last_op reclaim, release, *last = NULL;
	bool has_reclaim = !state_lookup(path, "reclaim", &reclaim);
	bool has_release = !state_lookup(path, "release", &release);
	const char *op;
	char size[32];
	long age;

	if (has_reclaim && (!has_release || reclaim.when >= release.when)) {
		last = &reclaim;
		op = "reclaim";
	} else if (has_release) {
		last = &release;
		op = "release";
	}
	if (!last) {
		snprintf(buf, len, "-");
		return;
	}
	age = (long)(time(NULL) - last->when);
	format_size(last->bytes, size, sizeof(size));
	snprintf(buf, len, "%s %s%s%s, %ld%s ago", op, size, strcmp(last->status, "done") ? " " : "",
		 strcmp(last->status, "done") ? last->status : "",
		 age < 120 ? age : age < 7200 ? age / 60 : age < 172800 ? age / 3600 : age / 86400,
		 age < 120 ? "s" : age < 7200 ? "m" : age < 172800 ? "h" : "d");
}

/* The last operations as JSON: {"reclaim": {...}, "release": {...}} or null */
static json_object *last_json(const char *path)
{
	static const char *const ops[] = { "reclaim", "release" };
	json_object *o = NULL;

	for (int i = 0; i < 2; i++) {
		struct last_op last;
		json_object *entry;

		if (state_lookup(path, ops[i], &last))
			continue;
		if (!o)
			o = json_object_new_object();
		entry = json_object_new_object();
		json_object_object_add(entry, "status", json_object_new_string(last.status));
		json_object_object_add(entry, "bytes", json_object_new_uint64(last.bytes));
		json_object_object_add(entry, "time", json_object_new_int64(last.when));
		json_object_object_add(o, ops[i], entry);
	}
	return o;
}

static void cell(char *buf, size_t len, bool has, uint64_t v)
{
	if (has)
		format_size(v, buf, len);
	else
		snprintf(buf, len, "-");
}

static int status_row(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct status_walk *s = data;
	char err[256], cur[32], swap[32], anon[32], file[32], psi[32], scan[16];
	char name[CESCAPE_SIZE(PATH_MAX) + 64], escaped[CESCAPE_SIZE(PATH_MAX)];
	char last[96];
	struct target t;
	struct row r;
	/* at the last level asked for: print it, and do not walk below */
	int below = s->o->depth >= 0 && depth >= s->o->depth ? CG_WALK_SKIP : 0;
	int ret;

	if (target_open_path(root, path, &t, err, sizeof(err)))
		return below;	/* gone, or below a cgroup without +memory */
	ret = read_row(&t, &r);
	target_close(&t);
	if (ret == -ENOENT)
		return below;	/* removed while we walked */
	if (ret) {
		/* a row of zeros would be a lie: say why there is none */
		snprintf(err, sizeof(err), "memory.stat: %s", keyed_strerror(ret));
		target_error(path, err);
		s->code = EXIT_ERROR;
		return below;
	}
	if (s->array) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "cgroup", json_object_new_string(path));
		json_object_object_add(o, "depth", json_object_new_int(depth));
		json_object_object_add(o, "current", json_object_new_uint64(r.mem.current));
		json_object_object_add(o, "swap", r.has_swap ? json_object_new_uint64(r.swap) : NULL);
		json_object_object_add(o, "anon", json_object_new_uint64(r.mem.anon));
		json_object_object_add(o, "file", json_object_new_uint64(r.mem.file));
		json_object_object_add(o, "shmem", json_object_new_uint64(r.mem.shmem));
		json_object_object_add(o, "pressure_some_avg10", r.has_pressure ?
				       json_object_new_double(r.pressure / 100.0) : NULL);
		json_object_object_add(o, "scan_pressure", r.mem.has_scan_pressure ?
				       json_object_new_uint64(r.mem.scan_pressure) : NULL);
		json_object_object_add(o, "last", last_json(path));
		json_object_array_add(s->array, o);
		return below;
	}
	if (s->o->quiet)
		return below;	/* errors only: whether the targets resolve */
	snprintf(name, sizeof(name), "%*s%s", 2 * depth, "",
		 cescape(depth ? strrchr(path, '/') + 1 : path, escaped, sizeof(escaped)));
	cell(cur, sizeof(cur), true, r.mem.current);
	cell(swap, sizeof(swap), r.has_swap, r.swap);
	cell(anon, sizeof(anon), true, r.mem.anon);
	cell(file, sizeof(file), true, r.mem.file);
	if (r.has_pressure)
		snprintf(psi, sizeof(psi), "%ld.%02ld%%", r.pressure / 100, r.pressure % 100);
	else
		snprintf(psi, sizeof(psi), "-");
	if (r.mem.has_scan_pressure)
		snprintf(scan, sizeof(scan), "%llu", (unsigned long long)r.mem.scan_pressure);
	else
		snprintf(scan, sizeof(scan), "-");
	last_cell(path, last, sizeof(last));
	printf("%-40s %11s %11s %11s %11s %8s %5s  %s\n", name, cur, swap, anon, file, psi, scan,
	       last);
	return below;
}

int cmd_status(const struct options *o, char **args, int n)
{
	struct status_walk s = { .o = o };
	static char *root_arg[] = { "/" };
	struct cgroot root;
	char err[512];
	int code = EXIT_DONE;

	if (cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", err);
		return EXIT_ERROR;
	}
	if (!n) {
		args = root_arg;
		n = 1;
	}
	if (o->json)
		s.array = json_object_new_array();
	else if (!o->quiet)
		printf("%-40s %11s %11s %11s %11s %8s %5s  %s\n", "CGROUP", "CURRENT", "SWAP",
		       "ANON", "FILE", "PSI10", "SCAN", "LAST");
	for (int i = 0; i < n; i++) {
		struct target_list l = { 0 };

		/* each word on its own: one that names nothing does not hide the others */
		if (target_expand(&root, o->manager, args[i], &l, err, sizeof(err))) {
			target_error(args[i], err);
			code = EXIT_ERROR;
			continue;
		}
		for (int j = 0; j < l.n; j++) {
			int ret = cg_walk(&root, l.t[j].path, status_row, &s);

			if (ret) {
				target_error(args[i], strerror(-ret));
				code = EXIT_ERROR;
			}
		}
		target_list_close(&l);
	}
	if (s.array)
		print_json(s.array);
	cgroot_close(&root);
	return exit_code_worst(code, s.code);
}

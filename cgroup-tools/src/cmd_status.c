// SPDX-License-Identifier: GPL-2.0
/* memtide status: the memory of a cgroup tree, one row per cgroup. */
#include <errno.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <libsmartcols.h>
#include <stdio.h>
#include <stdlib.h>
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
	struct status_columns cols;	/* -o, or the defaults */
	json_object *array;		/* --json: the rows */
	struct libscols_table *table;	/* else: the text table */
	struct libscols_line **parents;	/* the last line at each depth, for the tree */
	int nparents;
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

/* One cell of the text table: a size (in bytes with --bytes), or "-" where there is none */
static void size_cell(const struct options *o, char *buf, size_t len, bool has, uint64_t v)
{
	if (!has)
		snprintf(buf, len, "-");
	else if (o->bytes)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		format_size(v, buf, len);
}

/* Column C of row R of the cgroup at PATH, as text */
static void text_cell(const struct options *o, enum status_column c, const char *path, int depth,
		      const struct row *r, char *buf, size_t len)
{
	char escaped[CESCAPE_SIZE(PATH_MAX)];

	switch (c) {
	case SC_CGROUP:
		/*
		 * the tree shows the parents: a child is named by its last component. Outside a
		 * UTF-8 locale libsmartcols cannot measure a byte from 0x80 up (with its own
		 * encoding off it loops forever): ASCII only there
		 */
		path = depth ? strrchr(path, '/') + 1 : path;
		snprintf(buf, len, "%s", strcmp(nl_langinfo(CODESET), "UTF-8") ?
			 cescape_ascii(path, escaped, sizeof(escaped)) :
			 cescape(path, escaped, sizeof(escaped)));
		break;
	case SC_CURRENT:
		size_cell(o, buf, len, true, r->mem.current);
		break;
	case SC_SWAP:
		size_cell(o, buf, len, r->has_swap, r->swap);
		break;
	case SC_ANON:
		size_cell(o, buf, len, true, r->mem.anon);
		break;
	case SC_FILE:
		size_cell(o, buf, len, true, r->mem.file);
		break;
	case SC_SHMEM:
		size_cell(o, buf, len, true, r->mem.shmem);
		break;
	case SC_PSI10:
		if (r->has_pressure)
			snprintf(buf, len, "%ld.%02ld%%", r->pressure / 100, r->pressure % 100);
		else
			snprintf(buf, len, "-");
		break;
	case SC_SCAN:
		if (r->mem.has_scan_pressure)
			snprintf(buf, len, "%llu", (unsigned long long)r->mem.scan_pressure);
		else
			snprintf(buf, len, "-");
		break;
	default:
		last_cell(path, buf, len);
		break;
	}
}

/* Column C of row R as JSON: a number, or null where there is none */
static json_object *json_cell(enum status_column c, const char *path, const struct row *r)
{
	switch (c) {
	case SC_CGROUP:
		return json_object_new_string(path);
	case SC_CURRENT:
		return json_object_new_uint64(r->mem.current);
	case SC_SWAP:
		return r->has_swap ? json_object_new_uint64(r->swap) : NULL;
	case SC_ANON:
		return json_object_new_uint64(r->mem.anon);
	case SC_FILE:
		return json_object_new_uint64(r->mem.file);
	case SC_SHMEM:
		return json_object_new_uint64(r->mem.shmem);
	case SC_PSI10: {
		char text[32];

		if (!r->has_pressure)
			return NULL;
		/* as the kernel wrote it ("1.50"), not as the double prints (0.28999999999999998) */
		snprintf(text, sizeof(text), "%ld.%02ld", r->pressure / 100, r->pressure % 100);
		return json_object_new_double_s(r->pressure / 100.0, text);
	}
	case SC_SCAN:
		return r->mem.has_scan_pressure ? json_object_new_uint64(r->mem.scan_pressure) :
						  NULL;
	default:
		return last_json(path);
	}
}

/* Room in S->parents for DEPTH, each new slot NULL */
static int parents_reserve(struct status_walk *s, int depth)
{
	if (depth >= s->nparents) {
		int n = depth + 16;
		struct libscols_line **p = realloc(s->parents, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + s->nparents, 0, (n - s->nparents) * sizeof(*p));
		s->parents = p;
		s->nparents = n;
	}
	return 0;
}

/*
 * The text row of the cgroup at PATH: a line of the table, below its parent's. R NULL: its
 * memory.stat could not be read (said on stderr), "-" in every cell but its name. Returns 0,
 * 1 when its parent has no line (its subtree cannot be drawn: skip it), or -ENOMEM.
 */
static int add_line(struct status_walk *s, const char *path, int depth, const struct row *r)
{
	struct libscols_line *parent = depth ? s->parents[depth - 1] : NULL, *line;

	if (depth && !parent)
		return 1;
	line = scols_table_new_line(s->table, parent);
	if (!line)
		return -ENOMEM;
	s->parents[depth] = line;
	for (int i = 0; i < s->cols.n; i++) {
		char cell[PATH_MAX * 4 + 128] = "-";

		if (r || s->cols.c[i] == SC_CGROUP || s->cols.c[i] == SC_LAST)
			text_cell(s->o, s->cols.c[i], path, depth, r, cell, sizeof(cell));
		if (scols_line_set_data(line, i, cell))
			return -ENOMEM;
	}
	return 0;
}

static int status_row(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct status_walk *s = data;
	char err[256];
	struct target t;
	struct row r;
	/* at the last level asked for: print it, and do not walk below */
	int below = s->o->depth >= 0 && depth >= s->o->depth ? CG_WALK_SKIP : 0;
	int ret;

	/* a row without a line must not leave a stale parent for the rows below it */
	if (s->table) {
		if (parents_reserve(s, depth))
			return -ENOMEM;
		s->parents[depth] = NULL;
	}
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
		/* the table keeps the row, "-" for what is unknown, so that its children stay below it */
		if (!s->table)
			return below;
		ret = add_line(s, path, depth, NULL);
		return ret < 0 ? ret : ret ? CG_WALK_SKIP : below;
	}
	if (s->array) {
		json_object *o = json_object_new_object();

		/* which cgroup and where in the tree, whatever the columns */
		json_object_object_add(o, "cgroup", json_object_new_string(path));
		json_object_object_add(o, "depth", json_object_new_int(depth));
		for (int i = 0; i < s->cols.n; i++)
			if (s->cols.c[i] != SC_CGROUP)
				json_object_object_add(o, status_column_key(s->cols.c[i]),
						       json_cell(s->cols.c[i], path, &r));
		json_object_array_add(s->array, o);
		return below;
	}
	if (s->o->quiet)
		return below;	/* errors only: whether the targets resolve */
	ret = add_line(s, path, depth, &r);
	return ret < 0 ? ret : ret ? CG_WALK_SKIP : below;
}

/*
 * The text table, with util-linux's libsmartcols as lsblk prints its own: the tree drawn in
 * the CGROUP column, the columns as wide as their cells, and on a terminal the whole as wide
 * as the terminal where it can be: LAST is cut first, a name never (a row with a long one is
 * wider than the terminal, as in lsblk).
 */
static struct libscols_table *new_table(const struct status_walk *s)
{
	struct libscols_table *tb = scols_new_table();

	if (!tb)
		return NULL;
	scols_table_enable_noheadings(tb, s->o->noheadings);
	/* names come escaped by cescape(), as in every other message: not a second time */
	scols_table_enable_noencoding(tb, 1);
	for (int i = 0; i < s->cols.n; i++) {
		enum status_column c = s->cols.c[i];
		int flags = status_column_numeric(c) ? SCOLS_FL_RIGHT : SCOLS_FL_TRUNC;

		/*
		 * a name is never cut, as lsblk's NAME is not: two docker-<id>.scope cut at the
		 * same width would read the same. The other cells give way, LAST first.
		 */
		if (c == SC_CGROUP)
			flags = SCOLS_FL_TREE | SCOLS_FL_NOEXTREMES;
		if (!scols_table_new_column(tb, status_column_name(c), c == SC_CGROUP ? 0.3 : 0.1,
					    flags)) {
			scols_unref_table(tb);
			return NULL;
		}
	}
	return tb;
}

int cmd_status(const struct options *o, char **args, int n)
{
	struct status_walk s = { .o = o, .cols = o->columns };
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
	if (!s.cols.n && o->json) {
		/* JSON has room for every field */
		for (int c = 0; c < SC_COUNT; c++)
			s.cols.c[s.cols.n++] = c;
	} else if (!s.cols.n) {
		status_columns_default(&s.cols);
	}
	if (o->json)
		s.array = json_object_new_array();
	else if (!o->quiet && !(s.table = new_table(&s))) {
		fprintf(stderr, "memtide: %s\n", strerror(ENOMEM));
		cgroot_close(&root);
		return EXIT_ERROR;
	}
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
	if (s.array) {
		json_object *top = json_object_new_object();

		json_object_object_add(top, "cgroups", s.array);
		print_json(o, top);
	}
	if (s.table) {
		scols_print_table(s.table);
		scols_unref_table(s.table);
	}
	free(s.parents);
	cgroot_close(&root);
	return exit_code_worst(code, s.code);
}

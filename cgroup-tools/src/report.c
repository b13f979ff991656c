// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "parse.h"
#include "report.h"

const char *op_status_name(enum op_status status)
{
	static const char *const names[] = {
		[OP_DONE] = "done", [OP_PARTIAL] = "partial",
		[OP_INTERRUPTED] = "interrupted", [OP_ERROR] = "error",
	};

	return names[status];
}

static uint64_t get(const struct op_result *res, const char *key)
{
	uint64_t v = 0;

	keyed_get(&res->r, key, &v);
	return v;
}

/* "anon 650.0 MiB, file 50.0 MiB": the nonzero parts among KEYS */
static void parts(char *buf, size_t len, const struct op_result *res, const char *const *keys)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; *keys; keys++) {
		uint64_t v;
		char s[32];

		if (!keyed_get(&res->r, *keys, &v) || !v || used >= len)
			continue;
		used += snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "", *keys,
				 format_size(v, s, sizeof(s)));
	}
}

void report_line(FILE *out, const char *cgroup, const struct op_result *res)
{
	static const char *const reclaim_parts[] = { "anon", "file", "slab", NULL };
	static const char *const release_parts[] = { "anon", "shmem", "resident", NULL };
	bool reclaim = !strcmp(res->operation, "reclaim");
	const char *key = reclaim ? "reclaimed" : "released";
	uint64_t requested = get(res, "requested"), elapsed = get(res, "elapsed_us");
	char done_s[32], req_s[32], time_s[32], skip_s[32], dem_s[32], detail[160];
	char name[CESCAPE_SIZE(PATH_MAX)];

	format_size(get(res, key), done_s, sizeof(done_s));
	parts(detail, sizeof(detail), res, reclaim ? reclaim_parts : release_parts);
	/*
	 * The kernel's "demoted" is the part of anon + file that went to a lower memory tier:
	 * reclaimed, as the kernel counts it, but still charged to the cgroup
	 */
	if (reclaim && get(res, "demoted") && detail[0]) {
		size_t used = strlen(detail);

		snprintf(detail + used, sizeof(detail) - used, "; %s of it demoted, still charged",
			 format_size(get(res, "demoted"), dem_s, sizeof(dem_s)));
	}
	fprintf(out, "%s: %s %s%s", cescape(cgroup, name, sizeof(name)), key,
		res->approximate ? "~" : "", done_s);
	if (requested != AMOUNT_MAX)
		fprintf(out, " of %s", format_size(requested, req_s, sizeof(req_s)));
	if (detail[0])
		fprintf(out, " (%s)", detail);
	if (elapsed)
		fprintf(out, " in %s", format_duration(elapsed, time_s, sizeof(time_s)));
	switch (res->status) {
	case OP_PARTIAL:
		if (!reclaim && get(res, "no_room"))
			fprintf(out, "; partial: no room left below memory.high, memory.max or in RAM");
		else if (!reclaim && get(res, "skipped"))
			/* the kernel's "skipped": found, but a page table outside still holds it */
			fprintf(out, "; partial: %s stayed in swap (held by processes outside "
				"the cgroup)",
				format_size(get(res, "skipped"), skip_s, sizeof(skip_s)));
		else if (get(res, "skipped_processes"))
			/* a stock release: the note names them */
			fprintf(out, "; partial: %" PRIu64 " %s skipped (no ptrace access)",
				get(res, "skipped_processes"),
				get(res, "skipped_processes") == 1 ? "process" : "processes");
		else
			fprintf(out, "; partial: the kernel found no more to %s", res->operation);
		break;
	case OP_INTERRUPTED:
		fprintf(out, "; interrupted");
		break;
	default:
		break;
	}
	fputc('\n', out);
}

json_object *report_json(const char *target, const char *cgroup, const struct op_result *res)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "target", json_object_new_string(target));
	json_object_object_add(o, "cgroup", cgroup ? json_object_new_string(cgroup) : NULL);
	json_object_object_add(o, "operation", json_object_new_string(res->operation));
	json_object_object_add(o, "status", json_object_new_string(op_status_name(res->status)));
	json_object_object_add(o, "approximate", json_object_new_boolean(res->approximate));
	for (int i = 0; i < res->r.n; i++) {
		uint64_t v = res->r.kv[i].value;

		char max_key[sizeof(res->r.kv[i].key) + 4];

		/* one type per field: a number, or null with KEY_max where the kernel says "max" */
		json_object_object_add(o, res->r.kv[i].key, v == AMOUNT_MAX ? NULL :
				       json_object_new_uint64(v));
		if (v == AMOUNT_MAX) {
			snprintf(max_key, sizeof(max_key), "%s_max", res->r.kv[i].key);
			json_object_object_add(o, max_key, json_object_new_boolean(true));
		}
	}
	if (res->freezer_retries)
		json_object_object_add(o, "freezer_retries",
				       json_object_new_int(res->freezer_retries));
	if (res->status == OP_ERROR)
		json_object_object_add(o, "error", json_object_new_string(res->message));
	else if (res->message[0])
		json_object_object_add(o, "note", json_object_new_string(res->message));
	return o;
}

void print_json(const struct options *o, json_object *obj)
{
	/* indented for a person at a terminal; one line for a program, as lsblk --json */
	int flags = o->json_pretty || isatty(STDOUT_FILENO) ?
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN;

	puts(json_object_to_json_string_ext(obj, flags | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
}

void print_warning(const char *warning)
{
	char line[CESCAPE_SIZE(PATH_MAX)];

	/* a warning may quote a unit's name, which is a cgroup's */
	fprintf(stderr, "memtide: warning: %s\n", cescape(warning, line, sizeof(line)));
}

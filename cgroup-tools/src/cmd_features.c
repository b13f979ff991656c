// SPDX-License-Identifier: GPL-2.0
/* memtide features: what this kernel offers, and what memtide does where it does not. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"

struct feature_row {
	const char *name;
	bool present;
	const char *detail;		/* what it offers (when present) */
	const char *instead;		/* what memtide does without it */
};

static bool have_process_madvise(void)
{
	/* an invalid pidfd: EBADF where the call exists */
	return syscall(SYS_process_madvise, -1, NULL, 0, MADV_WILLNEED, 0) < 0 && errno == EBADF;
}

int cmd_features(const struct options *o)
{
	struct features f;
	struct utsname u;
	int ret = features_load(&f);

	if (ret) {
		fprintf(stderr, "memtide: %s: %s\n", FEATURES_FILE, strerror(-ret));
		return EXIT_ERROR;
	}
	uname(&u);
	const struct feature_row rows[] = {
		{ "memory.reclaim read-back", f.reclaim_readback, f.reclaim_keys,
		  "amounts estimated from memory.stat and marked approximate" },
		{ "memory.reclaim max", f.reclaim_max, "reclaim all that can be",
		  "asks for memory.current and takes running out as done" },
		{ "memory.reclaim swappiness=max", f.swappiness_max, "anonymous memory only",
		  f.present ? "--swappiness max is refused" :
			      "unknown on a stock kernel (Linux 6.16 and later have it): tried" },
		{ "memory.release", f.release, f.release_keys,
		  "process_madvise(MADV_WILLNEED) over the cgroup's processes; unmapped shmem is not covered" },
		{ "process_madvise(MADV_WILLNEED)", have_process_madvise(), "release fallback",
		  "release is not possible" },
	};
	int n = sizeof(rows) / sizeof(rows[0]);

	if (o->json) {
		json_object *obj = json_object_new_object(), *list = json_object_new_object();

		json_object_object_add(obj, "kernel", json_object_new_string(u.release));
		json_object_object_add(obj, "memtide_kernel", json_object_new_boolean(f.present));
		for (int i = 0; i < n; i++)
			json_object_object_add(list, rows[i].name,
					       json_object_new_boolean(rows[i].present));
		json_object_object_add(obj, "features", list);
		print_json(obj);
		return EXIT_DONE;
	}
	if (o->quiet)
		return EXIT_DONE;	/* errors only: whether the feature list reads */
	printf("kernel %s: %s\n", u.release, f.present ?
	       "memtide (" FEATURES_FILE ")" : "stock (no " FEATURES_FILE ")");
	for (int i = 0; i < n; i++)
		printf("  %-32s %s: %s\n", rows[i].name, rows[i].present ? "yes" : "no ",
		       rows[i].present ? rows[i].detail : rows[i].instead);
	return EXIT_DONE;
}

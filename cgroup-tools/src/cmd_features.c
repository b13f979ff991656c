// SPDX-License-Identifier: GPL-2.0
/*
 * memtide features: what this kernel offers, and what memtide does where it does not.
 *
 * The memtide kernel says what it offers (FEATURES_FILE). A stock kernel does not: then
 * what can be seen from outside decides (the root cgroup's files, the release) and the
 * rest is "unknown", never "no": a kernel newer than the queue's base, 6.12, may have
 * anything memtide's patches add, and a distribution's 6.12 no more than mainline's.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "commands.h"
#include "report.h"

/* the kernel the patch queue applies to; no stock kernel up to it has memtide's features */
#define BASE_MAJOR 6
#define BASE_MINOR 12
/* mainline's memory.reclaim takes swappiness=max from 6.16 */
#define SWAPPINESS_MAX_MINOR 16

enum state { NO, YES, UNKNOWN };

static const char *const state_name[] = { "no", "yes", "unknown" };

struct feature_row {
	const char *name;
	const char *key;		/* its key in --json: short, no spaces */
	enum state state;
	const char *detail;		/* what it offers (when present) */
	const char *instead;		/* what memtide does without it, or not knowing */
};

static bool have_process_madvise(void)
{
	/* an invalid pidfd: EBADF where the call exists */
	return syscall(SYS_process_madvise, -1, NULL, 0, MADV_WILLNEED, 0) < 0 && errno == EBADF;
}

/*
 * uname -r into BUF: $MEMTIDE_PROC_ROOT/sys/kernel/osrelease when set (tests), else
 * uname(2); "?" when it cannot be read or is empty
 */
static void kernel_release(char *buf, size_t size)
{
	const char *proc = getenv("MEMTIDE_PROC_ROOT");
	char path[PATH_MAX];
	struct utsname u;
	FILE *f;

	snprintf(buf, size, "?");
	if (!proc) {
		if (!uname(&u))
			snprintf(buf, size, "%s", u.release);
		return;
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/osrelease", proc);
	f = fopen(path, "re");
	if (f && fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
	if (!*buf)
		snprintf(buf, size, "?");
}

/*
 * Whether RELEASE ("6.12.117-...") is MAJOR.MINOR or older: YES, NO, or UNKNOWN when it
 * does not parse (then it is neither old nor new).
 */
static enum state release_at_most(const char *release, int major, int minor)
{
	int ma, mi;

	if (sscanf(release, "%d.%d", &ma, &mi) != 2)
		return UNKNOWN;
	return ma < major || (ma == major && mi <= minor) ? YES : NO;
}

/* Whether the root cgroup's FILE is there and no one may read it (a write-only file). */
static bool write_only(const struct cgroot *root, const char *file)
{
	struct stat st;

	return !fstatat(root->fd, file, &st, 0) && !(st.st_mode & 0444);
}

int cmd_features(const struct options *o)
{
	struct features f;
	struct cgroot root;
	char release[256], err[512];
	enum state readback, max, swappiness_max, release_file;
	int ret = features_load(&f);

	if (ret) {
		fprintf(stderr, "memtide: %s: %s\n", FEATURES_FILE, strerror(-ret));
		return EXIT_ERROR;
	}
	/* no memory controller on cgroup2: nothing memtide does works, as every command says */
	if (cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", err);
		return EXIT_ERROR;
	}
	kernel_release(release, sizeof(release));
	if (f.present) {
		readback = f.reclaim_readback ? YES : NO;
		max = f.reclaim_max ? YES : NO;
		swappiness_max = f.swappiness_max ? YES : NO;
		release_file = f.release ? YES : NO;
	} else {
		bool base = release_at_most(release, BASE_MAJOR, BASE_MINOR) == YES;

		/* a write-only memory.reclaim has nothing to read back */
		readback = base || write_only(&root, "memory.reclaim") ? NO : UNKNOWN;
		max = base ? NO : UNKNOWN;
		swappiness_max = base ? NO : UNKNOWN;
		if (release_at_most(release, BASE_MAJOR, SWAPPINESS_MAX_MINOR - 1) == NO)
			swappiness_max = YES;
		/* the file exists in every cgroup, the root's too, where the kernel has it */
		release_file = faccessat(root.fd, "memory.release", F_OK, 0) ? NO : YES;
	}
	cgroot_close(&root);

	const struct feature_row rows[] = {
		{ "memory.reclaim read-back", "reclaim_readback", readback, f.reclaim_keys,
		  "amounts estimated from memory.stat and marked approximate" },
		{ "memory.reclaim max", "reclaim_max", max, "reclaim all that can be",
		  "asks for memory.current and takes running out as done" },
		{ "memory.reclaim swappiness=max", "reclaim_swappiness_max", swappiness_max, "anonymous memory only",
		  f.present ? "--swappiness max is refused" :
			      "--swappiness max is tried; a kernel without it refuses the write" },
		{ "memory.release", "release", release_file, f.present ? f.release_keys : "no read-back",
		  "process_madvise(MADV_WILLNEED) over the cgroup's processes; unmapped shmem is not covered" },
		{ "process_madvise(MADV_WILLNEED)", "process_madvise_willneed",
		  have_process_madvise() ? YES : NO,
		  "release fallback", "release is not possible" },
	};
	int n = sizeof(rows) / sizeof(rows[0]);

	if (o->json) {
		json_object *obj = json_object_new_object(), *list = json_object_new_object();

		json_object_object_add(obj, "kernel", json_object_new_string(release));
		json_object_object_add(obj, "memtide_kernel", json_object_new_boolean(f.present));
		/* null: this kernel does not say, and memtide cannot tell from outside */
		for (int i = 0; i < n; i++)
			json_object_object_add(list, rows[i].key, rows[i].state == UNKNOWN ? NULL :
					       json_object_new_boolean(rows[i].state == YES));
		json_object_object_add(obj, "features", list);
		print_json(o, obj);
		return EXIT_DONE;
	}
	if (o->quiet)
		return EXIT_DONE;	/* errors only: whether the feature list reads */
	printf("kernel %s: %s\n", release, f.present ?
	       "memtide (" FEATURES_FILE ")" : "stock (no " FEATURES_FILE ")");
	for (int i = 0; i < n; i++) {
		char label[16];

		snprintf(label, sizeof(label), "%s:", state_name[rows[i].state]);
		printf("  %-32s %-8s %s\n", rows[i].name, label,
		       rows[i].state == YES ? rows[i].detail : rows[i].instead);
	}
	return EXIT_DONE;
}

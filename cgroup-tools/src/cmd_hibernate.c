// SPDX-License-Identifier: GPL-2.0
/*
 * memtide hibernate / resume: shrink the cgroups the policy marks (plan.h), hibernate, and
 * after resume release them in priority order, so that the interactive ones are at full
 * speed first instead of waiting behind demand paging.
 *
 * Under systemd, `memtide hibernate` is `systemctl hibernate`: the sleep hook
 * (system-sleep/memtide) runs `memtide hibernate --prepare-only` before and `memtide resume`
 * after. Without systemd, memtide writes "disk" to /sys/power/state itself, and the write
 * returns after resume.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "parse.h"
#include "plan.h"
#include "report.h"
#include "state.h"
#include "watch.h"

static void print_plan(const struct options *o, const struct plan *plan, const int *order,
		       int n)
{
	if (o->json) {
		json_object *obj = json_object_new_object(), *shrink = json_object_new_array();
		json_object *kept = json_object_new_array();

		for (int i = 0; i < n; i++) {
			const struct plan_entry *e = &plan->e[order[i]];
			json_object *entry = json_object_new_object();

			json_object_object_add(entry, "cgroup", json_object_new_string(e->path));
			json_object_object_add(entry, "release_priority",
					       json_object_new_int(e->policy.release_priority));
			json_object_array_add(shrink, entry);
		}
		for (int i = 0; i < plan->n; i++)
			if (plan->e[i].kept)
				json_object_array_add(kept, json_object_new_string(plan->e[i].path));
		json_object_object_add(obj, "shrink_then_release", shrink);
		json_object_object_add(obj, "kept", kept);
		print_json(obj);
		return;
	}
	char name[CESCAPE_SIZE(PATH_MAX)];

	printf("shrink before hibernation, release after resume in this order:\n");
	for (int i = 0; i < n; i++)
		printf("  %-48s priority %d\n", cescape(plan->e[order[i]].path, name, sizeof(name)),
		       plan->e[order[i]].policy.release_priority);
	for (int i = 0; i < plan->n; i++)
		if (plan->e[i].kept)
			printf("kept by its [X-Memtide] policy: %s\n",
			       cescape(plan->e[i].path, name, sizeof(name)));
}

/* Shrink each planned cgroup whole (memory.reclaim max); the worst exit code. */
static int prepare(const struct options *o, const struct plan *plan, const int *order, int n)
{
	struct options reclaim = *o;
	char **paths = calloc(n ? n : 1, sizeof(*paths));
	int *priorities = calloc(n ? n : 1, sizeof(*priorities));
	char *args[1];
	int code = EXIT_DONE;

	if (!paths || !priorities) {
		free(paths);
		free(priorities);
		return EXIT_ERROR;
	}
	reclaim.amount = AMOUNT_MAX;
	reclaim.json = false;
	for (int i = 0; i < n; i++) {
		paths[i] = (char *)plan->e[order[i]].path;
		priorities[i] = plan->e[order[i]].policy.release_priority;
	}
	/*
	 * Recorded first, for `memtide resume` from the sleep hook: a resume after a prepare cut
	 * short still releases what was shrunk. Without the record only memtide's own
	 * hibernation (no systemd) releases, from memory.
	 */
	if (state_save_prepared(paths, priorities, n) && !o->quiet)
		fprintf(stderr, "memtide: warning: cannot record what is shrunk; `memtide resume` will not release it\n");
	for (int i = 0; i < n && code != EXIT_INTERRUPTED; i++) {
		args[0] = paths[i];
		code = exit_code_worst(code, cmd_operate(&reclaim, "reclaim", args, 1));
	}
	free(paths);
	free(priorities);
	return code;
}

/* Whether systemd runs the machine (sd_booted()'s test); $MEMTIDE_POWER_STATE says no. */
static bool systemd_running(void)
{
	struct stat st;

	return !getenv("MEMTIDE_POWER_STATE") && !lstat("/run/systemd/system", &st) &&
	       S_ISDIR(st.st_mode);
}

/*
 * Hibernate. Under systemd through `systemctl hibernate` (returns 1: the sleep hook
 * prepares and releases); else by writing "disk" to /sys/power/state, which returns 0 after
 * resume.
 */
static int hibernate_now(const struct options *o)
{
	const char *state = getenv("MEMTIDE_POWER_STATE");
	int fd, ret = 0;

	if (systemd_running()) {
		pid_t pid = fork();
		int status;

		if (pid == 0) {
			execlp("systemctl", "systemctl", "hibernate", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "memtide: systemctl hibernate failed\n");
			return -EIO;
		}
		return 1;	/* the sleep hook releases after resume */
	}
	fd = open(state ? state : "/sys/power/state", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "disk", 4) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	if (ret)
		fprintf(stderr, "memtide: %s: %s\n", state ? state : "/sys/power/state",
			strerror(-ret));
	return ret;
}

/* Release PATHS in their order (the release order); the worst exit code. */
static int release_in_order(const struct options *o, char **paths, int n)
{
	struct options release = *o;
	int code = EXIT_DONE;

	release.amount = AMOUNT_MAX;
	release.json = false;
	for (int i = 0; i < n && code != EXIT_INTERRUPTED; i++)
		code = exit_code_worst(code, cmd_operate(&release, "release", &paths[i], 1));
	return code;
}

int cmd_resume(const struct options *o)
{
	char **paths = NULL;
	int n = state_load_prepared(&paths), code;

	if (n == -ENOENT) {
		if (!o->quiet)
			printf("nothing to release: no hibernation prepared by memtide\n");
		return EXIT_DONE;
	}
	if (n < 0) {
		fprintf(stderr, "memtide: cannot read the prepared list: %s\n", strerror(-n));
		return EXIT_ERROR;
	}
	code = release_in_order(o, paths, n);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	if (code != EXIT_INTERRUPTED)
		state_clear_prepared();
	return code;
}

int cmd_hibernate(const struct options *o)
{
	struct cgroot root;
	struct plan plan;
	char err[512];
	int *order, n, code, ret;

	if (cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", err);
		return EXIT_ERROR;
	}
	ret = plan_build(&root, PLAN_HIBERNATE, &plan, print_warning);
	cgroot_close(&root);
	if (ret) {
		fprintf(stderr, "memtide: cannot read the cgroup tree: %s\n", strerror(-ret));
		return EXIT_ERROR;
	}
	order = calloc(plan.n ? plan.n : 1, sizeof(*order));
	if (!order) {
		plan_free(&plan);
		return EXIT_ERROR;
	}
	n = plan_release_order(&plan, order);
	if (o->dry_run) {
		print_plan(o, &plan, order, n);
		code = EXIT_DONE;
		goto out;
	}
	if (!o->prepare_only && systemd_running()) {
		/* the sleep hook shrinks before and releases after, as for any hibernation */
		code = hibernate_now(o) < 0 ? EXIT_ERROR : EXIT_DONE;
		goto out;
	}
	code = prepare(o, &plan, order, n);
	if (o->prepare_only || code == EXIT_INTERRUPTED)
		goto out;
	ret = hibernate_now(o);
	if (ret < 0) {
		code = EXIT_ERROR;
	} else if (ret == 0) {
		/* back from hibernation: release from the plan in memory, recorded or not */
		char **paths = calloc(n ? n : 1, sizeof(*paths));

		for (int i = 0; paths && i < n; i++)
			paths[i] = plan.e[order[i]].path;
		code = paths ? exit_code_worst(code, release_in_order(o, paths, n)) : EXIT_ERROR;
		free(paths);
		state_clear_prepared();
	}
out:
	free(order);
	plan_free(&plan);
	return code;
}

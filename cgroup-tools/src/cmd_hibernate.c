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
#include <sys/wait.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "commands.h"
#include "op_session.h"
#include "output.h"
#include "parse.h"
#include "plan.h"
#include "report.h"
#include "state.h"
#include "stop.h"

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
		print_json(o, obj);
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

/*
 * Reclaim (RECLAIM) or release each of PATHS whole, in their order, in one session, saying
 * what each did; until a stop is asked for. A release that is over, well or not, takes its
 * cgroup off the prepared list; one a stop cut short leaves it there. The worst exit code.
 */
static int shrink_or_release(const struct options *o, char **paths, int n, bool reclaim)
{
	const struct op_request req = op_request_of(o, AMOUNT_MAX);
	struct options shown = *o;
	struct op_session s;
	struct op_result res;
	char err[512];
	int code = EXIT_DONE;
	struct said said = { "" };

	if (op_session_open(&s, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", err);
		op_session_close(&s);
		return EXIT_ERROR;
	}
	shown.json = false;
	stop_install();
	for (int i = 0; i < n && !stop_requested(); i++) {
		op_session_run(&s, &req, paths[i], reclaim, &res);
		report_result(&shown, paths[i], paths[i], &res, NULL, &said);
		if (!reclaim && res.status != OP_INTERRUPTED)
			state_prepared_done(paths[i]);
		code = exit_code_worst(code, op_exit_code(&res, 1));
	}
	op_session_close(&s);
	return code;
}

/* Shrink each planned cgroup whole (memory.reclaim max); the worst exit code. */
static int prepare(const struct options *o, const struct plan *plan, const int *order, int n)
{
	char **paths = calloc(n ? n : 1, sizeof(*paths));
	int *priorities = calloc(n ? n : 1, sizeof(*priorities));
	int code;

	if (!paths || !priorities) {
		free(paths);
		free(priorities);
		return EXIT_ERROR;
	}
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
	/* a stop is for the whole flow; the merged code may say error, not interrupted */
	code = shrink_or_release(o, paths, n, true);
	free(paths);
	free(priorities);
	return code;
}

/*
 * Whether systemd runs the machine (sd_booted()); $MEMTIDE_POWER_STATE says no.
 * $MEMTIDE_SYSTEMD=1 says yes whatever the rest: for tests only (tests/test_hibernate.c),
 * which check the refusal with the sleep hook off without a systemd to run.
 */
static bool systemd_running(void)
{
	const char *fake = getenv("MEMTIDE_SYSTEMD");

	if (fake && !strcmp(fake, "1"))
		return true;
	return !getenv("MEMTIDE_POWER_STATE") && sd_booted() > 0;
}

/* The sleep hook's switch file: SLEEP_HOOK_SWITCH, or $MEMTIDE_SLEEP_SWITCH for tests */
static const char *sleep_switch(void)
{
	const char *path = getenv("MEMTIDE_SLEEP_SWITCH");

	return path ? path : SLEEP_HOOK_SWITCH;
}

/* Strip a pair of Q around V (of length *LEN), as the hook's sed does */
static char *unquote(char *v, size_t *len, char q)
{
	if (*len >= 2 && v[0] == q && v[*len - 1] == q) {
		v[--*len] = '\0';
		(*len)--;
		return v + 1;
	}
	return v;
}

/*
 * The value of LINE if it sets SLEEP_HOOK as a shell reads an /etc/default file:
 * "[export ]SLEEP_HOOK=VALUE", VALUE maybe in quotes, a "# comment" after a blank. As the
 * sleep hook's sed reads it (systemd/memtide.sleep.in). NULL if LINE sets something else.
 */
static char *sleep_hook_value(char *line)
{
	char *v = line + strspn(line, " \t\r\f\v");
	size_t len, blank;

	if (!strncmp(v, "export", 6) && strchr(" \t", v[6]) && v[6])
		v += 6 + strspn(v + 6, " \t\r\f\v");
	if (strncmp(v, "SLEEP_HOOK=", 11))
		return NULL;
	v += 11;
	v[strcspn(v, "\n")] = '\0';
	for (char *c = v; (c = strchr(c, '#')); c++) {
		for (blank = 0; c - blank > v && strchr(" \t\r\f\v", c[-blank - 1]); blank++)
			;
		if (blank) {
			c[-blank] = '\0';
			break;
		}
	}
	len = strlen(v);
	while (len && strchr(" \t\r\f\v", v[len - 1]))
		v[--len] = '\0';
	v = unquote(v, &len, '"');
	return unquote(v, &len, '\'');
}

/* Whether the sleep hook is on: the last SLEEP_HOOK= of sleep_switch() says yes. */
bool sleep_hook_on(void)
{
	char line[256], *value;
	bool on = false;
	FILE *f = fopen(sleep_switch(), "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if ((value = sleep_hook_value(line)))
			on = !strcmp(value, "yes");
	fclose(f);
	return on;
}

/*
 * Hibernate through logind, as `systemctl hibernate` asks it: Hibernate(interactive false)
 * on the system bus. Returns 1 once logind took it (it hibernates on its own); -EPERM with
 * WHY where systemctl 252 gives up too (logind says the machine cannot hibernate, or a
 * sleep is already under way); 0 for any other failure (no bus, no logind, an error of the
 * transport or of its activation): the caller then runs systemctl, which starts
 * hibernate.target itself in those cases.
 */
static int logind_hibernate(char *why, size_t len)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus *bus = NULL;
	int ret = sd_bus_open_system(&bus);

	if (ret >= 0)
		ret = sd_bus_call_method(bus, "org.freedesktop.login1", "/org/freedesktop/login1",
					 "org.freedesktop.login1.Manager", "Hibernate", &error,
					 NULL, "b", 0);
	if (ret >= 0) {
		ret = 1;
	} else if (sd_bus_error_has_names(&error, "org.freedesktop.login1.SleepVerbNotSupported",
					  "org.freedesktop.login1.OperationInProgress")) {
		snprintf(why, len, "logind refused to hibernate: %s",
			 error.message ? error.message : error.name);
		ret = -EPERM;
	} else {
		ret = 0;
	}
	sd_bus_error_free(&error);
	sd_bus_flush_close_unref(bus);
	return ret;
}

/*
 * Hibernate. Under systemd through logind, or `systemctl hibernate` where no logind answers
 * (returns 1: the sleep hook prepares and releases); else by writing "disk" to
 * /sys/power/state, which returns 0 after resume. On failure, writes why to WHY and returns
 * -errno.
 */
static int hibernate_now(char *why, size_t len)
{
	const char *state = getenv("MEMTIDE_POWER_STATE");
	int fd, ret = 0;

	if (systemd_running()) {
		pid_t pid;
		int status;

		ret = logind_hibernate(why, len);
		if (ret)
			return ret;
		pid = fork();
		if (pid == 0) {
			execlp("systemctl", "systemctl", "hibernate", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			snprintf(why, len, "systemctl hibernate failed");
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
		snprintf(why, len, "%s: %s", state ? state : "/sys/power/state", strerror(-ret));
	return ret;
}

/*
 * Release PATHS in their order (the release order); the worst exit code. A release that
 * is over, well or not, leaves the prepared list; one a stop cut short stays on it.
 */
static int release_prepared(const struct options *o, char **paths, int n)
{
	struct options release = *o;
	int code;

	/*
	 * After resume, a stop asked for before (a --timeout that passed while the machine
	 * was off) is not one for the release, which has a --timeout of its own.
	 */
	stop_clear();
	if (o->timeout_us)
		release.deadline_us = now_us() + o->timeout_us;
	code = shrink_or_release(&release, paths, n, false);
	if (stop_requested())
		fprintf(stderr, "memtide: stopped; `memtide resume` releases the rest\n");
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
	code = release_prepared(o, paths, n);
	for (int i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return code;
}

int cmd_hibernate(const struct options *o)
{
	struct cgroot root;
	struct plan plan;
	char err[512], **paths;
	int *order, n, code, ret;

	if (!o->dry_run && !o->prepare_only && systemd_running()) {
		/*
		 * The sleep hook shrinks before and releases after, as for any hibernation:
		 * no plan here
		 */
		if (!sleep_hook_on()) {
			fprintf(stderr, "memtide: the sleep hook is off (SLEEP_HOOK=yes in %s turns it on); not hibernating\n",
				sleep_switch());
			return EXIT_ERROR;
		}
		/* where the hook could shrink nothing (cgroup v1, no mount), say so now */
		if (cgroot_open(&root, err, sizeof(err))) {
			fprintf(stderr, "memtide: %s\n", err);
			return EXIT_ERROR;
		}
		cgroot_close(&root);
		if (hibernate_now(err, sizeof(err)) < 0) {
			fprintf(stderr, "memtide: %s\n", err);
			return EXIT_ERROR;
		}
		return EXIT_DONE;
	}
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
	code = prepare(o, &plan, order, n);
	if (o->prepare_only)
		goto out;
	if (stop_requested()) {
		/* asked to stop: never hibernate, whatever else went wrong first */
		fprintf(stderr, "memtide: stopped before hibernating; `memtide resume` releases what was shrunk\n");
		goto out;
	}
	ret = hibernate_now(err, sizeof(err));
	if (ret > 0)
		goto out;
	/*
	 * Back from hibernation, or it failed and the slices were shrunk for nothing: either
	 * way release them, from the plan in memory, recorded or not.
	 */
	paths = calloc(n ? n : 1, sizeof(*paths));
	if (!paths) {
		code = EXIT_ERROR;
		goto out;
	}
	for (int i = 0; i < n; i++)
		paths[i] = plan.e[order[i]].path;
	code = exit_code_worst(code, release_prepared(o, paths, n));
	free(paths);
	if (ret < 0) {
		fprintf(stderr, "memtide: hibernation failed: %s%s\n", err,
			stop_requested() ? "" : "; what was shrunk is released");
		code = EXIT_ERROR;
	}
out:
	free(order);
	plan_free(&plan);
	return code;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * memtide idle: the seed's idle-time shrinking as a daemon. Every --interval it looks at
 * the cgroups whose policy says Shrink=idle (plan.h), and for each:
 *   - active (cpu.stat usage_usec grew by more than 1% of the interval) or under memory
 *     pressure (memory.pressure some avg10 above 10%): its idle time starts again;
 *   - idle for its IdleThreshold: reclaim ("max"), at most one interval at a time, so that
 *     activity coming back stops it within an interval; once the kernel finds nothing more
 *     to take, it is left alone until it has been active again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "parse.h"
#include "plan.h"
#include "report.h"
#include "watch.h"

#define ACTIVE_PERMILLE 10		/* CPU use above 1% of the interval is activity */
#define PRESSURE_BACKOFF 1000		/* some avg10 above 10.00% is pressure */
#define MAX_TRACKED 256

struct tracked {
	char path[PATH_MAX];
	uint64_t last_usage_us;		/* cpu.stat usage_usec at the last look */
	uint64_t idle_us;
	bool seen, drained;		/* drained: nothing more to reclaim until active again */
};

static void warn_line(const char *warning)
{
	fprintf(stderr, "memtide: warning: %s\n", warning);
}

static struct tracked *track(struct tracked *t, int *n, const char *path)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(t[i].path, path))
			return &t[i];
	if (*n == MAX_TRACKED)
		return NULL;
	memset(&t[*n], 0, sizeof(t[*n]));
	snprintf(t[*n].path, sizeof(t[*n].path), "%s", path);
	return &t[(*n)++];
}

/* One look at one candidate; reclaims when it has been idle long enough. */
static void look(const struct options *o, const struct cgroot *root, const struct features *f,
		 const struct plan_entry *e, struct tracked *tr)
{
	struct op_result res;
	struct kresult cpu;
	struct target t;
	char err[256], idle_s[32];
	uint64_t usage = 0;
	long pressure = 0;
	bool active;

	if (target_open_path(root, e->path, &t, err, sizeof(err)))
		return;
	if (cg_read_keyed(&t, "cpu.stat", &cpu) || !kresult_get(&cpu, "usage_usec", &usage)) {
		target_close(&t);
		return;		/* cannot tell activity: never shrink blind */
	}
	active = tr->seen && (usage - tr->last_usage_us) * 1000 > o->interval_us * ACTIVE_PERMILLE;
	if (!cg_read_pressure(&t, &pressure) && pressure > PRESSURE_BACKOFF)
		active = true;
	if (!tr->seen || active) {
		tr->idle_us = 0;
		tr->drained = false;
	} else {
		tr->idle_us += o->interval_us;
	}
	tr->seen = true;
	tr->last_usage_us = usage;
	if (tr->drained || tr->idle_us < e->policy.idle_threshold_us) {
		target_close(&t);
		return;
	}
	struct options step = *o;

	step.amount = AMOUNT_MAX;
	step.swappiness = -1;
	step.progress = false;
	step.deadline_us = now_us() + o->interval_us;
	op_reclaim(&step, f, &t, &res);
	stop_clear_deadline();
	tr->drained = res.status == OP_DONE || res.status == OP_PARTIAL;
	if (res.status == OP_ERROR) {
		target_error(e->path, res.message);
		tr->drained = true;	/* do not retry what fails every time */
	} else if (!o->quiet) {
		printf("idle %s: ", format_duration(tr->idle_us, idle_s, sizeof(idle_s)));
		report_line(stdout, e->path, &res);
		fflush(stdout);
	}
	/* the reclaim's own CPU time is not the workload's */
	if (!cg_read_keyed(&t, "cpu.stat", &cpu))
		kresult_get(&cpu, "usage_usec", &tr->last_usage_us);
	target_close(&t);
}

int cmd_idle(const struct options *o)
{
	struct tracked *tracked = calloc(MAX_TRACKED, sizeof(*tracked));
	struct features f;
	struct cgroot root;
	char err[512];
	int ntracked = 0, ret;

	if (!tracked)
		return EXIT_ERROR;
	ret = features_load(&f);
	if (ret || cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", ret ? strerror(-ret) : err);
		free(tracked);
		return EXIT_ERROR;
	}
	stop_install();
	for (long round = 0; !o->count || round < o->count; round++) {
		struct plan plan;
		uint64_t next = now_us() + o->interval_us;

		if (plan_build(&root, PLAN_IDLE, &plan, warn_line) == 0) {
			for (int i = 0; i < plan.n && !stop_requested(); i++) {
				struct tracked *tr;

				if (!plan.e[i].shrink || !(tr = track(tracked, &ntracked, plan.e[i].path)))
					continue;
				look(o, &root, &f, &plan.e[i], tr);
			}
			plan_free(&plan);
		}
		while (!stop_requested() && now_us() < next)
			usleep(next - now_us() > 100000 ? 100000 : next - now_us());
		if (stop_requested())
			break;
	}
	cgroot_close(&root);
	free(tracked);
	return EXIT_DONE;	/* SIGTERM is how a daemon is asked to stop */
}

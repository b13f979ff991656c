// SPDX-License-Identifier: GPL-2.0
/*
 * memtide idle: the seed's idle-time shrinking as a daemon. Every --interval it looks at
 * the cgroups whose policy says Shrink=idle (plan.h), and for each:
 *   - active (cpu.stat usage_usec grew by more than 1% of the time since the last look) or
 *     under memory pressure (memory.pressure some avg10 above 10%, or, on memtide kernels,
 *     memory.stat scan_pressure above 100 of 1000: its own limits make reclaim scan deeper
 *     than a light pass, so something in it is still allocating): its idle time starts
 *     again;
 *   - idle for its IdleThreshold: reclaim ("max"), at most one interval at a time, so that
 *     activity coming back stops it within an interval; once the kernel finds nothing more
 *     to take, it is left alone until it has been active again.
 * It says which cgroups it watches as they come and go, and, under systemd
 * (memtide-idle.service is Type=notify), READY=1 once it has read the policy and looked
 * at each candidate once, then a STATUS= line per round.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "dropin_cache.h"
#include "output.h"
#include "parse.h"
#include "plan.h"
#include "report.h"
#include "stop.h"

#define ACTIVE_PERMILLE 10		/* CPU use above 1% of the time is activity */
#define PRESSURE_BACKOFF 1000		/* some avg10 above 10.00% is pressure */
#define SCAN_PRESSURE_BACKOFF 100	/* and so is memory.stat scan_pressure above 100 */

struct tracked {
	char path[PATH_MAX];
	uint64_t last_usage_us;		/* cpu.stat usage_usec at the last look */
	uint64_t last_look_us;		/* now_us() then */
	uint64_t idle_us;
	bool drained;			/* nothing more to reclaim until active again */
	bool shrunk;			/* drained by a reclaim that did not fail */
	bool warned;			/* said once that its files cannot be read */
	bool in_plan;			/* still a candidate this round */
};

struct tracker {
	struct tracked *t;
	int n, cap;
};

/* The record of PATH, made on its first look (usage unknown until then). */
static struct tracked *track(struct tracker *tr, const char *path, bool *first)
{
	struct tracked *t;

	for (int i = 0; i < tr->n; i++) {
		if (!strcmp(tr->t[i].path, path)) {
			*first = false;
			return &tr->t[i];
		}
	}
	if (tr->n == tr->cap) {
		struct tracked *bigger = realloc(tr->t, (tr->cap = tr->cap ? 2 * tr->cap : 32) *
						 sizeof(*bigger));

		if (!bigger)
			return NULL;
		tr->t = bigger;
	}
	t = &tr->t[tr->n++];
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	*first = true;
	return t;
}

/* "watching PATH ..." or "no longer watching PATH": the daemon's log says what it acts on */
static void say_watch(const struct options *o, const char *what, const char *path,
		      const char *after)
{
	char name[CESCAPE_SIZE(PATH_MAX)];

	if (o->quiet)
		return;
	printf("%s %s%s\n", what, cescape(path, name, sizeof(name)), after);
	fflush(stdout);
}

/* Forget cgroups that left the plan (removed, or their policy changed). */
static void prune(const struct options *o, struct tracker *tr)
{
	int kept = 0;

	for (int i = 0; i < tr->n; i++) {
		if (tr->t[i].in_plan)
			tr->t[kept++] = tr->t[i];
		else
			say_watch(o, "no longer watching", tr->t[i].path, "");
	}
	tr->n = kept;
}

/* One look at one candidate; reclaims when it has been idle long enough. */
static void look(const struct options *o, const struct cgroot *root, const struct features *f,
		 const struct plan_entry *e, struct tracked *tr, bool first)
{
	struct op_result res;
	struct cg_usage mem;
	struct keyed cpu;
	struct target t;
	char err[256], idle_s[32];
	uint64_t usage = 0, now = now_us(), elapsed = now - tr->last_look_us;
	long pressure = 0;
	bool active;
	int ret;

	if (target_open_path(root, e->path, &t, err, sizeof(err)))
		return;
	ret = cg_read_keyed(&t, "cpu.stat", &cpu);
	if (!ret && !keyed_get(&cpu, "usage_usec", &usage))
		ret = -ENOENT;
	if (!ret)
		ret = cg_read_usage(&t, &mem);
	if (ret) {
		/*
		 * cannot tell activity: never shrink blind; and say why, once, unless it is
		 * the usual absence of cpu.stat (no cpu controller)
		 */
		if (ret != -ENOENT && !tr->warned) {
			snprintf(err, sizeof(err), "cannot tell whether it is idle: %s",
				 keyed_strerror(ret));
			target_error(e->path, err);
			tr->warned = true;
		}
		target_close(&t);
		return;
	}
	/* against the time that really passed: a reclaim step can make a round longer */
	active = !first && (usage - tr->last_usage_us) * 1000 > elapsed * ACTIVE_PERMILLE;
	if (!cg_read_pressure(&t, &pressure) && pressure > PRESSURE_BACKOFF)
		active = true;
	if (mem.has_scan_pressure && mem.scan_pressure > SCAN_PRESSURE_BACKOFF)
		active = true;
	if (first || active) {
		tr->idle_us = 0;
		tr->drained = false;
		tr->shrunk = false;
	} else {
		tr->idle_us += elapsed;
	}
	tr->last_usage_us = usage;
	tr->last_look_us = now;
	if (tr->drained || tr->idle_us < e->policy.idle_threshold_us) {
		target_close(&t);
		return;
	}
	const struct op_request step = {
		.amount = AMOUNT_MAX, .swappiness = -1, .deadline_us = now_us() + o->interval_us,
	};

	op_reclaim(&step, f, &t, &res);
	stop_clear_deadline();
	tr->drained = res.status == OP_DONE || res.status == OP_PARTIAL;
	tr->shrunk = tr->drained;
	if (res.status == OP_ERROR) {
		target_error(e->path, res.message);
		tr->drained = true;	/* do not retry what fails every time */
	} else if (!o->quiet) {
		printf("idle %s: ", format_duration(tr->idle_us, idle_s, sizeof(idle_s)));
		report_line(stdout, e->path, &res);
		fflush(stdout);
	}
	/* memtide's own CPU time in the reclaim is charged to memtide, not to this cgroup */
	target_close(&t);
}

int cmd_idle(const struct options *o)
{
	struct tracker tracker = { 0 };
	/* the manager is asked about a unit's drop-ins once per daemon-reload, not per round */
	struct dropin_cache dropins = { 0 };
	struct features f;
	struct cgroot root;
	char err[512];
	int ret, plan_err = 0;

	ret = features_load(&f);
	if (ret || cgroot_open(&root, err, sizeof(err))) {
		fprintf(stderr, "memtide: %s\n", ret ? strerror(-ret) : err);
		return EXIT_ERROR;
	}
	stop_install();
	for (long round = 0; !o->count || round < o->count; round++) {
		struct plan plan;
		uint64_t next = now_us() + o->interval_us;
		int reclaimed = 0;	/* drained: left alone until active */

		ret = plan_build_cached(&root, PLAN_IDLE, &plan, print_warning, &dropins);
		if (ret && ret != plan_err)
			/* once, not every interval; the daemon goes on and tries again */
			fprintf(stderr, "memtide: cannot read the cgroup tree: %s; trying again every interval\n",
				strerror(-ret));
		plan_err = ret;
		if (ret == 0) {
			for (int i = 0; i < tracker.n; i++)
				tracker.t[i].in_plan = false;
			for (int i = 0; i < plan.n && !stop_requested(); i++) {
				struct tracked *tr;
				bool first;

				if (!plan.e[i].shrink || !(tr = track(&tracker, plan.e[i].path, &first)))
					continue;
				if (first) {
					char idle_s[32], after[64];

					snprintf(after, sizeof(after), " (reclaimed after %s idle)",
						 format_duration(plan.e[i].policy.idle_threshold_us,
								 idle_s, sizeof(idle_s)));
					say_watch(o, "watching", tr->path, after);
				}
				tr->in_plan = true;
				look(o, &root, &f, &plan.e[i], tr, first);
				reclaimed += tr->shrunk;
			}
			plan_free(&plan);
			/* a stop in mid-round left the rest unvisited, not out of the plan */
			if (!stop_requested())
				prune(o, &tracker);
		}
		/*
		 * Ready once every candidate had its first look (a plan that cannot be read is
		 * retried, not fatal). Without $NOTIFY_SOCKET these do nothing.
		 */
		if (ret)
			sd_notifyf(false, "%sSTATUS=cannot read the cgroup tree: %s",
				   round ? "" : "READY=1\n", strerror(-ret));
		else
			sd_notifyf(false, "%sSTATUS=watching %d cgroup%s with Shrink=idle; %d shrunk, left alone until active",
				   round ? "" : "READY=1\n", tracker.n, tracker.n == 1 ? "" : "s",
				   reclaimed);
		if (o->count && round + 1 == o->count)
			break;	/* no wait after the last look */
		while (!stop_requested() && now_us() < next)
			usleep(next - now_us() > 100000 ? 100000 : next - now_us());
		if (stop_requested())
			break;
	}
	sd_notify(false, "STOPPING=1");
	cgroot_close(&root);
	dropin_cache_free(&dropins);
	free(tracker.t);
	return EXIT_DONE;	/* SIGTERM is how a daemon is asked to stop */
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which cgroups the hibernation flow shrinks, and in what order it releases them after
 * resume, from each unit's [X-Memtide] policy (policy.h):
 *
 * - a cgroup named after a unit (foo.slice, bar.service, baz.scope) takes that unit's
 *   drop-ins; one without drop-ins, or not named after a unit, follows its parent;
 * - init.scope is never shrunk, nor is the root cgroup as a whole;
 * - a cgroup to shrink is shrunk whole (memory.reclaim of a parent reaches its children)
 *   unless something below it must not be: then its children are taken one by one.
 * Release order: higher ReleasePriority first, then path.
 */
#ifndef MEMTIDE_PLAN_H
#define MEMTIDE_PLAN_H

#include <limits.h>

#include "cgroup.h"
#include "policy.h"

struct plan_entry {
	char path[PATH_MAX];
	struct policy policy;
	bool shrink;			/* in the plan */
	bool kept;			/* a unit whose own policy says it must not be shrunk */
};

struct plan {
	struct plan_entry *e;
	int n;
};

enum plan_kind {
	PLAN_HIBERNATE,			/* Shrink=hibernate: before hibernation */
	PLAN_IDLE,			/* Shrink=idle: by `memtide idle` */
};

/* Build the plan of KIND for the tree under ROOT; bad drop-ins go to WARN. 0 or -errno. */
int plan_build(const struct cgroot *root, enum plan_kind kind, struct plan *plan,
	       policy_warn_fn warn);
/* Entries to shrink, in release order, as indices into plan->e; returns how many. */
int plan_release_order(const struct plan *plan, int *order);
void plan_free(struct plan *plan);

#endif

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
/*
 * plan_build(), keeping the system manager's answers about drop-ins in CACHE (zeroed before
 * the first plan) from one plan to the next: for `memtide idle`, which plans every interval
 * (dropin_cache.h says when an answer is asked again)
 */
struct dropin_cache;
int plan_build_cached(const struct cgroot *root, enum plan_kind kind, struct plan *plan,
		      policy_warn_fn warn, struct dropin_cache *cache);
/* Entries to shrink, in release order, as indices into plan->e; returns how many. */
int plan_release_order(const struct plan *plan, int *order);
void plan_free(struct plan *plan);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system manager's answers about drop-ins, kept from one plan to the next: `memtide
 * idle` builds a plan every interval, and asking the manager about every unit-named cgroup
 * each time (GetUnit, ControlGroup, DropInPaths: three calls) costs systemd and the bus
 * daemon CPU on a host with many units, for answers that only change when the manager
 * loads its units again.
 *
 * - An answer is kept for a cgroup (by its inode number: on 64-bit kernels since 5.5 the
 *   cgroup ID, which is never reused) and a unit name. A unit started again gets a new
 *   cgroup, so a new key.
 * - Every answer is forgotten when the manager's UnitsLoadTimestampMonotonic moves: systemd
 *   sets it when it loads its units again (daemon-reload, daemon-reexec; it is 0 until the
 *   first), which is when its drop-ins change. One property read per plan, in place of
 *   three calls per unit. A manager without that property (an older systemd) is asked
 *   everything every time.
 * - An answer is asked again after max_age_us all the same (DROPIN_CACHE_MAX_AGE_US by
 *   default), for what the timestamp does not see: a unit the manager unloaded while its
 *   cgroup lived on (a child cgroup kept it), then loaded again with other drop-ins; a
 *   32-bit inode number reused.
 * - Kept: "the unit of this cgroup, with these drop-ins", and "the manager's unit of that
 *   name is another cgroup's" (a container's init.scope: its drop-ins are searched for in
 *   the directories). "Not loaded" is asked again every time (one GetUnit): the manager may
 *   load it.
 * - The connection is kept too: opening one (authentication, Hello) costs the bus daemon
 *   more than the one property read.
 */
#ifndef MEMTIDE_DROPIN_CACHE_H
#define MEMTIDE_DROPIN_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

#define DROPIN_CACHE_MAX_AGE_US (5 * 60 * 1000000ULL)

struct dropin_answer {
	uint64_t cgroup_id;
	char *unit;
	bool others;			/* the manager's UNIT is another cgroup's */
	char **dropins;			/* else its DropInPaths: NULL-terminated, or NULL */
	uint64_t asked_us;		/* CLOCK_MONOTONIC */
	bool seen;			/* by the plan being built */
};

struct dropin_cache {
	sd_bus *bus;			/* the system bus, kept between plans; or NULL */
	uint64_t max_age_us;		/* 0: DROPIN_CACHE_MAX_AGE_US */
	bool load_known;		/* the manager says when it last loaded its units */
	uint64_t load_us;		/* that time, CLOCK_MONOTONIC microseconds */
	struct dropin_answer *a;
	int n, cap, next;		/* next: where the last plan's order says to look */
};

/*
 * Before a plan: keep what is known if the manager on BUS (NULL: none) has not loaded its
 * units since the last plan, else forget it. Returns unit_manager_load_time()'s 0 or -errno
 * (-ENOTCONN for no BUS).
 */
int dropin_cache_begin(struct dropin_cache *c, sd_bus *bus);
/* The answer known for UNIT in the cgroup CGROUP_ID (owned by the cache), or NULL */
const struct dropin_answer *dropin_cache_get(struct dropin_cache *c, uint64_t cgroup_id,
					     const char *unit);
/*
 * Remember that UNIT in CGROUP_ID is another cgroup's (OTHERS), or has DROPINS (taken over:
 * freed by the cache either way)
 */
void dropin_cache_put(struct dropin_cache *c, uint64_t cgroup_id, const char *unit,
		      bool others, char **dropins);
/* After a plan that walked the whole tree: forget the cgroups it did not see (removed) */
void dropin_cache_end(struct dropin_cache *c);
/* Forget everything and close the connection */
void dropin_cache_free(struct dropin_cache *c);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* systemd units to cgroups, through a manager's bus (libsystemd's sd-bus). */
#ifndef MEMTIDE_UNIT_H
#define MEMTIDE_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* Whose units: the system manager's, or (--user) the calling user's, as systemctl --user */
enum unit_manager { UNIT_MANAGER_SYSTEM, UNIT_MANAGER_USER };

/* "system bus", "user bus": for messages */
const char *unit_bus_name(enum unit_manager m);
/* "the system manager", "the user's manager": for messages */
const char *unit_manager_name(enum unit_manager m);

/*
 * The ControlGroup property of unit UNIT of manager M ("/system.slice/foo.service"), into
 * PATH. Returns 0; -ENOTCONN when no bus or no systemd answers; -ENOENT when the manager
 * has not loaded the unit (it may be another manager's: the caller searches the tree);
 * -ENODATA for a unit loaded without a cgroup, -EINVAL for a name systemd refuses, or
 * another -errno, each with ERR saying why.
 */
int unit_cgroup(enum unit_manager m, const char *unit, char *path, size_t size, char *err,
		size_t errlen);

/*
 * Call FN with each unit of manager M whose name matches PATTERN (as systemctl's patterns:
 * ListUnitsByPatterns) and whose type has a cgroup, in name order, with its ControlGroup
 * ("" when it has none now). Returns how many there were; -ENOTCONN when no bus or no
 * systemd answers; another -errno with ERR saying why, or FN's nonzero return, which stops.
 */
typedef int (*unit_fn)(const char *unit, const char *cgroup, void *data);
int unit_list(enum unit_manager m, const char *pattern, unit_fn fn, void *data, char *err,
	      size_t errlen);

/*
 * A connection to manager M's bus for many questions (a plan asks about every cgroup of the
 * tree), closed with sd_bus_flush_close_unref(); NULL where none can be opened.
 */
sd_bus *unit_bus_open(enum unit_manager m);
/* How long a call on unit_bus_open()'s connection waits for the manager */
#define UNIT_BUS_TIMEOUT_US 2000000ULL
/*
 * The drop-ins the manager on BUS applies to UNIT, whose cgroup is CGROUP ("/a.slice"): its
 * DropInPaths property, the files as of the manager's last load, in the order systemd
 * applies them, as `systemctl show -p DropInPaths` lists them; into *PATHS (NULL-terminated,
 * free with unit_strv_free()). Returns how many; -ENOENT when the manager has not loaded
 * UNIT; -EREMOTE when its UNIT is another cgroup's (a user manager's or a container's unit
 * of the same name);
 * -ENOTCONN when no systemd is there to answer (no bus, or a bus without it); -EIO when it
 * does not answer as it should (a timeout, an error).
 */
int unit_dropins(sd_bus *bus, const char *unit, const char *cgroup, char ***paths);
void unit_strv_free(char **v);
/*
 * When the manager on BUS last loaded its units again (UnitsLoadTimestampMonotonic: set at
 * daemon-reload and daemon-reexec, 0 until the first), into *USEC. 0; -ENOENT for a systemd
 * without that property; -ENOTCONN when no systemd is on the bus or the connection is gone;
 * -EIO when it does not answer as it should (a timeout).
 */
int unit_manager_load_time(sd_bus *bus, uint64_t *usec);

#endif

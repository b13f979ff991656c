/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stand-in for systemd's manager on a bus, for the tests of unit names. memtide reaches
 * the manager through libsystemd's sd-bus at the address sd-bus reads from the environment
 * (DBUS_SYSTEM_BUS_ADDRESS; DBUS_SESSION_BUS_ADDRESS for --user), so that address is the
 * seam: the stand-in listens on a socket in tree_dir, speaks D-Bus as an sd-bus server, and
 * memtide's own client code runs unchanged. It answers what memtide asks of a manager:
 * Hello (as the bus daemon would), GetUnit, ListUnitsByPatterns, each unit's ControlGroup on
 * the interface of its type only, as systemd does, and its DropInPaths on the Unit interface
 * every unit has; the manager's UnitsLoadTimestampMonotonic, the number a test writes to
 * tree_dir/NAME.units-load (no file: no such property, as in an older systemd; "slow": no
 * answer within the client's timeout); and logind's Hibernate.
 */
#ifndef MEMTIDE_FAKE_BUS_H
#define MEMTIDE_FAKE_BUS_H

#include <sys/types.h>

struct fake_unit {
	const char *name;	/* "sshd.service" */
	const char *cgroup;	/* its ControlGroup; "" for a unit loaded but not running */
	const char *const *dropins;	/* its DropInPaths, NULL-terminated; NULL: none;
					 * { FAKE_BUS_FAIL, NULL }: reading it fails */
};
#define FAKE_BUS_FAIL "!fail"


/*
 * The D-Bus error name logind's Hibernate answers with (NULL: it accepts), as it is when
 * fake_bus_start() is called
 */
extern const char *fake_logind_error;

/*
 * Serve UNITS (up to an entry with a NULL name) at tree_dir/NAME.bus, and point the
 * environment variable ENV at it. Each call it answers is a line of tree_dir/NAME.log:
 * "GetUnit sshd.service", "ListUnitsByPatterns ssh*", "DropInPaths sshd.service",
 * "Get UnitsLoadTimestampMonotonic", "Hibernate false". Returns the server's pid, for
 * fake_bus_stop(); the test fails if it cannot start.
 */
pid_t fake_bus_start(const char *name, const char *env, const struct fake_unit *units);
/* Stop the server started as PID, and every connection it serves. */
void fake_bus_stop(pid_t pid);

#endif

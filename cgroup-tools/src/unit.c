// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "unit.h"
#include "unit_name.h"

#define seterr(...) snprintf(err, errlen, __VA_ARGS__)

#define MANAGER "org.freedesktop.systemd1"
#define MANAGER_PATH "/org/freedesktop/systemd1"
#define MANAGER_IFACE "org.freedesktop.systemd1.Manager"

const char *unit_bus_name(enum unit_manager m)
{
	return m == UNIT_MANAGER_USER ? "user bus" : "system bus";
}

const char *unit_manager_name(enum unit_manager m)
{
	return m == UNIT_MANAGER_USER ? "the user's manager" : "the system manager";
}

/*
 * The manager's bus, as systemctl [--user] finds it: sd-bus reads DBUS_SYSTEM_BUS_ADDRESS,
 * or for the user's DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus. A connection of
 * its own, closed after the call, rather than sd_bus_default_*()'s, which stays open for
 * the thread's life: memtide asks once per target, at the start of a command.
 */
static int bus_open(enum unit_manager m, sd_bus **bus)
{
	int ret = m == UNIT_MANAGER_USER ? sd_bus_open_user(bus) : sd_bus_open_system(bus);

	return ret < 0 ? -ENOTCONN : 0;
}

/* The ControlGroup of UNIT, the object OBJECT, into *CGROUP (malloc'ed). */
static int read_cgroup(sd_bus *bus, const char *unit, const char *object, char **cgroup,
		       char *err, size_t errlen)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	/* on the interface of the unit's type only, as systemd exports it */
	int ret = sd_bus_get_property_string(bus, MANAGER, object, unit_interface(unit),
					     "ControlGroup", &error, cgroup);

	if (ret < 0)
		seterr("%s: cannot read its ControlGroup: %s", unit,
		       error.message ? error.message : strerror(-ret));
	sd_bus_error_free(&error);
	return ret < 0 ? ret : 0;
}

/*
 * GetUnit, not LoadUnit: a unit that is not loaded has no cgroup to act on. The object path
 * of UNIT into *OBJECT (malloc'ed), or -ENOENT (not loaded), -EINVAL (not a unit name),
 * -ENOTCONN (no systemd on the bus: a container's dbus, for one) or -EIO (the manager
 * answers otherwise). Each caller says what that means for it.
 */
static int get_unit(sd_bus *bus, const char *unit, char **object)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *path;
	int ret = sd_bus_call_method(bus, MANAGER, MANAGER_PATH, MANAGER_IFACE, "GetUnit",
				     &error, &reply, "s", unit);

	if (ret >= 0) {
		ret = sd_bus_message_read(reply, "o", &path);
		if (ret >= 0)
			ret = (*object = strdup(path)) ? 0 : -ENOMEM;
		else
			ret = -EIO;
	} else if (sd_bus_error_has_name(&error, "org.freedesktop.systemd1.NoSuchUnit")) {
		ret = -ENOENT;
	} else if (sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS)) {
		ret = -EINVAL;
	} else if (sd_bus_error_has_names(&error, SD_BUS_ERROR_SERVICE_UNKNOWN,
					  SD_BUS_ERROR_NAME_HAS_NO_OWNER) ||
		   !sd_bus_error_is_set(&error)) {
		ret = -ENOTCONN;
	} else {
		ret = -EIO;
	}
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	return ret;
}

int unit_cgroup(enum unit_manager m, const char *unit, char *path, size_t size, char *err,
		size_t errlen)
{
	sd_bus *bus = NULL;
	char *object = NULL, *cgroup = NULL;
	int ret = bus_open(m, &bus);

	if (ret)
		return ret;
	ret = get_unit(bus, unit, &object);
	if (ret == -ENOENT) {
		seterr("not loaded by %s", unit_manager_name(m));
	} else if (ret == -EINVAL) {
		seterr("invalid unit name");
	} else if (ret == -ENOTCONN || ret == -EIO) {
		/* a target is then looked for in the tree, as with no bus at all */
		ret = -ENOTCONN;
	} else if (ret) {
		seterr("%s", strerror(-ret));
	} else {
		ret = read_cgroup(bus, unit, object, &cgroup, err, errlen);
	}
	if (ret < 0)
		goto out;
	if (!*cgroup) {
		seterr("unit has no cgroup (not running)");
		ret = -ENODATA;
	} else if (strlen(cgroup) >= size) {
		seterr("%s", strerror(ENAMETOOLONG));
		ret = -ENAMETOOLONG;
	} else {
		strcpy(path, cgroup);
		ret = 0;
	}
out:
	free(cgroup);
	free(object);
	sd_bus_unref(bus);
	return ret;
}

struct listed {
	const char *unit, *object;	/* in the reply */
};

static int by_unit(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->unit, ((const struct listed *)b)->unit);
}

int unit_list(enum unit_manager m, const char *pattern, unit_fn fn, void *data, char *err,
	      size_t errlen)
{
	sd_bus_message *reply = NULL;
	struct listed *found = NULL;
	sd_bus *bus = NULL;
	size_t n = 0, cap = 0;
	int ret = bus_open(m, &bus);

	if (ret)
		return ret;
	/* no state wanted: every loaded unit, running or not */
	ret = sd_bus_call_method(bus, MANAGER, MANAGER_PATH, MANAGER_IFACE, "ListUnitsByPatterns",
				 NULL, &reply, "asas", 0, 1, pattern);
	if (ret < 0) {
		/* no systemd on the bus, or one older than 230 */
		ret = -ENOTCONN;
		goto out;
	}
	ret = sd_bus_message_enter_container(reply, 'a', "(ssssssouso)");
	while (ret >= 0) {
		struct listed l;

		ret = sd_bus_message_read(reply, "(ssssssouso)", &l.unit, NULL, NULL, NULL, NULL,
					  NULL, &l.object, NULL, NULL, NULL);
		if (ret <= 0)
			break;
		/* a target or a timer matches a pattern too, but has no cgroup */
		if (!is_unit_name(l.unit))
			continue;
		if (n == cap) {
			struct listed *bigger = realloc(found, (cap = cap ? 2 * cap : 16) *
							       sizeof(*found));

			if (!bigger) {
				ret = -ENOMEM;
				break;
			}
			found = bigger;
		}
		found[n++] = l;
	}
	if (ret < 0) {
		seterr("cannot read the units %s listed: %s", unit_manager_name(m),
		       strerror(-ret));
		goto out;
	}
	/* the manager lists them in its hash table's order: act in one a user can tell */
	if (n)
		qsort(found, n, sizeof(*found), by_unit);
	for (size_t i = 0; i < n && !ret; i++) {
		char *cgroup = NULL;

		ret = read_cgroup(bus, found[i].unit, found[i].object, &cgroup, err, errlen);
		if (!ret)
			ret = fn(found[i].unit, cgroup, data);
		free(cgroup);
	}
	if (!ret)
		ret = (int)n;
out:
	free(found);
	sd_bus_message_unref(reply);
	sd_bus_unref(bus);
	return ret;
}

sd_bus *unit_bus_open(enum unit_manager m)
{
	sd_bus *bus = NULL;

	if (bus_open(m, &bus))
		return NULL;
	/* a plan asks about every cgroup: a manager that does not answer must not stall it */
	sd_bus_set_method_call_timeout(bus, UNIT_BUS_TIMEOUT_US);
	return bus;
}

int unit_dropins(sd_bus *bus, const char *unit, const char *cgroup, char ***paths)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	char *object = NULL, *own = NULL;
	char why[256];	/* read_cgroup()'s, not said: -EIO says it */
	int ret, n = 0;

	*paths = NULL;
	ret = get_unit(bus, unit, &object);
	/* not the manager's unit: the caller searches the directories */
	if (ret == -EINVAL)
		ret = -ENOENT;
	if (ret)
		goto out;
	/*
	 * The unit of that name is the cgroup's only if its ControlGroup is this cgroup:
	 * an init.scope or a dbus.service below user@1000.service, or a container's, is
	 * another manager's unit, which the system manager's of the same name says nothing of
	 */
	ret = read_cgroup(bus, unit, object, &own, why, sizeof(why));
	if (ret >= 0 && strcmp(own, cgroup)) {
		ret = -EREMOTE;
		goto out;
	}
	/* on the Unit interface, which every unit's object has (unlike ControlGroup) */
	if (ret >= 0)
		ret = sd_bus_get_property_strv(bus, MANAGER, object, "org.freedesktop.systemd1.Unit",
					       "DropInPaths", &error, paths);
	/* any failure of a loaded unit's: the manager does not answer as it should */
	if (ret < 0)
		ret = -EIO;
	/* an empty list is NULL */
	while (ret >= 0 && *paths && (*paths)[n])
		n++;
out:
	free(own);
	free(object);
	sd_bus_error_free(&error);
	return ret < 0 ? ret : n;
}

int unit_manager_load_time(sd_bus *bus, uint64_t *usec)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	int ret = sd_bus_get_property_trivial(bus, MANAGER, MANAGER_PATH, MANAGER_IFACE,
					      "UnitsLoadTimestampMonotonic", &error, 't', usec);

	if (ret >= 0)
		ret = 0;
	else if (sd_bus_error_has_names(&error, SD_BUS_ERROR_UNKNOWN_PROPERTY,
					SD_BUS_ERROR_UNKNOWN_INTERFACE))
		ret = -ENOENT;		/* a systemd without it */
	else if (sd_bus_error_has_names(&error, SD_BUS_ERROR_SERVICE_UNKNOWN,
					SD_BUS_ERROR_NAME_HAS_NO_OWNER) ||
		 sd_bus_is_open(bus) <= 0)
		ret = -ENOTCONN;	/* no systemd on the bus, or the connection is gone */
	else
		ret = -EIO;		/* a timeout, or another error */
	sd_bus_error_free(&error);
	return ret;
}

void unit_strv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

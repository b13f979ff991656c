// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "unit.h"

#define seterr(...) snprintf(err, errlen, __VA_ARGS__)

/* The D-Bus interface that carries ControlGroup for this unit type. */
static const char *unit_interface(const char *unit)
{
	const char *dot = strrchr(unit, '.');

	if (!strcmp(dot, ".slice"))
		return "org.freedesktop.systemd1.Slice";
	if (!strcmp(dot, ".scope"))
		return "org.freedesktop.systemd1.Scope";
	if (!strcmp(dot, ".socket"))
		return "org.freedesktop.systemd1.Socket";
	if (!strcmp(dot, ".mount"))
		return "org.freedesktop.systemd1.Mount";
	if (!strcmp(dot, ".swap"))
		return "org.freedesktop.systemd1.Swap";
	return "org.freedesktop.systemd1.Service";
}

int unit_cgroup(const char *unit, char *path, size_t size, char *err, size_t errlen)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	sd_bus *bus = NULL;
	const char *object;
	char *cgroup = NULL;
	int ret;

	ret = sd_bus_open_system(&bus);
	if (ret < 0)
		return -ENOTCONN;
	/* GetUnit, not LoadUnit: a unit that is not loaded has no cgroup to act on */
	ret = sd_bus_call_method(bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
				 "org.freedesktop.systemd1.Manager", "GetUnit", &error, &reply,
				 "s", unit);
	if (ret < 0) {
		if (sd_bus_error_has_name(&error, "org.freedesktop.systemd1.NoSuchUnit")) {
			seterr("no such unit loaded");
			ret = -ENOENT;
		} else if (sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS)) {
			seterr("invalid unit name");
			ret = -EINVAL;
		} else {
			/* no systemd on the bus (a container with dbus only, for one) */
			ret = -ENOTCONN;
		}
		goto out;
	}
	ret = sd_bus_message_read(reply, "o", &object);
	if (ret >= 0)
		ret = sd_bus_get_property_string(bus, "org.freedesktop.systemd1", object,
						 unit_interface(unit), "ControlGroup", &error,
						 &cgroup);
	if (ret < 0) {
		seterr("cannot read its ControlGroup: %s",
		       error.message ? error.message : strerror(-ret));
		ret = -ENOENT;
		goto out;
	}
	if (!*cgroup) {
		seterr("unit has no cgroup (not running)");
		ret = -ENOENT;
		goto out;
	}
	snprintf(path, size, "%s", cgroup);
	ret = 0;
out:
	free(cgroup);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&error);
	sd_bus_unref(bus);
	return ret;
}

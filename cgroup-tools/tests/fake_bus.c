// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <systemd/sd-bus.h>

#include "fake_bus.h"
#include "fake_tree.h"

#define UNIT_PREFIX "/org/freedesktop/systemd1/unit"

const char *fake_logind_error;
static const struct fake_unit *served;
static char log_path[PATH_MAX + 16], units_load_path[PATH_MAX + 16];

/* One line in the log, in one write: the connections are processes of their own */
static void log_call(const char *method, const char *arg)
{
	char line[512];
	int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	int len = snprintf(line, sizeof(line), "%s %s\n", method, arg);

	if (fd >= 0) {
		if (write(fd, line, len) != len)
			_exit(125);
		close(fd);
	}
}

static const struct fake_unit *find(const char *name)
{
	for (const struct fake_unit *u = served; u->name; u++)
		if (!strcmp(u->name, name))
			return u;
	return NULL;
}

/* The unit types with a cgroup: systemd names each one's interface after it ("Service") */
static const char *const types[] = { "service", "slice", "scope", "socket", "mount", "swap" };

static void interface_of(const char *type, char *buf, size_t size)
{
	snprintf(buf, size, "org.freedesktop.systemd1.%c%s", toupper((unsigned char)*type),
		 type + 1);
}

/* Whether INTERFACE is the one of NAME's type */
static bool has_interface(const char *name, const char *interface)
{
	const char *dot = strrchr(name, '.');
	char want[64];

	if (!dot)
		return false;
	interface_of(dot + 1, want, sizeof(want));
	return !strcmp(interface, want);
}

/* org.freedesktop.DBus.Hello: what a bus daemon answers a new client, its unique name */
static int hello(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return sd_bus_reply_method_return(m, "s", ":1.42");
}

static int get_unit(sd_bus_message *m, void *data, sd_bus_error *error)
{
	const char *name;
	char *path = NULL;
	int ret = sd_bus_message_read(m, "s", &name);

	if (ret < 0)
		return ret;
	log_call("GetUnit", name);
	if (!find(name))
		return sd_bus_reply_method_errorf(m, "org.freedesktop.systemd1.NoSuchUnit",
						  "Unit %s not loaded.", name);
	ret = sd_bus_path_encode(UNIT_PREFIX, name, &path);
	if (ret >= 0)
		ret = sd_bus_reply_method_return(m, "o", path);
	free(path);
	return ret;
}

/* ListUnitsByPatterns(as states, as patterns): the states are not looked at */
static int list_units(sd_bus_message *m, void *data, sd_bus_error *error)
{
	sd_bus_message *reply = NULL;
	char **states = NULL, **patterns = NULL;
	int ret = sd_bus_message_read_strv(m, &states);

	if (ret >= 0)
		ret = sd_bus_message_read_strv(m, &patterns);
	if (ret >= 0)
		ret = sd_bus_message_new_method_return(m, &reply);
	if (ret >= 0)
		ret = sd_bus_message_open_container(reply, 'a', "(ssssssouso)");
	for (const struct fake_unit *u = served; ret >= 0 && u->name; u++) {
		bool match = !patterns || !*patterns;
		char *path = NULL;

		for (char **p = patterns; p && *p && !match; p++)
			match = !fnmatch(*p, u->name, FNM_NOESCAPE);
		if (!match)
			continue;
		ret = sd_bus_path_encode(UNIT_PREFIX, u->name, &path);
		if (ret >= 0)
			ret = sd_bus_message_append(reply, "(ssssssouso)", u->name, "", "loaded",
						    *u->cgroup ? "active" : "inactive",
						    *u->cgroup ? "running" : "dead", "", path, 0,
						    "", "/");
		free(path);
	}
	if (ret >= 0)
		ret = sd_bus_message_close_container(reply);
	if (ret >= 0)
		ret = sd_bus_send(NULL, reply, NULL);
	for (char **p = patterns; p && *p; p++)
		log_call("ListUnitsByPatterns", *p);
	sd_bus_message_unref(reply);
	for (char **p = states; p && *p; p++)
		free(*p);
	for (char **p = patterns; p && *p; p++)
		free(*p);
	free(states);
	free(patterns);
	return ret;
}

/* The loaded unit whose object PATH is, or NULL */
static const struct fake_unit *unit_at(const char *path)
{
	const struct fake_unit *u;
	char *name = NULL;

	if (sd_bus_path_decode(path, UNIT_PREFIX, &name) <= 0)
		return NULL;
	u = find(name);
	free(name);
	return u;
}

/* A loaded unit's object has the Unit interface, whatever its type */
static int find_any_unit(sd_bus *bus, const char *path, const char *interface, void *data,
			 void **found, sd_bus_error *error)
{
	const struct fake_unit *u = unit_at(path);

	*found = (void *)u;
	return !!u;
}

/* ... and the interface of its type only */
static int find_unit(sd_bus *bus, const char *path, const char *interface, void *data,
		     void **found, sd_bus_error *error)
{
	const struct fake_unit *u = unit_at(path);

	if (!u || !has_interface(u->name, interface))
		return 0;
	*found = (void *)u;
	return 1;
}

static int control_group(sd_bus *bus, const char *path, const char *interface,
			 const char *property, sd_bus_message *reply, void *data,
			 sd_bus_error *error)
{
	const struct fake_unit *u = data;

	log_call("ControlGroup", u->name);
	return sd_bus_message_append(reply, "s", u->cgroup);
}

static int dropin_paths(sd_bus *bus, const char *path, const char *interface,
			const char *property, sd_bus_message *reply, void *data,
			sd_bus_error *error)
{
	const struct fake_unit *u = data;

	log_call("DropInPaths", u->name);
	if (u->dropins && u->dropins[0] && !strcmp(u->dropins[0], FAKE_BUS_FAIL))
		return sd_bus_error_set(error, SD_BUS_ERROR_FAILED, "Failed by the test.");
	return sd_bus_message_append_strv(reply, (char **)(u->dropins ? u->dropins :
							   (const char *const[]){ NULL }));
}

/* The number in NAME.units-load; without that file, no such property (systemd before 252) */
static int units_load(sd_bus *bus, const char *path, const char *interface,
		      const char *property, sd_bus_message *reply, void *data, sd_bus_error *error)
{
	unsigned long long usec;
	FILE *f = fopen(units_load_path, "re");
	int n = f ? fscanf(f, "%llu", &usec) : 0;
	char word[16] = "";

	if (f && n != 1 && fscanf(f, "%15s", word) != 1)
		word[0] = '\0';
	if (f)
		fclose(f);
	log_call("Get", property);
	/* "slow": an answer after the client's 2 s timeout, as from a systemd busy reloading */
	if (!strcmp(word, "slow"))
		sleep(3);
	if (n != 1)
		return sd_bus_error_set(error, SD_BUS_ERROR_UNKNOWN_PROPERTY,
					"No such property by the test.");
	return sd_bus_message_append(reply, "t", (uint64_t)usec);
}

/* org.freedesktop.login1.Manager.Hibernate(b interactive) */
static int hibernate(sd_bus_message *m, void *data, sd_bus_error *error)
{
	int interactive, ret = sd_bus_message_read(m, "b", &interactive);

	if (ret < 0)
		return ret;
	log_call("Hibernate", interactive ? "true" : "false");
	if (fake_logind_error)
		return sd_bus_reply_method_errorf(m, fake_logind_error, "Refused by the test.");
	return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable bus_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Hello", "", "s", hello, 0),
	SD_BUS_VTABLE_END
};

static const sd_bus_vtable manager_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("GetUnit", "s", "o", get_unit, 0),
	SD_BUS_METHOD("ListUnitsByPatterns", "asas", "a(ssssssouso)", list_units, 0),
	SD_BUS_PROPERTY("UnitsLoadTimestampMonotonic", "t", units_load, 0, 0),
	SD_BUS_VTABLE_END
};

static const sd_bus_vtable logind_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Hibernate", "b", "", hibernate, 0),
	SD_BUS_VTABLE_END
};

static const sd_bus_vtable unit_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("ControlGroup", "s", control_group, 0, 0),
	SD_BUS_VTABLE_END
};

static const sd_bus_vtable any_unit_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("DropInPaths", "as", dropin_paths, 0, 0),
	SD_BUS_VTABLE_END
};

/* One client's connection, until it closes it. Returns the exit status. */
static int serve(int fd)
{
	sd_id128_t id;
	sd_bus *bus = NULL;
	int ret = sd_bus_new(&bus);

	if (ret >= 0)
		ret = sd_bus_set_fd(bus, fd, fd);
	if (ret >= 0)
		ret = sd_id128_randomize(&id);
	if (ret >= 0)
		ret = sd_bus_set_server(bus, 1, id);
	if (ret >= 0)
		ret = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/DBus",
					       "org.freedesktop.DBus", bus_vtable, NULL);
	if (ret >= 0)
		ret = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/systemd1",
					       "org.freedesktop.systemd1.Manager", manager_vtable,
					       NULL);
	if (ret >= 0)
		ret = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/login1",
					       "org.freedesktop.login1.Manager", logind_vtable, NULL);
	for (size_t i = 0; ret >= 0 && i < sizeof(types) / sizeof(*types); i++) {
		char interface[64];

		interface_of(types[i], interface, sizeof(interface));
		ret = sd_bus_add_fallback_vtable(bus, NULL, UNIT_PREFIX, interface, unit_vtable,
						 find_unit, NULL);
	}
	if (ret >= 0)
		ret = sd_bus_add_fallback_vtable(bus, NULL, UNIT_PREFIX,
						 "org.freedesktop.systemd1.Unit", any_unit_vtable,
						 find_any_unit, NULL);
	if (ret >= 0)
		ret = sd_bus_start(bus);
	while (ret >= 0) {
		ret = sd_bus_process(bus, NULL);
		if (ret == 0)
			ret = sd_bus_wait(bus, UINT64_MAX);
	}
	sd_bus_unref(bus);
	/* the client hung up: the end of a connection, not an error */
	return ret == -ECONNRESET || ret == -ENOTCONN || ret == -EPIPE ? 0 : 1;
}

pid_t fake_bus_start(const char *name, const char *env, const struct fake_unit *units)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char address[sizeof(addr.sun_path) + 16], ready;
	int sync[2], fd;
	pid_t pid;

	assert_true((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s.bus", tree_dir,
				     name) < sizeof(addr.sun_path));
	snprintf(log_path, sizeof(log_path), "%s/%s.log", tree_dir, name);
	snprintf(units_load_path, sizeof(units_load_path), "%s/%s.units-load", tree_dir, name);
	snprintf(address, sizeof(address), "unix:path=%s", addr.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 16), 0);
	assert_int_equal(pipe(sync), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* a group of its own, so that fake_bus_stop() ends the connections too */
		setpgid(0, 0);
		signal(SIGCHLD, SIG_IGN);
		served = units;
		close(sync[0]);
		if (write(sync[1], "", 1) != 1)
			_exit(126);
		close(sync[1]);
		for (;;) {
			int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);

			if (conn < 0)
				continue;
			if (fork() == 0) {
				close(fd);
				_exit(serve(conn));
			}
			close(conn);
		}
	}
	close(fd);
	close(sync[1]);
	assert_int_equal(read(sync[0], &ready, 1), 1);
	close(sync[0]);
	setpgid(pid, pid);
	setenv(env, address, 1);
	return pid;
}

void fake_bus_stop(pid_t pid)
{
	kill(-pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

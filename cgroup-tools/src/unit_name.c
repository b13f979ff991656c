// SPDX-License-Identifier: GPL-2.0
/*
 * libsystemd has no public helper for unit names: unit_name_mangle(), unit_name_is_valid()
 * and string_is_glob() live in systemd's internal libshared, which sd-bus does not export.
 * What memtide needs of them is here, with systemd's character sets and rules.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "unit_name.h"

#define seterr(...) snprintf(err, errlen, __VA_ARGS__)

/* The unit types with a cgroup, and the D-Bus interface that carries it */
static const struct {
	const char *suffix, *interface;
} cgroup_types[] = {
	{ ".service", "org.freedesktop.systemd1.Service" },
	{ ".slice", "org.freedesktop.systemd1.Slice" },
	{ ".scope", "org.freedesktop.systemd1.Scope" },
	{ ".socket", "org.freedesktop.systemd1.Socket" },
	{ ".mount", "org.freedesktop.systemd1.Mount" },
	{ ".swap", "org.freedesktop.systemd1.Swap" },
};

/* The other types: systemctl takes their names as they are, and they have no cgroup */
static const char *const other_types[] = {
	".target", ".timer", ".path", ".device", ".automount",
};

/* systemd's VALID_CHARS (unit-name.h), '@' for templates; a pattern may also hold []!-*? */
#define VALID_CHARS \
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ:-_.\\@"
#define GLOB_CHARS "[]!-*?"

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len > n && !strcmp(s + len - n, suffix);
}

/* NAME's type in cgroup_types[], or -1 */
static int cgroup_type(const char *name)
{
	for (size_t i = 0; i < sizeof(cgroup_types) / sizeof(*cgroup_types); i++)
		if (ends_with(name, cgroup_types[i].suffix))
			return (int)i;
	return -1;
}

bool is_unit_name(const char *arg)
{
	return !strchr(arg, '/') && cgroup_type(arg) >= 0;
}

bool unit_name_is_glob(const char *s)
{
	return strpbrk(s, "*?[");
}

int unit_name_mangle(const char *arg, char *out, size_t size, char *err, size_t errlen)
{
	size_t len = 0, max = size < UNIT_NAME_MAX ? size : UNIT_NAME_MAX;
	bool glob = unit_name_is_glob(arg);
	const char *at;

	/* escaped as systemd's do_escape_mangle(): what a unit name may not hold, as \xNN */
	for (const char *p = arg; *p; p++) {
		bool valid = strchr(VALID_CHARS, *p) || (glob && strchr(GLOB_CHARS, *p));
		char piece[5];
		int n = valid ? snprintf(piece, sizeof(piece), "%c", *p) :
				snprintf(piece, sizeof(piece), "\\x%02x", (unsigned char)*p);

		if (len + n >= max)
			goto too_long;
		memcpy(out + len, piece, n);
		len += n;
	}
	out[len] = '\0';
	/* "foo.*" is a pattern over every type: no suffix is added to a pattern */
	if (glob)
		return 0;
	for (size_t i = 0; i < sizeof(other_types) / sizeof(*other_types); i++) {
		if (ends_with(out, other_types[i])) {
			seterr("a %s unit has no cgroup", other_types[i] + 1);
			return -EINVAL;
		}
	}
	if (cgroup_type(out) < 0) {
		if (len + strlen(".service") >= max)
			goto too_long;
		strcpy(out + len, ".service");
	}
	/* foo@.service is a template: only its instances (foo@bar.service) are loaded */
	at = strchr(out, '@');
	if (at && at[1] == '.' && !strchr(at + 2, '.')) {
		seterr("a template, which has no cgroup; name an instance (%.*sINSTANCE%s)",
		       (int)(at + 1 - out), out, at + 1);
		return -EINVAL;
	}
	return 0;
too_long:
	seterr("too long for a unit name (at most %d characters)", UNIT_NAME_MAX - 1);
	return -EINVAL;
}

const char *unit_interface(const char *unit)
{
	int type = cgroup_type(unit);

	return cgroup_types[type < 0 ? 0 : type].interface;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systemd unit names as systemctl reads them, before anyone is asked about them: which
 * words are units, what "sshd" means (sshd.service), which are patterns. No bus, no tree.
 */
#ifndef MEMTIDE_UNIT_NAME_H
#define MEMTIDE_UNIT_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* systemd's UNIT_NAME_MAX: a unit name is shorter than this */
#define UNIT_NAME_MAX 256

/* Whether ARG names a unit with a cgroup (foo.slice, bar.service, baz.scope, ...). */
bool is_unit_name(const char *arg);
/* Whether S is a pattern: it holds *, ? or [ (systemd's string_is_glob()). */
bool unit_name_is_glob(const char *s);
/*
 * ARG (no '/') as systemctl's unit_name_mangle() reads it, into OUT: a pattern or a name
 * with a unit type's suffix as it is, anything else with ".service" appended ("sshd",
 * "getty@tty1"); bytes a unit name may not hold escaped as \xNN, as systemd does. Returns
 * 0, or -EINVAL with ERR saying why: a type without a cgroup (.target, .timer, ...), a
 * template without an instance (foo@.service), a name too long.
 */
int unit_name_mangle(const char *arg, char *out, size_t size, char *err, size_t errlen);
/* The D-Bus interface that carries the ControlGroup of UNIT's type. */
const char *unit_interface(const char *unit);

#endif

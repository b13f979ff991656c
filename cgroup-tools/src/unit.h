/* SPDX-License-Identifier: GPL-2.0 */
/* systemd unit names to cgroups, through the system bus (libsystemd's sd-bus). */
#ifndef MEMTIDE_UNIT_H
#define MEMTIDE_UNIT_H

#include <stddef.h>

/*
 * The ControlGroup property of loaded unit UNIT ("/system.slice/foo.service"), into PATH.
 * Returns 0; -ENOTCONN when no system bus or no systemd answers (the caller falls back
 * to searching the tree); -ENOENT for a unit not loaded or without a cgroup (ERR says
 * which); -EINVAL for a name systemd refuses.
 */
int unit_cgroup(const char *unit, char *path, size_t size, char *err, size_t errlen);

#endif

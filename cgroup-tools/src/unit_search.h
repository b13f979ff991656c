/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Units found in the cgroup tree by name, where no manager knows them: without a bus
 * (containers, an initramfs, early boot), or a unit of another manager than the one asked
 * (a user session's scope, the units of user@UID.service). systemd names a unit's cgroup
 * after the unit, so the tree is searched for a directory of that name, at any depth.
 */
#ifndef MEMTIDE_UNIT_SEARCH_H
#define MEMTIDE_UNIT_SEARCH_H

#include <stddef.h>

#include "cgroup.h"

/*
 * The cgroups named UNIT ("-.slice" is the root, systemd.special(7)). Returns how many
 * there are, the first's path in PATH; or the -errno of the walk.
 */
int unit_search(const struct cgroot *root, const char *unit, char *path, size_t size);

/*
 * Call FN with the path of every cgroup whose name is a unit's with a cgroup
 * (is_unit_name()) and matches PATTERN as systemd matches unit patterns (fnmatch() without
 * escapes), parents before children, names in order; the root for "-.slice". FN returns 0,
 * or a -errno that stops the search. Returns the number of matches, or a -errno of the walk
 * or FN.
 */
typedef int (*unit_search_fn)(const char *path, void *data);
int unit_search_pattern(const struct cgroot *root, const char *pattern, unit_search_fn fn,
			void *data);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the words of a command line name: a path, pid:N, a systemd unit as systemctl takes
 * it, or a pattern over units. Resolving opens each cgroup (cgroup.h's struct target).
 */
#ifndef MEMTIDE_TARGET_H
#define MEMTIDE_TARGET_H

#include <stddef.h>

#include "cgroup.h"
#include "unit.h"

/* Targets, in the order the words named them; a pattern adds every cgroup it matches. */
struct target_list {
	struct target *t;
	int n, cap;
};

/*
 * Resolve ARG, adding its cgroups to L (each target's arg is ARG):
 * - "pid:N": the cgroup of process N, from /proc/N/cgroup;
 * - a word with '/', ".", "..": a path (absolute under the mount, or relative to it; "/a/b"
 *   is read as the cgroup /a/b when the mount is not a prefix of it);
 * - a pattern (*, ?, [): every unit of manager M it matches (unit_list()), or when M has
 *   none loaded, every cgroup in the tree with a unit's name that matches; none is -ENOENT;
 * - a unit ("foo.slice", "getty@tty1.service"; "sshd" is "sshd.service" unless a cgroup at
 *   the top of the tree has that name, which stays a path): its ControlGroup from M, else,
 *   when M has not loaded it or no bus answers, the one cgroup of that name in the tree.
 * Each cgroup must have the memory controller. On failure, nothing is added, ERR says why,
 * and returns -ENOENT (no such cgroup, unit or process, or no match), -ENOTSUP (not a
 * memory cgroup), -EXDEV (escapes the mount), -ELOOP (through a symlink), -EINVAL, or
 * another -errno.
 */
int target_expand(const struct cgroot *root, enum unit_manager m, const char *arg,
		  struct target_list *l, char *err, size_t errlen);
/* Close every target of L and free it; L is empty again. */
void target_list_close(struct target_list *l);

/* One word, one cgroup, into T: target_expand() of what is not a pattern (-EINVAL). */
int target_resolve(const struct cgroot *root, enum unit_manager m, const char *arg,
		   struct target *t, char *err, size_t errlen);

#endif

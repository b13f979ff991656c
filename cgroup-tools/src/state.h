/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What memtide last did to each cgroup, for `memtide status`: the kernel reports a result
 * only to the descriptor that wrote, so memtide keeps its own record. One line per cgroup
 * and operation in $MEMTIDE_STATE_DIR/last (default /run/memtide, or
 * $XDG_RUNTIME_DIR/memtide for other users): "OP STATUS BYTES UNIX-TIME PATH". PATH is
 * written cescape()d (output.h), so that a cgroup's name, which a delegated user chooses,
 * is one line whatever it holds.
 */
#ifndef MEMTIDE_STATE_H
#define MEMTIDE_STATE_H

#include <stdint.h>
#include <time.h>

#include "memtide.h"

struct last_op {
	char status[16];		/* done, partial, interrupted */
	uint64_t bytes;			/* reclaimed or released */
	time_t when;
};

/*
 * The directory of the records: $MEMTIDE_STATE_DIR, else /run/memtide for root and
 * $XDG_RUNTIME_DIR/memtide for other users; an empty variable is an unset one. Returns 0,
 * or -ENOENT when there is none (another user without XDG_RUNTIME_DIR).
 */
int state_dir(char *buf, size_t len);
/* Remember RES for CGROUP; best effort (a read-only /run must not fail the command). */
void state_record(const char *cgroup, const struct op_result *res);
/* The last OPERATION ("reclaim", "release") on CGROUP; 0, or -ENOENT if none. */
int state_lookup(const char *cgroup, const char *operation, struct last_op *last);

/*
 * The cgroups `memtide hibernate` shrank, in release order, for `memtide resume` (another
 * process, after the machine comes back): "PRIORITY PATH" lines in $STATE/prepared, PATH
 * cescape()d. Written whole or not at all (a temporary file, synced, renamed over it, as
 * every state file is); returns 0 or -errno, the old list untouched on failure. /run is a
 * tmpfs, so the list is in the hibernation image and gone after a reboot.
 */
int state_save_prepared(char *const *paths, const int *priorities, int n);
/* The list, or -ENOENT; *PATHS and its strings malloc'ed. Returns the count. */
int state_load_prepared(char ***paths);
/*
 * CGROUP's release is over (done, partial or failed): off the list, which goes when it is
 * empty. An interrupted one stays, for the next `memtide resume`. Returns 0 or -errno.
 */
int state_prepared_done(const char *cgroup);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory.reclaim and memory.release read-back protocol: write the request on a
 * descriptor opened O_RDWR, then pread() the result from offset 0 of the same descriptor
 * (the write moved the offset).
 */
#ifndef RECLAIM_RESULT_H
#define RECLAIM_RESULT_H

#include <stdbool.h>

struct reclaim_result {
	bool requested_max;
	long requested, reclaimed, anon, file, slab, demoted, scanned, elapsed_us;
};

/* Opens cgroup/memory.reclaim O_RDWR; the fd, or -errno. */
int reclaim_open(const char *cgroup);

/* Writes request (no trailing newline added); 0 or -errno. */
int reclaim_write(int fd, const char *request);

/* pread()s and parses the result; 0, or -1 if a key is missing or unknown. */
int reclaim_read(int fd, struct reclaim_result *res);

/* open + write + read + close in one; returns the write's 0 or -errno, or -ENODATA if unreadable. */
int reclaim_request(const char *cgroup, const char *request, struct reclaim_result *res);

struct release_result {
	bool requested_max;
	long requested, released, anon, shmem, resident, read, no_room, skipped, remaining,
	     elapsed_us;
};

/* As the reclaim_* functions, for cgroup/memory.release (written with reclaim_write()). */
int release_open(const char *cgroup);
int release_read(int fd, struct release_result *res);
int release_request(const char *cgroup, const char *request, struct release_result *res);

#endif

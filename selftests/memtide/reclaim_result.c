// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reclaim_result.h"

int reclaim_write(int fd, const char *request)
{
	return write(fd, request, strlen(request)) < 0 ? -errno : 0;
}

/*
 * pread()s a flat-keyed result and fills vals[i] from keys[i]; a first value of "max" sets
 * *first_max. 0, or -1 if a key is missing or unknown (the test must learn about it).
 */
static int result_read(int fd, const char *const *keys, long *const *vals, size_t n,
		       bool *first_max)
{
	unsigned int seen = 0;
	char buf[1024], *line, *save;
	ssize_t len;
	size_t i;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	*first_max = false;
	for (i = 0; i < n; i++)
		*vals[i] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, ' ');

		if (!val)
			return -1;
		*val++ = '\0';
		for (i = 0; i < n; i++)
			if (!strcmp(line, keys[i]))
				break;
		if (i == n)
			return -1;
		if (i == 0 && !strcmp(val, "max"))
			*first_max = true;
		else
			*vals[i] = strtol(val, NULL, 10);
		seen |= 1u << i;
	}
	return seen == (1u << n) - 1 ? 0 : -1;
}

static int result_open(const char *cgroup, const char *file)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", cgroup, file);
	fd = open(path, O_RDWR);
	return fd < 0 ? -errno : fd;
}

int reclaim_open(const char *cgroup)
{
	return result_open(cgroup, "memory.reclaim");
}

int reclaim_read(int fd, struct reclaim_result *res)
{
	static const char *const keys[] = {
		"requested", "reclaimed", "anon", "file", "slab", "demoted", "scanned",
		"elapsed_us",
	};
	long *const vals[] = {
		&res->requested, &res->reclaimed, &res->anon, &res->file, &res->slab,
		&res->demoted, &res->scanned, &res->elapsed_us,
	};

	memset(res, 0, sizeof(*res));	/* padding too: tests compare results with memcmp() */
	return result_read(fd, keys, vals, sizeof(keys) / sizeof(keys[0]), &res->requested_max);
}

int release_open(const char *cgroup)
{
	return result_open(cgroup, "memory.release");
}

int release_read(int fd, struct release_result *res)
{
	static const char *const keys[] = {
		"requested", "released", "anon", "shmem", "resident", "read", "no_room",
		"skipped", "remaining", "elapsed_us",
	};
	long *const vals[] = {
		&res->requested, &res->released, &res->anon, &res->shmem, &res->resident,
		&res->read, &res->no_room, &res->skipped, &res->remaining, &res->elapsed_us,
	};

	memset(res, 0, sizeof(*res));	/* padding too: tests compare results with memcmp() */
	return result_read(fd, keys, vals, sizeof(keys) / sizeof(keys[0]), &res->requested_max);
}

int release_request(const char *cgroup, const char *request, struct release_result *res)
{
	int fd = release_open(cgroup);
	int err;

	if (fd < 0)
		return fd;
	err = reclaim_write(fd, request);
	if (release_read(fd, res))
		err = -ENODATA;
	close(fd);
	return err;
}

int reclaim_request(const char *cgroup, const char *request, struct reclaim_result *res)
{
	int fd = reclaim_open(cgroup);
	int err;

	if (fd < 0)
		return fd;
	err = reclaim_write(fd, request);
	if (reclaim_read(fd, res))
		err = -ENODATA;
	close(fd);
	return err;
}

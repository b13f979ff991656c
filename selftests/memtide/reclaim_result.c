// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reclaim_result.h"

int reclaim_open(const char *cgroup)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/memory.reclaim", cgroup);
	fd = open(path, O_RDWR);
	return fd < 0 ? -errno : fd;
}

int reclaim_write(int fd, const char *request)
{
	return write(fd, request, strlen(request)) < 0 ? -errno : 0;
}

int reclaim_read(int fd, struct reclaim_result *res)
{
	static const char *const keys[] = {
		"requested", "reclaimed", "anon", "file", "slab", "scanned", "elapsed_us",
	};
	long *vals[] = {
		&res->requested, &res->reclaimed, &res->anon, &res->file, &res->slab,
		&res->scanned, &res->elapsed_us,
	};
	unsigned int seen = 0;
	char buf[1024], *line, *save;
	ssize_t n;
	size_t i;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	memset(res, 0, sizeof(*res));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *val = strchr(line, ' ');

		if (!val)
			return -1;
		*val++ = '\0';
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(line, keys[i]))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			return -1;	/* an unknown key: the test must learn about it */
		if (i == 0 && !strcmp(val, "max"))
			res->requested_max = true;
		else
			*vals[i] = strtol(val, NULL, 10);
		seen |= 1u << i;
	}
	return seen == (1u << (sizeof(keys) / sizeof(keys[0]))) - 1 ? 0 : -1;
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

// SPDX-License-Identifier: GPL-2.0
/* Reading a cgroup's files: whole, as a number, as flat keys; its memory, pressure, procs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "parse.h"

int cg_read(const struct target *t, const char *file, char *buf, size_t size)
{
	size_t len = 0;
	int fd = cg_open(t, file, O_RDONLY), ret = 0;

	if (fd < 0)
		return fd;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return ret ? ret : (int)len;
}

int cg_read_u64(const struct target *t, const char *file, uint64_t *value)
{
	char buf[64];
	int ret = cg_read(t, file, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	buf[strcspn(buf, "\n")] = '\0';
	if (!strcmp(buf, "max")) {
		*value = UINT64_MAX;
		return 0;
	}
	return parse_size(buf, value) ? -EINVAL : 0;
}

int cg_read_keyed(const struct target *t, const char *file, struct keyed *r)
{
	char buf[8192];
	int ret = cg_read(t, file, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	/* a full buffer may be a file cut short: its last keys would look absent */
	if (ret == sizeof(buf) - 1)
		return -E2BIG;
	ret = keyed_parse(buf, r);
	return ret < 0 ? ret : 0;
}

int cg_read_usage(const struct target *t, struct cg_usage *u)
{
	struct keyed stat;
	int ret;

	memset(u, 0, sizeof(*u));
	ret = cg_read_keyed(t, "memory.stat", &stat);
	if (!ret) {
		keyed_get(&stat, "anon", &u->anon);
		keyed_get(&stat, "file", &u->file);
		keyed_get(&stat, "shmem", &u->shmem);
		u->has_scan_pressure = keyed_get(&stat, "scan_pressure", &u->scan_pressure);
	}
	u->has_current = !cg_read_u64(t, "memory.current", &u->current);
	if (!u->has_current)
		u->current = u->anon + u->file;
	return ret;
}

int cg_read_pressure(const struct target *t, long *avg10_centi)
{
	char buf[512];
	unsigned int whole, frac;
	int ret = cg_read(t, "memory.pressure", buf, sizeof(buf));

	if (ret < 0)
		return ret;
	if (sscanf(buf, "some avg10=%u.%2u", &whole, &frac) != 2)
		return -EINVAL;
	*avg10_centi = whole * 100L + frac;
	return 0;
}

int cg_procs(const struct target *t, int **pids)
{
	int fd = cg_open(t, "cgroup.procs", O_RDONLY), *list = NULL, pid;
	size_t n = 0, cap = 0;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fscanf(f, "%d", &pid) == 1) {
		if (n == cap) {
			int *bigger = realloc(list, (cap = cap ? cap * 2 : 64) * sizeof(*list));

			if (!bigger) {
				free(list);
				fclose(f);
				return -ENOMEM;
			}
			list = bigger;
		}
		list[n++] = pid;
	}
	fclose(f);
	*pids = list;
	return (int)n;
}

// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "target.h"
#include "unit_name.h"
#include "unit_search.h"

#define seterr(...) snprintf(err, errlen, __VA_ARGS__)

/* The cgroup v2 path of process PID ("0::/path" in /proc/PID/cgroup). */
static int pid_cgroup(const char *spec, char *path, size_t size, char *err, size_t errlen)
{
	const char *proc = getenv("MEMTIDE_PROC_ROOT");
	char file[PATH_MAX], line[PATH_MAX + 8], *end;
	long pid;
	FILE *f;
	int ret = -ENOENT;

	errno = 0;
	pid = strtol(spec, &end, 10);
	if (!isdigit((unsigned char)*spec) || *end || errno || pid <= 0 || pid > INT32_MAX) {
		seterr("not a process id");
		return -EINVAL;
	}
	snprintf(file, sizeof(file), "%s/%ld/cgroup", proc ? proc : "/proc", pid);
	f = fopen(file, "re");
	if (!f) {
		ret = -errno;
		if (errno == ENOENT)
			seterr("no such process");
		else
			seterr("%s: %s", file, strerror(errno));
		return ret;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "0::", 3)) {
			size_t len = strcspn(line + 3, "\n");

			if (len >= size)
				break;
			memcpy(path, line + 3, len);
			path[len] = '\0';
			ret = 0;
			break;
		}
	}
	fclose(f);
	if (ret)
		seterr("process %ld is not in a cgroup v2 hierarchy", pid);
	return ret;
}

enum word { WORD_PID, WORD_PATH, WORD_UNIT, WORD_PATTERN };

/*
 * What ARG is; for a unit or a pattern, its name as systemctl reads it into UNIT. Returns
 * the kind, or -EINVAL with ERR saying why for a unit name memtide cannot act on.
 */
static int classify(const struct cgroot *root, const char *arg, char *unit, size_t size,
		    char *err, size_t errlen)
{
	struct stat st;
	int ret;

	if (!strncmp(arg, "pid:", 4))
		return WORD_PID;
	if (strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, ".."))
		return WORD_PATH;
	/*
	 * "sshd" is sshd.service, as systemctl reads it; but a cgroup at the top of the tree
	 * with a name that is not a unit's (made by hand, or by a container manager's cgroupfs
	 * driver: /docker) was a path before, and stays one, so that no command line that named
	 * a cgroup names another now.
	 */
	if (!is_unit_name(arg) && !unit_name_is_glob(arg) &&
	    !fstatat(root->fd, arg, &st, AT_SYMLINK_NOFOLLOW))
		return WORD_PATH;
	ret = unit_name_mangle(arg, unit, size, err, errlen);
	if (ret)
		return ret;
	return unit_name_is_glob(unit) ? WORD_PATTERN : WORD_UNIT;
}

/* Open PATH as a target of ARG at the end of L. */
static int add(const struct cgroot *root, struct target_list *l, const char *arg,
	       const char *path, char *err, size_t errlen)
{
	int ret;

	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 8;
		struct target *bigger = realloc(l->t, cap * sizeof(*bigger));

		if (!bigger) {
			seterr("%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		l->t = bigger;
		l->cap = cap;
	}
	ret = target_open_path(root, path, &l->t[l->n], err, errlen);
	if (!ret)
		l->t[l->n++].arg = arg;
	return ret;
}

/*
 * UNIT's cgroup into PATH: from manager M; when M has not loaded it (it may be another
 * manager's: a user session's scope is the user's manager's, not the system's) or no bus
 * answers, the one cgroup of that name in the tree. MANGLED: the user wrote it without its
 * type, which messages then name.
 */
static int unit_path(const struct cgroot *root, enum unit_manager m, const char *unit,
		     bool mangled, char *path, size_t size, char *err, size_t errlen)
{
	char why[64], named[UNIT_NAME_MAX + 4] = "";
	int ret = unit_cgroup(m, unit, path, size, err, errlen);

	/* what the manager said of a unit it has loaded (no cgroup, a bad name) stands */

	if (ret != -ENOENT && ret != -ENOTCONN)
		return ret;
	if (ret == -ENOTCONN)
		snprintf(why, sizeof(why), "no %s", unit_bus_name(m));
	else
		snprintf(why, sizeof(why), "not loaded by %s", unit_manager_name(m));
	if (mangled)
		snprintf(named, sizeof(named), " (%s)", unit);
	ret = unit_search(root, unit, path, size);
	if (ret < 0) {
		seterr("cannot search the cgroup tree: %s", strerror(-ret));
		return ret;
	}
	if (!ret) {
		if (mangled)
			seterr("no such cgroup, nor unit %s (%s, and no cgroup of that name)",
			       unit, why);
		else
			seterr("no such unit (%s, and no cgroup of that name)", why);
		return -ENOENT;
	}
	if (ret > 1) {
		seterr("%s, and %d cgroups have that name%s; give the path", why, ret, named);
		return -EINVAL;
	}
	return 0;
}

/* A pattern's matches, added to a list as they are found */
struct matching {
	const struct cgroot *root;
	struct target_list *l;
	const char *arg;
	char *err;
	size_t errlen;
	bool failed;			/* a match could not be opened: ERR says why */
	int stopped;			/* loaded units that match, without a cgroup */
};

static int add_match(const char *path, void *data)
{
	struct matching *c = data;
	char why[512];
	int ret = add(c->root, c->l, c->arg, path, why, sizeof(why));

	if (ret) {
		snprintf(c->err, c->errlen, "%s: %s", path, why);
		c->failed = true;
	}
	return ret;
}

static int add_unit(const char *unit, const char *cgroup, void *data)
{
	struct matching *c = data;

	/* loaded, and stopped: nothing to act on, as systemctl skips it */
	if (!*cgroup) {
		c->stopped++;
		return 0;
	}
	return add_match(cgroup, data);
}

/*
 * Every unit of manager M that PATTERN matches; when M has none loaded (or no bus
 * answers), every cgroup in the tree with a unit's name that matches.
 */
static int pattern_targets(const struct cgroot *root, enum unit_manager m, const char *arg,
			   const char *pattern, struct target_list *l, char *err, size_t errlen)
{
	struct matching c = { .root = root, .l = l, .arg = arg, .err = err, .errlen = errlen };
	char why[64];
	int ret = unit_list(m, pattern, add_unit, &c, err, errlen);

	if (ret > 0 && ret == c.stopped) {
		seterr("no cgroup: the %d loaded unit%s it matches %s not running", ret,
		       ret > 1 ? "s" : "", ret > 1 ? "are" : "is");
		return -ENOENT;
	}
	if (ret > 0)
		return 0;
	if (ret < 0 && ret != -ENOTCONN)
		return ret;
	if (ret == -ENOTCONN)
		snprintf(why, sizeof(why), "no %s", unit_bus_name(m));
	else
		snprintf(why, sizeof(why), "none loaded by %s", unit_manager_name(m));
	ret = unit_search_pattern(root, pattern, add_match, &c);
	if (ret < 0 && !c.failed)
		seterr("cannot search the cgroup tree: %s", strerror(-ret));
	if (!ret) {
		seterr("no unit matches (%s, and no cgroup's name matches)", why);
		return -ENOENT;
	}
	return ret < 0 ? ret : 0;
}

int target_expand(const struct cgroot *root, enum unit_manager m, const char *arg,
		  struct target_list *l, char *err, size_t errlen)
{
	char path[PATH_MAX], unit[UNIT_NAME_MAX];
	int n = l->n, ret;

	if (!*arg) {
		seterr("empty target");
		return -EINVAL;
	}
	ret = classify(root, arg, unit, sizeof(unit), err, errlen);
	switch (ret) {
	case WORD_PID:
		ret = pid_cgroup(arg + 4, path, sizeof(path), err, errlen);
		break;
	case WORD_PATH:
		snprintf(path, sizeof(path), "%s", arg);
		ret = 0;
		break;
	case WORD_UNIT:
		/* ControlGroup is relative to the mount, like /proc/PID/cgroup */
		ret = unit_path(root, m, unit, strcmp(unit, arg), path, sizeof(path), err,
				errlen);
		break;
	case WORD_PATTERN:
		ret = pattern_targets(root, m, arg, unit, l, err, errlen);
		break;
	}
	if (!ret && l->n == n)
		ret = add(root, l, arg, path, err, errlen);
	/* nothing of a word that failed: what its other matches opened is closed */
	while (ret && l->n > n)
		target_close(&l->t[--l->n]);
	return ret;
}

void target_list_close(struct target_list *l)
{
	for (int i = 0; i < l->n; i++)
		target_close(&l->t[i]);
	free(l->t);
	memset(l, 0, sizeof(*l));
}

int target_resolve(const struct cgroot *root, enum unit_manager m, const char *arg,
		   struct target *t, char *err, size_t errlen)
{
	struct target_list l = { 0 };
	char unit[UNIT_NAME_MAX];
	int ret;

	t->arg = arg;
	t->fd = -1;
	if (*arg && classify(root, arg, unit, sizeof(unit), err, errlen) == WORD_PATTERN) {
		seterr("a pattern, which may match several units, is not taken here");
		return -EINVAL;
	}
	ret = target_expand(root, m, arg, &l, err, errlen);
	if (!ret) {
		*t = l.t[0];
		l.n = 0;
	}
	target_list_close(&l);
	return ret;
}

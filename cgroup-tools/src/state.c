// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "report.h"
#include "state.h"

/* An environment variable, or NULL when unset or empty (as systemd's tools read them). */
static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int state_dir(char *buf, size_t len)
{
	const char *dir = env_nonempty("MEMTIDE_STATE_DIR");
	const char *runtime = env_nonempty("XDG_RUNTIME_DIR");

	if (dir)
		snprintf(buf, len, "%s", dir);
	else if (geteuid() == 0)
		snprintf(buf, len, "/run/memtide");
	else if (runtime)
		snprintf(buf, len, "%s/memtide", runtime);
	else
		return -ENOENT;
	return 0;
}

/*
 * Parse "OP STATUS BYTES TIME PATH"; PATH is the rest of the line (names may hold spaces),
 * cescape()d: a name with a newline is one line.
 */
static int parse_line(char *line, char **op, struct last_op *last, char **path)
{
	long long when;
	int pos = 0;

	line[strcspn(line, "\n")] = '\0';
	*op = line;
	if (sscanf(line, "%*15s %15s %" SCNu64 " %lld %n", last->status, &last->bytes, &when,
		   &pos) != 3 || !pos)
		return -EINVAL;
	line[strcspn(line, " ")] = '\0';
	last->when = (time_t)when;
	*path = line + pos;
	return 0;
}

/*
 * Files are replaced whole: written to a temporary file beside FILE (mkostemp, so that two
 * writers never share one), synced, then renamed over FILE, so that a reader (or a crash)
 * sees the old contents or the new, never half of them. TMP receives its name.
 */
static FILE *replace_start(const char *file, char *tmp, size_t len)
{
	FILE *out;
	int fd, err;

	snprintf(tmp, len, "%s.XXXXXX", file);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return NULL;
	out = fdopen(fd, "w");
	if (!out) {
		err = errno;
		close(fd);
		unlink(tmp);
		errno = err;
	}
	return out;
}

/* Returns 0 or -errno (-EIO if the error has none); the temporary file is gone either way. */
static int replace_commit(FILE *out, const char *tmp, const char *file)
{
	int ret = 0;

	errno = 0;
	if (fflush(out) || ferror(out) || fsync(fileno(out)))
		ret = errno ? -errno : -EIO;
	if (fclose(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, file))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

void state_record(const char *cgroup, const struct op_result *res)
{
	char dir[PATH_MAX], file[PATH_MAX + 8], tmp[PATH_MAX + 24], key[CESCAPE_SIZE(PATH_MAX)];
	const char *kind = strcmp(res->operation, "reclaim") ? "released" : "reclaimed";
	char *line = NULL, *copy;
	size_t size = 0;
	uint64_t bytes = 0;
	FILE *in, *out;
	int lock;

	if (res->status == OP_ERROR || state_dir(dir, sizeof(dir)))
		return;
	cescape(cgroup, key, sizeof(key));
	mkdir(dir, 0700);
	snprintf(file, sizeof(file), "%s/last", dir);
	lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock < 0)
		return;
	flock(lock, LOCK_EX);
	out = replace_start(file, tmp, sizeof(tmp));
	if (!out)
		goto unlock;
	in = fopen(file, "re");
	while (in && getline(&line, &size, in) > 0) {
		struct last_op old;
		char *op, *path;

		copy = strdup(line);
		if (copy && !parse_line(copy, &op, &old, &path) &&
		    (strcmp(op, res->operation) || strcmp(path, key)))
			fputs(line, out);
		free(copy);
	}
	free(line);
	if (in)
		fclose(in);
	keyed_get(&res->r, kind, &bytes);
	fprintf(out, "%s %s %" PRIu64 " %lld %s\n", res->operation, op_status_name(res->status),
		bytes, (long long)time(NULL), key);
	replace_commit(out, tmp, file);
unlock:
	flock(lock, LOCK_UN);
	close(lock);
}

int state_lookup(const char *cgroup, const char *operation, struct last_op *last)
{
	char dir[PATH_MAX], file[PATH_MAX + 8], key[CESCAPE_SIZE(PATH_MAX)], *line = NULL;
	size_t size = 0;
	int ret = -ENOENT;
	FILE *in;

	if (state_dir(dir, sizeof(dir)))
		return -ENOENT;
	snprintf(file, sizeof(file), "%s/last", dir);
	in = fopen(file, "re");
	if (!in)
		return -ENOENT;
	cescape(cgroup, key, sizeof(key));
	while (getline(&line, &size, in) > 0) {
		struct last_op entry;
		char *op, *path;

		if (!parse_line(line, &op, &entry, &path) && !strcmp(op, operation) &&
		    !strcmp(path, key)) {
			*last = entry;
			ret = 0;
		}
	}
	free(line);
	fclose(in);
	return ret;
}

static int prepared_file(char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (state_dir(dir, sizeof(dir)))
		return -ENOENT;
	mkdir(dir, 0700);
	snprintf(buf, len, "%s/prepared", dir);
	return 0;
}

/*
 * Written whole or not at all (replace_start): a prepare cut short (a full /run, a crash)
 * leaves the last list as it was, never a part of a new one.
 */
int state_save_prepared(char *const *paths, const int *priorities, int n)
{
	char file[PATH_MAX + 16], tmp[PATH_MAX + 24], key[CESCAPE_SIZE(PATH_MAX)];
	FILE *f;

	if (prepared_file(file, sizeof(file)))
		return -ENOENT;
	f = replace_start(file, tmp, sizeof(tmp));
	if (!f)
		return -errno;
	for (int i = 0; i < n; i++)
		fprintf(f, "%d %s\n", priorities[i], cescape(paths[i], key, sizeof(key)));
	return replace_commit(f, tmp, file);
}

/*
 * The path of a "PRIORITY PATH" line, cunescape()d into PATH (LINE loses its newline).
 * Returns 0, or -EINVAL if it is not such a line.
 */
static int prepared_path(char *line, char *path, size_t len)
{
	int pos = 0;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%*d %n", &pos) != 0 || !pos || line[pos] != '/' ||
	    cunescape(line + pos, path, len))
		return -EINVAL;
	return 0;
}

int state_load_prepared(char ***paths)
{
	char file[PATH_MAX + 16], path[PATH_MAX], *line = NULL;
	char **list = NULL;
	size_t size = 0;
	int n = 0;
	FILE *f;

	if (prepared_file(file, sizeof(file)))
		return -ENOENT;
	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		char **bigger;

		if (prepared_path(line, path, sizeof(path)))
			continue;
		bigger = realloc(list, (n + 1) * sizeof(*list));
		if (!bigger || !(bigger[n] = strdup(path))) {
			free(bigger ? bigger : list);
			free(line);
			fclose(f);
			return -ENOMEM;
		}
		list = bigger;
		n++;
	}
	free(line);
	fclose(f);
	*paths = list;
	return n;
}

int state_prepared_done(const char *cgroup)
{
	char file[PATH_MAX + 16], tmp[PATH_MAX + 24], path[PATH_MAX], *line = NULL, *copy;
	bool found = false;
	size_t size = 0;
	int left = 0, ret;
	FILE *in, *out;

	if (prepared_file(file, sizeof(file)))
		return -ENOENT;
	in = fopen(file, "re");
	if (!in)
		return -errno;
	out = replace_start(file, tmp, sizeof(tmp));
	if (!out) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while (getline(&line, &size, in) > 0) {
		copy = strdup(line);
		if (!copy) {
			free(line);
			fclose(in);
			fclose(out);
			unlink(tmp);
			return -ENOMEM;
		}
		ret = prepared_path(copy, path, sizeof(path));
		free(copy);
		if (ret)
			continue;
		/* compared unescaped: the line holds the cescape()d name */
		if (!found && !strcmp(path, cgroup)) {
			found = true;
			continue;
		}
		fputs(line, out);
		left++;
	}
	free(line);
	fclose(in);
	ret = replace_commit(out, tmp, file);
	/* nothing left to release: no list, as before the prepare */
	if (!ret && !left && unlink(file))
		ret = -errno;
	return ret;
}

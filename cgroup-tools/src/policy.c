// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "parse.h"
#include "policy.h"

void policy_default(struct policy *p)
{
	memset(p, 0, sizeof(*p));
	p->shrink_hibernate = true;
	p->release_priority = POLICY_DEFAULT_PRIORITY;
	p->idle_threshold_us = POLICY_DEFAULT_IDLE_US;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* "idle hibernate", "both", "never": returns 0 or -EINVAL */
static int parse_shrink(const char *value, struct policy *p)
{
	bool idle = false, hibernate = false, never = false;
	char words[128], *save = NULL;

	if (strlen(value) >= sizeof(words))
		return -EINVAL;
	strcpy(words, value);
	for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(w, "idle"))
			idle = true;
		else if (!strcmp(w, "hibernate"))
			hibernate = true;
		else if (!strcmp(w, "both"))
			idle = hibernate = true;
		else if (!strcmp(w, "never"))
			never = true;
		else
			return -EINVAL;
	}
	if (never == (idle || hibernate))
		return -EINVAL;	/* empty, or "never" with something else */
	p->shrink_idle = idle;
	p->shrink_hibernate = hibernate;
	return 0;
}

int policy_apply_text(const char *text, const char *name, struct policy *p, char *warn,
		      size_t len)
{
	struct policy next = *p;
	bool ours = false, set = false;
	char *copy = strdup(text), *line;
	int lineno = 0, ret = 0;

	if (!copy)
		return -ENOMEM;
	/* strsep keeps empty lines, so line numbers stay right */
	for (char *rest = copy; (line = strsep(&rest, "\n")) && !ret;) {
		char *s = trim(line), *eq, *key, *value;
		uint64_t v;

		lineno++;
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			ours = !strcmp(s, "[X-Memtide]");
			continue;
		}
		if (!ours)
			continue;	/* systemd's sections are systemd's business */
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(warn, len, "%s:%d: expected Key=Value", name, lineno);
			ret = -EINVAL;
			break;
		}
		*eq = '\0';
		key = trim(s);
		value = trim(eq + 1);
		if (!strcmp(key, "Shrink")) {
			if (parse_shrink(value, &next))
				ret = -EINVAL;
		} else if (!strcmp(key, "ReleasePriority")) {
			if (parse_uint(value, POLICY_MAX_PRIORITY, &v))
				ret = -EINVAL;
			else
				next.release_priority = (int)v;
		} else if (!strcmp(key, "IdleThreshold")) {
			if (parse_duration(value, &v))
				ret = -EINVAL;
			else
				next.idle_threshold_us = v;
		} else {
			snprintf(warn, len, "%s:%d: unknown key '%s' in [X-Memtide]", name, lineno,
				 key);
			ret = -EINVAL;
			break;
		}
		if (ret)
			snprintf(warn, len, "%s:%d: invalid %s '%s'", name, lineno, key, value);
		set = true;
	}
	free(copy);
	if (ret)
		return ret;
	if (set)
		next.sources++;
	*p = next;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(strrchr(*(char *const *)a, '/') + 1, strrchr(*(char *const *)b, '/') + 1);
}

/*
 * A growable list of malloc'ed strings. systemd sets no limit on a unit's drop-in directories
 * (a long instance name has hundreds: its template's and every prefix's, in each directory of
 * the search path) or on its drop-ins, so neither does this. The first failed allocation
 * sticks in ERR.
 */
struct strv {
	char **v;
	int n, cap, err;
};

/* Add S (malloc'ed, NULL if its allocation failed), which STRV then owns */
static void strv_push(struct strv *sv, char *s)
{
	if (!s || sv->err) {
		free(s);
		sv->err = -ENOMEM;
		return;
	}
	if (sv->n == sv->cap) {
		int cap = sv->cap ? 2 * sv->cap : 32;
		char **v = realloc(sv->v, cap * sizeof(*v));

		if (!v) {
			free(s);
			sv->err = -ENOMEM;
			return;
		}
		sv->v = v;
		sv->cap = cap;
	}
	sv->v[sv->n++] = s;
}

static void strv_free(struct strv *sv)
{
	for (int i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

/* DIR/NAMESUFFIX, malloc'ed; NULL if out of memory */
static char *join(const char *dir, const char *name, const char *suffix)
{
	char *s;

	return asprintf(&s, "%s/%s%s", dir, name, suffix) < 0 ? NULL : s;
}

/* Whether a drop-in named NAME is already among the N in LIST (an earlier directory's). */
static bool hidden(char **list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(strrchr(list[i], '/') + 1, name))
			return true;
	return false;
}

/* A drop-in longer than this is no policy file: ignored, not read into memory */
#define DROPIN_MAX (64 * 1024)

/*
 * The whole of PATH, NUL-terminated, in *TEXT (malloc'ed): a regular file of at most
 * DROPIN_MAX bytes, or /dev/null (a mask, empty). Opened without blocking, so that a FIFO
 * cannot hang a plan. Without FOLLOW (a user's own directories, which root reads) a
 * symbolic link is taken only to /dev/null: root must not read what the link's owner could
 * not. On failure, *WHY says why, or is NULL for strerror's word.
 */
static int read_file(const char *path, bool follow, char **text, const char **why)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
	char target[16];
	struct stat st;
	ssize_t len;
	int ret = 0;

	*text = NULL;
	*why = NULL;
	if (fd < 0 && errno == ELOOP && !follow) {
		len = readlink(path, target, sizeof(target) - 1);
		if (len >= 0)
			target[len] = '\0';
		if (len < 0 || strcmp(target, "/dev/null")) {
			*why = "a symbolic link in a user's directory (only one to /dev/null is taken)";
			return -ELOOP;
		}
		return (*text = strdup("")) ? 0 : -ENOMEM;
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
	} else if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) {
		*text = strdup("");	/* /dev/null: a mask */
		ret = *text ? 0 : -ENOMEM;
	} else if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		ret = -EINVAL;
	} else if (st.st_size > DROPIN_MAX || !(*text = malloc(st.st_size + 1))) {
		*why = st.st_size > DROPIN_MAX ? "larger than 64 KiB" : NULL;
		ret = st.st_size > DROPIN_MAX ? -EFBIG : -ENOMEM;
	} else {
		len = read(fd, *text, st.st_size);
		if (len < 0) {
			ret = -errno;
			free(*text);
			*text = NULL;
		} else {
			(*text)[len] = '\0';
		}
	}
	close(fd);
	return ret;
}

/*
 * systemd's search path for system units (systemd.unit(5), "Unit File Load Path"), in its
 * order: a drop-in in an earlier directory hides one of the same name in a later one.
 * /lib/systemd/system is Debian 12's (its systemd is built for a split /usr).
 */
const char *const policy_system_unit_path[] = {
	"/etc/systemd/system.control", "/run/systemd/system.control", "/run/systemd/transient",
	"/run/systemd/generator.early", "/etc/systemd/system", "/etc/systemd/system.attached",
	"/run/systemd/system", "/run/systemd/system.attached", "/run/systemd/generator",
	"/usr/local/lib/systemd/system", "/lib/systemd/system", "/usr/lib/systemd/system",
	"/run/systemd/generator.late", NULL,
};

/*
 * A user manager's search path (systemd.unit(5), "User Unit Search Path"), in its order, as
 * that manager builds it with the default XDG_CONFIG_HOME, XDG_CONFIG_DIRS and XDG_DATA_DIRS
 * (systemd-analyze unit-paths --user): "~" is the user's home, "%r" its runtime directory.
 */
static const char *const user_unit_path[] = {
	"~/.config/systemd/user.control", "%r/systemd/user.control", "%r/systemd/transient",
	"%r/systemd/generator.early", "~/.config/systemd/user", "/etc/xdg/systemd/user",
	"/etc/systemd/user", "%r/systemd/user", "/run/systemd/user", "%r/systemd/generator",
	"~/.local/share/systemd/user", "/usr/local/share/systemd/user", "/usr/share/systemd/user",
	"/usr/local/lib/systemd/user", "/usr/lib/systemd/user", "%r/systemd/generator.late",
};

/* The unit types systemd knows: a name's suffix that is not one of these is no unit's */
static const char *const unit_types[] = {
	"service", "socket", "target", "device", "mount", "automount", "swap", "timer", "path",
	"slice", "scope",
};

static void dirs_add(struct strv *dl, const char *dir, const char *name)
{
	strv_push(dl, join(dir, name, ".d"));
}

/* The type of unit NAME ("slice"), or NULL if NAME is no unit name */
static const char *unit_type(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name)
		return NULL;
	for (size_t i = 0; i < sizeof(unit_types) / sizeof(*unit_types); i++)
		if (!strcmp(dot + 1, unit_types[i]))
			return unit_types[i];
	return NULL;
}

/*
 * DIR/NAME.d, then those of NAME's template (foo@.service for foo@bar.service) and of its
 * prefixes up to each "-" (foo-bar-.service, foo-.service for foo-bar-baz.service, the
 * instance kept), as systemd's unit_file_find_dirs() adds them: the more specific first.
 */
static void unit_dirs(struct strv *dl, const char *dir, const char *name, const char *type)
{
	const char *at = strchr(name, '@'), *dot = strrchr(name, '.');
	bool instance = at && at + 1 < dot;
	char prefix[NAME_MAX + 1], built[2 * NAME_MAX + 2];
	size_t len = (at ? at : dot) - name;
	char *dash;

	dirs_add(dl, dir, name);
	if (instance) {
		snprintf(built, sizeof(built), "%.*s@.%s", (int)(at - name), name, type);
		unit_dirs(dl, dir, built, type);
	}
	if (len >= sizeof(prefix))
		return;
	memcpy(prefix, name, len);
	prefix[len] = '\0';
	/* the last "-" that is not the prefix's last character (one already a prefix's) */
	dash = strrchr(prefix, '-');
	if (dash && !dash[1] && dash > prefix) {
		*dash = '\0';
		dash = strrchr(prefix, '-');
	}
	if (!dash || dash == prefix)
		return;
	dash[1] = '\0';
	if (instance)
		snprintf(built, sizeof(built), "%s@%.*s.%s", prefix, (int)(dot - at - 1), at + 1,
			 type);
	else
		snprintf(built, sizeof(built), "%s.%s", prefix, type);
	unit_dirs(dl, dir, built, type);
}

/* ENV's colon-separated directories into PATH */
static void path_split(const char *env, struct strv *path)
{
	char *copy = strdup(env), *save = NULL;

	if (!copy) {
		path->err = -ENOMEM;
		return;
	}
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
		strv_push(path, strdup(d));
	free(copy);
}

int policy_user_unit_path(uid_t uid, const char *home, char ***dirs)
{
	struct strv path = { 0 };
	char runtime[64];

	snprintf(runtime, sizeof(runtime), "/run/user/%u", (unsigned int)uid);
	for (size_t i = 0; i < sizeof(user_unit_path) / sizeof(*user_unit_path); i++) {
		const char *d = user_unit_path[i];

		if (*d == '~' && home)
			strv_push(&path, join(home, d + 2, ""));
		else if (*d == '%')
			strv_push(&path, join(runtime, d + 3, ""));
		else if (*d != '~')
			strv_push(&path, strdup(d));
	}
	/* room for the NULL at the end: strv_push() takes none */
	strv_push(&path, strdup(""));
	if (path.err) {
		int err = path.err;

		strv_free(&path);
		return err;
	}
	free(path.v[--path.n]);
	path.v[path.n] = NULL;
	*dirs = path.v;
	return 0;
}

/*
 * UID's home directory (malloc'ed), or NULL: no passwd entry, one whose home is not an
 * absolute path, or no answer from NSS. Without it, a user manager's path has only the
 * directories shared by all users.
 */
static char *home_of(uid_t uid)
{
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	struct passwd pw, *found = NULL;
	char *buf = NULL, *home = NULL;
	int err = ERANGE;

	/* the suggested size may be too small (or unknown): grow it while it is */
	for (size = size > 0 ? size : 1024; err == ERANGE && size <= 1024 * 1024; size *= 2) {
		char *bigger = realloc(buf, size);

		if (!bigger)
			break;
		buf = bigger;
		err = getpwuid_r(uid, &pw, buf, size, &found);
	}
	if (!err && found && found->pw_dir[0] == '/')
		home = strdup(found->pw_dir);
	free(buf);
	return home;
}

/*
 * The search path of the manager of the unit: UID's user manager, or the system's when UID
 * is POLICY_SYSTEM; $MEMTIDE_UNIT_PATH and $MEMTIDE_USER_UNIT_PATH replace them
 */
static void search_path(uid_t uid, struct strv *path)
{
	const char *env = getenv(uid == POLICY_SYSTEM ? "MEMTIDE_UNIT_PATH" :
							"MEMTIDE_USER_UNIT_PATH");
	char *home = NULL, **user;

	if (env) {
		path_split(env, path);
	} else if (uid == POLICY_SYSTEM) {
		for (size_t i = 0; policy_system_unit_path[i]; i++)
			strv_push(path, strdup(policy_system_unit_path[i]));
	} else {
		home = home_of(uid);
		if (policy_user_unit_path(uid, home, &user)) {
			free(home);
			path->err = -ENOMEM;
			return;
		}
		free(home);
		for (int i = 0; user[i]; i++)
			strv_push(path, user[i]);
		free(user);
	}
}

/*
 * The drop-in directories of UNIT in systemd's order (unit_file_find_dropin_paths()): for
 * each directory of the search path, UNIT's own and its template's and prefixes'; then,
 * in each, the top-level one of its type ("slice.d"), the most generic, last. A name that
 * is no unit's (a cgroup systemd does not manage) has only its own.
 */
static void dropin_dirs(const char *unit, uid_t uid, struct strv *dl)
{
	const char *type = unit_type(unit);
	struct strv path = { 0 };

	search_path(uid, &path);
	for (int i = 0; i < path.n; i++) {
		if (type)
			unit_dirs(dl, path.v[i], unit, type);
		else
			dirs_add(dl, path.v[i], unit);
	}
	for (int i = 0; type && i < path.n; i++)
		dirs_add(dl, path.v[i], type);
	if (path.err)
		dl->err = path.err;
	strv_free(&path);
}

/*
 * Apply the drop-ins FILES (N), in their order, over P; each one ignored is said, but for
 * one that is gone when GONE_OK (a manager's list of the files it loaded, one since removed).
 * FOLLOW as for read_file().
 */
static void apply_files(char *const *files, int n, bool gone_ok, bool follow,
			struct policy *p, policy_warn_fn warn_fn)
{
	for (int i = 0; i < n; i++) {
		char warn[PATH_MAX + 128], *text;
		const char *why;
		int err = read_file(files[i], follow, &text, &why);

		if (err == -ENOENT && gone_ok)
			continue;
		if (err) {
			snprintf(warn, sizeof(warn), "%s: %s; ignored", files[i],
				 why ? why : strerror(-err));
			warn_fn(warn);
		} else {
			if (policy_apply_text(text, files[i], p, warn, sizeof(warn))) {
				strncat(warn, "; the file is ignored", sizeof(warn) - strlen(warn) - 1);
				warn_fn(warn);
			}
			free(text);
		}
	}
}

int policy_load(const char *unit, uid_t uid, const struct policy *base, struct policy *p,
		policy_warn_fn warn_fn)
{
	struct strv dirs = { 0 }, list = { 0 };
	int ret;

	*p = *base;
	p->sources = 0;
	dropin_dirs(unit, uid, &dirs);
	for (int i = 0; i < dirs.n && !list.err; i++) {
		struct dirent *e;
		DIR *dir = opendir(dirs.v[i]);

		if (!dir)
			continue;
		while ((e = readdir(dir)) && !list.err) {
			size_t len = strlen(e->d_name);

			/* as systemd: *.conf, not hidden, the first of each name */
			if (len < 6 || e->d_name[0] == '.' || strcmp(e->d_name + len - 5, ".conf") ||
			    hidden(list.v, list.n, e->d_name))
				continue;
			strv_push(&list, join(dirs.v[i], e->d_name, ""));
		}
		closedir(dir);
	}
	ret = dirs.err ? dirs.err : list.err;
	strv_free(&dirs);
	if (ret) {
		/* a partial list would apply a policy systemd's would not: none at all */
		strv_free(&list);
		return ret;
	}
	if (list.n)
		qsort(list.v, list.n, sizeof(*list.v), by_name);
	apply_files(list.v, list.n, false, uid == POLICY_SYSTEM, p, warn_fn);
	strv_free(&list);
	return 0;
}

int policy_load_files(char *const *files, const struct policy *base, struct policy *p,
		      policy_warn_fn warn_fn)
{
	int n = 0;

	*p = *base;
	p->sources = 0;
	while (files && files[n])
		n++;
	apply_files(files, n, true, true, p, warn_fn);
	return 0;
}

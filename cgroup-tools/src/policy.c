// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "policy.h"

#define MAX_DROPINS 64

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

/* Whether a drop-in named NAME is already among the N in LIST (an earlier directory's). */
static bool hidden(char **list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(strrchr(list[i], '/') + 1, name))
			return true;
	return false;
}

/* The whole of PATH, NUL-terminated, in *TEXT (malloc'ed). */
static int read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "re");
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return -errno;
	*text = NULL;
	/* a drop-in has no NUL: getdelim() reads it whole */
	len = getdelim(text, &cap, '\0', f);
	fclose(f);
	if (len < 0) {
		free(*text);
		*text = strdup("");
	}
	return *text ? 0 : -ENOMEM;
}

int policy_load(const char *unit, const struct policy *base, struct policy *p,
		policy_warn_fn warn_fn)
{
	const char *env = getenv("MEMTIDE_UNIT_PATH");
	char *dirs = strdup(env ? env : "/etc/systemd/system:/run/systemd/system:/usr/lib/systemd/system");
	char *list[MAX_DROPINS], *save = NULL;
	int n = 0, ret = 0;

	*p = *base;
	p->sources = 0;
	if (!dirs)
		return -ENOMEM;
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char path[PATH_MAX];
		struct dirent *e;
		DIR *dir;

		snprintf(path, sizeof(path), "%s/%s.d", d, unit);
		dir = opendir(path);
		if (!dir)
			continue;
		while ((e = readdir(dir)) && n < MAX_DROPINS) {
			size_t len = strlen(e->d_name);

			if (len < 6 || strcmp(e->d_name + len - 5, ".conf") || hidden(list, n, e->d_name))
				continue;
			if (asprintf(&list[n], "%s/%s", path, e->d_name) < 0) {
				ret = -ENOMEM;
				break;
			}
			n++;
		}
		closedir(dir);
	}
	free(dirs);
	qsort(list, n, sizeof(list[0]), by_name);
	for (int i = 0; i < n; i++) {
		char warn[PATH_MAX + 128], *text;
		int err = read_file(list[i], &text);

		if (err) {
			snprintf(warn, sizeof(warn), "%s: %s; ignored", list[i], strerror(-err));
			warn_fn(warn);
		} else {
			if (policy_apply_text(text, list[i], p, warn, sizeof(warn))) {
				strncat(warn, "; the file is ignored", sizeof(warn) - strlen(warn) - 1);
				warn_fn(warn);
			}
			free(text);
		}
		free(list[i]);
	}
	return ret;
}

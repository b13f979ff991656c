// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "unit_name.h"
#include "unit_search.h"

/* systemd's root slice is the root cgroup, by definition (systemd.special(7)) */
#define ROOT_SLICE "-.slice"

struct search {
	const char *name;
	bool pattern;			/* NAME is a pattern */
	unit_search_fn fn;		/* with a pattern: called for each match */
	void *data;
	char *first;			/* without: the first match's path */
	size_t size;
	int matches;
};

static bool matches(const struct search *s, const char *name)
{
	if (!s->pattern)
		return !strcmp(name, s->name);
	/* FNM_NOESCAPE: a backslash in a unit name is systemd's \xNN, as in the manager */
	return is_unit_name(name) && !fnmatch(s->name, name, FNM_NOESCAPE);
}

static int visit(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct search *s = data;
	const char *name = depth || strcmp(path, "/") ? strrchr(path, '/') + 1 : ROOT_SLICE;
	int ret = 0;

	if (!matches(s, name))
		return 0;
	if (s->pattern)
		ret = s->fn(path, s->data);
	else if (!s->matches)
		snprintf(s->first, s->size, "%s", path);
	s->matches++;
	return ret;
}

static int search(const struct cgroot *root, struct search *s)
{
	int ret = cg_walk(root, "/", visit, s);

	return ret ? ret : s->matches;
}

int unit_search(const struct cgroot *root, const char *unit, char *path, size_t size)
{
	struct search s = { .name = unit, .first = path, .size = size };

	return search(root, &s);
}

int unit_search_pattern(const struct cgroot *root, const char *pattern, unit_search_fn fn,
			void *data)
{
	struct search s = { .name = pattern, .pattern = true, .fn = fn, .data = data };

	return search(root, &s);
}

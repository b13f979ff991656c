// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "dropin_cache.h"
#include "plan.h"
#include "unit.h"
#include "unit_name.h"

struct node {
	struct plan_entry entry;
	int parent, depth;
	uid_t manager;			/* of the units below user@UID.service: UID */
	int manager_top;		/* that user@UID.service's node */
	bool own_policy;		/* named after a unit that has drop-ins */
	bool no_memory;			/* no memory controller: charged to an ancestor */
	bool hold;			/* must not be shrunk (effective policy, or init.scope) */
	bool hold_below;		/* it or something below it must not be shrunk */
};

struct collect {
	enum plan_kind kind;
	struct node *nodes;
	int n, cap;
	policy_warn_fn warn;
	sd_bus *bus;			/* the system manager's, while it answers; or NULL */
	struct dropin_cache *cache;	/* its answers of earlier plans, or NULL */
	int stack[256];			/* index of the last node seen at each depth */
};

#define NO_ANSWER "the system manager did not answer on the system bus: " \
	"drop-ins are those the directory search finds"

/*
 * The policy of the unit NAME (the cgroup PATH, a unit of MANAGER) over BASE. Where the
 * system manager has loaded NAME for PATH, the drop-ins it applies (DropInPaths): systemd's
 * own list, transient and runtime drop-ins included, as of its last daemon-reload (a drop-in
 * added since counts for neither; one removed since is skipped, as systemd will skip it).
 * A user manager's unit gets the search of policy_load() in that user's search path: its
 * manager is on the user's own bus, which memtide does not enter. Any other name (a cgroup
 * no manager knows), or no systemd answering, gets the search of the system's search path;
 * $MEMTIDE_UNIT_PATH asks for that search alone.
 */
static int unit_policy(struct collect *c, const struct cgroot *root, const char *name,
		       const char *path, uid_t manager, const struct policy *base,
		       struct policy *p)
{
	bool ask = c->bus && manager == POLICY_SYSTEM;
	const struct dropin_answer *known = NULL;
	char **dropins = NULL;
	struct stat st;
	/* the cgroup's inode number is its cgroup ID: the cache's key */
	bool keyed = ask && c->cache && !fstatat(root->fd, path + 1, &st, AT_SYMLINK_NOFOLLOW);
	int ret, loaded;

	if (keyed)
		known = dropin_cache_get(c->cache, st.st_ino, name);
	if (known && known->others)
		return policy_load(name, manager, base, p, c->warn);
	if (known)
		return policy_load_files(known->dropins, base, p, c->warn);
	ret = ask ? unit_dropins(c->bus, name, path, &dropins) : -ENOTCONN;
	/* no systemd, or one that does not answer: the search for the rest of the tree */
	if (ask && (ret == -ENOTCONN || ret == -EIO))
		c->bus = sd_bus_flush_close_unref(c->bus);
	/* the latter is worth a word, once */
	if (ret == -EIO)
		c->warn(NO_ANSWER);
	loaded = ret >= 0 ? policy_load_files(dropins, base, p, c->warn) :
			    policy_load(name, manager, base, p, c->warn);
	/* the manager's answer, kept for the next plan (the cache takes DROPINS) */
	if (keyed && (ret >= 0 || ret == -EREMOTE)) {
		dropin_cache_put(c->cache, st.st_ino, name, ret == -EREMOTE, dropins);
		dropins = NULL;
	}
	unit_strv_free(dropins);
	return loaded;
}

/* The decimal number at *P, no sign, no leading zero; *P moved past it. -1 if none. */
static long long number_at(const char **p)
{
	long long n = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s) || (*s == '0' && isdigit((unsigned char)s[1])))
		return -1;
	for (; isdigit((unsigned char)*s); s++)
		if ((n = n * 10 + (*s - '0')) > UINT32_MAX)
			return -1;
	*p = s;
	return n;
}

/*
 * The user whose manager runs the units below the cgroup PATH: UID if PATH is that user's
 * /user.slice/user-UID.slice/user@UID.service, where systemd puts it, else POLICY_SYSTEM. A
 * cgroup of that name anywhere else (a delegated subtree's, a container's) is not taken for
 * it, and neither is an invalid uid (systemd's uid_is_valid(): not -1, not 65535).
 */
static uid_t user_manager_of(const char *path)
{
	const char *p = path;
	long long uid, again;

	if (strncmp(p, "/user.slice/user-", 17))
		return POLICY_SYSTEM;
	p += 17;
	uid = number_at(&p);
	if (uid < 0 || strncmp(p, ".slice/user@", 12))
		return POLICY_SYSTEM;
	p += 12;
	again = number_at(&p);
	if (again != uid || strcmp(p, ".service") || uid == 65535 || uid == UINT32_MAX)
		return POLICY_SYSTEM;
	return (uid_t)uid;
}

static bool has_memory(const struct cgroot *root, const char *path)
{
	struct target t;
	char err[256];

	if (target_open_path(root, path, &t, err, sizeof(err)))
		return false;
	target_close(&t);
	return true;
}

static int add_node(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct collect *c = data;
	const char *name = strrchr(path, '/') + 1;
	struct node *node;

	if (depth >= (int)(sizeof(c->stack) / sizeof(c->stack[0])))
		return 0;
	if (c->n == c->cap) {
		struct node *bigger = realloc(c->nodes, (c->cap = c->cap ? 2 * c->cap : 64) *
					      sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		c->nodes = bigger;
	}
	node = &c->nodes[c->n];
	memset(node, 0, sizeof(*node));
	snprintf(node->entry.path, sizeof(node->entry.path), "%s", path);
	node->depth = depth;
	node->parent = depth ? c->stack[depth - 1] : -1;
	c->stack[depth] = c->n;
	if (node->parent >= 0) {
		const struct node *parent = &c->nodes[node->parent];

		node->entry.policy = parent->entry.policy;
		node->manager = parent->manager != POLICY_SYSTEM ? parent->manager :
							   user_manager_of(parent->entry.path);
		/* where a user's units begin: the cap of their release priority (below) */
		node->manager_top = node->manager == parent->manager ? parent->manager_top :
								       node->parent;
	} else {
		policy_default(&node->entry.policy);
		node->manager = POLICY_SYSTEM;
		node->manager_top = -1;
	}
	if (depth && is_unit_name(name)) {
		struct policy base = node->entry.policy;
		int ret = unit_policy(c, root, name, path, node->manager, &base,
				      &node->entry.policy);

		if (ret)
			return ret;
		node->own_policy = node->entry.policy.sources > 0;
	}
	/*
	 * A user's own drop-ins order the user's units, not the user before others: released
	 * no earlier than the user@UID.service the administrator's policy places
	 */
	if (node->manager != POLICY_SYSTEM) {
		int cap = c->nodes[node->manager_top].entry.policy.release_priority;

		if (node->entry.policy.release_priority > cap)
			node->entry.policy.release_priority = cap;
	}
	/* what the policy keeps, and PID 1's scope */
	node->hold = !(c->kind == PLAN_IDLE ? node->entry.policy.shrink_idle :
				       node->entry.policy.shrink_hibernate) ||
		     !strcmp(path, "/init.scope");
	/* no memory.reclaim here: its memory is charged to, and reclaimed with, an ancestor */
	node->no_memory = depth && !has_memory(root, path);
	node->entry.kept = node->hold && node->own_policy;
	c->n++;
	return 0;
}

int plan_build(const struct cgroot *root, enum plan_kind kind, struct plan *plan,
	       policy_warn_fn warn)
{
	return plan_build_cached(root, kind, plan, warn, NULL);
}

int plan_build_cached(const struct cgroot *root, enum plan_kind kind, struct plan *plan,
		      policy_warn_fn warn, struct dropin_cache *cache)
{
	enum { OPEN, TAKEN, COVERED } *state;
	bool ask = !getenv("MEMTIDE_UNIT_PATH");
	struct collect c = { .kind = kind, .warn = warn, .cache = cache };
	int ret;

	if (cache) {
		c.bus = cache->bus;
		cache->bus = NULL;
	}
	if (!ask) {
		c.bus = sd_bus_flush_close_unref(c.bus);
	} else if (cache) {
		/* drop what came unasked (NameAcquired, a reply that came after its timeout) */
		while (c.bus && sd_bus_process(c.bus, NULL) > 0)
			;
		ret = c.bus ? dropin_cache_begin(cache, c.bus) : -ENOTCONN;
		/* none kept, or the kept one is gone (the bus daemon restarted): a new one */
		if (ret == -ENOTCONN) {
			sd_bus_flush_close_unref(c.bus);
			c.bus = unit_bus_open(UNIT_MANAGER_SYSTEM);
			ret = dropin_cache_begin(cache, c.bus);
		}
		/* no systemd, or one that does not answer: the directory search, as unit_policy() */
		if (ret == -ENOTCONN || ret == -EIO)
			c.bus = sd_bus_flush_close_unref(c.bus);
		if (ret == -EIO)
			warn(NO_ANSWER);
	} else {
		c.bus = unit_bus_open(UNIT_MANAGER_SYSTEM);
	}
	ret = cg_walk(root, "/", add_node, &c);
	if (cache) {
		/* a walk that failed midway saw only part of the tree: nothing is forgotten */
		if (!ret)
			dropin_cache_end(cache);
		cache->bus = c.bus;	/* still answering: kept for the next plan */
	} else {
		sd_bus_flush_close_unref(c.bus);
	}
	memset(plan, 0, sizeof(*plan));
	if (ret) {
		free(c.nodes);
		return ret;
	}
	/* children come after their parents: a backward pass carries holds up */
	for (int i = c.n - 1; i >= 0; i--) {
		if (c.nodes[i].hold)
			c.nodes[i].hold_below = true;
		if (c.nodes[i].hold_below && c.nodes[i].parent >= 0)
			c.nodes[c.nodes[i].parent].hold_below = true;
	}
	/*
	 * A forward pass picks the highest cgroups that can be shrunk whole. A cgroup is open
	 * (its children are looked at one by one) when it holds or something below it does;
	 * the root is always open (it holds memtide and the kernel's own memory).
	 */
	plan->e = calloc(c.n ? c.n : 1, sizeof(*plan->e));
	state = calloc(c.n ? c.n : 1, sizeof(*state));
	if (!plan->e || !state) {
		free(plan->e);
		free(state);
		free(c.nodes);
		return -ENOMEM;
	}
	for (int i = 0; i < c.n; i++) {
		struct node *node = &c.nodes[i];
		int p = node->parent;

		if (p < 0)
			state[i] = OPEN;
		else if (state[p] != OPEN || node->no_memory)
			state[i] = COVERED;	/* shrunk with an ancestor, or nothing of its own */
		else if (node->hold_below)
			state[i] = OPEN;
		else
			state[i] = TAKEN;
		node->entry.shrink = state[i] == TAKEN;
		plan->e[plan->n++] = node->entry;
	}
	free(state);
	free(c.nodes);
	return 0;
}

static const struct plan *sort_plan;

static int by_priority(const void *a, const void *b)
{
	const struct plan_entry *x = &sort_plan->e[*(const int *)a];
	const struct plan_entry *y = &sort_plan->e[*(const int *)b];

	if (x->policy.release_priority != y->policy.release_priority)
		return y->policy.release_priority - x->policy.release_priority;
	return strcmp(x->path, y->path);
}

int plan_release_order(const struct plan *plan, int *order)
{
	int n = 0;

	for (int i = 0; i < plan->n; i++)
		if (plan->e[i].shrink)
			order[n++] = i;
	sort_plan = plan;
	qsort(order, n, sizeof(*order), by_priority);
	return n;
}

void plan_free(struct plan *plan)
{
	free(plan->e);
	plan->e = NULL;
	plan->n = 0;
}

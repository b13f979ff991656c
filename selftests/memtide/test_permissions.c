// SPDX-License-Identifier: GPL-2.0
/*
 * Who may use memtide's files. A user owning a delegated subtree (cgroup-v2.rst,
 * "Delegation": the directory and its cgroup.procs, cgroup.threads and cgroup.subtree_control
 * chowned to it) reclaims, releases and reads back the cgroups it creates there, and gets
 * EACCES on every other memtide file: a sibling's, the delegation root's own, the
 * system-wide /sys/power/mm_reclaim files and the sysctl, with the sibling's memory left
 * where it was. The same user in its own user and cgroup namespaces reaches nothing more,
 * through the old mount or a cgroup2 mount of its own. And memory.release charges what it
 * brings back to the pages' owner, never to the writer's cgroup.
 *
 *   root
 *    `- memtide_perm
 *        |- deleg   (delegated to UID)
 *        |   |- own (made by UID; a hog: 16M anon)
 *        |   `- ns  (made by UID; the root of its cgroup namespace)
 *        |- other   (a hog: 16M anon, 8M of it in swap)
 *        `- writer  (memory.release's writer, in the charging test)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"

#define UID 1000		/* the delegatee; no passwd entry needed */
#define SLACK MB(2L)		/* per-cpu charge batches */
#define SYSCTL "/proc/sys/vm/swapout_second_chance"
#define RUN "/sys/power/mm_reclaim/run"
#define RELEASE "/sys/power/mm_reclaim/release"

struct tree {
	char *top, *deleg, *own, *ns, *other;
	pid_t own_hog, other_hog;
};

/*
 * Runs fn(t) in a child process as UID (no supplementary groups), moved first (as root) into
 * the cgroup cg unless it is NULL; the child's exit status, or -1.
 */
static int as_user_in(const char *cg, int (*fn)(const struct tree *t), const struct tree *t)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		/*
		 * setuid() makes the process undumpable, which leaves its /proc/self files
		 * (uid_map, ...) root's: make it dumpable again, as a process started by the
		 * user would be
		 */
		if ((cg && cg_enter_current(cg)) || setgroups(0, NULL) || setgid(UID) ||
		    setuid(UID) || prctl(PR_SET_DUMPABLE, 1))
			_exit(100);
		_exit(fn(t));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int as_user(int (*fn)(const struct tree *t), const struct tree *t)
{
	return as_user_in(NULL, fn, t);
}

/* Has other's memory moved since current and swap were read? Says so if it has. */
static bool other_moved(const struct tree *t, long current, long swap)
{
	long now = cg_read_long(t->other, "memory.current");
	long swap_now = cg_read_long(t->other, "memory.swap.current");

	if (labs(now - current) <= SLACK && swap_now == swap)
		return false;
	ksft_print_msg("%s: memory.current %ld -> %ld, memory.swap.current %ld -> %ld\n",
		       t->other, current, now, swap, swap_now);
	return true;
}

/* open(path, O_RDWR)'s -errno, or 0 if it opened (and is closed again). */
static int open_err(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int chown_delegated(const char *cg)
{
	static const char *const files[] = { "", "/cgroup.procs", "/cgroup.threads",
					     "/cgroup.subtree_control" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s%s", cg, files[i]);
		if (chown(path, UID, UID))
			return -1;
	}
	return 0;
}

/* As UID: turns on the memory controller below deleg and makes own and ns. */
static int user_makes_own(const struct tree *t)
{
	if (cg_write(t->deleg, "cgroup.subtree_control", "+memory"))
		return 1;
	if (mkdir(t->own, 0755))
		return 2;
	return mkdir(t->ns, 0755) ? 3 : 0;
}

static void tree_destroy(struct tree *t)
{
	if (t->own)
		hogged_cgroup_destroy(t->own, t->own_hog);
	if (t->other)
		hogged_cgroup_destroy(t->other, t->other_hog);
	if (t->ns)
		cg_destroy(t->ns);
	if (t->deleg)
		cg_destroy(t->deleg);
	if (t->top)
		cg_destroy(t->top);
	free(t->ns);
	free(t->deleg);
	free(t->top);
	memset(t, 0, sizeof(*t));
}

/* The tree above, with both hogs holding their memory and 8M of other's in swap. */
static int tree_create(const char *root, struct tree *t)
{
	struct hog_spec spec = { .anon = MB(16) };
	int err;

	memset(t, 0, sizeof(*t));
	t->top = cg_name(root, "memtide_perm");
	t->deleg = t->top ? cg_name(t->top, "deleg") : NULL;
	if (!t->deleg || cg_create(t->top) ||
	    cg_write(t->top, "cgroup.subtree_control", "+memory") || cg_create(t->deleg) ||
	    chown_delegated(t->deleg))
		goto err;
	t->own = cg_name(t->deleg, "own");
	t->ns = cg_name(t->deleg, "ns");
	if (!t->own || !t->ns)
		goto err;
	err = as_user(user_makes_own, t);
	if (err) {
		ksft_print_msg("as uid %d: cannot make %s and %s (step %d)\n", UID, t->own,
			       t->ns, err);
		goto err;
	}
	t->own_hog = child_in(t->own, hog, &spec);
	t->other = hogged_cgroup_create(t->top, "other", &spec, &t->other_hog);
	if (t->own_hog < 0 || !t->other || cg_write(t->other, "memory.reclaim", "8M"))
		goto err;
	return 0;
err:
	ksft_print_msg("cannot build the delegated tree under %s\n", root);
	tree_destroy(t);
	return -1;
}

/* As UID: reclaim 8M of own, then release it all, each read back on its descriptor. */
static int user_reclaims_and_releases(const struct tree *t)
{
	struct reclaim_result rc;
	struct release_result rl;

	if (reclaim_request(t->own, "8M", &rc) || rc.reclaimed < MB(8))
		return 1;
	if (cg_read_long(t->own, "memory.swap.current") < MB(8) - SLACK)
		return 2;
	if (release_request(t->own, "max", &rl) || rl.released < MB(8) - SLACK)
		return 3;
	if (cg_read_long(t->own, "memory.swap.current") > SLACK)
		return 4;
	return 0;
}

static int test_delegatee_reclaims_and_releases_its_own(const char *root)
{
	struct tree t;
	int err;

	if (tree_create(root, &t))
		return KSFT_FAIL;
	err = as_user(user_reclaims_and_releases, &t);
	if (err)
		ksft_print_msg("as uid %d on %s: failed at step %d\n", UID, t.own, err);
	tree_destroy(&t);
	return err ? KSFT_FAIL : KSFT_PASS;
}

/* As UID: every memtide file outside its own cgroups refuses to open for writing. */
static int user_refused_elsewhere(const struct tree *t)
{
	const char *const files[] = { "memory.reclaim", "memory.release" };
	const char *const system[] = { RUN, RELEASE, SYSCTL };
	char path[PATH_MAX];
	size_t i;
	int err, step = 0;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", t->other, files[i]);
		step++;
		if (open_err(path) != -EACCES)
			return step;
		/* the delegation root's own files stay its parent's */
		snprintf(path, sizeof(path), "%s/%s", t->deleg, files[i]);
		step++;
		if (open_err(path) != -EACCES)
			return step;
	}
	for (i = 0; i < ARRAY_SIZE(system); i++) {
		err = open_err(system[i]);
		step++;
		if (err != -EACCES)
			return step;
	}
	return 0;
}

/*
 * Runs fn as UID (in ns when in_ns, else where the test runs) over a fresh tree and passes
 * if fn returns 0 and other's memory did not move; what names the setting in the message.
 */
static int user_reaches_nothing_else(const char *root, bool in_ns,
				     int (*fn)(const struct tree *t), const char *what)
{
	long current, swap;
	struct tree t;
	int err;

	if (tree_create(root, &t))
		return KSFT_FAIL;
	current = cg_read_long(t.other, "memory.current");
	swap = cg_read_long(t.other, "memory.swap.current");
	err = as_user_in(in_ns ? t.ns : NULL, fn, &t);
	if (err)
		ksft_print_msg("%s as uid %d: failed at step %d\n", what, UID, err);
	else if (other_moved(&t, current, swap))
		err = -1;
	tree_destroy(&t);
	return err ? KSFT_FAIL : KSFT_PASS;
}

static int test_delegatee_refused_elsewhere(const char *root)
{
	/* each step a file that must refuse with EACCES */
	return user_reaches_nothing_else(root, false, user_refused_elsewhere, "delegated");
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * In the child, as UID inside ns: new user, mount and cgroup namespaces; through the old mount
 * other's files are refused (as everywhere, cgroup namespaces hide and permissions decide:
 * cgroup.procs is the only file that also checks the namespace), so are the system-wide
 * mm_reclaim files and the sysctl to the namespace's root, and a cgroup2 mount of its
 * own (in /tmp) is rooted at ns: own and other cannot even be named, and ns's own
 * memory.release, delegatable to a namespace's root, is writable. The mount point is left
 * behind in /tmp, empty, once the namespace is gone.
 */
static int user_in_namespaces(const struct tree *t)
{
	char path[PATH_MAX], line[256], map[32], mnt[] = "/tmp/memtide-ns.XXXXXX";
	FILE *f;

	if (!mkdtemp(mnt))
		return 9;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP))
		return 10;
	snprintf(map, sizeof(map), "0 %d 1", UID);	/* root inside is UID outside */
	if (write_file("/proc/self/setgroups", "deny") || write_file("/proc/self/uid_map", map) ||
	    write_file("/proc/self/gid_map", map))
		return 11;
	f = fopen("/proc/self/cgroup", "r");
	if (!f || !fgets(line, sizeof(line), f) || strcmp(line, "0::/\n"))
		return 12;	/* the namespace's root is ns, where it was made */
	fclose(f);
	snprintf(path, sizeof(path), "%s/memory.reclaim", t->other);
	if (open_err(path) != -EACCES)
		return 13;
	snprintf(path, sizeof(path), "%s/memory.release", t->other);
	if (open_err(path) != -EACCES)
		return 14;
	/* root of its user namespace, it still cannot reach every cgroup at once */
	if (open_err(RUN) != -EACCES)
		return 21;
	if (open_err(RELEASE) != -EACCES)
		return 22;
	if (open_err(SYSCTL) != -EACCES)
		return 23;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		ksft_print_msg("making / private: %s\n", strerror(errno));
		return 15;
	}
	if (mount("cgroup2", mnt, "cgroup2", 0, NULL)) {
		ksft_print_msg("mounting cgroup2 at %s: %s\n", mnt, strerror(errno));
		return 16;
	}
	snprintf(path, sizeof(path), "%s/memory.release", mnt);
	if (access(path, W_OK))
		return 17;
	snprintf(path, sizeof(path), "%s/memory.reclaim", mnt);
	if (access(path, W_OK))
		return 18;
	snprintf(path, sizeof(path), "%s/own", mnt);
	if (!access(path, F_OK))
		return 19;
	snprintf(path, sizeof(path), "%s/other", mnt);
	if (!access(path, F_OK))
		return 20;
	return 0;
}

static int test_namespaced_delegatee_reaches_nothing_more(const char *root)
{
	/* in ns, so that the cgroup namespace is rooted there */
	return user_reaches_nothing_else(root, true, user_in_namespaces,
					 "in user+cgroup namespaces");
}

/*
 * memory.release written from the cgroup writer for other: what comes back is charged to
 * other: afterwards all of its 16M is charged to it, its memory.current grew by no more than
 * what was mapped back (anon + shmem, which counts swap-cache pages that were charged
 * already), and writer grew by less than SLACK.
 */
static int test_release_charges_the_owner(const char *root)
{
	long cur0, swap0, cur1, swap1, w[3] = { -1, -1, -1 };
	int ret = KSFT_FAIL, p[2], status;
	struct release_result r;
	char *writer = NULL;
	struct tree t;
	pid_t pid;

	if (tree_create(root, &t))
		return KSFT_FAIL;
	writer = cg_name(t.top, "writer");
	if (!writer || cg_create(writer) || pipe(p))
		goto out;
	cur0 = cg_read_long(t.other, "memory.current");
	swap0 = cg_read_long(t.other, "memory.swap.current");
	pid = fork();
	if (!pid) {
		/* the writer's memory.current before and after, and what came back in */
		close(p[0]);
		if (cg_enter_current(writer))
			_exit(1);
		w[0] = cg_read_long(writer, "memory.current");
		if (release_request(t.other, "max", &r))
			_exit(2);
		w[1] = cg_read_long(writer, "memory.current");
		w[2] = r.anon + r.shmem;
		_exit(write(p[1], w, sizeof(w)) == sizeof(w) ? 0 : 3);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], w, sizeof(w)) != sizeof(w) || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		close(p[0]);
		goto out;
	}
	close(p[0]);
	cur1 = cg_read_long(t.other, "memory.current");
	swap1 = cg_read_long(t.other, "memory.swap.current");
	ksft_print_msg("other: memory.current %ld -> %ld, swap %ld -> %ld, read back in %ld; "
		       "writer %ld -> %ld\n", cur0, cur1, swap0, swap1, w[2], w[0], w[1]);
	if (swap0 < MB(8) - SLACK || swap1 > SLACK || w[2] < MB(8) - SLACK ||
	    cur1 < MB(16) || cur1 - cur0 > w[2] + SLACK || labs(w[1] - w[0]) > SLACK)
		goto out;
	ret = KSFT_PASS;
out:
	if (writer)
		cg_destroy(writer);
	free(writer);
	tree_destroy(&t);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_delegatee_reclaims_and_releases_its_own),
	MEMTIDE_TEST(test_delegatee_refused_elsewhere),
	MEMTIDE_TEST(test_namespaced_delegatee_reaches_nothing_more),
	MEMTIDE_TEST(test_release_charges_the_owner),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Target resolution against a fake cgroup tree in a temporary directory:
 *
 *   ROOT/ memory.stat
 *     a.slice/ memory.stat memory.current cgroup.procs
 *       b.service/ memory.stat
 *       dup.scope/ memory.stat
 *     c.slice/ memory.stat
 *       dup.scope/ memory.stat
 *     nomem/                      (no memory.stat: the memory controller is off)
 *     link -> a.slice             (a symbolic link)
 *     out -> /tmp                 (a symbolic link out of the tree)
 *   PROC/ 100/cgroup "0::/a.slice/b.service"   200/cgroup (cgroup v1 only)
 *
 * No system bus is reachable (DBUS_SYSTEM_BUS_ADDRESS points nowhere), so unit names are
 * found by searching the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "fake_tree.h"
#include "target.h"

static char root_path[PATH_MAX + 8], proc_path[PATH_MAX + 8];

static int setup(void **state)
{
	char link[PATH_MAX * 2];

	if (tree_create())
		return -1;
	tree_mkdir("root");
	tree_put("root/memory.stat", "anon 0\n");
	tree_mkdir("root/a.slice");
	tree_put("root/a.slice/memory.stat", "anon 4096\nfile 8192\n");
	tree_put("root/a.slice/memory.current", "12288\n");
	tree_put("root/a.slice/cgroup.procs", "1\n22\n333\n");
	tree_mkdir("root/a.slice/b.service");
	tree_put("root/a.slice/b.service/memory.stat", "");
	tree_mkdir("root/a.slice/dup.scope");
	tree_put("root/a.slice/dup.scope/memory.stat", "");
	tree_mkdir("root/c.slice");
	tree_put("root/c.slice/memory.stat", "");
	tree_mkdir("root/c.slice/dup.scope");
	tree_put("root/c.slice/dup.scope/memory.stat", "");
	tree_mkdir("root/nomem");
	snprintf(link, sizeof(link), "%s/root/link", tree_dir);
	if (symlink("a.slice", link))
		return -1;
	snprintf(link, sizeof(link), "%s/root/out", tree_dir);
	if (symlink("/tmp", link))
		return -1;
	tree_mkdir("proc");
	tree_mkdir("proc/100");
	tree_put("proc/100/cgroup", "1:name=systemd:/x\n0::/a.slice/b.service\n");
	tree_mkdir("proc/200");
	tree_put("proc/200/cgroup", "4:memory:/v1\n");
	snprintf(root_path, sizeof(root_path), "%s/root", tree_dir);
	snprintf(proc_path, sizeof(proc_path), "%s/proc", tree_dir);
	setenv("MEMTIDE_CGROUP_ROOT", root_path, 1);
	setenv("MEMTIDE_PROC_ROOT", proc_path, 1);
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
	return 0;
}

static int teardown(void **state)
{
	return tree_destroy();
}

/* Resolve ARG; expect RET and, on success, the cgroup path WANT, else ERR containing WANT. */
static void check(const char *arg, int ret, const char *want)
{
	struct cgroot root;
	struct target t;
	char err[256] = "";
	int got;

	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	got = target_resolve(&root, UNIT_MANAGER_SYSTEM, arg, &t, err, sizeof(err));
	if (got != ret)
		fail_msg("%s: got %d (%s), want %d", arg, got, err, ret);
	if (!ret) {
		assert_string_equal(t.path, want);
		assert_true(t.fd >= 0);
	} else {
		if (!strstr(err, want))
			fail_msg("%s: message '%s' lacks '%s'", arg, err, want);
		assert_int_equal(t.fd, -1);
	}
	target_close(&t);
	cgroot_close(&root);
}

static void test_paths(void **state)
{
	char abs[PATH_MAX * 2];

	check("/", 0, "/");
	check(".", 0, "/");
	check("a.slice/b.service", 0, "/a.slice/b.service");
	check("/a.slice/b.service", 0, "/a.slice/b.service");
	check("//a.slice///b.service/", 0, "/a.slice/b.service");
	check("a.slice/./b.service/../b.service", 0, "/a.slice/b.service");
	snprintf(abs, sizeof(abs), "%s/a.slice", root_path);
	check(abs, 0, "/a.slice");
	check(root_path, 0, "/");
}

static void test_root_with_slash(void **state)
{
	char slashed[PATH_MAX + 16];

	/* a mount given with a trailing slash names the same cgroups */
	snprintf(slashed, sizeof(slashed), "%s//", root_path);
	setenv("MEMTIDE_CGROUP_ROOT", slashed, 1);
	check("/a.slice/b.service", 0, "/a.slice/b.service");
	check("b.service", 0, "/a.slice/b.service");
	setenv("MEMTIDE_CGROUP_ROOT", root_path, 1);
}

static void test_bad_paths(void **state)
{
	check("", -EINVAL, "empty target");
	check("nosuch", -ENOENT, "no such cgroup");
	check("a.slice/memory.stat", -ENOTDIR, "not a cgroup");
	check("nomem", -ENOTSUP, "not a memory cgroup");
	check("..", -EXDEV, "leaves the cgroup2 mount");
	check("a.slice/../../etc", -EXDEV, "leaves the cgroup2 mount");
	check("link", -ELOOP, "symbolic link");
	check("out/x", -ELOOP, "symbolic link");
}

static void test_pids(void **state)
{
	check("pid:100", 0, "/a.slice/b.service");
	check("pid:200", -ENOENT, "not in a cgroup v2 hierarchy");
	check("pid:300", -ENOENT, "no such process");
	check("pid:", -EINVAL, "not a process id");
	check("pid:-1", -EINVAL, "not a process id");
	check("pid:0", -EINVAL, "not a process id");
	check("pid:1x", -EINVAL, "not a process id");
	check("pid:99999999999", -EINVAL, "not a process id");
}

static void test_units_without_bus(void **state)
{
	check("b.service", 0, "/a.slice/b.service");
	check("c.slice", 0, "/c.slice");
	check("none.service", -ENOENT, "no such unit");
	check("dup.scope", -EINVAL, "2 cgroups have that name");
}

static void test_files(void **state)
{
	struct cgroot root;
	struct target t;
	struct keyed r;
	char err[256];
	uint64_t v = 0;
	int *pids = NULL, n;

	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(target_resolve(&root, UNIT_MANAGER_SYSTEM, "a.slice", &t, err,
					sizeof(err)), 0);
	assert_int_equal(cg_read_u64(&t, "memory.current", &v), 0);
	assert_true(v == 12288);
	assert_int_equal(cg_read_keyed(&t, "memory.stat", &r), 0);
	assert_true(keyed_get(&r, "file", &v) && v == 8192);
	assert_int_equal(cg_read_u64(&t, "memory.max", &v), -ENOENT);
	n = cg_procs(&t, &pids);
	assert_int_equal(n, 3);
	assert_int_equal(pids[2], 333);
	free(pids);
	target_close(&t);
	cgroot_close(&root);
}

struct collected {
	char paths[16][64];
	int depths[16], n;
};

static int collect(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct collected *c = data;

	snprintf(c->paths[c->n], sizeof(c->paths[0]), "%s", path);
	c->depths[c->n++] = depth;
	return 0;
}

static void test_walk(void **state)
{
	struct collected c = { .n = 0 };
	struct cgroot root;
	char err[256];

	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(cg_walk(&root, "/a.slice", collect, &c), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.paths[0], "/a.slice");
	assert_string_equal(c.paths[1], "/a.slice/b.service");
	assert_string_equal(c.paths[2], "/a.slice/dup.scope");
	assert_int_equal(c.depths[0], 0);
	assert_int_equal(c.depths[2], 1);
	c.n = 0;
	/* the whole tree: symbolic links are not followed */
	assert_int_equal(cg_walk(&root, "/", collect, &c), 0);
	assert_int_equal(c.n, 7);
	assert_string_equal(c.paths[0], "/");
	assert_string_equal(c.paths[6], "/nomem");
	cgroot_close(&root);
}

static int collect_top(const struct cgroot *root, const char *path, int depth, void *data)
{
	collect(root, path, depth, data);
	return depth == 1 ? CG_WALK_SKIP : 0;
}

static void test_walk_skip(void **state)
{
	struct collected c = { .n = 0 };
	struct cgroot root;
	char err[256];

	/* CG_WALK_SKIP: the root and its children, nothing below them */
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(cg_walk(&root, "/", collect_top, &c), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.paths[1], "/a.slice");
	assert_string_equal(c.paths[2], "/c.slice");
	cgroot_close(&root);
}

/*
 * A bind mount of another cgroup inside the tree is not walked: it is another mount, as
 * target_open_path() refuses it, though its st_dev (which FTS_XDEV compares) is the same,
 * as every cgroup2 mount's is. Otherwise a status or a plan would list c.slice's cgroups a
 * second time under a.slice. Needs a mount namespace (root).
 */
static void test_walk_bind_mount(void **state)
{
	struct collected c = { .n = 0 };
	char src[PATH_MAX * 2], dst[PATH_MAX * 2];
	struct cgroot root;
	char err[256];

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		skip();
	tree_mkdir("root/a.slice/mounted");
	snprintf(src, sizeof(src), "%s/c.slice", root_path);
	snprintf(dst, sizeof(dst), "%s/a.slice/mounted", root_path);
	assert_int_equal(mount(src, dst, NULL, MS_BIND, NULL), 0);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(cg_walk(&root, "/", collect, &c), 0);
	for (int i = 0; i < c.n; i++)
		if (strstr(c.paths[i], "mounted"))
			fail_msg("walked into the bind mount: %s", c.paths[i]);
	assert_int_equal(c.n, 7);
	/* the bind mount itself as the start: nothing */
	c.n = 0;
	assert_int_equal(cg_walk(&root, "/a.slice/mounted", collect, &c), 0);
	assert_int_equal(c.n, 0);
	cgroot_close(&root);
	assert_int_equal(umount2(dst, MNT_DETACH), 0);
	assert_int_equal(rmdir(dst), 0);
}

/*
 * Where openat2() is refused (a kernel before 5.6, or a seccomp filter older than it that
 * answers ENOSYS), paths resolve and are refused as with it. The filter is this process's
 * for good: this test runs last.
 */
static void test_without_openat2(void **state)
{
#ifdef __x86_64__
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(filter) / sizeof(*filter), .filter = filter };
	struct open_how how = { .flags = O_PATH };

	assert_int_equal(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	assert_int_equal(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0);
	/* the filter holds: what follows takes the other way */
	assert_int_equal(syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how)), -1);
	assert_int_equal(errno, ENOSYS);
	test_paths(state);
	test_bad_paths(state);
	test_pids(state);
	/*
	 * a bind mount of another cgroup inside the tree: the same device (as every cgroup2
	 * mount is), another mount. Only where this may make a mount namespace (root)
	 */
	if (!unshare(CLONE_NEWNS) && !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		char src[PATH_MAX * 2], dst[PATH_MAX * 2];

		tree_mkdir("root/a.slice/bound");
		snprintf(src, sizeof(src), "%s/c.slice", root_path);
		snprintf(dst, sizeof(dst), "%s/a.slice/bound", root_path);
		assert_int_equal(mount(src, dst, NULL, MS_BIND, NULL), 0);
		check("a.slice/bound", -EXDEV, "leaves the cgroup2 mount");
		check("a.slice/bound/dup.scope", -EXDEV, "leaves the cgroup2 mount");
		assert_int_equal(umount2(dst, MNT_DETACH), 0);
	}
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_root_with_slash),
		cmocka_unit_test(test_bad_paths),
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_units_without_bus),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_walk_skip),
		cmocka_unit_test(test_walk_bind_mount),
		cmocka_unit_test(test_without_openat2),	/* last: its filter stays */
	};

	return cmocka_run_group_tests_name("target", tests, setup, teardown);
}

// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <signal.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

/*
 * Whether MEMTIDE_TESTS (space-separated test names; unset or empty: all) selects name: for
 * `make repeat`, which runs one flaky test many times in a boot, and for a developer chasing one.
 */
static bool selected(const char *name)
{
	const char *list = getenv("MEMTIDE_TESTS");
	size_t len = strlen(name);
	const char *p;

	if (!list || !*list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

int memtide_run_tests(const struct memtide_test *tests, size_t n)
{
	char root[PATH_MAX];
	size_t i, plan = 0;

	for (i = 0; i < n; i++)
		plan += selected(tests[i].name);
	ksft_print_header();
	ksft_set_plan(plan);
	if (cg_find_unified_root(root, sizeof(root), NULL))
		ksft_exit_fail_msg("cgroup v2 isn't mounted\n");

	for (i = 0; i < n; i++) {
		if (!selected(tests[i].name))
			continue;
		switch (tests[i].fn(root)) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
	}
	ksft_finished();
	return 0;
}

void fill_incompressible(char *buf, size_t len, unsigned long seed)
{
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i + sizeof(x) <= len; i += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		*(uint64_t *)(buf + i) = x;
	}
}

int hog(const char *cgroup, void *arg)
{
	const struct hog_spec *spec = arg;
	char name[] = "memtide-hog.XXXXXX";
	size_t chunk = 1 << 20, done;
	char *anon = NULL, *buf;
	int fd;

	if (spec->anon) {
		anon = mmap(NULL, spec->anon, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			return -1;
		fill_incompressible(anon, spec->anon, getpid());
	}
	if (spec->file) {
		/* unlinked at once: its page cache goes away when the hog is killed */
		fd = mkstemp(name);
		if (fd < 0 || unlink(name))
			return -1;
		buf = malloc(chunk);
		if (!buf)
			return -1;
		for (done = 0; done < spec->file; done += chunk) {
			fill_incompressible(buf, chunk, done + 1);
			if (write(fd, buf, chunk) != (ssize_t)chunk)
				return -1;
		}
		free(buf);
		if (fsync(fd))
			return -1;
	}
	if (hog_ready())
		return -1;
	for (;;)
		pause();
}

int hog_ready(void)
{
	char ready[64];
	int fd;

	/* memory.current alone cannot tell a hog that is still writing from one that is done */
	snprintf(ready, sizeof(ready), "memtide-hog.%d", getpid());
	fd = open(ready, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

size_t count_corrupt_pages(const char *buf, size_t len, unsigned long seed)
{
	size_t page = getpagesize(), bad = 0, i;
	uint64_t x = seed | 1;

	for (i = 0; i + sizeof(x) <= len; i += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (*(const uint64_t *)(buf + i) != x) {
			bad++;
			/* on to the next page: its values follow on from this one's */
			for (; (i + sizeof(x)) % page && i + sizeof(x) < len; i += sizeof(x)) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
			}
		}
	}
	return bad;
}

static void on_alarm(int sig)
{
}

int catch_sigalrm(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */

	return sigaction(SIGALRM, &sa, NULL);
}

int interrupt_after_ms(int ms)
{
	struct itimerval it = { .it_value = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 } };

	if (catch_sigalrm())
		return -1;
	return setitimer(ITIMER_REAL, &it, NULL);
}

/* Waits until the hog with this pid holds all its memory; 0, or -1 after timeout_s. */
static int wait_for_hog(pid_t pid, int timeout_s)
{
	char name[64];
	int i;

	snprintf(name, sizeof(name), "memtide-hog.%d", pid);
	for (i = 0; i < timeout_s * 10; i++) {
		if (!unlink(name))
			return 0;
		usleep(100000);
	}
	return -1;
}

char *hogged_cgroup_create(const char *root, const char *name, struct hog_spec *spec, pid_t *pid)
{
	return cgroup_with_child(root, name, hog, spec, pid);
}

pid_t child_in(const char *cg, int (*fn)(const char *cgroup, void *arg), void *arg)
{
	pid_t pid = cg_run_nowait(cg, fn, arg);

	if (pid < 0)
		return -1;
	if (wait_for_hog(pid, 120)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

char *cgroup_with_child(const char *root, const char *name,
			int (*fn)(const char *cgroup, void *arg), void *arg, pid_t *pid)
{
	char *cg = cg_name(root, name);

	if (!cg || cg_create(cg))
		goto err;
	*pid = child_in(cg, fn, arg);
	if (*pid < 0)
		goto err;
	return cg;
err:
	if (cg) {
		cg_killall(cg);
		cg_destroy(cg);
	}
	free(cg);
	return NULL;
}

void hogged_cgroup_destroy(char *cg, pid_t pid)
{
	/* pid <= 0: the child was reaped already (kill(-1) would kill everything) */
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	cg_destroy(cg);
	free(cg);
}

int expect_refused(int fd, const struct bad_input *bad, size_t n)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		err = write(fd, bad[i].in, strlen(bad[i].in)) < 0 ? -errno : 0;
		if (err != bad[i].err) {
			ksft_print_msg("'%s': got %d, want %d\n", bad[i].in, err, bad[i].err);
			return -1;
		}
	}
	return 0;
}

static long majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_majflt;
}

/* Writes size bytes of seeded chunks to a new file at path; its descriptor, or -1. */
static int file_fill(const char *path, size_t size, unsigned long seed, char *buf, size_t chunk)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	size_t off;

	for (off = 0; fd >= 0 && off < size; off += chunk) {
		fill_incompressible(buf, chunk, seed + off);
		if (pwrite(fd, buf, chunk, off) != (ssize_t)chunk)
			return -1;
	}
	return fd;
}

/* Adds the corrupt pages of a file_fill() file to *bad; 0, or -1 if it cannot be read. */
static int file_bad(int fd, size_t size, unsigned long seed, char *buf, size_t chunk,
		    size_t *bad)
{
	size_t off;

	for (off = 0; off < size; off += chunk) {
		if (pread(fd, buf, chunk, off) != (ssize_t)chunk)
			return -1;
		*bad += count_corrupt_pages(buf, chunk, seed + off);
	}
	return 0;
}

int checked_child(const char *cgroup, void *arg)
{
	const struct checked_spec *spec = arg;
	char *anon = NULL, *memfd = NULL, *buf = NULL;
	size_t bad = 0, chunk = MB(1);
	long faults;
	sigset_t set;
	int fd = -1, cache_fd = -1, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return 3;
	if (spec->anon) {
		anon = mmap(NULL, spec->anon, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			return 3;
		fill_incompressible(anon, spec->anon, 1);
	}
	if (spec->memfd) {
		fd = memfd_create("memtide-release", 0);
		if (fd < 0 || ftruncate(fd, spec->memfd))
			return 3;
		memfd = mmap(NULL, spec->memfd, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (memfd == MAP_FAILED)
			return 3;
		fill_incompressible(memfd, spec->memfd, 2);
		close(fd);
	}
	buf = malloc(chunk);
	if (!buf)
		return 3;
	if (spec->tmpfs) {
		fd = file_fill(spec->tmpfs_file, spec->tmpfs, 3, buf, chunk);
		if (fd < 0)
			return 3;
	}
	if (spec->cache) {
		cache_fd = file_fill(spec->cache_file, spec->cache, 4, buf, chunk);
		if (cache_fd < 0)
			return 3;
	}
	if (hog_ready() || sigwait(&set, &sig))
		return 3;

	faults = majflt();
	if (anon)
		bad += count_corrupt_pages(anon, spec->anon, 1);
	if (memfd)
		bad += count_corrupt_pages(memfd, spec->memfd, 2);
	if ((spec->tmpfs && file_bad(fd, spec->tmpfs, 3, buf, chunk, &bad)) ||
	    (spec->cache && file_bad(cache_fd, spec->cache, 4, buf, chunk, &bad)))
		return 3;
	faults = majflt() - faults;
	printf("# checked child: %zu corrupt pages, %ld major faults\n", bad, faults);
	fflush(stdout);
	if (bad)
		return 1;
	return faults > spec->max_majflt ? 2 : 0;
}

int check_child(pid_t pid)
{
	int status;

	if (kill(pid, SIGUSR1) || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int write_string(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int refused_by_file(const char *path, const struct bad_input *bad, size_t n)
{
	int fd = open(path, O_WRONLY);
	int ret;

	if (fd < 0)
		return -1;
	ret = expect_refused(fd, bad, n);
	close(fd);
	return ret;
}

int tmpfs_mount(const char *dir)
{
	mkdir(dir, 0700);
	return mount("memtide", dir, "tmpfs", 0, "size=256M");
}

void tmpfs_umount(const char *dir)
{
	umount2(dir, MNT_DETACH);
	rmdir(dir);
}

long read_long(const char *path)
{
	char buf[64];
	long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	v = fgets(buf, sizeof(buf), f) ? strtol(buf, NULL, 10) : -1;
	fclose(f);
	return v;
}

long proc_key_long(const char *path, const char *key)
{
	char line[256], name[64];
	long v, found = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &v) == 2 && !strcmp(name, key))
			found = v;
	fclose(f);
	return found;
}

int set_lru_gen(const char *on)
{
	int fd = open("/sys/kernel/mm/lru_gen/enabled", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* /sys/kernel/mm/lru_gen/enabled reads 0x0000 when off */
int lru_gen_is_on(void)
{
	char buf[16] = "";
	int fd = open("/sys/kernel/mm/lru_gen/enabled", O_RDONLY);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return strtol(buf, NULL, 16) != 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch METHOD PID CGROUP SWAPDEV: the benchmarks' ways of bringing a swapped-out process
 * back before it touches its memory, each timed on its own:
 *
 *   demand    nothing: the touch that follows takes every page by a fault
 *   swapoff   swapoff SWAPDEV then swapon SWAPDEV (global: everything comes back)
 *   madvise   process_madvise(MADV_WILLNEED) over every mapping of PID (mainline's per-process
 *             prefetch; needs ptrace rights, leaves the pages unmapped, starts the reads only)
 *   release   "max" to CGROUP/memory.release (memtide)
 *   tool      `memtide release --quiet CGROUP max`: the memtide tool, as a user runs it; on a stock
 *             kernel its fallback (process_madvise(MADV_WILLNEED) over the cgroup's processes,
 *             then a wait until the cgroup's memory stops growing), on memtide's memory.release
 *   tool-shm  madvise(MADV_WILLNEED) over a shared mapping of each regular file in /dev/shm,
 *             then `tool`: the stock tool with what a user who knows where the slice's tmpfs
 *             is can add to it (6.12's madvise queues the reads of a tmpfs file's swapped
 *             pages: shmem_swapin_range()), since the tool's process_madvise() reaches only
 *             what a process maps
 *
 * Prints "prefetch: method=METHOD rc=0|ERRNO elapsed_us=N start_us=T", T on CLOCK_MONOTONIC
 * (memhog reports the end of its touch on the same clock). Exit status 0 after the method ran
 * (whatever its outcome, which is reported), 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int do_swapoff(const char *dev)
{
	if (swapoff(dev))
		return errno;
	return swapon(dev, 0) ? errno : 0;
}

/* process_madvise(MADV_WILLNEED) over every mapping in /proc/PID/maps, IOV_MAX at a time */
static int do_madvise(int pid)
{
	struct iovec iov[IOV_MAX];
	unsigned long start, end;
	char path[64], line[512];
	int pidfd, n = 0, err = 0;
	FILE *f;

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (pidfd < 0 || !f)
		return errno;
	while (!err && fgets(line, sizeof(line), f)) {
		/* the kernel's own mappings cannot be advised (EFAULT, EINVAL) */
		if (sscanf(line, "%lx-%lx", &start, &end) != 2 || strstr(line, "[v"))
			continue;
		iov[n].iov_base = (void *)start;
		iov[n].iov_len = end - start;
		if (++n == IOV_MAX) {
			if (syscall(SYS_process_madvise, pidfd, iov, n, MADV_WILLNEED, 0) < 0)
				err = errno;
			n = 0;
		}
	}
	if (!err && n && syscall(SYS_process_madvise, pidfd, iov, n, MADV_WILLNEED, 0) < 0)
		err = errno;
	fclose(f);
	close(pidfd);
	return err;
}

static int do_release(const char *cgroup)
{
	char path[4096];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/memory.release", cgroup);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, "max", 3) < 0)
		err = errno;
	close(fd);
	return err;
}

/* the tool's exit status (0 done, others: memtide(8)), or -1 if it could not be run */
static int do_tool(const char *cgroup)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execlp("memtide", "memtide", "release", "--quiet", cgroup, "max", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * madvise(MADV_WILLNEED) over each regular file of DIR (not below it), mapped shared;
 * directories, "." and ".." included, are not regular files. 0 or an errno.
 */
static int do_shm(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int err = 0;

	if (!dp)
		return errno;
	while (!err && (d = readdir(dp))) {
		int fd = openat(dirfd(dp), d->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		void *p;

		if (fd < 0)
			continue;	/* a link (O_NOFOLLOW), or gone */
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
			p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED || madvise(p, st.st_size, MADV_WILLNEED))
				err = errno;
			if (p != MAP_FAILED)
				munmap(p, st.st_size);
		}
		close(fd);
	}
	closedir(dp);
	return err;
}

int main(int argc, char **argv)
{
	const char *rc = NULL;	/* the outcome when it is no errno: the tool's exit status */
	long long t0;
	int err, pid;

	if (argc != 5 || (pid = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: prefetch demand|swapoff|madvise|release|tool|tool-shm PID CGROUP SWAPDEV\n");
		return 2;
	}
	t0 = now_us();
	if (!strcmp(argv[1], "demand"))
		err = 0;
	else if (!strcmp(argv[1], "swapoff"))
		err = do_swapoff(argv[4]);
	else if (!strcmp(argv[1], "madvise"))
		err = do_madvise(pid);
	else if (!strcmp(argv[1], "release"))
		err = do_release(argv[3]);
	else if (!strcmp(argv[1], "tool") || !strcmp(argv[1], "tool-shm")) {
		err = strcmp(argv[1], "tool") ? do_shm("/dev/shm") : 0;
		if (err) {
			fprintf(stderr, "prefetch: madvise of /dev/shm's files: %s\n", strerror(err));
			rc = "shm-failed";
		} else {
			err = do_tool(argv[3]);
		}
		if (err && !rc) {
			fprintf(stderr, "prefetch: memtide release exited with %d\n", err);
			rc = "tool-failed";
		}
	} else {
		fprintf(stderr, "prefetch: unknown method '%s'\n", argv[1]);
		return 2;
	}
	if (!rc)
		rc = err ? strerrorname_np(err) : "0";
	printf("prefetch: method=%s rc=%s elapsed_us=%lld start_us=%lld\n", argv[1], rc,
	       now_us() - t0, t0);
	return 0;
}

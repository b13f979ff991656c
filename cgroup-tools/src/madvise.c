// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "madvise.h"
#include "parse.h"
#include "stop.h"

#define SETTLE_POLL_US 100000
#define SETTLE_POLLS 3

/*
 * process_madvise(MADV_WILLNEED) over IOV[0..N): the kernel handles at most MAX_RW_COUNT
 * (about 2 GiB) per call and returns how much it did, so go on from there. A range
 * unmapped since /proc/PID/smaps was read fails with ENOMEM: skip it. Returns 0 or -errno.
 */
static int willneed(int pidfd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t done = syscall(SYS_process_madvise, pidfd, iov, n, MADV_WILLNEED, 0);

		if (done < 0 && errno == ENOMEM) {
			iov++;
			n--;
			continue;
		}
		if (done < 0)
			return -errno;
		while (n > 0 && (size_t)done >= iov->iov_len) {
			done -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + done;
			iov->iov_len -= done;
		}
	}
	return 0;
}

/*
 * process_madvise(MADV_WILLNEED) over the mappings of PID that have pages in swap (the
 * Swap: line of /proc/PID/smaps: anonymous, shmem, and private file mappings' copies).
 * No path from the target's maps is looked at: it could name anything, in another mount
 * namespace. Returns 0 (also when the process is gone), -EPERM or -EACCES for a process we
 * may not ptrace (or without CAP_SYS_NICE), or another -errno.
 */
static int willneed_process(int pid)
{
	struct iovec iov[IOV_MAX];
	char smaps[64], line[PATH_MAX + 128];
	unsigned long start = 0, end = 0, swap_kb;
	int pidfd, n = 0, ret = 0;
	FILE *f;

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return errno == ESRCH ? 0 : -errno;
	snprintf(smaps, sizeof(smaps), "/proc/%d/smaps", pid);
	f = fopen(smaps, "re");
	if (!f) {
		ret = errno == ENOENT ? 0 : -errno;
		close(pidfd);
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long s, e;

		/* a mapping's first line: "start-end perms offset dev inode [path]" */
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, ' ') > strchr(line, '-')) {
			start = s;
			end = e;
			continue;
		}
		if (sscanf(line, "Swap: %lu kB", &swap_kb) != 1 || !swap_kb || end <= start)
			continue;
		iov[n].iov_base = (void *)start;
		iov[n].iov_len = end - start;
		if (++n == IOV_MAX) {
			ret = willneed(pidfd, iov, n);
			n = 0;
		}
	}
	if (!ret && n)
		ret = willneed(pidfd, iov, n);
	fclose(f);
	close(pidfd);
	return ret == -ESRCH ? 0 : ret;
}

struct walk_state {
	const struct op_request *req;
	struct op_result *res;
	int processes;			/* reached */
	int skipped;			/* not ours to reach: no ptrace access */
	char skipped_pids[64];		/* "1, 4242", as many as fit, then ", ..." */
};

/*
 * One process we may not ptrace: the others are still worth doing (a cgroup often holds a
 * helper of another user, or one that made itself undumpable), so count it and remember
 * which it was for the note.
 */
static void skip(struct walk_state *s, int pid)
{
	size_t len = strlen(s->skipped_pids), room = sizeof(s->skipped_pids) - len;
	char one[16];

	s->skipped++;
	snprintf(one, sizeof(one), "%s%d", len ? ", " : "", pid);
	/* room for this one and a ", ..." after it */
	if (strlen(one) + 5 < room)
		memcpy(s->skipped_pids + len, one, strlen(one) + 1);
	else if (!strstr(s->skipped_pids, "..."))
		snprintf(s->skipped_pids + len, room, ", ...");
}

static int willneed_cgroup(const struct cgroot *root, const char *path, int depth, void *data)
{
	struct walk_state *s = data;
	struct target t;
	char err[256];
	int *pids, n, ret = 0;

	if (target_open_path(root, path, &t, err, sizeof(err)))
		return 0;	/* removed, or no memory controller: nothing of ours there */
	n = cg_procs(&t, &pids);
	target_close(&t);
	for (int i = 0; i < n && !ret; i++) {
		if (stop_requested() || (s->req->deadline_us && now_us() >= s->req->deadline_us))
			ret = -EINTR;
		else
			ret = willneed_process(pids[i]);
		if (ret == -EPERM || ret == -EACCES) {
			skip(s, pids[i]);
			ret = 0;
		} else if (!ret) {
			s->processes++;
		}
	}
	if (n > 0)
		free(pids);
	return ret;
}

static uint64_t usage(const struct target *t)
{
	struct cg_usage u;

	cg_read_usage(t, &u);
	return u.current;
}

void madvise_release(const struct op_request *req, const struct target *t,
		     struct op_result *res)
{
	struct walk_state s = { .req = req, .res = res };
	struct cgroot root;
	uint64_t start = now_us(), before, after, last, settle_until;
	char err[256], waited[64] = "", skipped[200] = "";
	int ret, stable = 0;
	bool gave_up = false;

	res->approximate = true;
	ret = cgroot_open(&root, err, sizeof(err));
	if (ret) {
		res->status = OP_ERROR;
		res->error = -ret;
		snprintf(res->message, sizeof(res->message), "%s", err);
		return;
	}
	before = usage(t);
	ret = cg_walk(&root, t->path, willneed_cgroup, &s);
	cgroot_close(&root);
	if (ret == -EINTR) {
		res->status = OP_INTERRUPTED;
		res->error = EINTR;
	} else if (ret == -ENOSYS) {
		res->status = OP_ERROR;
		res->error = -ret;
		snprintf(res->message, sizeof(res->message),
			 "this kernel has neither memory.release nor process_madvise(MADV_WILLNEED)");
		return;
	} else if (ret) {
		res->status = OP_ERROR;
		res->error = -ret;
		snprintf(res->message, sizeof(res->message), "process_madvise: %s", strerror(-ret));
		return;
	} else if (s.skipped && !s.processes) {
		/* none could be reached: nothing was done, and that is an error */
		res->status = OP_ERROR;
		res->error = EPERM;
		snprintf(res->message, sizeof(res->message),
			 "process_madvise: %s (needs CAP_SYS_NICE and ptrace access; %s %s)",
			 strerror(EPERM), s.skipped == 1 ? "pid" : "pids", s.skipped_pids);
		return;
	}
	/* MADV_WILLNEED only starts the reads: wait until memory.current stops rising */
	last = usage(t);
	settle_until = now_us() + RELEASE_SETTLE_MAX_US;
	while (res->status != OP_INTERRUPTED && stable < SETTLE_POLLS) {
		if (stop_requested() || (req->deadline_us && now_us() >= req->deadline_us))
			break;
		if (now_us() >= settle_until) {
			gave_up = true;
			break;
		}
		usleep(SETTLE_POLL_US);
		after = usage(t);
		/* falling is not rising: an active cgroup also frees memory */
		stable = after <= last ? stable + 1 : 0;
		last = after;
	}
	after = last;
	if (res->status != OP_INTERRUPTED && stable < SETTLE_POLLS && !gave_up) {
		/* stopped while the reads were still landing */
		res->status = OP_INTERRUPTED;
		res->error = EINTR;
	}
	keyed_set(&res->r, "requested", req->amount);
	keyed_set(&res->r, "released", after > before ? after - before : 0);
	keyed_set(&res->r, "elapsed_us", now_us() - start);
	if (gave_up)
		snprintf(waited, sizeof(waited), "; memory.current still rising after %llu s: stopped waiting",
			 RELEASE_SETTLE_MAX_US / 1000000);
	if (s.skipped) {
		/* what was skipped stays in swap: less than asked, as the kernel's -EAGAIN */
		keyed_set(&res->r, "skipped_processes", s.skipped);
		if (res->status == OP_DONE) {
			res->status = OP_PARTIAL;
			res->error = EPERM;
		}
		snprintf(skipped, sizeof(skipped),
			 "; skipped %d %s memtide may not ptrace (%s %s; process_madvise needs CAP_SYS_NICE and ptrace access)",
			 s.skipped, s.skipped == 1 ? "process" : "processes",
			 s.skipped == 1 ? "pid" : "pids", s.skipped_pids);
	}
	snprintf(res->message, sizeof(res->message),
		 "approximate: this kernel has no memory.release; process_madvise(MADV_WILLNEED) read back what %d processes map (unmapped shmem is not covered)%s%s%s",
		 s.processes, req->amount != AMOUNT_MAX ? "; the size was not applied" : "", waited,
		 skipped);
}

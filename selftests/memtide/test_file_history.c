// SPDX-License-Identifier: GPL-2.0
/*
 * Anon-only reclaim (memory.reclaim swappiness=max) leaves the page cache's access history
 * alone. On 6.12's multi-gen LRU, anon eviction cannot pass the oldest file generation, so
 * swappiness=max moves those file folios one generation up, unevicted; it must keep what
 * they record of their use (PG_referenced, PG_workingset, the tier bits), or a file read
 * every minute looks unused after one anon-only reclaim, loses its tier protection, and its
 * refaults stop counting as workingset ones (issue 35 item 1).
 *
 *   root
 *    `- memtide_history (one process: 32M of incompressible anon, 64M of page cache of an
 *                        unlinked file, read twice so that its pages are referenced)
 *
 * PG_referenced is read per page from /proc/kpageflags, for the pages /proc/kpagecgroup
 * charges to the test's cgroup; LRU_REFS_MASK and PG_workingset are not exported, and move
 * with PG_referenced here (folio_inc_gen() clears all three).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"

#define ANON_SIZE MB(32)
#define FILE_SIZE MB(64)

/* include/uapi/linux/kernel-page-flags.h */
#define KPF_REFERENCED	2
#define KPF_LRU		5
#define KPF_ANON	12
#define KPF_SWAPBACKED	14

struct file_pages {
	long file;		/* on an LRU, neither anon nor swap-backed: page cache */
	long referenced;	/* of those, with PG_referenced */
};

/* Counts the page cache pages charged to the memcg whose cgroup directory has inode ino. */
static int count_file_pages(unsigned long ino, struct file_pages *fp)
{
	enum { CHUNK = 65536 };
	static uint64_t flags[CHUNK], owner[CHUNK];
	int ffd = open("/proc/kpageflags", O_RDONLY);
	int cfd = open("/proc/kpagecgroup", O_RDONLY);
	off_t off = 0;
	ssize_t nf, nc;
	int ret = -1;
	long i;

	fp->file = fp->referenced = 0;
	if (ffd < 0 || cfd < 0) {
		ksft_print_msg("/proc/kpageflags, /proc/kpagecgroup: %m\n");
		goto out;
	}
	for (;;) {
		nf = pread(ffd, flags, sizeof(flags), off);
		nc = pread(cfd, owner, sizeof(owner), off);
		if (nf < 0 || nc < 0)
			goto out;
		if (nf == 0 || nc == 0)
			break;
		for (i = 0; i < (nf < nc ? nf : nc) / 8; i++) {
			if (owner[i] != ino || !(flags[i] & (1ULL << KPF_LRU)) ||
			    (flags[i] & ((1ULL << KPF_ANON) | (1ULL << KPF_SWAPBACKED))))
				continue;
			fp->file++;
			if (flags[i] & (1ULL << KPF_REFERENCED))
				fp->referenced++;
		}
		off += nf < nc ? nf : nc;
	}
	ret = 0;
out:
	if (ffd >= 0)
		close(ffd);
	if (cfd >= 0)
		close(cfd);
	return ret;
}

/* cg_run_nowait() body: the anon, the file written and read twice, then ready */
static int reader(const char *cgroup, void *arg)
{
	char name[] = "memtide-history.XXXXXX";
	size_t chunk = MB(1), done;
	char *anon, *buf;
	int fd, pass;

	anon = mmap(NULL, ANON_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf = malloc(chunk);
	fd = mkstemp(name);
	if (anon == MAP_FAILED || !buf || fd < 0 || unlink(name))
		return -1;
	fill_incompressible(anon, ANON_SIZE, getpid());
	for (done = 0; done < FILE_SIZE; done += chunk) {
		fill_incompressible(buf, chunk, done + 1);
		if (write(fd, buf, chunk) != (ssize_t)chunk)
			return -1;
	}
	if (fsync(fd))
		return -1;
	/* each read of a page cache folio is one folio_mark_accessed() */
	for (pass = 0; pass < 2; pass++)
		for (done = 0; done < FILE_SIZE; done += chunk)
			if (pread(fd, buf, chunk, done) != (ssize_t)chunk)
				return -1;
	if (hog_ready())
		return -1;
	for (;;)
		pause();
}

static int check_history_kept(const char *root)
{
	struct file_pages before, after;
	struct reclaim_result r;
	int ret = KSFT_FAIL;
	long swapped;
	struct stat st;
	int i, err;
	pid_t pid;
	char *cg;

	cg = cgroup_with_child(root, "memtide_history", reader, NULL, &pid);
	if (!cg)
		return KSFT_FAIL;
	if (stat(cg, &st) || count_file_pages(st.st_ino, &before))
		goto out;

	/* a proactive agent trimming anon a little at a time, as memtide idle does */
	for (i = 0; i < 64; i++) {
		err = reclaim_request(cg, "1M swappiness=max", &r);
		if (err && err != -EAGAIN)
			goto out;
	}
	swapped = cg_read_long(cg, "memory.swap.current");
	if (count_file_pages(st.st_ino, &after))
		goto out;
	ksft_print_msg("page cache pages %ld -> %ld, referenced %ld -> %ld; swap %ld\n",
		       before.file, after.file, before.referenced, after.referenced, swapped);

	/* the setup holds: the file is resident and referenced, the loop reached the anon */
	if (before.file < FILE_SIZE / 4096 * 9 / 10 || before.referenced < before.file * 9 / 10 ||
	    swapped < ANON_SIZE / 2)
		goto out;
	/* anon-only: no page cache evicted, and its history kept */
	if (after.file < before.file * 9 / 10 || after.referenced < before.referenced * 9 / 10)
		goto out;
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* On the multi-gen LRU, the case this is about; the guest is left as it was booted. */
static int test_swappiness_max_keeps_file_history(const char *root)
{
	int was_on = lru_gen_is_on();
	int ret;

	if (was_on < 0 || set_lru_gen("y"))
		return KSFT_FAIL;	/* the guest's kernel is built with MGLRU */
	ret = check_history_kept(root);
	if (set_lru_gen(was_on ? "y" : "n"))
		return KSFT_FAIL;
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_swappiness_max_keeps_file_history),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

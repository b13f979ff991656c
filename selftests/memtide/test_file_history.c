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
 *
 * The same goes for the counts the eviction controller keeps per memcg (what file eviction
 * evicted and protected, and their decaying averages): moving file min_seq without evicting
 * must not fold them into the averages, which halves them at each move. They are read from
 * /sys/kernel/debug/lru_gen_full. The move goes 64 folios (MAX_LRU_BATCH) per call; with the
 * 48M left after the first reclaim, 12288 pages, the last folio fills a batch, the case
 * where the move once left the empty generation to try_to_inc_min_seq(), which folds them
 * (a stray page or two of the test's binary, charged here on a first run, hides it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
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

/*
 * A proactive agent trimming anon a little at a time, as memtide idle does: 64 writes of
 * "1M swappiness=max" to cg's memory.reclaim. -1 on an error other than -EAGAIN.
 */
static int trim_anon(const char *cg)
{
	struct reclaim_result r;
	int i, err;

	for (i = 0; i < 64; i++) {
		err = reclaim_request(cg, "1M swappiness=max", &r);
		if (err && err != -EAGAIN)
			return -1;
	}
	return 0;
}

static int check_history_kept(const char *root)
{
	struct file_pages before, after;
	int ret = KSFT_FAIL;
	long swapped;
	struct stat st;
	pid_t pid;
	char *cg;

	cg = cgroup_with_child(root, "memtide_history", reader, NULL, &pid);
	if (!cg)
		return KSFT_FAIL;
	if (stat(cg, &st) || count_file_pages(st.st_ino, &before))
		goto out;

	if (trim_anon(cg))
		goto out;
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

#define LRU_GEN_FULL "/sys/kernel/debug/lru_gen_full"

/*
 * What the file eviction controller of the memcg at memcg_path (as lru_gen_full prints it)
 * counts, in pages, summed over tiers and nodes: avg_total (suffix T, on the youngest
 * generation's line) and the oldest file generation's evicted (e) and protected (p), the
 * "total" read_ctrl_pos() compares refaults with (lru_gen_seq_show_full()). -1 on error.
 * The memcg's lines of the file go to dump (dump_size bytes, NUL-terminated).
 */
static long file_eviction_history(const char *memcg_path, char *dump, size_t dump_size)
{
	size_t used = 0;
	char line[512], path[4096];
	char tok[7][32];
	bool in = false;
	long sum = -1;
	unsigned int id;
	FILE *f;
	int i;

	if (access(LRU_GEN_FULL, R_OK) &&
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		return -1;
	f = fopen(LRU_GEN_FULL, "r");
	if (!f) {
		ksft_print_msg("%s: %m\n", LRU_GEN_FULL);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "memcg ", 6)) {
			in = sscanf(line, "memcg %u %4095s", &id, path) == 2 &&
			     !strcmp(path, memcg_path);
			if (in)
				sum = 0;
			continue;
		}
		/* the memcg's lines, for the message of a failure */
		if (in && used + strlen(line) < dump_size) {
			memcpy(dump + used, line, strlen(line) + 1);
			used += strlen(line);
		}
		/* a tier's line: its number, then three counts for anon and three for file */
		if (!in || sscanf(line, "%31s %31s %31s %31s %31s %31s %31s", tok[0], tok[1],
				  tok[2], tok[3], tok[4], tok[5], tok[6]) != 7)
			continue;
		for (i = 4; i < 7; i++) {
			char *end;
			long n = strtol(tok[i], &end, 10);

			if (*end == 'T' || *end == 'e' || *end == 'p')
				sum += n;
		}
	}
	fclose(f);
	return sum;
}

/* text, a line at a time as TAP diagnostics, each after title */
static void print_lines(const char *title, char *text)
{
	char *line, *save;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ksft_print_msg("%s: %s\n", title, line);
}

static int check_eviction_stats_kept(const char *root)
{
	static char dump_before[65536], dump_after[65536];
	struct reclaim_result r;
	long before, after, swapped, file_before, file_after;
	int ret = KSFT_FAIL;
	char name[64];
	int err;
	pid_t pid;
	char *cg;

	/*
	 * lru_gen_full lists offline memcgs too: a name of this run only, so that an earlier
	 * run's memcg, still being freed, is never the one read.
	 */
	snprintf(name, sizeof(name), "memtide_evict_stats_%d", getpid());
	cg = cgroup_with_child(root, name, reader, NULL, &pid);
	if (!cg)
		return KSFT_FAIL;
	/* some file eviction first, so that the controller has something to remember */
	err = reclaim_request(cg, "16M swappiness=0", &r);
	before = file_eviction_history(cg + strlen(root), dump_before, sizeof(dump_before));
	file_before = cg_read_key_long(cg, "memory.stat", "file ");
	if (err || before < 0)
		goto out;

	if (trim_anon(cg))
		goto out;
	swapped = cg_read_long(cg, "memory.swap.current");
	after = file_eviction_history(cg + strlen(root), dump_after, sizeof(dump_after));
	file_after = cg_read_key_long(cg, "memory.stat", "file ");
	ksft_print_msg("file eviction counts %ld -> %ld pages; page cache %ld -> %ld; swap %ld\n",
		       before, after, file_before, file_after, swapped);

	/* the setup holds: file eviction was counted, the loop reached the anon */
	if (before < MB(16) / 4096 / 4 || swapped < ANON_SIZE / 2)
		goto out;
	/* anon-only: no page cache evicted, and the controller's counts kept */
	if (file_after < file_before * 9 / 10 || after < before * 9 / 10) {
		print_lines("lru_gen_full before", dump_before);
		print_lines("lru_gen_full after", dump_after);
		goto out;
	}
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

static int on_mglru(int (*check)(const char *root), const char *root)
{
	int was_on = lru_gen_is_on();
	int ret;

	if (was_on < 0 || set_lru_gen("y"))
		return KSFT_FAIL;	/* the guest's kernel is built with MGLRU */
	ret = check(root);
	if (set_lru_gen(was_on ? "y" : "n"))
		return KSFT_FAIL;
	return ret;
}

/* On the multi-gen LRU, the case this is about; the guest is left as it was booted. */
static int test_swappiness_max_keeps_file_history(const char *root)
{
	return on_mglru(check_history_kept, root);
}

static int test_swappiness_max_keeps_eviction_stats(const char *root)
{
	return on_mglru(check_eviction_stats_kept, root);
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_swappiness_max_keeps_file_history),
	MEMTIDE_TEST(test_swappiness_max_keeps_eviction_stats),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * memory.release's second phase, which maps what the first phase read into the processes: a
 * 64 KiB mTHP folio still in the swap cache is mapped at every one of its PTEs and its slots
 * are freed (a release that frees nothing never reports success); a signal that lands after
 * the round's reads stops the mapping, and what was read but not mapped stays in the swap
 * cache, where the next release maps it without reading it again.
 *
 *   root
 *    `- memtide_phase2_* (processes holding checksummed memory, swapped out before release)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"
#include "release_util.h"

#define THP "/sys/kernel/mm/transparent_hugepage"
#define MTHP_SIZE (64 << 10)
#define MTHP_LEN MB(64L)
#define MTHP_SEED 5

/* The bracketed word of a THP "enabled" file into buf; 0 or -1. */
static int thp_mode(const char *path, char *buf, size_t len)
{
	char line[128], *open, *close;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || close - open - 1 >= (long)len)
		return -1;
	*close = '\0';
	strcpy(buf, open + 1);
	return 0;
}

/* /sys/block/NAME/queue/rotational of a /dev/NAME swap device */
static void rotational_path(const char *dev, char *path, size_t len)
{
	const char *name = strrchr(dev, '/');

	snprintf(path, len, "/sys/block/%s/queue/rotational", name ? name + 1 : dev);
}

/*
 * Swaps dev off and on again with the rotational flag set to value, which swapon reads: 6.12
 * swaps a large folio out whole only to a non-rotational device. 0 or -1.
 */
static int swap_rotational(const char *dev, const char *value)
{
	char path[256];

	rotational_path(dev, path, sizeof(path));
	if (swapoff(dev) && errno != EINVAL) {
		ksft_print_msg("swapoff %s: %s\n", dev, strerror(errno));
		return -1;
	}
	if (write_string(path, value))
		ksft_print_msg("%s: cannot write %s\n", path, value);
	if (swapon(dev, 0)) {
		ksft_print_msg("swapon %s: %s\n", dev, strerror(errno));
		return -1;
	}
	return 0;
}

static long majflt(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_majflt;
}

/*
 * cgroup_with_child() body: fills MTHP_LEN of 64 KiB-aligned anon memory (64 KiB folios),
 * pages it out with MADV_PAGEOUT, which leaves the folios in the swap cache whole, and says
 * it is ready. On SIGUSR1 it checks the data: exit 0 intact with at most 16 major faults, 1
 * corrupted, 2 more faults, 3 setup failed.
 */
static int mthp_child(const char *cgroup, void *arg)
{
	char *raw, *buf;
	long faults;
	size_t bad;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return 3;
	raw = mmap(NULL, MTHP_LEN + MTHP_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return 3;
	buf = (char *)(((unsigned long)raw + MTHP_SIZE - 1) & ~(MTHP_SIZE - 1UL));
	fill_incompressible(buf, MTHP_LEN, MTHP_SEED);
	if (madvise(buf, MTHP_LEN, MADV_PAGEOUT))
		return 3;
	if (hog_ready() || sigwait(&set, &sig))
		return 3;
	faults = majflt();
	bad = count_corrupt_pages(buf, MTHP_LEN, MTHP_SEED);
	faults = majflt() - faults;
	printf("# mthp child: %zu corrupt pages, %ld major faults\n", bad, faults);
	fflush(stdout);
	if (bad)
		return 1;
	return faults > 16 ? 2 : 0;
}

/*
 * 64 KiB folios swapped out whole and still in the swap cache: release maps every PTE of
 * each, not its head alone, frees all their slots, and says so. The patch before this test
 * mapped the head pages only and reported success with "released 0".
 */
static int test_release_mthp_mapped_whole(const char *root)
{
	char dev[128], top[32] = "", m64[32] = "";
	long swpout, swap, after;
	struct release_result r;
	int ret = KSFT_FAIL, err;
	pid_t pid = -1;
	char *cg = NULL;

	if (swap_device(dev, sizeof(dev)) ||
	    thp_mode(THP "/hugepages-2048kB/enabled", top, sizeof(top)) ||
	    thp_mode(THP "/hugepages-64kB/enabled", m64, sizeof(m64))) {
		ksft_print_msg("no swap device or no mTHP sizes in sysfs\n");
		return KSFT_FAIL;
	}
	if (write_string(THP "/hugepages-2048kB/enabled", "never") ||
	    write_string(THP "/hugepages-64kB/enabled", "always") ||
	    swap_rotational(dev, "0"))
		goto out;
	swpout = read_long(THP "/hugepages-64kB/stats/swpout");
	cg = cgroup_with_child(root, "memtide_phase2_mthp", mthp_child, NULL, &pid);
	if (!cg)
		goto out;
	swpout = read_long(THP "/hugepages-64kB/stats/swpout") - swpout;
	swap = cg_read_long(cg, "memory.swap.current");
	ksft_print_msg("64 KiB folios swapped out whole: %ld; memory.swap.current %ld\n",
		       swpout, swap);
	if (swpout < MTHP_LEN / MTHP_SIZE / 2 || swap < MTHP_LEN / 2) {
		ksft_print_msg("the setup did not swap 64 KiB folios out whole\n");
		goto out;
	}
	err = release_request(cg, "max", &r);
	after = cg_read_long(cg, "memory.swap.current");
	print_release("max", err, &r);
	ksft_print_msg("memory.swap.current %ld -> %ld\n", swap, after);
	if (err || after > SLACK || r.remaining != after || r.anon < swap - SLACK ||
	    labs(r.released - (swap - after)) > SLACK)
		goto out;
	err = check_child(pid);
	pid = -1;
	if (err) {
		ksft_print_msg("mthp child: status %d\n", err);
		goto out;
	}
	ret = KSFT_PASS;
out:
	if (cg)
		hogged_cgroup_destroy(cg, pid);
	if (*dev && swap_rotational(dev, "1"))
		ret = KSFT_FAIL;
	if (*top)
		write_string(THP "/hugepages-2048kB/enabled", top);
	if (*m64)
		write_string(THP "/hugepages-64kB/enabled", m64);
	return ret;
}

#define SIGNAL_PROCS 40		/* processes of 4 MiB: 160 MiB, more than one 128M round */
#define SIGNAL_ROUND MB(128L)

/*
 * A signal that lands once the first round has begun to map stops the mapping: the write
 * fails with -EINTR, the read-back counts only what was mapped, and the rest stays in the
 * swap cache, where the next write maps it without reading it again. The patch before this
 * test mapped the whole round after a signal, which delays a freezer for as long. The
 * signal waits for the first freed slots: the next round's reads are issued before a round
 * is mapped, and a signal during them would stop the release before any mapping.
 */
static int test_release_signal_stops_mapping(const char *root)
{
	struct checked_spec spec = { .anon = MB(4), .max_majflt = LONG_MAX };
	long swap, after, total = SIGNAL_PROCS * MB(4L);
	struct release_result again;
	pid_t pids[SIGNAL_PROCS];
	struct release_writer w;
	int ret = KSFT_FAIL, i, n = 0, err;
	pthread_t t;
	char *cg = cg_name(root, "memtide_phase2_signal");

	if (!cg || cg_create(cg))
		goto out;
	for (n = 0; n < SIGNAL_PROCS; n++) {
		pids[n] = child_in(cg, checked_child, &spec);
		if (pids[n] < 0)
			goto out;
	}
	swap = swap_out(cg, total - SLACK);
	w = (struct release_writer){ .cg = cg };
	if (swap < 0 || catch_sigalrm() || pthread_create(&t, NULL, release_thread, &w))
		goto out;
	/* the first round's reads are done and its first process mapped */
	if (wait_swap_freed(cg, swap, MB(1)))
		ksft_print_msg("release freed no slot in 30 s\n");
	pthread_kill(t, SIGALRM);
	pthread_join(t, NULL);
	signal(SIGALRM, SIG_DFL);
	after = cg_read_long(cg, "memory.swap.current");
	print_release("max, signal once the mapping began", w.err, &w.r);
	ksft_print_msg("memory.swap.current %ld -> %ld\n", swap, after);
	if (w.err != -EINTR || w.r.read < SIGNAL_ROUND - MB(8) || w.r.remaining != after ||
	    labs(swap - after - w.r.released) > SLACK)
		goto out;
	if (w.r.released > SIGNAL_ROUND - MB(32)) {
		ksft_print_msg("the round was mapped after the signal\n");
		goto out;
	}
	/* what was left in the swap cache is mapped, not read again */
	err = release_request(cg, "max", &again);
	print_release("max again", err, &again);
	if (err || again.remaining > SLACK || again.read > swap - w.r.read + SLACK ||
	    labs(again.released - after) > SLACK)
		goto out;
	for (i = 0; i < n; i++) {
		err = check_child(pids[i]);
		pids[i] = -1;
		if (err) {
			ksft_print_msg("checked child %d: status %d\n", i, err);
			goto out;
		}
	}
	ret = KSFT_PASS;
out:
	signal(SIGALRM, SIG_DFL);
	for (i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
	if (cg)
		cg_destroy(cg);
	free(cg);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_release_mthp_mapped_whole),
	MEMTIDE_TEST(test_release_signal_stops_mapping),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

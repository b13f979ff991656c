// SPDX-License-Identifier: GPL-2.0
/* What memtide's memory.release tests share (release_util.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "release_util.h"

long swap_out(const char *cg, long want)
{
	struct reclaim_result r;
	long swap;

	reclaim_request(cg, "max", &r);
	swap = cg_read_long(cg, "memory.swap.current");
	if (swap < want) {
		ksft_print_msg("%s: only %ld bytes in swap, want %ld\n", cg, swap, want);
		return -1;
	}
	return swap;
}

void print_release(const char *what, int err, const struct release_result *r)
{
	ksft_print_msg("%s: %d; requested %s%ld released %ld anon %ld shmem %ld resident %ld read %ld no_room %ld skipped %ld remaining %ld elapsed_us %ld\n",
		       what, err, r->requested_max ? "max/" : "", r->requested, r->released,
		       r->anon, r->shmem, r->resident, r->read, r->no_room, r->skipped,
		       r->remaining, r->elapsed_us);
}

void *release_thread(void *arg)
{
	struct release_writer *w = arg;

	w->err = release_request(w->cg, "max", &w->r);
	return NULL;
}

long pages_swapped_in(void)
{
	return proc_key_long("/proc/vmstat", "pswpin");
}

int wait_swapped_in(long start, long bytes)
{
	long page = sysconf(_SC_PAGESIZE), n;

	/* a tight poll: unthrottled, a 128M round takes about a second */
	for (n = 0; n < 300000; n++) {
		if (pages_swapped_in() - start >= bytes / page)
			return 0;
		usleep(100);
	}
	return -1;
}

int wait_swap_freed(const char *cg, long start, long bytes)
{
	long n, swap;

	for (n = 0; n < 300000; n++) {
		swap = cg_read_long(cg, "memory.swap.current");
		if (swap >= 0 && swap <= start - bytes)
			return 0;
		usleep(100);
	}
	return -1;
}

int swap_device(char *dev, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/swaps", "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t")] = '\0';
		if (strlen(line) < len) {
			strcpy(dev, line);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

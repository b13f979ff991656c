// SPDX-License-Identifier: GPL-2.0
/*
 * memory.reclaim's read-back counts what it demoted (issue 35 item 3). With memory tiers, 6.12
 * reclaim migrates folios of a node that has a lower tier to that tier instead of freeing them,
 * and counts them as reclaimed: the write succeeds, but they stay charged to the cgroup. The
 * "demoted" key says how much of "anon" + "file" that was.
 *
 *   root
 *    `- memtide_demoted (one hog: 64M of anon and 16M of page cache, on node 0)
 *
 * Needs a lower memory tier: node 1 of a guest booted with vm-run.sh VM_SLOW_MB, which make
 * check's "guest with a lower memory tier" step (guest-suite.sh tiers) is, and the only place
 * this program runs: without that tier it fails, for the step would test nothing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"

/* Page-granular counters move by per-cpu charge batches: allow that much disagreement. */
#define SLACK MB(2L)

#define TIERS "/sys/devices/virtual/memory_tiering"
#define DEMOTION "/sys/kernel/mm/numa/demotion_enabled"

/* The memory tier holding node nid (a higher number is a lower, slower tier), or -1. */
static int node_tier(int nid)
{
	struct dirent *d;
	int tier = -1;
	DIR *dir = opendir(TIERS);

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		char path[512], list[64];
		int id, lo, hi;
		char *p;
		FILE *f;

		if (sscanf(d->d_name, "memory_tier%d", &id) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s/nodelist", TIERS, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		p = fgets(list, sizeof(list), f);
		fclose(f);
		/* a node list: "0", "1", "0-1", "0,2" */
		while (p && *p >= '0' && *p <= '9') {
			lo = hi = strtol(p, &p, 10);
			if (*p == '-')
				hi = strtol(p + 1, &p, 10);
			if (lo <= nid && nid <= hi)
				tier = id;
			p = *p == ',' ? p + 1 : NULL;
		}
	}
	closedir(dir);
	return tier;
}

/* Bytes of ITEM ("anon", "file") on node nid in the cgroup's memory.numa_stat, or -1. */
static long numa_stat(const char *cg, const char *item, int nid)
{
	char buf[4096], key[32], *line, *tok;

	if (cg_read(cg, "memory.numa_stat", buf, sizeof(buf)))
		return -1;
	snprintf(key, sizeof(key), "N%d=", nid);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, item, strlen(item)) || line[strlen(item)] != ' ')
			continue;
		tok = strstr(line, key);
		return tok ? atol(tok + strlen(key)) : -1;
	}
	return -1;
}

static long on_node(const char *cg, int nid)
{
	long anon = numa_stat(cg, "anon", nid), file = numa_stat(cg, "file", nid);

	return anon < 0 || file < 0 ? -1 : anon + file;
}

static void print_result(const char *what, const struct reclaim_result *r)
{
	ksft_print_msg("%s: reclaimed %ld anon %ld file %ld slab %ld demoted %ld scanned %ld\n",
		       what, r->reclaimed, r->anon, r->file, r->slab, r->demoted, r->scanned);
}

static int check_demoted(const char *cg)
{
	long before, after, n1_before, n1_after, dem_before, dem_after;
	struct reclaim_result r;
	int err;

	before = cg_read_long(cg, "memory.current");
	n1_before = on_node(cg, 1);
	dem_before = cg_read_key_long(cg, "memory.stat", "pgdemote_proactive ");
	err = reclaim_request(cg, "32M", &r);
	after = cg_read_long(cg, "memory.current");
	n1_after = on_node(cg, 1);
	dem_after = cg_read_key_long(cg, "memory.stat", "pgdemote_proactive ");
	print_result("32M, demotion on", &r);
	ksft_print_msg("memory.current %ld -> %ld, on node 1 %ld -> %ld, pgdemote_proactive +%ld pages\n",
		       before, after, n1_before, n1_after, dem_after - dem_before);
	if (err && err != -EAGAIN)
		return -1;
	if (n1_before < 0 || n1_after < 0 || dem_before < 0 || dem_after < 0)
		return -1;
	/* the hog's memory is on node 0, whose reclaim demotes first: most of it is demoted */
	if (r.demoted < MB(32) / 2 || r.demoted > r.anon + r.file ||
	    r.reclaimed != r.anon + r.file + r.slab)
		return -1;
	/* demoted pages stay charged: memory.current falls by the rest at most */
	if (before - after > r.reclaimed - r.demoted + SLACK)
		return -1;
	/*
	 * and they went to node 1, where the same write may reclaim some of them again (it
	 * shrinks every node), and memory.stat counts them as demoted too
	 */
	if (n1_after - n1_before < r.demoted / 2 ||
	    labs((dem_after - dem_before) * getpagesize() - r.demoted) > SLACK)
		return -1;
	return 0;
}

static int check_not_demoted(const char *cg)
{
	struct reclaim_result r;
	int err = reclaim_request(cg, "16M", &r);

	print_result("16M, demotion off", &r);
	if (err && err != -EAGAIN)
		return -1;
	return r.reclaimed >= MB(16) / 2 && r.demoted == 0 ? 0 : -1;
}

static int test_reclaim_counts_demoted(const char *root)
{
	struct hog_spec spec = { .anon = MB(64), .file = MB(16) };
	int t0 = node_tier(0), t1 = node_tier(1);
	int ret = KSFT_FAIL;
	char was[16] = "";
	FILE *f;
	pid_t pid;
	char *cg;

	if (t0 < 0 || t1 <= t0) {
		ksft_print_msg("node 0 in tier %d, node 1 in tier %d: no lower memory tier (vm-run.sh VM_SLOW_MB)\n",
			       t0, t1);
		return KSFT_FAIL;
	}
	f = fopen(DEMOTION, "r");
	if (!f || !fgets(was, sizeof(was), f)) {
		if (f)
			fclose(f);
		return KSFT_FAIL;
	}
	fclose(f);

	cg = hogged_cgroup_create(root, "memtide_demoted", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	if (write_string(DEMOTION, "1") || check_demoted(cg))
		goto out;
	if (write_string(DEMOTION, "0") || check_not_demoted(cg))
		goto out;
	ret = KSFT_PASS;
out:
	if (write_string(DEMOTION, strncmp(was, "true", 4) ? "0" : "1"))
		ret = KSFT_FAIL;
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_reclaim_counts_demoted),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The guest every other test relies on: swap on a virtio disk, cgroup2 with the memory
 * controller delegated to children, an ext4 working directory (page-cache tests), real
 * shmem behind tmpfs, more than one CPU, and loopback networking. Each check fails if the
 * kernel config fragment or the guest's /init lost the piece it checks.
 */
#define _GNU_SOURCE
#include <linux/magic.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

static int test_swap_on_virtio(const char *root)
{
	char buf[4096];

	if (read_text("/proc/swaps", buf, sizeof(buf)) < 0)
		return KSFT_FAIL;
	return strstr(buf, "/dev/vda") ? KSFT_PASS : KSFT_FAIL;
}

static int test_memory_controller_delegated(const char *root)
{
	if (cg_read_strstr(root, "cgroup.subtree_control", "memory"))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static int test_cwd_is_ext4(const char *root)
{
	struct statfs st;

	if (statfs(".", &st))
		return KSFT_FAIL;
	return st.f_type == EXT4_SUPER_MAGIC ? KSFT_PASS : KSFT_FAIL;
}

/* Without CONFIG_SHMEM, tmpfs is ramfs: nothing in it could ever be swapped. */
static int test_tmpfs_is_shmem(const char *root)
{
	struct statfs st;

	if (statfs("/dev/shm", &st))
		return KSFT_FAIL;
	return st.f_type == TMPFS_MAGIC ? KSFT_PASS : KSFT_FAIL;
}

static int test_smp(const char *root)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? KSFT_PASS : KSFT_FAIL;
}

static int test_loopback_up(const char *root)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int ret = KSFT_FAIL;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return KSFT_FAIL;
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr) && (ifr.ifr_flags & IFF_UP))
		ret = KSFT_PASS;
	close(fd);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_swap_on_virtio),
	MEMTIDE_TEST(test_memory_controller_delegated),
	MEMTIDE_TEST(test_cwd_is_ext4),
	MEMTIDE_TEST(test_tmpfs_is_shmem),
	MEMTIDE_TEST(test_smp),
	MEMTIDE_TEST(test_loopback_up),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

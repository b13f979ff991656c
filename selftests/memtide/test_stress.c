// SPDX-License-Identifier: GPL-2.0
/*
 * Stress with faults, for a fixed number of rounds (MEMTIDE_STRESS_ROUNDS, default 14: each
 * fault twice; MEMTIDE_STRESS_SEED replays a run's random choices). Each round three cgroups
 * hold checksummed memory (anon, memfd, tmpfs and the page cache of an ext4 file); writer
 * processes run memory.reclaim and memory.release on them and on their parent at the same
 * time, and one fault is injected:
 *
 *   rmdir        a cgroup is emptied and removed while "max" is being reclaimed from it
 *   exit         a workload is killed while its cgroup's memory is being released
 *   swapoff      the swap device goes away while everything is being released
 *   full-swap    the only swap is a 16M file while everything is being reclaimed
 *   max-lowered  memory.max drops to what the cgroup holds while it is being released
 *   sigkill      a writer on the parent is killed with SIGKILL mid-write
 *   many-writers 16 writers on one cgroup's two files at once
 *
 * Every write must return (within HANG_S) with success, -EAGAIN, -EINTR or -ENOENT; every
 * surviving workload must find its memory intact; every cgroup must be back to its baseline
 * (at most SLACK charged) once its workload exited and its files are gone, after a
 * memory.reclaim of what is left if need be (a swap-cache page whose writeback outlived its
 * process is reclaimable, not leaked; a charge reclaim cannot free is). The last lines
 * report operations, faults, pages verified and the failures of each kind (all must be 0).
 *
 *   root
 *    `- memtide_stress
 *        |- w0, w1, w2   (a checked child each: 4M anon, 2M memfd, 2M tmpfs, 2M page cache)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

#define NR_CG 3
#define MAX_WRITERS 32
#define HANG_S 120		/* a write that takes longer has hung */
#define ROUND_S 600		/* a round that takes longer has hung (debug kernels are slow);
				 * MEMTIDE_STRESS_ROUND_S overrides it */
#define SLACK MB(1L)		/* what a cgroup may keep charged once empty (per-cpu stock) */
#define TMPFS "memtide-stress-tmpfs"
#define SWAP_DEV "/dev/vda"
#define SMALL_SWAP "memtide-stress.swap"

enum fault { RMDIR, EXIT, SWAPOFF, FULL_SWAP, MAX_LOWERED, SIGKILLED, MANY_WRITERS, NR_FAULTS };
static const char *const fault_name[NR_FAULTS] = {
	"rmdir", "exit", "swapoff", "full-swap", "max-lowered", "sigkill", "many-writers",
};

struct tally {
	long ops, ok, eagain, eintr, enoent, killed;	/* killed: by the sigkill fault */
	long faults[NR_FAULTS], pages_verified;
	long corrupt, hung, unexpected, not_baseline, setup;
};

struct workload {
	char *cg;
	pid_t pid;		/* 0 once gone (killed by a fault, or checked) */
	bool removed;		/* the rmdir fault took the cgroup */
	char tmpfs_file[64], cache_file[64];
};

struct writer {
	pid_t pid;
	bool may_be_killed;
};

static struct writer writers[MAX_WRITERS];
static int nr_writers;

static unsigned int seed;

static int rnd(int n)
{
	return rand_r(&seed) % n;
}

/* Forks a writer of req to cg/file, which exits with the write's errno (0 on success). */
static void start_writer(const char *cg, const char *file, const char *req, bool may_be_killed)
{
	char path[PATH_MAX];
	pid_t pid;
	int fd;

	if (nr_writers == MAX_WRITERS)
		return;
	snprintf(path, sizeof(path), "%s/%s", cg, file);
	pid = fork();
	if (!pid) {
		alarm(HANG_S);	/* SIGALRM's default action: the parent sees a hung write */
		fd = open(path, O_RDWR);
		if (fd < 0)
			_exit(errno);
		_exit(write(fd, req, strlen(req)) < 0 ? errno : 0);
	}
	if (pid > 0)
		writers[nr_writers++] = (struct writer){ pid, may_be_killed };
}

/* Waits for every writer and counts how each ended. */
static void reap_writers(struct tally *t)
{
	int i, status;

	for (i = 0; i < nr_writers; i++) {
		if (waitpid(writers[i].pid, &status, 0) != writers[i].pid) {
			t->setup++;
			continue;
		}
		t->ops++;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && writers[i].may_be_killed) {
			t->killed++;
		} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
			t->hung++;
			ksft_print_msg("a writer did not return in %d s\n", HANG_S);
		} else if (!WIFEXITED(status)) {
			t->unexpected++;
			ksft_print_msg("a writer died of signal %d\n", WTERMSIG(status));
		} else {
			switch (WEXITSTATUS(status)) {
			case 0: t->ok++; break;
			case EAGAIN: t->eagain++; break;
			case EINTR: t->eintr++; break;
			case ENOENT: t->enoent++; break;
			default:
				t->unexpected++;
				ksft_print_msg("a write failed with %s\n",
					       strerror(WEXITSTATUS(status)));
			}
		}
	}
	nr_writers = 0;
}

/* A random memory.reclaim or memory.release request on cg. */
static void random_writer(const char *cg)
{
	static const char *const amounts[] = { "max", "1M", "4M", "16M", "64M" };
	const char *file = rnd(2) ? "memory.reclaim" : "memory.release";

	start_writer(cg, file, amounts[rnd(ARRAY_SIZE(amounts))], false);
}

static int workload_start(const char *parent, int i, int round, struct workload *w)
{
	char name[16];
	struct checked_spec spec = {
		.anon = MB(4), .memfd = MB(2), .tmpfs = MB(2), .cache = MB(2),
		.max_majflt = LONG_MAX,
	};

	snprintf(name, sizeof(name), "w%d", i);
	snprintf(w->tmpfs_file, sizeof(w->tmpfs_file), TMPFS "/w%d-%d", i, round);
	snprintf(w->cache_file, sizeof(w->cache_file), "memtide-stress-w%d-%d.data", i, round);
	spec.tmpfs_file = w->tmpfs_file;
	spec.cache_file = w->cache_file;
	w->removed = false;
	w->cg = cgroup_with_child(parent, name, checked_child, &spec, &w->pid);
	return w->cg ? 0 : -1;
}

static void kill_workload(struct workload *w)
{
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		waitpid(w->pid, NULL, 0);
	}
	w->pid = 0;
}

/* The workload's own check, then its files away and its cgroup back to baseline and gone. */
static void workload_finish(struct workload *w, struct tally *t)
{
	long current = -1;
	int i, st;

	if (w->pid > 0) {
		st = check_child(w->pid);
		w->pid = 0;
		if (st == 0)
			t->pages_verified += (MB(4) + MB(2) * 3) / getpagesize();
		else if (st == 1)
			t->corrupt++;	/* the child printed how many pages */
		else
			t->setup++;
	}
	unlink(w->tmpfs_file);
	unlink(w->cache_file);
	if (!w->removed) {
		/* page cache of a deleted file goes at once; give the charges a moment */
		for (i = 0; i < 20; i++) {
			if (i == 10)
				cg_write(w->cg, "memory.reclaim", "max");
			current = cg_read_long(w->cg, "memory.current");
			if (current >= 0 && current <= SLACK)
				break;
			usleep(100000);
		}
		if (current < 0 || current > SLACK) {
			t->not_baseline++;
			ksft_print_msg("%s holds %ld bytes once empty\n", w->cg, current);
		}
		cg_destroy(w->cg);
	}
	free(w->cg);
	w->cg = NULL;
}

/* Removes cg once its last process is reaped; 0 or -1. */
static int rmdir_when_empty(const char *cg)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(cg))
			return 0;
		if (errno != EBUSY)
			return -1;
		usleep(20000);
	}
	return -1;
}

/* A 16M swap file of higher priority than the swap device; 0 or -1. */
static int small_swap_on(void)
{
	static char zero[MB(1)];
	int fd = open(SMALL_SWAP, O_WRONLY | O_CREAT | O_TRUNC, 0600), i;

	if (fd < 0)
		return -1;
	for (i = 0; i < 16; i++)
		if (write(fd, zero, sizeof(zero)) != sizeof(zero))
			return -1;
	close(fd);
	if (system("mkswap " SMALL_SWAP " >/dev/null"))
		return -1;
	return swapon(SMALL_SWAP, SWAP_FLAG_PREFER | 10);
}

/*
 * A watchdog process: when a round makes no progress (a byte on *fd) for ROUND_S, it has the
 * kernel list its blocked tasks on the console (sysrq w), says so and kills the test, so that
 * a hang is reported with its stacks instead of stopping the whole guest suite at the
 * harness's timeout.
 */
static pid_t watchdog_start(int *fd, int round_s)
{
	struct pollfd pfd;
	int p[2], n;
	pid_t pid, test = getpid();
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid) {
		close(p[0]);
		*fd = p[1];
		return pid;
	}
	close(p[1]);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	while ((n = poll(&pfd, 1, round_s * 1000)) > 0)
		if (read(p[0], &c, 1) <= 0)
			_exit(0);	/* every writer of the pipe is gone */
	printf("# no progress in %d s: blocked tasks follow on the console (sysrq w)\n", round_s);
	fflush(stdout);
	/*
	 * The stacks are KERN_INFO: console loglevel 9 first (sysrq 9), or the guest's
	 * loglevel=5 hides them. Blocked tasks (w), then what the CPUs run (l): a task
	 * looping in the kernel (swapoff's retries) is not blocked.
	 */
	if (write_string("/proc/sysrq-trigger", "9") || write_string("/proc/sysrq-trigger", "w") ||
	    write_string("/proc/sysrq-trigger", "l"))
		printf("# cannot write /proc/sysrq-trigger\n");
	if (system("cat /proc/swaps; grep -E 'Swap|MemAvail' /proc/meminfo"))
		printf("# cannot show /proc/swaps\n");
	kill(test, SIGKILL);
	_exit(1);
}

static void inject(enum fault f, const char *parent, struct workload *w, struct tally *t)
{
	struct workload *victim = &w[rnd(NR_CG)];
	char buf[32];
	long current;
	int i;

	switch (f) {
	case RMDIR:
		start_writer(victim->cg, "memory.reclaim", "max", false);
		usleep(rnd(200000));
		kill_workload(victim);
		unlink(victim->tmpfs_file);	/* tmpfs pages would keep it charged */
		if (rmdir_when_empty(victim->cg))
			t->setup++;
		victim->removed = true;
		break;
	case EXIT:
		cg_write(victim->cg, "memory.reclaim", "max");
		start_writer(victim->cg, "memory.release", "max", false);
		usleep(rnd(200000));
		kill_workload(victim);
		break;
	case SWAPOFF:
		cg_write(parent, "memory.reclaim", "max");
		for (i = 0; i < NR_CG; i++)
			start_writer(w[i].cg, "memory.release", "max", false);
		usleep(rnd(100000));
		if (swapoff(SWAP_DEV) || swapon(SWAP_DEV, 0))
			t->setup++;
		break;
	case FULL_SWAP:
		if (small_swap_on() || swapoff(SWAP_DEV)) {
			t->setup++;
			break;
		}
		for (i = 0; i < NR_CG; i++)
			start_writer(w[i].cg, "memory.reclaim", "max", false);
		reap_writers(t);
		if (swapon(SWAP_DEV, 0) || swapoff(SMALL_SWAP))
			t->setup++;
		unlink(SMALL_SWAP);
		break;
	case MAX_LOWERED:
		cg_write(victim->cg, "memory.reclaim", "max");
		start_writer(victim->cg, "memory.release", "max", false);
		current = cg_read_long(victim->cg, "memory.current");
		snprintf(buf, sizeof(buf), "%ld", current + MB(1));
		if (cg_write(victim->cg, "memory.max", buf))
			t->setup++;
		reap_writers(t);
		cg_write(victim->cg, "memory.max", "max");
		break;
	case SIGKILLED:
		start_writer(parent, rnd(2) ? "memory.reclaim" : "memory.release", "max", true);
		usleep(rnd(300000));
		kill(writers[nr_writers - 1].pid, SIGKILL);
		break;
	case MANY_WRITERS:
		for (i = 0; i < 16; i++)
			start_writer(victim->cg, i % 2 ? "memory.reclaim" : "memory.release", "1M",
				     false);
		break;
	default:
		break;
	}
	t->faults[f]++;
}

static int test_stress_with_faults(const char *root)
{
	const char *env = getenv("MEMTIDE_STRESS_ROUNDS");
	int rounds = env ? atoi(env) : 2 * NR_FAULTS, round, i, round_s;
	struct workload w[NR_CG] = { 0 };
	struct tally t = { 0 };
	int progress = -1;
	pid_t watchdog;
	char *parent;

	if (rounds < 1) {
		ksft_print_msg("MEMTIDE_STRESS_ROUNDS '%s' is not a number of rounds\n", env);
		return KSFT_FAIL;
	}
	env = getenv("MEMTIDE_STRESS_ROUND_S");
	round_s = env ? atoi(env) : ROUND_S;
	if (round_s < 1) {
		ksft_print_msg("MEMTIDE_STRESS_ROUND_S '%s' is not a number of seconds\n", env);
		return KSFT_FAIL;
	}
	env = getenv("MEMTIDE_STRESS_SEED");
	seed = env ? strtoul(env, NULL, 0) : time(NULL);
	ksft_print_msg("%d rounds, seed %u (MEMTIDE_STRESS_SEED=%u replays it)\n", rounds, seed,
		       seed);
	parent = cg_name(root, "memtide_stress");
	if (!parent || cg_create(parent) || cg_write(parent, "cgroup.subtree_control", "+memory") ||
	    tmpfs_mount(TMPFS)) {
		free(parent);
		return KSFT_FAIL;
	}
	watchdog = watchdog_start(&progress, round_s);
	for (round = 0; round < rounds && !t.setup; round++) {
		for (i = 0; i < NR_CG; i++)
			if (workload_start(parent, i, round, &w[i]))
				t.setup++;
		if (t.setup)
			break;
		for (i = 0; i < 6; i++)
			random_writer(rnd(4) ? w[rnd(NR_CG)].cg : parent);
		inject(round % NR_FAULTS, parent, w, &t);
		reap_writers(&t);
		for (i = 0; i < NR_CG; i++)
			workload_finish(&w[i], &t);
		if (progress >= 0 && write(progress, "r", 1) != 1)
			t.setup++;
	}
	if (progress >= 0)
		close(progress);
	/* the workloads and writers forked since hold the pipe too: no EOF to wait for */
	if (watchdog > 0) {
		kill(watchdog, SIGKILL);
		waitpid(watchdog, NULL, 0);
	}
	for (i = 0; i < NR_CG; i++)
		if (w[i].cg) {
			kill_workload(&w[i]);
			workload_finish(&w[i], &t);
		}
	tmpfs_umount(TMPFS);
	cg_destroy(parent);
	free(parent);

	ksft_print_msg("%d rounds: %ld writes (%ld done, %ld -EAGAIN, %ld -EINTR, %ld -ENOENT, "
		       "%ld killed by the sigkill fault)\n", round, t.ops, t.ok, t.eagain, t.eintr,
		       t.enoent, t.killed);
	for (i = 0; i < NR_FAULTS; i++)
		ksft_print_msg("fault %-12s injected %ld times\n", fault_name[i], t.faults[i]);
	ksft_print_msg("%ld pages verified; corrupted workloads %ld, hung writes %ld, other "
		       "errors %ld, cgroups not back to baseline %ld, set-up failures %ld\n",
		       t.pages_verified, t.corrupt, t.hung, t.unexpected, t.not_baseline, t.setup);
	if (round < rounds || t.corrupt || t.hung || t.unexpected || t.not_baseline || t.setup)
		return KSFT_FAIL;
	return KSFT_PASS;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_stress_with_faults),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

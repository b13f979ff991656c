// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim and release of one cgroup: the blocking write, its read-back on the same file
 * descriptor, and what the freezer and signals do to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "madvise.h"
#include "memtide.h"
#include "parse.h"
#include "readback.h"
#include "watch.h"

/* a freezer that keeps interrupting us is a system in trouble: give up after this many */
#define MAX_FREEZER_RETRIES 1000

struct kwrite {
	const char *file;		/* memory.reclaim, memory.release */
	const char *suffix;		/* appended to the amount: " swappiness=60" */
	bool readback;			/* the kernel reports on the same descriptor */
	const char *counter;		/* what the progress bar polls */
	const char *verb;		/* "reclaimed", "released" */
	const char *done_key;		/* the read-back key of the amount done */
	bool eagain_is_done;		/* "max" emulated with a byte amount (stock kernel) */
};

static void set_error(struct op_result *res, int err, const char *file)
{
	res->status = OP_ERROR;
	res->error = err;
	if (file)
		snprintf(res->message, sizeof(res->message), "%s: %s", file, strerror(err));
	else
		snprintf(res->message, sizeof(res->message), "%s", strerror(err));
}

/* What a write of AMOUNT asks: "max" or bytes, then SUFFIX (" swappiness=60") */
static void format_request(uint64_t amount, const char *suffix, char *buf, size_t len)
{
	if (amount == AMOUNT_MAX)
		snprintf(buf, len, "max%s", suffix);
	else
		snprintf(buf, len, "%" PRIu64 "%s", amount, suffix);
}

static uint64_t drop(uint64_t before, uint64_t after)
{
	return before > after ? before - after : 0;
}

/*
 * What K's write lowers, from which to estimate what an interrupted write did where the
 * kernel does not say: memory.current for reclaim (anon + file at the root, which has no
 * memory.current), memory.swap.current for release. 0 when it cannot be read: then nothing
 * is known to be done.
 */
static uint64_t level(const struct target *t, const struct kwrite *k)
{
	struct cg_usage u;
	uint64_t v;

	if (strcmp(k->counter, "memory.current"))
		return cg_read_u64(t, k->counter, &v) ? 0 : v;
	cg_read_usage(t, &u);
	return u.current;
}

/*
 * Write AMOUNT to K->file of T until the kernel says done, partial or interrupted. The
 * freezer (hibernation, cgroup.freeze of an ancestor) ends a long write with -EINTR
 * although no one asked us to stop: then go on with what is left.
 */
static void kernel_write(const struct op_request *req, const struct target *t,
			 const struct kwrite *k, uint64_t amount, struct op_result *res)
{
	struct watch w = {
		.t = t, .counter = k->counter, .verb = k->verb, .goal = amount,
		.deadline_us = req->deadline_us, .bar = req->progress,
		.bar_after_us = req->progress_delay_us,
	};
	int fd = cg_open(t, k->file, k->readback ? O_RDWR : O_WRONLY), ret;

	if (fd < 0) {
		set_error(res, -fd, k->file);
		return;
	}
	if (watch_start(&w)) {
		close(fd);
		set_error(res, ENOMEM, NULL);
		return;
	}
	for (;;) {
		char line[96];
		uint64_t done = 0, before = k->readback ? 0 : level(t, k);

		format_request(amount, k->suffix, line, sizeof(line));
		ret = watch_write(&w, fd, line, strlen(line));
		if (k->readback && readback_add(fd, k->done_key, &res->r, &done)) {
			set_error(res, E2BIG, NULL);
			snprintf(res->message, sizeof(res->message), "%s: read-back: %s", k->file,
				 keyed_strerror(-E2BIG));
			break;
		}
		if (!ret || (ret == -EAGAIN && k->eagain_is_done)) {
			res->status = OP_DONE;
		} else if (ret == -EAGAIN) {
			res->status = OP_PARTIAL;
			res->error = EAGAIN;
		} else if (ret == -EINTR && !stop_requested() &&
			   res->freezer_retries < MAX_FREEZER_RETRIES) {
			res->freezer_retries++;
			if (amount == AMOUNT_MAX)
				continue;
			/*
			 * Ask only for what is missing: the whole amount again could take
			 * twice what was asked. A stock kernel does not say what the write
			 * did, so the drop of its counter stands for it.
			 */
			if (!k->readback)
				done = drop(before, level(t, k));
			if (done >= amount) {
				res->status = OP_DONE;
			} else {
				amount -= done;
				continue;
			}
		} else if (ret == -EINTR) {
			res->status = OP_INTERRUPTED;
			res->error = EINTR;
		} else if (ret == -ENOENT || ret == -ENODEV) {
			set_error(res, ret == -ENOENT ? ENOENT : ENODEV, NULL);
			snprintf(res->message, sizeof(res->message), "%s: the cgroup was removed",
				 k->file);
		} else {
			set_error(res, -ret, k->file);
		}
		break;
	}
	watch_stop(&w);
	close(fd);
}

/* For stock kernels: byte counters of memory.stat, to estimate what a write did. */
static void stat_sample(const struct target *t, uint64_t *anon, uint64_t *file,
			uint64_t *current)
{
	struct cg_usage u;

	cg_read_usage(t, &u);
	*anon = u.anon;
	*file = u.file;
	*current = u.current;
}

/* " swappiness=N", " swappiness=max" or "": what memory.reclaim gets after the amount */
static void reclaim_suffix(const struct op_request *req, char *buf, size_t len)
{
	if (req->swappiness == SWAPPINESS_MAX)
		snprintf(buf, len, " swappiness=max");
	else if (req->swappiness >= 0)
		snprintf(buf, len, " swappiness=%d", req->swappiness);
	else
		buf[0] = '\0';
}

/* "max" on a kernel without it (mainline): all that CURRENT holds, and -EAGAIN is done */
static uint64_t stock_max(uint64_t current)
{
	return current ? current : 1;
}

static const char no_swappiness_max[] =
	"memory.reclaim: this kernel has no swappiness=max (memtide, or Linux 6.16)";

void op_reclaim(const struct op_request *req, const struct features *f,
		const struct target *t, struct op_result *res)
{
	struct kwrite k = {
		.file = "memory.reclaim", .counter = "memory.current", .verb = "reclaimed",
		.done_key = "reclaimed", .readback = f->reclaim_readback,
	};
	uint64_t amount = req->amount, anon0, file0, cur0, anon1, file1, cur1;
	char suffix[32];

	memset(res, 0, sizeof(*res));
	res->operation = "reclaim";
	reclaim_suffix(req, suffix, sizeof(suffix));
	k.suffix = suffix;
	/*
	 * A memtide kernel says whether it takes swappiness=max; a stock one cannot say (Linux
	 * 6.16 and later take it), so there the write is tried and -EINVAL explained.
	 */
	if (req->swappiness == SWAPPINESS_MAX && f->present && !f->swappiness_max) {
		res->status = OP_ERROR;
		res->error = EOPNOTSUPP;
		snprintf(res->message, sizeof(res->message), "%s", no_swappiness_max);
		return;
	}
	stat_sample(t, &anon0, &file0, &cur0);
	if (amount == AMOUNT_MAX && !f->reclaim_max) {
		/* mainline has no "max": ask for all of it, and running out is then success */
		amount = stock_max(cur0);
		k.eagain_is_done = true;
	}
	kernel_write(req, t, &k, amount, res);
	keyed_set(&res->r, "requested", req->amount);
	if (res->status == OP_ERROR && res->error == EINVAL && req->swappiness == SWAPPINESS_MAX)
		snprintf(res->message, sizeof(res->message), "%s", no_swappiness_max);
	if (k.readback || res->status == OP_ERROR)
		return;
	stat_sample(t, &anon1, &file1, &cur1);
	res->approximate = true;
	keyed_set(&res->r, "anon", drop(anon0, anon1));
	keyed_set(&res->r, "file", drop(file0, file1));
	keyed_set(&res->r, "reclaimed", drop(anon0, anon1) + drop(file0, file1));
	snprintf(res->message, sizeof(res->message),
		 "approximate: this kernel does not report what memory.reclaim did, so the amount is the drop in memory.stat");
}

void op_release(const struct op_request *req, const struct features *f,
		const struct target *t, struct op_result *res)
{
	struct kwrite k = {
		.file = "memory.release", .suffix = "", .counter = "memory.swap.current",
		.verb = "released", .done_key = "released", .readback = f->release_readback,
	};

	memset(res, 0, sizeof(*res));
	res->operation = "release";
	if (f->release) {
		kernel_write(req, t, &k, req->amount, res);
		keyed_set(&res->r, "requested", req->amount);
		return;
	}
	madvise_release(req, t, res);
}

void op_plan(const struct op_request *req, const struct features *f,
	     const struct target *t, bool reclaim, struct op_plan *p)
{
	struct cg_usage u;
	char suffix[32];

	memset(p, 0, sizeof(*p));
	if (reclaim) {
		uint64_t amount = req->amount;

		cg_read_usage(t, &u);
		if (amount == AMOUNT_MAX && !f->reclaim_max) {
			amount = stock_max(u.current);
			p->note = "this kernel has no max: what the cgroup holds";
		}
		reclaim_suffix(req, suffix, sizeof(suffix));
		p->file = "memory.reclaim";
		format_request(amount, suffix, p->write, sizeof(p->write));
	} else if (f->release) {
		p->file = "memory.release";
		format_request(req->amount, "", p->write, sizeof(p->write));
	} else if (req->amount != AMOUNT_MAX) {
		p->note = "this kernel has no memory.release: the size is not applied";
	}
}

int exit_code_worst(int a, int b)
{
	/* usage, then error, then interrupted, then partial, then done */
	static const int rank[] = {
		[EXIT_DONE] = 0, [EXIT_PARTIAL] = 1, [EXIT_INTERRUPTED] = 2, [EXIT_ERROR] = 3,
		[EXIT_USAGE] = 4,
	};

	return rank[a] >= rank[b] ? a : b;
}

int op_exit_code(const struct op_result *res, int n)
{
	static const int codes[] = {
		[OP_DONE] = EXIT_DONE, [OP_PARTIAL] = EXIT_PARTIAL,
		[OP_INTERRUPTED] = EXIT_INTERRUPTED, [OP_ERROR] = EXIT_ERROR,
	};
	int code = EXIT_DONE;

	for (int i = 0; i < n; i++)
		code = exit_code_worst(code, codes[res[i].status]);
	return code;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * While a write to memory.reclaim or memory.release blocks, a watcher thread stops it when
 * stop.h says so (a signal makes the kernel return -EINTR with its result recorded; the
 * watcher passes the deadline) and draws the progress bar (progress.h) from the cgroup's
 * counters.
 */
#ifndef MEMTIDE_WATCH_H
#define MEMTIDE_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "stop.h"

struct watch {
	/* set by the caller */
	const struct target *t;
	const char *counter;		/* polled for the bar: "memory.current", ... */
	const char *verb;		/* "reclaimed", "released" */
	uint64_t goal;			/* bytes the bar runs to; 0 = unknown */
	uint64_t deadline_us;		/* now_us() value that stops the write; 0 = none */
	bool bar;			/* draw a bar on stderr ... */
	uint64_t bar_after_us;		/* ... once the write has run this long */
	/* private */
	pthread_t writer, thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* watch_stop() wakes the watcher at once */
	bool done;			/* under lock */
	atomic_bool in_write;		/* the writer is in (or about to enter) write() */
	uint64_t start_us, start_value;
};

/* Start watching; the calling thread is the one that will block in write(). */
int watch_start(struct watch *w);
/* write(FD, BUF, LEN) that the watcher may interrupt; returns 0 or -errno */
int watch_write(struct watch *w, int fd, const char *buf, size_t len);
/* Stop the watcher and erase the bar. */
void watch_stop(struct watch *w);

#endif

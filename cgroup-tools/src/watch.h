/* SPDX-License-Identifier: GPL-2.0 */
/*
 * While a write to memory.reclaim or memory.release blocks: stop it on SIGINT, SIGTERM or
 * the --timeout deadline (a signal makes the kernel return -EINTR with its result
 * recorded), and draw a progress bar from the cgroup's counters.
 */
#ifndef MEMTIDE_WATCH_H
#define MEMTIDE_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"

/* Install the handlers (no SA_RESTART, so a blocked write returns EINTR). */
void stop_install(void);
/* The signal that asked us to stop (SIGINT, SIGTERM; SIGALRM for the deadline), or 0. */
int stop_requested(void);
/* Forget a passed deadline, never a SIGINT or SIGTERM: the idle daemon goes on. */
void stop_clear_deadline(void);
/*
 * Forget every stop asked for, signal or deadline: a new phase starts (the release after
 * resume, whose stop is asked for anew).
 */
void stop_clear(void);
/* CLOCK_MONOTONIC in microseconds */
uint64_t now_us(void);

struct watch {
	/* set by the caller */
	const struct target *t;
	const char *counter;		/* polled for the bar: "memory.current", ... */
	const char *verb;		/* "reclaimed", "released" */
	uint64_t goal;			/* bytes the bar runs to; 0 = unknown */
	uint64_t deadline_us;		/* now_us() value that stops the write; 0 = none */
	bool bar;			/* draw a bar on stderr after the first second */
	/* private */
	pthread_t writer, thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* watch_stop() wakes the watcher at once */
	bool done;			/* under lock */
	atomic_bool in_write;		/* the writer is in (or about to enter) write() */
	uint64_t start_us, start_value;
};

/* The bar's width in columns, and the narrowest it gets on a narrow terminal */
#define PROGRESS_BAR_WIDTH 24
#define PROGRESS_BAR_MIN 8

/*
 * The progress line: "/spot.slice [#####...] reclaimed 300.0 MiB of 700.0 MiB  80.0 MiB/s  ETA 5 s",
 * the bar BAR_WIDTH columns wide (at most PROGRESS_BAR_WIDTH), or without a bar and ETA when
 * GOAL is unknown (0 or AMOUNT_MAX). Returns snprintf's length.
 */
size_t progress_line(char *buf, size_t len, const char *path, const char *verb, uint64_t done,
		     uint64_t goal, uint64_t elapsed_us, int bar_width);
/*
 * The progress line as one row of a terminal COLUMNS wide: the bar narrows first (down to
 * PROGRESS_BAR_MIN), since the amounts, rate and ETA are what a user reads; then the path
 * loses its start, then the line its end (fit_line()).
 */
void progress_row(char *buf, size_t len, const char *path, const char *verb, uint64_t done,
		  uint64_t goal, uint64_t elapsed_us, int columns);
/* Start watching; the calling thread is the one that will block in write(). */
int watch_start(struct watch *w);
/* write(FD, BUF, LEN) that the watcher may interrupt; returns 0 or -errno */
int watch_write(struct watch *w, int fd, const char *buf, size_t len);
/* Stop the watcher and erase the bar. */
void watch_stop(struct watch *w);

#endif

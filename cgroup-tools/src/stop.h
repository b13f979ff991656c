/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why memtide stops a write to memory.reclaim or memory.release: SIGINT or SIGTERM from
 * outside, or the --timeout deadline (the watcher of watch.h sees it pass). The handlers
 * are installed without SA_RESTART, so a blocked write returns EINTR; the writer is woken
 * with SIGURG, whose handler does nothing.
 */
#ifndef MEMTIDE_STOP_H
#define MEMTIDE_STOP_H

#include <stdint.h>

/* Install the handlers (no SA_RESTART, so a blocked write returns EINTR). */
void stop_install(void);
/* The signal that asked us to stop (SIGINT, SIGTERM; SIGALRM for the deadline), or 0. */
int stop_requested(void);
/* The deadline passed: stop_requested() says SIGALRM until it is cleared. */
void stop_deadline_pass(void);
/* Forget a passed deadline, never a SIGINT or SIGTERM: the idle daemon goes on. */
void stop_clear_deadline(void);
/*
 * Forget every stop asked for, signal or deadline: a new phase starts (the release after
 * resume, whose stop is asked for anew).
 */
void stop_clear(void);
/* CLOCK_MONOTONIC in microseconds */
uint64_t now_us(void);

#endif

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "parse.h"
#include "progress.h"
#include "watch.h"

#define POLL_US 100000

static void draw_bar(struct watch *w, uint64_t value, uint64_t elapsed)
{
	char name[CESCAPE_SIZE(PATH_MAX)], line[sizeof(name) + 128];

	cescape(w->t->path, name, sizeof(name));
	/* one row of the terminal as wide as it is now (it may have been resized) */
	progress_row(line, sizeof(line), name, w->verb,
		     w->start_value > value ? w->start_value - value : 0, w->goal, elapsed,
		     terminal_columns(STDERR_FILENO));
	/* \r and erase to the end of the line: the bar redraws in place */
	fprintf(stderr, "\r%s\033[K", line);
}

/*
 * Sleeps POLL_US, or less if watch_stop() wakes it; whether to go on. A condition variable
 * rather than usleep(): the writer's write() returns at once, and the operation should not
 * wait out the rest of a poll (100 ms per cgroup in a hibernation's list of them).
 */
static bool watch_wait(struct watch *w)
{
	uint64_t until = now_us() + POLL_US;
	struct timespec ts = { .tv_sec = until / 1000000, .tv_nsec = until % 1000000 * 1000 };
	bool go_on;

	pthread_mutex_lock(&w->lock);
	while (!w->done && pthread_cond_timedwait(&w->wake, &w->lock, &ts) != ETIMEDOUT)
		;
	go_on = !w->done;
	pthread_mutex_unlock(&w->lock);
	return go_on;
}

static void *watch_thread(void *arg)
{
	struct watch *w = arg;
	bool drawn = false;

	do {
		uint64_t now = now_us(), value;
		int signo = stop_requested();

		/*
		 * A signal can land just before the writer enters write(): kick it again
		 * until it leaves, so the kernel sees it pending between batches.
		 */
		if (!signo && w->deadline_us && now >= w->deadline_us) {
			stop_deadline_pass();
			signo = SIGALRM;
		}
		if (signo && atomic_load(&w->in_write))
			pthread_kill(w->writer, SIGURG);
		if (w->bar && now - w->start_us >= w->bar_after_us &&
		    !cg_read_u64(w->t, w->counter, &value)) {
			draw_bar(w, value, now - w->start_us);
			drawn = true;
		}
	} while (watch_wait(w));
	if (drawn)
		fprintf(stderr, "\r\033[K");
	return NULL;
}

int watch_start(struct watch *w)
{
	pthread_condattr_t attr;
	sigset_t all, old;
	int ret;

	w->writer = pthread_self();
	w->start_us = now_us();
	w->done = false;
	atomic_store(&w->in_write, false);
	/* the deadline of watch_wait() is on now_us()'s clock */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&w->lock, NULL);
	if (!w->counter || cg_read_u64(w->t, w->counter, &w->start_value))
		w->bar = false;
	else if (w->goal == AMOUNT_MAX)
		w->goal = w->start_value;	/* "max": all there is now */
	/* the signals go to the writer only: the watcher blocks them all */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&w->thread, NULL, watch_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
	}
	return -ret;
}

int watch_write(struct watch *w, int fd, const char *buf, size_t len)
{
	ssize_t n;

	atomic_store(&w->in_write, true);
	n = stop_requested() ? (errno = EINTR, -1) : write(fd, buf, len);
	atomic_store(&w->in_write, false);
	return n < 0 ? -errno : 0;
}

void watch_stop(struct watch *w)
{
	pthread_mutex_lock(&w->lock);
	w->done = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
}

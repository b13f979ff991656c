// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "parse.h"
#include "watch.h"

#define POLL_US 100000

/*
 * Why we stop: a signal from outside (SIGINT, SIGTERM), kept apart from the deadline so
 * that neither overwrites the other. The writer is woken with SIGURG, whose handler does
 * nothing: the signal only makes the blocked write() return EINTR.
 */
static volatile sig_atomic_t stop_signo;
static atomic_bool deadline_passed;

static void on_stop(int signo)
{
	stop_signo = signo;
}

static void on_wake(int signo)
{
}

void stop_install(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_wake;
	sigaction(SIGURG, &sa, NULL);
}

int stop_requested(void)
{
	if (stop_signo)
		return stop_signo;
	return atomic_load(&deadline_passed) ? SIGALRM : 0;
}

void stop_clear_deadline(void)
{
	atomic_store(&deadline_passed, false);
}

void stop_clear(void)
{
	stop_signo = 0;
	stop_clear_deadline();
}

uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

size_t progress_line(char *buf, size_t len, const char *path, const char *verb, uint64_t done,
		     uint64_t goal, uint64_t elapsed_us, int bar_width)
{
	char done_s[32], goal_s[32], rate_s[32], eta[48] = "", bar[PROGRESS_BAR_WIDTH + 1];
	uint64_t rate = elapsed_us ? (uint64_t)(done * 1e6 / elapsed_us) : 0;
	const int width = bar_width < 1 ? 1 : bar_width > PROGRESS_BAR_WIDTH ? PROGRESS_BAR_WIDTH :
			  bar_width;
	int filled = 0;

	if (goal == AMOUNT_MAX || goal == 0)
		goal = 0;
	else if (done > goal)
		done = goal;
	if (goal) {
		filled = (int)((double)done * width / goal);
		if (rate)
			snprintf(eta, sizeof(eta), "  ETA %llu s",
				 (unsigned long long)((goal - done) / rate));
	}
	memset(bar, '#', filled);
	memset(bar + filled, '.', width - filled);
	bar[width] = '\0';
	format_size(done, done_s, sizeof(done_s));
	format_size(rate, rate_s, sizeof(rate_s));
	if (goal)
		return snprintf(buf, len, "%s [%s] %s %s of %s  %s/s%s", path, bar, verb, done_s,
				format_size(goal, goal_s, sizeof(goal_s)), rate_s, eta);
	return snprintf(buf, len, "%s %s %s  %s/s", path, verb, done_s, rate_s);
}

void progress_row(char *buf, size_t len, const char *path, const char *verb, uint64_t done,
		  uint64_t goal, uint64_t elapsed_us, int columns)
{
	size_t max = columns > 1 ? (size_t)columns - 1 : 1, cols;
	int width = PROGRESS_BAR_WIDTH;

	progress_line(buf, len, path, verb, done, goal, elapsed_us, width);
	cols = columns_of(buf, strlen(buf));
	if (cols > max && strchr(buf + strlen(path), '[')) {
		size_t over = cols - max;

		width = over >= PROGRESS_BAR_WIDTH - PROGRESS_BAR_MIN ? PROGRESS_BAR_MIN :
			PROGRESS_BAR_WIDTH - (int)over;
		progress_line(buf, len, path, verb, done, goal, elapsed_us, width);
	}
	fit_line(buf, strlen(path), columns);
}

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
			atomic_store(&deadline_passed, true);
			signo = SIGALRM;
		}
		if (signo && atomic_load(&w->in_write))
			pthread_kill(w->writer, SIGURG);
		if (w->bar && now - w->start_us > 1000000 &&
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

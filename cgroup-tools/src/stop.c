// SPDX-License-Identifier: GPL-2.0
/* Why memtide stops a write: SIGINT, SIGTERM, or the --timeout deadline (stop.h). */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "stop.h"

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

void stop_deadline_pass(void)
{
	atomic_store(&deadline_passed, true);
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

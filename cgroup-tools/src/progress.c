// SPDX-License-Identifier: GPL-2.0
/* The progress line of a long write (progress.h). */
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "parse.h"
#include "progress.h"

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

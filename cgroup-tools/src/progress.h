/* SPDX-License-Identifier: GPL-2.0 */
/* The progress line a long write draws on stderr, fitted to the terminal. */
#ifndef MEMTIDE_PROGRESS_H
#define MEMTIDE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

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

#endif

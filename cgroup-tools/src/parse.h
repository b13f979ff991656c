/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing and formatting of the values users type and read: sizes, durations, swappiness. */
#ifndef MEMTIDE_PARSE_H
#define MEMTIDE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* An amount of "max": as much as there is. */
#define AMOUNT_MAX UINT64_MAX
/* swappiness=max: anonymous memory only (memtide kernels, mainline >= 6.16) */
#define SWAPPINESS_MAX 201

/* Digits only, at most MAX. Returns 0, -EINVAL or -ERANGE. */
int parse_uint(const char *s, uint64_t max, uint64_t *value);

/*
 * "4096", "512K", "1G", "1GiB", "1gb", "2T": bytes with suffixes K M G T P E, optionally
 * followed by "iB" or "B", in any case; every suffix is a power of two (1KB is 1024, as the
 * kernel's memparse reads it) but without memparse's silent wrap-around. A bare "B" is
 * bytes. A whole number, as the kernel's files hold. Returns 0, -EINVAL (malformed) or
 * -ERANGE (beyond 64 bits).
 */
int parse_size(const char *s, uint64_t *bytes);
/*
 * What a user types: parse_size(), a decimal fraction before a suffix ("1.5G", "0.5g":
 * at most 18 digits after the point, more is -EDOM; rounded down to a byte; "1.5" and
 * "1.5B" are -EINVAL), or "max" as AMOUNT_MAX; AMOUNT_MAX or more as a number is -ERANGE.
 */
int parse_amount(const char *s, uint64_t *bytes);
#define FRACTION_DIGITS 18

/* A share in parts per million: 100%, with SHARE_PLACES digits after the point */
#define SHARE_WHOLE 1000000
#define SHARE_PLACES 4
/*
 * "50%", "12.5%", "0%": a share of what a cgroup holds, in parts per million, so that four
 * decimals of the percent count. Returns 0, -EINVAL (malformed), -EDOM (a fifth digit
 * after the point: not rounded away) or -ERANGE (above 100%).
 */
int parse_share(const char *s, uint32_t *ppm);
/* PPM parts per million of TOTAL, rounded down to a byte */
uint64_t share_of(uint64_t total, uint32_t ppm);
/*
 * Whether a command-line word is meant as an amount (and so must parse as one): "max", "",
 * "%", or a number first (a digit, or a dot before one), with or without a sign; a sign
 * alone.
 */
int looks_like_amount(const char *s);

/* Ten years: a deadline of now + a duration never wraps. */
#define DURATION_MAX_US (10ULL * 366 * 24 * 3600 * 1000000)

/*
 * A span as systemd.time(7) writes it: "90" (a bare number, all there is: seconds),
 * "500ms", "1.5s", "5min", "2h 30min", "1d"; parts in sequence, spaces allowed between
 * and within them; units us usec, ms msec, s sec second(s), m min minute(s), h hr hour(s),
 * d day(s), w week(s), but not systemd's months and years ("5M" is a mistake). Fractions
 * are rounded down to a microsecond. Returns 0, -EINVAL (malformed, zero, "infinity") or
 * -ERANGE (beyond DURATION_MAX_US).
 */
int parse_duration(const char *s, uint64_t *usec);
/* parse_duration(), zero too ("0", "0ms"): a delay, which may be none */
int parse_delay(const char *s, uint64_t *usec);
/* parse_duration(), or "infinity" as 0: no timeout */
int parse_timeout(const char *s, uint64_t *usec);

/* "0".."200" or "max" (SWAPPINESS_MAX). Returns 0 or -EINVAL. */
int parse_swappiness(const char *s, int *swappiness);

/* bytes as "0 B", "512 B", "1.5 KiB", "700.0 MiB"; returns buf */
char *format_size(uint64_t bytes, char *buf, size_t len);
/* parts per million as a percent: "50%", "12.5%", "0.0001%"; returns buf */
char *format_share(uint32_t ppm, char *buf, size_t len);
/* microseconds as "850 ms", "8.4 s", "2 min 5 s"; returns buf */
char *format_duration(uint64_t usec, char *buf, size_t len);

#endif

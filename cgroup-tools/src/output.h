/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What memtide prints, made safe: names escaped (a delegated user may name a cgroup with
 * a terminal's escape sequences or a newline), lines fitted to the terminal, and stdout
 * checked at exit.
 */
#ifndef MEMTIDE_OUTPUT_H
#define MEMTIDE_OUTPUT_H

#include <stddef.h>

/* The longest cescape() of N bytes, with its NUL: each byte as \xNN. */
#define CESCAPE_SIZE(n) (4 * (n) + 1)

/*
 * S with what a terminal or a line of a file would act on escaped, as systemd's cescape()
 * writes it: "\\" for a backslash, \a \b \t \n \v \f \r, and \xNN for the other control
 * characters (below 0x20, and 0x7f), the C1 controls (U+0080-U+009F) and bytes that are not
 * well-formed UTF-8. Printable ASCII and other UTF-8 stay as they are. Writes at most LEN
 * bytes with the NUL and never half an escape; returns BUF.
 */
char *cescape(const char *s, char *buf, size_t len);
/* cescape(), with every byte from 0x80 up escaped too: for where text must be ASCII */
char *cescape_ascii(const char *s, char *buf, size_t len);
/*
 * The reverse of cescape(), into BUF. Returns 0, -EINVAL for an unknown or cut escape or one
 * that makes a NUL, or -ENAMETOOLONG when BUF is too short.
 */
int cunescape(const char *s, char *buf, size_t len);

/* Columns of the first LEN bytes of S: each byte but UTF-8's continuation bytes counts one. */
size_t columns_of(const char *s, size_t len);
/* The width of the terminal on FD (TIOCGWINSZ), else $COLUMNS, else 80, as util-linux's. */
int terminal_columns(int fd);
/*
 * Shorten LINE to COLUMNS - 1 columns, so that it stays on one row ("\r" redraws a row; a
 * line that reaches the last column wraps on some terminals). The first HEAD bytes (a name)
 * give way first, losing their start to "..."; then the rest loses its end. A UTF-8
 * sequence counts one column.
 */
void fit_line(char *line, size_t head, int columns);

/*
 * Flush and close stdout, as util-linux's close_stdout(): 0, or -errno if anything written
 * to it was lost (-EIO when the error is no longer known). A reader that went away (EPIPE)
 * is not an error.
 */
int close_stdout(void);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Names escaped for the terminal and the state files, lines fitted to it, stdout checked. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "output.h"

static void test_cescape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "/a.slice", "/a.slice" },
		{ "/a b/c-d_e:f@g", "/a b/c-d_e:f@g" },
		/* what would move a terminal's cursor, colour it, or start a line */
		{ "/x\033[2J\033]0;owned\a", "/x\\x1b[2J\\x1b]0;owned\\a" },
		{ "/evil\nreclaim done 1 1 /victim", "/evil\\nreclaim done 1 1 /victim" },
		{ "\r\t\b\f\v\x01\x7f", "\\r\\t\\b\\f\\v\\x01\\x7f" },
		/* the escape character itself, so that the escaping can be undone */
		{ "/a\\nb", "/a\\\\nb" },
		/* UTF-8 stays; C1 controls, stray and overlong bytes do not */
		{ "/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x90\xa7", "/caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x90\xa7" },
		{ "/\xc2\x9b" "31m", "/\\xc2\\x9b31m" },
		{ "/\x9b" "31m\xff\xc3", "/\\x9b31m\\xff\\xc3" },
		{ "/\xc0\xaf/\xed\xa0\x80/\xf4\x90\x80\x80", "/\\xc0\\xaf/\\xed\\xa0\\x80/\\xf4\\x90\\x80\\x80" },
		{ "", "" },
	};
	char buf[256], back[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(cescape(cases[i].in, buf, sizeof(buf)), cases[i].out);
		/* and back: the state files read what they wrote */
		assert_int_equal(cunescape(buf, back, sizeof(back)), 0);
		assert_string_equal(back, cases[i].in);
	}
	/* a short buffer: never half an escape */
	assert_string_equal(cescape("ab\ncd", buf, 4), "ab");
	assert_string_equal(cescape("ab\ncd", buf, 5), "ab\\n");
	assert_string_equal(cescape("\xe2\x82\xac", buf, 3), "");
	assert_true(strlen(cescape("\x01\x01", buf, CESCAPE_SIZE(2))) == 8);
}

static void test_cunescape(void **state)
{
	static const char *const bad[] = { "\\", "a\\", "\\q", "\\x", "\\x4", "\\xg0", "\\x00" };
	char buf[16];

	assert_int_equal(cunescape("\\x41\\x7E\\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "A~\n");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cunescape(bad[i], buf, sizeof(buf)), -EINVAL);
	assert_int_equal(cunescape("abcd", buf, 4), -ENAMETOOLONG);
	assert_int_equal(cunescape("abc", buf, 4), 0);
	assert_int_equal(cunescape("", buf, 0), -ENAMETOOLONG);
}

static void test_fit_line(void **state)
{
	static const struct {
		const char *in;
		size_t head;
		int columns;
		const char *out;
	} cases[] = {
		/* fits in COLUMNS - 1: as it is */
		{ "/a [##..] reclaimed 1 MiB", 2, 26, "/a [##..] reclaimed 1 MiB" },
		/* the name loses its start first, to 30 columns */
		{ "/a/very/long/name [##..] reclaimed 1 MiB", 17, 31,
		  "...name [##..] reclaimed 1 MiB" },
		/* then the line its end */
		{ "/a/very/long/name [##..] reclaimed 1 MiB", 17, 20, "/a/very/long/name [" },
		/* a UTF-8 character is one column, and never cut */
		{ "/\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 12345", 9, 11, "...\xc3\xa9 12345" },
		{ "/\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 12345", 9, 4, "/\xc3\xa9\xc3\xa9" },
	};
	char line[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(line, sizeof(line), "%s", cases[i].in);
		fit_line(line, cases[i].head, cases[i].columns);
		assert_string_equal(line, cases[i].out);
	}
}

static void test_terminal_columns(void **state)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 57 };
	int master = posix_openpt(O_RDWR | O_NOCTTY), pipefd[2], tty;

	unsetenv("COLUMNS");
	assert_int_equal(pipe(pipefd), 0);
	/* not a terminal: COLUMNS, else 80 */
	assert_int_equal(terminal_columns(pipefd[1]), 80);
	setenv("COLUMNS", "33", 1);
	assert_int_equal(terminal_columns(pipefd[1]), 33);
	setenv("COLUMNS", "33x", 1);
	assert_int_equal(terminal_columns(pipefd[1]), 80);
	close(pipefd[0]);
	close(pipefd[1]);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		unsetenv("COLUMNS");
		skip();	/* no pseudo-terminals here */
	}
	tty = open(ptsname(master), O_RDWR | O_NOCTTY);
	assert_true(tty >= 0);
	/* a terminal: its own width, before COLUMNS; COLUMNS when it says 0 (a serial line) */
	setenv("COLUMNS", "33", 1);
	assert_int_equal(ioctl(master, TIOCSWINSZ, &ws), 0);
	assert_int_equal(terminal_columns(tty), 57);
	ws.ws_col = 0;
	assert_int_equal(ioctl(master, TIOCSWINSZ, &ws), 0);
	assert_int_equal(terminal_columns(tty), 33);
	unsetenv("COLUMNS");
	assert_int_equal(terminal_columns(tty), 80);
	close(tty);
	close(master);
}

/* close_stdout() in a child whose stdout is FILE after printing TEXT; its return value */
static int close_stdout_of(const char *file, const char *text)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (!freopen(file, "w", stdout))
			_exit(100);
		fputs(text, stdout);
		_exit(-close_stdout());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return -WEXITSTATUS(status);
}

static void test_close_stdout(void **state)
{
	assert_int_equal(close_stdout_of("/dev/null", "x\n"), 0);
	assert_int_equal(close_stdout_of("/dev/full", "x\n"), -ENOSPC);
	/* nothing written, nothing lost */
	assert_int_equal(close_stdout_of("/dev/full", ""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cescape),
		cmocka_unit_test(test_cunescape),
		cmocka_unit_test(test_fit_line),
		cmocka_unit_test(test_terminal_columns),
		cmocka_unit_test(test_close_stdout),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}

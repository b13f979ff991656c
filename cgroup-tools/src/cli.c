// SPDX-License-Identifier: GPL-2.0
/*
 * memtide's command line: help() / parse_argv() / run(), as systemd's tools are laid out.
 * Apart from main(), so that the unit tests run it as a user would.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "parse.h"
#include "watch.h"

#ifndef MEMTIDE_VERSION
#define MEMTIDE_VERSION "0.1"
#endif

struct cmdline {
	struct options o;
	const char *command;
	char **args;			/* the targets */
	int nargs;
};

static void help(FILE *out)
{
	fputs("Usage:\n"
	      " memtide reclaim TARGET... SIZE|max [--swappiness N|max] [--timeout DURATION]\n"
	      "                 [--dry-run] [--force]\n"
	      " memtide release TARGET... SIZE|max [--timeout DURATION] [--dry-run]\n"
	      " memtide status [TARGET...] [--depth N]\n"
	      " memtide features\n"
	      " memtide hibernate [--prepare-only | --dry-run] [--timeout DURATION]\n"
	      " memtide resume [--timeout DURATION]\n"
	      " memtide idle [--interval DURATION] [--count N]\n"
	      " memtide criu-action     (as criu dump --action-script)\n"
	      "\n"
	      "Shrink a cgroup's memory to swap and bring it back at disk speed.\n"
	      "\n"
	      "TARGET is a cgroup path (/sys/fs/cgroup/a/b, /a/b or a/b), a systemd unit\n"
	      "(foo.slice, bar.service, baz.scope) or pid:N. SIZE comes last, with no default:\n"
	      "bytes with a suffix K, M, G, T, P or E, with or without B or iB, in any case,\n"
	      "every one a power of two (1K, 1KB, 1KiB: 1024); a fraction before a suffix\n"
	      "(1.5G, 0.5g), rounded down to a byte; N% of what each target holds now\n"
	      "(reclaim: memory.current, release: memory.swap.current); or max for all.\n"
	      "DURATION is a systemd.time(7) span: 90 (seconds), 1.5s, 500ms, 5min, 1d,\n"
	      "'2h 30min'; units us, ms, s, sec, m, min, h, hr, d, w.\n"
	      "\n"
	      "Options:\n"
	      " -s, --swappiness N|max  reclaim: 0-200, or max for anonymous memory only\n"
	      " -t, --timeout DURATION  stop after DURATION and report; infinity: never\n"
	      " -d, --depth N           status: show N levels below each target\n"
	      "     --prepare-only      hibernate: shrink, but do not hibernate\n"
	      " -n, --dry-run           reclaim, release: print what would be written where;\n"
	      "                         hibernate: print the plan; either way change nothing\n"
	      " -f, --force             reclaim: the root cgroup too (every process's memory)\n"
	      " -i, --interval DURATION idle: time between looks (default 10s, at least 100ms)\n"
	      " -c, --count N           idle: stop after N looks (default: run until SIGTERM)\n"
	      " -j, --json              print JSON\n"
	      " -q, --quiet             print errors only\n"
	      " -h, --help              display this help\n"
	      " -V, --version           display version\n"
	      "\n"
	      "Exit status: 0 done, 1 error, 2 usage, 3 partial, 4 interrupted or timed out.\n"
	      "For more details see memtide(1).\n", out);
}

static int __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("memtide: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'memtide --help' for more information.\n", stderr);
	return -1;
}

/* Returns <0 on a usage error (reported), 0 to exit successfully, >0 to run. */
static int parse_argv(int argc, char **argv, struct cmdline *c)
{
	enum { OPT_PREPARE_ONLY = 256 };
	static const struct option longopts[] = {
		{ "prepare-only", no_argument, NULL, OPT_PREPARE_ONLY },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "swappiness", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "depth", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	const char *swappiness = NULL, *timeout = NULL, *depth = NULL, *interval = NULL;
	const char *count = NULL;
	uint64_t v;
	int opt, ret;

	memset(c, 0, sizeof(*c));
	c->o.swappiness = -1;
	c->o.depth = -1;
	/* getopt names the program by argv[0]: "memtide", not the path it was run by */
	argv[0] = program_invocation_short_name;
	while ((opt = getopt_long(argc, argv, "s:t:d:nfi:c:jqhV", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_PREPARE_ONLY:
			c->o.prepare_only = true;
			break;
		case 'n':
			c->o.dry_run = true;
			break;
		case 'f':
			c->o.force = true;
			break;
		case 'i':
			interval = optarg;
			break;
		case 'c':
			count = optarg;
			break;
		case 's':
			swappiness = optarg;
			break;
		case 't':
			timeout = optarg;
			break;
		case 'd':
			depth = optarg;
			break;
		case 'j':
			c->o.json = true;
			break;
		case 'q':
			c->o.quiet = true;
			break;
		case 'h':
			help(stdout);
			return 0;
		case 'V':
			printf("memtide %s\n", MEMTIDE_VERSION);
			return 0;
		default:
			fputs("Try 'memtide --help' for more information.\n", stderr);
			return -1;
		}
	}
	if (optind >= argc)
		return usage_error("no command given");
	c->command = argv[optind++];
	c->args = argv + optind;
	c->nargs = argc - optind;

	bool operate = !strcmp(c->command, "reclaim") || !strcmp(c->command, "release");
	bool hibernate = !strcmp(c->command, "hibernate");
	bool idle = !strcmp(c->command, "idle");
	bool no_args = hibernate || idle || !strcmp(c->command, "features") ||
		       !strcmp(c->command, "resume") || !strcmp(c->command, "criu-action");

	if (!operate && !no_args && strcmp(c->command, "status"))
		return usage_error("unknown command '%s'", c->command);
	if (c->o.prepare_only && !hibernate)
		return usage_error("--prepare-only is for hibernate only");
	if (c->o.dry_run && !hibernate && !operate)
		return usage_error("--dry-run is for reclaim, release and hibernate");
	if (c->o.force && strcmp(c->command, "reclaim"))
		return usage_error("--force is for reclaim only");
	if (c->o.prepare_only && c->o.dry_run)
		return usage_error("--prepare-only and --dry-run exclude each other");
	if ((interval || count) && !idle)
		return usage_error("--interval and --count are for idle only");
	/* the flows print what each step did, as lines; only the plan has a JSON form */
	if (c->o.json && (idle || !strcmp(c->command, "resume") ||
			  !strcmp(c->command, "criu-action") || (hibernate && !c->o.dry_run)))
		return usage_error("--json is not for %s (hibernate --dry-run has it)", c->command);
	c->o.interval_us = 10000000;
	if (interval && parse_duration(interval, &c->o.interval_us))
		return usage_error("invalid duration '%s'", interval);
	if (c->o.interval_us < IDLE_INTERVAL_MIN_US)
		return usage_error("invalid interval '%s' (at least %llums)", interval,
				   IDLE_INTERVAL_MIN_US / 1000);
	if (count) {
		if (parse_uint(count, 1000000000, &v) || !v)
			return usage_error("invalid count '%s'", count);
		c->o.count = (long)v;
	}
	if (swappiness && strcmp(c->command, "reclaim"))
		return usage_error("--swappiness is for reclaim only");
	if (timeout && !operate && !hibernate && strcmp(c->command, "resume"))
		return usage_error("--timeout is for reclaim, release, hibernate and resume");
	if (depth && strcmp(c->command, "status"))
		return usage_error("--depth is for status only");
	if (no_args && c->nargs)
		return usage_error("%s takes no arguments", c->command);
	if (swappiness && parse_swappiness(swappiness, &c->o.swappiness))
		return usage_error("invalid swappiness '%s' (0-200 or max)", swappiness);
	if (timeout && parse_timeout(timeout, &c->o.timeout_us))
		return usage_error("invalid duration '%s'", timeout);
	if (depth) {
		if (parse_uint(depth, 1000, &v))
			return usage_error("invalid depth '%s'", depth);
		c->o.depth = (int)v;
	}
	if (operate) {
		/* the last word is the amount when it looks like one: "max", "1G", "" */
		const char *amount = c->nargs && looks_like_amount(c->args[c->nargs - 1]) ?
				     c->args[--c->nargs] : NULL;

		/* and no other word is: "1M a.slice" is not a cgroup named 1M */
		for (int i = 0; i < c->nargs; i++) {
			if (!looks_like_amount(c->args[i]))
				continue;
			if (amount)
				return usage_error("more than one size: '%s' and '%s'", c->args[i],
						   amount);
			return usage_error("the size must be the last argument: '%s'", c->args[i]);
		}
		if (!c->nargs)
			return usage_error("%s needs a TARGET", c->command);
		/* no default: a forgotten size would have been max, the whole cgroup */
		if (!amount)
			return usage_error("%s needs a SIZE or max after the targets", c->command);
		/* a share ("50%") comes to bytes per target, once they are resolved */
		if (strchr(amount, '%')) {
			ret = parse_share(amount, &c->o.share_ppm);
			if (ret == -ERANGE)
				return usage_error("invalid size '%s' (at most 100%%)", amount);
		} else {
			ret = parse_amount(amount, &c->o.amount);
			if (ret == -ERANGE)
				return usage_error("invalid size '%s' (too large; max asks for all)",
						   amount);
			if (!ret && c->o.amount == 0)
				ret = -EINVAL;
		}
		if (ret)
			return usage_error("invalid size '%s'", amount);
	}
	c->o.progress = !c->o.json && !c->o.quiet && isatty(STDERR_FILENO);
	return 1;
}

static int run(struct cmdline *c)
{
	if (c->o.timeout_us)
		c->o.deadline_us = now_us() + c->o.timeout_us;
	if (!strcmp(c->command, "status"))
		return cmd_status(&c->o, c->args, c->nargs);
	if (!strcmp(c->command, "features"))
		return cmd_features(&c->o);
	if (!strcmp(c->command, "hibernate"))
		return cmd_hibernate(&c->o);
	if (!strcmp(c->command, "resume"))
		return cmd_resume(&c->o);
	if (!strcmp(c->command, "idle"))
		return cmd_idle(&c->o);
	if (!strcmp(c->command, "criu-action"))
		return cmd_criu_action(&c->o);
	return cmd_operate(&c->o, c->command, c->args, c->nargs);
}

int memtide_main(int argc, char **argv)
{
	struct cmdline c;
	int ret = parse_argv(argc, argv, &c), code;

	if (ret <= 0)
		code = ret < 0 ? EXIT_USAGE : EXIT_DONE;
	else
		code = run(&c);
	/* output that did not reach stdout (a full disk, a closed terminal) is an error */
	ret = close_stdout();
	if (ret) {
		fprintf(stderr, "memtide: write error: %s\n", strerror(-ret));
		code = exit_code_worst(code, EXIT_ERROR);
	}
	return code;
}

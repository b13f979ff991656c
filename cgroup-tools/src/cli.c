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
#include "stop.h"

#ifndef MEMTIDE_VERSION
#define MEMTIDE_VERSION "0.3"
#endif

struct cmdline {
	struct options o;
	const char *command;
	char **args;			/* the targets */
	int nargs;
};

/* The commands, as bits: which options and notes each one's help shows */
enum {
	V_RECLAIM = 1 << 0, V_RELEASE = 1 << 1, V_STATUS = 1 << 2, V_FEATURES = 1 << 3,
	V_HIBERNATE = 1 << 4, V_RESUME = 1 << 5, V_IDLE = 1 << 6, V_CRIU = 1 << 7,
	V_ALL = (1 << 8) - 1,
	V_GENERAL = 1 << 8,		/* the general help only */
};

/* What TARGET, SIZE and DURATION are: the paragraphs after the synopsis */
static const struct {
	unsigned int verbs;
	const char *text;
} notes[] = {
	{ V_RECLAIM | V_RELEASE | V_STATUS,
	  "TARGET is a cgroup path (/sys/fs/cgroup/a/b, /a/b or a/b), pid:N, or a systemd\n"
	  "unit as systemctl takes it: foo.slice, bar.service, getty@tty1.service, sshd\n"
	  "(sshd.service), or a pattern for every loaded unit it matches ('app-*.scope').\n"
	  "A unit its manager has not loaded is looked for in the cgroup tree.\n" },
	{ V_RECLAIM | V_RELEASE,
	  "SIZE comes last, with no default: bytes with a suffix K, M, G, T, P or E, with\n"
	  "or without B or iB, in any case, every one a power of two (1K, 1KB, 1KiB: 1024);\n"
	  "a fraction before a suffix (1.5G, 0.5g), rounded down to a byte; N% of what each\n"
	  "target holds now (reclaim: memory.current, release: memory.swap.current, 50%);\n"
	  "or max for all.\n" },
	{ V_RECLAIM | V_RELEASE | V_HIBERNATE | V_RESUME | V_IDLE,
	  "DURATION is a systemd.time(7) span: 90 (seconds), 1.5s, 500ms, 5min, 1d,\n"
	  "'2h 30min'; units us, ms, s, sec, m, min, h, hr, d, w.\n" },
};

/* The options, and which commands' help lists each (V_GENERAL: the general help's) */
static const struct {
	unsigned int verbs;
	const char *text;
} options[] = {
	{ V_RECLAIM | V_GENERAL,
	  " -s, --swappiness N|max  reclaim: 0-200, or max for anonymous memory only\n" },
	{ V_RECLAIM | V_RELEASE | V_HIBERNATE | V_RESUME | V_GENERAL,
	  " -t, --timeout DURATION  stop after DURATION and report; infinity: never\n" },
	{ V_STATUS | V_GENERAL,
	  " -d, --depth N           status: show N levels below each target\n" },
	{ V_STATUS | V_GENERAL,
	  " -o, --output LIST       status: the columns (CGROUP,CURRENT,SWAP,ANON,FILE,\n"
	  "                         SHMEM,PSI10,SCAN,LAST); +LIST: the defaults and LIST\n" },
	{ V_STATUS | V_GENERAL, " -b, --bytes             status: sizes in bytes\n" },
	{ V_STATUS | V_GENERAL, "     --noheadings        status: no heading line\n" },
	{ V_HIBERNATE | V_GENERAL,
	  "     --prepare-only      hibernate: shrink, but do not hibernate\n" },
	/* the general help's line says what each command's says */
	{ V_GENERAL,
	  " -n, --dry-run           reclaim, release: print what would be written where;\n"
	  "                         hibernate: print the plan; either way change nothing\n" },
	{ V_RECLAIM | V_RELEASE,
	  " -n, --dry-run           print what would be written where; change nothing\n" },
	{ V_HIBERNATE, " -n, --dry-run           print the plan; change nothing\n" },
	{ V_RECLAIM | V_GENERAL,
	  " -f, --force             reclaim: the root cgroup too (every process's memory)\n" },
	{ V_IDLE | V_GENERAL,
	  " -i, --interval DURATION idle: time between looks (default 10s, at least 100ms)\n" },
	{ V_IDLE | V_GENERAL,
	  " -c, --count N           idle: stop after N looks (default: run until SIGTERM)\n" },
	{ V_RECLAIM | V_RELEASE | V_STATUS | V_GENERAL,
	  "     --user              the calling user's units (as systemctl --user)\n" },
	{ V_RECLAIM | V_RELEASE | V_STATUS | V_FEATURES | V_HIBERNATE | V_GENERAL,
	  " -j, --json[=pretty]     print JSON: one line, indented on a terminal or with\n"
	  "                         =pretty\n" },
	{ V_ALL | V_GENERAL, " -q, --quiet             print errors only\n" },
	{ V_ALL | V_GENERAL, " -h, --help              display this help\n" },
	{ V_GENERAL, " -V, --version           display version\n" },
};

/* The commands: synopsis, what they do, an example */
static const struct verb {
	const char *name;
	unsigned int bit;
	const char *synopsis;
	const char *what;
	const char *example;
} verbs[] = {
	{ "reclaim", V_RECLAIM,
	  " memtide reclaim TARGET... SIZE|max [--swappiness N|max] [--timeout DURATION]\n"
	  "                 [--dry-run] [--force] [--user]\n",
	  "Push the memory of each TARGET out to swap, and its page cache back to disk\n"
	  "(memory.reclaim).\n",
	  " memtide reclaim spot.slice 2G\n" },
	{ "release", V_RELEASE,
	  " memtide release TARGET... SIZE|max [--timeout DURATION] [--dry-run] [--user]\n",
	  "Read the swapped-out memory of each TARGET back in at the disk's sequential\n"
	  "speed (memory.release).\n",
	  " memtide release spot.slice max\n" },
	{ "status", V_STATUS,
	  " memtide status [TARGET...] [--depth N] [--output LIST] [--bytes] [--noheadings]\n"
	  "                [--user]\n",
	  "Show a tree of cgroups: memory, swap, pressure, and what memtide last did.\n",
	  " memtide status user.slice --depth 1\n" },
	{ "features", V_FEATURES, " memtide features\n",
	  "Say what the running kernel offers memtide.\n", " memtide features --json\n" },
	{ "hibernate", V_HIBERNATE,
	  " memtide hibernate [--prepare-only | --dry-run] [--timeout DURATION]\n",
	  "Shrink what the policy marks, hibernate, and release it after resume.\n",
	  " memtide hibernate --dry-run\n" },
	{ "resume", V_RESUME, " memtide resume [--timeout DURATION]\n",
	  "Release what the last hibernate --prepare-only shrank, in release order.\n",
	  " memtide resume --timeout 5min\n" },
	{ "idle", V_IDLE, " memtide idle [--interval DURATION] [--count N]\n",
	  "Shrink the cgroups whose policy says Shrink=idle once they have been idle for\n"
	  "their IdleThreshold; run until SIGTERM.\n",
	  " memtide idle --interval 30s\n" },
	{ "criu-action", V_CRIU, " memtide criu-action     (as criu dump --action-script)\n",
	  "CRIU's action script: before a dump, release the dumped tree's cgroup.\n",
	  " criu dump -t PID --action-script 'memtide criu-action' ...\n" },
};

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (!strcmp(verbs[i].name, name))
			return &verbs[i];
	return NULL;
}

/* The help of one command V, or with NULL the general help: every command, every option */
static void help(FILE *out, const struct verb *v)
{
	unsigned int bit = v ? v->bit : V_GENERAL;

	fputs("Usage:\n", out);
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (!v || v == &verbs[i])
			fputs(verbs[i].synopsis, out);
	if (!v)
		fputs(" memtide help [COMMAND]\n", out);
	fprintf(out, "\n%s", v ? v->what :
		"Shrink a cgroup's memory to swap and bring it back at disk speed.\n");
	for (size_t i = 0, first = 1; i < sizeof(notes) / sizeof(*notes); i++) {
		if (v && !(notes[i].verbs & bit))
			continue;
		fprintf(out, "%s%s", first ? "\n" : "", notes[i].text);
		first = 0;
	}
	fputs("\nOptions:\n", out);
	for (size_t i = 0; i < sizeof(options) / sizeof(*options); i++)
		if (options[i].verbs & bit)
			fputs(options[i].text, out);
	if (v)
		fprintf(out, "\nExample:\n%s\n", v->example);
	else
		fputs("\nExit status: 0 done, 1 error, 2 usage, 3 partial, 4 interrupted or timed out.\n",
		      out);
	fputs("For more details see memtide(8).\n", out);
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

/* Whether COMMAND writes to memory.reclaim or memory.release with a progress bar */
static bool draws_bar(const char *command)
{
	static const char *const with_bar[] = { "reclaim", "release", "hibernate", "resume" };

	for (size_t i = 0; i < sizeof(with_bar) / sizeof(*with_bar); i++)
		if (!strcmp(command, with_bar[i]))
			return true;
	return false;
}

/* Returns <0 on a usage error (reported), 0 to exit successfully, >0 to run. */
static int parse_argv(int argc, char **argv, struct cmdline *c)
{
	enum { OPT_PREPARE_ONLY = 256, OPT_USER, OPT_NOHEADINGS };
	static const struct option longopts[] = {
		{ "prepare-only", no_argument, NULL, OPT_PREPARE_ONLY },
		{ "user", no_argument, NULL, OPT_USER },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "swappiness", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "depth", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "noheadings", no_argument, NULL, OPT_NOHEADINGS },
		{ "json", optional_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	const char *swappiness = NULL, *timeout = NULL, *depth = NULL, *interval = NULL;
	const char *delay;
	const char *count = NULL, *topic = NULL, *output = NULL;
	const struct verb *verb;
	bool want_help = false;
	uint64_t v;
	int opt, ret;

	memset(c, 0, sizeof(*c));
	c->o.swappiness = -1;
	c->o.depth = -1;
	/* getopt names the program by argv[0]: "memtide", not the path it was run by */
	argv[0] = program_invocation_short_name;
	while ((opt = getopt_long(argc, argv, "s:t:d:o:bnfi:c:jqhV", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_PREPARE_ONLY:
			c->o.prepare_only = true;
			break;
		case OPT_USER:
			c->o.manager = UNIT_MANAGER_USER;
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
		case 'o':
			output = optarg;
			break;
		case 'b':
			c->o.bytes = true;
			break;
		case OPT_NOHEADINGS:
			c->o.noheadings = true;
			break;
		case 'j':
			c->o.json = true;
			/* --json=pretty; -j takes no value */
			if (optarg && strcmp(optarg, "pretty"))
				return usage_error("invalid --json format '%s' (pretty)", optarg);
			c->o.json_pretty = optarg;
			break;
		case 'q':
			c->o.quiet = true;
			break;
		case 'h':
			want_help = true;
			break;
		case 'V':
			printf("memtide %s\n", MEMTIDE_VERSION);
			return 0;
		default:
			fputs("Try 'memtide --help' for more information.\n", stderr);
			return -1;
		}
	}
	/* memtide help [COMMAND], memtide [COMMAND] --help: before any other mistake */
	if (optind < argc && !strcmp(argv[optind], "help")) {
		if (argc - optind > 2)
			return usage_error("help takes one command at most");
		topic = argv[optind + 1];
		want_help = true;
	} else if (want_help) {
		topic = argv[optind];
	}
	if (want_help) {
		/* help of help, which the general help's synopsis lists, is that help */
		if (topic && !strcmp(topic, "help"))
			topic = NULL;
		verb = topic ? find_verb(topic) : NULL;
		if (topic && !verb)
			return usage_error("unknown command '%s'", topic);
		help(stdout, verb);
		return 0;
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

	if (!find_verb(c->command))
		return usage_error("unknown command '%s'", c->command);
	if (c->o.prepare_only && !hibernate)
		return usage_error("--prepare-only is for hibernate only");
	if (c->o.dry_run && !hibernate && !operate)
		return usage_error("--dry-run is for reclaim, release and hibernate");
	if (c->o.force && strcmp(c->command, "reclaim"))
		return usage_error("--force is for reclaim only");
	/* the flows act on the system's policy, not on units named on the command line */
	if (c->o.manager == UNIT_MANAGER_USER && !operate && strcmp(c->command, "status"))
		return usage_error("--user is for reclaim, release and status");
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
	if ((output || c->o.bytes || c->o.noheadings) && strcmp(c->command, "status"))
		return usage_error("--output, --bytes and --noheadings are for status only");
	if (output) {
		char bad[64];

		ret = status_columns_parse(output, &c->o.columns, bad, sizeof(bad));
		if (ret == -E2BIG)
			return usage_error("too many columns in '%s' (at most %d)", output,
					   STATUS_COLUMNS_MAX);
		if (ret == -ENODATA)
			return usage_error("--output needs a column");
		if (ret && !bad[0])
			return usage_error("an empty column name in '%s'", output);
		if (ret)
			return usage_error("unknown column '%s' (%s)", bad, STATUS_COLUMN_NAMES);
	}
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
		bool zero;

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
			zero = !ret && !c->o.share_ppm;
			if (ret == -ERANGE)
				return usage_error("invalid size '%s' (at most 100%%)", amount);
			if (ret == -EDOM)
				return usage_error("invalid size '%s' (at most %d digits after the point)",
						   amount, SHARE_PLACES);
		} else {
			ret = parse_amount(amount, &c->o.amount);
			zero = !ret && !c->o.amount;
			if (ret == -ERANGE)
				return usage_error("invalid size '%s' (too large; max asks for all)",
						   amount);
			if (ret == -EDOM)
				return usage_error("invalid size '%s' (at most %d digits after the point)",
						   amount, FRACTION_DIGITS);
		}
		/* nothing to do: a mistake; "0.0001K" is not "0" */
		if (zero)
			return usage_error("invalid size '%s' (%s0 bytes)", amount,
					   strpbrk(amount, "123456789") ? "rounds to " : "");
		if (ret)
			return usage_error("invalid size '%s'", amount);
	}
	c->o.progress = !c->o.json && !c->o.quiet && isatty(STDERR_FILENO);
	/*
	 * As GIT_PROGRESS_DELAY: for a script that wants the bar of a short write, or none, and
	 * for tests that cannot know how long a write takes on their host. Only the commands
	 * that draw a bar read it: CRIU's action script, for one, must not fail a dump for the
	 * environment it inherits.
	 */
	c->o.progress_delay_us = PROGRESS_DELAY_US;
	delay = getenv("MEMTIDE_PROGRESS_DELAY");
	if (delay && draws_bar(c->command) && parse_delay(delay, &c->o.progress_delay_us))
		return usage_error("invalid duration '%s' in MEMTIDE_PROGRESS_DELAY", delay);
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

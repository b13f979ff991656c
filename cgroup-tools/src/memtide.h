/* SPDX-License-Identifier: GPL-2.0 */
/* What the commands share: options, exit codes, the result of one operation. */
#ifndef MEMTIDE_H
#define MEMTIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "kernel_features.h"
#include "keyed.h"
#include "status_columns.h"
#include "unit.h"

/* Exit codes (memtide.8, EXIT STATUS) */
enum {
	EXIT_DONE = 0,
	EXIT_ERROR = 1,		/* a target could not be acted on */
	EXIT_USAGE = 2,		/* bad command line; nothing was done */
	EXIT_PARTIAL = 3,	/* the kernel did less than asked (-EAGAIN) */
	EXIT_INTERRUPTED = 4,	/* a signal or --timeout stopped it */
};

/*
 * the sleep hook's switch: it shrinks only when this file says SLEEP_HOOK=yes; the
 * Makefile passes its SYSCONFDIR, as it does to the hook and the man page
 */
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#define SLEEP_HOOK_SWITCH SYSCONFDIR "/default/memtide"

/* how long a write runs before its progress bar shows, unless MEMTIDE_PROGRESS_DELAY says */
#define PROGRESS_DELAY_US 1000000ULL

/* idle: the shortest --interval; a look at the tree costs a few reads per cgroup */
#define IDLE_INTERVAL_MIN_US 100000ULL

struct options {
	bool json, quiet, progress;
	uint64_t progress_delay_us;	/* the bar shows once a write has run this long:
					 * MEMTIDE_PROGRESS_DELAY, PROGRESS_DELAY_US */
	bool json_pretty;		/* --json=pretty: indented even into a pipe */
	uint64_t amount;		/* bytes or AMOUNT_MAX */
	uint32_t share_ppm;		/* reclaim, release: amount is this share of each
					 * target (parse.h); 0: none */
	int swappiness;			/* -1: not given; SWAPPINESS_MAX */
	uint64_t timeout_us;		/* 0: none */
	uint64_t deadline_us;		/* now_us() at start + timeout_us */
	int depth;			/* status: levels below each target; -1 = all */
	struct status_columns columns;	/* status: -o; n = 0: the defaults */
	bool noheadings, bytes;		/* status: no heading line; sizes in bytes */
	bool prepare_only;		/* hibernate */
	bool dry_run;			/* hibernate, reclaim, release: change nothing */
	bool force;			/* reclaim: the root cgroup too */
	uint64_t interval_us;		/* idle: between looks, IDLE_INTERVAL_MIN_US at least */
	long count;			/* idle: rounds before exiting; 0 = forever */
	enum unit_manager manager;	/* reclaim, release, status: whose units (--user) */
};

enum op_status { OP_DONE, OP_PARTIAL, OP_INTERRUPTED, OP_ERROR };

struct op_result {
	const char *operation;		/* "reclaim", "release" */
	enum op_status status;
	int error;			/* errno of a failed or partial write */
	char message[512];		/* why, for OP_ERROR; a note otherwise */
	struct keyed r;			/* the read-back, merged over freezer retries */
	bool approximate;		/* r is estimated from counters (stock kernel) */
	int freezer_retries;
};

/*
 * What one reclaim or release asks of a cgroup: the library's input (op_reclaim(),
 * op_session.h), which neither parses a command line nor prints a result
 */
struct op_request {
	uint64_t amount;		/* bytes or AMOUNT_MAX */
	int swappiness;			/* -1: not given; SWAPPINESS_MAX */
	uint64_t deadline_us;		/* now_us() value that stops the write; 0: none */
	bool progress;			/* a bar on stderr ... */
	uint64_t progress_delay_us;	/* ... once the write has run this long */
};

/* Reclaim / release one target; fills RES. */
void op_reclaim(const struct op_request *req, const struct features *f,
		const struct target *t, struct op_result *res);
void op_release(const struct op_request *req, const struct features *f,
		const struct target *t, struct op_result *res);
/* What op_reclaim() or op_release() would do to a target, for --dry-run */
struct op_plan {
	const char *file;		/* memory.reclaim, memory.release; NULL: process_madvise */
	char write[96];			/* what is written to it: "max swappiness=60" */
	const char *note;		/* why it is not what was asked, or NULL */
};
void op_plan(const struct op_request *req, const struct features *f,
	     const struct target *t, bool reclaim, struct op_plan *p);
/* The exit code for a set of results: the worst of error, interrupted, partial. */
int op_exit_code(const struct op_result *res, int n);
/* The worse of two exit codes: usage, error, interrupted, partial, done. */
int exit_code_worst(int a, int b);

#endif

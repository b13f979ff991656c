/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-unit policy from systemd drop-ins, in a section systemd ignores (X- prefix):
 *
 *   # /etc/systemd/system/spot.slice.d/memtide.conf
 *   [X-Memtide]
 *   Shrink=idle hibernate        # when memtide shrinks it: idle, hibernate, both, or never
 *   ReleasePriority=10           # after resume, higher is released first (0-1000)
 *   IdleThreshold=5min           # idle this long before `memtide idle` shrinks it
 *
 * A drop-in whose [X-Memtide] section has an error is ignored as a whole, with a warning
 * naming the file and line: a policy is never half-applied.
 */
#ifndef MEMTIDE_POLICY_H
#define MEMTIDE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define POLICY_DEFAULT_PRIORITY 100
#define POLICY_MAX_PRIORITY 1000
#define POLICY_DEFAULT_IDLE_US (5 * 60 * 1000000ULL)

struct policy {
	bool shrink_idle;		/* `memtide idle` may shrink it */
	bool shrink_hibernate;		/* `memtide hibernate` shrinks it first */
	int release_priority;		/* higher first after resume */
	uint64_t idle_threshold_us;
	int sources;			/* drop-ins that set something */
};

/* The policy of a unit with no drop-in: shrunk before hibernation only, priority 100, 5 min. */
void policy_default(struct policy *p);

/*
 * Apply the [X-Memtide] section of TEXT (the drop-in NAME, for warnings) over P. On an
 * error, P is left as it was and WARN says "NAME:LINE: what" ; returns 0 or -EINVAL.
 */
int policy_apply_text(const char *text, const char *name, struct policy *p, char *warn,
		      size_t len);

/*
 * The policy of UNIT: BASE (its parent's) with UNIT's drop-ins over it, so that a drop-in
 * changes only the keys it names. The drop-ins are those systemd applies to UNIT: *.conf in
 * UNIT.d/, its template's, its prefixes' (user-.slice.d/) and its type's (slice.d/), in
 * each directory of the search path of UNIT's manager (the system's when UID is
 * POLICY_SYSTEM, else user UID's); a name found first hides the same name later; they apply
 * in name order. $MEMTIDE_UNIT_PATH and $MEMTIDE_USER_UNIT_PATH (colon-separated) replace
 * the system's and every user's search path. Each ignored drop-in is reported through
 * WARN_FN. Returns 0 or -errno.
 */
#define POLICY_SYSTEM ((uid_t)-1)
typedef void (*policy_warn_fn)(const char *warning);
int policy_load(const char *unit, uid_t uid, const struct policy *base, struct policy *p,
		policy_warn_fn warn_fn);
/* The system manager's search path, in its order; NULL-terminated */
extern const char *const policy_system_unit_path[];
/*
 * User UID's manager's search path, in its order, HOME its home directory (NULL for none):
 * a NULL-terminated vector into *DIRS, which the caller frees, strings and vector. Returns 0
 * or -ENOMEM.
 */
int policy_user_unit_path(uid_t uid, const char *home, char ***dirs);
/*
 * The same with the drop-ins given: FILES (NULL-terminated, NULL for none) in the order
 * they apply, as systemd lists a loaded unit's (DropInPaths, unit.h); one that is no longer
 * there is skipped (removed since the manager loaded it). Returns 0.
 */
int policy_load_files(char *const *files, const struct policy *base, struct policy *p,
		      policy_warn_fn warn_fn);

#endif

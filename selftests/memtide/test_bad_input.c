// SPDX-License-Identifier: GPL-2.0
/*
 * Generated bad input for every file memtide adds: memory.reclaim, memory.release,
 * /sys/power/mm_reclaim/{run,release} and vm.swapout_second_chance. Over 10,000 inputs,
 * each invalid by the kernel's own parsing rules (input_model.c says so and with which
 * errno), in five families: random bytes, random text from the syntax's alphabet, near
 * misses (valid inputs with one to three edits), huge numbers, and bad keys or trailing
 * words. Each must fail with the model's errno (never succeed, never hang), and the idle
 * cgroup it is aimed at (the one whose memory a system-wide file would move) must keep its
 * memory.current and memory.swap.current. Valid inputs the generator makes by chance are
 * checked apart: the kernel must take them and read back what they asked for.
 *
 * The inputs are random, from a seed printed first; MEMTIDE_FUZZ_SEED=N replays them.
 *
 *   root
 *    `- memtide_bad_input (an idle process holding 24M of anon memory, 8M of it in swap)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "input_cases.h"
#include "input_model.h"
#include "memtide_test.h"

#define SLACK MB(2L)		/* per-cpu charge batches */
#define MAX_INPUT 8192		/* twice a page: room for -E2BIG and truncation */
#define HANG_S 30		/* a write that takes longer has hung */
#define SYSCTL "/proc/sys/vm/swapout_second_chance"
#define RUN "/sys/power/mm_reclaim/run"
#define RELEASE "/sys/power/mm_reclaim/release"
#define VALID_RUN_MAX 256	/* system-wide valid inputs are run only up to this many pages */

enum family { RANDOM_BYTES, SYNTAX_TEXT, NEAR_MISS, HUGE_NUMBER, BAD_WORD, FAMILIES };
static const char *const family_name[FAMILIES] = {
	"random bytes", "syntax text", "near misses", "huge numbers", "bad keys/words",
};

struct target {
	const char *name;
	enum input_file kind;
	int want;		/* invalid inputs to write */
	const char *const *seeds;	/* valid inputs, for near misses */
	const char *alphabet;	/* for syntax text */
};

static const char *const amount_seeds[] = {
	"1G", "max", "4096", "0x1000", "512K", "16M swappiness=60", "max swappiness=max",
	"8M\n", "010M", NULL,
};
static const char *const pages_seeds[] = { "256", "0x100", "0", "010", "256\n", "+4", NULL };
static const char *const sysctl_seeds[] = { "500", "0", "1000", "0x10", "-0", " 7\n", NULL };
static const char amount_alphabet[] = "0123456789xXkKmMgGtTpPeE+- \t\nmaxswpinesz=.";
static const char number_alphabet[] = "0123456789xX+- \t\nabcdefABCDEF.";

static uint64_t rng_state;

static uint64_t rnd(void)	/* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static size_t below(size_t n)
{
	return rnd() % n;
}

/* Appends up to n random digits of base (the first nonzero) at buf + len; the new length. */
static size_t add_digits(char *buf, size_t len, size_t n, int base)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n && len < MAX_INPUT; i++)
		buf[len++] = digits[i ? below(base) : 1 + below(base - 1)];
	return len;
}

static size_t add_str(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len + n > MAX_INPUT)
		n = MAX_INPUT - len;
	memcpy(buf + len, s, n);
	return len + n;
}

static size_t near_miss(const struct target *t, char *buf)
{
	size_t nseeds = 0, len, edits = 1 + below(3), i, at;
	const char *al = t->alphabet;
	char c;

	while (t->seeds[nseeds])
		nseeds++;
	len = add_str(buf, 0, t->seeds[below(nseeds)]);
	while (edits--) {
		at = len ? below(len) : 0;
		switch (below(5)) {
		case 0:	/* insert */
			if (len == MAX_INPUT)
				break;
			memmove(buf + at + 1, buf + at, len - at);
			buf[at] = al[below(strlen(al))];
			len++;
			break;
		case 1:	/* delete */
			if (len > 1) {
				memmove(buf + at, buf + at + 1, len - at - 1);
				len--;
			}
			break;
		case 2:	/* replace */
			if (len)
				buf[at] = below(4) ? al[below(strlen(al))] : (char)below(256);
			break;
		case 3:	/* swap two neighbours */
			if (at + 1 < len) {
				c = buf[at];
				buf[at] = buf[at + 1];
				buf[at + 1] = c;
			}
			break;
		default:	/* flip the case of every letter */
			for (i = 0; i < len; i++)
				if ((buf[i] | 0x20) >= 'a' && (buf[i] | 0x20) <= 'z')
					buf[i] ^= 0x20;
			break;
		}
	}
	return len;
}

static size_t huge_number(const struct target *t, char *buf)
{
	static const char suffixes[] = "KMGTPE";
	size_t page = getpagesize(), s;

	switch (below(t->kind == FILE_RECLAIM || t->kind == FILE_RELEASE ? 5 : 4)) {
	case 0:	/* beyond 64 bits in decimal */
		return add_digits(buf, 0, 21 + below(280), 10);
	case 1:	/* ... in hex */
		return add_digits(buf, add_str(buf, 0, "0x"), 17 + below(48), 16);
	case 2:	/* longer than a page: -E2BIG for cgroup files, truncated elsewhere */
		return add_digits(buf, 0, page + 1 + below(MAX_INPUT - page - 1), 10);
	case 3:	/* just beyond 64 bits: 2^64 and a little more */
		return sprintf(buf, "%llu%llu", 18446744073ULL + below(1000),
			       709551616ULL + below(1000000000));
	default:	/* a suffix that shifts it beyond 64 bits */
		s = below(6);
		return sprintf(buf, "%llu%c", (~0ULL >> (10 * (s + 1))) + 1 + below(1000),
			       below(2) ? suffixes[s] : suffixes[s] | 0x20);
	}
}

static size_t bad_word(const struct target *t, char *buf)
{
	static const char *const keys[] = {
		"swappiness=", "swappiness=201", "swappiness=-1", "swappiness=abc",
		"swappiness=10x", "swappiness=+5", "swappiness=maxx", "swappiness=MAX",
		"Swappiness=10", "swapiness=10", "swappiness", "swappiness:10", "=10", "foo=bar",
		"swappiness=99999999999", "swappiness==10", "max", "1G", "-", "swappiness=10",
	};
	static const char *const around[] = { " ", "x", "-", "\n\n", " 6", ",6", "e3", ".5", "\t" };
	size_t len;

	switch (t->kind) {
	case FILE_RECLAIM:
	case FILE_RELEASE:	/* a valid amount, then words (any word for memory.release) */
		len = add_str(buf, 0, amount_seeds[below(5)]);
		len = add_str(buf, len, " ");
		return add_str(buf, len, keys[below(sizeof(keys) / sizeof(*keys))]);
	default:	/* a number with something before or after it */
		len = below(2) ? add_str(buf, 0, around[below(sizeof(around) / sizeof(*around))]) : 0;
		len = add_digits(buf, len, 1 + below(4), 10);
		return add_str(buf, len, around[below(sizeof(around) / sizeof(*around))]);
	}
}

/* One input of family f for t into buf (at least one byte); its length. */
static size_t generate(enum family f, const struct target *t, char *buf)
{
	size_t len, i;

	switch (f) {
	case RANDOM_BYTES:
		len = 1 + below(48);
		for (i = 0; i < len; i++)
			buf[i] = below(256);
		return len;
	case SYNTAX_TEXT:
		len = 1 + below(24);
		for (i = 0; i < len; i++)
			buf[i] = t->alphabet[below(strlen(t->alphabet))];
		return len;
	case NEAR_MISS:
		len = near_miss(t, buf);
		return len ? len : add_str(buf, 0, "-");
	case HUGE_NUMBER:
		return huge_number(t, buf);
	default:
		return bad_word(t, buf);
	}
}

/* The input as a C literal, cut at 80 characters, for messages. */
static const char *quoted(const char *buf, size_t len)
{
	static char out[400];
	size_t i, o = 0;

	for (i = 0; i < len && i < 80; i++) {
		unsigned char c = buf[i];

		if (c >= 32 && c < 127 && c != '\\' && c != '"')
			out[o++] = c;
		else
			o += sprintf(out + o, "\\x%02x", c);
	}
	sprintf(out + o, "%s\" (%zu bytes)", len > 80 ? "..." : "", len);
	memmove(out + 1, out, strlen(out) + 1);
	out[0] = '"';
	return out;
}

static void hung(int sig)
{
	static const char msg[] = "# a write did not return in 30 s: the kernel hung on it\n";

	(void)sig;
	(void)write(STDOUT_FILENO, msg, sizeof(msg) - 1);
	_exit(KSFT_FAIL);
}

/* One pwrite() at offset 0 under the hang alarm; 0 or -errno. */
static int write_once(int fd, const char *buf, size_t len)
{
	ssize_t n;

	alarm(HANG_S);
	n = pwrite(fd, buf, len, 0);
	alarm(0);
	return n < 0 ? -errno : 0;
}

/* What a file reads back (the last result, the sysctl's value), for "nothing changed". */
static int read_back(int fd, char *out, size_t size)
{
	ssize_t n = pread(fd, out, size - 1, 0);

	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/*
 * Has the kernel done what a valid input said? memory.reclaim/.release read back the amount
 * asked for; the system-wide files, run only for a few pages, at least that many; the sysctl
 * its new value. 1 if it did, 0 if it was not run (too big for a system-wide run), -1 if not.
 */
static int valid_did_what_it_said(const struct target *t, int fd, const char *buf, size_t len,
				  const struct input_model *m)
{
	char back[512], want[64];
	int err;

	if (t->kind == FILE_MM_RECLAIM && (m->value == 0 || m->value > VALID_RUN_MAX))
		return 0;
	err = write_once(fd, buf, len);
	if (err && err != -EAGAIN) {
		ksft_print_msg("%s: valid %s failed: %s\n", t->name, quoted(buf, len),
			       strerror(-err));
		return -1;
	}
	if (read_back(fd, back, sizeof(back)))
		return -1;
	switch (t->kind) {
	case FILE_RECLAIM:
	case FILE_RELEASE:
		if (m->is_max)
			snprintf(want, sizeof(want), "requested max\n");
		else
			snprintf(want, sizeof(want), "requested %llu\n", m->value);
		if (!strncmp(back, want, strlen(want)))
			return 1;
		break;
	case FILE_MM_RECLAIM:
		if (err || strtoull(back, NULL, 10) >= m->value)
			return 1;
		break;
	default:
		if (strtoull(back, NULL, 10) == m->value)
			return 1;
		break;
	}
	ksft_print_msg("%s: valid %s read back \"%.60s\"\n", t->name, quoted(buf, len), back);
	return -1;
}

/* Seeds the generator once (printing the seed) and arms the hang handler. */
static void seeded(void)
{
	const char *env = getenv("MEMTIDE_FUZZ_SEED");
	static int done;

	if (!done) {
		rng_state = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ getpid() << 16;
		if (!rng_state)
			rng_state = 1;
		ksft_print_msg("seed %" PRIu64 " (MEMTIDE_FUZZ_SEED=%" PRIu64 " replays it)\n",
			       rng_state, rng_state);
		signal(SIGALRM, hung);
		done = 1;
	}
}

/*
 * Writes t->want invalid inputs to path, checking each; then the valid ones met on the way.
 * cg is the idle cgroup whose memory must not move.
 */
static int fuzz(const struct target *t, const char *path, const char *cg)
{
	int tried[FAMILIES] = { 0 }, nvalid = 0, ran = 0, unsure = 0, done = 0, fd, err, ret = -1;
	long current = cg_read_long(cg, "memory.current");
	long swap = cg_read_long(cg, "memory.swap.current");
	static char buf[MAX_INPUT], before[512], after[512];
	struct valid { char *in; size_t len; struct input_model m; } valid[64];
	struct input_model m;
	enum family f;
	size_t len;
	int i;

	seeded();
	fd = open(path, O_RDWR);
	if (fd < 0 || current < 0 || swap < 0 || read_back(fd, before, sizeof(before))) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		goto out;
	}
	for (i = 0; done < t->want && i < 20 * t->want; i++) {
		f = i % FAMILIES;
		len = generate(f, t, buf);
		m = model_input(t->kind, buf, len);
		if (m.verdict == INPUT_UNSURE) {
			unsure++;
			continue;
		}
		if (m.verdict == INPUT_VALID) {
			if (nvalid < (int)(sizeof(valid) / sizeof(*valid))) {
				valid[nvalid].in = malloc(len);
				if (!valid[nvalid].in)
					goto out;
				memcpy(valid[nvalid].in, buf, len);
				valid[nvalid].len = len;
				valid[nvalid++].m = m;
			}
			continue;
		}
		err = write_once(fd, buf, len);
		if (err != m.err) {
			ksft_print_msg("%s: %s %s: got %s, want %s\n", t->name, family_name[f],
				       quoted(buf, len), err ? strerror(-err) : "success",
				       strerror(-m.err));
			goto out;
		}
		if (labs(cg_read_long(cg, "memory.current") - current) > SLACK ||
		    cg_read_long(cg, "memory.swap.current") != swap) {
			ksft_print_msg("%s: after %s: memory.current %ld -> %ld, swap %ld -> %ld\n",
				       t->name, quoted(buf, len), current,
				       cg_read_long(cg, "memory.current"), swap,
				       cg_read_long(cg, "memory.swap.current"));
			goto out;
		}
		tried[f]++;
		done++;
	}
	if (read_back(fd, after, sizeof(after)))
		goto out;
	if (strcmp(before, after)) {
		ksft_print_msg("%s: read back \"%.60s\" before, \"%.60s\" after the refused writes\n",
			       t->name, before, after);
		goto out;
	}
	ksft_print_msg("%s: %d invalid inputs refused, each with its errno, nothing moved "
		       "(%d random bytes, %d syntax text, %d near misses, %d huge numbers, "
		       "%d bad keys/words; %d the model could not judge)\n", t->name, done,
		       tried[RANDOM_BYTES], tried[SYNTAX_TEXT], tried[NEAR_MISS],
		       tried[HUGE_NUMBER], tried[BAD_WORD], unsure);
	if (done < t->want)
		goto out;
	for (i = 0; i < nvalid; i++) {
		err = valid_did_what_it_said(t, fd, valid[i].in, valid[i].len, &valid[i].m);
		if (err < 0)
			goto out;
		ran += err;
	}
	ksft_print_msg("%s: %d valid inputs made by chance, %d of them run: each did what it "
		       "said\n", t->name, nvalid, ran);
	ret = 0;
out:
	while (nvalid > 0)
		free(valid[--nvalid].in);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Runs fuzz() with a fresh idle cgroup: 24M of anon memory, 8M of it swapped out. */
static int with_idle_cgroup(const char *root, const struct target *t, const char *path)
{
	struct hog_spec spec = { .anon = MB(24) };
	int ret = KSFT_FAIL;
	char *cg, *file;
	pid_t pid;

	cg = hogged_cgroup_create(root, "memtide_bad_input", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	if (cg_write(cg, "memory.reclaim", "8M")) {
		ksft_print_msg("cannot swap out part of %s\n", cg);
		goto out;
	}
	file = path ? strdup(path) : cg_name(cg, t->name);
	if (file && !fuzz(t, file, cg))
		ret = KSFT_PASS;
	free(file);
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* Puts vm.swapout_second_chance back to what it was before a test; 0 or -1. */
static int sysctl_restore(long was)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", was);
	return write_string(SYSCTL, buf) ? -1 : 0;
}

/* Does the model give the case its known verdict? */
static bool model_agrees(const struct input_case *c, const struct input_model *m)
{
	if (c->err)
		return m->verdict == INPUT_INVALID && m->err == c->err;
	return m->verdict == INPUT_VALID && m->value == c->value;
}

/*
 * The known corners (input_cases.h) on the kernel itself: each refused one fails with its
 * errno, each taken one does what it says; the mm_reclaim cases go to both files.
 */
static int test_known_cases(const char *root)
{
	static const struct target targets[] = {
		[FILE_RECLAIM] = { "memory.reclaim", FILE_RECLAIM },
		[FILE_RELEASE] = { "memory.release", FILE_RELEASE },
		[FILE_MM_RECLAIM] = { "mm_reclaim", FILE_MM_RECLAIM },
		[FILE_SYSCTL] = { "vm.swapout_second_chance", FILE_SYSCTL },
	};
	struct hog_spec spec = { .anon = MB(24) };
	long was = read_long(SYSCTL);
	int ret = KSFT_FAIL, fd, err, n = 0;
	char *cg, *path = NULL;
	const char *paths[3];
	struct input_model m;
	bool ok;
	size_t i, p;
	pid_t pid;

	if (was < 0)
		return KSFT_FAIL;
	seeded();
	cg = hogged_cgroup_create(root, "memtide_bad_input", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(input_cases); i++) {
		const struct input_case *c = &input_cases[i];
		const struct target *t = &targets[c->file];

		m = model_input(c->file, c->in, c->len);
		if (!model_agrees(c, &m)) {
			ksft_print_msg("the model is wrong about %s for %s\n", quoted(c->in, c->len),
				       t->name);
			goto out;
		}
		free(path);
		path = NULL;
		switch (c->file) {
		case FILE_RECLAIM:
		case FILE_RELEASE:
			path = cg_name(cg, t->name);
			paths[0] = path;
			paths[1] = NULL;
			break;
		case FILE_MM_RECLAIM:
			paths[0] = RUN;
			paths[1] = RELEASE;
			paths[2] = NULL;
			break;
		default:
			paths[0] = SYSCTL;
			paths[1] = NULL;
			break;
		}
		for (p = 0; paths[p]; p++) {
			fd = open(paths[p], O_RDWR);
			if (fd < 0) {
				ksft_print_msg("%s: %s\n", paths[p], strerror(errno));
				goto out;
			}
			if (c->err) {
				err = write_once(fd, c->in, c->len);
				ok = err == c->err;
				if (!ok)
					ksft_print_msg("%s: %s: got %s, want %s\n", paths[p],
						       quoted(c->in, c->len),
						       err ? strerror(-err) : "success",
						       strerror(-c->err));
			} else {
				ok = valid_did_what_it_said(t, fd, c->in, c->len, &m) > 0;
			}
			close(fd);
			if (!ok)
				goto out;
			n++;
		}
	}
	ksft_print_msg("%d writes of %zu known cases: the kernel agrees with the model\n", n,
		       ARRAY_SIZE(input_cases));
	ret = KSFT_PASS;
out:
	free(path);
	if (sysctl_restore(was))
		ret = KSFT_FAIL;
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

static int test_memory_reclaim_bad_input(const char *root)
{
	static const struct target t = {
		"memory.reclaim", FILE_RECLAIM, 2600, amount_seeds, amount_alphabet,
	};

	return with_idle_cgroup(root, &t, NULL);
}

static int test_memory_release_bad_input(const char *root)
{
	static const struct target t = {
		"memory.release", FILE_RELEASE, 2200, amount_seeds, amount_alphabet,
	};

	return with_idle_cgroup(root, &t, NULL);
}

static int test_mm_reclaim_run_bad_input(const char *root)
{
	static const struct target t = {
		"mm_reclaim/run", FILE_MM_RECLAIM, 1800, pages_seeds, number_alphabet,
	};

	return with_idle_cgroup(root, &t, RUN);
}

static int test_mm_reclaim_release_bad_input(const char *root)
{
	static const struct target t = {
		"mm_reclaim/release", FILE_MM_RECLAIM, 1800, pages_seeds, number_alphabet,
	};

	return with_idle_cgroup(root, &t, RELEASE);
}

static int test_swapout_second_chance_bad_input(const char *root)
{
	static const struct target t = {
		"vm.swapout_second_chance", FILE_SYSCTL, 1800, sysctl_seeds, number_alphabet,
	};
	long was = read_long(SYSCTL);
	int ret;

	if (was < 0)
		return KSFT_FAIL;
	ret = with_idle_cgroup(root, &t, SYSCTL);
	if (sysctl_restore(was))
		ret = KSFT_FAIL;
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_known_cases),
	MEMTIDE_TEST(test_memory_reclaim_bad_input),
	MEMTIDE_TEST(test_memory_release_bad_input),
	MEMTIDE_TEST(test_mm_reclaim_run_bad_input),
	MEMTIDE_TEST(test_mm_reclaim_release_bad_input),
	MEMTIDE_TEST(test_swapout_second_chance_bad_input),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}

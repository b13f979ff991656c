// SPDX-License-Identifier: GPL-2.0
/*
 * User-space models of the kernel parsers behind memtide's files; see input_model.h. Names
 * and steps follow the kernel functions they model, so that each can be read side by side
 * with its original.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input_model.h"

#define KSTRTOX_OVERFLOW	(1U << 31)
#define SWAPPINESS_MAX		200	/* MAX_SWAPPINESS in mm/internal.h */

/* include/linux/ctype.h: the kernel's table marks 9-13, 32 and 160 (Latin-1 NBSP) as space */
static bool k_isspace(unsigned char c)
{
	return (c >= 9 && c <= 13) || c == ' ' || c == 160;
}

static bool k_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool k_isxdigit(unsigned char c)
{
	return k_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned char k_tolower_fast(unsigned char c)	/* _tolower(): c | 0x20 */
{
	return c | 0x20;
}

/* lib/kstrtox.c: _parse_integer_fixup_radix() */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (k_tolower_fast(s[1]) == 'x' && k_isxdigit(s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && k_tolower_fast(s[1]) == 'x')
		s += 2;
	return s;
}

/* lib/kstrtox.c: _parse_integer_limit() without a limit */
static unsigned int parse_integer(const char *s, unsigned int base, unsigned long long *p)
{
	unsigned long long res = 0;
	unsigned int rv = 0;

	for (;; s++) {
		unsigned char c = *s, lc = k_tolower_fast(c);
		unsigned int val;

		if (k_isdigit(c))
			val = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			val = lc - 'a' + 10;
		else
			break;
		if (val >= base)
			break;
		if ((res & (~0ULL << 60)) && res > (~0ULL - val) / base)
			rv |= KSTRTOX_OVERFLOW;
		res = res * base + val;
		rv++;
	}
	*p = res;
	return rv;
}

/* lib/kstrtox.c: kstrtoull() (and kstrtoul() on 64-bit) */
static int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long val;
	unsigned int rv;

	if (s[0] == '+')
		s++;
	s = fixup_radix(s, &base);
	rv = parse_integer(s, base, &val);
	if (rv & KSTRTOX_OVERFLOW)
		return -ERANGE;
	if (rv == 0)
		return -EINVAL;
	s += rv;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = val;
	return 0;
}

/* lib/string.c: strstrip() */
static char *strstrip(char *s)
{
	size_t size = strlen(s);
	char *end;

	if (size) {
		end = s + size - 1;
		while (end >= s && k_isspace(*end))
			end--;
		end[1] = '\0';
	}
	while (k_isspace(*s))
		s++;
	return s;
}

static struct input_model valid(unsigned long long value, bool is_max)
{
	return (struct input_model){ .verdict = INPUT_VALID, .value = value, .is_max = is_max };
}

static struct input_model invalid(int err)
{
	return (struct input_model){ .verdict = INPUT_INVALID, .err = err };
}

static struct input_model unsure(void)
{
	return (struct input_model){ .verdict = INPUT_UNSURE };
}

/* mm/memcontrol.c (the series): memory_reclaim_parse_amount() */
static struct input_model parse_amount(char *word)
{
	static const char suffixes[] = "KMGTPE";
	unsigned long long bytes, val;
	unsigned int shift;
	const char *at;
	char *suffix;
	int err;

	if (!strcmp(word, "max"))
		return valid(~0ULL, true);
	err = kstrtoull(word, 0, &bytes);
	if (err != -EINVAL)
		return err ? invalid(err) : valid(bytes, false);
	suffix = word + strlen(word) - 1;
	/* toupper() of the kernel maps Latin-1 lower case too, but never into "KMGTPE" */
	at = (*suffix >= 'a' && *suffix <= 'z') ? strchr(suffixes, *suffix - 'a' + 'A') :
						  strchr(suffixes, *suffix);
	if (suffix == word || !at)
		return invalid(-EINVAL);
	shift = 10 * (at - suffixes + 1);
	*suffix = '\0';
	err = kstrtoull(word, 0, &val);
	if (err)
		return invalid(err);
	if (val > (~0ULL >> shift))
		return invalid(-ERANGE);
	return valid(val << shift, false);
}

/*
 * lib/parser.c: match_token() of "swappiness=%d" then "swappiness=max", and the range check
 * after match_int(). %d is simple_strtol(), which takes an optional '-' and then a number in
 * base 0 and must reach the end of the word; match_int() then wants it in an int.
 */
static struct input_model parse_swappiness_key(const char *word)
{
	static const char key[] = "swappiness=";
	const char *v = word + strlen(key), *d;
	long long n;

	if (strncmp(word, key, strlen(key)))
		return invalid(-EINVAL);	/* no token starts otherwise */
	if (!strcmp(v, "max"))
		return valid(0, true);
	/* %d consumes nothing: neither token matches */
	if (!*v || !(k_isdigit(*v) || *v == '-'))
		return invalid(-EINVAL);
	/* only plain decimal numbers are judged here; 0x.., 0.. (octal), -0 are left alone */
	d = v + (*v == '-');
	if (!strcmp(v, "0"))
		return valid(0, false);
	if (*d < '1' || *d > '9' || strspn(d, "0123456789") != strlen(d))
		return unsure();
	if (strlen(d) > 9)
		return invalid(-EINVAL);	/* beyond an int, or beyond 200 */
	n = strtoll(v, NULL, 10);
	if (n < 0 || n > SWAPPINESS_MAX)
		return invalid(-EINVAL);
	return valid(n, false);
}

/* The C string the kernel parses: kernfs copies len bytes and terminates them. */
static char *kernel_copy(const char *buf, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, buf, len);
		s[len] = '\0';
	}
	return s;
}

/*
 * The amount, then (memory.reclaim only) keys, as memory_reclaim_parse() and
 * memory_release_parse() do after strstrip(): words split at ' '.
 */
static struct input_model model_amount_file(const char *buf, size_t len, bool keys)
{
	struct input_model m, key;
	char *copy, *s, *word;
	bool sure = true;

	/* fs/kernfs/file.c: cgroup files have atomic_write_len = PAGE_SIZE */
	if (len > (size_t)getpagesize())
		return invalid(-E2BIG);
	copy = kernel_copy(buf, len);
	if (!copy)
		return unsure();
	s = strstrip(copy);
	word = strsep(&s, " ");
	if (!*word) {
		m = invalid(-EINVAL);
		goto out;
	}
	m = parse_amount(word);
	if (m.verdict != INPUT_VALID)
		goto out;
	while ((word = strsep(&s, " ")) != NULL) {
		if (!*word)
			continue;
		if (!keys) {
			m = invalid(-EINVAL);
			goto out;
		}
		key = parse_swappiness_key(word);
		if (key.verdict == INPUT_INVALID) {
			m = key;
			goto out;
		}
		if (key.verdict == INPUT_UNSURE)
			sure = false;	/* a later word may still be invalid for sure */
	}
	if (!sure)
		m = unsure();
out:
	free(copy);
	return m;
}

struct input_model model_memory_reclaim(const char *buf, size_t len)
{
	return model_amount_file(buf, len, true);
}

struct input_model model_memory_release(const char *buf, size_t len)
{
	return model_amount_file(buf, len, false);
}

/* sysfs: kernfs passes at most PAGE_SIZE bytes, terminated; run_store() calls kstrtoul() */
struct input_model model_mm_reclaim(const char *buf, size_t len)
{
	size_t page = getpagesize();
	unsigned long long v;
	char *copy = kernel_copy(buf, len < page ? len : page);
	int err;

	if (!copy)
		return unsure();
	err = kstrtoull(copy, 0, &v);
	free(copy);
	return err ? invalid(err) : valid(v, false);
}

/*
 * kernel/sysctl.c: __do_proc_dointvec() writing one value with do_proc_dointvec_minmax_conv():
 * at most PAGE_SIZE - 1 bytes; spaces skipped; proc_get_long() reads up to 21 characters, an
 * optional '-' and a number in base 0 (strtoul_lenient()), which must be followed by ' ',
 * '\t', '\n' or the end; the value must be an int within [min, max]. Text after the value
 * and a separator is ignored (a short write), as for every int sysctl.
 */
struct input_model model_sysctl_int(const char *buf, size_t len, int min, int max)
{
	enum { TMPBUFLEN = 22 };
	size_t page = getpagesize(), left = len < page - 1 ? len : page - 1, n, used;
	char tmp[TMPBUFLEN], *p = tmp;
	unsigned long long val;
	unsigned int base = 0, rv;
	const char *s = buf;
	bool neg = false;
	long long v;

	while (left && k_isspace(*s)) {
		s++;
		left--;
	}
	if (!left)
		return invalid(-EINVAL);
	/* proc_get_long() */
	n = left < TMPBUFLEN - 1 ? left : TMPBUFLEN - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (*p == '-' && left > 1) {
		neg = true;
		p++;
	}
	if (!k_isdigit(*p))
		return invalid(-EINVAL);
	/* strtoul_lenient() */
	p = (char *)fixup_radix(p, &base);
	rv = parse_integer(p, base, &val);
	if (rv & KSTRTOX_OVERFLOW)
		return invalid(-EINVAL);
	p += rv;
	used = p - tmp;
	if (used == TMPBUFLEN - 1)
		return invalid(-EINVAL);
	if (used < left && !memchr(" \t\n", *p, 3))
		return invalid(-EINVAL);	/* NUL too: memchr() looks at 3 bytes only */
	/* do_proc_dointvec_conv(), then the minmax range check */
	if (neg ? val > (unsigned long long)__INT_MAX__ + 1 : val > __INT_MAX__)
		return invalid(-EINVAL);
	v = neg ? -(long long)val : (long long)val;
	if (v < min || v > max)
		return invalid(-EINVAL);
	return valid(v, false);
}

struct input_model model_input(enum input_file f, const char *buf, size_t len)
{
	switch (f) {
	case FILE_RECLAIM:
		return model_memory_reclaim(buf, len);
	case FILE_RELEASE:
		return model_memory_release(buf, len);
	case FILE_MM_RECLAIM:
		return model_mm_reclaim(buf, len);
	default:
		return model_sysctl_int(buf, len, 0, 1000);
	}
}

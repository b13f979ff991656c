// SPDX-License-Identifier: GPL-2.0
/*
 * Host half of the input model's check (test_input_model.sh): every known case of
 * selftests/memtide/input_cases.h gets its verdict from input_model.c; one TAP line per case.
 * The guest half (test_bad_input's test_known_cases) checks the same cases on the kernel.
 */
#include <stdio.h>

#include "input_cases.h"

static void print_input(const struct input_case *c)
{
	unsigned int i;

	for (i = 0; i < c->len; i++) {
		unsigned char ch = c->in[i];

		if (ch >= 32 && ch < 127 && ch != '\\')
			putchar(ch);
		else
			printf("\\x%02x", ch);
	}
}

int main(void)
{
	static const char *const files[] = { "memory.reclaim", "memory.release", "mm_reclaim",
					     "vm.swapout_second_chance" };
	unsigned int i, n = sizeof(input_cases) / sizeof(*input_cases);
	int failed = 0;

	printf("1..%u\n", n);
	for (i = 0; i < n; i++) {
		const struct input_case *c = &input_cases[i];
		struct input_model m = model_input(c->file, c->in, c->len);
		int good = c->err ? m.verdict == INPUT_INVALID && m.err == c->err :
				    m.verdict == INPUT_VALID && m.value == c->value;

		printf("%s %u %s \"", good ? "ok" : "not ok", i + 1, files[c->file]);
		print_input(c);
		if (c->err)
			printf("\" is refused with errno %d\n", -c->err);
		else
			printf("\" is taken as %llu\n", c->value);
		if (!good)
			printf("# the model says: verdict %d, errno %d, value %llu\n", m.verdict,
			       -m.err, m.value);
		failed |= !good;
	}
	return failed;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * hot_set_check NPAGES PERCENT OFFSET: runs memhog's hot_set_choose() on a region of NPAGES
 * 4 KiB pages that starts OFFSET pages past a 2 MiB boundary, and prints what a test checks:
 * "n=N dup=N out=N partial=N", partial being the 2 MiB chunks only partly in the set (at
 * most one when the set is made of chunks).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hot_loop.h"

int main(int argc, char **argv)
{
	size_t npages, offset, n, i, dup = 0, out = 0, partial = 0, chunk = 512;
	unsigned char *seen;
	size_t *pages, *in_chunk;

	if (argc != 4)
		return 2;
	npages = strtoul(argv[1], NULL, 10);
	offset = strtoul(argv[3], NULL, 10);
	/* (past a boundary by less than a chunk: in_chunk[] has room for that) */
	if (offset >= chunk)
		return 2;
	pages = malloc(npages * sizeof(*pages));
	seen = calloc(npages, 1);
	in_chunk = calloc(npages / chunk + 2, sizeof(*in_chunk));
	if (!pages || !seen || !in_chunk)
		return 1;
	n = hot_set_choose((const char *)(uintptr_t)(0x40000000UL + offset * 4096), npages, 4096,
			   atoi(argv[2]), 12345, pages);
	for (i = 0; i < n; i++) {
		if (pages[i] >= npages) {
			out++;
			continue;
		}
		dup += seen[pages[i]]++ != 0;
		/* chunk number counted from the first 2 MiB boundary (offset pages before it) */
		in_chunk[(pages[i] + offset) / chunk]++;
	}
	for (i = 0; i < npages / chunk + 2; i++)
		partial += in_chunk[i] && in_chunk[i] != chunk;
	printf("n=%zu dup=%zu out=%zu partial=%zu\n", n, dup, out, partial);
	return 0;
}

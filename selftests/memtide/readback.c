// SPDX-License-Identifier: GPL-2.0
/*
 * readback FILE VALUE: write VALUE to FILE in one write(2), then copy to stdout what a read
 * from offset 0 of the same descriptor returns, byte for byte: the result read-back of
 * memory.reclaim and memory.release as the memtide tool reads it (pread() at 0). cat(1) on
 * the shell's descriptor reads from the offset the write left, and so loses the first bytes.
 * Exit status: 0, 1 if the write or the read fails (errno on stderr), 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t n;
	off_t off = 0;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: readback FILE VALUE\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "readback: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (write(fd, argv[2], strlen(argv[2])) < 0) {
		fprintf(stderr, "readback: write: %s\n", strerror(errno));
		return 1;
	}
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			return 1;
		off += n;
	}
	if (n < 0) {
		fprintf(stderr, "readback: read: %s\n", strerror(errno));
		return 1;
	}
	return fflush(stdout) ? 1 : 0;
}

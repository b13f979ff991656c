// SPDX-License-Identifier: GPL-2.0
/* memtide: reclaim, release and report the memory of cgroups, systemd units and processes. */
#include <locale.h>

#include "commands.h"

int main(int argc, char **argv)
{
	/* the character set only (names' widths, the tree's lines): numbers keep their '.' */
	setlocale(LC_CTYPE, "");
	return memtide_main(argc, argv);
}

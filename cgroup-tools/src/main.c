// SPDX-License-Identifier: GPL-2.0
/* memtide: reclaim, release and report the memory of cgroups, systemd units and processes. */
#include "commands.h"

int main(int argc, char **argv)
{
	return memtide_main(argc, argv);
}

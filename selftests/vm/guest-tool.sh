#!/bin/sh
# The memtide tool's guest test only (make check-full runs it on the vanilla kernel).
echo "# memtide-suite: memtide test_tool"
timeout 900 /opt/memtide/bin/test_tool
echo "# memtide-suite-exit: $?"

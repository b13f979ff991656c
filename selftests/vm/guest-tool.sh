#!/bin/sh
# The memtide tool's guest test only (make check runs it on the vanilla kernel).
exec sh /opt/memtide/bin/guest-suite.sh tool

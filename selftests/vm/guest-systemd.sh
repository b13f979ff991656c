#!/bin/sh
# The systemd guest's suite (make check-full; vm-run.sh ROOTFS=$(selftests/vm/mkrootfs.sh)):
# memtide as installed, driven through systemd 252 as PID 1 (selftests/systemd/, framed by
# guest-suite.sh, which the guest's ./init copies into the root file system with /opt).
exec sh /opt/memtide/bin/guest-suite.sh systemd

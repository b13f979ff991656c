#!/bin/sh
# The systemd guest's suite (make check-full; vm-run.sh ROOTFS=$(selftests/vm/mkrootfs.sh)):
# memtide as installed, driven through systemd 252 as PID 1. Framed like guest-suite.sh.
# The sleep-hook test hibernates the guest, so it runs last.
run() {
	echo "# memtide-suite: systemd $(basename "$1" .sh)"
	timeout 900 sh "$1"
	echo "# memtide-suite-exit: $?"
}
for t in /opt/memtide/systemd/test_*.sh; do
	[ "$(basename "$t")" = test_sleep_hook.sh ] || run "$t"
done
run /opt/memtide/systemd/test_sleep_hook.sh
exit 0

#!/bin/sh
# payload-run.sh: run vm-run.sh's payload script in the guest and report its exit status on the
# console with the host's nonce, then power off. The last step of the busybox guest's /init,
# and the service the systemd guest starts (memtide-payload.service). Settings come from the
# kernel command line: memtide.nonce=, memtide.script=, memtide.mglru=0|1.

# the tests and the tools they use (memhog, prefetch) by name, as in the busybox guest
export PATH=/opt/memtide/bin:$PATH

arg() {
	for w in $(cat /proc/cmdline); do
		case "$w" in "memtide.$1="*) echo "${w#*=}" ;; esac
	done
}
nonce=$(arg nonce)
script=$(arg script)
mglru=$(arg mglru)

power_off() {
	sync
	if [ -d /run/systemd/system ]; then
		# -ff: at once, as busybox's -f; a clean shutdown would swapoff (see below)
		systemctl poweroff -ff
	else
		mount -o remount,ro / 2>/dev/null
		poweroff -f
	fi
	exit 0
}
fail_setup() {
	echo "memtide-guest: setup failed: $*"
	echo "memtide-exit $nonce 125"
	power_off
}

# vda: swap (the host made it sparse; mkswap here, so the guest's page size is used).
# virtio-blk calls itself rotational, as in a cloud VM: swap then allocates no clusters and
# reads ahead by page_cluster, and no THP is swapped out whole (see guest-suite.sh for
# what splitting them does to zero-filled memory in 6.12).
mkswap /dev/vda >/dev/null && swapon /dev/vda || fail_setup "cannot enable swap on /dev/vda"

case "$mglru" in
0) echo n >/sys/kernel/mm/lru_gen/enabled || fail_setup "cannot disable MGLRU" ;;
1) echo y >/sys/kernel/mm/lru_gen/enabled || fail_setup "cannot enable MGLRU" ;;
esac

mkdir -p /scratch/run
cp -a /payload/. /scratch/run/ || fail_setup "cannot copy the payload"
cd /scratch/run
# a script about to hibernate prints "memtide-hibernating $MEMTIDE_NONCE" (vm-run.sh)
MEMTIDE_NONCE=$nonce sh "./$script"
rc=$?
cd /
echo "memtide-exit $nonce $rc"
# No swapoff: it would read every swapped page back in first. The disks are thrown away.
power_off

# Guest side, sourced by the guest halves of the order sweep (release-order-guest.sh,
# hibernate-guest.sh): a slice shaped like a real one, and the same touch for every method.
#
# workload_start CGROUP MODE TOTAL_KB: in CGROUP, three processes (memhog) holding a quarter
# of TOTAL_KB each in anonymous memory, and an unmapped tmpfs file of the last quarter in
# /dev/shm (a container's shared memory, written by a fourth memhog with --file), then:
#   address    pages first written in address order, reclaimed in one go later: swap
#              offsets follow addresses (the seed benchmark's case, here with four owners)
#   rounds     written in address order, then four rounds of: every owner rewrites a random
#              quarter of its pages, a quarter of the slice is reclaimed. Long-lived processes
#              reclaimed in pieces over time: what each round wrote goes to new offsets
#   scattered  first written in a random order (a heap, a hash table): the LRU's order, and
#              the swap offsets a reclaim hands out in it, follow no address order
# Sets WORKLOAD_PIDS (the four memhogs) and WORKLOAD_OUTS (their output files, in ./).
# workload_reclaim CGROUP: everything of CGROUP to swap, as mainline's memory.reclaim takes it
# (bytes, not memtide's "max"), so that both kernels start from the same layout.
# workload_touch: every owner touches all its pages again (random order for rounds and
# scattered, address order for address), all at once; returns when the last is done and
# sets WORKLOAD_END_US, its end on CLOCK_MONOTONIC (memhog's touch_end_us).
# workload_check: 0 if every owner's data are intact (memhog's corrupt_pages=0 for each).
# Every wait gives up at once if the owner it waits for is gone (setup failed, OOM), so that
# the run fails instead of hanging until the host's timeout.

# workload_wait PID OUT WORD [N]: until OUT has more than N (default 0) lines with WORD
workload_wait() {
	local n
	while n=$(grep -c "$3" "$2" 2>/dev/null); [ "${n:-0}" -le "${4:-0}" ]; do
		kill -0 "$1" 2>/dev/null || { echo "workload: memhog $1 ($2) is gone" >&2; exit 1; }
		sleep 0.05
	done
}

workload_start() {
	local cg=$1 mode=$2 total_kb=$3 order=address i out quarter pid
	case $mode in
	address | rounds) ;;
	scattered) order=scattered ;;
	*) echo "workload: unknown mode $mode" >&2; return 2 ;;
	esac
	quarter=$((total_kb / 4))K
	WORKLOAD_PIDS= WORKLOAD_OUTS=
	for i in 1 2 3 shm; do
		out=workload-$i.out
		if [ $i = shm ]; then
			set -- --file=/dev/shm/workload.shm
		else
			set --
		fi
		sh -c "echo \$\$ >$cg/cgroup.procs && exec memhog --order=$order $* $quarter" >"$out" &
		pid=$!
		WORKLOAD_PIDS="$WORKLOAD_PIDS $pid"
		WORKLOAD_OUTS="$WORKLOAD_OUTS $out"
		# one owner at a time: each one's pages follow the last one's on the LRU
		workload_wait $pid "$out" ready
	done
	[ "$mode" = rounds ] || return 0
	for i in 1 2 3 4; do
		for pid in $WORKLOAD_PIDS; do kill -HUP "$pid"; done
		set -- $WORKLOAD_PIDS
		for out in $WORKLOAD_OUTS; do
			workload_wait "$1" "$out" rewrote $((i - 1))
			shift
		done
		echo $(($(cat "$cg/memory.current") / 4)) >"$cg/memory.reclaim" 2>/dev/null || true
	done
}

workload_reclaim() {
	local i
	for i in 1 2 3; do
		echo "$(cat "$1/memory.current")" >"$1/memory.reclaim" 2>/dev/null || true
	done
}

# (each owner touches once per run: the first "touched" line is this touch's)
workload_touch() {
	local pid out end max=0
	for pid in $WORKLOAD_PIDS; do kill -USR1 "$pid"; done
	set -- $WORKLOAD_PIDS
	for out in $WORKLOAD_OUTS; do
		workload_wait "$1" "$out" touch_end_us
		shift
		end=$(sed -n 's/^memhog: touch_end_us=//p' "$out" | tail -n 1)
		[ "$end" -le "$max" ] || max=$end
	done
	WORKLOAD_END_US=$max
}

workload_check() {
	local pid out
	for pid in $WORKLOAD_PIDS; do kill -USR2 "$pid"; done
	set -- $WORKLOAD_PIDS
	for out in $WORKLOAD_OUTS; do
		workload_wait "$1" "$out" corrupt_pages
		shift
		grep -q "corrupt_pages=0$" "$out" || return 1
	done
}

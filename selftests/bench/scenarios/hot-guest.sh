# Guest side, sourced by hibernate-guest.sh for hot=PERCENT (scenario hibernate-hot, issue
# 31): the slice's process is a program with a working set. memhog --hot loops over PERCENT%
# of its pages (random 2 MiB chunks, page by page in a random order) and records each pass
# (hot_loop.h); the
# rest of its memory is cold. Times are /proc/uptime's (CLOCK_BOOTTIME, the passes' clock).
#
# hot_warm PID: the program's cold memory is made old, then it is active for 3 s (its passes
# then are the warm reference), then idle: the loop pauses after the pass in progress, before
# any preparation or hibernation. "Old": the accessed bits the first write left on every page
# are cleared (/proc/PID/clear_refs, 1), as the hours a real program's cold data go untouched
# would have cleared them; otherwise no LRU could tell the working set from the rest, which
# memhog wrote a second earlier.
# hot_wake PID: the program is active again; called right after the "resumed" stamp, so that
# HOT_RESUMED_US places the passes against the host's clock (hibernate.sh's host_result).
# hot_figures PID: after full speed, 2 s more of passes (the host wants a whole second of
# fast ones, hibernate.sh), then the loop pauses and its passes are read. Prints the curve as
# "bench-series hot T_US DURATION_US" lines (T from HOT_RESUMED_US: the slowest pass that
# ended in each 100 ms; the host works "responsive" out of them) and sets HOT_RESULT,
# " KEY=VALUE..." for the result line:
#   hot_bytes          the hot set (pages x 4 KiB)
#   hot_ref_us         the median warm pass: the reference
#   hot_worst_us       the slowest pass that began within 10 s after HOT_RESUMED_US
#   hot_passes         the passes after resume; hot_dropped: passes beyond memhog's record
# and HOT_RC, empty or what makes the run fail: hot-no-warm-pass (no reference),
# hot-not-idle (a pass ended between the pause and the resume: the loop was not idle
# through the preparation), hot-record-full (passes were dropped: the curve is cut).
HOT_RESUMED_US=

hot_warm() {
	echo 1 >"/proc/$1/clear_refs"
	kill -WINCH "$1"
	sleep 3
	kill -URG "$1"
	sleep 0.5	# the pass in progress ends
	hot_paused_us=$(uptime_us)
}

hot_wake() {
	HOT_RESUMED_US=$(uptime_us)
	kill -WINCH "$1"
}

hot_figures() {
	sleep 2
	kill -URG "$1"
	kill -PWR "$1"
	until grep -q '^memhog: hot_passes=' hog.out; do sleep 0.1; done
	ref=$(awk -v paused="$hot_paused_us" '$2 == "hot_pass" && $3 < paused { print $4 }' hog.out |
		sort -n | awk '{ d[NR] = $1 } END { if (NR) print d[int((NR + 1) / 2)] }')
	HOT_RESULT=$(awk -v ref="${ref:-0}" -v paused="$hot_paused_us" -v resumed="$HOT_RESUMED_US" '
		/^memhog: hot_pages=/ { sub(/.*=/, ""); pages = $0 }
		/^memhog: hot_passes=/ { split($3, kv, "="); dropped = kv[2] }
		$2 == "hot_pass" && $3 >= paused && $3 < resumed { busy++ }
		$2 == "hot_pass" && $3 >= resumed {
			t = $3 - resumed; n++
			if ($3 - $4 < resumed + 10000000 && $4 > worst) worst = $4
			b = int(t / 100000)
			if (!(b in slow) || $4 > slow[b]) slow[b] = $4
			if (b > last) last = b
		}
		END {
			for (b = 0; b <= last; b++)
				if (b in slow) printf "bench-series hot %d %d\n", b * 100000, slow[b] > "/dev/stderr"
			printf " hot_bytes=%d hot_ref_us=%d hot_passes=%d hot_dropped=%d hot_worst_us=%d hot_busy=%d",
				pages * 4096, ref, n, dropped, worst, busy
		}' hog.out 2>hot.series)
	cat hot.series
	HOT_RC=
	case $HOT_RESULT in
	*" hot_ref_us=0 "*) HOT_RC=hot-no-warm-pass ;;
	*" hot_dropped=0 "*" hot_busy=0") ;;
	*" hot_dropped=0 "*) HOT_RC=hot-not-idle ;;
	*) HOT_RC=hot-record-full ;;
	esac
}

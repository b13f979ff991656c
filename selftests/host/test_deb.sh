#!/usr/bin/env bash
# make deb: the Debian package carries what `make install` installs (tool, man page,
# completion, sleep hook, units), depends on the tool's libraries, runs from an unpacked
# tree, and does not start or enable the idle daemon on its own, nor turn the sleep hook on
# (/etc/default/memtide, a conffile, says SLEEP_HOOK=no; the man page names where they are).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 9
deb=$("$ROOT/cgroup-tools/mkdeb.sh" "$TMP/deb" 2>"$TMP/mkdeb.err") ||
	{ fail "make deb builds the package" "$(head -n 30 "$TMP/mkdeb.err")"; done_testing; }
ok "make deb builds the package ($(basename "$deb"))"

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' >"$TMP/files"
# where systemd.pc puts units and sleep hooks (Debian 12: /lib/systemd/...)
units=$(pkg-config --variable=systemdsystemunitdir systemd)
sleep=$(pkg-config --variable=systemdsleepdir systemd)
want="/usr/bin/memtide /usr/share/man/man8/memtide.8.gz /usr/share/bash-completion/completions/memtide /usr/share/zsh/vendor-completions/_memtide
$sleep/memtide $units/memtide-idle.service $units/memtide-reclaim@.service $units/memtide-reclaim@.timer"
missing=$(for f in $want; do grep -qxF "$f" "$TMP/files" || echo "$f"; done)
check "it carries the tool, man page, completion, sleep hook and units" test -z "$missing"
[ -z "$missing" ] || echo "# missing: $missing"

deps=$(dpkg-deb -f "$deb" Depends)
check "it depends on libcgroup2, libjson-c5 and libsystemd0 ($deps)" \
	bash -c "grep -q 'libcgroup2' <<<'$deps' && grep -q 'libjson-c5' <<<'$deps' && grep -q 'libsystemd0' <<<'$deps'"

dpkg-deb -x "$deb" "$TMP/root"
check "the packaged tool runs and says its version" \
	bash -c "'$TMP/root/usr/bin/memtide' --version | grep -qx 'memtide [0-9.]*'"
# the sleep hook points at the packaged binary, not at /usr/local
check "the sleep hook runs /usr/bin/memtide" grep -q "^[[:space:]]*/usr/bin/memtide hibernate" \
	"$TMP/root$sleep/memtide"
check "the sleep hook is off as installed: /etc/default/memtide says SLEEP_HOOK=no, the hook reads it" \
	bash -c "grep -qx 'SLEEP_HOOK=no' '$TMP/root/etc/default/memtide' &&
		grep -q '/etc/default/memtide' '$TMP/root$sleep/memtide'"
# the man page names the hook and the switch where this package puts them
zcat "$TMP/root/usr/share/man/man8/memtide.8.gz" | sed 's/\\-/-/g' >"$TMP/man"
check "the man page names $sleep/memtide and /etc/default/memtide" \
	bash -c "grep -qF '$sleep/memtide' '$TMP/man' && grep -qF '/etc/default/memtide' '$TMP/man'"
dpkg-deb -e "$deb" "$TMP/control"
touch "$TMP/control/conffiles"
check "/etc/default/memtide is a conffile (an administrator's SLEEP_HOOK=yes survives upgrades)" \
	grep -qx /etc/default/memtide "$TMP/control/conffiles"
# debhelper's default would start the daemon, and enable it on a first install (an enable
# guarded by debian-installed only keeps an administrator's choice across upgrades)
touch "$TMP/control/postinst"
if grep -q "deb-systemd-invoke" "$TMP/control/postinst" ||
	{ grep -q "deb-systemd-helper enable" "$TMP/control/postinst" &&
		! grep -q "deb-systemd-helper debian-installed" "$TMP/control/postinst"; }; then
	fail "installing it enables or starts nothing" "$(cat "$TMP/control/postinst")"
else
	ok "installing it enables or starts nothing"
fi
done_testing

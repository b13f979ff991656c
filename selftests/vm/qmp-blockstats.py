#!/usr/bin/env python3
"""qmp-blockstats.py SOCKET DRIVE: QEMU's own count of one drive's requests, for one boot.

vm-run.sh (VM_BLOCKSTATS=1) starts QEMU with -qmp unix:SOCKET and -no-shutdown, and this
beside it. When the guest powers off (or resets: -no-reboot makes that a shutdown), QEMU
stops but stays, and this asks it for the drive's counters (query-blockstats), prints them
as one line, "DRIVE rd_ops=N rd_bytes=N wr_ops=N wr_bytes=N", and tells QEMU to quit.

Why the host counts: a hibernating guest writes its image after user space is frozen and
then powers off, and the boot kernel reads it back before the resumed kernel takes over
with the counters of its snapshot; /sys/block/DEV/stat in the guest never shows either.

Exit status 0 also when QEMU went away first (killed by vm-run's timeout): nothing is
printed then. Status 1 if QEMU could not be reached or answered otherwise than QMP does:
vm-run then stops QEMU itself, which -no-shutdown would otherwise keep.
"""
import json
import os
import socket
import sys
import time

# how long to wait for QEMU's socket, in seconds (QMP_CONNECT_TIMEOUT_S: the tests' shorter wait)
CONNECT_TIMEOUT_S = "60"


class Gone(Exception):
    """QEMU closed the monitor (it exited)."""


def connect(path):
    """The monitor's socket, once QEMU has made it."""
    deadline = time.monotonic() + float(os.environ.get("QMP_CONNECT_TIMEOUT_S", CONNECT_TIMEOUT_S))
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Monitor:
    def __init__(self, sock):
        self.file = sock.makefile("rw", encoding="utf-8")
        self.shutdown = False  # a SHUTDOWN event was seen

    def message(self):
        try:
            line = self.file.readline()
        except ConnectionResetError as err:
            raise Gone() from err
        if not line:
            raise Gone()
        msg = json.loads(line)
        if not isinstance(msg, dict):
            raise ValueError(f"not a QMP message: {line.strip()}")
        if msg.get("event") == "SHUTDOWN":
            self.shutdown = True
        return msg

    def execute(self, command):
        """The reply to COMMAND; events read on the way are noted (SHUTDOWN)."""
        try:
            self.file.write(json.dumps({"execute": command}) + "\n")
            self.file.flush()
        except BrokenPipeError as err:
            raise Gone() from err
        while True:
            msg = self.message()
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise RuntimeError(f"{command}: {msg['error'].get('desc', msg['error'])}")


def main():
    if len(sys.argv) != 3:
        print("usage: qmp-blockstats.py SOCKET DRIVE", file=sys.stderr)
        return 2
    path, drive = sys.argv[1:]
    try:
        mon = Monitor(connect(path))
        if "QMP" not in mon.message():
            raise RuntimeError("no QMP greeting")
        mon.execute("qmp_capabilities")
        # the guest may have stopped before this connected: then no event comes
        if mon.execute("query-status").get("status") != "shutdown":
            while not mon.shutdown:
                mon.message()
        stats = [d for d in mon.execute("query-blockstats") if d.get("device") == drive]
        if not stats:
            raise RuntimeError(f"QEMU has no drive '{drive}'")
        s = stats[0]["stats"]
        print(f"{drive} rd_ops={s['rd_operations']} rd_bytes={s['rd_bytes']} "
              f"wr_ops={s['wr_operations']} wr_bytes={s['wr_bytes']}", flush=True)
        try:
            mon.execute("quit")
        except Gone:
            pass
    except Gone:
        return 0
    except (OSError, ValueError, RuntimeError, KeyError) as err:
        print(f"qmp-blockstats: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

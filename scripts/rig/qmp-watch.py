#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Carry out the rig hosts' requests to their own QEMU.

A guest cannot reach its QEMU's monitor, so scripts/rig/carrier.sh in the
guest writes a request into the shared out/ directory, and this watcher,
started by rig.sh on the machine, carries it out over that host's QMP
socket and answers beside it:

  <out>/qmp-<host>.sock              QEMU's QMP socket (-qmp unix:...)
  <out>/carrier-<host>-<id>.req      "<nic> up|down", written by the guest
  <out>/carrier-<host>-<id>.done     "ok", or "error: <why>", by this

It runs until rig.sh kills it.  Usage: qmp-watch.py <out>
"""

import json
import os
import re
import socket
import sys
import time

REQ = re.compile(r"^carrier-([AB])-([0-9A-Za-z.]+)\.req$")


def qmp(path, command, arguments):
    """One QMP command on a fresh connection; its "return" or an error."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(path)
        f = s.makefile("rw")

        def ask(cmd, args=None):
            msg = {"execute": cmd}
            if args:
                msg["arguments"] = args
            f.write(json.dumps(msg) + "\n")
            f.flush()
            while True:
                line = f.readline()
                if not line:
                    raise OSError("QMP closed the connection")
                reply = json.loads(line)
                # events may come first
                if "return" in reply or "error" in reply:
                    return reply

        greeting = json.loads(f.readline())
        if "QMP" not in greeting:
            raise OSError("no QMP greeting")
        ask("qmp_capabilities")
        reply = ask(command, arguments)
        if "error" in reply:
            raise OSError(reply["error"].get("desc", "QMP error"))
        return reply["return"]


def carry_out(out, name):
    m = REQ.match(name)
    if not m:
        return
    host = m.group(1)
    req = os.path.join(out, name)
    try:
        with open(req) as f:
            words = f.read().split()
        if len(words) != 2 or words[1] not in ("up", "down") or \
           not re.fullmatch(r"nic[0-9]", words[0]):
            raise OSError(f"bad request {' '.join(words)!r}")
        qmp(os.path.join(out, f"qmp-{host}.sock"), "set_link",
            {"name": words[0], "up": words[1] == "up"})
        answer = "ok"
    except (OSError, ValueError) as e:
        answer = f"error: {e}"
    os.unlink(req)
    done = req[:-len(".req")] + ".done"
    with open(done + ".tmp", "w") as f:
        f.write(answer + "\n")
    os.rename(done + ".tmp", done)


def main():
    out = sys.argv[1]
    parent = os.getppid()
    # a request is a rare event: a look every 20 ms costs nothing
    # measurable and answers well within the guest's wait; the watcher
    # goes with rig.sh
    while os.getppid() == parent:
        for name in sorted(os.listdir(out)):
            carry_out(out, name)
        time.sleep(0.02)


if __name__ == "__main__":
    main()

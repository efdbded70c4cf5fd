#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Blocked socket calls on an AF_SMC connection, for peer_death.sh.
#
#   smc_blocked.py hold ADDR             listen on ADDR (port chosen),
#                                        print "READY <port>", accept
#                                        connections, never read
#   smc_blocked.py block ADDR PORT recv  connect, block in recv()
#   smc_blocked.py block ADDR PORT send  connect, send until send()
#                                        blocks
#
# "block" prints "recv blocking" or "send blocking after <bytes>" just
# before the call that blocks, then how it came back and when:
# "<recv|send> error <ERRNO> <ms>" or "<recv|send> returned <n> <ms>"
# (ms since the epoch).  One call per connection: threads blocked on one
# socket share one error, which the first call to come back takes (the
# next one sees end of stream or EPIPE, as over TCP).  Python has no
# socket addresses for family 43, so the calls go through libc.

import ctypes
import errno
import os
import select
import socket
import struct
import sys
import time

AF_SMC = 43
MSG_DONTWAIT = 0x40
MSG_NOSIGNAL = 0x4000

libc = ctypes.CDLL(None, use_errno=True)


def ck(r):
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def sin(ip, port):
    return (struct.pack("=H", socket.AF_INET) + struct.pack(">H", port) +
            socket.inet_aton(ip) + bytes(8))


def out(*a):
    print(*a, flush=True)


def ended(call, n):
    e = ctypes.get_errno()
    ms = int(time.time() * 1000)
    if n < 0:
        out(call, "error", errno.errorcode.get(e, str(e)), ms)
    else:
        out(call, "returned", n, ms)


def hold(ip):
    lfd = ck(libc.socket(AF_SMC, socket.SOCK_STREAM, 0))
    a = sin(ip, 0)
    ck(libc.bind(lfd, a, len(a)))
    ck(libc.listen(lfd, 1))
    n = ctypes.c_uint32(len(a))
    b = ctypes.create_string_buffer(len(a))
    ck(libc.getsockname(lfd, b, ctypes.byref(n)))
    out("READY", struct.unpack(">H", b.raw[2:4])[0])
    while True:
        ck(libc.accept(lfd, None, None))


def block(ip, port, call):
    fd = ck(libc.socket(AF_SMC, socket.SOCK_STREAM, 0))
    a = sin(ip, port)
    ck(libc.connect(fd, a, len(a)))
    if call == "recv":
        buf = ctypes.create_string_buffer(65536)
        out("recv blocking")
        ended("recv", libc.recv(fd, buf, len(buf), 0))
        return
    chunk = b"x" * 65536
    sent = 0
    p = select.poll()
    p.register(fd, select.POLLOUT)
    # fill the send buffer and the peer's RMB: until no room comes back
    # for half a second, the peer's application not reading
    while True:
        n = libc.send(fd, chunk, len(chunk), MSG_NOSIGNAL | MSG_DONTWAIT)
        if n >= 0:
            sent += n
            continue
        if ctypes.get_errno() != errno.EAGAIN:
            ck(n)
        if not p.poll(500):
            break
    out("send blocking after", sent)
    while True:
        n = libc.send(fd, chunk, len(chunk), MSG_NOSIGNAL)
        if n <= 0:
            break
    ended("send", n)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "hold":
        hold(sys.argv[2])
    elif (len(sys.argv) == 5 and sys.argv[1] == "block" and
          sys.argv[4] in ("recv", "send")):
        block(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit("usage: smc_blocked.py hold ADDR | block ADDR PORT recv|send")

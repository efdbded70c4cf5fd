#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A plain TCP echo server and client, to be run unchanged under smc_run.
#   smc_run_echo.py server ADDR PORT          prints READY once listening
#   smc_run_echo.py client ADDR PORT [HOOK]   HOOK (with %d = own port) runs
#                                             while the connection is up
import os
import socket
import sys


def server(addr, port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, port))
    srv.listen(1)
    print("READY", flush=True)
    conn, _ = srv.accept()
    while True:
        data = conn.recv(65536)
        if not data:
            break
        conn.sendall(data)
    conn.close()


def client(addr, port, hook):
    c = socket.create_connection((addr, port))
    for i in range(2):
        msg = b"hello %d " % i * 1000
        c.sendall(msg)
        got = b""
        while len(got) < len(msg):
            chunk = c.recv(65536)
            if not chunk:
                sys.exit("connection closed early")
            got += chunk
        if got != msg:
            sys.exit("echo mismatch")
        if i == 0 and hook and os.system(hook % c.getsockname()[1]) != 0:
            sys.exit("hook failed")
    c.close()
    print("echo ok")


if __name__ == "__main__":
    if sys.argv[1] == "server":
        server(sys.argv[2], int(sys.argv[3]))
    else:
        client(sys.argv[2], int(sys.argv[3]),
               sys.argv[4] if len(sys.argv) > 4 else None)

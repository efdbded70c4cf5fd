#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Play a CLC client that sends a given first message, over loopback.

Run under smc_run, so that both sockets below are SMC sockets of the
module under test.  The message goes out through the module's test hook
/sys/kernel/debug/smc/inject_clc, which replaces the next CLC message the
host sends (here: the client's own Decline) with it.  Then the server's
reaction is checked:

  reset         the server resets the connection, never offers it to
                accept(), and counts a server handshake error;
  decline R V   the server answers with a version-V Decline carrying
                reason R and falls back with R;
  peerdecl D    the server falls back on our Decline (PEERDECL) and shows
                our diagnosis D.

usage: smc_clc_peer.py SMCSS SMCR CASE
       smc_clc_peer.py serve SMCSS PORT DIR    (a listener for another host)
       smc_clc_peer.py client CASE HOST PORT   (against such a listener)

With a listener on another host (serve), DIR/ready appears once it
listens.  The client checks what comes back (for "reset" an EOF counts
too, as upstream closes when it has read the whole bad message) and
prints the expectation for the server; a file DIR/stop makes the
listener write DIR/result: the accepted socket as smcss shows it, or
"none" if no connection reached accept().  The remote cases are played
against the distro smc.ko: RoCE ports and a common UEID make it answer
v2-common-ueid with an Accept, and v1 prefixes are those of the link.
"""
import os
import select

import json
import socket
import struct
import subprocess
import sys

EYE = b'\xe2\xd4\xc3\xd9'		# "SMCR" in EBCDIC
PEERDECL = 0x05000000
TIMEOUT = 15				# a safety net, not a synchronisation


def hdr(typ, length, flags, eye=EYE):
    return eye + struct.pack('!BHB', typ, length, flags)


def prop_v1(subnet='127.0.0.0', plen=8, extra=0, length_delta=0):
    """v1 proposal, R path, old form: prefix area right at byte 40"""
    body = bytes(8) + bytes(16) + bytes(6) + struct.pack('!H', 0)
    body += socket.inet_aton(subnet) + struct.pack('!BHB', plen, 0, 0)
    body += bytes(extra)
    length = 8 + len(body) + 4
    return hdr(1, length + length_delta, 0x10) + body + EYE


def prop_v2(eids, eid_cnt=None):
    """v2-only SMC-R proposal as Linux sends it (typev1 N)"""
    n = len(eids) if eid_cnt is None else eid_cnt
    base = bytes(8) + bytes(16) + bytes(6) + struct.pack('!H', 0)
    area = bytes(10) + struct.pack('!H', 28) + bytes(28)
    gid = bytes(10) + b'\xff\xff' + socket.inet_aton('127.0.0.1')
    ext = struct.pack('!BBBBHH', n, 0, 0, 0x10, 0, 32 + 32 * n) + gid
    ext += struct.pack('!BBH', 255, 2, 0) + bytes(12)
    e = b''.join(x.ljust(32).encode() for x in eids)
    length = 8 + len(base) + len(area) + len(ext) + len(e) + 4
    return hdr(1, length, 0x22) + base + area + ext + e + EYE


def decline_v2(diag):
    body = bytes(8) + struct.pack('!I', diag) + bytes([0x20]) + bytes(3)
    body += bytes(16)
    return hdr(4, 44, 0x20) + body + EYE


UEID = 'SMC-SELFTEST-UEID'
CASES = {
    'bad-eyecatcher': (b'ABCD' + decline_v2(0x03030000)[4:], ['reset']),
    'accept-not-proposal': (hdr(2, 68, 0x10) + bytes(56) + EYE, ['reset']),
    'version-0': (hdr(1, 52, 0x00) + prop_v1()[8:], ['reset']),
    'length-below-header': (hdr(1, 4, 0x10) + prop_v1()[8:], ['reset']),
    'proposal-length-plus-1': (prop_v1(extra=1), ['reset']),
    'eid-count-9': (prop_v2([UEID] * 9), ['reset']),
    'decline-length-30': (hdr(4, 30, 0x10) + bytes(18) + EYE, ['reset']),
    'truncated': (prop_v1()[:40], ['reset']),
    'decline-from-client': (decline_v2(0x03030008), ['peerdecl', 0x03030008]),
    'v2-foreign-ueid': (prop_v2(['OTHER-UEID']), ['decline', 0x03030000, 2]),
    'v2-common-ueid': (prop_v2([UEID]), ['decline', 0x03030002, 2]),
    'v2-no-ueid': (prop_v2([]), ['decline', 0x03030008, 2]),
    'v1-other-subnet': (prop_v1('10.99.0.0', 16), ['decline', 0x03070000, 1]),
    'v1-same-subnet': (prop_v1('127.0.0.0', 8), ['decline', 0x03030000, 1]),
}

# against a distro smc.ko on another host (see the usage)
REMOTE = dict(CASES)
REMOTE['v1-same-subnet'] = (prop_v1('10.9.1.0', 24),
                            ['decline', 0x03030000, 1])
REMOTE['v2-common-ueid'] = (prop_v2([UEID]), ['accept'])


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def srv_hs_errors(smcr):
    return json.loads(run([smcr, '-a', '-j', 'stats']))[
        'server_handshake_errors']


def sock_mode(smcss, lport, rport):
    for line in run([smcss, '-a', '-j']).splitlines():
        line = line.strip().rstrip(',')
        s = json.loads(line) if line.startswith('{') else None
        if s and s.get('local_port') == lport and s.get('peer_port') == rport:
            return s
    return None


def fail(msg):
    print('FAIL ' + msg)
    sys.exit(1)


def serve(smcss, port, d):
    """listen, print READY, then serve in the background until told"""
    ctl, res = os.path.join(d, 'ctl'), os.path.join(d, 'res')
    os.mkfifo(ctl)
    os.mkfifo(res)
    lsn = socket.socket()
    lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind(('0.0.0.0', int(port)))
    lsn.listen(8)
    # an upstream listener may poll readable and then have nothing to
    # accept (a child that failed its handshake)
    lsn.setblocking(False)
    if os.fork():
        print('READY', flush=True)
        return
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    # read-write, so that the FIFO never reports EOF while we wait
    cfd = os.open(ctl, os.O_RDWR)
    conns = []
    while True:
        r, _, _ = select.select([lsn, cfd], [], [])
        if cfd in r:
            break
        try:
            conns.append(lsn.accept())
        except BlockingIOError:
            pass
    out = 'none'
    if conns:
        srv, addr = conns[0]
        st = sock_mode(smcss, int(port), addr[1])
        out = f'{st["fallback_reason"]} {st["peer_diagnosis"]}' if st \
            else 'unknown'
    with open(res, 'w') as f:
        f.write(out + '\n')
    os._exit(0)


def expect_decline(data, reason, version):
    size = 44 if version == 2 else 28
    exp = hdr(4, size, version << 4) + bytes(8) + struct.pack('!I', reason)
    exp += bytes([0x20 if version == 2 else 0]) + bytes(size - 25) + EYE
    # bytes 8..15 are the server's system id, zero or from a RoCE MAC
    if len(data) != size or data[:8] + data[16:] != exp[:8] + exp[16:]:
        fail(f'expected the Decline {exp.hex()}, any system id')


def expect_accept(cli):
    """an SMC-Rv2 first-contact Accept, as an upstream server sends it"""
    data = cli.recv(8, socket.MSG_WAITALL)
    length = struct.unpack('!H', data[5:7])[0] if len(data) == 8 else 0
    if length >= 108:
        data += cli.recv(length - 8, socket.MSG_WAITALL)
    print(f'received {len(data)} bytes: {data.hex()}')
    if len(data) != length or data[:5] != EYE + b'\x02' or \
            data[7] != 0x28 or data[-4:] != EYE:
        fail('expected a v2 first-contact SMC-R Accept')
    if data[105] >> 4 != 2:
        fail('the first-contact extension does not say Linux')


def client(case, host, port):
    msg, want = REMOTE[case]
    with open('/sys/kernel/debug/smc/inject_clc', 'wb', buffering=0) as f:
        f.write(msg)
    cli = socket.socket()
    cli.settimeout(TIMEOUT)
    try:
        cli.connect((host, int(port)))
        if want[0] == 'reset':
            data = cli.recv(100)
            if data:
                fail(f'expected the end of the connection, got {data!r}')
            print('the server closed the connection')
        elif want[0] == 'decline':
            data = cli.recv(44 if want[2] == 2 else 28, socket.MSG_WAITALL)
            print(f'received {len(data)} bytes: {data.hex()}')
            expect_decline(data, want[1], want[2])
        elif want[0] == 'accept':
            expect_accept(cli)
    except ConnectionResetError:
        if want[0] != 'reset':
            fail('the server reset the connection')
        print('the server reset the connection')
    # what the server must show: "none", or "reason diagnosis"
    if want[0] in ('reset', 'accept'):
        print('server: none')
    elif want[0] == 'peerdecl':
        print(f'server: {PEERDECL} {want[1]}')
    else:
        print(f'server: {want[1]} 0')


def main():
    if sys.argv[1] == 'serve':
        serve(*sys.argv[2:5])
        return
    if sys.argv[1] == 'client':
        client(*sys.argv[2:5])
        return
    smcss, smcr, case = sys.argv[1:4]
    msg, want = CASES[case]
    errs = srv_hs_errors(smcr)

    lsn = socket.socket()
    lsn.bind(('127.0.0.1', 0))
    lsn.listen(8)
    port = lsn.getsockname()[1]
    with open('/sys/kernel/debug/smc/inject_clc', 'wb', buffering=0) as f:
        f.write(msg)
    cli = socket.socket()
    cli.settimeout(TIMEOUT)
    try:
        cli.connect(('127.0.0.1', port))
        reset = False
    except ConnectionResetError:
        # the reset may come before connect() returns
        reset = True
    print(f'{case}: sent {len(msg)} bytes: {msg.hex()}')

    if want[0] == 'reset':
        try:
            if not reset:
                data = cli.recv(100)
                fail(f'expected a reset, received {data!r}')
        except ConnectionResetError:
            reset = True
        print('client: connection reset by the server')
        lsn.setblocking(False)
        try:
            lsn.accept()
            fail('the broken connection was offered to accept()')
        except BlockingIOError:
            pass
        now = srv_hs_errors(smcr)
        if now != errs + 1:
            fail(f'server handshake errors {errs} -> {now}, expected +1')
        print(f'server handshake errors {errs} -> {now}')
        return

    lsn.settimeout(TIMEOUT)
    srv, addr = lsn.accept()
    s = sock_mode(smcss, port, addr[1])
    if not s:
        fail('smcss does not show the accepted socket')
    print(f'server socket: mode {s["mode"]} reason {s["fallback_reason"]:#x}'
          f' peer diagnosis {s["peer_diagnosis"]:#x}')
    if want[0] == 'peerdecl':
        if (s['mode'], s['fallback_reason'], s['peer_diagnosis']) != \
                ('TCP', PEERDECL, want[1]):
            fail('expected TCP, PEERDECL and our diagnosis')
        cli.setblocking(False)
        try:
            data = cli.recv(100)
            fail(f'the server sent something after our Decline: {data!r}')
        except BlockingIOError:
            pass
        return

    reason, version = want[1], want[2]
    data = cli.recv(44 if version == 2 else 28, socket.MSG_WAITALL)
    print(f'client received {len(data)} bytes: {data.hex()}')
    expect_decline(data, reason, version)
    if (s['mode'], s['fallback_reason']) != ('TCP', reason):
        fail(f'the server fell back with {s["fallback_reason"]:#x}')


if __name__ == '__main__':
    main()

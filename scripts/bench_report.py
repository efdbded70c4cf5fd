#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark's report: reads the raw records scripts/bench-guest.sh
# wrote on the rig (raw.jsonl), decides which measurements are valid (an
# SMC cell must be SMC-R on both hosts, an rsocket cell must have gone
# over rxe), and writes results.json (every repetition plus the summary),
# results.md (tables) and one PNG bar chart per workload (gnuplot).
# Only Python's standard library and Debian's gnuplot are used.

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

TRANSPORT_NAMES = {
    'tcp': 'TCP',
    'tcp_nodelay': 'TCP, TCP_NODELAY',
    'ours': 'SMC-R (ours)',
    'ours_rsbuf': 'SMC-R (ours), 128 KiB buffers',
    'distro': 'SMC-R (distro)',
    'rsocket': 'rsocket',
    'rdma': 'raw RDMA, polling',
    'rdma_ev': 'raw RDMA, events',
}
TRANSPORT_ORDER = ('tcp', 'tcp_nodelay', 'ours', 'ours_rsbuf', 'distro',
                   'rsocket', 'rdma', 'rdma_ev')
SMC_TRANSPORTS = ('ours', 'ours_rsbuf', 'distro')
RAW_TRANSPORTS = ('rdma', 'rdma_ev')
# the paired ratios: numerator, denominator
PAIRS = (('ours', 'distro'), ('ours', 'rsocket'), ('ours', 'tcp'),
         ('ours', 'tcp_nodelay'), ('ours_rsbuf', 'ours'),
         ('ours_rsbuf', 'rsocket'))


def is_smc(t):
    """ours, distro and ours at other buffer sizes (ours_w<W>_r<R>)"""
    return t in SMC_TRANSPORTS or t.startswith('ours_w')


def transport_order(ts):
    """the fixed order, then the buffer-size variants of ours by size"""
    def size(t):
        w, r = t[len('ours_w'):].split('_r')
        return (int(w), int(r))
    extra = sorted((t for t in set(ts) if t not in TRANSPORT_ORDER and
                    t.startswith('ours_w')), key=size)
    return [t for t in TRANSPORT_ORDER if t in ts] + extra


def transport_name(t):
    if t.startswith('ours_w'):
        w, r = t[len('ours_w'):].split('_r')
        return 'SMC-R (ours), wmem %s / rmem %s KiB' % (w, r)
    return TRANSPORT_NAMES.get(t, t)


GEN_WORKLOADS = {
    'RR1': 'RR1: rr, 1 client, 1 KiB / 1 KiB',
    'RR10': 'RR10: rr, 10 clients, 32 KiB / 32 KiB',
    'STR1': 'STR1: stream, 1 client, 1 B / 20 MiB',
    'STR3': 'STR3: stream, 3 clients, 1 B / 20 MiB',
    'CRR10': 'CRR10: connect-rr-close, 10 clients, 64 B / 8 KiB',
    'rr1_200B_1KB': 'rr1 200B/1KB: rr, 1 client, 200 B / 1 KiB',
    'rr1_200B_30KB': 'rr1 200B/30KB: rr, 1 client, 200 B / 30 KiB',
}
TOOL_TESTS = {
    'qperf_tcp_bw': ('qperf tcp_bw, 64 KiB messages', 'mb_per_s'),
    'qperf_tcp_lat': ('qperf tcp_lat, 1 KiB (one-way)', 'lat_mean_us'),
    'sockperf_pp': ('sockperf ping-pong, 1 KiB, round trip', 'lat_mean_us'),
    'sockperf_tp': ('sockperf throughput, 16 KiB messages', 'mb_per_s'),
}
# per-operation costs from the generator's window (window_costs())
COST_KEYS = ('w_cpu_A_us', 'w_cpu_B_us', 'w_ctxt_A', 'w_ctxt_B',
             'w_netrx_A', 'w_netrx_B', 'w_irqpoll_A', 'w_irqpoll_B',
             'w_tasklet_A', 'w_tasklet_B', 'w_rxe_A')
UNITS = {
    'trans_per_s': 'trans/s',
    'conns_per_s': 'conns/s',
    'mb_per_s': 'MB/s',
    'lat_mean_us': 'µs',
    'lat_p50_us': 'µs',
}


def load(path):
    recs = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError as e:
                recs.append({'kind': 'broken', 'line': n, 'error': str(e),
                             'text': line[:300]})
    return recs


def cpu_busy(s0, s1, seconds):
    """CPU-seconds a host was busy during <seconds> of its snapshot window:
    the busy share of all its CPUs between the snapshots, scaled to the
    measured interval (the window also holds start-up and warm-up)."""
    try:
        c0, c1 = s0['cpu'], s1['cpu']
    except (TypeError, KeyError):
        return None
    d = [b - a for a, b in zip(c0, c1)]
    total = sum(d)
    if total <= 0:
        return None
    busy = total - d[3] - d[4]
    return busy / total * s1.get('ncpu', 1) * seconds


def stat_delta(s0, s1, keys):
    try:
        a, b = s0['smcr'], s1['smcr']
        return sum(b[k] - a[k] for k in keys)
    except (TypeError, KeyError):
        return None


def rxe_delta(s0, s1, key):
    try:
        return s1['rxe'][key] - s0['rxe'][key]
    except (TypeError, KeyError):
        return None


def judge(c):
    """Fill c['valid'], c['why'] and c['proof'] for one repetition."""
    why = []
    res = c.get('result')
    if c.get('rc') != 0:
        why.append('failed: ' + (c.get('error') or 'exit %s' % c.get('rc')))
    if not isinstance(res, dict):
        why.append('no result' + (': ' + c['error'] if c.get('error') and
                                  not why else ''))
        res = {}
    if c['bench'] == 'gen' and res:
        if res.get('errors'):
            why.append('%d errors' % res['errors'])
        if not res.get('transactions'):
            why.append('no transactions')
    a0, a1, b0, b1 = (c.get(k) for k in ('a0', 'a1', 'b0', 'b1'))
    proof = {
        'rxe_sent_A': rxe_delta(a0, a1, 'sent_pkts'),
        'rxe_rcvd_A': rxe_delta(a0, a1, 'rcvd_pkts'),
        'rxe_sent_B': rxe_delta(b0, b1, 'sent_pkts'),
        'rxe_dup_requests_B': rxe_delta(b0, b1, 'duplicate_request'),
    }
    t = c['transport']
    if is_smc(t):
        hs_a = stat_delta(a0, a1, ('smcr_client_v1', 'smcr_client_v2'))
        hs_b = stat_delta(b0, b1, ('smcr_server_v1', 'smcr_server_v2'))
        fb_a = stat_delta(a0, a1, ('client_fallbacks', 'server_fallbacks'))
        fb_b = stat_delta(b0, b1, ('client_fallbacks', 'server_fallbacks'))
        err_a = stat_delta(a0, a1, ('client_handshake_errors',))
        err_b = stat_delta(b0, b1, ('server_handshake_errors',))
        proof.update({'smcr_handshakes_A': hs_a, 'smcr_handshakes_B': hs_b,
                      'fallbacks_A': fb_a, 'fallbacks_B': fb_b,
                      'handshake_errors_A': err_a,
                      'handshake_errors_B': err_b})
        if None in (hs_a, hs_b, fb_a, fb_b):
            why.append('no smcr stats from both hosts')
        else:
            if hs_a < 1 or hs_b < 1:
                why.append('SMC-R handshakes did not increase (A %d, B %d)'
                           % (hs_a, hs_b))
            if fb_a or fb_b:
                why.append('fallbacks to TCP (A %d, B %d)' % (fb_a, fb_b))
    elif t == 'rsocket':
        moved = (proof['rxe_sent_A'] or 0) + (proof['rxe_rcvd_A'] or 0)
        need = max(10, res.get('transactions') or 0)
        if moved < need:
            why.append('rxe1 carried %d packets for %s transactions: not '
                       'over RDMA' % (moved, res.get('transactions')))
    c['proof'] = proof
    c['valid'] = not why
    c['why'] = '; '.join(why)

    # derived numbers
    d = {}
    if c['bench'] == 'gen' and res:
        n = res.get('transactions') or 0
        secs = res.get('duration_s') or 0
        busy_a = res.get('host_cpu_busy_s')
        busy_b = cpu_busy(b0, b1, secs)
        mb = (res.get('mb_per_s') or 0) * secs
        if n:
            if busy_a is not None:
                d['cpu_A_us_per_trans'] = busy_a * 1e6 / n
            if busy_b is not None:
                d['cpu_B_us_per_trans'] = busy_b * 1e6 / n
        if mb:
            if busy_a is not None:
                d['cpu_A_us_per_mb'] = busy_a * 1e6 / mb
            if busy_b is not None:
                d['cpu_B_us_per_mb'] = busy_b * 1e6 / mb
        d['cpu_B_busy_s'] = busy_b
        d.update(window_costs(res))
    c['derived'] = d


def window_costs(res):
    """Per-operation costs from the counters the generator read at the
    edges of its measured window: per transaction, or per MB (10^6
    bytes) for streams."""
    d = {}
    if res.get('workload') == 'str':
        ops = (res.get('win_bytes') or 0) / 1e6
    else:
        ops = res.get('win_ops') or 0
    if not ops:
        return d
    for h in ('A', 'B'):
        v = res.get('host_' + h)
        if not isinstance(v, dict):
            continue
        d['w_cpu_%s_us' % h] = v.get('busy_s', 0) * 1e6 / ops
        d['w_ctxt_%s' % h] = v.get('ctxt', 0) / ops
        d['w_netrx_%s' % h] = v.get('net_rx', 0) / ops
        d['w_irqpoll_%s' % h] = v.get('irq_poll', 0) / ops
        d['w_tasklet_%s' % h] = v.get('tasklet', 0) / ops
        if 'rxe_pkts' in v:
            d['w_rxe_%s' % h] = v['rxe_pkts'] / ops
    return d


def primary_metric(c):
    if c['bench'] == 'gen':
        w = (c.get('result') or {}).get('workload') or c.get('pattern')
        return {'str': 'mb_per_s', 'crr': 'conns_per_s'}.get(w, 'trans_per_s')
    if c['bench'] == 'perftest':
        return 'mb_per_s' if c['workload'].startswith('STR') else \
            'lat_p50_us'
    return TOOL_TESTS.get(c['workload'], ('', 'mb_per_s'))[1]


def value(c, key):
    v = (c.get('result') or {}).get(key)
    if v is None:
        v = (c.get('derived') or {}).get(key)
    return v


def trio(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    return {'min': min(vals), 'median': statistics.median(vals),
            'max': max(vals), 'n': len(vals)}


def summarise(cells):
    groups = {}
    for c in cells:
        groups.setdefault((c['bench'], c['workload'], c['transport']),
                          []).append(c)
    rows = []
    for (bench, w, t), cs in groups.items():
        cs.sort(key=lambda c: c['rep'])
        good = [c for c in cs if c['valid']]
        metric = primary_metric(good[0] if good else cs[0])
        row = {'bench': bench, 'workload': w, 'transport': t,
               'metric': metric, 'unit': UNITS.get(metric, ''),
               'reps': len(cs), 'valid_reps': len(good),
               'invalid': [{'rep': c['rep'], 'why': c['why']}
                           for c in cs if not c['valid']]}
        for key in (metric, 'trans_per_s', 'mb_per_s', 'conns_per_s',
                    'lat_mean_us', 'lat_p50_us', 'lat_p99_us',
                    'cpu_A_us_per_trans', 'cpu_B_us_per_trans',
                    'cpu_A_us_per_mb', 'cpu_B_us_per_mb') + COST_KEYS:
            s = trio([value(c, key) for c in good])
            if s:
                row[key] = s
        rows.append(row)
    # ratios of the medians of the primary metric
    index = {(r['bench'], r['workload'], r['transport']): r for r in rows}
    for r in rows:
        for ref, name in (('tcp', 'vs_tcp'), ('distro', 'vs_distro')):
            o = index.get((r['bench'], r['workload'], ref))
            m = r.get(r['metric'])
            om = o.get(r['metric']) if o else None
            if m and om and om['median']:
                r[name] = m['median'] / om['median']
        # streams against the better of the two raw RDMA rates
        raw = best_raw(rows, r['workload'])
        m = r.get(r['metric'])
        if r['bench'] == 'gen' and r['metric'] == 'mb_per_s' and raw and m:
            r['vs_raw'] = m['median'] / raw
    return rows


def best_raw(rows, w):
    """the better raw RDMA rate (MB/s median, polling or events) measured
    in <w>'s groups, or None"""
    v = [r['mb_per_s']['median'] for r in rows
         if r['workload'] == w and r['bench'] == 'perftest' and
         r['transport'] in RAW_TRANSPORTS and r.get('mb_per_s')]
    return max(v) if v else None


def paired(cells):
    """Per workload and pair of transports, the ratio of their primary
    metric in each repetition (the same round-robin group), then the
    median and spread of those ratios."""
    by = {}
    for c in cells:
        if c['bench'] == 'gen' and c['valid']:
            v = value(c, primary_metric(c))
            if v:
                by[(c['workload'], c['transport'], c['rep'])] = v
    out = []
    for w in dict.fromkeys(k[0] for k in by):
        for num, den in PAIRS:
            rs = [by[(w, num, rep)] / by[(w, den, rep)]
                  for (w2, t, rep) in by if w2 == w and t == num and
                  (w, den, rep) in by]
            if rs:
                out.append({'workload': w, 'num': num, 'den': den,
                            'ratio': trio(rs), 'ratios': sorted(rs)})
    return out


def fmt(v, digits=3):
    if v is None:
        return '–'
    if v == 0:
        return '0'
    a = abs(v)
    if a >= 1000:
        return '%.0f' % v
    return ('%%.%dg' % digits) % v


def fmt_ratio(v):
    return '–' if v is None else '%.2f×' % v


def row_status(r):
    if r['valid_reps'] == r['reps']:
        return 'yes'
    if r['valid_reps'] == 0:
        return '**NO**'
    return '**%d/%d**' % (r['valid_reps'], r['reps'])


def md_table(rows, order, label, with_cpu):
    out = []
    head = ['workload', 'transport', 'valid', 'metric', 'median', 'min',
            'max', '×TCP', '×distro', '×raw', 'mean µs', 'p99 µs']
    if with_cpu:
        head += ['CPU A µs/op', 'CPU B µs/op']
    out.append('| ' + ' | '.join(head) + ' |')
    out.append('|' + '---|' * len(head))
    for w in order:
        for t in transport_order([x['transport'] for x in rows]):
            r = next((x for x in rows if x['workload'] == w and
                      x['transport'] == t), None)
            if not r:
                continue
            m = r.get(r['metric']) or {}
            per = 'mb' if r['metric'] == 'mb_per_s' and \
                r['bench'] == 'gen' else 'trans'
            unit = r['unit']
            if r['bench'] == 'perftest' and r['metric'] != 'mb_per_s':
                unit = 'µs one-way p50'
            cells = [label(w), transport_name(t), row_status(r),
                     unit, fmt(m.get('median')), fmt(m.get('min')),
                     fmt(m.get('max')), fmt_ratio(r.get('vs_tcp')),
                     fmt_ratio(r.get('vs_distro')),
                     fmt_ratio(r.get('vs_raw')),
                     fmt((r.get('lat_mean_us') or {}).get('median')),
                     fmt((r.get('lat_p99_us') or {}).get('median'))]
            if with_cpu:
                ka, kb = 'w_cpu_A_us', 'w_cpu_B_us'
                if ka not in r:
                    ka, kb = 'cpu_A_us_per_' + per, 'cpu_B_us_per_' + per
                cells += [fmt((r.get(ka) or {}).get('median')) +
                          (' /MB' if per == 'mb' else ''),
                          fmt((r.get(kb) or {}).get('median')) +
                          (' /MB' if per == 'mb' else '')]
            out.append('| ' + ' | '.join(cells) + ' |')
    return out


def cost_table(rows, order):
    """The per-operation costs over the generator's window."""
    head = ['workload', 'transport', 'per', 'CPU µs A', 'CPU µs B',
            'ctxt A', 'ctxt B', 'NET_RX A', 'NET_RX B', 'IRQ_POLL A',
            'IRQ_POLL B', 'TASKLET A', 'TASKLET B', 'rxe pkts A']
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for w in order:
        for t in transport_order([x['transport'] for x in rows]):
            r = next((x for x in rows if x['workload'] == w and
                      x['transport'] == t and x['bench'] == 'gen'), None)
            if not r or 'w_cpu_A_us' not in r:
                continue
            per = 'MB' if r['metric'] == 'mb_per_s' else \
                ('conn' if r['metric'] == 'conns_per_s' else 'trans')
            out.append('| ' + ' | '.join(
                [w, transport_name(t), per] +
                [fmt((r.get(k) or {}).get('median')) for k in COST_KEYS]) +
                ' |')
    return out


def pair_table(pairs):
    head = ['workload', 'ratio', 'median', 'min', 'max', 'pairs']
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for p in pairs:
        r = p['ratio']
        out.append('| %s | %s / %s | %s | %s | %s | %d |' % (
            p['workload'], p['num'], p['den'], fmt_ratio(r['median']),
            fmt_ratio(r['min']), fmt_ratio(r['max']), r['n']))
    return out


def chart(path, title, rows, ylabel, ref=None):
    """One bar per transport: the median, error bars from min to max;
    invalid rows red, and a dashed line for a reference (raw RDMA)."""
    data = []
    for i, r in enumerate(rows):
        m = r.get(r['metric'])
        if not m:
            data.append('%d "%s\\n(no valid run)" 0 0 0 3' %
                        (i, transport_name(r['transport'])))
            continue
        colour = 1 if r['valid_reps'] == r['reps'] else 3
        name = transport_name(r['transport'])
        if colour == 3:
            name += '\\n(invalid reps)'
        data.append('%d "%s" %g %g %g %d' % (i, name, m['median'], m['min'],
                                            m['max'], colour))
    if not data:
        return False
    script = [
        'set terminal pngcairo size 800,480 noenhanced font "sans,10"',
        'set output "%s"' % path,
        'set title "%s"' % title.replace('"', "'"),
        'set ylabel "%s"' % ylabel,
        'set style fill solid 0.6 border -1',
        'set boxwidth 0.6',
        'set bmargin 4',
        'set yrange [0:*]',
        'set xrange [-0.6:%f]' % (len(data) - 0.4),
        'set grid ytics',
        'set linetype 1 lc rgb "#3b75af"',
        'set linetype 3 lc rgb "#c0392b"',
        'set key top right',
        '$d << EOD',
    ] + data + ['EOD']
    plot = ('plot $d using 1:3:4:5:(0.6):6:xtic(2) with boxerrorbars '
            'lc variable title "median (bars: min..max)"')
    if ref:
        plot += ', %g with lines dt 2 lw 2 lc rgb "#444444" title "%s"' % \
            (ref[0], ref[1])
    script.append(plot)
    r = subprocess.run(['gnuplot'], input='\n'.join(script) + '\n',
                       text=True, capture_output=True, check=False)
    if r.returncode != 0:
        print('bench_report: gnuplot failed for %s: %s' % (path, r.stderr),
              file=sys.stderr)
        return False
    return True


FO_WAYS = {
    'none': 'nothing broken (the noise floor)',
    'down': 'net2 down',
    'rdma-del': 'rxe2 deleted (rdma link delete)',
    'tc': 'RoCE into net2 dropped (tc), found by TEST_LINK',
    'carrier': 'net2 carrier lost (QEMU set_link)',
}


def fo_way_name(w):
    """"down" is host B's (the server's), "down@A" host A's"""
    base, host = (w[:-2], 'A, client') if w.endswith('@A') else \
        (w, 'B, server')
    return '%s, host %s' % (FO_WAYS.get(base, base), host)


def failover_rows(recs, order):
    """per way and module: the longest wait of the verified repetitions
    (median, min, max), and how many repetitions failed and why"""
    rows = []
    for w in order:
        row = {'way': w, 'modules': {}}
        for t in ('ours', 'distro'):
            rs = [r for r in recs if r.get('way') == w and
                  r.get('transport') == t]
            if not rs:
                continue
            ok = [r for r in rs if r.get('rc') == 0]
            row['modules'][t] = {
                'reps': len(rs), 'verified': len(ok),
                'longest_wait_ms': trio([r.get('longest_wait_ms')
                                         for r in ok]),
                'failed': [{'rep': r.get('rep'), 'rc': r.get('rc'),
                            'error': r.get('error'),
                            'longest_wait_ms': r.get('longest_wait_ms')}
                           for r in rs if r.get('rc') != 0],
                'client_group_after': sorted({str(r.get(
                    'client_group_after')) for r in ok}),
            }
        rows.append(row)
    return rows


def failover_cleanup(recs):
    """what stayed after a cell: a module that did not unload within
    30 s, or a host wedged for good"""
    return ['- after %s, %s rep %s: %s' % (
        fo_way_name(r.get('way')), transport_name(r.get('transport')),
        r.get('rep'), r['cleanup'])
        for r in sorted(recs, key=lambda r: r.get('seq', 0))
        if r.get('cleanup')]


def failover_table(rows):
    def cell(m):
        if not m:
            return '–'
        lw = m['longest_wait_ms']
        s = '–' if lw is None else '%s (%s–%s)' % (
            fmt(lw['median']), fmt(lw['min']), fmt(lw['max']))
        if m['verified'] < m['reps']:
            s += ' **%d of %d failed**' % (m['reps'] - m['verified'],
                                           m['reps'])
        return s
    md = ['| way, host broken | ours: longest wait, ms | distro: '
          'longest wait, ms | ours/distro | client group after |',
          '|---|---|---|---|---|']
    for r in rows:
        o, d = r['modules'].get('ours'), r['modules'].get('distro')
        ratio = None
        if o and d and o['longest_wait_ms'] and d['longest_wait_ms'] and \
                d['longest_wait_ms']['median']:
            ratio = o['longest_wait_ms']['median'] / \
                d['longest_wait_ms']['median']
        after = '; '.join('%s %s' % (t, '/'.join(m['client_group_after']))
                          for t, m in r['modules'].items())
        md.append('| %s | %s | %s | %s | %s |' % (
            fo_way_name(r['way']), cell(o), cell(d),
            '–' if ratio is None else '%.2f' % ratio, after))
    for r in rows:
        for t, m in r['modules'].items():
            for f in m['failed']:
                md.append('- %s, %s rep %s: %s' % (
                    fo_way_name(r['way']), transport_name(t), f['rep'],
                    f['error'] or 'failed (rc %s)' % f['rc']))
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--raw', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--mode', default='full')
    ap.add_argument('--git', default='unknown')
    ap.add_argument('--cpus', default='1')
    ap.add_argument('--mem', default='1536')
    ap.add_argument('--rig-rc', type=int, default=0)
    ap.add_argument('--wall', type=int, default=0)
    ap.add_argument('--strict', action='store_true')
    a = ap.parse_args()

    recs = load(a.raw)
    meta = next((r for r in recs if r.get('kind') == 'meta'), {})
    end = next((r for r in recs if r.get('kind') == 'end'), None)
    setups = [r for r in recs if r.get('kind') == 'setup']
    rsock = next((r for r in recs if r.get('kind') == 'rsocket'), None)
    skips = [r for r in recs if r.get('kind') == 'skip']
    broken = [r for r in recs if r.get('kind') == 'broken']
    # rep 0 is the rsocket probe
    cells = [r for r in recs if r.get('kind') == 'cell' and
             r.get('rep', 0) > 0]
    for c in cells:
        judge(c)
    rows = summarise(cells)
    pairs = paired(cells)
    fo_recs = [r for r in recs if r.get('kind') == 'failover']
    fo_rows = failover_rows(fo_recs, meta.get('fo_ways', '').split() or
                            sorted({r.get('way') for r in fo_recs}))

    gen_order = [w for w in meta.get('workloads', '').split()
                 if any(r['workload'] == w for r in rows)]
    tool_order = [w for w in TOOL_TESTS
                  if any(r['workload'] == w for r in rows)]
    bad = [c for c in cells if not c['valid']]
    bad_smc = [c for c in bad if is_smc(c['transport'])]
    complete = end is not None and a.rig_rc == 0

    settings = {
        'mode': a.mode,
        'git': a.git,
        'date_utc': datetime.datetime.now(datetime.timezone.utc)
        .strftime('%Y-%m-%dT%H:%M:%SZ'),
        'kernel': meta.get('kernel'),
        'kernel_B': meta.get('kernel_B'),
        'rig': {'hosts': 2, 'cpus_per_host': int(a.cpus),
                'mem_mb_per_host': int(a.mem),
                'guest_ncpu': meta.get('ncpu'),
                'guest_mem_kb': meta.get('mem_kb'),
                'accel': 'tcg', 'link': 'virtio-net over QEMU UDP sockets, '
                'rxe1 on net1 (10.9.1.1 <-> 10.9.1.2)'},
        'reps': meta.get('reps'), 'duration_s': meta.get('duration_s'),
        'warmup_s': meta.get('warmup_s'), 'tool_reps': meta.get('tool_reps'),
        'tool_duration_s': meta.get('tool_duration_s'),
        'generator': meta.get('generator'),
        'ours_srcversion': meta.get('ours_srcversion'),
        'distro_module': meta.get('distro_module'),
        'rxe': meta.get('rxe'),
        'rig_exit': a.rig_rc, 'complete': complete,
        'rig_wall_s': a.wall,
        'bench_wall_s': end.get('wall_s') if end else None,
    }
    result = {'settings': settings, 'module_setups': setups,
              'rsocket': rsock, 'skipped': skips, 'broken_records': broken,
              'summary': rows, 'paired': pairs, 'repetitions': cells,
              'failover': fo_rows, 'failover_repetitions': fo_recs,
              'invalid': [{'bench': c['bench'], 'workload': c['workload'],
                           'transport': c['transport'], 'rep': c['rep'],
                           'why': c['why']} for c in bad]}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, 'results.json'), 'w',
              encoding='utf-8') as f:
        json.dump(result, f, indent=1, sort_keys=False)
        f.write('\n')

    # charts
    charts = []
    for w in gen_order + tool_order:
        rs = [r for t in transport_order([x['transport'] for x in rows])
              for r in rows if r['workload'] == w and r['transport'] == t and
              r['bench'] != 'perftest']
        if not rs:
            continue
        m = rs[0]['metric']
        title = GEN_WORKLOADS.get(w) or TOOL_TESTS[w][0]
        ylabel = {'mb_per_s': 'MB/s (higher is better)',
                  'trans_per_s': 'transactions/s (higher is better)',
                  'conns_per_s': 'connections/s (higher is better)'}.get(
                      m, 'µs (lower is better)')
        ref = None
        if m == 'mb_per_s':
            raw = best_raw(rows, w) or best_raw(rows, 'STR1')
            ref = (raw, 'raw RDMA, 64 KiB (perftest)') if raw else None
        png = 'chart-%s.png' % w
        if chart(os.path.join(a.out, png), title + ' — median of %d' %
                 max(r['reps'] for r in rs), rs, ylabel, ref):
            charts.append((w, png))

    # markdown
    md = ['# SMC-R benchmark (%s run)' % a.mode, '']
    md += ['| | |', '|---|---|',
           '| date (UTC) | %s |' % settings['date_utc'],
           '| git | `%s` |' % a.git,
           '| kernel (both hosts) | %s |' % settings['kernel'],
           '| rig | 2 QEMU/TCG hosts, %s vCPU and %s MB each, Soft-RoCE '
           '(rxe1 on net1) |' % (a.cpus, a.mem),
           '| repetitions | %s × %s s (+%s s warm-up) per cell; real clients '
           '%s × %s s |' % (settings['reps'], settings['duration_s'],
                            settings['warmup_s'], settings['tool_reps'],
                            settings['tool_duration_s']),
           '| wall time | %s s in the rig (%s s measuring) |' %
           (a.wall, settings['bench_wall_s']),
           '| complete | %s |' % ('yes' if complete else
                                   '**no** (rig exit %d)' % a.rig_rc), '']
    if bad_smc:
        md += ['**%d SMC repetition(s) were not proven SMC-R and are left '
               'out of the numbers** (see "Invalid" below).' % len(bad_smc),
               '']
    md += ['## Generator workloads (tools/bench/smc_bench)', '',
           'Median, min and max over the valid repetitions. One unit '
           'throughout: MB is 10^6 bytes (perftest\'s MiB/s are '
           'converted). metric: trans/s for rr, MB/s for streams (the '
           'payload moved inside the measured window), conns/s for crr; '
           'the raw RDMA rows of rr workloads are perftest\'s one-way '
           'latency of the request size. ×TCP and ×distro are the ratios '
           'of the medians (higher is faster), ×raw a stream against the '
           'better of ib_write_bw (polling) and ib_send_bw -e (events) of '
           'its own groups. Latencies are the medians of the repetitions\' mean '
           'and p99 round trips. CPU is busy CPU time per transaction '
           '(per MB for streams) on host A (client) and host B (server), '
           'over the measured window.', '']
    md += md_table(rows, gen_order, lambda w: w, True)
    if pairs:
        md += ['', '## Paired ratios', '',
               'Each repetition runs every transport of a workload in one '
               'round-robin group; the ratio of two transports\' primary '
               'metric is taken inside each group, then summarised over '
               'the repetitions (median, min, max). Higher is faster.', '']
        md += pair_table(pairs)
    md += ['', '## Costs per operation', '',
           'Read by the generator on both hosts at the edges of the '
           'measured window (host B over its statistics connection), per '
           'transaction (per connection for crr, per MB for streams): busy '
           'CPU µs of the host, context switches (/proc/stat ctxt), '
           'NET_RX, IRQ_POLL and TASKLET softirqs (/proc/softirqs) and '
           'the packets rxe1 sent and received on host A. Medians over '
           'the repetitions.', '']
    md += cost_table(rows, gen_order)
    if tool_order:
        md += ['', '## Real clients (TCP plain, SMC under smc_run)', '',
               'qperf tcp_lat reports one-way latency (half the round trip);'
               ' sockperf ping-pong runs with --full-rtt. For latencies a '
               'ratio above 1 means slower.', '']
        md += md_table(rows, tool_order, lambda w: TOOL_TESTS[w][0], False)
    if fo_recs:
        f0 = fo_recs[0]
        md += ['', '## Failover', '',
               'A verified transfer of %s connections, %s bytes each way, '
               'over a group with two links (net2 holds an address in '
               'net1\'s subnet); the named host breaks its second path when '
               'a quarter of what it receives is in. The figure is the '
               'longest time a connection waited for data, on either side '
               '(median, min–max over the verified repetitions); "nothing '
               'broken" is the same transfer without a failure. Fresh '
               'modules and group per repetition; TEST_LINK every %s s on '
               'both hosts; a transfer without progress for %s s is cut and '
               'counted as failed. Lower is better.' % (
                   f0.get('conns'), f0.get('size'), f0.get('testlink_s'),
                   f0.get('limit_s')), '']
        md += failover_table(fo_rows)
        md += failover_cleanup(fo_recs)
        md += ['- %s, %s: %s' % (fo_way_name(k.get('workload', '')),
                                 transport_name(k.get('transport', '')),
                                 k.get('reason'))
               for k in skips if k.get('bench') == 'failover']
    md += ['', '## rsocket', '']
    if rsock is None:
        md.append('Not measured in this run.')
    elif rsock.get('ok'):
        md.append('rsocket (librspreload.so, `--family tcp`) ran over rxe: '
                  'every rsocket cell checks that rxe1 carried at least one '
                  'packet per transaction.  Ten rsocket connections at once '
                  '(RR10) deadlock in librdmacm\'s own service threads, not '
                  'in rxe: Documentation/networking/smc-bench.rst, '
                  '"rsocket".')
    else:
        md.append('**rsocket left out**: %s' % rsock.get('reason'))
    for s in skips:
        md.append('- %s left out: %s' % (' '.join(
            transport_name(v) for v in (s.get('bench'),
                                                 s.get('workload'),
                                                 s.get('transport')) if v),
            s.get('reason')))
    md += ['', '## How the SMC-R modules were configured', '']
    seen = {}
    for s in setups:
        k = (s.get('module'), s.get('rc'), s.get('msg') or '')
        seen[k] = seen.get(k, 0) + 1
    for (mod, rc, msg), n in seen.items():
        ueid = next((s.get('ueid') for s in setups
                     if s.get('module') == mod), '')
        if rc == 0:
            md.append('- %s smc.ko on both hosts (loaded %d time(s) in the '
                      'run), the same UEID `%s` on both hosts; net.smc '
                      'sysctls at their defaults (listed in results.json)'
                      % (mod, n, ueid))
        else:
            md.append('- %s smc.ko: set-up failed %d time(s): %s' %
                      (mod, n, msg))
    md += ['', '## Invalid or failed repetitions', '']
    if bad:
        for c in bad:
            md.append('- %s %s %s rep %s: %s' % (
                c['bench'], c['workload'],
                transport_name(c['transport']),
                c['rep'], c['why']))
    else:
        md.append('None: every SMC repetition raised the SMC-R handshake '
                  'counters on both hosts (smcr -j stats) with no fallback.')
    if charts:
        md += ['', '## Charts', '']
        md += ['![%s](%s)' % (w, p) for w, p in charts]
    with open(os.path.join(a.out, 'results.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(md) + '\n')

    rc = 0
    if a.strict:
        if not complete:
            print('bench_report: the run did not complete', file=sys.stderr)
            rc = 1
        if bad:
            print('bench_report: %d invalid or failed repetitions' % len(bad),
                  file=sys.stderr)
            rc = 1
        if not charts:
            rc = 1
        if 'ours' in meta.get('fo_transports', '').split() and \
                meta.get('fo_ways') and \
                not any(r.get('transport') == 'ours' for r in fo_recs):
            print('bench_report: no failover cell of ours', file=sys.stderr)
            rc = 1
        for r in fo_recs:
            if r.get('transport') == 'ours' and r.get('rc') != 0:
                print('bench_report: ours lost a failover transfer (%s): %s'
                      % (r.get('way'), r.get('error')), file=sys.stderr)
                rc = 1
        for t in meta.get('transports', '').split():
            if t != 'rsocket' and \
                    not any(r['transport'] == t and r['valid_reps']
                            for r in rows):
                print('bench_report: no valid %s cell' % t, file=sys.stderr)
                rc = 1
    return rc


if __name__ == '__main__':
    sys.exit(main())

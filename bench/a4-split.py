#!/usr/bin/env python3
"""Where the assignment-4 readers' slowest GETs spend their time (bench/reads.sh, part a4).

Usage: a4-split.py REQUESTS_CSV CLIENT_SAFEPOINTS SERVER_SAFEPOINTS METRICS_BEFORE METRICS_AFTER

Prints one CSV row (header with --header): the readers' GET /review p99 as the client saw it and
as the server timed it (its http.server.requests histogram, the difference of two scrapes around
the run: first filter -> response completed), the p99 of the writes' way in over the same run
(client send -> servlet, from X-Request-Start: the client, the network and Tomcat's queue, which
the GETs share; the server times it for writes only), and for the slowest 1% of the readers' GETs
how much of each one's time the client's JVM and the server's JVM spent stopped at a safepoint (GC
or any other VM operation; -Xlog:safepoint with timemillis), beside the same share for all the
GETs. A pause that overlaps a GET stalls it whole: a stopped client cannot read its response, a
stopped server cannot answer.
"""
import bisect
import csv
import math
import re
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

GET = "GET /review"
SERVER_GETS = ("http_server_requests_seconds",
               {"method": "GET", "status": "200", "uri": "/review/{albumID}"})
ARRIVALS = ("albumstore_write_stage_seconds", {"stage": "arrival"})
HEADER = ("gets,client_p99_ms,server_p99_ms,write_arrival_p99_ms,slow_n,slow_client_paused_pct,"
          "slow_server_paused_pct,slow_client_pause_share,slow_server_pause_share,all_client_paused_pct,"
          "all_server_paused_pct,client_pause_max_ms,server_pause_max_ms")


def pauses(path, lo, hi):
    """(start_ms, end_ms) of every safepoint that ended inside [lo, hi + 1 s]."""
    out = []
    pat = re.compile(r"^\[(\d+)ms\] Safepoint .*Total: (\d+) ns")
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                end, total = int(m.group(1)), int(m.group(2)) / 1e6
                if lo <= end <= hi + 1000:
                    out.append((end - total, float(end)))
    return sorted(out)


def overlap(ps, starts, a, b):
    """Milliseconds of [a, b] covered by the pauses ps (sorted, not overlapping)."""
    i = max(0, bisect.bisect_left(starts, a) - 1)
    total = 0.0
    while i < len(ps) and ps[i][0] < b:
        total += max(0.0, min(b, ps[i][1]) - max(a, ps[i][0]))
        i += 1
    return total


def buckets(path, metric, labels):
    """{le: cumulative count} of one histogram (its labels all in the line) in one scrape."""
    out = {}
    for line in open(path):
        if line.startswith(metric + "_bucket{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            le = re.search(r'le="([^"]+)"', line).group(1)
            out[math.inf if le == "+Inf" else float(le)] = float(line.rsplit(" ", 1)[1])
    return out


def quantile_ms(before, after, metric, labels, q):
    """The histogram's q-quantile over the run (the two scrapes' difference): its bucket's upper
    bound, in ms."""
    a, b = buckets(after, metric, labels), buckets(before, metric, labels)
    delta = sorted((le, a[le] - b.get(le, 0.0)) for le in a)
    if not delta or delta[-1][1] <= 0:
        return float("nan")
    target = q * delta[-1][1]
    return next(le for le, n in delta if n >= target) * 1000


def p99_ms(before, after, metric, labels):
    return quantile_ms(before, after, metric, labels, 0.99)


def main(argv):
    if argv[1:] == ["--header"]:
        print(HEADER)
        return
    req, client_sp, server_sp, m0, m1 = argv[1:6]
    gets = [(int(r["start_time"]), float(r["latency_ms"])) for r in csv.DictReader(open(req))
            if r["request_type"] == GET and r["response_code"] == "200"]
    if not gets:
        print(",".join(["0"] + ["nan"] * HEADER.count(",")))
        return
    lo, hi = min(s for s, _ in gets), max(s + l for s, l in gets)
    cp, sp = pauses(client_sp, lo, hi), pauses(server_sp, lo, hi)
    cs, ss = [p[0] for p in cp], [p[0] for p in sp]
    by_latency = sorted(gets, key=lambda g: g[1])
    p99 = by_latency[max(0, math.ceil(0.99 * len(by_latency)) - 1)][1]
    slow = [g for g in by_latency if g[1] >= p99]

    def shares(sample):
        c = [overlap(cp, cs, s, s + l) for s, l in sample]
        v = [overlap(sp, ss, s, s + l) for s, l in sample]
        busy = sum(l for _, l in sample)
        return (100.0 * sum(1 for x in c if x > 0) / len(sample),
                100.0 * sum(1 for x in v if x > 0) / len(sample),
                sum(c) / busy if busy else 0.0, sum(v) / busy if busy else 0.0)

    sc, sv, scs, svs = shares(slow)
    ac, av, _, _ = shares(gets)
    cmax = max((e - s for s, e in cp), default=0.0)
    smax = max((e - s for s, e in sp), default=0.0)
    server, arrival = p99_ms(m0, m1, *SERVER_GETS), p99_ms(m0, m1, *ARRIVALS)
    print(f"{len(gets)},{p99:.2f},{server:.2f},{arrival:.2f},{len(slow)},{sc:.1f},{sv:.1f},"
          f"{scs:.3f},{svs:.3f},{ac:.1f},{av:.1f},{cmax:.1f},{smax:.1f}")


if __name__ == "__main__":
    main(sys.argv)

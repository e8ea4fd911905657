#!/usr/bin/env python3
"""Where a client's start goes, from a class-loading log (-Xlog:class+load:file=LOG:uptime).

    bench/class-load-segments.py LOG

Cuts the log at the first load of the classes that mark the client's start-up steps (ClientMain,
LoadRun, NettyTransport, AsyncAlbumStoreApi, TierSampler, IntervalLogs, VirtualUser) and prints per
segment the uptime it ends at and the classes loaded in it, then the JFR classes (Netty's allocator
events) and what the tier sampler's segment loaded (TLS, the JDK HTTP client).
"""
import re
import sys

MARKS = [
    ("JVM start to ClientMain", "org.albumstore.client.ClientMain"),
    ("command line (picocli) and settings", "org.albumstore.client.LoadRun"),
    ("statistics, report set-up", "org.albumstore.client.internal.http.NettyTransport"),
    ("Netty transport, first connection (and any JFR event types)",
     "org.albumstore.client.internal.http.AsyncAlbumStoreApi"),
    ("preflight request (Jackson)", "org.albumstore.client.internal.tiers.TierSampler"),
    ("tier sampler: its HTTP clients and first scrapes",
     "org.albumstore.client.internal.stats.IntervalLogs"),
    ("interval logs, timeline, thread groups", "org.albumstore.client.internal.workload.VirtualUser"),
]


def uptime(line):
    return float(re.match(r"\[(\d+\.\d+)s\]", line).group(1))


def first(lines, cls, start=0):
    return next(i for i in range(start, len(lines)) if f" {cls} " in lines[i])


def main():
    lines = [l for l in open(sys.argv[1]).read().splitlines() if re.match(r"\[\d+\.\d+s\] ", l)]
    print("%-62s %7s %7s" % ("segment (ends when its class loads)", "ends s", "classes"))
    prev = 0
    for name, cls in MARKS:
        i = first(lines, cls)
        print("%-62s %7.3f %7d" % (name, uptime(lines[i]), i - prev))
        prev = i
    jfr = [l for l in lines if " jdk.jfr." in l]
    n0 = first(lines, "org.albumstore.client.internal.http.NettyTransport")
    n1 = first(lines, "org.albumstore.client.internal.http.AsyncAlbumStoreApi", n0)
    in_netty = [l for l in lines[n0:n1] if " jdk.jfr." in l]
    if jfr:
        print(f"\njdk.jfr classes: {len(jfr)}, loaded {uptime(jfr[0]):.3f}-{uptime(jfr[-1]):.3f} s")
    if len(in_netty) > 1:
        print(f"  of them in the Netty transport's segment: {len(in_netty)}, "
              f"{uptime(in_netty[0]):.3f}-{uptime(in_netty[-1]):.3f} s")
    a = first(lines, "org.albumstore.client.internal.tiers.TierSampler")
    b = first(lines, "org.albumstore.client.internal.stats.IntervalLogs", a)
    seg = lines[a:b]
    count = lambda p: sum(1 for l in seg if f" {p}" in l)
    print(f"tier sampler's segment: {len(seg)} classes; sun.security.* {count('sun.security.')}, "
          f"javax.net.ssl {count('javax.net.ssl')}, jdk.internal.net.http {count('jdk.internal.net.http')}, "
          f"java.net.http {count('java.net.http')}")


if __name__ == "__main__":
    main()

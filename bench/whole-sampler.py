#!/usr/bin/env python3
"""Samples one tool's whole run every second, in one process (no command spawned per sample).

    bench/whole-sampler.py PID METRICS_URL TAG TIMELINE.csv JIT_AT LIMIT_S

Until PID exits (or LIMIT_S seconds pass), every second it appends "TAG,t,served,cpu_s,jit_s" to
TIMELINE.csv: t = seconds since the sampler started (the tool's launch), served = the requests the
server answered since then (its http_server_requests_seconds_count on the do-nothing endpoint, read
over one kept-alive connection), cpu_s and jit_s = CPU seconds of PID and of its C1/C2 compiler
threads so far ('-' when PID is not a JVM). Prints "cpu_at_JIT_AT jit_at_JIT_AT cpu_total" at the
end ('-' when not known).
"""
import http.client
import os
import sys
import time
import urllib.parse

from procstat import alive, cpu_seconds

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)


def served(conn, path):
    conn.request("GET", path)
    body = conn.getresponse().read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.splitlines()
               if line.startswith("http_server_requests_seconds_count{") and 'uri="UNKNOWN"' in line)


def cpu_and_jit(pid):
    """(process CPU s, JIT threads' CPU s), or None when pid is gone or not a JVM."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            if f.read().strip() != "java":
                return None
        total = cpu_seconds(f"/proc/{pid}/stat")
        jit = 0.0
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/comm") as f:
                    name = f.read()
                if name.startswith(("C1 CompilerThre", "C2 CompilerThre")):
                    jit += cpu_seconds(f"/proc/{pid}/task/{task}/stat")
            except OSError:
                continue  # a thread that ended meanwhile
        return total, jit
    except OSError:
        return None


def main():
    pid, url, tag, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    jit_at, limit = float(sys.argv[5]), float(sys.argv[6])
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    start, n0 = time.monotonic(), served(conn, u.path)
    at15, last = None, None
    with open(out, "a") as rows:
        while alive(pid) and time.monotonic() - start < limit:
            time.sleep(1 - (time.monotonic() - start) % 1)
            t = time.monotonic() - start
            c = cpu_and_jit(pid)
            n = served(conn, u.path) - n0
            last = c or last
            if at15 is None and c and t >= jit_at:
                at15 = c
            cpu, jit = (f"{c[0]:.2f}", f"{c[1]:.2f}") if c else ("-", "-")
            rows.write(f"{tag},{t:.2f},{n:.0f},{cpu},{jit}\n")
            rows.flush()
    fmt = lambda v: f"{v:.2f}" if v is not None else "-"
    print(fmt(at15 and at15[0]), fmt(at15 and at15[1]), fmt(last and last[0]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A process's CPU seconds per thread, by thread name, sampled every second until it exits.

    bench/thread-cpu.py PID [LIMIT_S=600]

Threads of one pool are summed under their name without its number (e.g. "epollEventLoopGroup-N-N").
Prints one "seconds name" line per name, largest first, from the last sample before the exit, and
the process's total (threads that ended between samples are counted up to their last sample).
"""
import os
import re
import sys
import time

from procstat import alive, cpu_seconds

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)


def sample(pid):
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
            threads[tid] = (name, cpu_seconds(f"/proc/{pid}/task/{tid}/stat"))
        except OSError:
            continue
    return threads


def main():
    pid, limit = int(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 600
    seen, start = {}, time.monotonic()
    while alive(pid) and time.monotonic() - start < limit:
        try:
            seen.update(sample(pid))
        except OSError:
            break
        time.sleep(1)
    by_name = {}
    for name, secs in seen.values():
        key = re.sub(r"(?<=[-#])\d+", "N", name)
        by_name[key] = by_name.get(key, 0) + secs
    for name, secs in sorted(by_name.items(), key=lambda kv: -kv[1]):
        print(f"{secs:8.2f} {name}")
    print(f"{sum(by_name.values()):8.2f} all threads")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The assignment-4 readers' median per run, as the client and as the server timed it.

Usage: a4-server-p50.py NAME [WORK_DIR]

For every run folder of bench/reads.sh's part a4 named NAME (WORK_DIR/runs/NAME-a4-VARIANT-rREP,
default WORK_DIR bench/target/work), prints one line: the variant and repeat, the readers'
GET /review count, their p50 as the client measured it (requests.csv), and the p50 and p90 of the
same GETs in the server's own histogram (http.server.requests, first filter to the response's
completion: the difference of the scrapes before and after the run; each figure is its bucket's
upper bound), and how many read queries the server asked over the run
(albumstore_read_group_queries_total, lone ones included; empty for a build without group reads):
as many as the GETs means each GET was its own one-row query. Reuses a4-split.py's readers.
"""
import csv
import glob
import importlib.util
import os
import sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("a4split", os.path.join(HERE, "a4-split.py"))
a4split = importlib.util.module_from_spec(spec)
spec.loader.exec_module(a4split)


def counter(path, name):
    """The value of an unlabelled counter in a Prometheus scrape, or None."""
    with open(path) as f:
        for line in f:
            if line.startswith(name + " "):
                return float(line.split()[1])
    return None


def queries(before, after):
    """Read queries asked between the scrapes, or '' when the build does not count them."""
    name = "albumstore_read_group_queries_total"
    b, a = counter(before, name), counter(after, name)
    return "" if a is None or b is None else f"{a - b:.0f}"


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    work = argv[2] if len(argv) > 2 else os.path.join(HERE, "target", "work")
    print("run,gets,client_p50_ms,server_p50_ms,server_p90_ms,server_queries")
    for run in sorted(glob.glob(os.path.join(work, "runs", f"{argv[1]}-a4-*-r*"))):
        if not os.path.isdir(run):
            continue
        with open(os.path.join(run, "requests.csv")) as f:
            gets = sorted(float(r["latency_ms"]) for r in csv.DictReader(f)
                          if r["request_type"] == a4split.GET and r["response_code"] == "200")
        if not gets:
            continue
        before, after = run + ".metrics-before", run + ".metrics-after"
        print(f"{run.rsplit('-a4-', 1)[1]},{len(gets)},{gets[len(gets) // 2]:.2f},"
              f"{a4split.quantile_ms(before, after, *a4split.SERVER_GETS, 0.5):.2f},"
              f"{a4split.quantile_ms(before, after, *a4split.SERVER_GETS, 0.9):.2f},"
              f"{queries(before, after)}")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""Runs the consumer (argv after --), INSTANCES times at once, and times how fast they apply a known
backlog together.

Reads each instance's once-a-second log line ("applied X msg/s ... avg batch B msgs over S s ...
(totals: N msgs, ...") as it is written, stamps each with a monotonic clock, and stops every
instance (SIGTERM) once their totals together reach the target or the time limit passes. Rate =
messages applied between the first line that shows progress and the line that reaches the target,
over the time between them (the JVM starts and the first second are excluded; the error is one
stats interval at most). Commits: the database transactions (batches) in the same lines, X/B per
second each.

  drain-watch.py [--instances N] TARGET LIMIT_SECONDS LOG TIMELINE_CSV -- java -jar consumer.jar ...
With N > 1, instance i logs to LOG with "-i" before its extension.
prints: "rate_msgs_per_s avg_batch seconds applied commits_per_s"
"""
import os, queue, re, signal, subprocess, sys, threading, time

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

args = sys.argv[1:]
instances = 1
if args[0] == "--instances":
    instances, args = int(args[1]), args[2:]
target, limit, log_path, timeline = int(args[0]), float(args[1]), args[2], args[3]
cmd = args[args.index("--") + 1:]
line_re = re.compile(r"applied (\d+) msg/s.*avg batch ([\d.]+) msgs over ([\d.]+) s.*totals: (\d+) msgs")


def log_of(i):
    if instances == 1:
        return log_path
    base, ext = os.path.splitext(log_path)
    return f"{base}-{i + 1}{ext}"


events = queue.Queue()


def read(i, p):
    with open(log_of(i), "w") as log:
        for line in p.stdout:
            log.write(line)
            m = line_re.search(line)
            if m:
                events.put((time.monotonic(), i, int(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4))))
    events.put((time.monotonic(), i, None, None, None, None))


t_start = time.monotonic()
procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
         for _ in range(instances)]
readers = [threading.Thread(target=read, args=(i, p), daemon=True) for i, p in enumerate(procs)]
for r in readers:
    r.start()
totals = [0] * instances
ended = 0
first = None
last = None
batches = []
commits = 0.0
with open(timeline, "w") as tl:
    tl.write("t_s,instance,applied_msgs_per_s,avg_batch,total\n")
    deadline = t_start + limit
    while time.monotonic() < deadline and ended < instances:
        try:
            now, i, rate, batch, secs, total = events.get(timeout=0.5)
        except queue.Empty:
            continue
        if rate is None:
            ended += 1
            continue
        tl.write(f"{now - t_start:.2f},{i + 1},{rate},{batch},{total}\n")
        totals[i] = total
        together = sum(totals)
        if together > 0 and first is None:
            first = (now, together)
        elif first is not None and rate > 0:
            batches.append(batch)
            commits += rate * secs / batch if batch > 0 else 0
        last = (now, together)
        if together >= target:
            break
for p in procs:
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
for p in procs:
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
for r in readers:
    r.join(timeout=5)
if first is None or last is None or last[0] <= first[0]:
    print("nan nan nan 0 nan")
else:
    secs = last[0] - first[0]
    avg_batch = sum(batches) / len(batches) if batches else float("nan")
    print(f"{(last[1] - first[1]) / secs:.1f} {avg_batch:.1f} {secs:.1f} {last[1]} {commits / secs:.1f}")

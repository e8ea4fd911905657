#!/usr/bin/env python3
"""Runs the consumer (argv after --) and times how fast it applies a known backlog.

Reads the consumer's once-a-second log line ("applied X msg/s ... (totals: N msgs, ...") as it is
written, stamps each with a monotonic clock, and stops the consumer (SIGTERM) once the totals reach
the target or the time limit passes. Rate = messages applied between the first line that shows
progress and the line that reaches the target, over the time between them (the JVM start and the
first second are excluded; the error is one stats interval at most).

  drain-watch.py TARGET LIMIT_SECONDS LOG TIMELINE_CSV -- java -jar consumer.jar ...
prints: "rate_msgs_per_s avg_batch seconds applied"
"""
import re, signal, subprocess, sys, time

target, limit, log_path, timeline = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
cmd = sys.argv[sys.argv.index("--") + 1:]
line_re = re.compile(r"applied (\d+) msg/s.*avg batch ([\d.]+) msgs.*totals: (\d+) msgs")
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
t_start = time.monotonic()
first = None
last = None
batches = []
with open(log_path, "w") as log, open(timeline, "w") as tl:
    tl.write("t_s,applied_msgs_per_s,avg_batch,total\n")
    deadline = t_start + limit
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        log.write(line)
        m = line_re.search(line)
        if not m:
            continue
        now = time.monotonic()
        rate, batch, total = int(m.group(1)), float(m.group(2)), int(m.group(3))
        tl.write(f"{now - t_start:.2f},{rate},{batch},{total}\n")
        if total > 0 and first is None:
            first = (now, total)
        if first is not None and rate > 0:
            batches.append(batch)
        last = (now, total)
        if total >= target:
            break
    p.send_signal(signal.SIGTERM)
    try:
        rest, _ = p.communicate(timeout=30)
        log.write(rest or "")
    except subprocess.TimeoutExpired:
        p.kill()
if first is None or last is None or last[0] <= first[0]:
    print("nan nan nan 0")
else:
    secs = last[0] - first[0]
    avg_batch = sum(batches) / len(batches) if batches else float("nan")
    print(f"{(last[1] - first[1]) / secs:.1f} {avg_batch:.1f} {secs:.1f} {last[1]}")

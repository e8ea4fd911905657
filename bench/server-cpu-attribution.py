#!/usr/bin/env python3
"""Where the server's CPU goes, from async-profiler collapsed stacks recorded with `threads`
(bench/profile-server-cpu.sh): shares of the samples by thread and by stage of the write path.
JIT compiler threads and the main thread (startup) are left out: they are not a cost per request.

   bench/server-cpu-attribution.py FILE.collapsed"""
import collections, re, sys

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

# (thread name contains, a frame contains, label): the first matching rule wins.
RULES = [
    ("exec", "AbstractProcessor.dispatch", "tomcat: async completion dispatch (asyncDispatch, finishResponse, its write)"),
    ("exec", "Http11Processor.service", "tomcat: the request (parse, filters, servlet, asyncPostProcess)"),
    ("exec", "ThreadPoolExecutor.getTask", "tomcat: worker hand-off (TaskQueue poll, park, unpark)"),
    ("exec", "", "tomcat: worker other (socket processor, keep-alive)"),
    ("publisher", "EventCodec.encode", "publisher: JSON encoding of the message"),
    ("publisher", "basicPublish", "publisher: basicPublish"),
    ("publisher", "PendingWrite.confirmed", "publisher: answering (futures, responses, complete())"),
    ("publisher", "LinkedBlockingQueue.poll", "publisher: publish-queue poll"),
    ("publisher", "waitForConfirms", "publisher: confirm wait"),
    ("publisher", "", "publisher: other"),
    ("Poller", "", "tomcat: poller"),
    ("GC", "", "GC"),
    ("AMQP", "", "AMQP connection thread (confirms in)"),
]
# Frames counted across all threads, beside the stages.
FRAMES = ["micrometer", "RandomUuids", "ReviewServlet.vote", "RequestMetricsFilter", "InFlightFilter",
          "ConnectionHandler.register"]  # JMX registration of a newly built request processor

cats, frames, total = collections.Counter(), collections.Counter(), 0
for line in open(sys.argv[1]):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if not stack:
        continue
    c, fr = int(count), stack.split(";")
    thread = fr[0]
    if "CompilerThre" in thread or thread.startswith("[main ") or "Sweeper" in thread:
        continue
    total += c
    for f in FRAMES:
        if any(f in x for x in fr):
            frames[f] += c
    for t, frame, label in RULES:
        if t in thread and (not frame or any(frame in x for x in fr)):
            cats[label] += c
            break
    else:
        cats["other: " + re.sub(r"\d+", "N", thread)] += c
total = max(total, 1)
print(f"samples (without JIT and startup): {total}")
for k, v in cats.most_common():
    if 100 * v / total >= 0.5:
        print(f"{100 * v / total:5.1f}% {k}")
print("--- inclusive (the frame anywhere in the stack) ---")
for f in FRAMES:
    print(f"{100 * frames[f] / total:5.1f}% {f}")

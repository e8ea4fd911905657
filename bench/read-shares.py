#!/usr/bin/env python3
"""Shares of a read profile (async-profiler collapsed stacks, bench/profile-server-cpu.sh with
PROFILE_PATH) spent in the parts of a GET: the JDBC round trip, HikariCP, the response, hand-offs.

   bench/read-shares.py FILE.collapsed ..."""
import sys, collections
keys = [("all request work (ApiServlet/Fallback service)", "jakarta/servlet/http/HttpServlet.service"),
        ("JDBC executeQuery (whole round trip)", "PgPreparedStatement.executeQuery"),
        ("  of it: socket write (flush)", "PGStream.flush"),
        ("  of it: socket read (wait for the answer)", "PGStream.receiveChar"),
        ("  of it: query timeout timer (start/cancel)", "PgStatement.startTimer"),
        ("HikariCP getConnection (borrow, incl. waiting)", "HikariPool.getConnection"),
        ("HikariCP close (return, hand-off to a waiter)", "ProxyConnection.close"),
        ("prepareStatement (driver's statement cache)", "ProxyConnection.prepareStatement"),
        ("response written (Responses.json)", "org/albumstore/server/internal/web/Responses.json"),
        ("Tomcat poller -> worker hand-off (TaskQueue.offer)", "TaskQueue.offer"),
        ("group reads: a GET waiting for its group's answer (park)", "CompletableFuture$Signaller.block"),
        ("group reads: the reader waking the GETs it answered (unpark)", "CompletableFuture.postComplete"),
        ("GC threads", "[GC Thread"),
        ]
for path in sys.argv[1:]:
    total = 0; inc = collections.Counter()
    for line in open(path):
        stack, _, c = line.rstrip("\n").rpartition(" ")
        if not stack or "Compiler" in stack.split(";")[0] or "CompileBroker" in stack:
            continue
        c = int(c); total += c
        for name, k in keys:
            if k in stack:
                inc[name] += c
    print(f"{path.split('/')[-1]}: {total} samples (JIT compiler threads left out)")
    for name, _ in keys:
        print(f"  {100 * inc[name] / total:5.1f}%  {name}")

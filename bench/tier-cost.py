#!/usr/bin/env python3
"""The CPU of every tier of one `albumstore-local.jar --topology cluster` run.

  tier-cost.py snapshot LAUNCHER_PID DB RUN_LOG AFTER_S OUT.json
      waits (bounded) for the client's progress line of second AFTER_S in RUN_LOG, then at once
      records the CPU seconds (/proc/PID/stat, user + system) of every process the launcher
      started (its descendants: each server JVM, each consumer JVM, each RabbitMQ node's beam.smp
      and its helpers, HAProxy), of the launcher itself (the client runs in it), of PostgreSQL
      (the backends of DB and the server's shared processes: postmaster, checkpointer, WAL writer,
      ...; backends of other databases are left out), the client's request count, the servers'
      and consumers' counters (/metrics) and the bytes the broker received on the servers'
      publishing connections (management API of the launcher's cluster).
  tier-cost.py pgcpu DB [PID]
      prints the CPU seconds PostgreSQL has used for DB (its backends and the shared processes, as
      in a snapshot); with PID, sampled every 0.1 s until process PID ends, each process counted at
      its last sample (backends that exit take their CPU with them): bench/pg-ceiling.sh's cost.
  tier-cost.py row FIRST0 FIRST1 SECOND0 SECOND1 [--header] KEY=VALUE...
      prints one CSV row (the header with --header): per tier the CPU µs per request in the window
      of the higher rate, the marginal µs per request between the two windows, the requests, writes per broker message, wire bytes per message, messages
      per transaction.
Standard library only; reads /proc and loopback HTTP only.
"""
import json
import os
import re
import sys
import time
import urllib.request

if sys.argv[1:2] in (["--help"], ["-h"]):  # the usage is the docstring (BenchScriptsTest)
    print(__doc__)
    sys.exit(0)

HZ = os.sysconf("SC_CLK_TCK")
PG_AUX = ("checkpointer", "walwriter", "background writer", "autovacuum launcher",
          "logical replication launcher", "stats collector", "archiver", "walsummarizer")
TIERS = ("client", "server", "consumer", "rabbit", "haproxy", "postgres")


def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        s = f.read()
    rest = s[s.rindex(")") + 2:].split()
    return int(rest[1]), (int(rest[11]) + int(rest[12])) / HZ  # ppid, cpu seconds


def comm(pid):
    with open(f"/proc/{pid}/comm") as f:
        return f.read().strip()


def cmdline(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode(errors="replace").strip()


def processes():
    procs = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid, cpu = stat(d)
                procs[int(d)] = {"ppid": ppid, "cpu": cpu, "comm": comm(d), "cmd": cmdline(d)}
            except (OSError, ValueError):
                pass
    return procs


def classify(procs, launcher, db):
    """{process key: cpu seconds}; keys are tier:instance:pid."""
    children = {}
    for pid, p in procs.items():
        children.setdefault(p["ppid"], []).append(pid)
    out = {}

    def walk(pid, owner):
        p = procs[pid]
        c, cmd = p["comm"], p["cmd"]
        if pid == launcher:
            owner = "client:launcher"
        elif c == "java" and ("ServerMain" in cmd or "AlbumStoreServer" in cmd):
            owner = f"server:{pid}"
        elif c == "java" and "ConsumerMain" in cmd:
            owner = f"consumer:{pid}"
        elif c == "beam.smp":
            owner = f"rabbit:beam{pid}"  # one per node (and any short-lived CLI VM)
        elif c == "haproxy":
            owner = "haproxy:haproxy"
        elif owner == "client:launcher":
            owner = "client:other-child"  # e.g. the scripts that start the nodes, before exec
        out[f"{owner}:{pid}"] = p["cpu"]
        for ch in children.get(pid, []):
            walk(ch, owner)

    if launcher in procs:
        walk(launcher, "client:launcher")
    for pid, p in procs.items():
        if p["comm"] != "postgres" and not p["cmd"].startswith("postgres:"):
            continue
        title = p["cmd"]
        if not title.startswith("postgres:"):
            out[f"postgres:postmaster:{pid}"] = p["cpu"]
        elif any(a in title for a in PG_AUX) and "(" not in title:  # e.g. "postgres: 16/main: walwriter"
            out[f"postgres:shared:{pid}"] = p["cpu"]
        elif f" {db} " in f"{title} ":
            out[f"postgres:{db}:{pid}"] = p["cpu"]
    return out


def machine_busy():
    """CPU seconds the whole machine has been busy (all cores, /proc/stat: not idle, not iowait)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / HZ


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def prom_sum(text, name):
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def endpoints(log):
    """Server metrics URLs, consumer metrics URLs and the management API from the launcher's log."""
    servers, consumers, api = [], [], None
    for line in log.splitlines():
        m = re.search(r"servers: \d+ JVMs on ports \[([\d, ]+)\]", line)
        if m:
            servers = [f"http://127.0.0.1:{p.strip()}/albumstore/metrics" for p in m.group(1).split(",")]
        m = re.search(r"--consumer-metrics (\S+)", line)
        if m:
            consumers = m.group(1).split(",")
        m = re.search(r"--rmq-api (\S+)", line)
        if m:
            api = m.group(1)
    return servers, consumers, api


def snapshot(launcher, db, run_log, after_s, out):
    launcher, after_s = int(launcher), float(after_s)
    deadline = time.time() + 600
    requests = elapsed = None
    while time.time() < deadline:
        with open(run_log, errors="replace") as f:
            log = f.read()
        lines = re.findall(r"^time (\d+) s, requests (\d+),", log, re.M)
        if lines and float(lines[-1][0]) >= after_s:
            elapsed, requests = float(lines[-1][0]), int(lines[-1][1])
            break
        if not os.path.exists(f"/proc/{launcher}"):
            sys.exit(f"launcher {launcher} ended before second {after_s} of the load")
        time.sleep(0.05)
    if requests is None:
        sys.exit(f"no progress line of second {after_s} within 600 s")
    t = time.time()
    cpu = classify(processes(), launcher, db)
    machine = machine_busy()
    servers, consumers, api = endpoints(log)
    m = {"bundles": 0.0, "bundle_writes": 0.0, "transactions": 0.0, "batch_messages": 0.0,
         "albums_inserted": 0.0, "reviews_applied": 0.0, "publish_bytes": 0.0}
    for u in servers:
        text = get(u)
        m["bundles"] += prom_sum(text, "albumstore_publish_bundle_writes_count")
        m["bundle_writes"] += prom_sum(text, "albumstore_publish_bundle_writes_sum")
    for u in consumers:
        text = get(u)
        m["transactions"] += prom_sum(text, "albumstore_consumer_batch_messages_count")
        m["batch_messages"] += prom_sum(text, "albumstore_consumer_batch_messages_sum")
        m["albums_inserted"] += prom_sum(text, "albumstore_consumer_albums_inserted_total")
        m["reviews_applied"] += prom_sum(text, "albumstore_consumer_reviews_applied_total")
    if api:
        req = urllib.request.Request(api + "/api/connections?columns=name,client_properties,recv_oct")
        req.add_header("Authorization", "Basic Z3Vlc3Q6Z3Vlc3Q=")  # guest:guest, the test nodes'
        with urllib.request.urlopen(req, timeout=5) as r:
            for c in json.load(r):
                name = (c.get("client_properties") or {}).get("connection_name", "")
                if name == "albumstore-server":
                    m["publish_bytes"] += c.get("recv_oct") or 0
    json.dump({"time": t, "elapsed": elapsed, "machine_busy": machine, "requests": requests, "cpu": cpu, "metrics": m,
               "servers": len(servers), "consumers": len(consumers)}, open(out, "w"))


COLUMNS = (["us_" + t for t in TIERS] + ["us_total"] + ["dus_" + t for t in TIERS]
           + ["dus_total", "rps_low", "rps", "window_s", "requests", "writes_per_msg",
              "bytes_per_msg", "msgs_per_txn", "txn_per_s", "albums_per_s", "reviews_per_s",
              "us_pg_db", "us_pg_shared", "rabbit_nodes_us", "servers_us", "consumers_us"])


def window(s0, s1):
    """CPU seconds per tier and instance, requests, seconds and counter deltas of one window."""
    a, b = json.load(open(s0)), json.load(open(s1))
    per = {t: 0.0 for t in TIERS}
    inst, pg = {}, {"db": 0.0, "shared": 0.0}
    for key, cpu in b["cpu"].items():
        d = cpu - a["cpu"].get(key, 0.0)  # a process started in the window counts from 0
        tier, instance, _ = key.split(":", 2)
        per[tier] += d
        inst[(tier, instance)] = inst.get((tier, instance), 0.0) + d
        if tier == "postgres":
            pg["shared" if instance in ("shared", "postmaster") else "db"] += d
    dm = {k: b["metrics"][k] - a["metrics"][k] for k in b["metrics"]}
    return per, inst, pg, b["requests"] - a["requests"], b["time"] - a["time"], dm


def row(first, second, extra):
    """first and second: (snapshot, snapshot) of the two rate steps, in either order. us_*: CPU µs
    per request at the higher rate; dus_*: the marginal cost, (CPU/s at high - CPU/s at low) /
    (req/s at high - req/s at low), i.e. without the tiers' cost of running idle."""
    a, b = window(*first), window(*second)
    if a[3] / a[4] > b[3] / b[4]:
        a, b = b, a
    per_l, _, _, n_l, t_l, _ = a
    per, inst, pg, n, t, dm = b
    x_l, x = n_l / t_l, n / t
    us = lambda sec: 1e6 * sec / n if n else float("nan")
    # one rate (the closed model's two windows): no marginal cost
    dus = lambda tier: 1e6 * (per[tier] / t - per_l[tier] / t_l) / (x - x_l) if x - x_l > 0.05 * x else float("nan")
    ratio = lambda p, q: p / q if q else float("nan")
    each = lambda tier: "/".join(f"{us(v):.1f}" for (k, _), v in sorted(inst.items()) if k == tier)
    vals = ([f"{us(per[k]):.1f}" for k in TIERS] + [f"{us(sum(per.values())):.1f}"]
            + [f"{dus(k):.1f}" for k in TIERS] + [f"{sum(dus(k) for k in TIERS):.1f}"]
            + [f"{x_l:.1f}", f"{x:.1f}", f"{t:.2f}", str(n),
               f"{ratio(dm['bundle_writes'], dm['bundles']):.2f}",
               f"{ratio(dm['publish_bytes'], dm['bundles']):.0f}",
               f"{ratio(dm['batch_messages'], dm['transactions']):.2f}",
               f"{dm['transactions'] / t:.1f}", f"{dm['albums_inserted'] / t:.1f}",
               f"{dm['reviews_applied'] / t:.1f}", f"{us(pg['db']):.1f}", f"{us(pg['shared']):.1f}",
               each("rabbit"), each("server"), each("consumer")])
    return [v for _, v in extra] + vals


def main():
    if sys.argv[1] == "snapshot":
        snapshot(*sys.argv[2:7])
    elif sys.argv[1] == "pgcpu":
        seen = {}
        while True:
            cpu = classify(processes(), -1, sys.argv[2])
            # by PID: a backend just forked still has the postmaster's title, then gets its own
            seen.update({k.rsplit(":", 1)[1]: (k, v) for k, v in cpu.items()})
            if len(sys.argv) < 4 or not os.path.exists(f"/proc/{sys.argv[3]}"):
                break
            time.sleep(0.1)
        print(f"{sum(v for k, v in seen.values() if k.startswith('postgres:')):.2f}")
    elif sys.argv[1] == "row":
        extra = [kv.split("=", 1) for kv in sys.argv[6:] if kv != "--header"]
        if "--header" in sys.argv:
            print(",".join([k for k, _ in extra] + COLUMNS))
        print(",".join(row(sys.argv[2:4], sys.argv[4:6], extra)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bench/emulated.sh's helper: each process of one cluster-topology run in a CPU group of its own.

  emulated.py place LAUNCHER ROOT
      until process LAUNCHER ends, every 0.1 s: moves each process the launcher started into its
      group under ROOT (a group name relative to the cpu and cpuacct hierarchies, e.g. emu.123):
      the server JVMs (server1, server2, ... in the order they appear), the consumer JVMs
      (consumer1, ...), each RabbitMQ node's beam.smp with its helpers (rabbitN, N from the
      node's directory name node-N), HAProxy (haproxy). The launcher and what else it starts
      (the scripts and CLI VMs of the nodes' start) stay in the group the launcher was started in
      (client). Processes are found as the launcher's descendants, never by name alone.
  emulated.py snap ROOT RUN_LOG AFTER_S OUT.json [LAUNCHER]
      waits (bounded; not past the end of process LAUNCHER) for the client's progress line of
      second AFTER_S, then records each group's
      CPU seconds (cpuacct.usage: processes that exited included), its CFS counters (cpu.stat:
      periods, throttled periods, throttled time), the client's request count, the writes the
      consumers applied and the servers' bundles (their /metrics) and the time.
  emulated.py report PLAN SNAP0 SNAP1 [--header] KEY=VALUE...
      one CSV row for the window between two snaps: writes/s confirmed to the client and applied
      by the consumers (below the first, the backlog grows: a consumer- or database-bound plan),
      the mean bundle (writes per broker message); per tier the cores used, the quota,
      used / quota, the share of CFS periods throttled and the CPU µs per write (the service
      demand D); the busiest instance's use of its quota and its CPU µs per write (dmax: for the
      RabbitMQ nodes, the queue leader's).
Standard library only; reads /proc and /sys/fs/cgroup, writes only the groups under ROOT.
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

CPU = "/sys/fs/cgroup/cpu"
ACCT = "/sys/fs/cgroup/cpuacct"
TIERS = ("client", "server", "consumer", "rabbit", "haproxy", "postgres")


def proc_table():
    procs = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                s = f.read()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            procs[int(d)] = (int(s[s.rindex(")") + 2:].split()[1]), s[s.index("(") + 1:s.rindex(")")], cmd)
        except (OSError, ValueError):
            pass
    return procs


def move(pid, group):
    for hierarchy in (CPU, ACCT):
        try:
            with open(f"{hierarchy}/{group}/cgroup.procs", "w") as f:
                f.write(str(pid))
        except OSError:
            pass  # the process ended meanwhile


def place(launcher, root):
    launcher = int(launcher)
    seen = {}  # pid -> group
    order = {"server": [], "consumer": []}
    while os.path.exists(f"/proc/{launcher}"):
        procs = proc_table()
        children = {}
        for pid, (ppid, _, _) in procs.items():
            children.setdefault(ppid, []).append(pid)

        def walk(pid, group):
            _, comm, cmd = procs[pid]
            if group is None:
                if comm == "java" and ("AlbumStoreServer" in cmd or "ConsumerMain" in cmd):
                    tier = "server" if "AlbumStoreServer" in cmd else "consumer"
                    if pid not in order[tier]:
                        order[tier].append(pid)
                    group = f"{tier}{order[tier].index(pid) + 1}"
                elif comm == "beam.smp" and procs.get(pid, (0,))[0] in procs \
                        and procs[procs[pid][0]][1] == "rabbitmq-server":
                    m = re.search(r"node-(\d+)", cmd)
                    group = f"rabbit{m.group(1)}" if m else None
                elif comm == "haproxy":
                    group = "haproxy"
            if group is not None and seen.get(pid) != group and os.path.isdir(f"{CPU}/{root}/{group}"):
                move(pid, f"{root}/{group}")
                seen[pid] = group
            for ch in children.get(pid, []):
                walk(ch, group)

        if launcher in procs:
            walk(launcher, None)
        time.sleep(0.1)


def read(path):
    with open(path) as f:
        return f.read()


def snap(root, run_log, after_s, out, launcher=None):
    after_s = float(after_s)
    deadline = time.time() + 900
    requests = elapsed = None
    while time.time() < deadline:
        lines = re.findall(r"^time (\d+) s, requests (\d+),", read(run_log), re.M)
        if lines and float(lines[-1][0]) >= after_s:
            elapsed, requests = float(lines[-1][0]), int(lines[-1][1])
            break
        if launcher and not os.path.exists(f"/proc/{launcher}"):
            sys.exit(f"the launcher ended before second {after_s} of the load (see {run_log})")
        time.sleep(0.05)
    if requests is None:
        sys.exit(f"no progress line of second {after_s} within 900 s")
    t = time.time()
    applied = bundles = bundle_writes = transactions = batch_messages = 0.0
    log = read(run_log)
    for m in re.finditer(r"--consumer-metrics (\S+)", log):
        for u in m.group(1).split(","):
            text = get(u)
            applied += prom_sum(text, "albumstore_consumer_albums_inserted_total")
            applied += prom_sum(text, "albumstore_consumer_reviews_applied_total")
            transactions += prom_sum(text, "albumstore_consumer_batch_messages_count")
            batch_messages += prom_sum(text, "albumstore_consumer_batch_messages_sum")
        break
    m = re.search(r"servers: \d+ JVMs on ports \[([\d, ]+)\]", log)
    for port in (m.group(1).split(",") if m else []):
        text = get(f"http://127.0.0.1:{port.strip()}/albumstore/metrics")
        bundles += prom_sum(text, "albumstore_publish_bundle_writes_count")
        bundle_writes += prom_sum(text, "albumstore_publish_bundle_writes_sum")
    groups = {}
    for g in sorted(os.listdir(f"{CPU}/{root}")):
        if not os.path.isdir(f"{CPU}/{root}/{g}"):
            continue
        st = dict(line.split() for line in read(f"{CPU}/{root}/{g}/cpu.stat").splitlines())
        groups[g] = {"cpu_s": int(read(f"{ACCT}/{root}/{g}/cpuacct.usage")) / 1e9,
                     "periods": int(st["nr_periods"]), "throttled": int(st["nr_throttled"]),
                     "throttled_s": int(st["throttled_time"]) / 1e9,
                     "quota_us": int(read(f"{CPU}/{root}/{g}/cpu.cfs_quota_us")),
                     "period_us": int(read(f"{CPU}/{root}/{g}/cpu.cfs_period_us"))}
    json.dump({"time": t, "elapsed": elapsed, "requests": requests, "groups": groups, "applied": applied,
               "bundles": bundles, "bundle_writes": bundle_writes, "transactions": transactions,
               "batch_messages": batch_messages,
               "loadavg": os.getloadavg()}, open(out, "w"))


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode()
    except OSError:
        return ""


def prom_sum(text, name):
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith(name) and line[len(name):len(name) + 1] in (" ", "{"))


def parse_plan(path):
    """{tier: (count, cores per instance)} and the run settings of a plan file."""
    tiers, settings = {}, {}
    for line in read(path).splitlines():
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] in TIERS:
            tiers[words[0]] = (int(words[1]), float(words[2]))
        else:
            settings[words[0]] = words[1]
    return tiers, settings


COLUMNS = (["writes_s", "window_s", "writes", "applied_s", "bundle"]
           + [f"{t}_{k}" for t in TIERS for k in ("cores", "quota", "use", "throttled", "d_us", "max_use", "dmax_us")]
           + ["saturated_tier", "load1_window"])


def report(plan, s0, s1, header, extra):
    tiers, _ = parse_plan(plan)
    a, b = json.load(open(s0)), json.load(open(s1))
    dt, n = b["time"] - a["time"], b["requests"] - a["requests"]
    row = {"writes_s": n / dt, "window_s": dt, "writes": n,
           "applied_s": (b.get("applied", 0) - a.get("applied", 0)) / dt,
           "bundle": ((b.get("bundle_writes", 0) - a.get("bundle_writes", 0))
                      / max(b.get("bundles", 0) - a.get("bundles", 0), 1))}
    best = (-1.0, "")
    for t in TIERS:
        names = [g for g in b["groups"] if re.fullmatch(rf"{t}\d*", g)]
        cpu = sum(b["groups"][g]["cpu_s"] - a["groups"][g]["cpu_s"] for g in names)
        periods = sum(b["groups"][g]["periods"] - a["groups"][g]["periods"] for g in names)
        thr = sum(b["groups"][g]["throttled"] - a["groups"][g]["throttled"] for g in names)
        count, cores = tiers[t]
        uses = [(b["groups"][g]["cpu_s"] - a["groups"][g]["cpu_s"]) / dt / cores for g in names]
        row.update({f"{t}_cores": cpu / dt, f"{t}_quota": count * cores, f"{t}_use": cpu / dt / (count * cores),
                    f"{t}_throttled": thr / periods if periods else 0.0, f"{t}_d_us": cpu / n * 1e6 if n else 0.0,
                    f"{t}_max_use": max(uses) if uses else 0.0,
                    f"{t}_dmax_us": max(uses) * cores * dt / n * 1e6 if uses and n else 0.0})
        best = max(best, (row[f"{t}_max_use"], t))
    row["saturated_tier"] = best[1]
    row["load1_window"] = f"{a['loadavg'][0]:.2f}-{b['loadavg'][0]:.2f}"
    keys = [kv.split("=", 1)[0] for kv in extra] + COLUMNS
    vals = [kv.split("=", 1)[1] for kv in extra] + [
        f"{row[k]:.4f}" if isinstance(row[k], float) else str(row[k]) for k in COLUMNS]
    if header:
        print(",".join(keys))
    print(",".join(vals))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "place":
        place(*args)
    elif cmd == "snap":
        snap(*args)
    elif cmd == "report":
        header = "--header" in args
        args = [x for x in args if x != "--header"]
        report(args[0], args[1], args[2], header, args[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

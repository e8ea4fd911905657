#!/usr/bin/env python3
"""The capacity model (operational analysis, Jain ch. 33) from measured files.

  bench/capacity.py [--rates 10000,100000,1000000] [--utilisation 0.65] [--partitions 1] ...

Reads, relative to --results (default: the repository's results/):
  tier-cost/data.csv            part 1: CPU µs per request of each tier, by instance count, at a
                                fixed rate (the marginal µs between two rates: dus_*), writes per
                                broker message (b), bytes per message, messages per transaction
  tier-cost-saturated/data.csv  the same harness, closed model at 256 threads: the costs at large
                                bundles, where nothing idles
  tier-cost-saturated/rerun/    a cell of those runs that had to be measured again
  tier-cost-saturated/check/    a second, later saturated run of the reference cell: the measured
                                rate the 2-core prediction is checked against
  queue-ceiling/data.csv        part 2a: confirmed messages/s of one quorum queue by message size
  pg-ceiling/data.csv           part 2b: PostgreSQL CPU µs per write and writes/s by batch shape

Model, per workload:
  - service demand per write of tier i, D_i: the CPU seconds of the tier over the writes completed
    in the saturated run of the reference cell (--check-base, 1 server and 2 consumers: the fewest
    JVMs sharing the 2 cores; nothing idles and bundles are large); valid where the bundles are at
    least as large (larger bundles only cost less: part 1);
  - bundle law (group commit, one bundle in flight per server): b = 1 + lambda_s * R, lambda_s the
    writes/s one server takes, R the publish-to-confirm time, fitted from the cells; b <= 256 and
    b * bytes per write <= 512 KiB (the server's bundle limits, its 1 MiB capped by Amazon MQ's
    default max_message_size);
  - utilisation law U_i = X * D_i, bottleneck law X <= min_i(cores_i / D_i): a tier of n instances
    of v vCPUs at target utilisation U takes n * v * U / D_i writes/s;
  - shared ceilings: one quorum queue takes Q(S) messages/s of S bytes (measured), i.e.
    P * Q(S) * b writes/s over P queues; one PostgreSQL primary takes U * vCPU_max / D_pg(W)
    writes/s at W writes per transaction (D_pg from pgbench with the consumer's statements).
Standard library only.
"""
import argparse
import csv
import math
import os
import statistics as st

TIERS = ("client", "server", "consumer", "rabbit", "haproxy", "postgres")
DEPLOYED = ("server", "consumer", "rabbit", "postgres")  # the client is the users, HAProxy the ALB
# vCPUs per instance type (AWS's published sizes: EC2 c7g/m7g, Amazon MQ mq.m7g, RDS db.r7g)
SIZES = {"large": 2, "xlarge": 4, "2xlarge": 8, "4xlarge": 16, "8xlarge": 32, "12xlarge": 48,
         "16xlarge": 64}
MQ_SIZES = ("large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge")
# ALBUMSTORE_PUBLISH_BUNDLE_MAX; the bytes: the server's 1 MiB default capped by Amazon MQ's default
# max_message_size on RabbitMQ 4 (524,288 bytes)
BUNDLE_MAX, BUNDLE_BYTES = 256, 524288
COMPARABLE = 0.05  # a part-1 cell is comparable when its window ran within 5% of its target rate
ORDER = 10  # past this factor over the largest measured point a figure is an order of magnitude


def factor(value, measured):
    """'N.Nx the largest measured', and 'order of magnitude' past ORDER."""
    f = value / measured
    return f"{f:.1f}x measured" + (", order of magnitude" if f > ORDER else "")


def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f)]


def fnum(x):
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def interp_log(points, x):
    """Linear interpolation of y in log(x) over sorted (x, y); clamped at the ends."""
    pts = sorted(points)
    if x <= pts[0][0]:
        return pts[0][1]
    if x >= pts[-1][0]:
        return pts[-1][1]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            t = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
            return y0 + t * (y1 - y0)
    return pts[-1][1]


class Workload:
    """One workload's measured inputs. D_i (µs per write) are those of the saturated runs (busy
    time over completions where nothing idles, Jain's service demand), median over their cells;
    part 1's cells give the bundle law and the leader's share of the broker's CPU."""

    def __init__(self, name, part1, saturated, cells=None):
        self.name = name
        self.cells = [r for r in part1 if r["workload"] == name and r.get("verified") == "true"]
        self.sat = [r for r in saturated if r["workload"] == name
                    and (cells is None or f"{r['servers']}:{r['consumers']}" in cells)]
        self.D = {t: st.median(float(r["us_" + t]) for r in self.sat) for t in TIERS} if self.sat else {}
        self.b_sat = st.median(float(r["writes_per_msg"]) for r in self.sat) if self.sat else 1.0
        # part 1's cells only: below saturation, where the confirm time has no queueing in it; and
        # only the comparable ones, whose window ran at its target rate (within 5%): a cell that
        # caught up with requests that fell due while the machine lagged formed larger bundles
        self.comparable = [r for r in self.cells if fnum(r["writes_per_msg"]) and fnum(r["rps"])
                           and abs(fnum(r["rps"]) / fnum(r["rate"]) - 1) <= COMPARABLE]
        rs = [(fnum(r["writes_per_msg"]) - 1) / (fnum(r["rps"]) / int(r["servers"])) for r in self.comparable]
        self.confirm_s = st.median(rs) if rs else 0.005
        self.lambda_max = max((fnum(r["rps"]) / int(r["servers"]) for r in self.comparable), default=1.0)
        self.x_max = max((float(r["rps"]) for r in self.sat), default=1.0)
        self.per_consumer_max = max((float(r["rps"]) / int(r["consumers"]) for r in self.sat), default=1.0)
        # at large bundles (the saturated run), where a message's framing is shared by many writes
        bw = [fnum(r["bytes_per_msg"]) / fnum(r["writes_per_msg"]) for r in (self.sat or self.cells)
              if fnum(r["bytes_per_msg"]) and fnum(r["writes_per_msg"])]
        self.bytes_per_write = st.median(bw) if bw else 1000.0
        txn = [fnum(r["msgs_per_txn"]) for r in self.sat if fnum(r["msgs_per_txn"])]
        self.msgs_per_txn_sat = st.median(txn) if txn else 1.0
        shares = []
        for r in self.cells + self.sat:
            nodes = sorted((float(v) for v in r["rabbit_nodes_us"].split("/") if v), reverse=True)[:3]
            if sum(nodes) > 0:
                shares.append(nodes[0] / sum(nodes))
        self.leader_share = st.median(shares) if shares else 1 / 3

    def d(self, tier, b=None):
        """µs per write of a tier (at the saturated runs' bundles: larger bundles only cost less)."""
        return self.D[tier]

    def bundle(self, per_server, confirm_s=None):
        r = self.confirm_s if confirm_s is None else confirm_s
        return max(1.0, min(1 + per_server * r, BUNDLE_MAX, BUNDLE_BYTES / self.bytes_per_write))


def servers_for(w, x, vcpu, util, confirm_s):
    """Fewest servers of vcpu vCPUs at util taking x writes/s, and the bundle they form."""
    n = 1
    for _ in range(200):
        b = w.bundle(x / n, confirm_s)
        if (x / n) * w.d("server", b) * 1e-6 <= vcpu * util:
            return n, b
        n = max(n + 1, math.ceil(x * w.d("server", b) * 1e-6 / (vcpu * util)))
    return n, w.bundle(x / n, confirm_s)


def smallest(prefix, vcpu_needed, sizes=MQ_SIZES):
    for s in sizes:
        if SIZES[s] >= vcpu_needed:
            return f"{prefix}.{s}", SIZES[s]
    return None, SIZES[sizes[-1]]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--results", default=os.path.join(here, "..", "results"))
    p.add_argument("--rates", default="10000,100000,1000000", help="target writes/s, comma-separated")
    p.add_argument("--workloads", default="album-reviews,reviews")
    p.add_argument("--utilisation", type=float, default=0.65, help="target utilisation of every tier")
    p.add_argument("--partitions", type=int, default=1, help="P write queues, leaders on different nodes")
    p.add_argument("--server-type", default="c7g.2xlarge", help="EC2 type of a server instance")
    p.add_argument("--consumer-type", default="c7g.xlarge", help="EC2 type of a consumer instance")
    p.add_argument("--broker-nodes", type=int, default=3, help="nodes of the Amazon MQ cluster")
    p.add_argument("--db-max-vcpu", type=int, default=64, help="vCPUs of the largest RDS primary (db.r7g.16xlarge)")
    p.add_argument("--confirm-ms", type=float, default=None,
                   help="publish-to-confirm time on the target (default: fitted from part 1)")
    p.add_argument("--bytes-per-write", type=float, default=None,
                   help="bundle bytes per write (default: measured in part 1)")
    p.add_argument("--queue-variant", default="quorum-3nodes", help="queue-ceiling variant for Q(S)")
    p.add_argument("--no-check", action="store_true", help="skip the 2-core check")
    p.add_argument("--check-base", default="1:2", help="SERVERS:CONSUMERS cell whose costs predict the others")
    p.add_argument("--cores", type=float, default=2.0, help="cores of the machine the check's runs had")
    a = p.parse_args()
    res = os.path.abspath(a.results)
    part1 = rows(os.path.join(res, "tier-cost", "data.csv"))
    saturated = []
    for sub in ("", "rerun"):  # rerun/: a cell of the saturated runs measured again in its own run
        path = os.path.join(res, "tier-cost-saturated", sub, "data.csv")
        saturated += rows(path) if os.path.exists(path) else []
    rep_path = os.path.join(res, "tier-cost-saturated", "check", "data.csv")
    repeats = rows(rep_path) if os.path.exists(rep_path) else []
    queue = rows(os.path.join(res, "queue-ceiling", "data.csv"))
    pg = rows(os.path.join(res, "pg-ceiling", "data.csv"))
    util, P = a.utilisation, a.partitions
    confirm_s = a.confirm_ms / 1000 if a.confirm_ms else None

    qpts = {}
    for r in queue:
        if r["variant"] == a.queue_variant and fnum(r["publish_msgs_per_s"]):
            qpts.setdefault(int(r["size"]), []).append(float(r["publish_msgs_per_s"]))
    qcurve = [(s, st.median(v)) for s, v in qpts.items()]
    # a bytes-bound ceiling: interpolate bytes/s (never above a measured point), not messages/s
    qbytes = [(s, s * q) for s, q in qcurve]
    qbytes_max = max(b for _, b in qbytes)

    print(f"Inputs: results in {os.path.relpath(res)}; target utilisation {util}; P = {P} queue(s); server "
          f"{a.server_type}, consumer {a.consumer_type}; a {a.broker_nodes}-node Amazon MQ cluster; "
          f"RDS primary up to {a.db_max_vcpu} vCPUs.")
    print("Queue ceiling Q(S), one quorum queue, " + a.queue_variant + ": "
          + ", ".join(f"{s} B: {q:,.0f} msg/s ({s * q / 1e6:.1f} MB/s)" for s, q in sorted(qcurve))
          + "; interpolated in bytes/s, run at the target utilisation like every tier. With P queues on the"
          " same 3 nodes every node still writes every queue's bytes: P spreads the leaders' CPU, it does not"
          " raise a bytes-bound ceiling (not measured to); 'queue clusters needed' counts 3-node clusters"
          " with a queue of their own.")
    for name in a.workloads.split(","):
        w = Workload(name, part1, saturated, cells=[a.check_base])
        if a.bytes_per_write:
            w.bytes_per_write = a.bytes_per_write
        shape = "album-reviews" if name == "album-reviews" else "reviews"
        pgpts = [(int(r["writes_per_txn"]), float(r["pg_us_per_write"])) for r in pg if r["shape"] == shape]
        pgw = [(int(r["writes_per_txn"]), float(r["writes_per_s"])) for r in pg if r["shape"] == shape]
        print(f"\n## {name}\n")
        print(f"D_i, µs per write at saturation (the saturated {a.check_base} run, b = "
              f"{w.b_sat:.1f} writes/msg): " + ", ".join(f"{t} {w.D[t]:.1f}" for t in TIERS)
              + f"; sum {sum(w.D.values()):.1f}")
        print(f"bundle law: b = 1 + lambda_server x {1000 * (confirm_s or w.confirm_s):.2f} ms (median over "
              f"{len(w.comparable)} comparable part-1 cells of {len(w.cells)}, fitted at up to "
              f"{w.lambda_max:,.0f} writes/s per server); "
              f"{w.bytes_per_write:.0f} bytes per write; leader node's share of the broker's CPU with one "
              f"queue {w.leader_share:.2f}; messages per transaction at saturation {w.msgs_per_txn_sat:.1f}")
        print(f"PostgreSQL on this machine (pgbench, 2 shared cores): "
              + ", ".join(f"W={k}: {v:,.0f} writes/s" for k, v in sorted(pgw)))
        print()
        print(f"largest measured points: the cluster {w.x_max:,.0f} writes/s (saturated {a.check_base}), "
              f"{w.per_consumer_max:,.0f} per consumer, one queue {qbytes_max / 1e6:.1f} MB/s "
              f"({qbytes_max / w.bytes_per_write:,.0f} writes/s), PostgreSQL {max(v for _, v in pgw):,.0f} writes/s "
              "(pgbench); every figure below is labelled with its factor over the one it extrapolates")
        print()
        print("| writes/s (rate / largest measured) | servers (per server / bundle law's largest) | bundle b (writes/msg) |"
              " consumers (per consumer / measured) | broker: msg/s, busiest node vCPU | "
              f"queue ceiling at U (P={P}) | queue clusters needed | PostgreSQL: W writes/txn, µs/write (pgbench), vCPU | "
              "primary ceiling | first wall |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        sv = SIZES[a.server_type.split(".")[1]]
        cv = SIZES[a.consumer_type.split(".")[1]]
        for x in [float(v) for v in a.rates.split(",")]:
            ns, b = servers_for(w, x, sv, util, confirm_s)
            nc = math.ceil(x * w.d("consumer", b) * 1e-6 / (cv * util))
            msgs = x / b
            share = w.leader_share if P == 1 else max(1 / a.broker_nodes, 1 / min(P, a.broker_nodes))
            node_vcpu = x * w.d("rabbit", b) * 1e-6 * share / util
            mq, mq_v = smallest("mq.m7g", node_vcpu)
            size = b * w.bytes_per_write
            qw = util * interp_log(qbytes, size) / w.bytes_per_write
            wtx = b * w.msgs_per_txn_sat
            dpg = w.d("postgres", b)  # the consumer's own statements; pgbench's at wtx beside it
            dpg_bench = interp_log(pgpts, wtx) if pgpts else float("nan")
            pg_vcpu = x * dpg * 1e-6 / util
            rds, _ = smallest("db.r7g", pg_vcpu)
            pg_ceiling = util * a.db_max_vcpu / (dpg * 1e-6)
            broker_ceiling = util * SIZES["16xlarge"] / (w.d("rabbit", b) * 1e-6 * share)
            pg_max = max(v for _, v in pgw)
            walls = sorted([(qw, f"the queue (one 3-node cluster) at U, {factor(qw / util, qbytes_max / w.bytes_per_write)}"),
                            (pg_ceiling, f"PostgreSQL primary by CPU, {factor(pg_ceiling, pg_max)}"),
                            (broker_ceiling, f"broker node CPU (mq.m7g.16xlarge), {factor(broker_ceiling, w.x_max)}")])
            hit = [f"{n}: {c:,.0f}" for c, n in walls if c < x]
            p_needed = math.ceil(x / qw)
            first = ("; ".join(hit) + " writes/s") if hit else f"none; lowest: {walls[0][1]}: {walls[0][0]:,.0f}"
            low = f" (below the calibrated {w.b_sat:.1f}: D_i understated)" if b < w.b_sat else ""
            print(f"| {x:,.0f} ({factor(x, w.x_max)}) | {ns} x {a.server_type} ({factor(x / ns, w.lambda_max)}) | "
                  f"{b:.1f}{low} | {nc} x {a.consumer_type} ({factor(x / nc, w.per_consumer_max)}) | "
                  f"{msgs:,.0f}, {node_vcpu:.1f} -> {a.broker_nodes} x {mq or 'none fits'} | {qw:,.0f} | "
                  f"{p_needed} | {wtx:.0f}, {dpg:.1f} ({dpg_bench:.1f}), {pg_vcpu:.1f} -> "
                  f"{rds or 'none fits: shard'} | {pg_ceiling:,.0f} ({factor(pg_ceiling, pg_max)}) | {first} |")
        if not a.no_check and w.sat:
            check(name, part1, saturated, a.check_base, repeats, a.cores)


def check(name, part1, saturated, base, repeats, cores):
    """First the independent forecast: each saturated run's rate predicted as X = cores / sum_i D_i
    with D_i from ANOTHER run (the saturated run of cell `base`) and nothing from the run predicted:
    a check that can fail. Then, apart and named as such, the repeatability of the service demands:
    X = C / sum_i D_i with C the CPU seconds per second the stack got in the run predicted, which
    only compares two runs' summed demands (C comes from the run itself), and part 1's cell at its
    fixed rate (small bundles)."""
    ref = Workload(name, part1, saturated, cells=[base])
    if not ref.sat:
        return
    others = [("repeat, " + f"{q['servers']}:{q['consumers']}", q) for q in repeats if q["workload"] == name]
    others += [(f"{q['servers']}:{q['consumers']}", q) for q in saturated if q["workload"] == name
               and f"{q['servers']}:{q['consumers']}" != base]  # the reference itself left out
    total = sum(ref.D.values())
    print(f"\nIndependent forecast ({name}): X = {cores:g} cores / sum D_i = {cores * 1e6 / total:,.0f} writes/s, "
          f"D_i from the saturated {base} run, nothing taken from the run predicted (on a shared machine the "
          "stack did not get all the cores: this is the error of the model plus the machine's other jobs)\n")
    print("| cell | measured req/s | forecast | error |")
    print("|---|---|---|---|")
    for label, r in others:
        x_meas = float(r["rps"])
        x_f = cores / (total * 1e-6)
        print(f"| {label} | {x_meas:,.0f} | {x_f:,.0f} | {100 * (x_f - x_meas) / x_meas:+.0f}% |")
    print(f"\nRepeatability of the service demands ({name}; not a forecast: C is taken from the run predicted): "
          f"X = C / sum D_i, D_i from the saturated {base} run and from part 1's {base} cell at its fixed rate; "
          "C = CPU seconds per second the stack got in the run predicted\n")
    print("| cell | measured req/s | C (cores) | b (writes/msg) | predicted from saturated " + base
          + " | error | predicted from part 1 " + base + " | error |")
    print("|---|---|---|---|---|---|---|---|")
    p1 = [q for q in ref.cells if f"{q['servers']}:{q['consumers']}" == base]
    for label, r in others:
        x_meas = float(r["rps"])
        c = float(r["us_total"]) * x_meas * 1e-6
        x_sat = c / (sum(ref.D.values()) * 1e-6)
        x_p1 = c / (float(p1[0]["us_total"]) * 1e-6) if p1 else float("nan")
        print(f"| {label} | {x_meas:,.0f} | {c:.2f} | {float(r['writes_per_msg']):.1f} | "
              f"{x_sat:,.0f} | {100 * (x_sat - x_meas) / x_meas:+.1f}% | {x_p1:,.0f} | "
              f"{100 * (x_p1 - x_meas) / x_meas:+.0f}% |")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# The cluster topology's throughput by server instances and client threads, and a 2^k
# factorial analysis of the two factors (effects and allocation of variation, Jain ch. 18).
#
#   bench/cluster-scale.sh [REPS=3] [ITERATIONS=100] [SERVERS="1 2"] [THREADS="64 256"] [CONSUMERS=2]
#
# A server count written "1d" runs one server with the client sending to it directly, bypassing
# HAProxy (--bypass-balancer): "1d 1 2 3" with THREADS=256 is the balancer's price (1 server
# direct vs behind HAProxy) and then 1, 2 and 3 servers behind it, consumers beside.
#
# Each run is one `java -jar albumstore-local.jar --topology cluster` (3 RabbitMQ nodes, quorum
# queue, HAProxy, N server JVMs, CONSUMERS consumer JVMs, the client through the balancer, verified),
# so every run starts from a fresh cluster. The cells run interleaved within each repetition (rep 1:
# every cell, rep 2: every cell, rotated), so that a drift of the machine spreads over all cells.
# Writes results/${CLUSTER_NAME:-cluster-scale}/{data.csv,summary.json,factorial.txt}.
# Needs rabbitmq-server and haproxy (apt-get install rabbitmq-server haproxy) and the local jar.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; ITERATIONS="${2:-100}"; SERVERS="${3:-1 2}"; THREADS="${4:-64 256}"; CONSUMERS="${5:-2}"
NAME="${CLUSTER_NAME:-cluster-scale}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="bench/cluster-scale.sh $REPS $ITERATIONS \"$SERVERS\" \"$THREADS\" $CONSUMERS"
log "$COMMAND"
require_cluster_launcher
ensure_database
machine_json >"$WORK/$NAME-machine.json"

read -r -a servers <<<"$SERVERS"
mapfile -t cells < <(cross "$SERVERS" "$THREADS")

echo "servers,threads,rep,throughput,requests_ok,failed,verified,exit,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#cells[@]}
  for ((k = 0; k < n; k++)); do
    read -r s t <<<"${cells[$(((k + rep - 1) % n))]}"
    run_dir="$WORK/$NAME-s$s-t$t-r$rep"
    rm -rf "$run_dir"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    log "rep $rep: $s server(s), $t threads"
    code=0
    direct=()
    [[ "$s" == *d ]] && direct=(--bypass-balancer)
    ALBUMSTORE_JDBC_URL="$JDBC_URL" timeout 1800 java -jar "$LOCAL_JAR" --topology cluster \
      --servers "${s%d}" "${direct[@]}" --consumers "$CONSUMERS" --threads "$t" --iterations "$ITERATIONS" \
      --no-progress --out "$run_dir" >"$run_dir.log" 2>&1 || code=$?
    python3 - "$run_dir/summary.json" "$s" "$t" "$rep" "$code" "$load1" >>"$OUT/data.csv" <<'PY'
import json, sys
path, s, t, rep, code, load1 = sys.argv[1:]
try:
    d = json.load(open(path))
except OSError:
    print(f"{s},{t},{rep},nan,0,nan,false,{code},{load1}")
    sys.exit(0)
w = d.get("allWrites") or {}
v = d.get("verification") or {}
print(f"{s},{t},{rep},{d.get('throughput', 'nan')},{w.get('ok', 0)},{w.get('failed', 'nan')},"
      f"{str(v.get('mismatches', 1) == 0).lower()},{code},{load1}")
PY
  done
done

# Per cell: median and 95% CI of the repeats, paired ratios to the first server count (same rep
# and threads), the chart.
ratios=()
for s in "${servers[@]:1}"; do ratios+=(--ratio "servers=$s/servers=${servers[0]}:throughput"); done
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$COMMAND" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": sys.argv[3],
  "setup": "one fresh `java -jar albumstore-local.jar --topology cluster` per run (3 RabbitMQ nodes, quorum queue "
           "with 3 members, HAProxy, N server JVMs, the consumer JVMs), the client through the balancer (servers "
           "written 1d: straight to the one server), verified; cells interleaved, order rotated per repeat; "
           "throughput = the client's requests/s"}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group servers,threads --metrics throughput,failed \
  --pair-by rep,threads "${ratios[@]}" --extra "$OUT/extra.json" \
  --title "cluster topology: client throughput by server instances and client threads (req/s)" | tee "$OUT/table.md"
rm -f "$OUT/extra.json"

# For a 2x2 design also the factorial model y = q0 + qA xA + qB xB + qAB xA xB (xA = -1/+1 for the
# fewer/more servers, xB for the fewer/more threads), each effect's share of the variation and the
# experimental error's share (SSE from the replications). Merged into summary.json.
python3 - "$OUT" <<'PY' | tee "$OUT/factorial.txt" | tee -a "$OUT/table.md"
import csv, json, math, sys, statistics as st
out = sys.argv[1]
all_rows = list(csv.DictReader(open(f"{out}/data.csv")))
rows = [r for r in all_rows if r["throughput"] != "nan"]
cells = {}
for r in rows:
    cells.setdefault((r["servers"], int(r["threads"])), []).append(float(r["throughput"]))
summary = json.load(open(f"{out}/summary.json"))
summary |= {"cells": [{"servers": s, "threads": t, "n": len(v), "mean": st.mean(v),
                       "stdev": st.stdev(v) if len(v) > 1 else None}
                      for (s, t), v in sorted(cells.items())],
            "all_verified": all(r["verified"] == "true" and r["exit"] == "0" for r in all_rows)}
print()
for c in summary["cells"]:
    how = "1 server, direct (no balancer)" if c["servers"].endswith("d") else f"{c['servers']} server(s) behind HAProxy"
    print(f"{how}, {c['threads']:>4} threads: {c['mean']:9.1f} req/s over {c['n']} run(s)")
S = sorted({s for s, _ in cells if s.isdigit()}, key=int); T = sorted({t for _, t in cells})
if len(S) == 2 and len(T) == 2 and all(len(cells.get((s, t), [])) >= 1 for s in S for t in T):
    r = min(len(cells[(s, t)]) for s in S for t in T)
    y = {(a, b): cells[(S[(a + 1) // 2], T[(b + 1) // 2])][:r] for a in (-1, 1) for b in (-1, 1)}
    mean = {k: st.mean(v) for k, v in y.items()}
    q0 = sum(mean.values()) / 4
    qa = sum(a * m for (a, b), m in mean.items()) / 4
    qb = sum(b * m for (a, b), m in mean.items()) / 4
    qab = sum(a * b * m for (a, b), m in mean.items()) / 4
    sse = sum((x - mean[k]) ** 2 for k, v in y.items() for x in v)
    ssa, ssb, ssab = 4 * r * qa ** 2, 4 * r * qb ** 2, 4 * r * qab ** 2
    sst = ssa + ssb + ssab + sse
    share = lambda x: 100 * x / sst if sst else float("nan")
    print(f"2^2 factorial, {r} replication(s) per cell:")
    print(f"  q0 {q0:.1f}  qA (servers {S[0]}->{S[1]}) {qa:+.1f}  qB (threads {T[0]}->{T[1]}) {qb:+.1f}  qAB {qab:+.1f}")
    print(f"  variation explained: servers {share(ssa):.1f}%, threads {share(ssb):.1f}%, "
          f"interaction {share(ssab):.1f}%, error {share(sse):.1f}%")
    summary["factorial"] = {"replications": r, "q0": q0, "qA": qa, "qB": qb, "qAB": qab,
                            "share_servers": share(ssa), "share_threads": share(ssb),
                            "share_interaction": share(ssab), "share_error": share(sse)}
print("every run verified with exit 0:", summary["all_verified"])
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
PY
readme_stub "$OUT" "$COMMAND" "the cluster topology's throughput by server instances and client threads"

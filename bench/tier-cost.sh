#!/usr/bin/env bash
# The CPU cost of a write in every tier of the cluster topology, by instance
# count, at fixed request rates below saturation (the client's open model, --rate-steps), so that
# what is measured is each tier's work per request and not the instances' share of the cores.
#
#   bench/tier-cost.sh [RATES="500 150"] [CELLS="1:2 2:2 3:2 1:1 1:4"]
#                      [WORKLOADS="album-reviews reviews"] [REPS=1] [STEP=35] [WINDOW=15]
#
# A cell is SERVERS:CONSUMERS. Each run is one fresh `java -jar albumstore-local.jar --topology
# cluster` (3 RabbitMQ nodes, quorum queue with 3 members, HAProxy, the server and consumer JVMs,
# the client through the balancer, verified) with a queue name of its own, the client at RATE
# two rate steps of STEP seconds each (the higher rate first: the first STEP - WINDOW seconds of
# the run warm the JVMs up at it); in the last WINDOW seconds of each step
# bench/tier-cost.py records the CPU seconds of every process the launcher
# started (found as its descendants, never by name), of the launcher (the client runs in it) and
# of PostgreSQL (this database's backends and the server's shared processes), and the services'
# counters. Per run: CPU µs per request of each tier and in total at the higher rate, and the
# marginal µs per request (the CPU/s added between the two rates over the requests/s added: the
# service demand without each process's cost of running idle), writes per broker message,
# bytes per message on the servers' publishing connections, messages per transaction.
# Runs interleaved, order rotated per repeat. Writes results/${TIER_NAME:-tier-cost}/{data.csv,
# summary.json,table.md}. Needs rabbitmq-server, haproxy and the local jar.
# TIER_CLOSED_THREADS=256: the closed model instead (that many client threads for 2 x STEP
# seconds, no rate): the saturated rate and each tier's cost there (results/tier-cost-saturated/),
# the measurement bench/capacity.py's 2-core prediction is checked against.
BENCH_DB="${BENCH_DB:-albumstore_capacity}"
source "$(dirname "$0")/lib.sh"
RATES="${1:-500 150}"; CELLS="${2:-1:2 2:2 3:2 1:1 1:4}"; WORKLOADS="${3:-album-reviews reviews}"
REPS="${4:-1}"; STEP="${5:-35}"; WINDOW="${6:-15}"
THREADS="${TIER_THREADS:-64}"
CLOSED="${TIER_CLOSED_THREADS:-}"
read -r FIRST SECOND <<<"$RATES"
HIGH=$((FIRST > SECOND ? FIRST : SECOND))
load=(--rate-steps "$FIRST,$SECOND" --step-duration "$STEP" --threads "$THREADS")
if [[ -n "$CLOSED" ]]; then
  load=(--threads "$CLOSED" --duration $((2 * STEP))); HIGH="closed-$CLOSED"; FIRST=closed; SECOND="$CLOSED threads"
fi
NAME="${TIER_NAME:-tier-cost${CLOSED:+-saturated}}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="${CLOSED:+TIER_CLOSED_THREADS=$CLOSED }bench/tier-cost.sh \"$RATES\" \"$CELLS\" \"$WORKLOADS\" $REPS $STEP $WINDOW"
log "$COMMAND"
require_cluster_launcher
ensure_database
machine_json >"$WORK/$NAME-machine.json"

mapfile -t runs < <(cross "$WORKLOADS" "$CELLS")

hdr=(--header)
n=0
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#runs[@]}; k++)); do
    read -r w cell <<<"${runs[$(((k + rep - 1) % ${#runs[@]}))]}"
    s="${cell%%:*}"; c="${cell##*:}"; n=$((n + 1))
    run_dir="$WORK/$NAME-$w-s$s-c$c-r$rep"
    rm -rf "$run_dir" "$run_dir".*
    truncate_tables
    load1=$(cut -d' ' -f1 /proc/loadavg)
    log "rep $rep: $w, $s server(s), $c consumer(s), $FIRST then $SECOND req/s (load $load1)"
    ALBUMSTORE_QUEUE="bench.$NAME.$$.$n" ALBUMSTORE_JDBC_URL="$JDBC_URL" java -jar "$LOCAL_JAR" \
      --topology cluster --servers "$s" --consumers "$c" --workload "$w" "${load[@]}" --out "$run_dir" >"$run_dir.log" 2>&1 &
    lpid=$!
    BENCH_PIDS+=("$lpid")
    ok=true
    for at in $((STEP - WINDOW)) "$STEP" $((2 * STEP - WINDOW)) $((2 * STEP - 1)); do
      python3 "$BENCH_DIR/tier-cost.py" snapshot "$lpid" "$BENCH_DB" "$run_dir.log" "$at" "$run_dir.at$at.json" ||
        { ok=false; break; }
    done
    timeout 600 tail --pid="$lpid" -f /dev/null || stop_pid "$lpid"
    code=0; wait "$lpid" || code=$?
    verified=$(python3 -c 'import json,sys
try: print(str(json.load(open(sys.argv[1]))["verification"]["mismatches"] == 0).lower())
except Exception: print("false")' "$run_dir/summary.json")
    if $ok; then
      python3 "$BENCH_DIR/tier-cost.py" row "$run_dir.at$((STEP - WINDOW)).json" "$run_dir.at$STEP.json" \
        "$run_dir.at$((2 * STEP - WINDOW)).json" "$run_dir.at$((2 * STEP - 1)).json" "${hdr[@]}" \
        "workload=$w" "servers=$s" "consumers=$c" "rep=$rep" "rate=$HIGH" "load1=$load1" \
        "load1_end=$(cut -d' ' -f1 /proc/loadavg)" "verified=$verified" "exit=$code" >>"$OUT/data.csv.new"
      hdr=()
    else
      log "run $w s$s c$c rep $rep: no window measured (see $run_dir.log)"
    fi
  done
done
mv "$OUT/data.csv.new" "$OUT/data.csv"

python3 - "$OUT" "$WORK/$NAME-machine.json" "$COMMAND" <<'PY' | tee "$OUT/table.md"
import csv, json, statistics as st, sys
out, machine, command = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/data.csv")))
m = json.load(open(machine)); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
tiers = ["client", "server", "consumer", "rabbit", "haproxy", "postgres", "total"]
keys = ["us_" + t for t in tiers] + ["dus_" + t for t in tiers]
groups = {}
for r in rows:
    groups.setdefault((r["workload"], int(r["servers"]), int(r["consumers"])), []).append(r)
med = lambda rs, k: st.median(float(r[k]) for r in rs)
cells = []
print(f"CPU µs per request by tier at {rows[0]['rate']} req/s (open model), median of the repeats;"
      " then the marginal µs per request between the two rates (Δ CPU/s over Δ req/s)\n")
print("| workload | servers | consumers | " + " | ".join(tiers) + " | marginal: " + " | ".join(tiers)
      + " | req/s | writes/msg | bytes/msg | msgs/txn | load1 | verified |")
print("|---" * (2 * len(tiers) + 9) + "|")
for (w, s, c), rs in sorted(groups.items()):
    cell = {"workload": w, "servers": s, "consumers": c, "n": len(rs),
            **{k: med(rs, k) for k in keys},
            **{k: med(rs, k) for k in ("rps", "writes_per_msg", "bytes_per_msg", "msgs_per_txn", "txn_per_s")},
            "load1": [r["load1"] for r in rs], "verified": all(r["verified"] == "true" and r["exit"] == "0" for r in rs)}
    cells.append(cell)
    print(f"| {w} | {s} | {c} | " + " | ".join(f"{cell[k]:.1f}" for k in keys)
          + f" | {cell['rps']:.0f} | {cell['writes_per_msg']:.2f} | {cell['bytes_per_msg']:.0f} | {cell['msgs_per_txn']:.2f}"
          + f" | {'/'.join(cell['load1'])} | {cell['verified']} |")
json.dump({"machine": m, "command": command, "cells": cells,
           "setup": "one fresh `albumstore-local.jar --topology cluster` per run, the client at a fixed rate (open "
                    "model, two rate steps), CPU seconds from /proc/PID/stat over the last seconds of each step; tiers: the launcher JVM "
                    "(client), server JVMs, consumer JVMs, the 3 beam.smp nodes and their helpers, HAProxy, PostgreSQL "
                    "(this database's backends + the shared postmaster, checkpointer, WAL writer, ...)"},
          open(f"{out}/summary.json", "w"), indent=2)
PY
readme_stub "$OUT" "$COMMAND" "CPU µs per request of every tier of the cluster topology by instance count"

#!/usr/bin/env bash
# Emulated machines: the cluster topology with every process of the run in a cgroup v1 CPU group of
# its own, capped by a CFS quota (cpu.cfs_quota_us over cpu.cfs_period_us), as if each ran on a
# machine of that size. The check of the capacity model that can fail: its service demands are
# calibrated in one plan and predict the others (results/model-check/).
#
#   bench/emulated.sh PLAN [PLAN...]
#
# A plan file (bench/plans/*.plan) gives per tier the instance count and the cores per instance;
# "#" starts a comment:
#     client 1 0.30        # the load client (it runs in the launcher JVM)
#     server 1 0.30        # each server JVM
#     consumer 2 0.12      # each consumer JVM
#     rabbit 3 0.10        # each RabbitMQ node (beam.smp and its helpers)
#     haproxy 1 0.10
#     postgres 1 0.15      # the run's own PostgreSQL (postmaster and every backend)
#     workload album-reviews
#     threads 256          # client threads (closed model: saturated)
# Per plan: a PostgreSQL of the run's own (initdb, its own port, never the shared 5432), one
# `albumstore-local.jar --topology cluster` (3 RabbitMQ nodes with a quorum queue, HAProxy, the
# server and consumer JVMs, the client through the balancer, verified) started in the client's group;
# bench/emulated.py moves each process it starts into its own group as it appears. The groups run
# without a quota while the stack starts (a RabbitMQ node takes a minute of CPU to boot) and during
# the first EMU_WARM seconds of load (default 20: the JVMs compile their hot code, which at 0.05
# cores would take minutes), then get their quotas; the JVMs size their pools from the host's cores,
# not from the quota. The client runs EMU_SECONDS (default 90); the last EMU_WINDOW seconds
# (default 30, ending a second before the end) are measured: writes/s, each group's CPU
# (cpuacct.usage) and throttled periods (cpu.stat). On a machine shared with other jobs a quota is
# only a ceiling, so the run's parent group gets cpu.shares EMU_SHARES (default 65536, the weight
# of 64 busy processes) and each group a weight in proportion to its quota: then each gets its quota
# when it asks for it, and the run never takes more than the plan's sum of quotas.
# Writes results/${EMU_NAME:-model-check}/runs/{data.csv,<plan>.json}. Only the run's processes
# are touched: the groups (cpu and cpuacct hierarchies, emu.<pid>/...) hold only them; on exit,
# also when interrupted, the launcher is stopped by PID, then whatever is left in the run's groups,
# then the run's PostgreSQL; the groups and the database directory are removed.
source "$(dirname "$0")/lib.sh"
[[ $# -ge 1 ]] || { sed -n 2,30p "$0" >&2; exit 2; }
[[ -w /sys/fs/cgroup/cpu && -w /sys/fs/cgroup/cpuacct ]] || { echo "needs root and cgroup v1 cpu, cpuacct" >&2; exit 2; }
require_cluster_launcher
NAME="${EMU_NAME:-model-check}"
OUT="$RESULTS/$NAME/runs"; mkdir -p "$OUT"
SECONDS_RUN="${EMU_SECONDS:-90}"; WINDOW="${EMU_WINDOW:-30}"; WARM="${EMU_WARM:-20}"; SHARES="${EMU_SHARES:-65536}"
ROOT="emu.$$"
PG_BIN="$(dirname "$(readlink -f "$(command -v initdb)")")"
PG_DIR="$WORK/$ROOT-pg"
PG_PID=""
LAUNCHER=""
PLACER=""

# Every process left in the run's groups (epmd, a daemon a node may start and other nodes share, is
# handed back to the root group instead of stopped).
group_pids() {
  local g
  for g in /sys/fs/cgroup/cpu/"$ROOT"/*/; do
    [[ "${1:-}" == all || "$(basename "$g")" != postgres ]] && cat "$g/cgroup.procs" 2>/dev/null
  done
  return 0
}

teardown() {
  local pid g
  set +e  # every step runs, whatever the one before it did
  [[ -n "$LAUNCHER" ]] && kill "$LAUNCHER" 2>/dev/null && timeout 60 tail --pid="$LAUNCHER" -f /dev/null
  [[ -n "$PLACER" ]] && kill "$PLACER" 2>/dev/null
  for pid in $(group_pids all); do
    if [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == epmd ]]; then
      echo "$pid" >/sys/fs/cgroup/cpu/cgroup.procs; echo "$pid" >/sys/fs/cgroup/cpuacct/cgroup.procs
    fi
  done
  for pid in $(group_pids); do kill "$pid" 2>/dev/null || true; done
  [[ -n "$PG_PID" ]] && kill -INT "$PG_PID" 2>/dev/null && timeout 30 tail --pid="$PG_PID" -f /dev/null
  sleep 1
  for pid in $(group_pids all); do kill -9 "$pid" 2>/dev/null || true; done
  for g in /sys/fs/cgroup/cpu/"$ROOT" /sys/fs/cgroup/cpuacct/"$ROOT"; do
    [[ -d "$g" ]] || continue
    for _ in $(seq 1 50); do
      find "$g" -mindepth 1 -type d -exec rmdir {} + 2>/dev/null || true
      rmdir "$g" 2>/dev/null && break
      sleep 0.2
    done
  done
  rm -rf "$PG_DIR"
  LAUNCHER=""; PLACER=""; PG_PID=""
  set -e
}
trap 'teardown; cleanup' EXIT

# make_groups PLAN: one group per process of the plan in both hierarchies, no quota yet.
make_groups() {
  local tier count cores i g h
  for h in cpu cpuacct; do mkdir -p "/sys/fs/cgroup/$h/$ROOT"; done
  echo "$SHARES" >"/sys/fs/cgroup/cpu/$ROOT/cpu.shares"
  while read -r tier count cores; do
    for ((i = 1; i <= count; i++)); do
      g="$tier$i"; [[ "$count" == 1 && "$tier" != server && "$tier" != consumer && "$tier" != rabbit ]] && g="$tier"
      for h in cpu cpuacct; do mkdir -p "/sys/fs/cgroup/$h/$ROOT/$g"; done
      echo 100000 >"/sys/fs/cgroup/cpu/$ROOT/$g/cpu.cfs_period_us"
      echo -1 >"/sys/fs/cgroup/cpu/$ROOT/$g/cpu.cfs_quota_us"
      awk -v c="$cores" 'BEGIN {printf "%d\n", c * 10240}' >"/sys/fs/cgroup/cpu/$ROOT/$g/cpu.shares"
      echo "$g $cores" >>"$WORK/$ROOT.quotas"
    done
  done < <(tiers "$1")
}

# tiers PLAN: "tier count cores" per tier line of the plan.
tiers() {
  sed 's/#.*//' "$1" | awk '$1 ~ /^(client|server|consumer|rabbit|haproxy|postgres)$/ {print $1, $2, $3}'
}

setting() {
  sed 's/#.*//' "$1" | awk -v k="$2" -v d="$3" '$1 == k {v = $2} END {print (v == "" ? d : v)}'
}

apply_quotas() {
  local g cores
  while read -r g cores; do
    awk -v c="$cores" 'BEGIN {printf "%d\n", c * 100000}' >"/sys/fs/cgroup/cpu/$ROOT/$g/cpu.cfs_quota_us"
  done <"$WORK/$ROOT.quotas"
}

# in_group GROUP CMD...: runs CMD inside GROUP of both hierarchies; run with & (a subshell), it
# replaces that subshell, so $! is CMD's own PID.
in_group() {
  local g="$1"; shift
  exec bash -c 'echo $$ >"/sys/fs/cgroup/cpu/$0/cgroup.procs"; echo $$ >"/sys/fs/cgroup/cpuacct/$0/cgroup.procs"; exec "$@"' \
    "$ROOT/$g" "$@"
}

start_postgres() {
  local port="$1"
  rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"; chown postgres "$PG_DIR"
  setpriv --reuid postgres --regid postgres --init-groups "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres >"$PG_DIR.initdb.log" 2>&1
  in_group postgres setpriv --reuid postgres --regid postgres --init-groups "$PG_BIN/postgres" -D "$PG_DIR/data" \
    -p "$port" -k "$PG_DIR" -c listen_addresses=127.0.0.1 -c max_connections=200 >"$PG_DIR.log" 2>&1 &
  PG_PID=$!
  for _ in $(seq 1 100); do
    psql -h 127.0.0.1 -p "$port" -U postgres -Atqc "create database albumstore_emu" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "the run's PostgreSQL did not start (see $PG_DIR.log)" >&2; exit 3
}

hdr=(--header)
[[ -f "$OUT/data.csv" ]] && hdr=()
for plan in "$@"; do
  pname="$(basename "$plan" .plan)"
  rm -f "$WORK/$ROOT.quotas"
  make_groups "$plan"
  port=$((20000 + RANDOM % 20000))
  start_postgres "$port"
  servers=$(tiers "$plan" | awk '$1 == "server" {print $2}')
  consumers=$(tiers "$plan" | awk '$1 == "consumer" {print $2}')
  nodes=$(tiers "$plan" | awk '$1 == "rabbit" {print $2}')
  workload=$(setting "$plan" workload album-reviews); threads=$(setting "$plan" threads 256)
  run_dir="$WORK/$ROOT-$pname"; rm -rf "$run_dir" "$run_dir".*
  load1=$(cut -d' ' -f1 /proc/loadavg)
  log "$pname: $servers server(s), $consumers consumer(s), $nodes nodes, $workload, $threads threads (load $load1)"
  ALBUMSTORE_QUEUE="bench.$NAME.$$.$pname" ALBUMSTORE_JDBC_URL="jdbc:postgresql://127.0.0.1:$port/albumstore_emu" \
    in_group client java -jar "$LOCAL_JAR" --topology cluster --servers "$servers" --consumers "$consumers" \
    --broker-nodes "$nodes" --workload "$workload" --threads "$threads" --duration "$SECONDS_RUN" \
    --out "$run_dir" >"$run_dir.log" 2>&1 &
  LAUNCHER=$!
  python3 "$BENCH_DIR/emulated.py" place "$LAUNCHER" "$ROOT" &
  PLACER=$!
  a=$((SECONDS_RUN - WINDOW - 1)); b=$((SECONDS_RUN - 1))
  if ! python3 "$BENCH_DIR/emulated.py" snap "$ROOT" "$run_dir.log" "$WARM" "$run_dir.start.json" "$LAUNCHER"; then
    log "$pname: the stack did not start or the load did not run (see $run_dir.log); next plan"
    teardown; continue
  fi
  apply_quotas
  log "$pname: quotas on"
  if ! python3 "$BENCH_DIR/emulated.py" snap "$ROOT" "$run_dir.log" "$a" "$run_dir.a.json" "$LAUNCHER" ||
    ! python3 "$BENCH_DIR/emulated.py" snap "$ROOT" "$run_dir.log" "$b" "$run_dir.b.json" "$LAUNCHER"; then
    log "$pname: the launcher ended before the window (see $run_dir.log); next plan"
    teardown; continue
  fi
  timeout 900 tail --pid="$LAUNCHER" -f /dev/null || true
  code=0; wait "$LAUNCHER" || code=$?
  verified=$(python3 -c 'import json,sys
try: print(str(json.load(open(sys.argv[1]))["verification"]["mismatches"] == 0).lower())
except Exception: print("false")' "$run_dir/summary.json")
  python3 "$BENCH_DIR/emulated.py" report "$plan" "$run_dir.a.json" "$run_dir.b.json" "${hdr[@]}" \
    "plan=$pname" "day=$(date -u +%F)" "start=$(date -u +%H:%M)" "load1=$load1" "verified=$verified" "exit=$code" \
    | tee -a "$OUT/data.csv"
  hdr=()
  cp "$plan" "$OUT/$pname.plan"
  LAUNCHER=""
  teardown
done

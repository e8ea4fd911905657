#!/usr/bin/env bash
# The write stream over P queues against one queue, on the 3-node cluster,
# paired. Per run: the confirmed-write rate (the client's successful writes/s at saturation, i.e.
# this machine's ceiling for the topology), the writes' p99, writes per message (writes acknowledged
# / messages the servers published to the partitions, from the management API), and each RabbitMQ
# node's share of the three nodes' CPU over the load (from /proc/PID/stat of the launcher's nodes),
# beside which node leads which partition.
#
#   bench/partitions.sh [REPS=3] [ITERATIONS=100] [THREADS=256] [PARTITIONS="1 3"] [SERVERS=2] [CONSUMERS=2]
#
# Each run is one `ALBUMSTORE_QUEUE_PARTITIONS=P java -jar albumstore-local.jar --topology cluster`
# (a fresh cluster, verified); the values of P run interleaved within each repetition, the order
# rotated per repetition. Writes results/partitions/{data.csv,summary.json,table.md,README.md}.
# Needs rabbitmq-server and haproxy (apt-get install rabbitmq-server haproxy) and the local jar.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; ITERATIONS="${2:-100}"; THREADS="${3:-256}"; PARTITIONS="${4:-1 3}"
SERVERS="${5:-2}"; CONSUMERS="${6:-2}"
OUT="$RESULTS/partitions"; mkdir -p "$OUT"
COMMAND="bench/partitions.sh $REPS $ITERATIONS $THREADS \"$PARTITIONS\" $SERVERS $CONSUMERS"
log "$COMMAND"
require_local_jar
command -v haproxy >/dev/null || [[ -x /usr/sbin/haproxy ]] || { echo "needs haproxy: apt-get install haproxy" >&2; exit 2; }
ensure_database
machine_json >"$WORK/partitions-machine.json"
read -r -a values <<<"$PARTITIONS"

# The launcher's RabbitMQ nodes: named <prefix>-<n>@localhost on its "partitions:" line, with their
# files under /tmp/albumstore-cluster-<run id>-*/rabbit/node-<n>/ (on each beam.smp's command line).
node_pids() {
  local id=${1#albumstore-} n
  for n in 1 2 3; do
    pgrep -f -- "beam.smp.*albumstore-cluster-$id-[0-9]*/rabbit/node-$n/" | head -1 || echo 0
  done
}

# Messages the servers published to the stream's queues so far, per the management API.
published() {
  local api=$1 p=$2 i q total=0 n
  for ((i = 0; i < p; i++)); do
    q=${ALBUMSTORE_QUEUE:-albumstore.writes}; ((i > 0)) && q="$q.$i"
    n=$(curl -s -u "$RMQ_AUTH" "$api/api/queues/%2F/$q" | jq -r '.message_stats.publish // 0' 2>/dev/null || echo 0)
    total=$((total + ${n:-0}))
  done
  echo "$total"
}

# One run: starts the launcher, samples the nodes' CPU and the published count while the client
# runs, and prints the data.csv row.
run_one() {
  local p=$1 rep=$2 dir="$WORK/partitions-p$1-r$2" logf load1 pid prefix api pids=() t0=() t1=() pub=0 i
  rm -rf "$dir"; logf="$dir.log"
  load1=$(cut -d' ' -f1 /proc/loadavg)
  ALBUMSTORE_JDBC_URL="$JDBC_URL" ALBUMSTORE_QUEUE_PARTITIONS="$p" timeout 1800 java -jar "$LOCAL_JAR" \
    --topology cluster --servers "$SERVERS" --consumers "$CONSUMERS" --threads "$THREADS" \
    --iterations "$ITERATIONS" --no-progress --out "$dir" >"$logf" 2>&1 &
  pid=$!
  for ((i = 0; i < 1200; i++)); do # the client starts within 10 minutes or the run is void
    grep -q '^\[6/6\] client:' "$logf" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  prefix=$(grep -m1 'partitions:' "$logf" | grep -Eo 'led by [^ ,]+' | head -1 | sed -E 's/led by (.*)-[0-9]+@.*/\1/')
  api=$(grep -m1 '^\[6/6\] client:' "$logf" | grep -Eo -- '--rmq-api [^ ]+' | cut -d' ' -f2)
  if [[ -n $prefix ]]; then
    mapfile -t pids < <(node_pids "$prefix")
    for i in 0 1 2; do t0[i]=$(cpu_s "${pids[i]}" 2>/dev/null || echo 0); t1[i]=${t0[i]}; done
  fi
  # Until the load ends: the last reading taken while every node still ran.
  while kill -0 "$pid" 2>/dev/null && ! grep -q 'PostLoadCheck - verifying\|^verified:' "$logf"; do
    if [[ -n $prefix ]]; then
      for i in 0 1 2; do t1[i]=$(cpu_s "${pids[i]}" 2>/dev/null || echo "${t1[i]}"); done
      [[ -n $api ]] && pub=$(published "$api" "$p")
    fi
    sleep 1
  done
  wait "$pid"; local code=$?
  python3 - "$dir/summary.json" "$p" "$rep" "$code" "$load1" "$pub" "${t0[*]:-0 0 0}" "${t1[*]:-0 0 0}" \
    "$(grep -m1 'partitions:' "$logf" | sed 's/^ *partitions: //')" <<'PY'
import json, sys
path, p, rep, code, load1, pub, t0, t1, leaders = sys.argv[1:]
cpu = [b - a for a, b in zip(map(float, t0.split()), map(float, t1.split()))]
total = sum(cpu)
shares = [c / total if total > 0 else float("nan") for c in cpu]
try:
    d = json.load(open(path))
except OSError:
    d = {}
w = d.get("allWrites") or {}
v = d.get("verification") or {}
ok, pub = w.get("ok", 0), int(pub)
print(f"{p},{rep},{w.get('throughput', 'nan')},{w.get('p50Ms', 'nan')},{w.get('p99Ms', 'nan')},"
      f"{ok},{pub},{ok / pub if pub else float('nan'):.2f},"
      + ",".join(f"{s:.3f}" for s in shares) + f",{max(shares):.3f},{total:.1f},"
      f"{str(v.get('mismatches', 1) == 0).lower()},{code},{load1},\"{leaders}\"")
PY
}

echo "partitions,rep,throughput,p50_ms,p99_ms,writes_ok,messages,writes_per_msg,node1_share,node2_share,node3_share,max_node_share,nodes_cpu_s,verified,exit,load1,leaders" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#values[@]}
  for ((k = 0; k < n; k++)); do
    p=${values[$(((k + rep - 1) % n))]}
    log "rep $rep: P=$p"
    run_one "$p" "$rep" | tee -a "$OUT/data.csv"
  done
done

ratios=()
for p in "${values[@]:1}"; do
  for m in throughput p99_ms writes_per_msg max_node_share; do
    ratios+=(--ratio "partitions=$p/partitions=${values[0]}:$m")
  done
done
python3 - "$WORK/partitions-machine.json" "$OUT/extra.json" "$COMMAND" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": sys.argv[3],
  "setup": "one fresh `ALBUMSTORE_QUEUE_PARTITIONS=P java -jar albumstore-local.jar --topology cluster` per run "
           "(3 RabbitMQ nodes, P quorum queues of 3 members with balanced leaders, HAProxy, the servers and "
           "consumers), the client through the balancer, verified; P interleaved, order rotated per repeat; "
           "node shares = each node's CPU over the three nodes' from the client's start to the end of the load"},
          open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group partitions \
  --metrics throughput,p99_ms,writes_per_msg,node1_share,node2_share,node3_share,max_node_share \
  --pair-by rep "${ratios[@]}" --extra "$OUT/extra.json" \
  --title "3-node cluster: one queue against P partitions (confirmed writes/s, p99, writes per message, busiest node's CPU share)" \
  | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
readme_stub "$OUT" "$COMMAND" "the write stream over P queues against one queue on the 3-node cluster"

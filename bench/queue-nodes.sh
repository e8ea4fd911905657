#!/usr/bin/env bash
# The queue ceiling at P = 1 against P = 3 quorum queues on the same 3 nodes, in bytes/s, with what
# each node wrote and burnt: does spreading the leaders raise a bytes-bound ceiling?
#
#   bench/queue-nodes.sh [REPS=2] [SECONDS=30] [SIZE=110000] [PRODUCERS=6] [CONFIRM_WINDOW=50]
#
# One 3-node cluster of the installed RabbitMQ (start_cluster: RabbitClusterMain of the local jar,
# never the machine's node). Per run rabbitmq-perf-test publishes persistent SIZE-byte messages
# with confirms for SECONDS, PRODUCERS in all, spread over P quorum queues of 3 members (leaders
# placed `balanced`, x-queue-leader-locator), one consumer per queue; P = 1 and P = 3 interleaved,
# order rotated per repeat; queues deleted after each run. Over the run's middle (from 5 s after
# the start to 5 s before the end): each node's written bytes (/proc/PID/io write_bytes of its
# beam.smp and helpers: what it sent to its disk) and CPU seconds (/proc/PID/stat), and the
# confirmed publish rate from perf-test. Writes results/${QN_NAME:-queue-nodes}/{data.csv,table.md}.
source "$(dirname "$0")/lib.sh"
REPS="${1:-2}"; SECONDS_RUN="${2:-30}"; SIZE="${3:-110000}"; PRODUCERS="${4:-6}"; WINDOW="${5:-50}"
NAME="${QN_NAME:-queue-nodes}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
require_local_jar
require_perftest
PT_CP="$(printf '%s:' "$PERFTEST_DIR"/*.jar)"
COMMAND="bench/queue-nodes.sh $REPS $SECONDS_RUN $SIZE $PRODUCERS $WINDOW"

read -r cpid hold addr <<<"$(start_cluster 3)"; BENCH_PIDS+=("$cpid" "$hold")
port="${addr%%,*}"; port="${port##*:}"
log "3 nodes: $addr (launcher $cpid)"

# node_pids: "N PID" per node of this cluster (beam.smp descendants of the launcher, node-N).
node_pids() {
  python3 - "$cpid" <<'PY'
import os, re, sys
root = int(sys.argv[1]); kids = {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try:
            s = open(f"/proc/{d}/stat").read(); kids.setdefault(int(s[s.rindex(")") + 2:].split()[1]), []).append(int(d))
        except OSError: pass
stack = [root]
while stack:
    p = stack.pop(); stack += kids.get(p, [])
    try:
        if open(f"/proc/{p}/comm").read().strip() == "beam.smp":
            m = re.search(r"node-(\d+)", open(f"/proc/{p}/cmdline", "rb").read().decode(errors="replace"))
            if m: print(m.group(1), p)
    except OSError: pass
PY
}
mapfile -t nodes < <(node_pids | sort -n)
log "nodes: ${nodes[*]}"

# sample: "N write_bytes cpu_s" per node (the node's beam.smp and every descendant).
sample() {
  local n pid
  for line in "${nodes[@]}"; do
    read -r n pid <<<"$line"
    python3 - "$pid" "$n" <<'PY'
import os, sys
root, n = int(sys.argv[1]), sys.argv[2]; kids = {}
for d in os.listdir("/proc"):
    if d.isdigit():
        try:
            s = open(f"/proc/{d}/stat").read(); kids.setdefault(int(s[s.rindex(")") + 2:].split()[1]), []).append(int(d))
        except OSError: pass
wb = cpu = 0.0; stack = [root]; hz = os.sysconf("SC_CLK_TCK")
while stack:
    p = stack.pop(); stack += kids.get(p, [])
    try:
        io = dict(l.split(": ") for l in open(f"/proc/{p}/io").read().splitlines())
        s = open(f"/proc/{p}/stat").read(); r = s[s.rindex(")") + 2:].split()
        wb += int(io["write_bytes"]); cpu += (int(r[11]) + int(r[12])) / hz
    except (OSError, KeyError): pass
print(n, int(wb), f"{cpu:.2f}")
PY
  done
}

echo "partitions,rep,size,publish_msgs_per_s,mb_per_s,node1_write_mb_s,node2_write_mb_s,node3_write_mb_s,node1_cpu,node2_cpu,node3_cpu,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  order=(1 3); ((rep % 2 == 0)) && order=(3 1)
  for P in "${order[@]}"; do
    pattern="bench.qn.$$.$rep.p$P.%d"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    logf="$WORK/$NAME-p$P-r$rep.log"
    timeout $((SECONDS_RUN + 120)) java -Xmx512m -cp "$PT_CP" com.rabbitmq.perf.PerfTest \
      --uri "amqp://guest:guest@127.0.0.1:$port/%2F" --queue-pattern "$pattern" --queue-pattern-from 1 \
      --queue-pattern-to "$P" -x "$PRODUCERS" -y "$P" --quorum-queue --queue-args x-queue-leader-locator=balanced \
      -c "$WINDOW" -s "$SIZE" -z "$SECONDS_RUN" -ad true >"$logf" 2>&1 &
    pt=$!; BENCH_PIDS+=("$pt")
    sleep 5; s0=$(sample); t0=$(date +%s.%N)
    sleep $((SECONDS_RUN - 10)); s1=$(sample); t1=$(date +%s.%N)
    wait "$pt" || true
    pub=$(grep -Eo 'sending rate avg: [0-9]+' "$logf" | grep -Eo '[0-9]+$' | tail -1)
    row=$(python3 - "$s0" "$s1" "$t0" "$t1" <<'PY'
import sys
a = {l.split()[0]: l.split()[1:] for l in sys.argv[1].splitlines()}
b = {l.split()[0]: l.split()[1:] for l in sys.argv[2].splitlines()}
dt = float(sys.argv[4]) - float(sys.argv[3])
wb = [(int(b[n][0]) - int(a[n][0])) / dt / 1e6 for n in ("1", "2", "3")]
cpu = [(float(b[n][1]) - float(a[n][1])) / dt for n in ("1", "2", "3")]
print(",".join(f"{x:.1f}" for x in wb) + "," + ",".join(f"{x:.2f}" for x in cpu))
PY
)
    mbs=$(awk -v p="${pub:-0}" -v s="$SIZE" 'BEGIN {printf "%.1f", p * s / 1e6}')
    log "rep $rep P=$P: ${pub:-nan} msg/s confirmed, $mbs MB/s; per node written MB/s and cores: $row"
    echo "$P,$rep,$SIZE,${pub:-nan},$mbs,$row,$load1" >>"$OUT/data.csv"
  done
done

python3 - "$OUT" "$COMMAND" <<'PY' | tee "$OUT/table.md"
import csv, statistics as st, sys
out, command = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/data.csv")))
print(f"`{command}`\n")
print("| P | runs | confirmed msg/s | confirmed MB/s | written MB/s per node (1/2/3) | cores per node (1/2/3) | load1 |")
print("|---|---|---|---|---|---|---|")
for p in ("1", "3"):
    rs = [r for r in rows if r["partitions"] == p]
    med = lambda k: st.median(float(r[k]) for r in rs)
    print(f"| {p} | {len(rs)} | {med('publish_msgs_per_s'):,.0f} | {med('mb_per_s'):.1f} | "
          + "/".join(f"{med(f'node{n}_write_mb_s'):.1f}" for n in (1, 2, 3)) + " | "
          + "/".join(f"{med(f'node{n}_cpu'):.2f}" for n in (1, 2, 3)) + " | "
          + ", ".join(r["load1"] for r in rs) + " |")
PY

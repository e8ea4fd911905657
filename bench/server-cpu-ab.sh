#!/usr/bin/env bash
# Side-by-side CPU cost of server builds or settings: the server process's CPU time per request
# (/proc/PID/stat utime + stime over a wrk run, divided by the requests wrk completed) under
# POST /review (JIT compiler threads left out), for two or more variants running at once, interleaved and rotated every repeat.
# CPU per request, unlike req/s, stays comparable while other jobs load the machine, as long as the
# variants take turns (a change to the write path is kept only if it measures cheaper).
#
#   bench/server-cpu-ab.sh [REPS=4] [SECONDS=10] [CONNECTIONS=256] NAME=JAR[,VAR=value...] ...
# e.g. bench/server-cpu-ab.sh 6 10 256 before=/tmp/before.jar after=server/target/albumstore-server.jar
#      bench/server-cpu-ab.sh 4 10 256 t200=$SERVER_JAR t16=$SERVER_JAR,ALBUMSTORE_HTTP_THREADS=16
# Each variant is its own server JVM with its own queue and no consumer (the queue is purged after
# each run), like review-alone in bench/sustained.sh. The first variant also runs the do-nothing
# POST /bench/noop each repeat, as the reference. Prints one line per run, then per variant the
# median server µs per request and its paired ratio to the first variant; writes
# $RESULTS/${AB_NAME:-server-cpu-ab}/data.csv. The broker's CPU (beam.smp, the shared
# RabbitMQ: it includes whatever else uses it meanwhile) and the writes per broker message (the
# server's albumstore_publish_bundle_writes) come beside. AB_WARMUP: seconds of warm-up per variant.
# AB_SCRIPT (a bench/wrk script, default post-review-sustained) and AB_PATH (appended to each
# variant's base URL, default none) measure another request instead, e.g. the reads:
#   AB_SCRIPT=get AB_PATH=/review/ab-read bench/server-cpu-ab.sh 4 10 64 before=... after=...
# (the album ID of AB_PATH gets a counts row first, so that the GET answers 200).
source "$(dirname "$0")/lib.sh"
REPS="${1:-4}"; SECS="${2:-10}"; CONNS="${3:-256}"; shift $(($# < 3 ? $# : 3))
(($# >= 1)) || { echo "usage: $0 REPS SECONDS CONNECTIONS NAME=JAR[,VAR=value...] ..." >&2; exit 2; }
OUT="$RESULTS/${AB_NAME:-server-cpu-ab}"; mkdir -p "$OUT"
ensure_database >/dev/null 2>&1
SCRIPT="${AB_SCRIPT:-post-review-sustained}"; APATH="${AB_PATH:-}"
if [[ "$APATH" == /review/* ]]; then
  psql_bench -c "INSERT INTO album_reviews (album_id, likes, dislikes) VALUES ('${APATH#/review/}', 2, 1) ON CONFLICT DO NOTHING"
fi

# A JVM's CPU seconds without its JIT compiler threads: on a busy machine the JIT of a server that
# got little CPU is still compiling during the measured runs, which is not a cost per request. The
# process's own total keeps the CPU of threads that ended (Tomcat retires idle workers); the
# compiler threads are subtracted, and they stay put (-XX:-UseDynamicNumberOfCompilerThreads below).
jvm_cpu_s() {
  python3 - "$1" <<'PY'
import glob, sys
pid = sys.argv[1]
def ticks(f):
    s = open(f).read()
    fields = s[s.rindex(")") + 2 :].split()
    return s[s.index("(") + 1 : s.rindex(")")], int(fields[11]) + int(fields[12])  # utime + stime
_, total = ticks(f"/proc/{pid}/stat")
for f in glob.glob(f"/proc/{pid}/task/*/stat"):
    try:
        comm, t = ticks(f)
    except OSError:
        continue  # the thread ended meanwhile
    if "CompilerThre" in comm:
        total -= t
print(total / 100)
PY
}
export SERVER_EXTRA_JAVA_OPTS="${SERVER_EXTRA_JAVA_OPTS:-} -XX:-UseDynamicNumberOfCompilerThreads"
BEAM=$(pgrep -u rabbitmq -x beam.smp | head -1) || { echo "RabbitMQ (beam.smp of user rabbitmq) not found" >&2; exit 1; }
# "messages writes": the server's broker messages so far and the writes they carried.
batches() {
  curl -s -m 5 "$1/metrics" | awk '/^albumstore_publish_bundle_writes_count/{c=$2} /^albumstore_publish_bundle_writes_sum/{s=$2} END{print c+0, s+0}'
}

names=(); pids=(); urls=(); queues=()
for spec in "$@"; do
  name="${spec%%=*}"; rest="${spec#*=}"
  IFS=, read -r -a parts <<<"$rest"
  jar="${parts[0]}"; [[ -f "$jar" ]] || { echo "no such jar: $jar" >&2; exit 2; }
  q=$(new_queue "ab-$name"); p=$(free_port)
  SERVER_JAR="$jar" start_server "ab-$name" "$q" "$p" "${parts[@]:1}"
  names+=("$name"); pids+=("$SERVER_PID"); urls+=("http://127.0.0.1:$p/albumstore"); queues+=("$q")
done

purge() { curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$1/contents" || true; }

WARMUP="${AB_WARMUP:-10}" # seconds of each variant; more on a busy machine, where the JIT is slow
log "warm-up (JIT): $WARMUP s of each variant"
run_wrk "$CONNS" "$WARMUP" "${urls[0]}/bench/noop" post-noop >/dev/null
for ((i = 0; i < ${#names[@]}; i++)); do
  run_wrk "$CONNS" "$WARMUP" "${urls[$i]}$APATH" "$SCRIPT" >/dev/null; purge "${queues[$i]}"
done

echo "variant,rep,rps,p99_ms,non2xx,server_us,broker_us,writes_per_message,load1" >"$OUT/data.csv"
n=${#names[@]}
for ((rep = 1; rep <= REPS; rep++)); do
  order=(noop)
  for ((k = 0; k < n; k++)); do order+=("$(((k + rep - 1) % n))"); done
  for v in "${order[@]}"; do
    if [[ $v == noop ]]; then
      i=0; name=noop; url="${urls[0]}/bench/noop"; script=post-noop
    else
      i=$v; name="${names[$i]}"; url="${urls[$i]}$APATH"; script="$SCRIPT"
    fi
    load1=$(cut -d' ' -f1 /proc/loadavg)
    read -r m0 w0 < <(batches "${urls[$i]}")
    s0=$(jvm_cpu_s "${pids[$i]}"); b0=$(cpu_s "$BEAM")
    read -r rps _ p99 _ non2xx _ < <(run_wrk "$CONNS" "$SECS" "$url" "$script")
    s1=$(jvm_cpu_s "${pids[$i]}"); b1=$(cpu_s "$BEAM")
    read -r m1 w1 < <(batches "${urls[$i]}")
    purge "${queues[$i]}"
    python3 - "$name" "$rep" "$rps" "$p99" "$non2xx" "$s0" "$s1" "$b0" "$b1" "$m0" "$m1" "$w0" "$w1" "$SECS" "$load1" <<'PY' | tee -a "$OUT/data.csv"
import sys
n, r, rps, p99, bad, s0, s1, b0, b1, m0, m1, w0, w1, secs, load1 = sys.argv[1:]
req = float(rps) * float(secs)
us = lambda a, b: 1e6 * (float(b) - float(a)) / req
msgs = float(m1) - float(m0)
wpm = f"{(float(w1) - float(w0)) / msgs:.1f}" if msgs > 0 else ""
print(f"{n},{r},{float(rps):.0f},{p99},{bad},{us(s0, s1):.2f},{us(b0, b1):.2f},{wpm},{load1}")
PY
  done
done

python3 - "$OUT/data.csv" "${names[0]}" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]))); base = sys.argv[2]
by = {}
for r in rows:
    by.setdefault(r["variant"], {})[r["rep"]] = r
print("variant     server µs/req (median)  paired ratio to " + base + " (per repeat)  broker µs/req  writes/message")
for v, reps in by.items():
    srv = lambda k: float(reps[k]["server_us"])
    ratios = [srv(k) / float(by[base][k]["server_us"]) for k in reps if k in by[base]]
    med = lambda col: statistics.median([float(x[col]) for x in reps.values() if x[col]] or [0])
    print(f"{v:10s} {statistics.median(srv(k) for k in reps):8.2f}   {statistics.median(ratios):.3f} "
          f"({', '.join(f'{x:.3f}' for x in ratios)})   {med('broker_us'):6.2f}   {med('writes_per_message'):5.1f}")
PY

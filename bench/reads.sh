#!/usr/bin/env bash
# Reads and visibility, a base build against this one, interleaved in one invocation:
#   ratio   GET /review/{id} and GET /albums/{id} on 2,000 existing albums (wrk, CONNS connections,
#           random IDs: wrk/get-ids.lua) against a 404 of the same Tomcat (an unknown path), with
#           the server's CPU and PostgreSQL's (the backends of the bench database) per GET
#   c1      GET /review/{id} and GET /albums/{id} from one connection: p50/p99 of a lone read
#   pg8     the course's assignment-2 workload (--workload post-get: POST an album, GET it at once),
#   pg64    at 8 and 64 client threads: GET and POST p50/p99, time to visibility p50/mean/p99 and
#           the consumer's batching stage, from the client's per-tier table
#   a4      the course's assignment-4 shape: --get-threads readers of GET /review/{id} while 256
#           writers run (2 groups of 256, 5 s apart: the readers run from the end of the first
#           group to the end of the second): GET /review p50/p99 and the write rate; a4-split.csv
#           splits the readers' p99 (bench/a4-split.py: the server's own timing of the GETs, and
#           how much of the slowest 1% the client's and the server's JVMs spent at a safepoint)
# Every variant is a server and a consumer of its own (own queue, own ports), all up for the whole
# run, on one database; the measuring tools (wrk, this build's client.jar) are the same for all.
# Repeats rotate the variants' order; ratios are paired per repeat (benchstat.py).
#
#   BASE_SERVER_JAR=... BASE_CONSUMER_JAR=... bench/reads.sh [REPS=3] [SECONDS=10] [CONNS=64]
#       [NAME=SERVER_JAR,CONSUMER_JAR[,VAR=value...] ...]
# Without variants: base (the BASE_* jars, e.g. main's, built in a separate checkout) and this (the
# jars of this tree). A variant's VAR=value pairs go to its server's and consumer's environment, e.g.
#   this-poll2=server/target/albumstore-server.jar,consumer/target/albumstore-consumer.jar,ALBUMSTORE_READ_WAIT_POLL_MS=2
# READS_PG_ITER (default 150; a third of it at 64 threads) and READS_A4_ITER (default 6) are the
# iterations per writer of the post-get and assignment-4 runs, READS_GET_THREADS (default 3) the assignment-4 readers,
# READS_A4_DELAY (default 5) the seconds between its two groups (the readers' window is at most that),
# READS_NAME the output folder (default reads), READS_PARTS the parts to run (default all: ratio c1 pg8 pg64 a4). Writes results/reads/{data.csv,summary.json,
# chart.svg,table.md,command.txt}; client run folders stay in bench/target/work/runs.
BENCH_DB="${BENCH_DB:-albumstore_reads}" # a database of its own: the seed albums stay put
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; SECS="${2:-10}"; CONNS="${3:-64}"; shift $(($# < 3 ? $# : 3))
NAME="${READS_NAME:-reads}"
PG_ITER="${READS_PG_ITER:-150}"; A4_ITER="${READS_A4_ITER:-6}"; GET_THREADS="${READS_GET_THREADS:-3}"
A4_DELAY="${READS_A4_DELAY:-5}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="bench/reads.sh $REPS $SECS $CONNS $*"
if (($# == 0)); then
  [[ -f "${BASE_SERVER_JAR:-}" && -f "${BASE_CONSUMER_JAR:-}" ]] || {
    echo "set BASE_SERVER_JAR and BASE_CONSUMER_JAR (e.g. main's, built in a separate checkout), or name the variants" >&2
    exit 2
  }
  set -- "base=$BASE_SERVER_JAR,$BASE_CONSUMER_JAR" "this=$SERVER_JAR,$CONSUMER_JAR"
fi
# The summary, chart and tables of $OUT/data.csv (READS_SUMMARY_ONLY=1: only this, for a data.csv
# already there).
summarize() {
python3 - "$WORK/$NAME-machine.json" "$OUT/extra.json" "$COMMAND" "$*" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": sys.argv[3], "variants": sys.argv[4],
  "setup": "srv_us_per_get and pg_us_per_get: CPU microseconds per request of the variant's server JVM and of the PostgreSQL backends of the bench database during that wrk run (c64 and c1). per variant one server and one consumer JVM (own queue and ports), all up for the whole run, one database with 2,000 albums rd1..rd2000 and their counters; wrk 2 threads, random IDs (wrk/get-ids.lua); the client of this tree for every variant; parts and variants interleaved, order rotated per repeat. part=get-review/404 and get-albums/404: rps ratio to the 404 of the same server in the same repeat (column rps). pg8/pg64: --workload post-get at 8/64 threads, GET /albums p50/p99; vis_*: the time to visibility (publish -> committed) from the consumer's histogram, batch_wait_ms the mean of its batching stage. a4: 256 writers (default workload) and --get-threads readers of GET /review; get_* are the readers', write_rps all POSTs per second"},
  open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group part,variant \
  --metrics rps,p50_ms,p99_ms,srv_us_per_get,pg_us_per_get,get_p50_ms,get_p99_ms,get_rps,post_p50_ms,write_rps,vis_p50_ms,vis_mean_ms,vis_p99_ms,batch_wait_ms,failed \
  --chart bars --y get_p50_ms --extra "$OUT/extra.json" \
  --title "GET p50 (ms): right after its POST (pg8, pg64), assignment-4 readers (a4)" | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
# Each variant against the first, per part and figure: the ratio in each repeat, then the median.
python3 - "$OUT/data.csv" "${VARIANTS[0]}" <<'PY' | tee -a "$OUT/table.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]))); first = sys.argv[2]
figures = ["rps", "p50_ms", "p99_ms", "srv_us_per_get", "pg_us_per_get", "get_p50_ms", "get_p99_ms", "write_rps", "vis_p50_ms", "vis_mean_ms", "vis_p99_ms"]
val = {(r["part"], r["variant"], r["rep"], f): float(r[f]) for r in rows for f in figures if r.get(f)}
print(f"\npaired ratios to {first} (median of the per-repeat ratios; per repeat in brackets)\n")
print("| part | variant | " + " | ".join(figures) + " |")
print("|---" * (len(figures) + 2) + "|")
for part in dict.fromkeys(r["part"] for r in rows):
    for v in dict.fromkeys(r["variant"] for r in rows if r["variant"] != first):
        cells = []
        for f in figures:
            rs = [val[(part, v, rep, f)] / val[(part, first, rep, f)] for rep in sorted({r["rep"] for r in rows})
                  if (part, v, rep, f) in val and val.get((part, first, rep, f))]
            cells.append(f"{statistics.median(rs):.3f} ({', '.join(f'{x:.2f}' for x in rs)})" if rs else "-")
        if any(c != "-" for c in cells):
            print(f"| {part} | {v} | " + " | ".join(cells) + " |")
PY
}
if [[ -n "${READS_SUMMARY_ONLY:-}" ]]; then
  VARIANTS=("${@%%=*}"); summarize "$@"; exit 0
fi

require_jars
command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 2; }
ensure_database
machine_json >"$WORK/$NAME-machine.json"
truncate_tables
psql_bench -c "INSERT INTO albums (album_id, artist, title, year, image, image_size)
  SELECT 'rd' || g, 'artist ' || g, 'title ' || g, '1977', '\\x89504e47', 4 FROM generate_series(1, 2000) g;
  INSERT INTO album_reviews (album_id, likes, dislikes) SELECT 'rd' || g, g, g / 2 FROM generate_series(1, 2000) g;"

# Start every variant: server and consumer, each with its queue and ports.
declare -A URL METRICS QUEUE SPID CPID
VARIANTS=()
for spec in "$@"; do
  v="${spec%%=*}"; IFS=, read -r -a parts <<<"${spec#*=}"
  VARIANTS+=("$v"); extra=("${parts[@]:2}")
  q=$(new_queue "reads-$v"); p=$(free_port); mp=$(free_port)
  SERVER_EXTRA_JAVA_OPTS="${SERVER_EXTRA_JAVA_OPTS:-} -Xlog:safepoint:file=$WORK/$NAME-$v-server-safepoints.log:timemillis" \
    SERVER_JAR="${parts[0]}" start_server "$NAME-$v-server" "$q" "$p" "${extra[@]}"
  SPID[$v]=$SERVER_PID
  for kv in "${extra[@]}"; do export "${kv?}"; done
  CONSUMER_JAR="${parts[1]}" CONSUMER_METRICS_PORT="$mp" start_consumer "$NAME-$v-consumer" "$q"
  for kv in "${extra[@]}"; do unset "${kv%%=*}"; done
  CPID[$v]=$CONSUMER_PID; QUEUE[$v]=$q
  URL[$v]="http://127.0.0.1:$p/albumstore"; METRICS[$v]="http://127.0.0.1:$mp/metrics"
  log "variant $v: server ${URL[$v]} (pid ${SPID[$v]}), consumer pid ${CPID[$v]}, queue $q"
done

client() { # VARIANT RUN_DIR LOG [client flags]: this tree's client against a variant
  local v="$1" run="$2" logf="$3"; shift 3
  rm -rf "$run"
  timeout 900 java -Xmx1g ${CLIENT_EXTRA_JAVA_OPTS:-} -jar "$CLIENT_JAR" --url "${URL[$v]}" --queue "${QUEUE[$v]}" \
    --rmq-api "$RMQ_API" --amqp-uri "$AMQP_URI" --consumer-metrics "${METRICS[$v]}" \
    --no-progress --no-verify --out "$run" "$@" >"$logf" 2>&1 || echo "client exit $? ($logf)" >&2
}

# One client run's row: figures from its summary.json (tiers from the per-tier table).
client_row() { # KIND VARIANT REP LOAD1 SUMMARY
  python3 - "$@" <<'PY'
import json, sys
kind, v, rep, load1, path = sys.argv[1:6]
try:
    s = json.load(open(path))
except Exception:
    print(",".join([kind, v, rep] + [""] * 14 + [load1])); sys.exit()
by = {r["type"]: r for r in s["requests"]}
g = by.get("GET /albums") if kind != "a4" else by.get("GET /review")
post = by.get("POST /albums") or {}
writes = sum(r["ok"] for t, r in by.items() if t.startswith("POST"))
t = s.get("tiers") or {}
vis = t.get("visibility") or {}
bw = next((r for r in t.get("afterResponse") or [] if "batch" in r.get("stage", "")), {})
wall = s["wallSeconds"]
vals = [None, None, None, g and g.get("p50Ms"), g and g.get("p99Ms"), g and g.get("ok") / wall,
        post.get("p50Ms"), post.get("p99Ms"), writes / wall if wall else None,
        vis.get("p50Ms"), vis.get("meanMs"), vis.get("p99Ms"), bw.get("meanMs"),
        sum(r["failed"] for r in s["requests"])]
print(",".join([kind, v, rep] + ["" if x is None else str(x) for x in vals] + [load1]))
PY
}

HEADER="part,variant,rep,rps,p50_ms,p99_ms,get_p50_ms,get_p99_ms,get_rps,post_p50_ms,post_p99_ms,write_rps,vis_p50_ms,vis_mean_ms,vis_p99_ms,batch_wait_ms,failed,load1,srv_us_per_get,pg_us_per_get"
echo "$HEADER" >"$OUT/data.csv"
echo "variant,rep,$(python3 "$BENCH_DIR/a4-split.py" --header)" >"$OUT/a4-split.csv"
wrk_row() { # PART VARIANT REP LOAD1 "rps p50 p99 max non2xx errors" ["srv_us pg_us"]
  local part="$1" v="$2" rep="$3" load1="$4"; read -r rps p50 p99 _max _non2xx errors <<<"$5"
  local srv_us pg_us; read -r srv_us pg_us <<<"${6:-}"
  [[ "$part" == 404 ]] && rps=$(awk '/Requests\/sec/{print $2}' "$WORK/wrk-last.txt") # all are non-2xx there
  echo "$part,$v,$rep,$rps,$p50,$p99,,,,,,,,,,,$errors,$load1,${srv_us:-},${pg_us:-}"
}
# CPU seconds used so far by the PostgreSQL backends of the bench database (every variant's
# connections; the idle variants' cost nothing): the database's share, apart from other databases.
db_cpu_s() {
  python3 - "$CLK_TCK" "$BENCH_DB" <<'PY'
import os, sys
hz, db, total = float(sys.argv[1]), sys.argv[2], 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        title = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
        s = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    if title.startswith("postgres: ") and f" {db} " in title:
        total += sum(int(x) for x in s[s.rindex(")") + 2:].split()[11:13])
print(total / hz)
PY
}
# wrk on a path with the CPU per request of the variant's server and of the database:
# prints the wrk row's fields, then "srv_us pg_us" on a line of its own.
wrk_cpu() { # VARIANT CONNS PATH
  local v="$1" s0 d0 s1 d1 out n
  s0=$(cpu_s "${SPID[$v]}"); d0=$(db_cpu_s)
  out=$(run_wrk "$2" "$SECS" "${URL[$v]}/$3/" get-ids)
  s1=$(cpu_s "${SPID[$v]}"); d1=$(db_cpu_s)
  n=$(awk '/requests in/{print $1}' "$WORK/wrk-last.txt")
  echo "$out"
  awk -v a="$s0" -v b="$s1" -v c="$d0" -v d="$d1" -v n="$n" \
    'BEGIN { if (n > 0) printf "%.1f %.1f\n", (b - a) * 1e6 / n, (d - c) * 1e6 / n }'
}

log "warm-up: every path and workload once per variant"
for v in "${VARIANTS[@]}"; do
  for path in review albums nothing; do run_wrk "$CONNS" 5 "${URL[$v]}/$path/" get-ids >/dev/null; done
  client "$v" "$WORK/runs/$NAME-warm-$v" "$WORK/$NAME-warm-$v.txt" --threads 64 --iterations 50 --workload post-get
done

for ((rep = 1; rep <= REPS; rep++)); do
  n=${#VARIANTS[@]}; order=()
  for ((k = 0; k < n; k++)); do order+=("${VARIANTS[$(((k + rep - 1) % n))]}"); done
  for part in ${READS_PARTS:-ratio c1 pg8 pg64 a4}; do
    for v in "${order[@]}"; do
      load1=$(cut -d' ' -f1 /proc/loadavg)
      case "$part" in
        ratio)
          for path in review albums; do
            res=$(wrk_cpu "$v" "$CONNS" "$path")
            wrk_row "get-$path" "$v" "$rep" "$load1" "$(head -1 <<<"$res")" "$(tail -1 <<<"$res")" >>"$OUT/data.csv"
          done
          wrk_row 404 "$v" "$rep" "$load1" "$(run_wrk "$CONNS" "$SECS" "${URL[$v]}/nothing/" get-ids)" >>"$OUT/data.csv" ;;
        c1)
          for path in review albums; do
            res=$(wrk_cpu "$v" 1 "$path")
            wrk_row "get-$path-c1" "$v" "$rep" "$load1" "$(head -1 <<<"$res")" "$(tail -1 <<<"$res")" >>"$OUT/data.csv"
          done ;;
        pg8 | pg64)
          run="$WORK/runs/$NAME-$part-$v-r$rep"; threads=${part#pg}; iters=$PG_ITER
          ((threads > 8)) && iters=$((PG_ITER / 3))
          client "$v" "$run" "$run.txt" --threads "$threads" --iterations "$iters" --workload post-get
          client_row "$part" "$v" "$rep" "$load1" "$run/summary.json" >>"$OUT/data.csv" ;;
        a4)
          run="$WORK/runs/$NAME-a4-$v-r$rep"
          # Readers run from the end of the first group until the last ends: 2 groups of 256 writers
          # started A4_DELAY s apart give them up to that long beside the second group's writers.
          curl -fsS "${URL[$v]}/metrics" >"$run.metrics-before"
          CLIENT_EXTRA_JAVA_OPTS="-Xlog:safepoint:file=$run.client-safepoints.log:timemillis" \
            client "$v" "$run" "$run.txt" --group-size 256 --groups 2 --delay "$A4_DELAY" --iterations "$A4_ITER" \
            --get-threads "$GET_THREADS"
          curl -fsS "${URL[$v]}/metrics" >"$run.metrics-after"
          client_row a4 "$v" "$rep" "$load1" "$run/summary.json" >>"$OUT/data.csv"
          echo "$v,$rep,$(python3 "$BENCH_DIR/a4-split.py" "$run/requests.csv" "$run.client-safepoints.log" \
            "$WORK/$NAME-$v-server-safepoints.log" "$run.metrics-before" "$run.metrics-after")" >>"$OUT/a4-split.csv" ;;
      esac
      log "rep $rep $part $v: $(tail -1 "$OUT/data.csv")"
    done
  done
done

# The GET/404 ratios per variant and repeat, as rows of their own (paired inside one repeat).
python3 - "$OUT/data.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ceiling = {(r["variant"], r["rep"]): float(r["rps"]) for r in rows if r["part"] == "404" and r["rps"]}
with open(sys.argv[1], "a") as f:
    for r in [r for r in rows if r["part"] in ("get-review", "get-albums") and r["rps"]]:
        c = ceiling.get((r["variant"], r["rep"]))
        if c:
            f.write(f'{r["part"]}/404,{r["variant"]},{r["rep"]},{float(r["rps"]) / c:.4f}' + "," * 14 + f'{r["load1"]}\n')
PY
for v in "${VARIANTS[@]}"; do stop_pid "${CPID[$v]}"; stop_pid "${SPID[$v]}"; done
echo "$COMMAND" >"$OUT/command.txt"
summarize "$@"
readme_stub "$OUT" "$COMMAND" "reads and visibility, base vs this build"
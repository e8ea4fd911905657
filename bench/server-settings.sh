#!/usr/bin/env bash
# Server tuning, side by side: one server process per setting set, each measured with wrk on
# POST /review and on the do-nothing POST /bench/noop, repeats interleaved (order rotated).
#
#   bench/server-settings.sh NAME REPS SECONDS CONNECTIONS "VAR=v VAR2=v" "VAR=w" ...
# e.g. bench/server-settings.sh http-threads 3 10 256 ALBUMSTORE_HTTP_THREADS=200 ALBUMSTORE_HTTP_THREADS=32
# writes results/server-NAME/{data.csv,summary.json,chart.svg}.
source "$(dirname "$0")/lib.sh"
NAME="$1"; REPS="$2"; SECS="$3"; CONNS="$4"; shift 4
OUT="$RESULTS/server-$NAME"; mkdir -p "$OUT"
require_jars; ensure_database
machine_json >"$WORK/server-$NAME-machine.json"
ports=(); queues=(); sets=("$@")
for ((i = 0; i < ${#sets[@]}; i++)); do
  q=$(new_queue "settings$i"); p=$(free_port)
  # shellcheck disable=SC2086
  start_server "settings$i" "$q" "$p" ${sets[$i]}
  ports+=("$p"); queues+=("$q")
done
purge() { curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$1/contents" || true; }
for ((i = 0; i < ${#sets[@]}; i++)); do
  run_wrk "$CONNS" 8 "http://127.0.0.1:${ports[$i]}/albumstore" post-review >/dev/null
  run_wrk "$CONNS" 8 "http://127.0.0.1:${ports[$i]}/albumstore/bench/noop" post-noop >/dev/null
  purge "${queues[$i]}"
done
echo "setting,endpoint,rep,rps,p50_ms,p99_ms,max_ms,non2xx,errors,load1" >"$OUT/data.csv"
n=${#sets[@]}
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < 2 * n; k++)); do
    j=$(((k + rep - 1) % (2 * n))); i=$((j / 2))
    base="http://127.0.0.1:${ports[$i]}/albumstore"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    if ((j % 2 == 0)); then ep=review; r=$(run_wrk "$CONNS" "$SECS" "$base" post-review); purge "${queues[$i]}"
    else ep=noop; r=$(run_wrk "$CONNS" "$SECS" "$base/bench/noop" post-noop); fi
    read -r rps p50 p99 mx non2xx errs <<<"$r"
    echo "\"${sets[$i]}\",$ep,$rep,$rps,$p50,$p99,$mx,$non2xx,$errs,$load1" >>"$OUT/data.csv"
    log "rep $rep [${sets[$i]}] $ep: $r"
  done
done
python3 - "$WORK/server-$NAME-machine.json" "$OUT/extra.json" "$*" <<PY
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "bench/server-settings.sh $NAME $REPS $SECS $CONNS " + sys.argv[3]}, open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" --group setting,endpoint --metrics rps,p50_ms,p99_ms \
  --extra "$OUT/extra.json" --title "server settings: POST /review and POST /bench/noop, $CONNS connections (req/s)" | tee "$OUT/table.md"
# Per-setting review/noop ratios, paired by repeat.
python3 - "$OUT/data.csv" <<'PY' | tee -a "$OUT/table.md"
import csv, sys, statistics
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault((r["setting"], r["rep"]), {})[r["endpoint"]] = float(r["rps"] or "nan")
for s in dict.fromkeys(r["setting"] for r in rows):
    ratios = [v["review"] / v["noop"] for (ss, _), v in by.items() if ss == s and "review" in v and "noop" in v]
    print(f"review/noop [{s}]: median {statistics.median(ratios):.3f} per repeat {', '.join(f'{x:.3f}' for x in ratios)}")
PY
rm -f "$OUT/extra.json"

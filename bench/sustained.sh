#!/usr/bin/env bash
# The sustained POST /review rate with the consumer and PostgreSQL applying everything
# on the same machine, against the do-nothing POST /bench/noop of the same Tomcat, and the
# server-only ceiling (a second server whose queue has no consumer) beside it; for every run the
# CPU each tier spent per request, from /proc/PID/stat: the server, the consumer, PostgreSQL (the
# sum over all processes of the postgres user: postmaster, backends, WAL writer, checkpointer),
# RabbitMQ (the beam.smp of the rabbitmq user, i.e. rabbit@localhost), and wrk (its own user +
# system time).
#
#   bench/sustained.sh [REPS=3] [SECONDS=15] [CONNECTIONS=256]
# writes results/sustained/{data.csv,summary.json,chart.svg,table.md}. SUSTAINED_SERVER_ENV="VAR=v
# ..." starts both servers with these settings (e.g. ALBUMSTORE_HTTP_THREADS=16), SUSTAINED_NAME
# names the output folder: a before/after pair is two runs, SERVER_JAR/CONSUMER_JAR per run.
#
# Load: wrk, POST /review/{like|dislike}/{1..5000} without an Idempotency-Key (wrk/post-review-
# sustained.lua). Variants, interleaved and rotated each repeat: noop, noop-paths, review (consumer
# running), review-alone (server B, no consumer, its queue purged after each run). noop is the
# issue's do-nothing reference: one fixed request, which wrk sends without running Lua per request.
# noop-paths is the same do-nothing endpoint driven by the review's own script (the paths land
# below /bench/noop/), so that wrk spends on each request what it spends per review (1.4 µs more than
# on the fixed one in results/archive/sustained-processors-ranked/later/): the ratios to it leave wrk's
# own difference out. The queue depth of the
# consumer's queue is sampled every 2 s during the review run (max_depth) and read again after it
# (depth_after): a queue that grows means the consumer does not keep up, whatever wrk reports.
# PostgreSQL and RabbitMQ are the machine's shared services: their CPU includes whatever else uses
# them meanwhile (run on a quiet machine).
# SUSTAINED_WARMUP (seconds, default 60) is how long each server takes reviews before the first
# measured run, server A with the consumer applying them. Why that long: the consumer works per
# transaction (about 60 a second here), so its code reaches the JIT's top tier only after thousands
# of them; with 10 s its compiler threads took 31% and 37% of its CPU in the first two measured
# review runs, and its CPU per review fell from run to run (3.4, 3.4, 2.1 µs); with 60 s, 24% in the
# first and about 10% after (results/archive/sustained-warm/). 60 s is closer to the
# steady state a user gets after the first minute. Runs before 2026-11-25 08:13 UTC used 10 s.
source "$(dirname "$0")/lib.sh"
REPS="${1:-3}"; SECS="${2:-15}"; CONNS="${3:-256}"; WARMUP="${SUSTAINED_WARMUP:-60}"
((WARMUP >= 1 && WARMUP <= 600)) || { echo "SUSTAINED_WARMUP must be 1..600 seconds" >&2; exit 2; }
OUT="$RESULTS/${SUSTAINED_NAME:-sustained}"; mkdir -p "$OUT"
require_jars; ensure_database; truncate_tables
machine_json >"$WORK/sustained-extra.json.tmp"

BEAM=$(pgrep -u rabbitmq -x beam.smp | head -1) || { echo "RabbitMQ (beam.smp of user rabbitmq) not found" >&2; exit 1; }
qa=$(new_queue sustained); qb=$(new_queue sustained-alone)
pa=$(free_port); pb=$(free_port)
# shellcheck disable=SC2086 # one word per VAR=value
start_server sustained-server "$qa" "$pa" ${SUSTAINED_SERVER_ENV:-}; SA=$SERVER_PID
# shellcheck disable=SC2086
start_server sustained-server-alone "$qb" "$pb" ${SUSTAINED_SERVER_ENV:-}; SB=$SERVER_PID
CONSUMER_METRICS_PORT=$(free_port) start_consumer sustained-consumer "$qa"
A="http://127.0.0.1:$pa/albumstore"; B="http://127.0.0.1:$pb/albumstore"

# "pid seconds" per postgres process: backends come and go, so the delta is taken per PID (a PID
# new at the end counts from 0; one that exited during the run is lost: pools keep theirs open).
pg_snapshot() { local p; for p in $(pgrep -u postgres); do echo "$p $(cpu_s "$p" 2>/dev/null || echo 0)"; done; }
purge() { curl -s -o /dev/null -u "$RMQ_AUTH" -X DELETE "$RMQ_API/api/queues/%2F/$1/contents" || true; }
# Waits (bounded) until the consumer has emptied its queue, so each run starts from the same state.
drained() {
  local i d
  for ((i = 0; i < 60; i++)); do
    d=$(queue_depth "$qa"); [[ "$d" == 0 ]] && return 0
    sleep 1
  done
  log "queue $qa still holds $d messages after 60 s"
}

log "warm-up (JIT): 10 s of noop, 5 s of noop-paths, $WARMUP s of reviews on each server"
run_wrk "$CONNS" 10 "$A/bench/noop" post-noop >/dev/null
run_wrk "$CONNS" 5 "$A/bench/noop" post-review-sustained >/dev/null
run_wrk "$CONNS" "$WARMUP" "$A" post-review-sustained >/dev/null
run_wrk "$CONNS" "$WARMUP" "$B" post-review-sustained >/dev/null
purge "$qb"; drained

echo "variant,rep,order,rps,p50_ms,p99_ms,max_ms,non2xx,errors,max_depth,depth_after,server_us,consumer_us,postgres_us,rabbitmq_us,wrk_us,total_us,load1" >"$OUT/data.csv"
variants=(noop noop-paths review review-alone)
for ((rep = 1; rep <= REPS; rep++)); do
  n=${#variants[@]}
  for ((k = 0; k < n; k++)); do
    v=${variants[$(((k + rep - 1) % n))]}
    case "$v" in
      noop) url="$A/bench/noop"; script=post-noop; srv=$SA ;;
      noop-paths) url="$A/bench/noop"; script=post-review-sustained; srv=$SA ;;
      review) url="$A"; script=post-review-sustained; srv=$SA ;;
      review-alone) url="$B"; script=post-review-sustained; srv=$SB ;;
    esac
    load1=$(cut -d' ' -f1 /proc/loadavg)
    pg_snapshot >"$WORK/sustained-pg0"
    s0=$(cpu_s "$srv"); c0=$(cpu_s "$CONSUMER_PID"); b0=$(cpu_s "$BEAM")
    : >"$WORK/sustained-depth"
    ( for ((i = 0; i < SECS / 2; i++)); do sleep 2; queue_depth "$qa" >>"$WORK/sustained-depth"; done ) &
    sampler=$!
    TIMEFORMAT="%U %S"
    { time run_wrk "$CONNS" "$SECS" "$url" "$script" >"$WORK/sustained-wrk"; } 2>"$WORK/sustained-wrk.time"
    s1=$(cpu_s "$srv"); c1=$(cpu_s "$CONSUMER_PID"); b1=$(cpu_s "$BEAM")
    pg_snapshot >"$WORK/sustained-pg1"
    wait "$sampler" || true
    after=$(queue_depth "$qa")
    read -r wu ws <"$WORK/sustained-wrk.time"
    r=$(python3 - "$WORK/sustained-wrk" "$SECS" "$WORK/sustained-pg0" "$WORK/sustained-pg1" "$WORK/sustained-depth" \
      "$s0" "$s1" "$c0" "$c1" "$b0" "$b1" "$wu" "$ws" "$after" <<'PY'
import sys
wrk, secs, pg0, pg1, depth = sys.argv[1:6]
s0, s1, c0, c1, b0, b1, wu, ws = map(float, sys.argv[6:14])
after = sys.argv[14]
rps, p50, p99, mx, non2xx, errs = open(wrk).read().split()
def snap(path):
    return {l.split()[0]: float(l.split()[1]) for l in open(path) if l.strip()}
a, b = snap(pg0), snap(pg1)
pg = sum(v - a.get(p, 0.0) for p, v in b.items())
req = float(rps) * float(secs)
us = lambda sec: 1e6 * sec / req if req else float("nan")
depths = [int(x) for x in open(depth).read().split() if x.lstrip("-").isdigit() and int(x) >= 0]
tiers = [us(s1 - s0), us(c1 - c0), us(pg), us(b1 - b0), us(wu + ws)]
print(",".join([rps, p50, p99, mx, non2xx, errs, str(max(depths)) if depths else "", after]
               + [f"{t:.1f}" for t in tiers] + [f"{sum(tiers):.1f}"]))
PY
)
    echo "$v,$rep,$k,$r,$load1" >>"$OUT/data.csv"
    log "rep $rep $v: $r (load $load1)"
    [[ "$v" == review-alone ]] && purge "$qb"
    [[ "$v" == review ]] && drained
  done
done

python3 - "$WORK/sustained-extra.json.tmp" "$OUT/extra.json" <<PY
import json, sys
m = json.load(open(sys.argv[1]))
m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": "SUSTAINED_SERVER_ENV='${SUSTAINED_SERVER_ENV:-}' SUSTAINED_WARMUP=$WARMUP bench/sustained.sh $REPS $SECS $CONNS",
  "setup": {"connections": $CONNS, "seconds_per_run": $SECS, "repeats": $REPS, "wrk_threads": 2, "review_warmup_seconds": $WARMUP,
    "load": "POST /review/{like|dislike}/{1..5000}, no Idempotency-Key; noop: one fixed POST /bench/noop; noop-paths: the review script against /bench/noop",
    "servers": "server A with the consumer on its queue (noop, noop-paths and review), server B with no consumer (review-alone, queue purged after each run)",
    "cpu": "us per successful request from /proc/PID/stat utime+stime: server, consumer, all postgres-user processes, the rabbitmq-user beam.smp, wrk's own time"}},
  open(sys.argv[2], "w"))
PY
python3 "$BENCH_DIR/benchstat.py" summarize "$OUT" \
  --metrics rps,p50_ms,p99_ms,max_depth,depth_after,server_us,consumer_us,postgres_us,rabbitmq_us,wrk_us,total_us \
  --ratio 'variant=review/variant=noop:rps' --ratio 'variant=review-alone/variant=noop:rps' \
  --ratio 'variant=review/variant=review-alone:rps' \
  --ratio 'variant=review/variant=noop-paths:rps' --ratio 'variant=review-alone/variant=noop-paths:rps' \
  --extra "$OUT/extra.json" --title "Sustained POST /review (consumer beside) vs do-nothing, $CONNS connections (wrk), req/s" \
  | tee "$OUT/table.md"
rm -f "$OUT/extra.json"
# Group commit as the consumer saw it: the ledger keeps one row per message for unkeyed reviews, so
# reviews applied per ledger row = reviews per message (the tables were truncated at the start).
read -r rows applied <<<"$(psql_bench -F ' ' -c "select (select count(*) from applied_reviews), (select coalesce(sum(likes + dislikes), 0) from album_reviews)")"
awk -v r="$rows" -v a="$applied" 'BEGIN { printf "reviews applied per ledger row (per message): %.1f (%d reviews, %d rows, warm-up included)\n", r ? a / r : 0, a, r }' \
  | tee -a "$OUT/table.md"

#!/usr/bin/env bash
# After a scale-out, do the new consumers get work? One consumer jar drains a backlog alone; after
# SCALE_AFTER seconds two more start (a scale-out from 1 to 3), and each one's share of the messages
# applied after the scale-out is counted, per consumer flag set (prefetch, connections, channels).
#
#   bench/prefetch-share.sh [MESSAGES=400000] [REPS=2] [FLAGSETS...]
#
# FLAGSETS are quoted consumer flag sets; default: "--prefetch 1000" (the default), "--prefetch
# 10000", "--prefetch 65535" (AMQP's most), and "--connections 4 --channels 2 --prefetch 65535"
# (the template's M x K): a consumer holds up to M x K x prefetch unacknowledged messages (one
# partition), the quantity that decides whether it can take the whole backlog.
# Each run: tables truncated, a fresh queue (new_queue) filled with MESSAGES single-review messages
# (bench/java/FillQueue.java) with no consumer attached; consumer A started; SCALE_AFTER (default
# 2) seconds later B and C started at once; the scale-out is the moment both answer /health. Then
# every consumer's albumstore_consumer_messages_applied_total is read at the scale-out and once the
# three together reach MESSAGES (at most LIMIT=300 s). Variants interleaved, order rotated per
# repeat. Writes results/${PREFETCH_SHARE_NAME:-prefetch-share}/{data.csv,table.md} (its README.md
# with the reading is written by hand); the consumers' logs in bench/target/work.
source "$(dirname "$0")/lib.sh"
MESSAGES="${1:-400000}"; REPS="${2:-2}"; shift 2 || true
if (($# == 0)); then
  set -- "--prefetch 1000" "--prefetch 10000" "--prefetch 65535" \
    "--connections 4 --channels 2 --prefetch 65535"
fi
SCALE_AFTER="${SCALE_AFTER:-2}"; LIMIT="${LIMIT:-300}"
NAME="${PREFETCH_SHARE_NAME:-prefetch-share}"
OUT="$RESULTS/$NAME"; mkdir -p "$OUT"
COMMAND="bench/prefetch-share.sh $MESSAGES $REPS$(printf ' "%s"' "$@")"
log "$COMMAND"
[[ -f "$CONSUMER_JAR" ]] || { echo "missing $CONSUMER_JAR: run 'mvn -B -pl consumer -am package -DskipTests'" >&2; exit 2; }
ensure_database

# The consumer's total of applied messages, from its /metrics on PORT, else (no answer in time on
# this busy machine) LAST.
applied() { # PORT LAST
  { curl -s -m 5 "http://127.0.0.1:$1/metrics" || true; } |
    awk -v last="$2" '/^albumstore_consumer_messages_applied_total/ { v = $2 } END { printf "%d\n", (v == "" ? last : v) }'
}

# Starts one consumer of QUEUE with FLAGS on PORT in the background, recorded for the EXIT trap.
launch() { # NAME QUEUE PORT FLAGS
  # shellcheck disable=SC2086
  java $JAVA_OPTS_SERVICE -jar "$CONSUMER_JAR" --queue "$2" --jdbc-url "$JDBC_URL" \
    --amqp-uri "$AMQP_URI" --stats-interval 1 --metrics-port "$3" $4 >"$WORK/$1.log" 2>&1 &
  BENCH_PIDS+=("$!")
}

# M x K x prefetch of a flag set, at the consumer's defaults (2, 2, 1000) for what it leaves out.
held_bound() { # FLAGS
  local m=2 k=2 p=1000 args
  read -r -a args <<<"$1"
  for ((i = 0; i < ${#args[@]} - 1; i++)); do
    case ${args[$i]} in
      --connections) m=${args[$((i + 1))]} ;;
      --channels) k=${args[$((i + 1))]} ;;
      --prefetch) p=${args[$((i + 1))]} ;;
    esac
  done
  echo $((m * k * p))
}

# One run: sets ROW, the CSV row's fields after the variant and the repeat.
run_once() { # FLAGS TAG
  local flags="$1" tag="$2" q ports=() pids=() before=() after=() i n sum t0 now remaining
  q=$(new_queue prefetch)
  truncate_tables
  timeout 600 java -cp "$CONSUMER_JAR" "$BENCH_DIR/java/FillQueue.java" "$q" "$MESSAGES" 1000 >&2
  for i in 0 1 2; do ports+=("$(free_port)"); done
  launch "${NAME//\//-}-$tag-a" "$q" "${ports[0]}" "$flags"; pids+=("$!")
  wait_http "http://127.0.0.1:${ports[0]}/metrics" 90
  sleep "$SCALE_AFTER"
  for i in 1 2; do
    launch "${NAME//\//-}-$tag-$i" "$q" "${ports[$i]}" "$flags"; pids+=("$!")
  done
  # /health answers 200 once a consumer consumes (its metrics answer before it connects).
  wait_http "http://127.0.0.1:${ports[1]}/health" 90
  wait_http "http://127.0.0.1:${ports[2]}/health" 90
  for i in 0 1 2; do
    before+=(-1)
    for ((n = 0; n < 5 && before[i] < 0; n++)); do before[i]=$(applied "${ports[$i]}" -1); done
    ((before[i] >= 0)) || { echo "consumer $i's /metrics does not answer" >&2; exit 3; }
  done
  t0=$(date +%s.%N)
  remaining=$((MESSAGES - before[0] - before[1] - before[2]))
  after=("${before[@]}")
  for ((n = 0; n < LIMIT * 4; n++)); do
    sum=0
    for i in 0 1 2; do after[i]=$(applied "${ports[$i]}" "${after[$i]}"); sum=$((sum + after[i])); done
    ((sum >= MESSAGES)) && break
    sleep 0.25
  done
  now=$(date +%s.%N)
  for i in 0 1 2; do stop_pid "${pids[$i]}"; done
  delete_topology "$q"
  ROW=$(awk -v r="$remaining" -v h="$(held_bound "$flags")" -v s="$(awk -v a="$t0" -v b="$now" 'BEGIN { print b - a }')" \
    -v a0="${before[0]}" -v b0="${before[1]}" -v c0="${before[2]}" \
    -v a1="${after[0]}" -v b1="${after[1]}" -v c1="${after[2]}" -v load1="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
      a = a1 - a0; b = b1 - b0; c = c1 - c0; t = a + b + c
      printf "%d,%d,%.3f,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.1f,%s\n", r, h, (r > 0 ? h / r : 0), a, b, c,
        (t > 0 ? a / t : 0), (t > 0 ? b / t : 0), (t > 0 ? c / t : 0), (t > 0 ? (b + c) / t : 0), s, load1 }')
}

echo "variant,rep,remaining_at_scale_out,held_bound,held_over_remaining,applied_a,applied_b,applied_c,share_a,share_b,share_c,share_new,seconds,load1" >"$OUT/data.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < $#; k++)); do
    idx=$(((k + rep - 1) % $# + 1))
    flags="${!idx}"
    tag="$(tr -c 'a-z0-9' '_' <<<"$flags" | tail -c 40)r$rep"
    run_once "$flags" "$tag"
    echo "\"$flags\",$rep,$ROW" >>"$OUT/data.csv"
    log "rep $rep [$flags]: $ROW"
  done
done

# table.md: per variant, the median over the repeats of the new consumers' share and of A's.
python3 - "$OUT/data.csv" "$COMMAND" "$MESSAGES" <<'PY' | tee "$OUT/table.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"Backlog {int(sys.argv[3]):,} messages; 1 consumer, then 3. Command: `{sys.argv[2]}`\n")
print("| consumer flags | held bound (M x K x prefetch) | remaining at the scale-out | held / remaining | "
      "A's share after | B's | C's | new consumers' share (fair: 0.667) | runs |")
print("|---|---|---|---|---|---|---|---|---|")
for v in dict.fromkeys(r["variant"] for r in rows):
    rs = [r for r in rows if r["variant"] == v]
    med = lambda k: statistics.median(float(r[k]) for r in rs)
    span = lambda k: f"{min(float(r[k]) for r in rs):.2f}–{max(float(r[k]) for r in rs):.2f}"
    print(f"| `{v}` | {int(rs[0]['held_bound']):,} | {med('remaining_at_scale_out'):,.0f} | "
          f"{med('held_over_remaining'):.2f} | {span('share_a')} | {span('share_b')} | {span('share_c')} | "
          f"{span('share_new')} | {len(rs)} |")
PY

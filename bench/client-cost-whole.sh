# shellcheck shell=bash disable=SC2153,SC2154
# Sourced by client-cost.sh with CLIENT_COST_MODE=whole (its server, URL, served(), run_gatling's
# options are in scope): the whole run of each tool, as a user sees it, interleaved.
# Run, not sourced: lib.sh prints this header and exits 0 (--help), whatever the arguments.
[[ "${BASH_SOURCE[0]}" != "$0" ]] || source "$(dirname "$0")/lib.sh" --help
JDK25="${JDK25:-$(find /usr/lib/jvm -maxdepth 1 -name 'temurin-25*' | head -n 1)}"
VARIANTS="${CLIENT_COST_VARIANTS:-client client-cds client-live}"
# CLIENT_COST_COUNT=N: every client variant sends N requests instead of running SECS seconds, and
# its figure is its CPU per request (no wrk or Gatling: neither sends a fixed count).
COUNT="${CLIENT_COST_COUNT:-}"
[[ -n "$COUNT" && -n "${TOOLS// /}" ]] && { echo "CLIENT_COST_COUNT runs client variants only: set CLIENT_COST_TOOLS=' '" >&2; exit 2; }
read -r -a VARIANT_LIST <<<"$VARIANTS $TOOLS"
WOUT="$OUT/whole"; mkdir -p "$WOUT"
JIT_AT=15
# How often client-live's /metrics is scraped: the shipped Prometheus's interval
# (deploy/observability/prometheus.yml); the live page polls its state every second.
SCRAPE_EVERY="${CLIENT_COST_SCRAPE_EVERY:-15}"

# whole TAG COMMAND... -> "rps cpu15 jit15 cpu_total": launches the tool and samples it every
# second until it exits (bench/whole-sampler.py: one process, nothing spawned per sample) into
# timeline.csv: the requests the server answered since the launch, the process's CPU and JIT
# seconds; cpu15/jit15 are those JIT_AT s after the launch; rps = requests answered / SECS.
whole() {
  local tag="$1" pid n0 n1 r; shift
  n0=$(served)
  date +%s%3N >"$WORK/launched-$tag.ms"
  "$@" >"$WORK/whole-$tag.txt" 2>&1 &
  pid=$!
  r=$(python3 "$BENCH_DIR/whole-sampler.py" "$pid" "http://127.0.0.1:$p/albumstore/metrics" "$tag" \
    "$WOUT/timeline.csv" "$JIT_AT" "$((SECS + 120))")
  wait "$pid" || true
  n1=$(served)
  echo "$(python3 -c "import sys; print(round((int(sys.argv[2]) - int(sys.argv[1])) / float(sys.argv[3]), 1))" "$n0" "$n1" "$SECS") $r"
}

# client_cmd JAR JAVA [JVM flags...] -- [client flags...]: sets CMD to the client's command line.
client_cmd() {
  local jar="$1" java="$2"; shift 2
  local jvm=(); while [[ $# -gt 0 && "$1" != -- ]]; do jvm+=("$1"); shift; done; shift
  local bound=(--duration "$SECS")
  [[ -n "$COUNT" ]] && bound=(--iterations "$(((COUNT + 4 * THREADS - 1) / (4 * THREADS)))")
  # shellcheck disable=SC2206
  CMD=("$java" $CLIENT_JAVA_OPTS "${jvm[@]}" -jar "$jar" --url "$URL" --threads "$THREADS"
    "${bound[@]}" --no-verify --rmq-api none --amqp-uri none --no-progress "$@")
}

# counted TAG COMMAND... -> "cpu_us_per_request requests": runs a client variant for its COUNT
# requests; its user + system CPU seconds (getrusage of the exited JVM, start-up and report
# included) per request the server answered meanwhile.
counted() {
  local tag="$1" n0 n1 cpu; shift
  n0=$(served)
  cpu=$(python3 -c 'import resource, subprocess, sys
with open(sys.argv[1], "w") as log:
    subprocess.run(sys.argv[2:], stdout=log, stderr=log)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' "$WORK/count-$tag.txt" "$@")
  n1=$(served)
  python3 -c "import sys; c, n = float(sys.argv[1]), int(sys.argv[2]) - int(sys.argv[3]); print(round(c / n * 1e6, 2) if n else '-', n)" "$cpu" "$n1" "$n0"
}

# start_s DIR TAG -> seconds from the client's launch (whole() noted it) to the start of its load:
# the first row of its timeline.csv is stamped with its epoch time and its seconds since the load began.
start_s() {
  python3 -c 'import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
print(round((int(row["time"]) - float(row["elapsed_s"]) * 1000 - int(open(sys.argv[2]).read())) / 1000, 3))' \
    "$1/timeline.csv" "$WORK/launched-$2.ms" 2>/dev/null || echo -
}

# run_variant NAME REP -> "rps cpu15 jit15 cpu_total own_rps start_s" (with COUNT: "cpu_us requests")
run_variant() {
  local v="$1" rep="$2" dir="$WORK/runs/whole-$1-r$2" lp mp r own
  rm -rf "$dir"
  case $v in
    client) client_cmd "$CLIENT_JAR" java -- --out "$dir" ;;
    client-main) client_cmd "$MAIN_CLIENT_JAR" java -- --out "$dir" ;;
    client-cds) client_cmd "$CLIENT_JAR" java -XX:SharedArchiveFile="$WORK/client-17.jsa" -- --out "$dir" ;;
    client-jdk25) client_cmd "$CLIENT_JAR" "$JDK25/bin/java" -- --out "$dir" ;;
    client-aot25) client_cmd "$CLIENT_JAR" "$JDK25/bin/java" -XX:AOTCache="$WORK/client-25.aot" -- --out "$dir" ;;
    client-pgc) client_cmd "$CLIENT_JAR" java -XX:+UseParallelGC -- --out "$dir" ;;
    client-c1) client_cmd "$CLIENT_JAR" java -XX:TieredStopAtLevel=1 -- --out "$dir" ;;
    client-live)
      lp=$(free_port); mp=$(free_port)
      client_cmd "$CLIENT_JAR" java -- --out "$dir" --live-port "$lp" --metrics-port "$mp" --live-linger 0
      ( sleep 2; cpid=$(pgrep -f -- "--live-port $lp" | head -n 1)
        scrape_while "$cpid" 1 "http://127.0.0.1:$lp/state.json" &
        scrape_while "$cpid" "$SCRAPE_EVERY" "http://127.0.0.1:$mp/metrics"; wait ) & ;;
  esac
  if [[ -n "$COUNT" ]]; then
    counted "$v-r$rep" "${CMD[@]}"; wait
    return
  fi
  case $v in
    client*) r=$(whole "$v-r$rep" "${CMD[@]}"); wait ;;
    wrk)
      r=$(whole "$v-r$rep" env BENCH_WRK_DIR="$BENCH_DIR/wrk" BENCH_HEADERS="$HEADERS" wrk -t 2 -c "$THREADS" -d "${SECS}s" \
        --latency --timeout 10s -s "$BENCH_DIR/wrk/client-mix.lua" "$URL") ;;
    gatling)
      # shellcheck disable=SC2086
      r=$(whole "$v-r$rep" java $CLIENT_JAVA_OPTS $GATLING_JAVA_OPTS -DbaseUrl="$URL" -DalbumId="$BENCH_ALBUM_ID" -Dheaders="$HEADERS" \
        -Dusers="$THREADS" -Dseconds="$SECS" -cp "$GATLING_DIR/target/classes:$GATLING_DIR/target/lib/*" \
        io.gatling.app.Gatling -s org.albumstore.bench.ClientMixSimulation -rf "$WORK/gatling" -l albumstore-bench) ;;
  esac
  own=-
  [[ -f "$dir/summary.json" ]] && own=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['throughput'])" "$dir/summary.json")
  echo "$r $own $(if [[ $v == client* ]]; then start_s "$dir" "$v-r$rep"; else echo -; fi)"
}

# The training runs (only for the variants that use them): an AppCDS archive (JDK 17: the classes a
# 20-s run loaded, archived at its exit) and, with Temurin 25, an AOT cache (JEP 483/514: classes
# loaded and linked, and profiles).
SECS_SAVED=$SECS; SECS=20; COUNT_SAVED=$COUNT; COUNT=
if [[ " $VARIANTS " == *" client-cds "* ]]; then
  log "training run: AppCDS archive (JDK 17)"
  client_cmd "$CLIENT_JAR" java -XX:ArchiveClassesAtExit="$WORK/client-17.jsa" -- --out "$WORK/runs/whole-train17"
  "${CMD[@]}" >"$WORK/whole-train17.txt" 2>&1 || true
fi
if [[ -n "$JDK25" && " $VARIANTS " == *aot25* ]]; then
  log "training run: AOT cache (JDK 25)"
  client_cmd "$CLIENT_JAR" "$JDK25/bin/java" -XX:AOTCacheOutput="$WORK/client-25.aot" -- --out "$WORK/runs/whole-train25"
  "${CMD[@]}" >"$WORK/whole-train25.txt" 2>&1 || true
fi
SECS=$SECS_SAVED; COUNT=$COUNT_SAVED
log "warm-up of the server: wrk 10 s"
run_wrk "$THREADS" 10 "$URL" client-mix >/dev/null

if [[ -n "$COUNT" ]]; then
  COLUMNS="tool,rep,cpu_us_per_request,requests,load1"
  METRICS=cpu_us_per_request
  TITLE="client CPU per request, $COUNT requests per run (launch to exit), $THREADS connections (µs)"
  COMMAND="CLIENT_COST_MODE=whole CLIENT_COST_COUNT=$COUNT CLIENT_COST_VARIANTS='$VARIANTS' CLIENT_COST_TOOLS=' ' bench/client-cost.sh $REPS $THREADS"
  SETUP="one server jar with ALBUMSTORE_BENCH_ENDPOINTS=true (do-nothing endpoint); each client variant sends $COUNT requests (--iterations, launch to exit), interleaved, order rotated per rep; cpu_us_per_request = the JVM's user + system CPU (getrusage of the exited process: start-up, JIT, load and report) / the requests the server answered meanwhile; variants as in the whole mode"
else
  COLUMNS="tool,rep,rps,cpu_s_first_15s,jit_s_first_15s,cpu_s_total,own_rps,start_s,load1"
  METRICS=rps,cpu_s_first_15s,jit_s_first_15s,cpu_s_total,start_s
  TITLE="whole runs of $SECS s against the do-nothing endpoint, $THREADS connections (req/s)"
  COMMAND="CLIENT_COST_MODE=whole CLIENT_COST_VARIANTS='$VARIANTS' CLIENT_COST_TOOLS='$TOOLS' bench/client-cost.sh $REPS $THREADS $SECS"
  SETUP="one server jar with ALBUMSTORE_BENCH_ENDPOINTS=true (do-nothing endpoint); each tool a whole run of $SECS s from its launch (JVM start-up included), interleaved, order rotated per rep; rps = requests the server answered from the tool's launch to its exit / $SECS; own_rps = the client's summary.json throughput (ok per second of its load's wall time); start_s = seconds from the client's launch to the start of its load (its timeline.csv); cpu/jit_s_first_15s = CPU seconds of the process and of its C1/C2 compiler threads $JIT_AT s after launch; client: --threads $THREADS --duration $SECS --no-verify, JVM $CLIENT_JAVA_OPTS; client-cds: -XX:SharedArchiveFile of a 20-s training run's -XX:ArchiveClassesAtExit (JDK 17); client-live: --live-port polled every second and --metrics-port scraped every $SCRAPE_EVERY s, over kept-alive connections; client-aot25: Temurin 25 with -XX:AOTCache from a 20-s training run's -XX:AOTCacheOutput; client-pgc: -XX:+UseParallelGC; client-c1: -XX:TieredStopAtLevel=1 (C1 only, no C2); wrk: 2 threads, $THREADS connections, bench/wrk/client-mix.lua; Gatling 3.15 as in the window mode"
fi
echo "$COLUMNS" >"$WOUT/data.csv"
echo "run,t,served,cpu_s,jit_s" >"$WOUT/timeline.csv"
for ((rep = 1; rep <= REPS; rep++)); do
  for ((k = 0; k < ${#VARIANT_LIST[@]}; k++)); do
    v=${VARIANT_LIST[$(((k + rep) % ${#VARIANT_LIST[@]}))]}  # a different order each rep
    load1=$(cut -d' ' -f1 /proc/loadavg)
    echo "$v,$rep,$(run_variant "$v" "$rep" | tr ' ' ','),$load1" >>"$WOUT/data.csv"
    log "rep $rep $v: $(tail -1 "$WOUT/data.csv")"
  done
done

python3 - "$WORK/client-cost-machine.json" "$WOUT/extra.json" "$COMMAND" "$SETUP" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["loadavg_at_end"] = open("/proc/loadavg").read().split()[:3]
json.dump({"machine": m, "command": sys.argv[3], "setup": sys.argv[4]}, open(sys.argv[2], "w"))
PY
RATIOS=()
first=${METRICS%%,*}
for v in $VARIANTS; do
  [[ " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio "tool=$v/tool=wrk:$first")
  [[ $v != client ]] && RATIOS+=(--ratio "tool=$v/tool=client:$first")
done
[[ " $TOOLS " == *" gatling "* && " $TOOLS " == *" wrk "* ]] && RATIOS+=(--ratio "tool=gatling/tool=wrk:$first")
python3 "$BENCH_DIR/benchstat.py" summarize "$WOUT" --group tool --metrics "$METRICS" \
  "${RATIOS[@]}" --extra "$WOUT/extra.json" --title "$TITLE" | tee "$WOUT/table.md"
rm -f "$WOUT/extra.json"
# Where each tool's seconds go, phase by phase from its launch (start-up, warm-up, steady state).
if [[ -z "$COUNT" ]]; then
  python3 "$BENCH_DIR/whole-timeline.py" "$WOUT/timeline.csv" "$SECS" | tee "$WOUT/warmup.md"
fi

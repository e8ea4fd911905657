#!/usr/bin/env bash
# A broker blue/green under a judged load: BrokerBlueGreenIT for MINUTES of load. Blue is the
# cluster topology (3 RabbitMQ nodes of the installed release behind HAProxy, 2 servers behind
# HAProxy, 2 consumers); green is a second 3-node cluster of RabbitMQ 4.0 behind its own HAProxy
# (the installed release when the root of embedded/engines.sh is missing; the report says which).
# Under the client's --history load, consumers start on green, each server is drained and started
# again on green, blue's consumers empty blue and stop, blue is shut down, the load goes on against
# green; the checker judges every operation and the verification audits the database. Everything
# runs on loopback; nothing else on the machine is stopped. Needs rabbitmq-server and haproxy.
#
#   faults/blue-green.sh [--minutes M=3] [--rate R=1000] [--threads T=64] [--warmup W]
#                        [--dwell S] [--out DIR=results/upgrade/blue-green]
#   faults/blue-green.sh --help
#
# --rate and --threads are the client's load (-Dalbumstore.bluegreen.rate, .threads): writes per
# second on one schedule shared by T writer threads, half of them reading back, and 2 readers.
# --warmup is how long everything stays on blue once the load runs (default: the dwell): at 1,000
# writes/s the client starts behind its schedule while the JVMs warm up, and a warm-up long enough
# for it to catch up keeps that backlog out of the switch's figures. --dwell is the time between
# the later steps (default a twentieth of the load, at least 5 s).
#
# DIR gets blue-green.txt (the steps on the history's clock, what each cost, the verdict),
# blue-green.md (per step: start, end, the longest time without a 200 and without a write's 200,
# the write p99, writes acknowledged/s, 503s, failures, retries, blue's and green's backlog),
# history-verdict.txt, summary.json and timeline.csv (the client's per-second figures, whose
# latencies count from each request's place in the schedule); then DIR/runs.md gets one line per
# run, with the machine's load average.
# Bounded: the run is killed after twice its load plus 15 minutes. Exit code 0 when the run passed.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; }
MINUTES=3
RATE=1000
THREADS=64
DWELL=""
WARMUP=""
OUT="results/upgrade/blue-green"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) MINUTES="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --dwell) DWELL="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
if [[ ! -f "$OUT/runs.md" ]]; then
  printf '| minutes | writes/s | threads | warm-up, dwell (s) | date | build | load average | verdict | exit |\n' >"$OUT/runs.md"
  printf '|---|---|---|---|---|---|---|---|---|\n' >>"$OUT/runs.md"
fi
echo "== broker blue/green, $MINUTES min, $RATE writes/s, $THREADS threads"
rm -rf faults/target/failsafe-reports faults/target/faults/blue-green
# The build this run compiles, taken before it does: a checkout meanwhile must not relabel it.
build=$(git rev-parse --short HEAD 2>/dev/null || echo "${BUILD:-unknown}")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rc=0
timeout "$((MINUTES * 120 + 900))" mvn -B -q -pl faults -am verify \
  -Dit.test=BrokerBlueGreenIT -Dtest=NoSuch \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dalbumstore.bluegreen=true -Dalbumstore.bluegreen.seconds="$((MINUTES * 60))" \
  -Dalbumstore.bluegreen.rate="$RATE" -Dalbumstore.bluegreen.threads="$THREADS" \
  ${DWELL:+-Dalbumstore.bluegreen.dwell-seconds="$DWELL"} \
  ${WARMUP:+-Dalbumstore.bluegreen.warmup-seconds="$WARMUP"} || rc=$?
run="faults/target/faults/blue-green"
for f in blue-green.txt blue-green.md history-verdict.txt summary.json timeline.csv; do
  rm -f "$OUT/$f"
  if [[ -f "$run/$f" ]]; then cp "$run/$f" "$OUT/"; fi
done
if [[ -f "$OUT/history-verdict.txt" ]]; then
  verdict=$(tail -1 "$OUT/history-verdict.txt") # "history: no violation", or the count
  mismatches=$(grep -o '"mismatches" *: *[0-9]*' "$OUT/summary.json" 2>/dev/null | grep -o '[0-9]*$' || true)
  verdict="$verdict; audit mismatches ${mismatches:-?}"
else
  verdict="no verdict: nothing was judged"
  [[ $rc -ne 0 ]] || rc=1 # a run that judged nothing did not pass, whatever Maven says
fi
load=$(cut -d' ' -f1-3 /proc/loadavg) # the machine is shared: what else ran
echo "| $MINUTES | $RATE | $THREADS | ${WARMUP:-default}, ${DWELL:-default} | $(date -u +%F) | $build | $load_before at the start, $load at the end | $verdict | exit $rc |" >>"$OUT/runs.md"
exit "$rc"

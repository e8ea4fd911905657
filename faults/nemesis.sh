#!/usr/bin/env bash
# Long nemesis runs: for each seed, NemesisIT on the cluster topology (3 RabbitMQ nodes, HAProxy,
# 2 servers, 2 consumers, a PostgreSQL primary with a synchronous standby behind a switched
# address) for MINUTES of load, faults drawn from the seed, the whole history judged by the
# checker. Everything runs on loopback; nothing else on the machine is stopped. Needs
# rabbitmq-server, haproxy, the PostgreSQL server programs and iptables (root or CAP_NET_ADMIN),
# like the IT.
#
#   faults/nemesis.sh [--minutes M=10] [--rate R=60] [--threads T=16] [--seed S]...
#                                                        (no --seed: seeds 1 to 5)
# e.g. faults/nemesis.sh --minutes 10 --rate 1000 --threads 64 --seed 1 --seed 2
#
# --rate and --threads are NemesisIT's load (-Dalbumstore.nemesis.rate, .threads): writes per
# second on one schedule shared by T writer threads, half of them reading back, and 2 readers
# (GET /review, judged by the monotonic- and bounded-counts properties). The defaults are what
# mvn verify runs. These runs also play the disk-alarm and slow-database lanes, which mvn verify's
# run leaves out (NemesisIT.RESOURCE_FAULTS).
#
# --planted BUG (ASYNC_COMMIT, ACK_BEFORE_COMMIT, LARGE_FAILED_BATCH_ACKED: faults/.../planted/
# PlantedBug) runs every consumer with that bug planted; the run passes when the checker or the
# verification catches it. Results go to results/nemesis/planted/BUG-seed-S/ and planted/runs.md.
#
# Per seed, results/nemesis/seed-S/ gets nemesis.txt (the schedule, what the nemesis did, what each
# fault cost the clients, the checker's verdict), history-verdict.txt, summary.json and by-kind.txt
# (per fault kind: how many, and the longest time without a 200 during one) and fault-cost.md (per
# kind: the longest time without a 200, write p99 during against outside the faults, the backlog at
# the heal and its drain); then runs.md gets one line per seed, with the machine's load average.
# Exit code: 0 when every seed's run passed (clean, or with --planted: caught).
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=10
RATE=60
THREADS=16
PLANTED=""
SEEDS=()

# Per fault kind of a nemesis.txt: faults played, and the longest time without a 200 during one
# (a fault's window also holds what overlapped it).
by_kind() {
  awk '/^what each fault cost/ { on = 1; next }
       on && /longest without a 200/ {
         kind = $6; n[kind]++
         match($0, /longest without a 200 [0-9.]+/)
         v = substr($0, RSTART + 22, RLENGTH - 22) + 0
         if (v > max[kind]) max[kind] = v
       }
       on && /^history/ { on = 0 }
       END { for (k in n) printf "%-14s %3d faults, longest without a 200 %5.1f s\n", k, n[k], max[k] }' "$1" | sort
}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) MINUTES="$2"; shift 2 ;;
    --seed) SEEDS+=("$2"); shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --planted) PLANTED="$2"; shift 2 ;;
    *) echo "usage: faults/nemesis.sh [--minutes M] [--rate R] [--threads T] [--planted BUG] [--seed S]..." >&2; exit 2 ;;
  esac
done
[[ ${#SEEDS[@]} -gt 0 ]] || SEEDS=(1 2 3 4 5)
OUT="${RESULTS:-results}/nemesis"
if [[ -n "$PLANTED" ]]; then OUT="$OUT/planted"; fi
mkdir -p "$OUT"
if ! grep -q '^| seed | minutes | writes/s |' "$OUT/runs.md" 2>/dev/null; then
  # Runs before the load was a parameter were all at 60 writes/s, 16 threads (the table above).
  printf '\n| seed | minutes | writes/s | threads | planted | date | build | load average | verdict | exit |\n' >>"$OUT/runs.md"
  printf '|---|---|---|---|---|---|---|---|---|---|\n' >>"$OUT/runs.md"
fi
status=0
for seed in "${SEEDS[@]}"; do
  echo "== nemesis seed $seed, $MINUTES min, $RATE writes/s, $THREADS threads"
  rm -rf faults/target/failsafe-reports
  # The build this run compiles, taken before it does: a checkout meanwhile must not relabel it.
  build=$(git rev-parse --short HEAD 2>/dev/null || echo "${BUILD:-unknown}")
  rc=0
  # Bounded: the load, its drain and the cluster's start and stop take well under twice its length.
  timeout "$((MINUTES * 120 + 600))" mvn -B -q -pl faults -am verify \
    -Dit.test=NemesisIT -Dtest=NoSuch \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dalbumstore.nemesis.seed="$seed" -Dalbumstore.nemesis.seconds="$((MINUTES * 60))" \
    -Dalbumstore.nemesis.rate="$RATE" -Dalbumstore.nemesis.threads="$THREADS" \
    -Dalbumstore.nemesis.planted="$PLANTED" -Dalbumstore.nemesis.resource-faults=true || rc=$?
  run="faults/target/faults/nemesis-seed-$seed"
  dest="$OUT/${PLANTED:+$PLANTED-}seed-$seed"
  rm -rf "$dest"; mkdir -p "$dest"
  for f in nemesis.txt history-verdict.txt summary.json fault-cost.md; do
    if [[ -f "$run/$f" ]]; then cp "$run/$f" "$dest/"; fi
  done
  if [[ -f "$dest/nemesis.txt" ]]; then by_kind "$dest/nemesis.txt" >"$dest/by-kind.txt"; fi
  if [[ -f "$dest/history-verdict.txt" ]]; then
    verdict=$(tail -1 "$dest/history-verdict.txt") # "history: no violation", or the count
    mismatches=$(grep -o '"mismatches" *: *[0-9]*' "$dest/summary.json" 2>/dev/null | grep -o '[0-9]*$' || true)
    verdict="$verdict; audit mismatches ${mismatches:-?}"
  else
    verdict="no verdict: nothing was judged"
    [[ $rc -ne 0 ]] || rc=1 # a run that judged nothing did not pass, whatever Maven says
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg) # the machine is shared: what else ran, at the end
  echo "| $seed | $MINUTES | $RATE | $THREADS | ${PLANTED:-none} | $(date -u +%F) | $build | $load | $verdict | exit $rc |" >>"$OUT/runs.md"
  [[ $rc -eq 0 ]] || status=1
done
exit "$status"

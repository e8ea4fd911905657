#!/usr/bin/env bash
# Rolling upgrades under load: for each seed, UpgradeIT on the cluster topology (3 RabbitMQ nodes,
# HAProxy, 2 servers, 2 consumers, a database of the run's own made with N's schema) for MINUTES of
# load, every operation judged by the history checker and the database audited at the end. N is
# the previous release, built from git once (faults/.../upgrade/Releases.PREVIOUS, cached in
# ~/.cache/albumstore/releases/); N+1 is this checkout. The seed picks the order of the instances,
# the moments of the steps and one fault (a broker node paused or a consumer killed). Everything
# runs on loopback; nothing else on the machine is stopped. Needs rabbitmq-server, haproxy, git and
# the local PostgreSQL, like the IT.
#
#   faults/upgrade.sh [--plan P=documented] [--minutes M=5] [--rate R=1000] [--threads T=64]
#                     [--seed S]...                      (no --seed: seeds 1 to 5)
# e.g. faults/upgrade.sh --plan servers-first --minutes 1 --rate 200 --seed 1
#
# Plans (faults/.../upgrade/UpgradePlan):
#   documented     expand, consumers one at a time, then servers one at a time (deploy/UPGRADE.md);
#                  passes when the verdict has no violation and the audit no mismatch
#   servers-first  the wrong order: N's consumers dead-letter version 3, one redrive after the
#                  consumers; passes with no lost write, no duplicate, no mismatch, all redriven
#   rollback       from N+1 back to N with version-3 messages queued, forward again, one redrive;
#                  judged as servers-first
#   planted        servers-first with N's consumers acknowledging what they cannot read; passes
#                  when the checker or the audit catches it
#
# Per run, results/upgrade/<plan>-seed-S/ gets upgrade.txt (the schedule, each step with its
# window on the history's clock, longest time without a 200, write p99, backlog and dead letters;
# the fault; the expand's p99 against the rest; the verdict and the audit), step-cost.md (the same
# as a table), history-verdict.txt and summary.json; then results/upgrade/runs.md gets one line,
# with the machine's load average. Exit code: 0 when every run passed.
set -euo pipefail
cd "$(dirname "$0")/.."
PLAN=documented
MINUTES=5
RATE=1000
THREADS=64
SEEDS=()

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --plan) PLAN="$2"; shift 2 ;;
    --minutes) MINUTES="$2"; shift 2 ;;
    --seed) SEEDS+=("$2"); shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
case "$PLAN" in
  documented|servers-first|rollback|planted) ;;
  *) echo "unknown plan '$PLAN' (documented, servers-first, rollback, planted)" >&2; exit 2 ;;
esac
[[ ${#SEEDS[@]} -gt 0 ]] || SEEDS=(1 2 3 4 5)
OUT="${RESULTS:-results}/upgrade"
mkdir -p "$OUT"
if ! grep -q '^| plan | seed |' "$OUT/runs.md" 2>/dev/null; then
  printf '| plan | seed | minutes | writes/s | threads | date | build | load average | verdict | exit |\n' >>"$OUT/runs.md"
  printf '|---|---|---|---|---|---|---|---|---|---|\n' >>"$OUT/runs.md"
fi
status=0
for seed in "${SEEDS[@]}"; do
  echo "== upgrade $PLAN, seed $seed, $MINUTES min, $RATE writes/s, $THREADS threads"
  rm -rf faults/target/failsafe-reports
  # The build this run compiles, taken before it does: a checkout meanwhile must not relabel it.
  build=$(git rev-parse --short HEAD 2>/dev/null || echo "${BUILD:-unknown}")
  rc=0
  # Bounded: the load, its drain, N's first build and the cluster's start and stop take well under.
  timeout "$((MINUTES * 120 + 900))" mvn -B -q -pl faults -am verify \
    -Dit.test=UpgradeIT -Dtest=NoSuch \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dalbumstore.upgrade.plan="$PLAN" -Dalbumstore.upgrade.seed="$seed" \
    -Dalbumstore.upgrade.seconds="$((MINUTES * 60))" \
    -Dalbumstore.upgrade.rate="$RATE" -Dalbumstore.upgrade.threads="$THREADS" || rc=$?
  run="faults/target/faults/upgrade-$PLAN-seed-$seed"
  dest="$OUT/$PLAN-seed-$seed"
  rm -rf "$dest"; mkdir -p "$dest"
  for f in upgrade.txt step-cost.md history-verdict.txt summary.json; do
    if [[ -f "$run/$f" ]]; then cp "$run/$f" "$dest/"; fi
  done
  if [[ -f "$dest/history-verdict.txt" ]]; then
    verdict=$(tail -1 "$dest/history-verdict.txt") # "history: no violation", or the count
    mismatches=$(grep -o '"mismatches" *: *[0-9]*' "$dest/summary.json" 2>/dev/null | grep -o '[0-9]*$' || true)
    letters=$(grep -o 'dead-lettered [0-9]* messages' "$dest/upgrade.txt" 2>/dev/null | grep -o '[0-9]*' || true)
    moved=$(grep -o 'which moved [0-9]*' "$dest/upgrade.txt" 2>/dev/null | grep -o '[0-9]*$' || true)
    left=$(grep -o 'at the end they held [0-9]*' "$dest/upgrade.txt" 2>/dev/null | grep -o '[0-9]*$' || true)
    verdict="$verdict; audit mismatches ${mismatches:-?}; dead-lettered ${letters:-?}, redriven ${moved:-?}, left ${left:-?}"
  else
    verdict="no verdict: nothing was judged"
    [[ $rc -ne 0 ]] || rc=1 # a run that judged nothing did not pass, whatever Maven says
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg) # the machine is shared: what else ran, at the end
  echo "| $PLAN | $seed | $MINUTES | $RATE | $THREADS | $(date -u +%F) | $build | $load | $verdict | exit $rc |" >>"$OUT/runs.md"
  [[ $rc -eq 0 ]] || status=1
done
exit "$status"

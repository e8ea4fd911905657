#!/usr/bin/env bash
# Album Store: applies the repository's schema.sql to the stack's RDS database, through the client
# instance (the database is not reachable from outside the VPC): an upgrade's expand step, before
# the new consumers (deploy/UPGRADE.md). Safe to repeat, and online: one transaction whose table
# locks are waited for at most 500 ms (else writers would queue behind it), retried while a lock
# was busy, as `albumstore-consumer.jar schema` does.
#
#   apply-schema.sh --stack albumstore [--identity ~/.ssh/my-key.pem]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" identity=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --identity) identity=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack ]] || die "--stack is required"
need aws ssh

client_ssh "$stack" "$identity"
for attempt in $(seq 1 40); do
  if out=$(ssh "${SSH_OPTS[@]}" "$CLIENT_LOGIN" "PGOPTIONS='-c lock_timeout=500ms' albumstore-psql -q -1 -f -" \
    < "$here/../../schema.sql" 2>&1); then
    echo "schema.sql applied (attempt $attempt)"
    break
  fi
  [[ $out == *"lock timeout"* && $attempt -lt 40 ]] || die "schema.sql not applied: $out"
  sleep 1
done
ssh "${SSH_OPTS[@]}" "$CLIENT_LOGIN" albumstore-psql -c "'\\dt'"

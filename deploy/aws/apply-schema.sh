#!/usr/bin/env bash
# Album Store: applies the repository's schema.sql to the stack's RDS database, through the client
# instance (the database is not reachable from outside the VPC). Safe to repeat: every statement
# is IF NOT EXISTS. The client instance already applied it once at boot, and consumers started
# with --init-schema apply it too; use this after changing schema.sql.
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
ssh "${SSH_OPTS[@]}" "$CLIENT_LOGIN" albumstore-psql -f - < "$here/../../schema.sql"
ssh "${SSH_OPTS[@]}" "$CLIENT_LOGIN" albumstore-psql -c "'\\dt'"

#!/usr/bin/env bash
# Album Store: runs the load client on the stack's client instance against the stack's servers and
# copies the run's files (CSV, timeline, JSON summary, chart) back to this machine.
#
#   run-client.sh --stack albumstore [--identity ~/.ssh/my-key.pem] [--results DIR] -- --threads 256
#
# Everything after -- goes to the client (default: --threads 256). The base URL, the broker's
# management API and its credentials are filled in on the instance (albumstore-client wrapper).
# Results land in DIR (default: results/aws/<stack>-<UTC time> under the repository root).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" identity="" results=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --identity) identity=${2:?}; shift 2 ;;
    --results) results=${2:?}; shift 2 ;;
    --) shift; break ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack ]] || die "--stack is required"
[[ $# -gt 0 ]] || set -- --threads 256
need aws ssh scp

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run_dir=runs/$stamp
results=${results:-$root/results/aws/$stack-$stamp}
client_ssh "$stack" "$identity"

# Quote every client argument for the remote shell.
remote_args=$(printf ' %q' "$@")
echo "Running on $CLIENT_LOGIN:~/$run_dir: albumstore-client$remote_args"
status=0
ssh -t "${SSH_OPTS[@]}" "$CLIENT_LOGIN" "mkdir -p $run_dir && cd $run_dir && albumstore-client$remote_args" ||
  status=$?

mkdir -p "$results"
scp -q -r "${SSH_OPTS[@]}" "$CLIENT_LOGIN:$run_dir/." "$results/" || echo "no files to copy back" >&2
echo "Client exit status $status; files in $results"
exit "$status"

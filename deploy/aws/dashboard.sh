#!/usr/bin/env bash
# Album Store: opens the way to the RabbitMQ management dashboard of the stack's broker. The broker
# is not publicly accessible, so this forwards a local port through the client instance over SSH
# and prints the URL, user and password to use. Runs until Ctrl-C.
#
#   dashboard.sh --stack albumstore [--identity ~/.ssh/my-key.pem] [--local-port 15671]
#
# The browser will warn that the certificate (issued for the broker's host name) does not match
# localhost. To avoid that, add "127.0.0.1 <broker host>" to /etc/hosts and open
# https://<broker host>:<local port>/ instead.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" identity="" port=15671
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --identity) identity=${2:?}; shift 2 ;;
    --local-port) port=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack ]] || die "--stack is required"
need aws ssh python3

console=$(stack_output "$stack" BrokerConsoleUrl)
host=${console#https://}
host=${host%%[:/]*}
secret=$(stack_output "$stack" BrokerSecretArn)
user=$(secret_field "$secret" username)
password=$(secret_field "$secret" password)
client_ssh "$stack" "$identity"

cat <<INFO
RabbitMQ management dashboard of stack $stack
  open      https://localhost:$port/   (or https://$host:$port/ with an /etc/hosts entry)
  user      $user
  password  $password
  (from inside the VPC, e.g. on the client instance: $console)
Forwarding localhost:$port -> $host:443 through $CLIENT_LOGIN; Ctrl-C to stop.
INFO
exec ssh -N "${SSH_OPTS[@]}" -L "127.0.0.1:$port:$host:443" "$CLIENT_LOGIN"

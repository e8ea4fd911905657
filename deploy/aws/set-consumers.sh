#!/usr/bin/env bash
# Album Store: changes the AMQP connection count (and optionally channels per connection) of every
# running consumer instance of the stack, and restarts the consumers, through SSM Run Command.
# For experiments such as queue depth against consumer connections: no instance is replaced. The
# stack's ConsumerConnections parameter is not changed; a later stack update re-applies it (use
# deploy-stack.sh ConsumerConnections=N for a lasting change, which replaces the instances).
#
#   set-consumers.sh --stack albumstore --connections 8 [--channels 2]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" connections="" channels=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --connections) connections=${2:?}; shift 2 ;;
    --channels) channels=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack && -n $connections ]] || die "--stack and --connections are required"
[[ $connections =~ ^[0-9]+$ && $connections -ge 1 ]] || die "--connections must be a positive number"
[[ -z $channels || $channels =~ ^[0-9]+$ ]] || die "--channels must be a positive number"
need aws

group=$(stack_output "$stack" ConsumerGroupName)
env_file=/etc/albumstore/albumstore.env
commands="sed -i 's/^ALBUMSTORE_CONSUMER_CONNECTIONS=.*/ALBUMSTORE_CONSUMER_CONNECTIONS=$connections/' $env_file"
if [[ -n $channels ]]; then
  commands+=" && sed -i 's/^ALBUMSTORE_CONSUMER_CHANNELS=.*/ALBUMSTORE_CONSUMER_CHANNELS=$channels/' $env_file"
fi
commands+=" && systemctl restart albumstore-consumer && sleep 10 && systemctl is-active albumstore-consumer"

command_id=$(aws ssm send-command \
  --document-name AWS-RunShellScript \
  --targets "Key=tag:aws:autoscaling:groupName,Values=$group" \
  --comment "albumstore consumers: $connections connections" \
  --parameters "$(python3 -c 'import json,sys; print(json.dumps({"commands": [sys.argv[1]]}))' "$commands")" \
  --query Command.CommandId --output text)
echo "SSM command $command_id sent to the instances of $group"

# Bounded wait: 60 polls of 5 s.
for _ in $(seq 1 60); do
  sleep 5
  states=$(aws ssm list-command-invocations --command-id "$command_id" \
    --query 'CommandInvocations[].Status' --output text)
  [[ -n $states ]] || continue
  if [[ $states != *Pending* && $states != *InProgress* && $states != *Delayed* ]]; then
    aws ssm list-command-invocations --command-id "$command_id" \
      --query 'CommandInvocations[].[InstanceId,Status]' --output table
    [[ $states =~ ^(Success[[:space:]]*)+$ ]] || die "not every consumer restarted: $states"
    echo "Consumers now run $connections connection(s) each."
    exit 0
  fi
done
die "SSM command $command_id did not finish within 5 minutes"

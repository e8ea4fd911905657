#!/usr/bin/env bash
# Album Store: what an instance does for its Auto Scaling group. bootstrap.sh installs it with its
# systemd units on the instances of a group (every consumer; servers behind the ALB), run as root:
#
#   albumstore-scaling.sh drain UNIT        the termination hook's handler (albumstore-drain@UNIT)
#   albumstore-scaling.sh publish-backlog   the backlog metric, once (albumstore-backlog.timer)
#
# drain: polls the instance metadata (IMDSv2: a token, then autoscaling/target-lifecycle-state)
# every ALBUMSTORE_DRAIN_POLL_SECONDS (5) and calls nothing else while the state is not Terminated.
# Once it is: stops UNIT with ALBUMSTORE_DRAIN_STOP (default `systemctl stop UNIT`, which returns
# when the unit has stopped: Tomcat finishes the requests in flight; the consumer answers /health
# DRAINING, commits and acknowledges its batches), at most ALBUMSTORE_DRAIN_STOP_SECONDS (90, inside
# the hook's 120 s); then completes the hook albumstore-drain with CONTINUE. A server is first taken
# out of its target group (the 30 s deregistration delay) and only then held by the hook, so a
# completion refused as early is retried every poll for ALBUMSTORE_DRAIN_COMPLETE_SECONDS (180).
#
# publish-backlog: only the in-service instance of the group with the lowest instance ID publishes,
# so the broker's management API is read once a minute whatever the count (Amazon MQ's ask); a
# group that changes meanwhile costs one minute without a value or with two, never a loop. It runs
# ALBUMSTORE_BACKLOG_COMMAND (default: the consumer jar's WriteBacklogMain for STACK_NAME in 64 MiB
# of heap, beside the consumer's; it reads ALBUMSTORE_RMQ_API, _RMQ_USER, _RMQ_PASSWORD, _QUEUE and
# _QUEUE_PARTITIONS) and puts the PutMetricData JSON it prints with `aws cloudwatch put-metric-data
# --cli-input-json`.
#
# Environment: STACK_REGION, STACK_NAME (/etc/albumstore/stack.env); ALBUMSTORE_IMDS (default
# http://169.254.169.254); `aws` from PATH.
set -euo pipefail

imds=${ALBUMSTORE_IMDS:-http://169.254.169.254}
# The template's two LifecycleHook resources carry the same name.
hook=albumstore-drain
export AWS_DEFAULT_REGION=${STACK_REGION:?}

say() { echo "albumstore-scaling: $*"; }

# One metadata item (a path under latest/meta-data/); fails when IMDS does not answer it.
metadata() { # PATH
  local token
  token=$(curl -fsS -m 2 -X PUT "$imds/latest/api/token" \
    -H "X-aws-ec2-metadata-token-ttl-seconds: 60") || return 1
  curl -fsS -m 2 -H "X-aws-ec2-metadata-token: $token" "$imds/latest/meta-data/$1"
}

# The Auto Scaling group of instance ID (describe-auto-scaling-instances).
group_of() { # ID
  local group
  group=$(aws autoscaling describe-auto-scaling-instances --instance-ids "$1" \
    --query 'AutoScalingInstances[0].AutoScalingGroupName' --output text)
  [[ -n $group && $group != None ]] || { say "$1 is in no Auto Scaling group" >&2; return 1; }
  echo "$group"
}

drain() { # UNIT
  local unit=${1:?usage: albumstore-scaling.sh drain UNIT} state="" poll=${ALBUMSTORE_DRAIN_POLL_SECONDS:-5}
  local stop
  read -r -a stop <<<"${ALBUMSTORE_DRAIN_STOP:-systemctl stop $unit}"
  say "watching for termination; then: ${stop[*]}"
  until [[ $state == Terminated ]]; do
    sleep "$poll"
    state=$(metadata autoscaling/target-lifecycle-state 2>/dev/null) || state=""
  done
  local id group
  id=$(metadata instance-id)
  say "$id is to terminate: ${stop[*]} (at most ${ALBUMSTORE_DRAIN_STOP_SECONDS:-90} s)"
  if timeout "${ALBUMSTORE_DRAIN_STOP_SECONDS:-90}" "${stop[@]}"; then
    say "$unit stopped"
  else
    say "$unit did not stop cleanly in time (status $?): completing the hook all the same"
  fi
  group=$(group_of "$id")
  complete "$id" "$group" "$poll"
}

# Completes the hook with CONTINUE, retrying while it is refused, within the time allowed.
complete() { # ID GROUP POLL_SECONDS
  local deadline=$((SECONDS + ${ALBUMSTORE_DRAIN_COMPLETE_SECONDS:-180}))
  until aws autoscaling complete-lifecycle-action --lifecycle-action-result CONTINUE \
    --lifecycle-hook-name "$hook" --auto-scaling-group-name "$2" --instance-id "$1"; do
    if ((SECONDS >= deadline)); then
      say "the hook $hook was not completed: the instance goes at the hook's timeout"
      return 1
    fi
    sleep "$3"
  done
  say "completed the hook $hook of $2 for $1: CONTINUE"
}

publish_backlog() {
  local id group lowest json
  id=$(metadata instance-id)
  group=$(group_of "$id")
  lowest=$(aws autoscaling describe-auto-scaling-groups --auto-scaling-group-names "$group" \
    --query "AutoScalingGroups[0].Instances[?LifecycleState=='InService'].InstanceId" \
    --output text | tr -s '[:space:]' '\n' | sort | head -n 1)
  if [[ $id != "$lowest" ]]; then
    say "not the publisher: ${lowest:-no instance} of $group is"
    return 0
  fi
  local command
  read -r -a command <<<"${ALBUMSTORE_BACKLOG_COMMAND:-java -Xmx64m -cp /opt/albumstore/albumstore-consumer.jar org.albumstore.consumer.scaling.WriteBacklogMain --stack ${STACK_NAME:?}}"
  json=$("${command[@]}")
  aws cloudwatch put-metric-data --cli-input-json "$json"
  say "published: $json"
}

case ${1:-} in
  drain) drain "${2:-}" ;;
  publish-backlog) publish_backlog ;;
  *) echo "usage: albumstore-scaling.sh drain UNIT | publish-backlog" >&2; exit 2 ;;
esac

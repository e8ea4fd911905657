#!/usr/bin/env bash
# Album Store: creates or updates the CloudFormation stack from deploy/aws/template.yaml and prints
# its outputs. Creation takes ~20-30 minutes (the broker and the database are the slow parts).
#
#   deploy-stack.sh --stack albumstore --bucket my-albumstore-artifacts [--prefix albumstore]
#                   [--allowed-cidr 203.0.113.7/32] [--key-name my-key] [Parameter=Value ...]
#
# Further Parameter=Value pairs go to the template, e.g. UseLoadBalancer=true ServerCount=2
# ConsumerConnections=8 BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum. On an update,
# parameters not named keep their previous values. --allowed-cidr defaults to this machine's
# public address (asked of checkip.amazonaws.com) on creation.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" bucket="" prefix=albumstore cidr="" key_name="" overrides=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --bucket) bucket=${2:?}; shift 2 ;;
    --prefix) prefix=${2:?}; shift 2 ;;
    --allowed-cidr) cidr=${2:?}; shift 2 ;;
    --key-name) key_name=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *=*) overrides+=("$1"); shift ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack && -n $bucket ]] || die "--stack and --bucket are required"
need aws

exists=false
if aws cloudformation describe-stacks --stack-name "$stack" >/dev/null 2>&1; then exists=true; fi
if [[ -z $cidr ]] && ! $exists; then
  need curl
  cidr="$(curl -fsS --max-time 10 https://checkip.amazonaws.com | tr -d '[:space:]')/32" ||
    die "could not find this machine's public address: pass --allowed-cidr"
fi

params=("ArtifactBucket=$bucket" "ArtifactPrefix=${prefix%/}")
[[ -z $cidr ]] || params+=("AllowedCidr=$cidr")
[[ -z $key_name ]] || params+=("KeyName=$key_name")
params+=("${overrides[@]}")

echo "Deploying stack $stack (this waits until it is complete)"
aws cloudformation deploy \
  --stack-name "$stack" \
  --template-file "$here/template.yaml" \
  --s3-bucket "$bucket" --s3-prefix "${prefix%/}/cfn" \
  --capabilities CAPABILITY_IAM \
  --no-fail-on-empty-changeset \
  --parameter-overrides "${params[@]}"

aws cloudformation describe-stacks --stack-name "$stack" \
  --query 'Stacks[0].Outputs[].[OutputKey,OutputValue]' --output table

#!/usr/bin/env bash
# Album Store: deletes the stack and everything in it (instances, ALB, broker, database without a
# final snapshot, secrets, VPC) and waits until it is gone. With --bucket, also deletes the
# uploaded artifacts under --prefix (the bucket itself is kept). Costs stop only when this ends.
#
#   teardown.sh --stack albumstore [--bucket my-albumstore-artifacts [--prefix albumstore]]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

stack="" bucket="" prefix=albumstore
while [[ $# -gt 0 ]]; do
  case $1 in
    --stack) stack=${2:?}; shift 2 ;;
    --bucket) bucket=${2:?}; shift 2 ;;
    --prefix) prefix=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $stack ]] || die "--stack is required"
need aws

if aws cloudformation describe-stacks --stack-name "$stack" >/dev/null 2>&1; then
  echo "Deleting stack $stack (the broker and the database take 10-20 minutes)"
  aws cloudformation delete-stack --stack-name "$stack"
  aws cloudformation wait stack-delete-complete --stack-name "$stack"
  echo "Stack $stack deleted."
else
  echo "No stack $stack."
fi
if [[ -n $bucket ]]; then
  aws s3 rm --recursive --only-show-errors "s3://$bucket/${prefix%/}/"
  echo "Artifacts under s3://$bucket/${prefix%/}/ deleted (bucket kept: aws s3 rb s3://$bucket)."
fi

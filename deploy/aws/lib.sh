# shellcheck shell=bash
# Shared by the deploy/aws helper scripts (sourced, not run). They need the AWS CLI with
# credentials and a default region (or AWS_REGION), and ssh for the client instance.

die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

need() { # COMMAND...
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null || die "'$c' is not installed"
  done
}

# The value of one output of a stack, or a failure naming what is missing.
stack_output() { # STACK KEY
  local value
  value=$(aws cloudformation describe-stacks --stack-name "$1" \
    --query "Stacks[0].Outputs[?OutputKey=='$2'].OutputValue" --output text) ||
    die "cannot describe stack $1"
  [[ -n $value && $value != None ]] || die "stack $1 has no output $2 (not created yet, or without it)"
  echo "$value"
}

secret_field() { # SECRET_ARN FIELD
  aws secretsmanager get-secret-value --secret-id "$1" --query SecretString --output text |
    python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$2"
}

# Sets SSH_OPTS (an array of ssh/scp options) and CLIENT_LOGIN (ec2-user@<client public IP>):
#   ssh "${SSH_OPTS[@]}" "$CLIENT_LOGIN" command...
# IDENTITY is the private key file of the stack's KeyName (empty: ssh's defaults or agent).
# shellcheck disable=SC2034 # used by the scripts that source this file
SSH_OPTS=()
CLIENT_LOGIN=""
client_ssh() { # STACK IDENTITY
  # shellcheck disable=SC2034
  CLIENT_LOGIN="ec2-user@$(stack_output "$1" ClientPublicIp)"
  SSH_OPTS=(-o StrictHostKeyChecking=accept-new -o ServerAliveInterval=30)
  [[ -z $2 ]] || SSH_OPTS+=(-i "$2")
}

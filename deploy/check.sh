#!/usr/bin/env bash
# Album Store: static checks of deploy/ that need no AWS and no running server.
#   - shellcheck on every shell script (including setenv.sh, which is POSIX sh);
#   - cfn-lint (AWS's CloudFormation linter, against AWS's resource schemas) on the template, once
#     per parameter combination listed below, warnings and notices included, with this
#     project's two cfn-lint rules (aws/cfn-lint-rules: the template's Rules and every
#     AllowedPattern hold for the values given, which cfn-lint 1.51 does not evaluate);
#   - tomcat/server.xml is well-formed XML (the JDK's parser: java is all it needs).
# A linter that is not installed skips its check with one line, so a machine with only a JDK can
# run this; with CI=true a missing linter fails the run instead. Installing them:
#   apt-get install -y shellcheck   (macOS: brew install shellcheck)
#   pip install cfn-lint            (macOS: brew install cfn-lint)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

missing=()
# True when TOOL is on PATH; else prints the skip line for WHAT and returns false.
have() { # TOOL WHAT
  command -v "$1" >/dev/null && return 0
  missing+=("$1")
  if [[ ${CI:-} == true ]]; then
    echo "check.sh: cannot run the $2: $1 is not installed, and CI=true" >&2
  else
    echo "check.sh: SKIPPED the $2: $1 is not installed (with CI=true this fails)"
  fi
  return 1
}

if have shellcheck "lint of the deploy scripts"; then
  # Not target/: the Maven build of this folder unpacks stock Tomcat distributions there (their
  # bin/*.sh are Apache's, not ours).
  mapfile -t scripts < <(find . -path ./target -prune -o -type f -name '*.sh' -print | sort)
  shellcheck -x "${scripts[@]}"
  echo "shellcheck: ${#scripts[@]} scripts"
fi

# The parameter combinations of deploy/RUNBOOK.md's steps. cfn-lint resolves each parameter to
# the given value, so it also checks the values against what the resources accept. The first two
# values are required by the template and change no condition.
required=(AllowedCidr=203.0.113.7/32 ArtifactBucket=albumstore-artifacts)
combinations=(
  "defaults: single-instance broker, quorum queue, one server|"
  "single-instance broker, classic queue|QueueType=classic"
  "SSH key pair and a chosen broker name|KeyName=my-key BrokerName=albumstore-broker"
  "3 servers behind the ALB|UseLoadBalancer=true ServerCount=3"
  "3-node broker cluster with quorum queues|BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum"
  "3-node broker cluster, 3 queue partitions|BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum QueuePartitions=3"
  "RabbitMQ 3.13 on mq.m5.large|BrokerEngineVersion=3.13 BrokerInstanceType=mq.m5.large"
  "RabbitMQ 4.2 cluster, quorum queues, ALB|BrokerEngineVersion=4.2 BrokerInstanceType=mq.m7g.large BrokerDeploymentMode=CLUSTER_MULTI_AZ QueueType=quorum UseLoadBalancer=true ServerCount=2"
  "smoke test: mq.t3.micro broker|BrokerEngineVersion=3.13 BrokerInstanceType=mq.t3.micro"
  "RDS Multi-AZ (a synchronous standby)|DbMultiAZ=true"
  "PostgreSQL 16|DbEngineVersion=16"
  "larger instances|ServerInstanceType=c7i.large ConsumerInstanceType=t3.medium ClientInstanceType=c7i.xlarge DbInstanceClass=db.m7g.large ConsumerCount=3"
  "servers scaled on requests per target|UseLoadBalancer=true ServerCount=2 ServerMaxCount=8 ServerRequestsPerTarget=30000"
  "consumers scaled on backlog per consumer|ConsumerCount=2 ConsumerMaxCount=12 ConsumerTargetLatency=5 ConsumerMessageMillis=0.5"
  "both tiers scaled, RabbitMQ 4.2 cluster|BrokerDeploymentMode=CLUSTER_MULTI_AZ UseLoadBalancer=true ServerCount=2 ServerMaxCount=32 ConsumerMaxCount=32 ConsumerConnections=42"
  "consumers scaled to the mq.t3.micro connection limit|BrokerEngineVersion=3.13 BrokerInstanceType=mq.t3.micro ConsumerMaxCount=8 ConsumerConnections=53"
)
lint=(cfn-lint --non-zero-exit-code informational --append-rules aws/cfn-lint-rules)
if have cfn-lint "lint of aws/template.yaml"; then
  # Without parameters: every combination of the template's conditions that its Rules allow.
  "${lint[@]}" -- aws/template.yaml
  echo "cfn-lint: aws/template.yaml: all condition combinations"
  # One cfn-lint process for all the combinations, each as a deployment file (template and
  # parameters): loading AWS's schemas is most of a run, and CI ran this once per combination.
  deployments=$(mktemp -d)
  files=()
  for i in "${!combinations[@]}"; do
    read -r -a values <<<"${combinations[$i]#*|}"
    file="$deployments/combination-$i.yaml"
    {
      echo "template-file-path: $PWD/aws/template.yaml"
      echo "parameters:"
      for value in "${required[@]}" "${values[@]}"; do echo "  ${value%%=*}: '${value#*=}'"; done
    } >"$file"
    files+=("$file")
  done
  if ! "${lint[@]}" --deployment-files "${files[@]}"; then
    # A finding in the template itself names no combination: name each one that fails.
    for i in "${!combinations[@]}"; do
      "${lint[@]}" --deployment-files "${files[$i]}" >/dev/null ||
        echo "cfn-lint: FAILED with ${combinations[$i]%%|*}: ${combinations[$i]#*|}" >&2
    done
    rm -rf "$deployments"
    exit 1
  fi
  rm -rf "$deployments"
  for combination in "${combinations[@]}"; do
    given=${combination#*|}
    echo "cfn-lint: aws/template.yaml: ${combination%%|*}${given:+ ($given)}"
  done
fi

# The JDK runs a one-file program from source; it needs a real file (a here-document may be a pipe).
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
source_dir=$(mktemp -d)
trap 'rm -rf "$source_dir"' EXIT
cat >"$source_dir/WellFormed.java" <<'EOF'
class WellFormed {
  public static void main(String[] args) throws Exception {
    javax.xml.parsers.DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(new java.io.File(args[0]));
  }
}
EOF
"$java" "$source_dir/WellFormed.java" tomcat/server.xml
echo "server.xml: well-formed"

if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ ${CI:-} == true ]]; then
    echo "deploy/check.sh: FAILED: CI=true and not installed: ${missing[*]}" >&2
    exit 1
  fi
  echo "deploy/check.sh: passed, without ${missing[*]} (not installed)"
  exit 0
fi
echo "deploy/check.sh: all checks passed"

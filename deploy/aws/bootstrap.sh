#!/usr/bin/env bash
# Album Store: first-boot setup of an EC2 instance (Amazon Linux 2023), run by the user data of
# deploy/aws/template.yaml as root:   bootstrap.sh server|consumer|client
#
# The user data writes /etc/albumstore/stack.env (endpoints, secret ARNs, artifact location, role
# settings; no passwords) and fetches this script from S3. This script installs Java 17, fetches
# the artifacts, reads the passwords from Secrets Manager into root-readable env files, sets up
# the role's service, and tells CloudFormation whether it worked (cfn-signal), so a stack is
# CREATE_COMPLETE only when every server answers /albumstore/health and every consumer runs.
# Safe to run again (e.g. after fixing an artifact): every step overwrites what it made.
set -euo pipefail

# host:port of the broker's AMQP-over-TLS endpoint (an entry of the broker's AmqpEndpoints
# attribute). AWS documents it as amqps://b-....amazonaws.com:5671 and shows it elsewhere as
# amqp+ssl://...:5671; both schemes mean the same, anything else is refused. No port: 5671.
amqps_address() { # ENDPOINT
  local rest=${1#*://}
  rest=${rest%%/*}
  case ${1%%://*} in
    amqps | amqp+ssl) ;;
    *) rest="" ;;
  esac
  if [[ $1 != *://* || -z ${rest%%:*} ]]; then
    echo "bootstrap: not an amqps:// or amqp+ssl:// endpoint: '$1'" >&2
    return 1
  fi
  [[ $rest == *:* ]] || rest+=:5671
  echo "$rest"
}

# Sourced (by the deploy module's tests): the functions above only.
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

role=${1:?usage: bootstrap.sh server|consumer|client}
exec > >(tee -a /var/log/albumstore-bootstrap.log) 2>&1
echo "bootstrap: role $role, $(date -u +%FT%TZ)"

# shellcheck source=/dev/null
. /etc/albumstore/stack.env
: "${STACK_NAME:?} ${STACK_REGION:?} ${SIGNAL_RESOURCE:?} ${ARTIFACT_URL:?} ${BROKER_ENDPOINT:?}"
: "${BROKER_SECRET:?} ${DB_HOST:?} ${DB_PORT:?} ${DB_NAME:?} ${DB_SECRET:?} ${QUEUE_NAME:?} ${QUEUE_TYPE:?} ${QUEUE_PARTITIONS:?}"
broker_address=$(amqps_address "$BROKER_ENDPOINT")
export AWS_DEFAULT_REGION=$STACK_REGION
dist=/opt/albumstore

# Report the outcome to CloudFormation whatever happens, once.
signal() {
  local status=$?
  if [[ -x /opt/aws/bin/cfn-signal ]]; then
    /opt/aws/bin/cfn-signal --exit-code "$status" --stack "$STACK_NAME" \
      --resource "$SIGNAL_RESOURCE" --region "$STACK_REGION" ||
      echo "bootstrap: cfn-signal failed" >&2
  fi
  echo "bootstrap: finished with status $status"
}
trap signal EXIT

secret_field() { # SECRET_ARN FIELD
  aws secretsmanager get-secret-value --secret-id "$1" --query SecretString --output text |
    jq -er --arg f "$2" '.[$f]'
}

# Writes stdin to FILE, readable by root and GROUP only (it holds passwords).
write_private() { # FILE GROUP
  install -m 0640 -o root -g "$2" /dev/stdin "$1"
}

system_user() { # NAME HOME
  id -u "$1" >/dev/null 2>&1 || useradd --system --home-dir "$2" --no-create-home --shell /sbin/nologin "$1"
}

dnf install -y -q java-17-amazon-corretto-headless aws-cfn-bootstrap jq
mkdir -p "$dist"

broker_user=$(secret_field "$BROKER_SECRET" username)
broker_password=$(secret_field "$BROKER_SECRET" password)
db_user=$(secret_field "$DB_SECRET" username)
db_password=$(secret_field "$DB_SECRET" password)
# Generated passwords are letters and digits only, so they need no escaping in the URI.
amqp_uri="amqps://$broker_user:$broker_password@$broker_address"
# RDS PostgreSQL requires TLS by default; sslmode=require encrypts without checking the CA (add the
# RDS CA bundle and sslmode=verify-full to also authenticate the server).
jdbc_url="jdbc:postgresql://$DB_HOST:$DB_PORT/$DB_NAME?sslmode=require"

common_settings() {
  cat <<EOF
ALBUMSTORE_AMQP_URI=$amqp_uri
ALBUMSTORE_QUEUE=$QUEUE_NAME
ALBUMSTORE_QUEUE_TYPE=$QUEUE_TYPE
ALBUMSTORE_QUEUE_PARTITIONS=$QUEUE_PARTITIONS
ALBUMSTORE_JDBC_URL=$jdbc_url
ALBUMSTORE_DB_USER=$db_user
ALBUMSTORE_DB_PASSWORD=$db_password
EOF
}

# The broker's management API, for the load client and the consumers' backlog metric.
management_settings() {
  : "${BROKER_CONSOLE_URL:?}"
  cat <<EOF
ALBUMSTORE_RMQ_API=${BROKER_CONSOLE_URL%/}
ALBUMSTORE_RMQ_USER=$broker_user
ALBUMSTORE_RMQ_PASSWORD=$broker_password
EOF
}

# What an instance of an Auto Scaling group runs for it (albumstore-scaling.sh): the termination
# hook's handler for UNIT, and on consumers the backlog metric's timer.
setup_scaling() { # UNIT
  local f
  for f in albumstore-scaling.sh albumstore-drain@.service albumstore-backlog.service albumstore-backlog.timer; do
    aws s3 cp --only-show-errors "$ARTIFACT_URL/deploy/aws/$f" "$dist/deploy/aws/$f"
  done
  install -m 0755 "$dist/deploy/aws/albumstore-scaling.sh" "$dist/albumstore-scaling.sh"
  install -m 0644 "$dist/deploy/aws/albumstore-drain@.service" /etc/systemd/system/
  systemctl daemon-reload
  systemctl enable --now "albumstore-drain@$1"
  if [[ $1 == albumstore-consumer.service ]]; then
    install -m 0644 "$dist/deploy/aws/albumstore-backlog.service" "$dist/deploy/aws/albumstore-backlog.timer" \
      /etc/systemd/system/
    systemctl daemon-reload
    systemctl enable --now albumstore-backlog.timer
  fi
}

setup_server() {
  dnf install -y -q tar gzip
  aws s3 cp --only-show-errors "$ARTIFACT_URL/albumstore.war" "$dist/albumstore.war"
  aws s3 cp --only-show-errors "$ARTIFACT_URL/tomcat.tar.gz" "$dist/tomcat.tar.gz"
  # One by one: the instance role may read objects under the prefix, not list the bucket.
  local f
  for f in install.sh setenv.sh server.xml tomcat.service; do
    aws s3 cp --only-show-errors "$ARTIFACT_URL/deploy/tomcat/$f" "$dist/deploy/tomcat/$f"
  done
  system_user tomcat /opt/tomcat
  # Tomcat's bin/setenv.sh reads this file; edit it and `systemctl restart tomcat` to retune
  # (ALBUMSTORE_PUBLISH_CHANNELS, ALBUMSTORE_DB_POOL_SIZE, TOMCAT_MAX_THREADS, TOMCAT_HEAP, ...).
  { common_settings; echo "TOMCAT_HEAP_PERCENT=60"; } | write_private /etc/albumstore/albumstore.env tomcat
  bash "$dist/deploy/tomcat/install.sh" --tomcat "$dist/tomcat.tar.gz" --war "$dist/albumstore.war" \
    --target /opt/tomcat --port 8080 --systemd --user tomcat --wait 300
  # Behind the ALB the servers are a scaling group; a single server is an instance of its own.
  [[ $SIGNAL_RESOURCE != ServerGroup ]] || setup_scaling tomcat.service
}

setup_consumer() {
  : "${CONSUMER_CONNECTIONS:?} ${CONSUMER_CHANNELS:?} ${CONSUMER_PREFETCH:?} ${CONSUMER_BATCH_SIZE:?}"
  aws s3 cp --only-show-errors "$ARTIFACT_URL/albumstore-consumer.jar" "$dist/albumstore-consumer.jar"
  aws s3 cp --only-show-errors "$ARTIFACT_URL/deploy/aws/albumstore-consumer.service" \
    /etc/systemd/system/albumstore-consumer.service
  system_user albumstore "$dist"
  # The unit's EnvironmentFile (and the backlog metric's); set-consumers.sh rewrites the
  # connection count here.
  {
    common_settings
    management_settings
    cat <<EOF
ALBUMSTORE_CONSUMER_CONNECTIONS=$CONSUMER_CONNECTIONS
ALBUMSTORE_CONSUMER_CHANNELS=$CONSUMER_CHANNELS
ALBUMSTORE_PREFETCH=$CONSUMER_PREFETCH
ALBUMSTORE_BATCH_SIZE=$CONSUMER_BATCH_SIZE
CONSUMER_JAVA_OPTS=-XX:MaxRAMPercentage=60 -XX:+ExitOnOutOfMemoryError
EOF
  } | write_private /etc/albumstore/albumstore.env albumstore
  systemctl daemon-reload
  systemctl enable albumstore-consumer.service
  systemctl restart albumstore-consumer.service
  # Running for 30 s means connected to broker and database: the consumer exits when it cannot
  # start (the unit restarts it, e.g. after two consumers raced to create the schema).
  sleep 30
  if ! systemctl is-active --quiet albumstore-consumer.service; then
    journalctl -u albumstore-consumer.service -n 50 --no-pager
    return 1
  fi
  setup_scaling albumstore-consumer.service
}

setup_client() {
  # psql to apply schema.sql and to look at the counters; AL2023 names the client by major version.
  dnf install -y -q postgresql16 || dnf install -y -q postgresql15
  aws s3 cp --only-show-errors "$ARTIFACT_URL/client.jar" "$dist/client.jar"
  aws s3 cp --only-show-errors "$ARTIFACT_URL/schema.sql" "$dist/schema.sql"
  : "${SERVICE_URL:?}"
  {
    management_settings
    cat <<EOF
ALBUMSTORE_URL=$SERVICE_URL
PGHOST=$DB_HOST
PGPORT=$DB_PORT
PGDATABASE=$DB_NAME
PGUSER=$db_user
PGPASSWORD=$db_password
PGSSLMODE=require
EOF
    common_settings
  } | write_private /etc/albumstore/client.env ec2-user

  # albumstore-client [client options]: the load client aimed at this stack.
  cat > /usr/local/bin/albumstore-client <<'EOF'
#!/bin/bash
set -euo pipefail
set -a
. /etc/albumstore/client.env
set +a
exec java -XX:MaxRAMPercentage=60 -jar /opt/albumstore/client.jar --url "$ALBUMSTORE_URL" \
  --rmq-api "$ALBUMSTORE_RMQ_API" --rmq-user "$ALBUMSTORE_RMQ_USER" \
  --rmq-password "$ALBUMSTORE_RMQ_PASSWORD" "$@"
EOF
  # albumstore-psql [psql options]: psql connected to the stack's database.
  cat > /usr/local/bin/albumstore-psql <<'EOF'
#!/bin/bash
set -euo pipefail
set -a
. /etc/albumstore/client.env
set +a
exec psql -v ON_ERROR_STOP=1 "$@"
EOF
  chmod 0755 /usr/local/bin/albumstore-client /usr/local/bin/albumstore-psql

  # The schema, applied once here (IF NOT EXISTS throughout, so consumers' --init-schema and
  # apply-schema.sh may apply it again).
  runuser -u ec2-user -- /usr/local/bin/albumstore-psql -q -f "$dist/schema.sql"
  echo "bootstrap: schema applied to $DB_HOST/$DB_NAME"
  # Informational: with an ALB the servers may still be starting.
  if curl -fsS --max-time 5 -o /dev/null "$SERVICE_URL/health"; then
    echo "bootstrap: $SERVICE_URL/health answers"
  else
    echo "bootstrap: $SERVICE_URL/health does not answer yet"
  fi
}

case $role in
  server) setup_server ;;
  consumer) setup_consumer ;;
  client) setup_client ;;
  *) echo "bootstrap: unknown role $role" >&2; exit 2 ;;
esac
echo "bootstrap: $role ready"

#!/usr/bin/env bash
# Album Store: uploads what the instances install to s3://BUCKET/PREFIX/ (creating the bucket if
# it does not exist): the WAR, the consumer and client jars, a Tomcat distribution (from Maven
# Central, through Maven), schema.sql, and the deploy scripts the instances run.
#
#   upload-artifacts.sh --bucket my-albumstore-artifacts [--prefix albumstore] [--tomcat-version 11.0.24]
#
# Build first:  mvn -B package -DskipTests   (from the repository root)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$here/lib.sh"

bucket="" prefix=albumstore tomcat_version=11.0.24
while [[ $# -gt 0 ]]; do
  case $1 in
    --bucket) bucket=${2:?}; shift 2 ;;
    --prefix) prefix=${2:?}; shift 2 ;;
    --tomcat-version) tomcat_version=${2:?}; shift 2 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ -n $bucket ]] || die "--bucket is required"
prefix=${prefix%/}
need aws mvn

war=$root/server/target/albumstore.war
consumer=$root/consumer/target/albumstore-consumer.jar
client=$root/client/target/client.jar
for f in "$war" "$consumer" "$client"; do
  [[ -f $f ]] || die "missing $f: run 'mvn -B package -DskipTests' in $root first"
done

tomcat=$root/target/deploy/tomcat-$tomcat_version.tar.gz
if [[ ! -f $tomcat ]]; then
  echo "Fetching Apache Tomcat $tomcat_version from Maven Central"
  mvn -B -q dependency:copy -Dartifact="org.apache.tomcat:tomcat:$tomcat_version:tar.gz" \
    -DoutputDirectory="$root/target/deploy"
fi

if ! aws s3api head-bucket --bucket "$bucket" 2>/dev/null; then
  echo "Creating bucket s3://$bucket"
  aws s3 mb "s3://$bucket"
fi

dest=s3://$bucket/$prefix
put() { # LOCAL KEY
  aws s3 cp --only-show-errors "$1" "$dest/$2"
  echo "  $dest/$2"
}
echo "Uploading to $dest/"
put "$war" albumstore.war
put "$consumer" albumstore-consumer.jar
put "$client" client.jar
put "$tomcat" tomcat.tar.gz
put "$root/schema.sql" schema.sql
for f in install.sh setenv.sh server.xml tomcat.service; do
  put "$root/deploy/tomcat/$f" "deploy/tomcat/$f"
done
for f in bootstrap.sh albumstore-consumer.service albumstore-scaling.sh albumstore-drain@.service \
  albumstore-backlog.service albumstore-backlog.timer; do
  put "$root/deploy/aws/$f" "deploy/aws/$f"
done
echo "Done. Next: deploy/aws/deploy-stack.sh --stack NAME --bucket $bucket --prefix $prefix"

#!/usr/bin/env bash
# Fetches async-profiler (Maven Central tools.profiler:async-profiler, which carries the native
# agent) into bench/target/async-profiler once, and prints the -agentpath flag that profiles a JVM
# from its start in CPU-time mode (itimer: works where perf events are not allowed) into collapsed
# stacks, which bench/collapsed-top.py summarises.
#
#   bench/async-profiler.sh OUTPUT.collapsed        -> prints -agentpath:...=start,...,file=OUTPUT
# e.g. SERVER_EXTRA_JAVA_OPTS="$(bench/async-profiler.sh /tmp/server.collapsed)" bench/workload.sh 256 1 100
#      CLIENT_JAVA_OPTS="-Xmx512m $(bench/async-profiler.sh /tmp/client.collapsed)" bench/client-cost.sh 1
set -euo pipefail
# lib.sh answers --help (this header) and exits before it creates anything; otherwise not needed.
[[ "${1:-}" != --help && "${1:-}" != -h ]] || source "$(dirname "$0")/lib.sh"
VERSION="${ASYNC_PROFILER_VERSION:-4.1}"
DIR="$(cd "$(dirname "$0")" && pwd)/target/async-profiler"
OUT="${1:?usage: bench/async-profiler.sh OUTPUT.collapsed}"
LIB="$DIR/$VERSION/linux-x64/libasyncProfiler.so"
if [[ ! -f "$LIB" ]]; then
  mkdir -p "$DIR/$VERSION"
  # dependency:get needs no project (run from the bench folder's target, not the reactor).
  (cd "$DIR" && mvn -B -q dependency:get -Dtransitive=false \
    -Dartifact="tools.profiler:async-profiler:$VERSION" >&2)
  JAR="${MAVEN_REPO:-$HOME/.m2/repository}/tools/profiler/async-profiler/$VERSION/async-profiler-$VERSION.jar"
  (cd "$DIR/$VERSION" && unzip -q -o "$JAR" 'linux-x64/*')
fi
echo "-agentpath:$LIB=start,event=itimer,interval=1ms,file=$OUT,collapsed"

#!/usr/bin/env bash
# Album Store: installs a stock Apache Tomcat 11.0 / 10.1 / 9.0 distribution with this project's
# configuration and the WAR built for it (albumstore.war for 10.1 and 11, jakarta.servlet;
# albumstore-javax.war for 9.0, javax.servlet), and optionally starts it and waits until
# /albumstore/health answers. Safe to run again on the same target: a running Tomcat there is stopped
# first, and the distribution, configuration and WAR are laid out anew (logs/ is kept).
#
#   install.sh --tomcat apache-tomcat-11.0.24.tar.gz --war server/target --target /opt/tomcat \
#              [--port 8080] [--address 0.0.0.0] [--env-file albumstore.env] \
#              [--start | --systemd [--user tomcat]] [--wait 180]
#
# Stop a Tomcat started with --start:   TARGET/bin/catalina.sh stop 30 -force
# (server.xml has no shutdown port; setenv.sh points CATALINA_PID at TARGET/temp/catalina.pid, so
# catalina.sh stops it with SIGTERM and kills it only if it is still there after 30 s.)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
marker=.albumstore-install

usage() {
  cat <<'EOF'
Usage: install.sh --tomcat TARBALL --war WAR --target DIR [options]

Required:
  --tomcat FILE     Apache Tomcat 11.0, 10.1 or 9.0 distribution (apache-tomcat-*.tar.gz, or Maven
                    Central's org.apache.tomcat:tomcat:<version>:tar.gz)
  --war FILE|DIR    the WAR, deployed as webapps/albumstore.war (context /albumstore). A directory
                    (e.g. server/target) holds both builds; the one for the Tomcat is taken from it:
                    albumstore.war for 10.1 and 11 (jakarta.servlet), albumstore-javax.war for 9.0
                    (javax.servlet). A file must be the build for the Tomcat, or install.sh refuses it
                    (checked with unzip where installed).
  --target DIR      installation directory (CATALINA_HOME = CATALINA_BASE); created if missing.
                    An existing non-empty directory must be one this script installed.
Options:
  --port N          HTTP port written into conf/server.xml (default: 8080). ALBUMSTORE_HTTP_PORT
                    in the environment or env file still overrides it at start.
  --address ADDR    address the connector binds (default: 0.0.0.0; tests use 127.0.0.1)
  --env-file FILE   copied to conf/albumstore.env (mode 600): ALBUMSTORE_* and TOMCAT_* settings,
                    read by bin/setenv.sh (default: none; /etc/albumstore/albumstore.env is read too)
  --start           start Tomcat (catalina.sh start) and wait for /albumstore/health
  --systemd         install and enable tomcat.service, (re)start it and wait for health (root only)
  --user NAME       owner of the installation and user of the service (default with --systemd:
                    tomcat, created as a system user if missing; otherwise: unchanged)
  --wait SECONDS    how long to wait for health before failing (default: 180)
  -h, --help        this text
EOF
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

tarball="" war="" target="" port="" address="" env_file="" start=false systemd=false user=""
wait_seconds=180
while [[ $# -gt 0 ]]; do
  case $1 in
    --tomcat) tarball=${2:?--tomcat needs a file}; shift 2 ;;
    --war) war=${2:?--war needs a file}; shift 2 ;;
    --target) target=${2:?--target needs a directory}; shift 2 ;;
    --port) port=${2:?--port needs a number}; shift 2 ;;
    --address) address=${2:?--address needs an address}; shift 2 ;;
    --env-file) env_file=${2:?--env-file needs a file}; shift 2 ;;
    --start) start=true; shift ;;
    --systemd) systemd=true; shift ;;
    --user) user=${2:?--user needs a name}; shift 2 ;;
    --wait) wait_seconds=${2:?--wait needs seconds}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

[[ -n $tarball && -n $war && -n $target ]] || { usage >&2; die "--tomcat, --war and --target are required"; }
[[ -f $tarball ]] || die "no Tomcat distribution at $tarball"
[[ -f $war || -d $war ]] || die "no WAR or directory at $war"
[[ -z $env_file || -f $env_file ]] || die "no env file at $env_file"
[[ -z $port || ($port =~ ^[0-9]{1,5}$ && $port -le 65535) ]] || die "--port must be a port number, not '$port'"
[[ $address =~ ^[0-9A-Za-z.:_-]*$ ]] || die "--address '$address' is not an address"
[[ $wait_seconds =~ ^[0-9]+$ ]] || die "--wait must be a number of seconds"
if $start && $systemd; then die "choose --start or --systemd, not both"; fi
if $systemd; then
  [[ $(id -u) -eq 0 ]] || die "--systemd needs root"
  user=${user:-tomcat}
fi
tar -tzf "$tarball" --wildcards '*/bin/catalina.sh' >/dev/null 2>&1 || die "$tarball is not a Tomcat distribution"

# --- which WAR for which Tomcat ------------------------------------------------------------------
# Tomcat 9 implements the Servlet API as javax.servlet, Tomcat 10.1 and 11 as jakarta.servlet: each
# needs the application built for its namespace (server/README.md). The version comes from the
# distribution's RELEASE-NOTES, so it is known before anything is stopped or replaced.
tomcat_version=$(tar -xzOf "$tarball" --wildcards '*/RELEASE-NOTES' 2>/dev/null \
  | sed -n '/Apache Tomcat Version [0-9]/{s/.*Apache Tomcat Version \([0-9][0-9.]*\).*/\1/p;q;}' || true)
case ${tomcat_version%%.*} in
  9) servlet_api=javax war_name=albumstore-javax.war ;;
  10 | 11) servlet_api=jakarta war_name=albumstore.war ;;
  "") die "cannot tell the Tomcat version of $tarball (no RELEASE-NOTES in it)" ;;
  *) die "Tomcat $tomcat_version is not supported (9.0, 10.1 and 11.0 are)" ;;
esac
if [[ -d $war ]]; then
  [[ -f $war/$war_name ]] || die "no $war_name in $war: Tomcat $tomcat_version needs the $servlet_api.servlet build"
  war=$war/$war_name
fi
# The namespace web.xml declares says which build a WAR is: Java EE (xmlns.jcp.org) for javax,
# Jakarta EE (jakarta.ee) for jakarta.
if command -v unzip >/dev/null; then
  descriptor=$(unzip -p "$war" WEB-INF/web.xml 2>/dev/null || true)
  case $descriptor in
    *xmlns.jcp.org/xml/ns/javaee*) war_api=javax ;;
    *jakarta.ee/xml/ns/jakartaee*) war_api=jakarta ;;
    *) die "$war has no Java EE or Jakarta EE WEB-INF/web.xml: not an Album Store WAR" ;;
  esac
  if [[ $war_api != "$servlet_api" ]]; then
    die "$war is the $war_api.servlet build; Tomcat $tomcat_version needs the $servlet_api.servlet one, $war_name"
  fi
else
  echo "install.sh: no unzip on this machine: not checking that $war is the $servlet_api.servlet build"
fi
echo "install.sh: Tomcat $tomcat_version implements $servlet_api.servlet: installing $war"

# Absolute paths: the systemd unit and the marker file name them.
tarball=$(realpath "$tarball")
war=$(realpath "$war")
[[ -z $env_file ]] || env_file=$(realpath "$env_file")
mkdir -p "$target"
target=$(realpath "$target")

if [[ -n $(ls -A "$target") && ! -f $target/$marker ]]; then
  die "$target is not empty and was not installed by this script; refusing to overwrite it"
fi

# --- stop what runs there now -------------------------------------------------------------------
if $systemd && systemctl is-active --quiet tomcat.service; then
  echo "install.sh: stopping tomcat.service"
  systemctl stop tomcat.service
fi
pid_file=$target/temp/catalina.pid
if [[ -f $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
  echo "install.sh: stopping the Tomcat running from $target (pid $(cat "$pid_file"))"
  CATALINA_HOME=$target CATALINA_BASE=$target "$target/bin/catalina.sh" stop 60 -force >/dev/null
fi

# --- lay out the distribution -------------------------------------------------------------------
# Everything but logs/ is replaced, so no jar of an earlier Tomcat version survives next to the new.
for dir in bin conf lib temp webapps work; do
  rm -rf "${target:?}/$dir"
done
tar -xzf "$tarball" -C "$target" --strip-components=1 --no-same-owner
version=$("$target/bin/version.sh" 2>/dev/null | sed -n 's/^Server number: *//p' || true)
echo "install.sh: Apache Tomcat ${version:-?} laid out in $target"

# --- configuration ------------------------------------------------------------------------------
# server.xml keeps its ${property:-default} form; only the defaults of port and address change.
sed -e "s/\${albumstore\.http\.port:-8080}/\${albumstore.http.port:-${port:-8080}}/" \
    -e "s/\${albumstore\.http\.address:-0\.0\.0\.0}/\${albumstore.http.address:-${address:-0.0.0.0}}/" \
    "$here/server.xml" > "$target/conf/server.xml"
install -m 0755 "$here/setenv.sh" "$target/bin/setenv.sh"
if [[ -n $env_file ]]; then
  install -m 0600 "$env_file" "$target/conf/albumstore.env"
fi

# --- the application: the only web application -------------------------------------------------
# No ROOT, docs, examples, manager or host-manager: nothing else to patch or to expose.
rm -rf "${target:?}"/webapps/*
install -m 0644 "$war" "$target/webapps/albumstore.war"

printf 'tomcat=%s\nwar=%s\ninstalled=%s\n' "${version:-unknown}" "$war" "$(date -u +%FT%TZ)" \
  > "$target/$marker"

if [[ -n $user ]]; then
  if ! id -u "$user" >/dev/null 2>&1; then
    useradd --system --home-dir "$target" --no-create-home --shell /sbin/nologin "$user"
  fi
  chown -R "$user:$(id -gn "$user")" "$target"
fi

# --- start and wait ------------------------------------------------------------------------------
# The port and address Tomcat will use, by setenv.sh's precedence: environment, env files, server.xml.
setting() { # NAME DEFAULT
  local value=${!1:-} file files=("$target/conf/albumstore.env" /etc/albumstore/albumstore.env)
  [[ -z ${ALBUMSTORE_ENV_FILE:-} ]] || files=("$ALBUMSTORE_ENV_FILE")
  for file in "${files[@]}"; do
    if [[ -z $value && -r $file ]]; then
      value=$(sed -n "s/^[[:space:]]*\(export \)\{0,1\}$1=[\"']\{0,1\}\([^\"']*\)[\"']\{0,1\}[[:space:]]*$/\2/p" "$file" | tail -n 1)
    fi
  done
  echo "${value:-$2}"
}

show_logs() {
  local log app_logs
  # localhost.<date>.log has the application's start-up exception; dates sort, so take the last.
  app_logs=("$target"/logs/localhost.*.log)
  echo "install.sh: last log lines:" >&2
  for log in "$target/logs/catalina.out" "${app_logs[-1]}"; do
    if [[ -s $log ]]; then
      echo "== $log" >&2
      tail -n 40 "$log" >&2
    fi
  done
  if $systemd; then journalctl -u tomcat.service -n 40 --no-pager >&2 || true; fi
}

# Tomcat opens its connector only after deploying the WAR, so: no answer = still starting; 404 =
# the application failed to deploy (fail at once); 200 = up; 503 and others = up but not ready
# (e.g. broker or database not reachable yet), so keep waiting until the deadline.
wait_for_health() {
  local http_port host url deadline code
  http_port=$(setting ALBUMSTORE_HTTP_PORT "${port:-8080}")
  host=$(setting TOMCAT_ADDRESS "${address:-0.0.0.0}")
  [[ $host != 0.0.0.0 && $host != "::" ]] || host=127.0.0.1
  [[ $host != *:* ]] || host="[$host]"
  url="http://$host:$http_port/albumstore/health"
  deadline=$((SECONDS + wait_seconds))
  echo "install.sh: waiting up to ${wait_seconds}s for $url"
  while true; do
    code=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' "$url" 2>/dev/null || true)
    case $code in
      200) break ;;
      404) echo "install.sh: Tomcat runs but /albumstore did not deploy" >&2; show_logs; return 1 ;;
    esac
    if ! tomcat_alive; then
      echo "install.sh: Tomcat is no longer running" >&2; show_logs; return 1
    fi
    if ((SECONDS >= deadline)); then
      echo "install.sh: $url did not answer 200 within ${wait_seconds}s (last status: ${code:-none})" >&2
      show_logs
      return 1
    fi
    sleep 2
  done
  echo "install.sh: Album Store is up at ${url%/health}"
}

tomcat_alive() {
  if $systemd; then
    if systemctl is-failed --quiet tomcat.service; then return 1; fi
  else
    [[ -f $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null
  fi
}

if $systemd; then
  sed -e "s|@CATALINA_HOME@|$target|g" -e "s|@TOMCAT_USER@|$user|g" "$here/tomcat.service" \
    > /etc/systemd/system/tomcat.service
  systemctl daemon-reload
  systemctl enable tomcat.service
  systemctl restart tomcat.service
  wait_for_health
elif $start; then
  command -v java >/dev/null || [[ -n ${JAVA_HOME:-} ]] || die "no java on PATH and no JAVA_HOME"
  if [[ -n $user && $(id -un) != "$user" ]]; then
    runuser -u "$user" -- env CATALINA_HOME="$target" CATALINA_BASE="$target" "$target/bin/catalina.sh" start
  else
    CATALINA_HOME=$target CATALINA_BASE=$target "$target/bin/catalina.sh" start
  fi
  wait_for_health
fi

# shellcheck shell=sh
# Album Store: bin/setenv.sh for Apache Tomcat 11.0 / 10.1 / 9.0. catalina.sh sources this file (with
# /bin/sh) before every start, run and stop, so it must stay POSIX sh and must not exit.
#
# It holds no settings of its own: every value comes from an env file of NAME=value lines,
#   1. the file named by ALBUMSTORE_ENV_FILE, if that variable is set (and then only that file), else
#   2. $CATALINA_BASE/conf/albumstore.env, then /etc/albumstore/albumstore.env.
# A variable already set (in the environment, or by an earlier file) is never overwritten, so
# `ALBUMSTORE_QUEUE=x bin/catalina.sh run` beats the file. Only names starting with ALBUMSTORE_ or
# TOMCAT_, and JAVA_HOME, are taken from the file; the lines are parsed, never executed, so a file
# with secrets (ALBUMSTORE_DB_PASSWORD, the broker password in ALBUMSTORE_AMQP_URI) can be mode 600
# and owned by the Tomcat user without being a script.
#
# The application reads the ALBUMSTORE_* variables itself (see the project README for the list and
# defaults). This file reads only the TOMCAT_* ones below, and ALBUMSTORE_HTTP_PORT:
#   TOMCAT_HEAP             heap size for -Xms and -Xmx, e.g. 1g (unset: a share of RAM, below)
#   TOMCAT_HEAP_PERCENT     heap as % of the machine's (or container's) memory when TOMCAT_HEAP is
#                           unset; default 50 (leaves room for threads, metaspace, direct buffers)
#   TOMCAT_GC_OPTS          GC flags; default G1 with a 100 ms pause goal
#   TOMCAT_JVM_OPTS         any further JVM flags, appended last
#   ALBUMSTORE_HTTP_PORT    connector port (default: the one install.sh wrote, 8080 unless told)
#   TOMCAT_ADDRESS          address the connector binds (default 0.0.0.0)
#   TOMCAT_MAX_THREADS      request threads (default 32)
#   TOMCAT_MIN_SPARE_THREADS  warm threads (default 32)
#   TOMCAT_MAX_CONNECTIONS  open connections (default 10000)
#   TOMCAT_ACCEPT_COUNT     listen backlog (default 1024)
#   TOMCAT_KEEPALIVE_TIMEOUT_MS   idle keep-alive timeout (default 75000, above the ALB's 60 s)
#   TOMCAT_CONNECTION_TIMEOUT_MS  request read timeout (default 20000)
#   TOMCAT_MAX_POST_SIZE    form/multipart parameter bytes (default 16777216, above the 10 MiB image limit)
#   TOMCAT_ACCESS_LOG       true to write logs/access_log.*.txt (default false)
# The defaults of the connector settings live in conf/server.xml; they are only overridden here.

# Reads one env file; sets each allowed NAME=value that is not set yet. Names are checked to be
# plain identifiers before eval sees them, so eval never runs anything from the file.
albumstore_read_env_file() {
  [ -r "$1" ] || return 0
  while IFS= read -r albumstore_line || [ -n "$albumstore_line" ]; do
    # Tolerate "export NAME=value", leading blanks, blank lines and # comments.
    albumstore_line=${albumstore_line#"${albumstore_line%%[![:space:]]*}"}
    albumstore_line=${albumstore_line#export }
    case $albumstore_line in
      '' | '#'*) continue ;;
      *=*) ;;
      *) continue ;;
    esac
    albumstore_name=${albumstore_line%%=*}
    albumstore_value=${albumstore_line#*=}
    case $albumstore_name in
      *[!A-Za-z0-9_]* | '') continue ;;
      ALBUMSTORE_* | TOMCAT_* | JAVA_HOME) ;;
      *) continue ;;
    esac
    # Strip one pair of matching surrounding quotes, as systemd's EnvironmentFile does.
    case $albumstore_value in
      \"*\") albumstore_value=${albumstore_value#\"}; albumstore_value=${albumstore_value%\"} ;;
      \'*\') albumstore_value=${albumstore_value#\'}; albumstore_value=${albumstore_value%\'} ;;
    esac
    eval "albumstore_isset=\${$albumstore_name+set}"
    if [ -z "$albumstore_isset" ]; then
      export "$albumstore_name=$albumstore_value"
    fi
  done < "$1"
}

if [ -n "${ALBUMSTORE_ENV_FILE:-}" ]; then
  albumstore_read_env_file "$ALBUMSTORE_ENV_FILE"
else
  albumstore_read_env_file "${CATALINA_BASE:-.}/conf/albumstore.env"
  albumstore_read_env_file /etc/albumstore/albumstore.env
fi
unset albumstore_line albumstore_name albumstore_value albumstore_isset
unset -f albumstore_read_env_file

# catalina.sh start writes the PID here and catalina.sh stop signals it: server.xml has no shutdown
# port, so stop falls back to SIGTERM through this file (systemd uses "run" and signals directly).
if [ -z "${CATALINA_PID:-}" ]; then
  CATALINA_PID="${CATALINA_BASE:-.}/temp/catalina.pid"
fi

# Heap: fixed (-Xms = -Xmx, so the heap never resizes under load) or a share of RAM.
if [ -n "${TOMCAT_HEAP:-}" ]; then
  albumstore_heap="-Xms${TOMCAT_HEAP} -Xmx${TOMCAT_HEAP}"
else
  albumstore_heap="-XX:InitialRAMPercentage=${TOMCAT_HEAP_PERCENT:-50} -XX:MaxRAMPercentage=${TOMCAT_HEAP_PERCENT:-50}"
fi

# G1 balances throughput and pause times for a heap of short-lived request garbage. A JVM that ran
# out of memory is in an unknown state: exit, and let systemd (Restart=on-failure) start it again.
# GC log to a rotating file: the first place to look when latency percentiles jump.
albumstore_opts="$albumstore_heap ${TOMCAT_GC_OPTS:--XX:+UseG1GC -XX:MaxGCPauseMillis=100}"
albumstore_opts="$albumstore_opts -XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8"
albumstore_opts="$albumstore_opts -Xlog:gc*:file=${CATALINA_BASE:-.}/logs/gc.log:time,uptime,level,tags:filecount=5,filesize=20m"

# Connector settings: passed only when set, so server.xml's defaults apply otherwise.
albumstore_prop() { # $1 = system property, $2 = value (maybe empty)
  if [ -n "$2" ]; then
    albumstore_opts="$albumstore_opts -D$1=$2"
  fi
}
albumstore_prop albumstore.http.port "${ALBUMSTORE_HTTP_PORT:-}"
albumstore_prop albumstore.http.address "${TOMCAT_ADDRESS:-}"
albumstore_prop albumstore.http.maxThreads "${TOMCAT_MAX_THREADS:-}"
albumstore_prop albumstore.http.minSpareThreads "${TOMCAT_MIN_SPARE_THREADS:-}"
albumstore_prop albumstore.http.maxConnections "${TOMCAT_MAX_CONNECTIONS:-}"
albumstore_prop albumstore.http.acceptCount "${TOMCAT_ACCEPT_COUNT:-}"
albumstore_prop albumstore.http.keepAliveTimeout "${TOMCAT_KEEPALIVE_TIMEOUT_MS:-}"
albumstore_prop albumstore.http.connectionTimeout "${TOMCAT_CONNECTION_TIMEOUT_MS:-}"
albumstore_prop albumstore.http.maxPostSize "${TOMCAT_MAX_POST_SIZE:-}"
albumstore_prop albumstore.accessLog "${TOMCAT_ACCESS_LOG:-}"
unset -f albumstore_prop

# CATALINA_OPTS (not JAVA_OPTS): used by start/run only, so "catalina.sh stop" starts no big heap.
CATALINA_OPTS="${CATALINA_OPTS:-} $albumstore_opts ${TOMCAT_JVM_OPTS:-}"
unset albumstore_heap albumstore_opts

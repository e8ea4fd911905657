#!/usr/bin/env bash
# Today's engines beside the installed ones: RabbitMQ 4.0 and PostgreSQL 17 from a Debian 13
# (trixie) root, run with chroot on this machine's loopback.
#
#   embedded/engines.sh ensure     make the root and the wrappers if missing (idempotent); print
#                                  the folder that ALBUMSTORE_ENGINES names
#   embedded/engines.sh check      exit 0 when the root and wrappers are there, else 1
#   embedded/engines.sh --help
#
# Where: $ALBUMSTORE_ENGINES, default ${XDG_CACHE_HOME:-$HOME/.cache}/albumstore/engines, outside
# any clone, so later runs on the machine reuse it. Inside:
#   trixie/                     the root (debootstrap --variant=minbase), about 450 MB
#   rabbitmq-4.0/sbin/NAME      rabbitmq-server, rabbitmqctl, ... (RabbitNode: RABBITMQ_HOME)
#   postgresql-17/bin/NAME      initdb, pg_ctl, postgres, ... (ReplicatedPostgres)
#   enter                       what each wrapper runs
#
# Each wrapper runs its program in a mount namespace of its own (unshare): /proc and /dev mounted,
# and the host folders its arguments, environment and working directory name (the clone, the
# temporary folders) bound at the same paths. Nothing is mounted on the host, so there is nothing
# to unmount, and two runs never share a mount. The mirror is the Debian mirror the host's apt
# sources name. Needs root, debootstrap and unshare (Linux); the tests that need the root skip on
# a machine without it, and fail with CI=true (ExternalTools).
set -euo pipefail

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; }

engines_dir() { echo "${ALBUMSTORE_ENGINES:-${XDG_CACHE_HOME:-$HOME/.cache}/albumstore/engines}"; }

RABBIT_TOOLS=(rabbitmq-server rabbitmqctl rabbitmq-plugins rabbitmq-diagnostics rabbitmq-queues
  rabbitmq-upgrade rabbitmq-env rabbitmq-defaults)
PG_TOOLS=(initdb pg_ctl postgres pg_basebackup psql pg_isready pg_controldata pg_rewind)
PG_MAJOR=17

# The Debian archive the host's apt sources name (deb822 or one-line form), never the security one.
mirror() {
  local m
  m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' |
    tr ' ' '\n' | grep -v -- '-security' | head -n 1 || true)
  if [[ -z $m ]]; then
    m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' |
      grep -v -- '-security' | head -n 1 || true)
  fi
  [[ -n $m ]] || { echo "engines: no Debian mirror in the host's apt sources" >&2; return 1; }
  echo "$m"
}

complete() {
  local dir=$1 t
  [[ -f $dir/trixie/.albumstore-complete && -x $dir/enter ]] || return 1
  for t in "${RABBIT_TOOLS[@]}"; do [[ -x $dir/rabbitmq-4.0/sbin/$t ]] || return 1; done
  for t in "${PG_TOOLS[@]}"; do [[ -x $dir/postgresql-$PG_MAJOR/bin/$t ]] || return 1; done
}

# Runs a command inside the root while it is being made (proc mounted in a private namespace).
in_root() {
  local root=$1
  shift
  # shellcheck disable=SC2016 # expanded by the inner shell, inside the namespace
  unshare --mount --propagation private -- /bin/sh -c \
    'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$root" "$@"
}

make_root() {
  local root=$1 partial=$1.partial
  rm -rf "$partial"
  mkdir -p "$partial"
  echo "engines: debootstrap trixie into $partial (a few minutes)" >&2
  debootstrap --variant=minbase --include=ca-certificates trixie "$partial" \
    "$(mirror)" >"$partial.log" 2>&1 || {
    tail -n 20 "$partial.log" >&2
    return 1
  }
  grep -qs '^127.0.0.1[[:space:]].*localhost' "$partial/etc/hosts" ||
    printf '127.0.0.1 localhost\n::1 localhost\n' >>"$partial/etc/hosts"
  # The PostgreSQL user gets the host's IDs, so that data folders made on the host are theirs;
  # made before the packages, which take the next free IDs for their own users.
  if id -u postgres >/dev/null 2>&1; then
    in_root "$partial" groupadd -g "$(id -g postgres)" postgres
    in_root "$partial" useradd -u "$(id -u postgres)" -g "$(id -g postgres)" \
      -d /var/lib/postgresql -s /bin/sh postgres
  fi
  mkdir -p "$partial/etc/postgresql-common"
  echo "create_main_cluster = false" >"$partial/etc/postgresql-common/createcluster.conf"
  printf '#!/bin/sh\nexit 101\n' >"$partial/usr/sbin/policy-rc.d"
  chmod +x "$partial/usr/sbin/policy-rc.d"
  in_root "$partial" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends rabbitmq-server "postgresql-$PG_MAJOR" >>"$partial.log" 2>&1 || {
    tail -n 20 "$partial.log" >&2
    return 1
  }
  in_root "$partial" apt-get clean
  touch "$partial/.albumstore-complete"
  rm -rf "$root"
  mv "$partial" "$root"
  rm -f "$partial.log"
}

write_enter() {
  local file=$1
  cat >"$file.tmp" <<'EOF'
#!/bin/sh
# enter ROOT USER PROGRAM [ARG...]: runs PROGRAM inside ROOT as USER (a name known in the root, or
# "-" for the caller), in a mount namespace of its own: /proc and /dev mounted, and each host
# folder that an argument, the environment or the working directory names bound at its own path.
# Written by embedded/engines.sh.
set -eu
root=$1
user=$2
shift 2
[ "$(id -u)" = 0 ] || { echo "engines: $3 runs as root (it switches users itself)" >&2; exit 126; }
tops=$( { printf '%s\n' "$PWD" "${HOME:-/}" "${TMPDIR:-/tmp}" "$@"; env; } |
  tr ':= ' '\n\n\n' | sed -n 's|^\(/[^/][^/]*\).*|\1|p' | sort -u)
exec unshare --mount --propagation private -- /bin/sh -c '
  root=$1 user=$2 tops=$3
  shift 3
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  for top in $tops; do
    case $top in
    /proc | /sys | /dev | /usr | /etc | /bin | /sbin | /lib | /lib32 | /lib64 | /libx32 | /var | /run | /boot) continue ;;
    esac
    [ -d "$top" ] || continue
    mkdir -p "$root$top"
    mount --bind "$top" "$root$top"
  done
  cd "$root"
  if [ "$user" = - ]; then
    exec chroot "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$PWD" "$@"
  fi
  exec chroot --userspec="$user:$user" "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$PWD" "$@"
' enter "$root" "$user" "$tops" "$@"
EOF
  chmod +x "$file.tmp"
  mv "$file.tmp" "$file"
}

write_wrapper() { # file enter root user program
  cat >"$1.tmp" <<EOF
#!/bin/sh
# Written by embedded/engines.sh: $5 of the Debian 13 root.
exec "$2" "$3" "$4" "$5" "\$@"
EOF
  chmod +x "$1.tmp"
  mv "$1.tmp" "$1"
}

ensure() {
  local dir root t
  dir=$(engines_dir)
  if complete "$dir"; then
    echo "$dir"
    return 0
  fi
  [[ $(id -u) == 0 ]] || { echo "engines: making the root needs root" >&2; return 1; }
  for t in debootstrap unshare chroot; do
    command -v "$t" >/dev/null || { echo "engines: $t is not installed" >&2; return 1; }
  done
  mkdir -p "$dir"
  exec 9>"$dir/.lock"
  flock 9
  root=$dir/trixie
  [[ -f $root/.albumstore-complete ]] || make_root "$root"
  write_enter "$dir/enter"
  mkdir -p "$dir/rabbitmq-4.0/sbin" "$dir/postgresql-$PG_MAJOR/bin"
  for t in "${RABBIT_TOOLS[@]}"; do
    write_wrapper "$dir/rabbitmq-4.0/sbin/$t" "$dir/enter" "$root" - "/usr/lib/rabbitmq/bin/$t"
  done
  for t in "${PG_TOOLS[@]}"; do
    write_wrapper "$dir/postgresql-$PG_MAJOR/bin/$t" "$dir/enter" "$root" postgres \
      "/usr/lib/postgresql/$PG_MAJOR/bin/$t"
  done
  echo "$dir"
}

case ${1:-} in
ensure) ensure ;;
check) complete "$(engines_dir)" ;;
-h | --help | help) usage ;;
*)
  usage >&2
  exit 2
  ;;
esac

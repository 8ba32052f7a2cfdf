#!/usr/bin/env bash
# A private PostgreSQL for the ledger tests and benchmarks: its own data directory under a temporary folder,
# listening on 127.0.0.1 only, trust authentication for the local test role.
#
#   .ci/postgres.sh start   # installs Debian's postgresql if missing, starts it, prints the URL on stdout
#   .ci/postgres.sh stop    # stops it and removes the data directory
#
# RECEIPTKIT_PG_DIR (default /tmp/receiptkit-pg) and RECEIPTKIT_PG_PORT (default 54329) move it.
set -euo pipefail
dir="${RECEIPTKIT_PG_DIR:-/tmp/receiptkit-pg}"
port="${RECEIPTKIT_PG_PORT:-54329}"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

as_owner() {
  # initdb and postgres refuse to run as root: use Debian's postgres account then.
  if [ "$(id -u)" -eq 0 ]; then
    su postgres -s /bin/bash -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

case "${1:-}" in
  start)
    bin="$(find_bin)"
    if [ -z "$bin" ]; then
      echo "postgres.sh: installing Debian's postgresql" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >&2 && apt-get install -y -qq postgresql >/dev/null
      bin="$(find_bin)"
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U receiptkit --auth=trust -E UTF8 --locale=C >"$dir/initdb.log"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=800" start >&2
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U receiptkit receiptkit
    echo "postgres://receiptkit@127.0.0.1:$port/receiptkit?sslmode=disable"
    ;;
  stop)
    bin="$(find_bin)"
    # What the server refused or failed is otherwise lost with its directory: a count and the last lines.
    if [ -f "$dir/server.log" ]; then
      fatal="$(grep -c 'FATAL' "$dir/server.log" || true)"
      echo "postgres.sh: the server logged ${fatal:-0} FATAL lines" >&2
      grep 'FATAL' "$dir/server.log" | grep -v 'terminating connection due to administrator command' | tail -n 10 >&2 || true
    fi
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 64
    ;;
esac

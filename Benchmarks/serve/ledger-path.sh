#!/usr/bin/env bash
# What the ledger costs a verifyReceipt request, in one run (issue 34, part 4): wrk on 127.0.0.1 against one
# `receiptkit serve`, posting
#   1. `{}` to /verifyReceipt                       — HTTP and JSON only (21002);
#   2. a production receipt to /sandbox/verifyReceipt — full validation, no ledger (21008);
#   3. the same receipt to /verifyReceipt on SQLite   — validation and the ledger (status 0);
#   4. the same on PostgreSQL (when RECEIPTKIT_TEST_POSTGRES_URL is set or .ci/postgres.sh can start one).
# It prints requests/s, p50 and p99 for each, and the ratios the issue states targets for:
# SQLite / no ledger (>= 0.8) and PostgreSQL / SQLite (>= 0.6).
#
#   Benchmarks/serve/ledger-path.sh [RECEIPTKIT_BINARY] [SECONDS] [CONNECTIONS]
#
# The receipt is the production fixture when ../shared is present, else the repository's minted sample (whose
# environment decides which path is "the other one").
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
connections="${3:-64}"
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

server=""
started_pg=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  [ -n "$started_pg" ] && RECEIPTKIT_PG_DIR=/tmp/receiptkit-pg-ledger-path .ci/postgres.sh stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

receipt=Examples/sample.receipt
anchors=(--anchor Examples/TestRoot.cer)
[ -f ../shared/fixtures/receipts/receipt-production.der ] && receipt=../shared/fixtures/receipts/receipt-production.der
type=$("$bin" inspect --json "$receipt" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("receipt_type","Production"))')
own=/verifyReceipt; other=/sandbox/verifyReceipt
[ "$type" != "Production" ] && { own=/sandbox/verifyReceipt; other=/verifyReceipt; }

printf '{"receipt-data":"%s"}' "$(base64 -w0 "$receipt")" >"$work/receipt.json"
printf '{}' >"$work/empty.json"
for name in receipt empty; do
  cat >"$work/$name.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$work/$name.json", "rb"); wrk.body = f:read("*a"); f:close()
LUA
done

start_server() {
  port=$((20000 + RANDOM % 20000))
  "$bin" serve --host 127.0.0.1 --port "$port" --database "$1" "${anchors[@]}" --log-level warning 2>"$work/serve.log" &
  server=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return; sleep 0.1; done
  echo "ledger-path.sh: the service did not start:"; cat "$work/serve.log"; exit 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

# measure NAME BODY PATH EXPECTED-STATUS: checks one answer, warms up, then prints and records requests/s.
measure() {
  local status
  status=$(curl -s -X POST --data-binary @"$work/$2.json" "http://127.0.0.1:$port$3" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  [ "$status" = "$4" ] || { echo "ledger-path.sh: $1 answered status $status, not $4"; exit 1; }
  wrk -t2 -c"$connections" -d3s -s "$work/$2.lua" "http://127.0.0.1:$port$3" >/dev/null
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/$2.lua" "http://127.0.0.1:$port$3" >"$work/wrk.txt"
  local rps p50 p99 non2xx
  rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
  p50=$(awk '$1=="50%" {print $2}' "$work/wrk.txt")
  p99=$(awk '$1=="99%" {print $2}' "$work/wrk.txt")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$work/wrk.txt")
  printf '%-34s %10s %9s %9s %8s\n' "$1" "$rps" "$p50" "$p99" "${non2xx:-0}"
  echo "$rps" >"$work/rate.$1"
}

echo "== $(basename "$receipt") ($type), $connections connections, ${seconds}s per run"
printf '%-34s %10s %9s %9s %8s\n' path "req/s" p50 p99 non-2xx
start_server "sqlite:$work/ledger.sqlite"
measure empty empty /verifyReceipt 21002
measure no-ledger receipt "$other" "$([ "$type" = Production ] && echo 21008 || echo 21007)"
measure sqlite receipt "$own" 0
stop_server

pg_url="${RECEIPTKIT_TEST_POSTGRES_URL:-}"
if [ -z "$pg_url" ]; then
  pg_url="$(RECEIPTKIT_PG_PORT=54331 RECEIPTKIT_PG_DIR=/tmp/receiptkit-pg-ledger-path .ci/postgres.sh start 2>/dev/null)" \
    && started_pg=1 || pg_url=""
fi
if [ -n "$pg_url" ]; then
  start_server "$pg_url"
  measure postgres receipt "$own" 0
  stop_server
else
  echo "(PostgreSQL: not available, skipped)"
fi

rate() { cat "$work/rate.$1" 2>/dev/null || echo 0; }
python3 - "$(rate no-ledger)" "$(rate sqlite)" "$(rate postgres)" <<'PY'
import sys
none, sqlite, postgres = (float(x) for x in sys.argv[1:])
print(f"SQLite / no ledger   {sqlite / none:.2f}  (target >= 0.8)" if none else "")
if postgres:
    print(f"PostgreSQL / SQLite  {postgres / sqlite:.2f}  (target >= 0.6)")
PY

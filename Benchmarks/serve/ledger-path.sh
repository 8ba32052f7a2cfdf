#!/usr/bin/env bash
# What the ledger costs a verifyReceipt request, in one run (issue 34, part 4): wrk on 127.0.0.1 against one
# `receiptkit serve`, posting
#   1. `{}` to /verifyReceipt                       — HTTP and JSON only (21002);
#   2. a production receipt to /sandbox/verifyReceipt — full validation, no ledger (21008);
#   3. the same receipt to /verifyReceipt on SQLite   — validation and the ledger (status 0);
#   4. the same on PostgreSQL (when RECEIPTKIT_TEST_POSTGRES_URL is set or .ci/postgres.sh can start one);
#   5. 3 and 4 again with the App Store Server API configured for the receipt's app, against the simulator
#      (Benchmarks' `api-simulator`, which knows the receipt's transactions): the first request refreshes the
#      ledger, after which it is fresh and no request may call the API (checked on /metrics).
# It prints requests/s, p50, p99 and the server's CPU time per request (Linux) for each, and the ratios the issue
# states targets for:
# SQLite / no ledger (>= 0.8), PostgreSQL / SQLite (>= 0.6), and API configured and fresh / not configured (>= 0.9).
#
#   Benchmarks/serve/ledger-path.sh [RECEIPTKIT_BINARY] [SECONDS] [CONNECTIONS] [ROUNDS]
#   LEDGER_PATH_API=0 Benchmarks/serve/ledger-path.sh    # without 5 (which builds the simulator in Benchmarks/)
#
# The paths take turns for ROUNDS rounds (3 by default), each on a fresh server, each round starting one path
# later; the ratios are of the median rates, and of the best ones (the machine's drift only ever slows a run: on a
# shared VM a path's server CPU per request moves between two levels some 40 % apart from one run to the next).
#
# The receipt is the production fixture when ../shared is present, else the repository's minted sample (whose
# environment decides which path is "the other one").
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
connections="${3:-64}"
rounds="${4:-3}"
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

# shellcheck source=serving.sh
source "$(dirname "$0")/serving.sh"
simulator=""
cleanup() {
  [ -n "$simulator" ] && kill "$simulator" 2>/dev/null || true
  serving_cleanup
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

# measure NAME BODY PATH EXPECTED-STATUS: checks one answer, warms up, then prints and records requests/s, and the
# server's CPU time per request (what decides the rate once the cores are busy, and steadier than it).
measure() {
  local status
  status=$(curl -s -X POST --data-binary @"$work/$2.json" "http://127.0.0.1:$port$3" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  [ "$status" = "$4" ] || { echo "ledger-path.sh: $1 answered status $status, not $4"; exit 1; }
  wrk -t2 -c"$connections" -d3s -s "$work/$2.lua" "http://127.0.0.1:$port$3" >/dev/null
  local before; before=$(cpu_ticks)
  wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/$2.lua" "http://127.0.0.1:$port$3" >"$work/wrk.txt"
  local after; after=$(cpu_ticks)
  wrk_figures "$work/wrk.txt" "$before" "$after"
  printf '%-16s %10s %9s %9s %8s %12s\n' "$1" "$rps" "$p50" "$p99" "${non2xx:-0}" "$cpu"
  echo "$rps" >>"$work/rate.$1"
}

# metric NAME LABEL-FILTER: the sum of a counter's samples (`NAME{labels} value`) whose labels hold the filter.
metric() {
  curl -fs "http://127.0.0.1:$port/metrics" | awk -v name="$1{" -v filter="$2" \
    'index($1, name) == 1 && index($1, filter) > 0 {n += $2} END {print n + 0}'
}

# Whether the ledger is fresh for the receipt: refreshed by the first request, or still fresh from an earlier run
# on the same PostgreSQL database.
is_fresh() {
  [ "$(metric receiptkit_app_store_api_refreshes_total fetched)" -gt 0 ] \
    || [ "$(metric receiptkit_app_store_api_refreshes_total fresh)" -gt 0 ]
}

# measure_fresh NAME DATABASE: the receipt on its own endpoint with the API configured. The first request
# refreshes the ledger from the simulator; then no request may call the API.
measure_fresh() {
  start_server "$2" "${anchors[@]}" --config "$work/api.json"
  curl -fs -X POST --data-binary @"$work/receipt.json" "http://127.0.0.1:$port$own" >/dev/null
  for _ in $(seq 1 100); do is_fresh && break; sleep 0.1; done
  is_fresh || { echo "ledger-path.sh: $1: the first request did not refresh from the API"; cat "$work/serve.log"; exit 1; }
  local before; before=$(metric receiptkit_app_store_api_calls_total "")
  measure "$1" receipt "$own" 0
  local after; after=$(metric receiptkit_app_store_api_calls_total "")
  [ "$after" = "$before" ] || { echo "ledger-path.sh: $1: $((after - before)) API calls on a fresh ledger"; exit 1; }
  stop_server
}

api="${LEDGER_PATH_API:-1}"
if [ "$api" = 1 ]; then
  (cd Benchmarks && swift build -c release --product api-simulator >/dev/null)
  mkdir -p "$work/simulator"
  Benchmarks/.build/release/api-simulator --receipt "$receipt" --output "$work/simulator" >"$work/simulator.log" 2>&1 &
  simulator=$!
  for _ in $(seq 1 100); do [ -f "$work/simulator/simulator.json" ] && break; sleep 0.1; done
  [ -f "$work/simulator/simulator.json" ] || { echo "ledger-path.sh: the simulator did not start:"; cat "$work/simulator.log"; exit 1; }
  python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
simulator = json.load(open(f"{work}/simulator/simulator.json"))
json.dump({
    "anchors": [f"{work}/simulator/root.cer"],
    "app_store_server_api": [dict(simulator, private_key_file=f"{work}/simulator/AuthKey.p8")],
}, open(f"{work}/api.json", "w"))
PY
fi

echo "== $(basename "$receipt") ($type), $connections connections, ${seconds}s per run, $rounds rounds"
pg_url="$(postgres_url ledger-path 54331)"
[ -z "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ] && [ -n "$pg_url" ] && started_pg=ledger-path
[ -n "$pg_url" ] || echo "(PostgreSQL: not available, skipped)"

# measure_path NAME: one path on a server of its own.
measure_path() {
  case "$1" in
    empty) start_server "sqlite:$work/ledger.sqlite" "${anchors[@]}"; measure empty empty /verifyReceipt 21002; stop_server ;;
    no-ledger)
      start_server "sqlite:$work/ledger.sqlite" "${anchors[@]}"
      measure no-ledger receipt "$other" "$([ "$type" = Production ] && echo 21008 || echo 21007)"
      stop_server ;;
    sqlite) start_server "sqlite:$work/ledger.sqlite" "${anchors[@]}"; measure sqlite receipt "$own" 0; stop_server ;;
    sqlite-api) measure_fresh sqlite-api "sqlite:$work/ledger-api.sqlite" ;;
    postgres) start_server "$pg_url" "${anchors[@]}"; measure postgres receipt "$own" 0; stop_server ;;
    postgres-api) measure_fresh postgres-api "$pg_url" ;;
  esac
}

paths=(empty no-ledger sqlite)
[ "$api" = 1 ] && paths+=(sqlite-api)
[ -n "$pg_url" ] && paths+=(postgres)
[ -n "$pg_url" ] && [ "$api" = 1 ] && paths+=(postgres-api)

# One round measures every path once, each on a fresh server; the paths take turns, and each round starts one path
# later than the one before, so that the machine's drift (on a shared VM, as large as the effects measured) and
# any cost of coming first or last fall on all of them alike.
for round in $(seq 1 "$rounds"); do
  echo "-- round $round"
  printf '%-16s %10s %9s %9s %8s %12s\n' path "req/s" p50 p99 non-2xx "server µs/req"
  for index in $(seq 0 $((${#paths[@]} - 1))); do
    measure_path "${paths[$(((index + round - 1) % ${#paths[@]}))]}"
  done
done

# The ratios the issue sets targets for, of each path's median rate, with the spread of the rounds' own ratios.
python3 - "$work" <<'PY'
import os, statistics, sys
work = sys.argv[1]
def rates(name):
    path = os.path.join(work, f"rate.{name}")
    return [float(x) for x in open(path).read().split()] if os.path.exists(path) else []
def ratio(label, top, bottom, target):
    a, b = rates(top), rates(bottom)
    if not a or not b:
        return
    per_round = [x / y for x, y in zip(a, b)]
    print(f"{label:<36} {statistics.median(a) / statistics.median(b):.2f}  (target >= {target}; "
          f"rounds {min(per_round):.2f}-{max(per_round):.2f}; best rounds {max(a) / max(b):.2f})")
print("-- medians")
for name in ["empty", "no-ledger", "sqlite", "sqlite-api", "postgres", "postgres-api"]:
    if rates(name):
        print(f"{name:<16} {statistics.median(rates(name)):10.0f} req/s")
ratio("SQLite / no ledger", "sqlite", "no-ledger", 0.8)
ratio("PostgreSQL / SQLite", "postgres", "sqlite", 0.6)
ratio("SQLite, API fresh / not configured", "sqlite-api", "sqlite", 0.9)
ratio("PostgreSQL, API fresh / not configured", "postgres-api", "postgres", 0.9)
PY

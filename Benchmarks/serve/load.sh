#!/usr/bin/env bash
# Load benchmark of `receiptkit serve` (a script, not a timed test): wrk on 127.0.0.1 posting one receipt
# over and over, next to `receiptkit bench` full validation of the same receipt on one core, in the same run.
#
#   Benchmarks/serve/load.sh [seconds-per-run] [connections]
#   LOAD_LEDGERS="sqlite" LOAD_RECEIPTS="receipt-production.der" Benchmarks/serve/load.sh 300   # one configuration
#
# For each receipt (the minted sample; the real production fixture when ../shared is present) and each ledger
# (SQLite; PostgreSQL when RECEIPTKIT_TEST_POSTGRES_URL is set or .ci/postgres.sh can start one) it prints
# requests/s, p50/p99 latency, non-2xx responses, socket errors, peak RSS and the RSS drift over the last half of
# the run, and the ratio of requests/s to the one-core bench rate. Targets (issue 9): ratio >= 1.2 (SQLite),
# >= 1.0 (PostgreSQL), 0 errors, RSS drift within +-10% over a 300 s run.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-300}"
connections="${2:-64}"
binary=.build/release/receiptkit
swift build -c release --product receiptkit >/dev/null
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

work="$(mktemp -d)"
started_pg=""
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  [ -n "$started_pg" ] && RECEIPTKIT_PG_DIR=/tmp/receiptkit-pg-load .ci/postgres.sh stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

receipts=("Examples/sample.receipt")
anchors=(--anchor Examples/TestRoot.cer)
[ -f ../shared/fixtures/receipts/receipt-production.der ] && receipts+=("../shared/fixtures/receipts/receipt-production.der")

if [ -n "${LOAD_RECEIPTS:-}" ]; then
  selected=()
  for receipt in "${receipts[@]}"; do [[ " $LOAD_RECEIPTS " == *" $(basename "$receipt") "* ]] && selected+=("$receipt"); done
  receipts=("${selected[@]}")
fi
ledgers="${LOAD_LEDGERS:-sqlite postgres}"

pg_url="${RECEIPTKIT_TEST_POSTGRES_URL:-}"
if [ -z "$pg_url" ] && [[ " $ledgers " == *" postgres "* ]]; then
  pg_url="$(RECEIPTKIT_PG_PORT=54330 RECEIPTKIT_PG_DIR=/tmp/receiptkit-pg-load .ci/postgres.sh start 2>/dev/null)" && started_pg=1 || pg_url=""
fi
databases=()
[[ " $ledgers " == *" sqlite "* ]] && databases+=("sqlite:$work/ledger.sqlite")
[ -n "$pg_url" ] && [[ " $ledgers " == *" postgres "* ]] && databases+=("$pg_url")

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

printf '%-28s %-9s %10s %10s %8s %8s %9s %7s %10s %9s %7s\n' receipt ledger "bench/s" "req/s" p50 p99 non-2xx errors "peakRSS" "RSSdrift" ratio
for receipt in "${receipts[@]}"; do
  bench=$("$binary" bench --seconds 5 --measure cached "${anchors[@]}" "$receipt" | awk 'NR==2 {print $3}')
  body="$work/body.json"
  printf '{"receipt-data":"%s"}' "$(base64 -w0 "$receipt")" >"$body"
  cat >"$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$body", "rb"); wrk.body = f:read("*a"); f:close()
LUA
  type=$("$binary" inspect --json "$receipt" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("receipt_type","Production"))')
  path=/verifyReceipt; [ "$type" != "Production" ] && path=/sandbox/verifyReceipt
  for database in "${databases[@]}"; do
    kind="${database%%:*}"
    [ "$kind" = sqlite ] && rm -f "$work"/ledger.sqlite*
    port=$((20000 + RANDOM % 20000))
    "$binary" serve --host 127.0.0.1 --port "$port" --database "$database" "${anchors[@]}" --log-level warning \
      2>"$work/serve.log" &
    server=$!
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
    verdict=$(curl -s -X POST --data-binary @"$body" "http://127.0.0.1:$port$path" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    if [ "$verdict" != 0 ]; then echo "load.sh: $receipt answered status $verdict, not 0"; exit 1; fi
    wrk -t2 -c"$connections" -d5s -s "$work/post.lua" "http://127.0.0.1:$port$path" >/dev/null  # warm-up
    : >"$work/rss"
    ( while kill -0 "$server" 2>/dev/null; do rss_kib "$server" >>"$work/rss"; sleep 1; done ) &
    sampler=$!
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port$path" >"$work/wrk.txt"
    kill "$sampler" 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1=="50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1=="99%" {print $2}' "$work/wrk.txt")
    non2xx=$(awk '/Non-2xx/ {print $5}' "$work/wrk.txt"); non2xx=${non2xx:-0}
    errors=$(awk '/Socket errors/ {gsub(",",""); print $4+$6+$8+$10}' "$work/wrk.txt"); errors=${errors:-0}
    read -r peak drift < <(python3 - "$work/rss" <<'PY'
import sys
v = [int(x) for x in open(sys.argv[1]) if x.strip()]
half = v[len(v) // 2:] or v or [0]
lo, hi = min(half), max(half)
print(f"{max(v or [0]) // 1024}MiB", f"{(hi - lo) / lo * 100 if lo else 0:.1f}%")
PY
)
    ratio=$(python3 -c "print(f'{float(\"$rps\") / float(\"$bench\"):.2f}')")
    printf '%-28s %-9s %10s %10s %8s %8s %9s %7s %10s %9s %7s\n' "$(basename "$receipt")" "$kind" "$bench" "$rps" "$p50" "$p99" "$non2xx" "$errors" "$peak" "$drift" "$ratio"
    kill "$server"; wait "$server" 2>/dev/null || true; server=""
  done
done

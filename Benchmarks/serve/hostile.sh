#!/usr/bin/env bash
# Hostile clients against `receiptkit serve` with its default limits (issue 33 §1): 250 stalled 3 MiB uploads,
# an ordinary request meanwhile, a header-dripping client. A script, not a timed test; see hostile.py.
#
#   Benchmarks/serve/hostile.sh [connections] [binary]
set -euo pipefail
cd "$(dirname "$0")/../.."
connections="${1:-250}"
binary="${2:-.build/release/receiptkit}"
[ "$binary" = .build/release/receiptkit ] && swift build -c release --product receiptkit >/dev/null
log="$(mktemp)"
"$binary" serve --database sqlite::memory: --port 0 --anchor Examples/TestRoot.cer --log-level warning 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "serving verifyReceipt on" "$log" && break; sleep 0.1; done
port="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -n 1 | cut -d: -f3)"
[ -n "$port" ] || { cat "$log"; echo "serve did not start"; exit 1; }
python3 Benchmarks/serve/hostile.py "$port" "$server" --connections "$connections" --hold 2
echo "== /metrics (connections and refusals)"
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^receiptkit_(connections|http_rejections)' || true

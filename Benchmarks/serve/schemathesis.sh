#!/usr/bin/env bash
# Contract check of the live service against openapi.yaml with schemathesis (PyPI): no 5xx, every response
# conforms to the document. Starts `receiptkit serve` on 127.0.0.1 with an in-memory ledger and stops it after.
#
#   Benchmarks/serve/schemathesis.sh [receiptkit-binary] [max-examples]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary="${1:-.build/debug/receiptkit}"
examples="${2:-200}"
command -v schemathesis >/dev/null 2>&1 || pip install -q schemathesis >/dev/null
port=$((20000 + RANDOM % 20000))
log="$(mktemp)"
# `/jws/verify` is off by default (404): turned on, so that the contract check reaches it.
"$binary" serve --host 127.0.0.1 --port "$port" --database sqlite::memory: --anchor Examples/TestRoot.cer \
  --set jws_verify_endpoint=true --log-level warning 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
status=0
schemathesis run openapi.yaml --url "http://127.0.0.1:$port" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$examples" --phases examples,coverage,fuzzing --generation-deterministic \
  --request-timeout 10 --no-color || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "schemathesis.sh: the server died during the run"; cat "$log"; exit 1
fi
exit "$status"

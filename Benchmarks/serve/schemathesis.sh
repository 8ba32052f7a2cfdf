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
# `/jws/verify` is off by default (404): turned on, so that the contract check reaches it. The App Store Server API
# mirror is served only for an app with a key: one generated here, its Apple host a closed local port.
work="$(mktemp -d)"
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/key.p8"
# The entitlements endpoint is served behind an admin token: one made here, sent to that path alone (below).
admin_token="schemathesis-admin-$(openssl rand -hex 16)"
cat >"$work/settings.json" <<JSON
{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a",
  "key_id": "SCHEMAKEY1", "private_key_file": "$work/key.p8", "base_url": "http://127.0.0.1:9"}],
 "admin_tokens": ["$admin_token"], "entitlements": {"com.example.app": {"com.example.app.pro": ["pro"]}}}
JSON
"$binary" serve --host 127.0.0.1 --port "$port" --database sqlite::memory: --anchor Examples/TestRoot.cer \
  --config "$work/settings.json" --set jws_verify_endpoint=true --log-level warning 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
# A token Apple's API would take, signed by that key (as Apple's own Python library signs them), so that the
# mirror's answers past authentication are checked too.
token=$(python3 -c '
import sys, time, jwt
key = open(sys.argv[1], "rb").read()
claims = {"iss": "57246542-96fe-1a63-e053-0824d011072a", "aud": "appstoreconnect-v1", "bid": "com.example.app",
          "iat": int(time.time()), "exp": int(time.time()) + 3000}
print(jwt.encode(claims, key, algorithm="ES256", headers={"kid": "SCHEMAKEY1"}))' "$work/key.p8")
status=0
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
schemathesis run openapi.yaml --url "http://127.0.0.1:$port" --header "Authorization: Bearer $token" \
  --exclude-path /v1/entitlements --exclude-path-regex '^/(ui|v1/sign)/' --checks "$checks" \
  --max-examples "$examples" --phases examples,coverage,fuzzing --generation-deterministic \
  --request-timeout 10 --no-color || status=$?
# The operator's endpoints (entitlements, signing) with their own token.
schemathesis run openapi.yaml --url "http://127.0.0.1:$port" --header "Authorization: Bearer $admin_token" \
  --include-path-regex '^/v1/(entitlements|sign/)' --checks "$checks" \
  --max-examples "$examples" --phases examples,coverage,fuzzing --generation-deterministic \
  --request-timeout 10 --no-color || status=$?
# The timeline page with the same token as an HTTP Basic password.
basic="$(printf 'ops:%s' "$admin_token" | base64 -w 0)"
schemathesis run openapi.yaml --url "http://127.0.0.1:$port" --header "Authorization: Basic $basic" \
  --include-path-regex '^/ui/' --checks "$checks" \
  --max-examples "$examples" --phases examples,coverage,fuzzing --generation-deterministic \
  --request-timeout 10 --no-color || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "schemathesis.sh: the server died during the run"; cat "$log"; exit 1
fi
exit "$status"

#!/usr/bin/env bash
# The App Store Server API mirror at a real app's scale (issue 46, "done when"): CUSTOMERS customers, each known from
# a signed SUBSCRIBED notification (a transaction and its renewal information, signed by a test authority), asked for
# their subscription statuses — `GET /inApps/v1/subscriptions/{transactionId}`, each customer in turn, with a bearer
# token as Apple's library signs it — against the no-ledger `/verifyReceipt` path of the same server in the same run
# (production receipts posted to the sandbox endpoint: full validation, 21008). On SQLite and on PostgreSQL, a fresh
# server and ledger each, ROUNDS rounds; medians, spread, p99 and the ratio.
#
#   Benchmarks/serve/mirror.sh [RECEIPTKIT_BINARY] [SECONDS] [CONNECTIONS] [ROUNDS] [CUSTOMERS]
#
# Defaults: a release build made here, 5 s per run, 64 connections, 3 rounds, 10,000 customers. MIRROR_PERF=PREFIX
# records the server's profile during each statuses run (perf record -g, to PREFIX.KIND.ROUND).
# PostgreSQL: RECEIPTKIT_TEST_POSTGRES_URL, else a server .ci/postgres.sh starts (and stops) on port 54333.
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
connections="${3:-64}"
rounds="${4:-3}"
customers="${5:-10000}"
[ -z "${2:-}" ] && seconds=5
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

# shellcheck source=serving.sh
source "$(dirname "$0")/serving.sh"
trap serving_cleanup EXIT

echo "== minting $customers customers' notifications and receipts"
"$bin" mint jws-ca --out "$work/jws-ca" >/dev/null
mint_population "$customers"
# The App Store Server API key the mirror checks tokens with: its public half only (no refresh from Apple).
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/key.p8"
openssl pkey -in "$work/key.p8" -pubout -out "$work/key.pub.pem" 2>/dev/null
cat >"$work/settings.json" <<JSON
{"app_store_server_api": [{"bundle_id": "com.example.app", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a",
  "key_id": "MIRRORKEY1", "public_key_file": "$work/key.pub.pem"}]}
JSON
python3 - "$work" "$customers" "$(dirname "$0")" <<'PY'
import base64, json, os, random, sys, time, uuid
import jwt
work, count = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from jws_signer import signer
sign = signer(f"{work}/jws-ca")
now = int(time.time() * 1000)
day = 86_400_000
lines, ids = [], []
for index in range(count):
    original = str(7_000_000_000_000_000 + index * 10)
    ids.append(original)
    transaction = {
        "transactionId": original, "originalTransactionId": original, "bundleId": "com.example.app",
        "productId": "com.example.app.monthly", "subscriptionGroupIdentifier": "21000001",
        "purchaseDate": now - 5 * day, "originalPurchaseDate": now - 5 * day, "expiresDate": now + 25 * day,
        "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
        "signedDate": now - 60_000, "environment": "Production", "transactionReason": "PURCHASE",
        "storefront": "USA", "storefrontId": "143441", "price": 990, "currency": "USD", "webOrderLineItemId": original,
    }
    renewal = {
        "originalTransactionId": original, "productId": "com.example.app.monthly",
        "autoRenewProductId": "com.example.app.monthly", "autoRenewStatus": 1, "signedDate": now - 60_000,
        "environment": "Production", "recentSubscriptionStartDate": now - 5 * day, "renewalDate": now + 25 * day,
    }
    notification = {
        "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": str(uuid.uuid4()),
        "version": "2.0", "signedDate": now - 60_000,
        "data": {"bundleId": "com.example.app", "bundleVersion": "1", "environment": "Production", "appAppleId": 1,
                 "status": 1, "signedTransactionInfo": sign(transaction), "signedRenewalInfo": sign(renewal)},
    }
    lines.append(json.dumps({"signedPayload": sign(notification)}))
open(f"{work}/notifications.lines", "w").write("\n".join(lines) + "\n")
random.Random(46).shuffle(ids)
open(f"{work}/ids.txt", "w").write("\n".join(ids) + "\n")
# The no-ledger path: the population's receipts, as population.sh posts them.
files = sorted(os.listdir(f"{work}/receipts"))
bodies = [json.dumps({"receipt-data": base64.b64encode(open(f"{work}/receipts/{f}", "rb").read()).decode()}) for f in files]
open(f"{work}/known.lines", "w").write("\n".join(bodies) + "\n")
key = open(f"{work}/key.p8", "rb").read()
claims = {"iss": "57246542-96fe-1a63-e053-0824d011072a", "aud": "appstoreconnect-v1", "bid": "com.example.app",
          "iat": int(time.time()), "exp": int(time.time()) + 3000}
open(f"{work}/token", "w").write(jwt.encode(claims, key, algorithm="ES256", headers={"kid": "MIRRORKEY1"}))
PY
write_post_lua
# get.lua: GET /inApps/v1/subscriptions/{id}, the ids of FILE in turn, each thread its own stride.
cat >"$work/get.lua" <<'LUA'
local ids, counter, index, stride = {}, 0, 0, 1
function setup(thread)
  counter = counter + 1
  thread:set("offset", counter - 1)
end
function init(args)
  for line in io.lines(args[1]) do table.insert(ids, line) end
  stride = tonumber(args[2])
  index = offset
  wrk.headers["Authorization"] = "Bearer " .. args[3]
end
function request()
  index = index + stride
  if index > #ids then index = (index - 1) % #ids + 1 end
  return wrk.format("GET", "/inApps/v1/subscriptions/" .. ids[index])
end
LUA

# load FILE PATH: posts every line once, 16 at a time (not timed).
load() {
  python3 - "$1" "http://127.0.0.1:$port$2" <<'PY'
import concurrent.futures, sys, urllib.request
lines = open(sys.argv[1]).read().splitlines()
def post(body):
    request = urllib.request.Request(sys.argv[2], data=body.encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        answer.read()
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    list(pool.map(post, lines))
PY
}

pg_url="$(postgres_url mirror 54333)"
[ -z "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ] && [ -n "$pg_url" ] && started_pg=mirror
[ -n "$pg_url" ] || echo "(PostgreSQL: not available, skipped)"
kinds=(sqlite)
[ -n "$pg_url" ] && kinds+=(postgres)

token="$(cat "$work/token")"
echo "== $customers customers, $connections connections, ${seconds}s per run, $rounds rounds"
printf '%-22s %10s %9s %9s %8s %12s\n' path "req/s" p50 p99 non-2xx "server µs/req"
for round in $(seq 1 "$rounds"); do
  for kind in "${kinds[@]}"; do
    database=$(fresh_database "$kind")
    start_server "$database" --anchor "$work/ca/root.cer" --anchor "$work/jws-ca/root.cer" --config "$work/settings.json"
    load "$work/notifications.lines" /notifications/v2
    recorded=$(curl -fs "http://127.0.0.1:$port/metrics" | awk '/^receiptkit_signed_data_requests_total\{.*outcome="recorded"/ {n += $2} END {print n + 0}')
    for path in no-ledger statuses; do
      before=$(cpu_ticks)
      if [ "$path" = no-ledger ]; then
        wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/sandbox/verifyReceipt" \
          -- "$work/known.lines" 2 >"$work/wrk.txt"
      else
        # MIRROR_PERF=PREFIX: the server profiled during the statuses run (perf record; PREFIX.KIND.ROUND).
        [ -n "${MIRROR_PERF:-}" ] && perf record -q -g -p "$server" -o "$MIRROR_PERF.$kind.$round" -- sleep "$seconds" 2>/dev/null &
        profiler=$!
        wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/get.lua" "http://127.0.0.1:$port" \
          -- "$work/ids.txt" 2 "$token" >"$work/wrk.txt"
        [ -n "${MIRROR_PERF:-}" ] && wait "$profiler"
      fi
      after=$(cpu_ticks)
      wrk_figures "$work/wrk.txt" "$before" "$after"
      printf '%-22s %10s %9s %9s %8s %12s\n' "$kind-$path" "$rps" "$p50" "$p99" "${non2xx:-0}" "$cpu"
      echo "$rps" >>"$work/rate.$kind-$path"
      echo "$p99" >>"$work/p99.$kind-$path"
      [ "$path" = statuses ] && [ -n "${non2xx:-}" ] && echo "   ($kind: $non2xx answers were not 200: see the service's log)"
    done
    [ "$recorded" -gt 0 ] || echo "   ($kind: /metrics counted no recorded notification)"
    stop_server
  done
done

echo "-- medians (rounds' spread), and the ratio to the same database's no-ledger path (target >= 0.5)"
for kind in "${kinds[@]}"; do print_ratios "$kind" no-ledger statuses; done

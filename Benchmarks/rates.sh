#!/usr/bin/env bash
# One-core rates of receipt validation and server-trust evaluation next to OpenSSL's RSA verify rate, and of App
# Store JWS verification next to OpenSSL's ECDSA P-256 verify rate, in one run.
#
#   Benchmarks/rates.sh [RECEIPTKIT_BINARY] [SECONDS]
#
# Builds `receiptkit` in release mode when no binary is given. Receipts: the repository's sample (our test CA) and,
# when ../shared/fixtures/receipts exists, the production and 187-purchase sandbox fixtures. Server trust: an
# RSA-2048 chain (root → intermediate → leaf) made here with openssl, evaluated with a public-key pin. JWS: a
# transaction and a notification (which nests a transaction and renewal info: three signatures) minted here with a
# fresh P-256 test authority.
set -euo pipefail
# shellcheck source=setup.sh
source "$(dirname "$0")/setup.sh"

cpu=0
run() { taskset -c "$cpu" "$@"; }

echo "== openssl speed -seconds $seconds rsa2048 (one core)"
run openssl speed -seconds "$seconds" rsa2048 2>/dev/null | grep -E '^rsa +2048|^rsa2048' | tail -n 1

echo "== receiptkit bench (one core)"
receipts=(Examples/sample.receipt)
fixtures=../shared/fixtures/receipts
anchors=(--anchor Examples/TestRoot.cer)
if [ -d "$fixtures" ]; then
  receipts+=("$fixtures/receipt-production.der" "$fixtures/receipt-sandbox-legacy.der")
fi
run "$bin" bench --seconds "$seconds" "${anchors[@]}" "${receipts[@]}"

echo "== receiptkit trust bench (one core; RSA-2048 chain of 2 + anchor, public-key pin on the intermediate)"
cd "$work"
cat >ext.cnf <<'CNF'
[rk_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[rk_leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:bench.example.test
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF
openssl req -x509 -newkey rsa:2048 -nodes -keyout root.key -out root.pem -days 3650 -subj "/CN=Bench Root" \
  -extensions rk_ca -config <(cat /etc/ssl/openssl.cnf ext.cnf) 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout int.key -out int.csr -subj "/CN=Bench Intermediate" 2>/dev/null
openssl x509 -req -in int.csr -CA root.pem -CAkey root.key -CAcreateserial -out int.pem -days 3650 \
  -extfile ext.cnf -extensions rk_ca 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout leaf.key -out leaf.csr -subj "/CN=bench.example.test" 2>/dev/null
openssl x509 -req -in leaf.csr -CA int.pem -CAkey int.key -CAcreateserial -out leaf.pem -days 3650 \
  -extfile ext.cnf -extensions rk_leaf 2>/dev/null
cat leaf.pem int.pem >chain.pem
pin=$(openssl x509 -in int.pem -pubkey -noout | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64)
cd - >/dev/null
run "$bin" trust bench --seconds "$seconds" --chain "$work/chain.pem" --anchor "$work/root.pem" \
  --host bench.example.test --mode public-key --pin "sha256/$pin"

echo "== openssl speed -seconds $seconds ecdsap256 (one core)"
run openssl speed -seconds "$seconds" ecdsap256 2>/dev/null | grep -E 'ecdsa \(nistp256\)' | tail -n 1

echo "== receiptkit jws bench (one core; P-256 chain of 3; cached = the chain's outcome cached, one signature to check)"
"$bin" mint jws-ca --out "$work/jws-ca" >/dev/null
"$bin" mint jws --ca "$work/jws-ca" --signed 2026-01-10T08:00:00Z --out "$work/transaction.jws" 2>/dev/null
"$bin" mint jws --ca "$work/jws-ca" --signed 2026-01-10T08:00:00Z --kind notification --wrap --out "$work/notification.json" 2>/dev/null
run "$bin" jws bench --seconds "$seconds" --anchor "$work/jws-ca/root.cer" "$work/transaction.jws" "$work/notification.json"

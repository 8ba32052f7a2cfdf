#!/usr/bin/env bash
# Regenerates the committed seed corpus in Fuzz/Corpus from the fuzzing CA in Fuzz/CA, with `receiptkit mint`.
# Usage: Fuzz/make-corpus.sh   (from anywhere; builds receiptkit in debug first)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product receiptkit >/dev/null
rk=".build/debug/receiptkit"
device="00010203-0405-0607-0809-0A0B0C0D0E0F"
out=Fuzz/Corpus
rm -f "$out"/*/seed-*

n=0
for style in appstore xcode; do
  for digest in sha1 sha256; do
    for purchases in 0 1 3; do
      args=()
      for i in $(seq 1 "$purchases"); do args+=(--purchase "com.example.fuzz.item$i,100000000000000$i,$i"); done
      n=$((n + 1))
      "$rk" mint receipt --ca Fuzz/CA --bundle-id com.example.fuzz --app-version 1 --device-id "$device" \
        --created 2026-01-10T08:00:00Z --style "$style" --digest "$digest" "${args[@]}" \
        --out "$out/FuzzValidate/seed-$n.der" >/dev/null
      cp "$out/FuzzValidate/seed-$n.der" "$out/FuzzDecode/seed-$n.der"
      "$rk" inspect --json "$out/FuzzValidate/seed-$n.der" > "$out/FuzzMintRoundTrip/seed-$n.json"
    done
  done
done
base64 -w 76 "$out/FuzzDecode/seed-1.der" > "$out/FuzzDecode/seed-base64.txt"

# Chain seeds: anchors, then certificates, separated by |||.
sep='|||'
{ cat Fuzz/CA/root.pem; printf '%s' "$sep"; cat Fuzz/CA/leaf.cer; printf '%s' "$sep"; cat Fuzz/CA/intermediate.cer; printf '%s' "$sep"; cat Fuzz/CA/root.cer; } > "$out/FuzzChain/seed-full"
{ cat Fuzz/CA/root.cer; printf '%s' "$sep"; cat Fuzz/CA/leaf.cer; } > "$out/FuzzChain/seed-missing-intermediate"
{ cat Fuzz/CA/intermediate.pem; printf '%s' "$sep"; cat Fuzz/CA/leaf.cer; printf '%s' "$sep"; cat Fuzz/CA/intermediate.cer; } > "$out/FuzzChain/seed-intermediate-anchor"
{ printf '%s' "$sep"; cat Fuzz/CA/leaf.cer; printf '%s' "$sep"; cat Fuzz/CA/root.cer; printf '%s' "$sep"; cat Fuzz/CA/intermediate.cer; } > "$out/FuzzChain/seed-no-anchor"
echo "seeds: $(find "$out" -type f | wc -l) files in $out"

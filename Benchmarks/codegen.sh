#!/usr/bin/env bash
# A generated validator (`receiptkit codegen`, every entry point, compiled -O) next to ReceiptValidator without its
# chain cache (`receiptkit bench --measure uncached`), on the same receipts, in the same run, on one core.
#
#   Benchmarks/codegen.sh [RECEIPTKIT_BINARY] [SECONDS]
#
# CODEGEN_SEEDS (space-separated hex seeds, default 5eed0000c0de0001) measures one generation per seed: where the
# decoys fall moves a generation's speed by up to 8 % (three seeds, production receipt); the two RSA variants run at
# about the same speed (a 2048-bit verification stand-alone: operand scanning 31–35 µs, product scanning 31 µs).
# CODEGEN_FIXTURES=0 measures the sample only. CODEGEN_ROUNDS (default 5): the time is split into that many rounds,
# each running ReceiptValidator then the generated validator, and each side's best round counts: on a shared machine
# a neighbour's load comes and goes, and one long run of each measured the same generation anywhere from 2.7 to 3.1
# times ReceiptValidator's time (79 kB receipt), best-of-rounds within a few percent.
#
# Receipts: the repository's sample (our test CA, so the validator is generated with --anchor-cert) and, when
# ../shared/fixtures/receipts exists, a production and a sandbox receipt (Apple's root). The issue's target: the
# generated validator takes at most 3× ReceiptValidator's time per receipt (ratio = ReceiptValidator's rate / the
# generated one's ≤ 3). A generated validator's check runs every entry point, each a whole validation of its own (the
# app's launch pays all three); the last column is the ratio for one of them.
set -euo pipefail
# shellcheck source=setup.sh
source "$(dirname "$0")/setup.sh"
run() { taskset -c 0 "$@"; }

seeds=${CODEGEN_SEEDS:-5eed0000c0de0001}
rounds=${CODEGEN_ROUNDS:-5}

# measure NAME RECEIPT BUNDLE-ID VERSION [ANCHOR]
measure() {
  local seed
  for seed in $seeds; do measure_seed "$seed" "$@"; done
}

# measure_seed SEED NAME RECEIPT BUNDLE-ID VERSION [ANCHOR]
measure_seed() {
  local seed=$1 name=$2 receipt=$3 bundle=$4 version=$5 anchor=${6:-}
  local gen=(--bundle-id "$bundle" --version "$version" --platform macos --seed "$seed")
  local bench=()
  if [ -n "$anchor" ]; then
    gen+=(--anchor-cert "$anchor")
    bench+=(--anchor "$anchor")
  fi
  rm -rf "$work/$name"
  "$bin" codegen "${gen[@]}" --emit-harness "$work/$name" 2>/dev/null
  local sources="$work/$name/Sources/harness"
  swiftc -swift-version 6 -O "$sources/ReceiptCheck.swift" "$sources/main.swift" -module-name harness \
    -o "$work/$name/harness"
  # Calibrate the harness's repeat count to about SECONDS / ROUNDS, then measure both in rounds, keeping the best.
  local probe repeats round rate reference=0 generated=0
  local slice
  slice=$(awk -v s="$seconds" -v r="$rounds" 'BEGIN { printf "%.2f", s / r }')
  # (the harness exits 1 for this device id: the rate is printed either way)
  probe=$( (run "$work/$name/harness" "$receipt" 00:11:22:33:44:55 --repeat 20 2>&1 >/dev/null || true) \
    | sed -n 's/.*: \([0-9]*\) receipts\/s/\1/p')
  repeats=$(awk -v p="$probe" -v s="$slice" 'BEGIN { r = int(p * s); print (r < 1 ? 1 : r) }')
  for ((round = 0; round < rounds; round++)); do
    rate=$(run "$bin" bench --seconds "$slice" --measure uncached "${bench[@]}" "$receipt" | awk -F'\t' 'NR == 2 { print $4 }')
    if [ "$rate" -gt "$reference" ]; then reference=$rate; fi
    rate=$( (run "$work/$name/harness" "$receipt" 00:11:22:33:44:55 --repeat "$repeats" 2>&1 >/dev/null || true) \
      | sed -n 's/.*: \([0-9]*\) receipts\/s/\1/p')
    if [ "$rate" -gt "$generated" ]; then generated=$rate; fi
  done
  awk -v n="$name" -v s="$seed" -v r="$reference" -v g="$generated" \
    'BEGIN { printf "%s\tseed %s\tReceiptValidator %s/s\tgenerated %s/s\ttime ratio %.2f (%.2f an entry point)\n", n, s, r, g, r / g, r / g / 3 }'
}

echo "== one core: ReceiptValidator without cache vs a generated validator (3 entry points), same receipt, best of $rounds rounds"
measure sample Examples/sample.receipt com.example.receiptkit 1.0 Examples/TestRoot.cer
fixtures=../shared/fixtures/receipts
if [ -d "$fixtures" ] && [ "${CODEGEN_FIXTURES:-1}" != 0 ]; then
  while IFS=$'\t' read -r file bundle version; do
    measure "$file" "$fixtures/$file" "$bundle" "$version"
  done < <(python3 - "$fixtures" <<'PY'
import json, sys
expected = json.load(open(sys.argv[1] + "/expected.json"))
items = expected.items() if isinstance(expected, dict) else [(e["file"], e) for e in expected]
for wanted in ("receipt-production.der", "receipt-sandbox-legacy.der"):
    for name, entry in items:
        if name == wanted:
            decoded = entry.get("decoded", entry)
            print(f"{name}\t{decoded['bundle_id']}\t{decoded['application_version']}")
PY
)
fi

#!/usr/bin/env bash
# Two `receiptkit` binaries side by side: both run `bench` at the same time on the same core, so that whatever else
# the machine does slows both alike, and each column prints as NEW / BASE (1.00 = as fast). Use it to tell whether a
# change moved parse or validation rates by a few percent, which separate runs on a shared machine cannot.
#
#   Benchmarks/compare.sh BASE_BINARY NEW_BINARY [ROUNDS] [SECONDS] [MEASURE]
#
# e.g. after `git worktree add /tmp/base <rev> && swift build -c release --product receiptkit --package-path /tmp/base`:
#   Benchmarks/compare.sh /tmp/base/.build/release/receiptkit .build/release/receiptkit 3 3 parse,json,cached
# Receipts: the repository's sample and, when ../shared/fixtures/receipts exists, the production and 187-purchase
# sandbox fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
base="$1"
new="$2"
rounds="${3:-3}"
seconds="${4:-3}"
measure="${5:-parse,json,cached}"

receipts=(Examples/sample.receipt)
fixtures=../shared/fixtures/receipts
if [ -d "$fixtures" ]; then
  receipts+=("$fixtures/receipt-production.der" "$fixtures/receipt-sandbox-legacy.der")
fi
run() { taskset -c 0 "$1" bench --seconds "$seconds" --measure "$measure" --anchor Examples/TestRoot.cer "${receipts[@]}"; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in $(seq 1 "$rounds"); do
  echo "== round $round: new / base"
  run "$base" >"$out/base" 2>&1 &
  run "$new" >"$out/new" 2>&1
  wait
  paste "$out/base" "$out/new" | awk -F'\t' '
    NR == 1 { n = NF / 2; for (i = 2; i < n; i++) name[i] = $i; next }
    { n = NF / 2; line = sprintf("%-28s", $1)
      for (i = 2; i < n; i++) if ($i + 0 > 0) line = line sprintf("  %s %.3f", name[i], $(i + n) / $i)
      print line }'
done

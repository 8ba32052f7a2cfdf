#!/usr/bin/env bash
# Builds every DocC catalog with swift-docc-plugin and fails on any DocC warning (a broken symbol link, a topic
# that names nothing), as the build fails on compiler warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(AppStorePKI ReceiptKit ReceiptKitTesting AppStoreServerAPISimulator AppStoreJWS AppStoreJWSOCSP AppStoreServerAPI ServerTrust ServerTrustNIO ReceiptLedger ReceiptService ReceiptCodegen)
for target in "${targets[@]}"; do
  [ -d "Sources/$target/Docs.docc" ] || { echo "FAIL: Sources/$target/Docs.docc is missing"; exit 1; }
done
# Every catalog in Sources/ is built: a new one not listed here fails rather than going unchecked.
for catalog in Sources/*/Docs.docc; do
  target="$(basename "$(dirname "$catalog")")"
  printf '%s\n' "${targets[@]}" | grep -qx "$target" || { echo "FAIL: $catalog is not in .ci/docs.sh"; exit 1; }
done
# The Swift Package Index publishes what .spi.yml lists: every catalog built here, and no other.
spi="$(sed -n 's/.*documentation_targets: *\[\(.*\)\].*/\1/p' .spi.yml | tr -d ' ' | tr ',' '\n' | sort)"
[ "$spi" = "$(printf '%s\n' "${targets[@]}" | sort)" ] || { echo "FAIL: .spi.yml's documentation_targets differ from the catalogs built here"; exit 1; }
# One invocation for every catalog: the plugin builds the symbol graphs once, not once per target.
log="$(mktemp)"
status=0
args=()
for target in "${targets[@]}"; do args+=(--target "$target"); done
swift package --disable-sandbox generate-documentation "${args[@]}" --warnings-as-errors >"$log" 2>&1 || status=$?
grep -E "warning:|error:|^Finished building documentation" "$log" | grep -v "^warning: '" || true
if [ "$status" -ne 0 ]; then
  tail -n 30 "$log"
  echo "FAIL: the documentation has warnings or errors (above)"
  exit 1
fi
echo "documentation: ${#targets[@]} catalogs built without warnings"

#!/usr/bin/env bash
# Build and run one libFuzzer harness: Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
#   TARGET: FuzzDecode | FuzzValidate | FuzzChain | FuzzMintRoundTrip | FuzzServerTrust | FuzzJWS
# Seeds: Fuzz/Corpus/TARGET (committed) plus, for the receipt harnesses, ../shared/fixtures/receipts when present
# (copied to a scratch corpus, never into the repository). New corpus entries go to the scratch folder; crashes,
# leaks and timeouts are written to Fuzz/Artifacts/ and make this script exit non-zero.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: run.sh TARGET SECONDS}"
seconds="${2:?usage: run.sh TARGET SECONDS}"
shift 2

case "$target" in
  FuzzDecode|FuzzValidate|FuzzChain|FuzzMintRoundTrip|FuzzServerTrust|FuzzJWS) ;;
  *) echo "run.sh: unknown target $target" >&2; exit 64 ;;
esac

swift build -c release --sanitize=fuzzer --sanitize=address --product "$target" 2>&1 | tail -n 3
binary="$(swift build -c release --sanitize=fuzzer --sanitize=address --show-bin-path)/$target"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [ "$target" = FuzzDecode ] || [ "$target" = FuzzValidate ]; then
  shared="../../shared/fixtures/receipts"
  if [ -d "$shared" ]; then cp "$shared"/*.der "$scratch"/; fi
fi
mkdir -p Artifacts
dict=()
if [ -f "Dictionaries/$target.dict" ]; then dict=(-dict="Dictionaries/$target.dict"); fi

export RECEIPTKIT_FUZZ_CA="$(pwd)/CA"
export RECEIPTKIT_FUZZ_JWS_CA="$(pwd)/JWSCA"
# LeakSanitizer reports objects alive at libFuzzer's exit (caches, the concurrency runtime); leaks are not what
# these harnesses look for, and a long run stops with a report of what it found either way.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
"$binary" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="Artifacts/$target-" "$@" "$scratch" "Corpus/$target"

#!/usr/bin/env bash
# Builds a receiptkit release for this machine's OS and architecture: the executable with the Swift runtime and
# Foundation linked in (--static-swift-stdlib), stripped, in a tarball with the README, the LICENSE, the CHANGELOG,
# SECURITY.md, the sample receipt with its test root, and the deployment examples (settings, proxy, systemd,
# Compose); a SHA-256 file beside it. What the binary still needs from the system: glibc, libstdc++ and zlib.
#
#   Scripts/package.sh [--configuration release|debug] [--output DIR] [--scratch-path DIR]
#
# Prints the tarball's path last. The build has its own folder (.build-package/CONFIGURATION), so the usual
# `swift build` in .build is neither rebuilt nor disturbed; --scratch-path .build reuses that build instead (linking
# the executable again is all it costs; CI does this after its tests). Scripts/check-package.sh runs the result with
# the toolchain's libraries hidden.
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=release
output=dist
scratch=""
while [ $# -gt 0 ]; do
  case "$1" in
    --configuration) configuration="${2:?--configuration takes release or debug}"; shift 2 ;;
    --output) output="${2:?--output takes a directory}"; shift 2 ;;
    --scratch-path) scratch="${2:?--scratch-path takes a directory}"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown argument $1 (see --help)" >&2; exit 64 ;;
  esac
done
case "$configuration" in
  release|debug) ;;
  *) echo "package.sh: --configuration is release or debug, not $configuration" >&2; exit 64 ;;
esac

[ -n "$scratch" ] || scratch=".build-package/$configuration"
echo "== building receiptkit ($configuration, Swift runtime linked statically) in $scratch" >&2
if ! swift build -c "$configuration" --product receiptkit --static-swift-stdlib --scratch-path "$scratch" >&2; then
  # Seen once in a CI rehearsal (2026-12-04): relinking the tests' debug build with the static runtime failed on
  # CoreFoundation symbols Foundation's archive needs, after a 15 s build; the same command run again later rebuilt
  # what it needed (40 s) and linked. The cause is not known: once more, then fail.
  echo "== the static build failed; building once more" >&2
  swift build -c "$configuration" --product receiptkit --static-swift-stdlib --scratch-path "$scratch" >&2
fi
binary="$(swift build -c "$configuration" --product receiptkit --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/receiptkit"

version="$("$binary" --version)"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m)"
name="receiptkit-$version-$os-$arch"
[ "$configuration" = release ] || name="$name-$configuration"

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
root="$staging/$name"
mkdir -p "$root/bin" "$root/Examples/Deploy"
install -m 0755 "$binary" "$root/bin/receiptkit"
if command -v strip >/dev/null 2>&1; then
  strip "$root/bin/receiptkit"
else
  echo "== strip is not installed (binutils): the binary keeps its symbols" >&2
fi
cp README.md LICENSE CHANGELOG.md SECURITY.md "$root/"
cp Examples/sample.receipt Examples/TestRoot.cer "$root/Examples/"
cp Examples/Deploy/* "$root/Examples/Deploy/"

mkdir -p "$output"
tarball="$output/$name.tar.gz"
# Owner and dates fixed, files in name order: the same inputs give the same tarball.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00:00Z' \
  -C "$staging" -czf "$tarball" "$name"
(cd "$output" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "== $(du -h "$tarball" | cut -f1) $tarball (and $tarball.sha256)" >&2
echo "$tarball"

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
# SwiftPM does not compile again what it compiled without --static-swift-stdlib (the tests' build in .build): such
# objects name the shared Foundation's libraries for the linker, not the archives the static Foundation is made of
# (_FoundationICU, CoreFoundation, …), and the link fails on their symbols. So the linker is also given, in one
# group, the libraries an object compiled against the static runtime names: the toolchain says which, by
# compiling a one-line probe.
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf 'import Foundation\n' > "$probe/probe.swift"
swiftc -static-stdlib -parse-as-library -c "$probe/probe.swift" -o "$probe/probe.o"
autolink_extract="$(dirname "$(command -v swiftc)")/swift-autolink-extract"
static_libraries="$("$autolink_extract" "$probe/probe.o" -o - | tr '\n' ' ')"
[ -n "${static_libraries// /}" ] || { echo "package.sh: the toolchain named no static library for Foundation" >&2; exit 70; }
link_flags=(-Xlinker --start-group)
for library in $static_libraries; do link_flags+=(-Xlinker "$library"); done
link_flags+=(-Xlinker --end-group)
swift build -c "$configuration" --product receiptkit --static-swift-stdlib --scratch-path "$scratch" "${link_flags[@]}" >&2
binary="$(swift build -c "$configuration" --product receiptkit --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/receiptkit"

version="$("$binary" --version)"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
arch="$(uname -m)"
name="receiptkit-$version-$os-$arch"
[ "$configuration" = release ] || name="$name-$configuration"

staging="$(mktemp -d)"
trap 'rm -rf "$probe" "$staging"' EXIT
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

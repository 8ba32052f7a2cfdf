# Sourced by the benchmark scripts: `bin` (argument 1, or a release build of receiptkit made here), `seconds`
# (argument 2, default 3) and `work`, a temporary folder removed on exit. Runs from the repository's root.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin=${1:-}
seconds=${2:-3}
if [ -z "$bin" ]; then
  swift build -c release --product receiptkit >/dev/null
  bin=.build/release/receiptkit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

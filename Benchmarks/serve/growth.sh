#!/usr/bin/env bash
# Does writing slow down as the ledger grows (issue 45)? Mints N never-seen receipts (default 130,000; one customer
# each, two purchases), posts them all with wrk at 64 connections into an empty ledger — SQLite, then PostgreSQL —
# and reads the count of receipts recorded from /metrics every 2 s. Prints the rate of each window, then the rate
# after 1,000 recorded and after 100,000 (the first window starting past each), and their ratio: the issue asks
# that the later be within 20 % of the earlier. The last windows are slower by design: wrk's threads reach the end
# of their share one after the other and post receipts already recorded (hence the margin past 100,000).
#
#   Benchmarks/serve/growth.sh [RECEIPTKIT_BINARY] [unused] [RECEIPTS]
#
# PostgreSQL: RECEIPTKIT_TEST_POSTGRES_URL, else a server .ci/postgres.sh starts (and stops) on port 54333.
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
count="${3:-130000}"
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

# shellcheck source=serving.sh
source "$(dirname "$0")/serving.sh"
trap serving_cleanup EXIT

mint_population "$count"
python3 - "$work" <<'PY'
import base64, json, os, sys
work = sys.argv[1]
with open(f"{work}/fresh.lines", "w") as out:
    for name in sorted(os.listdir(f"{work}/receipts")):
        body = base64.b64encode(open(f"{work}/receipts/{name}", "rb").read()).decode()
        out.write(json.dumps({"receipt-data": body}) + "\n")
PY

write_post_lua  # each line once, in turn (then again: the slow last windows)

pg_url="$(postgres_url growth 54333)"
[ -z "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ] && [ -n "$pg_url" ] && started_pg=growth
kinds=(sqlite)
[ -n "$pg_url" ] && kinds+=(postgres) || echo "(PostgreSQL: not available, skipped)"

recorded() {
  curl -fs "http://127.0.0.1:$port/metrics" | awk '/^receiptkit_ledger_receipts_total\{result="inserted"\}/ {print $2}'
}

for kind in "${kinds[@]}"; do
  if [ "$kind" = sqlite ]; then
    database="sqlite:$work/growth.sqlite"
  else
    psql "$pg_url" -qAt -c "DROP DATABASE IF EXISTS receiptkit_growth" >/dev/null 2>&1
    psql "$pg_url" -qAt -c "CREATE DATABASE receiptkit_growth" >/dev/null
    database=$(python3 -c "import sys, urllib.parse as u; p = u.urlparse(sys.argv[1]); print(u.urlunparse(p._replace(path='/receiptkit_growth')))" "$pg_url")
  fi
  start_server "$database" --anchor "$work/ca/root.cer"
  # Long enough for every receipt at 1,000 a second; stopped once all are recorded.
  wrk -t2 -c64 -d"$((count / 1000 + 60))s" -s "$work/post.lua" "http://127.0.0.1:$port/verifyReceipt" -- \
    "$work/fresh.lines" 2 >/dev/null &
  load_generator=$!
  samples="0"
  while true; do
    sleep 2
    now=$(recorded)
    samples="$samples ${now%.*}"
    [ "${now%.*}" -ge "$count" ] && break
    kill -0 "$load_generator" 2>/dev/null || break
  done
  kill "$load_generator" 2>/dev/null || true
  wait "$load_generator" 2>/dev/null || true
  stop_server
  python3 - "$kind" "$samples" <<'PY'
import sys
kind, samples = sys.argv[1], [int(x) for x in sys.argv[2].split()]
windows = [(samples[i], (samples[i + 1] - samples[i]) / 2) for i in range(len(samples) - 1)]
print(f"-- {kind}: receipts recorded per second, every 2 s window (recorded at its start: rate)")
print("   " + ", ".join(f"{start}: {rate:.0f}" for start, rate in windows))
def first_after(target):
    return next((w for w in windows if w[0] >= target and w[1] > 0), None)
early, late = first_after(1_000), first_after(100_000)
if early is None or late is None:
    print(f"{kind}: no window after 1,000 or after 100,000 (recorded: {samples[-1]:,})")
else:
    print(f"{kind}: {early[1]:.0f}/s after {early[0]:,}, {late[1]:.0f}/s after {late[0]:,}: "
          f"{late[1] / early[1]:.2f}x (target >= 0.8)")
PY
done

#!/usr/bin/env bash
# `receiptkit ledger import` next to `receiptkit validate --jobs 2` on the same files, in the same run (issue 45 §5:
# import >= 0.5 x validate). Mints COUNT distinct receipts (one customer each, two purchases) with a test CA, then
# for each round: validate --jobs 2 over the folder (JSON lines to /dev/null), an import into a fresh SQLite ledger,
# into a fresh PostgreSQL database, and the same PostgreSQL import again (every receipt skipped by hash: the resume).
#
#   Benchmarks/serve/import.sh [RECEIPTKIT_BINARY] [ROUNDS] [COUNT]
#
# Defaults: a release build made here, 3 rounds, 40,000 receipts. Prints receipts/s of each and the ratios; medians
# of the rounds at the end.
# PostgreSQL: RECEIPTKIT_TEST_POSTGRES_URL, else a server .ci/postgres.sh starts (and stops) on port 54333.
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
rounds="${2:-3}"
count="${3:-40000}"
# shellcheck source=serving.sh
source "$(dirname "$0")/serving.sh"
trap serving_cleanup EXIT

mint_population "$count"
pg_url="$(postgres_url import 54333)"
[ -z "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ] && [ -n "$pg_url" ] && started_pg=import
[ -n "$pg_url" ] || echo "(PostgreSQL: not available, skipped)"

# rate COMMAND...: receipts per second of COMMAND over the folder (its standard output discarded).
rate() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/run.log" || { [ $? -le 1 ] || { cat "$work/run.log" >&2; exit 1; }; }
  end=$(date +%s.%N)
  python3 -c "print(round($count / ($end - $start)))"
}

# expect_summary TEXT: the last run's summary says TEXT, or the script stops.
expect_summary() { grep -q "$1" "$work/run.log" || { echo "unexpected summary:" >&2; cat "$work/run.log" >&2; exit 1; }; }

declare -a validate_rates sqlite_rates pg_rates resume_rates
for round in $(seq 1 "$rounds"); do
  validate=$(rate "$bin" validate --jobs 2 --json --anchor "$work/ca/root.cer" "$work/receipts")
  sqlite=$(rate "$bin" ledger import --jobs 2 --anchor "$work/ca/root.cer" --database "$(fresh_database sqlite)" "$work/receipts")
  expect_summary " imported, 0 already in the ledger, 0 not imported"
  line="round $round: validate --jobs 2 $validate/s; import SQLite $sqlite/s ($(python3 -c "print(f'{$sqlite / $validate:.2f}')")x)"
  validate_rates+=("$validate"); sqlite_rates+=("$sqlite")
  if [ -n "$pg_url" ]; then
    database=$(fresh_database postgres)
    pg=$(rate "$bin" ledger import --jobs 2 --anchor "$work/ca/root.cer" --database "$database" "$work/receipts")
    expect_summary " imported, 0 already in the ledger, 0 not imported"
    resume=$(rate "$bin" ledger import --jobs 2 --anchor "$work/ca/root.cer" --database "$database" "$work/receipts")
    expect_summary ": 0 imported, "
    line="$line; PostgreSQL $pg/s ($(python3 -c "print(f'{$pg / $validate:.2f}')")x); resumed (all skipped) $resume/s"
    pg_rates+=("$pg"); resume_rates+=("$resume")
  fi
  echo "$line"
done

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
v=$(median "${validate_rates[@]}"); s=$(median "${sqlite_rates[@]}")
summary="median of $rounds: validate --jobs 2 $v/s; import SQLite $s/s ($(python3 -c "print(f'{$s / $v:.2f}')")x)"
if [ -n "$pg_url" ]; then
  p=$(median "${pg_rates[@]}"); r=$(median "${resume_rates[@]}")
  summary="$summary; PostgreSQL $p/s ($(python3 -c "print(f'{$p / $v:.2f}')")x); resumed $r/s"
fi
echo "$summary (target: import >= 0.5x validate)"

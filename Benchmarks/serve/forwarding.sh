#!/usr/bin/env bash
# What forwarding costs the notification path (issue 47, "the outbox adds <= 10 % to the notification path's rate"):
# COUNT distinct signed notifications (SUBSCRIBED, one customer each, signed now by a test authority) POSTed to
# /notifications/v2 of a fresh server and ledger on three paths: no-targets; outbox-only (one target that never
# answers: entries written, nothing sent); forwarding (one target, a receiver on loopback answering 200, so that every
# recorded notification also writes an outbox entry and is sent on while the run lasts). On SQLite and PostgreSQL,
# ROUNDS rounds, the paths alternated; medians, spread, p99, the ratios, the server's and PostgreSQL's CPU per
# request, and what the receiver got.
#
#   Benchmarks/serve/forwarding.sh [RECEIPTKIT_BINARY] [SECONDS] [CONNECTIONS] [ROUNDS] [COUNT]
#
# Defaults: a release build made here, 5 s per run, 64 connections, 3 rounds, 40,000 notifications (more than a run
# posts: every request records a new one). A third path, outbox-only, has a target that never answers: the outbox's
# writes without the sending. PostgreSQL: RECEIPTKIT_TEST_POSTGRES_URL, else a server .ci/postgres.sh
# starts (and stops) on port 54334. FORWARDING_PERF=PREFIX records the server's profile during each run.
set -euo pipefail
# shellcheck source=../setup.sh
source "$(dirname "$0")/../setup.sh"
connections="${3:-64}"
rounds="${4:-3}"
count="${5:-40000}"
[ -z "${2:-}" ] && seconds=5
command -v wrk >/dev/null 2>&1 || { export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
python3 -c "import jwt" 2>/dev/null || pip install -q PyJWT cryptography --break-system-packages

# shellcheck source=serving.sh
source "$(dirname "$0")/serving.sh"
receiver=""
# The CPU ticks of every PostgreSQL process on this machine (its backends serve the server's connections; another
# cluster running here would count too).
database_ticks() {
  local total=0 pid
  for pid in $(pgrep -x postgres || true); do
    total=$(( total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0) ))
  done
  echo "$total"
}
stalled=""
cleanup() {
  [ -n "$receiver" ] && kill "$receiver" 2>/dev/null || true
  [ -n "$stalled" ] && kill "$stalled" 2>/dev/null || true
  serving_cleanup
}
trap cleanup EXIT

echo "== minting $count notifications"
"$bin" mint jws-ca --out "$work/jws-ca" >/dev/null
python3 - "$work" "$count" "$(dirname "$0")" <<'PY'
import json, sys, time, uuid
work, count = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, sys.argv[3])
from jws_signer import signer
sign = signer(f"{work}/jws-ca")
now = int(time.time() * 1000)
day = 86_400_000
with open(f"{work}/notifications.lines", "w") as out:
    for index in range(count):
        original = str(8_000_000_000_000_000 + index * 10)
        transaction = {
            "transactionId": original, "originalTransactionId": original, "bundleId": "com.example.app",
            "productId": "com.example.app.monthly", "subscriptionGroupIdentifier": "21000001",
            "purchaseDate": now - day, "originalPurchaseDate": now - day, "expiresDate": now + 29 * day,
            "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "signedDate": now - 60_000, "environment": "Production", "transactionReason": "PURCHASE",
            "storefront": "USA", "storefrontId": "143441", "price": 990, "currency": "USD",
        }
        notification = {
            "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": str(uuid.uuid4()),
            "version": "2.0", "signedDate": now - 60_000,
            "data": {"bundleId": "com.example.app", "bundleVersion": "1", "environment": "Production", "appAppleId": 1,
                     "status": 1, "signedTransactionInfo": sign(transaction)},
        }
        out.write(json.dumps({"signedPayload": sign(notification)}) + "\n")
PY
write_post_lua

# The target: a receiver on loopback that answers every request 200 at once and counts them (in $work/received).
cat >"$work/receiver.py" <<'PY'
import asyncio, signal, sys
count = 0
async def handle(reader, writer):
    global count
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            count += 1
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    open(sys.argv[1], "w").write(str(server.sockets[0].getsockname()[1]))
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    loop.add_signal_handler(signal.SIGTERM, stop.set_result, None)
    loop.add_signal_handler(signal.SIGUSR1, lambda: open(sys.argv[2], "w").write(str(count)))
    await stop
asyncio.run(main())
PY
python3 "$work/receiver.py" "$work/receiver.port" "$work/received" &
receiver=$!
for _ in $(seq 1 50); do [ -s "$work/receiver.port" ] && break; sleep 0.1; done
receiver_port=$(cat "$work/receiver.port")
cat >"$work/targets.json" <<JSON
{"notification_targets": [{"bundle_id": "com.example.app", "url": "http://127.0.0.1:$receiver_port/apple",
  "hmac_secret": "a-benchmark-secret-0123456789", "name": "backend"}]}
JSON
echo '{}' >"$work/none.json"
# The outbox alone: a target that never answers (a socket listening, never accepting) with a 300 s attempt timeout,
# so that every notification writes its entry while the first round's attempts wait and nothing is sent. The
# difference between this path and "forwarding" is the sending; that server is stopped with SIGKILL (a graceful
# stop would wait out the attempts), its entries left to their leases in a ledger made afresh for every run.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4096)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
time.sleep(1e9)' "$work/stalled.port" &
stalled=$!
for _ in $(seq 1 50); do [ -s "$work/stalled.port" ] && break; sleep 0.1; done
cat >"$work/stalled.json" <<JSON
{"notification_targets": [{"bundle_id": "com.example.app", "url": "http://127.0.0.1:$(cat "$work/stalled.port")/apple",
  "hmac_secret": "a-benchmark-secret-0123456789", "name": "backend"}],
 "notification_forwarding": {"attempt_timeout_seconds": 300}}
JSON

pg_url="$(postgres_url forwarding 54334)"
[ -z "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ] && [ -n "$pg_url" ] && started_pg=forwarding
[ -n "$pg_url" ] || echo "(PostgreSQL: not available, skipped)"
kinds=(sqlite)
[ -n "$pg_url" ] && kinds+=(postgres)

echo "== $count notifications, $connections connections, ${seconds}s per run, $rounds rounds"
printf '%-22s %10s %9s %9s %8s %12s %10s %s\n' path "req/s" p50 p99 non-2xx "server µs/req" "db µs/req" "forwarded (pending)"
for round in $(seq 1 "$rounds"); do
  for kind in "${kinds[@]}"; do
    for path in no-targets outbox-only forwarding; do
      database=$(fresh_database "$kind")
      settings="$work/none.json"
      [ "$path" = forwarding ] && settings="$work/targets.json"
      [ "$path" = outbox-only ] && settings="$work/stalled.json"
      start_server "$database" --anchor "$work/jws-ca/root.cer" --config "$settings"
      kill -USR1 "$receiver"; sleep 0.2; before_received=$(cat "$work/received" 2>/dev/null || echo 0)
      receiver_before=$(awk '{print $14 + $15}' "/proc/$receiver/stat")
      database_before=$(database_ticks)
      before=$(cpu_ticks)
      # FORWARDING_PERF=PREFIX: the server profiled during each run (perf record -g; PREFIX.KIND-PATH.ROUND).
      profiler=""
      if [ -n "${FORWARDING_PERF:-}" ]; then
        perf record -q -g -p "$server" -o "$FORWARDING_PERF.$kind-$path.$round" -- sleep "$seconds" 2>/dev/null &
        profiler=$!
      fi
      wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/notifications/v2" \
        -- "$work/notifications.lines" 2 >"$work/wrk.txt"
      after=$(cpu_ticks)
      database_after=$(database_ticks)
      [ -n "$profiler" ] && wait "$profiler"
      wrk_figures "$work/wrk.txt" "$before" "$after"
      # PostgreSQL's own processes share the cores too: their CPU per request during the run.
      db_cpu="-"
      if [ "$kind" = postgres ] && [ "${requests:-0}" -gt 0 ]; then
        db_cpu=$(( (database_after - database_before) * 1000000 / $(getconf CLK_TCK) / requests ))
      fi
      forwarded="-"
      if [ "$path" = outbox-only ]; then
        pending=$(curl -fs "http://127.0.0.1:$port/metrics" | awk '/^receiptkit_notification_outbox_pending_entries\{/ {print $2}')
        forwarded="0 (${pending:-?})"
      fi
      if [ "$path" = forwarding ]; then
        kill -USR1 "$receiver"; sleep 0.2
        forwarded=$(( $(cat "$work/received") - before_received ))
        pending=$(curl -fs "http://127.0.0.1:$port/metrics" | awk '/^receiptkit_notification_outbox_pending_entries\{/ {print $2}')
        receiver_after=$(awk '{print $14 + $15}' "/proc/$receiver/stat")
        # The receiver shares the machine's cores: its CPU time during the run, as a share of one core.
        receiver_share=$(python3 -c "print(f'{($receiver_after - $receiver_before) / $(getconf CLK_TCK) / $seconds * 100:.0f}')")
        forwarded="$forwarded (${pending:-?}); receiver ${receiver_share}% of a core"
      fi
      grep -q exhausted "$work/wrk.txt" && echo "   (the run posted every notification: some were duplicates; raise COUNT)"
      printf '%-22s %10s %9s %9s %8s %12s %10s %s\n' "$kind-$path" "$rps" "$p50" "$p99" "${non2xx:-0}" "$cpu" "$db_cpu" "$forwarded"
      echo "$rps" >>"$work/rate.$kind-$path"
      echo "$p99" >>"$work/p99.$kind-$path"
      if [ "$path" = outbox-only ]; then
        kill -KILL "$server"; wait "$server" 2>/dev/null || true; server=""
      else
        stop_server
      fi
    done
  done
done

echo "-- medians (rounds' spread), and each path's rate as a share of the same database's without targets (target >= 0.90)"
echo "   outbox-only: the entries written, nothing sent; forwarding: written and sent on while the run lasts"
for kind in "${kinds[@]}"; do
  print_ratios "$kind" no-targets outbox-only | tail -n 1
  print_ratios "$kind" no-targets forwarding
done

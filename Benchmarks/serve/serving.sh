# Sourced by the serve benchmarks (after ../setup.sh, which sets `bin` and `work`): one `receiptkit serve` at a
# time on a random loopback port, its CPU time, wrk's figures, and a PostgreSQL server when none is given.

server=""
port=""
started_pg=""

# start_server DATABASE [SERVE-OPTION]...: a server on 127.0.0.1 (`port`, `server`), once /health answers; on
# another random port when the one drawn is taken.
start_server() {
  for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    "$bin" serve --host 127.0.0.1 --port "$port" --database "$1" "${@:2}" --log-level warning 2>"$work/serve.log" &
    server=$!
    for _ in $(seq 1 100); do
      curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return
      kill -0 "$server" 2>/dev/null || break
      sleep 0.1
    done
    wait "$server" 2>/dev/null || true
    server=""
    grep -q "already in use" "$work/serve.log" || break
  done
  echo "$(basename "$0"): the service did not start:"; cat "$work/serve.log"; exit 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

# The server's CPU time so far, in clock ticks (Linux; empty elsewhere).
cpu_ticks() { [ -r "/proc/$server/stat" ] && awk '{print $14 + $15}' "/proc/$server/stat" || true; }

# wrk_figures FILE BEFORE AFTER: from wrk's --latency output, `rps`, `p50`, `p99`, `non2xx`, `requests`, and `cpu`,
# the server's µs per request between the CPU ticks BEFORE and AFTER (`-` when unknown).
wrk_figures() {
  rps=$(awk '/Requests\/sec/ {print $2}' "$1")
  p50=$(awk '$1=="50%" {print $2}' "$1")
  p99=$(awk '$1=="99%" {print $2}' "$1")
  non2xx=$(awk '/Non-2xx/ {print $5}' "$1")
  requests=$(awk '/requests in/ {print $1}' "$1")
  cpu=-
  if [ -n "$2" ] && [ -n "$3" ] && [ "${requests:-0}" -gt 0 ]; then
    cpu=$(python3 -c "print(f'{($3 - $2) * 1e6 / $(getconf CLK_TCK) / $requests:.0f}')")
  fi
}

# postgres_url NAME PORT: RECEIPTKIT_TEST_POSTGRES_URL, else a server .ci/postgres.sh starts in /tmp/receiptkit-pg-NAME
# on PORT (stopped by stop_postgres); empty when neither.
postgres_url() {
  if [ -n "${RECEIPTKIT_TEST_POSTGRES_URL:-}" ]; then
    echo "$RECEIPTKIT_TEST_POSTGRES_URL"
  else
    RECEIPTKIT_PG_PORT="$2" RECEIPTKIT_PG_DIR="/tmp/receiptkit-pg-$1" .ci/postgres.sh start 2>/dev/null || true
  fi
}

# The cleanup every serve benchmark traps: its server, the PostgreSQL it started, its work folder.
serving_cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  [ -n "$started_pg" ] && RECEIPTKIT_PG_DIR="/tmp/receiptkit-pg-$started_pg" .ci/postgres.sh stop >/dev/null 2>&1 || true
  rm -rf "$work"
}

# mint_population COUNT: a test CA in $work/ca and COUNT receipts of distinct customers in $work/receipts, minted in
# one process: one customer per receipt, two purchases each (a non-consumable and a subscription).
mint_population() {
  echo "== minting $1 receipts"
  "$bin" mint ca --out "$work/ca" >/dev/null
  "$bin" mint receipt --ca "$work/ca" --bundle-id com.example.app --app-version 1 \
    --created 2026-01-01T00:00:00Z \
    --purchase "com.example.lifetime,1000;purchased=2025-12-01T00:00:00Z" \
    --purchase "com.example.monthly,2000;purchased=2025-12-15T00:00:00Z;expires=2026-01-15T00:00:00Z" \
    --count "$1" --out "$work/receipts" >/dev/null 2>"$work/mint.log"
}

# write_post_lua: writes $work/post.lua, a wrk script (`-- FILE STRIDE`) posting the lines of FILE in turn, each
# thread its own stride; `exhausted` counts the passes past the end (then the lines start again: no longer never seen).
write_post_lua() {
cat >"$work/post.lua" <<'LUA'
local lines, counter, index, stride = {}, 0, 0, 1
local threads = {}
wrapped = 0  -- a global: `done` reads each thread's
function setup(thread)
  counter = counter + 1
  thread:set("offset", counter - 1)
  table.insert(threads, thread)
end
function init(args)
  for line in io.lines(args[1]) do table.insert(lines, line) end
  stride = tonumber(args[2])
  index = offset
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  index = index + stride
  if index > #lines then index = (index - 1) % #lines + 1; wrapped = wrapped + 1 end
  return wrk.format(nil, nil, nil, lines[index])
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("wrapped") or 0) end
  if total > 0 then io.write(string.format("exhausted %d\n", total)) end
end
LUA
}

# fresh_database KIND: a new, empty ledger's URL: $work/ledger.sqlite (sqlite), or the database
# receiptkit_population, dropped and created again on the server $pg_url (postgres).
fresh_database() {
  if [ "$1" = sqlite ]; then
    rm -f "$work"/ledger.sqlite*
    echo "sqlite:$work/ledger.sqlite"
  else
    python3 - "$pg_url" <<'PY'
import subprocess, sys, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
subprocess.run(["psql", sys.argv[1], "-qAt", "-c", "DROP DATABASE IF EXISTS receiptkit_population"], check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
subprocess.run(["psql", sys.argv[1], "-qAt", "-c", "CREATE DATABASE receiptkit_population"], check=True,
               stdout=subprocess.DEVNULL)
print(urllib.parse.urlunparse(url._replace(path="/receiptkit_population")))
PY
  fi
}

# print_ratios KIND BASE PATH: the medians (and the rounds' spread) of $work/rate.KIND-BASE and $work/rate.KIND-PATH,
# PATH's as a ratio of BASE's, and PATH's p99 of each round ($work/p99.KIND-PATH).
print_ratios() {
  python3 - "$work" "$1" "$2" "$3" <<'PY'
import statistics, sys
work, kind, base_path, path = sys.argv[1:5]
def rates(name):
    return [float(x) for x in open(f"{work}/rate.{kind}-{name}").read().split()]
base, measured = rates(base_path), rates(path)
p99 = open(f"{work}/p99.{kind}-{path}").read().split()
print(f"{kind + '-' + base_path:<22} {statistics.median(base):>8.0f} req/s ({min(base):.0f}-{max(base):.0f})")
print(f"{kind + '-' + path:<22} {statistics.median(measured):>8.0f} req/s ({min(measured):.0f}-{max(measured):.0f}) "
      f"{statistics.median(measured) / statistics.median(base):.2f}x, p99 of the rounds: {' '.join(p99)}")
PY
}

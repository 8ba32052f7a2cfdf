#!/usr/bin/env bash
# Checks a tarball made by Scripts/package.sh as a user would meet it: unpacked in an empty directory, its
# checksum right, its binary linked to no Swift library, and run with the toolchain's runtime libraries hidden
# (a private mount namespace lays an empty folder over each; without the privilege for that, only the dynamic
# section is checked, and the script says so). Run that way, the binary prints its version, validates the sample
# receipt with the test root the tarball carries, checks the example settings, and serves: /health answers 200 and
# the sample receipt, POSTed to /verifyReceipt, status 0; SIGTERM stops it with exit 0.
#
#   Scripts/check-package.sh dist/receiptkit-VERSION-OS-ARCH.tar.gz
set -euo pipefail

tarball="$(cd "$(dirname "${1:?usage: check-package.sh TARBALL}")" && pwd)/$(basename "$1")"
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$(dirname "$tarball")" && sha256sum --check --quiet "$(basename "$tarball").sha256") \
  || fail "the tarball does not match its .sha256"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
root="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
for file in bin/receiptkit README.md LICENSE CHANGELOG.md SECURITY.md Examples/sample.receipt Examples/TestRoot.cer \
  Examples/Deploy/serve.json Examples/Deploy/receiptkit.service Examples/Deploy/compose.yaml; do
  [ -e "$root/$file" ] || fail "$file is missing from the tarball"
done

# Linked to no Swift library: the runtime, Foundation and Dispatch are inside the binary.
if command -v readelf >/dev/null 2>&1; then
  needed="$(readelf -d "$root/bin/receiptkit" | grep NEEDED || true)"
  echo "$needed" | sed 's/^ */   /'
  if echo "$needed" | grep -Ei 'libswift|libFoundation|libdispatch|libBlocksRuntime'; then
    fail "the binary needs a Swift library at run time (above): it was not linked with --static-swift-stdlib"
  fi
else
  echo "== readelf is not installed (binutils): the dynamic section is not listed"
fi

# The toolchain's runtime library folders, to hide.
runtime_paths="$(swift -print-target-info 2>/dev/null | python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"]))' || true)"

# What the binary must do, in the unpacked directory, with a bare environment.
cat > "$work/run.sh" <<'EOF'
#!/bin/sh
set -eu
cd "$1"
export PATH=/usr/bin:/bin HOME="$1"
version="$(bin/receiptkit --version)"
echo "   receiptkit --version: $version"
bin/receiptkit validate --anchor Examples/TestRoot.cer Examples/sample.receipt > validate.out
grep -q . validate.out
echo "   validate Examples/sample.receipt: exit 0"
# The example settings name a PostgreSQL host and a key file that do not exist here: --check-config must load the
# rest and name the missing key file (exit 66), not crash.
status=0
bin/receiptkit serve --check-config --config Examples/Deploy/serve.json > check.out 2> check.err || status=$?
[ "$status" -eq 66 ] || { cat check.out check.err; echo "serve --check-config exited $status, not 66"; exit 1; }
grep -q 'AuthKey_ABCDE12345.p8' check.err || { cat check.err; echo "the missing key file is not named"; exit 1; }
echo "   serve --check-config Examples/Deploy/serve.json: exit 66, names the missing key file"
bin/receiptkit serve --host 127.0.0.1 --port 0 --database sqlite:ledger.sqlite --anchor Examples/TestRoot.cer 2> serve.err &
pid=$!
python3 - "$pid" <<'PY'
import base64, json, re, sys, time, urllib.request
deadline = time.time() + 60
port = None
while time.time() < deadline and port is None:
    match = re.search(r"serving verifyReceipt on http://127\.0\.0\.1:(\d+)", open("serve.err").read())
    port = match and match.group(1)
    time.sleep(0.2)
if port is None:
    sys.exit("serve did not report its address within 60 s:\n" + open("serve.err").read())
base = f"http://127.0.0.1:{port}"
with urllib.request.urlopen(base + "/health", timeout=30) as response:
    assert response.status == 200, response.status
receipt = base64.b64encode(open("Examples/sample.receipt", "rb").read()).decode()
request = urllib.request.Request(base + "/verifyReceipt", data=json.dumps({"receipt-data": receipt}).encode(),
                                 headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=30) as response:
    answer = json.load(response)
if answer.get("status") != 0:
    sys.exit(f"POST /verifyReceipt answered status {answer.get('status')}, not 0")
print(f"   serve on {base}: /health 200, /verifyReceipt status 0")
PY
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || { cat serve.err; echo "serve exited $status after SIGTERM, not 0"; exit 1; }
echo "   SIGTERM: exit 0"
EOF
chmod +x "$work/run.sh"

hidden=""
if [ -n "$runtime_paths" ] && unshare -m --propagation private true 2>/dev/null; then
  mounts=""
  for path in $runtime_paths; do
    [ -d "$path" ] && mounts="$mounts mount -t tmpfs tmpfs '$path' &&"
  done
  hidden="$runtime_paths"
  echo "== running the packaged binary with the toolchain's runtime hidden ($hidden)"
  unshare -m --propagation private sh -c "$mounts '$work/run.sh' '$root'" || fail "the packaged binary (above)"
else
  echo "== cannot hide the toolchain here (unshare -m needs CAP_SYS_ADMIN): running with its dynamic section checked"
  env -u LD_LIBRARY_PATH "$work/run.sh" "$root" || fail "the packaged binary (above)"
fi
echo "ok: $(basename "$tarball")"

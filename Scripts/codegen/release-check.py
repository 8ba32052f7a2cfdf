#!/usr/bin/env python3
"""Proofs 2 and 4 of `receiptkit codegen` (issue 11) on a release build of the harness, as an app would ship it.

    Scripts/codegen/release-check.py RECEIPTKIT [--seed HEX] [--keep DIR]

1. Generates a validator for an app with known secrets (bundle id, version, a required product, a receipt path) and
   builds its harness package with `swift build -c release --static-swift-stdlib` and the stripping flags of the
   documentation (`-Xswiftc -Xfrontend -Xswiftc -disable-reflection-metadata -Xlinker --strip-all
   -Xlinker --no-export-dynamic`); builds the same package with a stub in place of the validator (the baseline: the
   harness's own code, Foundation and the Swift runtime).
2. No leak: no sensitive value — the app's bundle id, version, product id and receipt path, Apple's root
   fingerprint (raw and hex), the two Apple marker OIDs, `_MASReceipt`, `en0`, IOKit's key names — nor any 6-byte
   piece of one occurs in the harness more often than in the baseline. 0 exported (dynamic, defined) symbols.
3. Dead arms: the entry points' opaque predicates guard decoy arms that fold a random 64-bit constant into the token;
   each constant must still be in the optimized machine code (found as the little-endian immediate), i.e. the
   optimizer did not see through the predicate. The decoys' own exits (`return 0x…` in functions returning a token
   part) are counted and reported too.
4. The stripped harness still works: it refuses a receipt of another app (exit 1) and a malformed one (exit 1).
Exits 1 on any failure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

APPLE_ROOT = "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024"
SECRETS = {
    "bundle id": b"com.example.leakcheck",
    "version": b"7.3.1-rc9",
    "product id": b"com.example.leakcheck.lifetime",
    "receipt path": b"Contents/_MASReceipt/receipt",
    "_MASReceipt": b"_MASReceipt",
    "root fingerprint": bytes.fromhex(APPLE_ROOT),
    "root fingerprint (hex)": APPLE_ROOT.encode(),
    "leaf marker OID": bytes.fromhex("2a864886f76364060b01"),
    "WWDR marker OID": bytes.fromhex("2a864886f76364060201"),
    "en0": b"en0",
    "IOEthernetInterface": b"IOEthernetInterface",
    "IOPropertyMatch": b"IOPropertyMatch",
    "IOPrimaryInterface": b"IOPrimaryInterface",
    "IOMACAddress": b"IOMACAddress",
}
FLAGS = [
    "-c", "release", "--static-swift-stdlib",
    "-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-reflection-metadata",
    "-Xlinker", "--strip-all", "-Xlinker", "--no-export-dynamic",
]
STUB = """// The baseline: the harness without the validator.
func receiptHarnessVerdicts(_ receipt: [UInt8], _ device: [UInt8], _ nowMilliseconds: Int64) -> [Bool] {
    [receipt.count == device.count]
}
"""


def build(package: str) -> str:
    result = subprocess.run(["swift", "build", "--package-path", package, *FLAGS], capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout[-4000:], result.stderr[-4000:])
        raise SystemExit(f"release-check: swift build failed in {package}")
    path = subprocess.run(
        ["swift", "build", "--package-path", package, *FLAGS, "--show-bin-path"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return os.path.join(path, "harness")


def pieces(value: bytes):
    if len(value) <= 6:
        yield value
        return
    for i in range(len(value) - 5):
        yield value[i : i + 6]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("receiptkit")
    parser.add_argument("--seed", default="1eac0c4ecc0ffee1")
    parser.add_argument("--keep", help="build here and keep the folder (default: a temporary folder)")
    args = parser.parse_args()
    for tool in ("swift", "nm"):
        if shutil.which(tool) is None:
            print(f"release-check: `{tool}` is not on PATH", file=sys.stderr)
            return 2

    work = args.keep or tempfile.mkdtemp(prefix="rk-release-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    try:
        generated, baseline = os.path.join(work, "generated"), os.path.join(work, "baseline")
        shutil.rmtree(generated, ignore_errors=True)
        shutil.rmtree(baseline, ignore_errors=True)
        subprocess.run(
            [args.receiptkit, "codegen", "--bundle-id", SECRETS["bundle id"].decode(), "--version",
             SECRETS["version"].decode(), "--platform", "macos", "--require-product", SECRETS["product id"].decode(),
             "--receipt-path", SECRETS["receipt path"].decode(), "--seed", args.seed, "--emit-harness", generated],
            check=True, capture_output=True,
        )
        shutil.copytree(generated, baseline)
        with open(os.path.join(baseline, "Sources/harness/ReceiptCheck.swift"), "w") as stub:
            stub.write(STUB)
        source = open(os.path.join(generated, "Sources/harness/ReceiptCheck.swift")).read()

        print("== building the harness and the baseline: swift build " + " ".join(FLAGS))
        harness, plain = build(generated), build(baseline)
        data, base = open(harness, "rb").read(), open(plain, "rb").read()
        print(f"harness {len(data):,} bytes, baseline {len(base):,} bytes")

        print("== no leak: sensitive values and their 6-byte pieces, harness vs baseline")
        for name, value in SECRETS.items():
            worst = None
            for piece in set(pieces(value)):
                extra = data.count(piece) - base.count(piece)
                if extra > 0 and (worst is None or extra > worst[1]):
                    worst = (piece, extra)
            if worst:
                failures += 1
                print(f"  FAIL {name}: {worst[0]!r} occurs {worst[1]} more time(s) than in the baseline")
            else:
                print(f"  ok   {name}")

        print("== exported symbols (nm -D --defined-only)")
        exported = subprocess.run(["nm", "-D", "--defined-only", harness], capture_output=True, text=True).stdout.split()
        count = len([line for line in exported if line.strip()]) // 3
        print(f"  {count} exported symbol(s)")
        if count:
            failures += 1
            print("  FAIL: " + " ".join(exported[:30]))

        print("== dead arms of the opaque predicates in the optimized machine code")
        def found(constants):
            return [c for c in constants if int(c, 16).to_bytes(8, "little") in data]
        # An entry point's dead arm: `} else {` … `token = token ^ 0x…` … `}`. It is in the machine code when one of
        # its constants is (the folded one, or a decoy exit inside it: the optimizer may merge the fold constant with
        # its neighbours on the arm's path, never the arm's own exits), or one of them xor the token's initial value
        # (an arm before any other change to the token: the optimizer folds the two).
        arms = re.findall(r"\} else \{\n((?:(?!\n *\}\n).)*?token = token \^ 0x[0-9a-f]+)", source, flags=re.S)
        starts = [int(c, 16) for c in re.findall(r"var token: UInt64 = 0x([0-9a-f]+)", source)]
        present = 0
        for arm in arms:
            constants = [c for c in re.findall(r"0x([0-9a-f]+)", arm) if len(c) >= 12]
            folded = [f"{int(c, 16) ^ start:x}" for c in constants for start in starts]
            present += 1 if found(constants) or found(folded) else 0
        entry = [c for c in re.findall(r"token = token \^ 0x([0-9a-f]+)", source) if len(c) >= 12]
        decoys = [c for c in re.findall(r"\{ return 0x([0-9a-f]+) \}", source) if len(c) >= 12]
        kept_entry, kept_decoys = found(entry), found(decoys)
        print(f"  entry points' dead arms present: {present} of {len(arms)}"
              f" (their fold constants as immediates: {len(kept_entry)} of {len(entry)})")
        print(f"  decoy exits (return 0x… in functions returning a token part): {len(kept_decoys)} of {len(decoys)}")
        if not arms or present != len(arms) or len(arms) != len(entry):
            failures += 1
            print("  FAIL: an opaque predicate's dead arm was optimized away")

        print("== the stripped harness still refuses what it must")
        receipt = os.path.join(work, "not-a-receipt.der")
        with open(receipt, "wb") as f:
            f.write(b"\x30\x03\x02\x01\x00")
        for label, arguments, wanted in [
            ("malformed receipt", [receipt, "00:11:22:33:44:55"], 1),
            ("usage", [], 64),
        ]:
            status = subprocess.run([harness, *arguments], capture_output=True).returncode
            ok = status == wanted
            failures += 0 if ok else 1
            print(f"  {'ok  ' if ok else 'FAIL'} {label}: exit {status} (want {wanted})")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("release-check: " + ("passed" if failures == 0 else f"{failures} failure(s)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

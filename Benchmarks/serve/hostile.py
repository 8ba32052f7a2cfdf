#!/usr/bin/env python3
"""Hostile clients against a running `receiptkit serve` (issue 33 §1's proof; a script, not a timed test).

    hostile.py PORT PID [--connections 250] [--body-bytes 3145728] [--hold 10]

Opens CONNECTIONS connections that each declare a BODY-BYTES body, send all of it but the last byte and hold;
then, while they hold, times an ordinary POST /verifyReceipt of Examples/sample.receipt from another client and
reads the server's RSS (/proc/PID/status) before and after. Also: a client dripping headers one every 3 s, and
idle connections past the cap. Prints one line per measurement and exits 1 when a target is missed:
RSS growth <= 300 MiB, the ordinary request answered within 2 s, the dripping client cut off before 24 s.
Every loop is bounded; only 127.0.0.1 is contacted.
"""
import argparse
import base64
import json
import os
import socket
import sys
import time


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def connect(port, timeout=5):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def ordinary_post(port, body):
    started = time.monotonic()
    sock = connect(port, timeout=10)
    head = (f"POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    sock.sendall(head + body)
    answer = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        answer += chunk
    sock.close()
    return time.monotonic() - started, answer.split(b"\r\n", 1)[0].decode(errors="replace"), answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("pid", type=int)
    parser.add_argument("--connections", type=int, default=250)
    parser.add_argument("--body-bytes", type=int, default=3 * 1024 * 1024)
    parser.add_argument("--hold", type=float, default=10)
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "Examples", "sample.receipt"), "rb") as sample:
        body = json.dumps({"receipt-data": base64.b64encode(sample.read()).decode()}).encode()

    failures = []
    baseline = rss_mib(args.pid)
    print(f"rss before: {baseline:.0f} MiB")

    # Stalled uploads: all but the last byte of a declared body, then hold.
    held, refused_503, closed = [], 0, 0
    payload = b"A" * (args.body_bytes - 1)
    head = (f"POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Length: {args.body_bytes}\r\n\r\n").encode()
    started = time.monotonic()
    for _ in range(args.connections):
        try:
            sock = connect(args.port)
            sock.sendall(head)
            sock.settimeout(0.05)
            try:
                sock.sendall(payload)
            except (socket.timeout, BlockingIOError):
                pass  # the server stopped reading (refused, or back-pressure): hold what was sent
            try:
                first = sock.recv(64)
                if first.startswith(b"HTTP/1.1 503"):
                    refused_503 += 1
                elif not first:
                    closed += 1
            except (socket.timeout, BlockingIOError):
                pass
            held.append(sock)
        except OSError:
            closed += 1
    print(f"stalled uploads: {len(held)} opened in {time.monotonic() - started:.1f} s, "
          f"{refused_503} refused 503 Retry-After, {closed} closed")
    time.sleep(1)
    peak = rss_mib(args.pid)
    print(f"rss with {args.connections} stalled uploads held: {peak:.0f} MiB (+{peak - baseline:.0f} MiB; target <= 300)")
    if peak - baseline > 300:
        failures.append("rss")

    seconds, status, answer = ordinary_post(args.port, body)
    ok = status.startswith("HTTP/1.1 200") and b'"status":0' in answer
    print(f"ordinary POST /verifyReceipt meanwhile: {status!r} in {seconds * 1000:.0f} ms (target: status 0 within 2 s)")
    if not ok or seconds > 2:
        failures.append("ordinary request")

    # A client dripping its headers one every 3 s (24 s if nothing cut it off).
    drip = connect(args.port, timeout=30)
    drip.sendall(b"POST /verifyReceipt HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    cut = None
    for index in range(8):
        time.sleep(3)
        try:
            drip.sendall(f"X-Drip-{index}: {index}\r\n".encode())
            drip.settimeout(0.01)
            if drip.recv(1) == b"":
                cut = time.monotonic() - started
                break
        except (socket.timeout, BlockingIOError):
            continue
        except OSError:
            cut = time.monotonic() - started
            break
    print(f"header drip (one every 3 s): " + (f"cut off after {cut:.1f} s" if cut else "still open after 24 s"))
    if cut is None:
        failures.append("header drip")
    drip.close()

    time.sleep(min(args.hold, 60))
    for sock in held:
        sock.close()
    print("PASS" if not failures else "FAIL: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

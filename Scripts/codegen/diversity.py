#!/usr/bin/env python3
"""Proof 3 of `receiptkit codegen` (issue 11): generations for one app differ in structure, not only in names.

    Scripts/codegen/diversity.py RECEIPTKIT [--count 10] [--first 0] [--threshold 0.6] [--gate-similarity] [--k 5]
    Scripts/codegen/diversity.py --compare A.swift B.swift      (the same measure for any two files)

Generates COUNT validators for one app with fixed seeds (numbers FIRST, FIRST + 1, …; CI uses 0–9, other sets
audit how often a pair fails) and, for every pair:
  * runs the workplace's `duplicates` on the two files alone: it must find no run of six or more lines that the two
    share, the same or of the same shape (alike but for names, strings and numbers);
  * computes the normalized token similarity: comments dropped, identifiers (not keywords) replaced by ID, numbers by
    NUM, strings by STR; then the multiset Jaccard index of the token k-grams (shared / all; k = 5 unless --k). 1.0
    is the same token stream under other names and constants, 0.0 nothing in common. With --gate-similarity (as CI
    runs it) every pair must be at most THRESHOLD; without, it is reported.
Exits 1 when a pair fails, 2 when the tools are missing. `--compare` prints the similarity of two files (for a
reference: two independent hand-written validators).
"""
import argparse
import collections
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile

KEYWORDS = set(
    """associatedtype class deinit enum extension fileprivate func import init inout internal let open operator private
    precedencegroup protocol public rethrows static struct subscript typealias var break case catch continue default defer
    do else fallthrough for guard if in repeat return throw switch where while as Any await false is nil self Self super
    throws true try async some any mutating nonmutating lazy final override required convenience weak unowned""".split()
)
TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Fa-fxX_.]*|\S')


def tokens(source: str) -> list:
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r"//[^\n]*", " ", source)
    out = []
    for t in TOKEN.findall(source):
        if t[0] == '"':
            out.append("STR")
        elif t[0].isdigit():
            out.append("NUM")
        elif t[0].isalpha() or t[0] == "_":
            out.append(t if t in KEYWORDS else "ID")
        else:
            out.append(t)
    return out


def similarity(a: str, b: str, k: int = 5) -> float:
    def grams(ts):
        return collections.Counter(tuple(ts[i : i + k]) for i in range(len(ts) - k + 1))

    ga, gb = grams(tokens(a)), grams(tokens(b))
    shared = sum((ga & gb).values())
    union = sum((ga | gb).values())
    return shared / union if union else 1.0


def shared_runs(a_path: str, b_path: str) -> list:
    """`duplicates` on a folder holding the two files alone; the rows that pair one file with the other."""
    with tempfile.TemporaryDirectory() as folder:
        names = []
        for i, path in enumerate((a_path, b_path)):
            name = f"g{i}.swift"
            shutil.copy(path, os.path.join(folder, name))
            names.append(name)
        out = subprocess.run(
            ["duplicates", "--repo", folder, "--most", "200", "--seconds", "120"],
            capture_output=True, text=True, check=False,
        ).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+", line)
        if m and m.group(1) != m.group(2):
            rows.append(line)
        # A run standing in more than eight places is left out of the rows; it may pair the two files.
        if line.startswith("left out:") or line.startswith("incomplete:"):
            rows.append(line)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("receiptkit", nargs="?")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--threshold", type=float, default=0.6)
    parser.add_argument("--compare", nargs=2, metavar="FILE")
    parser.add_argument("--gate-similarity", action="store_true")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()

    if args.compare:
        a, b = (open(p).read() for p in args.compare)
        for k in sorted({args.k, 5, 8, 12, 16, 24}):
            print(f"normalized token similarity ({k}-grams): {similarity(a, b, k):.3f}")
        return 0
    if not args.receiptkit:
        parser.error("give the receiptkit binary, or --compare A B")
    if shutil.which("duplicates") is None:
        print("diversity: `duplicates` is not on PATH (the workplace's tool library)", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as work:
        files = []
        for i in range(args.first, args.first + args.count):
            path = os.path.join(work, f"generation{i - args.first}.swift")
            seed = f"d1ce{i:04x}5eed{i:04x}"
            subprocess.run(
                [args.receiptkit, "codegen", "--bundle-id", "com.example.diversity", "--version", "2.4.1",
                 "--platform", "macos", "--require-product", "com.example.diversity.pro", "--seed", seed,
                 "--output", path],
                check=True, capture_output=True,
            )
            files.append(path)
        lines = sum(open(p).read().count("\n") for p in files) // len(files)
        print(f"{len(files)} generations for one app, {lines} lines each on average")

        failures = 0
        scores = []
        for (i, a), (j, b) in itertools.combinations(enumerate(files), 2):
            runs = shared_runs(a, b)
            score = similarity(open(a).read(), open(b).read(), args.k)
            scores.append(score)
            verdict = "ok"
            if runs or (args.gate_similarity and score > args.threshold):
                failures += 1
                verdict = "FAIL"
            print(f"  {i}-{j}: shared runs {len(runs)}, token similarity {score:.3f}  {verdict}")
            for row in runs:
                print(f"      {row}")
        pairs = len(scores)
        print(
            f"{pairs} pairs: {args.k}-gram similarity min {min(scores):.3f}, mean {sum(scores) / pairs:.3f},"
            f" max {max(scores):.3f} (threshold {args.threshold}, {'gated' if args.gate_similarity else 'reported'});"
            f" pairs failing: {failures}"
        )
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

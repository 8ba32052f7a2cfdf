#!/usr/bin/env python3
"""Prints the tests a `swift test` log shows started and not finished, each with how long ago it started.

    .ci/unfinished-tests.py LOG

Swift Testing writes `◇ Test NAME started.` and, when it ends, `✔ Test NAME … passed after S seconds.` or
`✘ Test NAME … failed after S seconds.`; .ci/run calls this when the test step outlives its budget, so a hung test
is named in CI's log rather than found by its absence.
"""
import re
import sys
import time

STARTED = re.compile(r"^◇ Test (?!case passing |run started)(.*) started\.$")
# "after" too: a test's name may itself hold " failed" ("… not counted as failed, …").
ENDED = re.compile(r"^[✔✘] Test (?!run with )(.*?)(?: with \d+ test cases?)? (?:passed|failed) after ")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    started: dict[str, int] = {}
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for number, line in enumerate(log, 1):
            line = line.rstrip("\n")
            if match := STARTED.match(line):
                started[match.group(1)] = number
            elif match := ENDED.match(line):
                started.pop(match.group(1), None)
    if not started:
        print("every test that started has finished")
        return 0
    print(f"{len(started)} test(s) started and not finished (log line where each started):")
    for name, number in sorted(started.items(), key=lambda item: item[1]):
        print(f"  line {number}: {name}")
    return 1


if __name__ == "__main__":
    sys.exit(main())

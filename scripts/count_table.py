#!/usr/bin/env python3
"""The counting and listing table of docs/performance.md, measured with a release build.

    cargo build --release
    python3 scripts/count_table.py [--count-timeout S] [--rate-seconds S] PUZZLE...

Per puzzle: `solve --count` (its count and wall time, or "not within S s"), the time
from start to the first grid of `solve --limit 3 --json`, and the listing rate of
`solve --all --json --timeout R` (grids per second over R seconds). One Markdown row
each.
"""
import argparse
import json
import os
import subprocess
import time

BIN = os.path.join(os.path.dirname(__file__), "..", "target", "release", "crossat")


def count(path, timeout):
    start = time.monotonic()
    out = subprocess.run([BIN, "solve", "--count", "--json", "--timeout", str(timeout), path], capture_output=True, text=True).stdout
    took = time.monotonic() - start
    summary = json.loads(out.strip().splitlines()[-1])
    return (str(summary["count"]), took) if summary.get("complete") else (None, took)


def first_grid(path):
    start = time.monotonic()
    child = subprocess.Popen([BIN, "solve", "--limit", "3", "--json", path], stdout=subprocess.PIPE, text=True)
    first = None
    for line in child.stdout:
        if first is None and line.startswith('{"type":"solution"'):
            first = time.monotonic() - start
    child.wait()
    return first


def rate(path, seconds):
    out = subprocess.run([BIN, "solve", "--all", "--json", "--timeout", str(seconds), path], capture_output=True, text=True).stdout
    grids = sum(1 for line in out.splitlines() if line.startswith('{"type":"solution"'))
    summary = json.loads(out.strip().splitlines()[-1])
    return grids / seconds if not summary.get("complete") else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count-timeout", type=float, default=30)
    ap.add_argument("--rate-seconds", type=float, default=5)
    ap.add_argument("puzzles", nargs="+")
    args = ap.parse_args()
    for path in args.puzzles:
        n, took = count(path, args.count_timeout)
        shown = "not within %g s" % args.count_timeout if n is None else ("%s (%d digits)" % (n[:4], len(n)) if len(n) > 12 else n)
        t = "—" if n is None else ("%.0f ms" % (took * 1e3) if took < 1 else "%.1f s" % took)
        first = first_grid(path)
        r = rate(path, args.rate_seconds)
        r = "all listed" if r is None else "%.0f" % r
        print("| `%s` | %s | %s | %.0f ms | %s |" % (os.path.basename(path), shown, t, (first or 0) * 1e3, r), flush=True)


if __name__ == "__main__":
    main()

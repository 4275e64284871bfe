"""Python call overhead over the command line's in-process time (issue 40: ≤ 10 %).

For MIT (solve and prove unique, as `crossat solve --json`) and sheep (`solve --count`),
rounds alternate a block of command-line runs — each one's in-process wall time from
`--stats` (`stats.wall_ms`: read, compile, solve, verify; no process start-up) — with a
block of Python runs of the same work timed around the calls (`Puzzle.from_file` +
`search(limit=2)`, or `+ count_summary()`). Blocks, not single pairs: a Python run
right after a process start finds its caches cold, which would be measured as Python's
overhead. Medians over all runs.

    python python/bench/overhead.py [--cli target/release/crossat] [--rounds 6] [--block 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Callable, List

import crossat

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("MIT", "puzzles/antoine-trux/MIT.input.txt", ["solve", "--json", "--stats"]),
    ("sheep --count", "puzzles/antoine-trux/player_puzzle_sheep.input.txt", ["solve", "--count", "--json", "--stats"]),
]


def cli_ms(cli: str, args: List[str], path: str) -> float:
    out = subprocess.run([cli, *args, path], capture_output=True, text=True, cwd=ROOT, check=False).stdout
    summary = json.loads(out.splitlines()[-1])
    return float(summary["stats"]["wall_ms"])


def python_ms(path: str, count: bool) -> float:
    start = time.perf_counter()
    p = crossat.Puzzle.from_file(path)
    if count:
        p.count_summary()
    else:
        p.search(limit=2)
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(ROOT / "target" / "release" / "crossat"))
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--block", type=int, default=15)
    a = ap.parse_args()
    os.chdir(ROOT)
    print(f"load average {os.getloadavg()}, {a.rounds} rounds of {a.block} runs each side")
    for name, path, args in CASES:
        count = "--count" in args
        python_ms(path, count)  # warm the file cache and the extension
        cli: List[float] = []
        py: List[float] = []
        for _ in range(a.rounds):
            cli.extend(cli_ms(a.cli, args, path) for _ in range(a.block))
            py.extend(python_ms(path, count) for _ in range(a.block))
        c, p = statistics.median(cli), statistics.median(py)
        print(f"{name:14} cli in-process {c:8.3f} ms   python {p:8.3f} ms   overhead {100 * (p - c) / c:+6.1f} %")


if __name__ == "__main__":
    main()

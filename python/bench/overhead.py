"""Python call overhead over the command line's in-process time (issue 40: ≤ 10 %).

For MIT (solve and prove unique, as `crossat solve --json`) and sheep (`solve --count`),
rounds alternate a block of command-line runs — each one's in-process wall time from
`--stats` (`stats.wall_ms`: read, compile, solve, verify; no process start-up) — with a
block of Python runs of the same work timed around the calls (`Puzzle.from_file` +
`search(limit=2)`, or `+ count_summary()`). Blocks, not single pairs: a Python run
right after a process start finds its caches cold, which would be measured as Python's
overhead. Medians over all runs.

`--callgrind` counts instructions instead (valgrind; repeatable on a loaded machine):
the command line's in-process work is its run on the puzzle minus its run on
`tutorial_1` (start-up, arguments and a trivial puzzle), Python's is a process making
CALLS + 1 calls minus one making 1 (the first call's one-time costs left out, as a
long-lived process pays them once).

    python python/bench/overhead.py [--cli target/release/crossat] [--rounds 6] [--block 15]
    python python/bench/overhead.py --callgrind [--calls 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
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


TRIVIAL = "puzzles/antoine-trux/tutorial_1.input.txt"
CALLS = """
import sys, crossat
n, path, count = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
for _ in range(n):
    p = crossat.Puzzle.from_file(path)
    p.count_summary() if count else p.search(limit=2)
"""


def instructions(cmd: List[str]) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return int(out.stderr.split("Collected :")[1].split()[0])


def callgrind(cli: str, calls: int) -> None:
    print(f"instructions (valgrind --tool=callgrind), Python: the mean of {calls} calls after the first")
    for name, path, args in CASES:
        count = "--count" in args
        plain = [a for a in args if a != "--stats"]  # --stats adds the difficulty rating
        ours = instructions([cli, *plain, path]) - instructions([cli, *plain, TRIVIAL])
        py = [instructions([sys.executable, "-c", CALLS, str(n), path, "1" if count else "0"]) for n in (1, calls + 1)]
        per_call = (py[1] - py[0]) / calls
        print(f"{name:14} cli in-process {ours / 1e6:8.2f}M   python {per_call / 1e6:8.2f}M   overhead {100 * (per_call - ours) / ours:+6.1f} %")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=str(ROOT / "target" / "release" / "crossat"))
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--block", type=int, default=15)
    ap.add_argument("--callgrind", action="store_true", help="count instructions instead of timing")
    ap.add_argument("--calls", type=int, default=5)
    a = ap.parse_args()
    os.chdir(ROOT)
    if a.callgrind:
        callgrind(a.cli, a.calls)
        return
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

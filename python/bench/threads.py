"""Thread speed-up (issue 40: ≥ 1.7× with 2 threads on 2 cores): 200 generated 8×8
puzzles, each generated, proved unique and explained, by a ThreadPoolExecutor of 1 and
of 2 threads; runs alternate, medians reported with the load average (the machine may
be shared).

    python python/bench/threads.py [--puzzles 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Tuple

import crossat


def job(seed: int) -> Tuple[bool, str]:
    p = crossat.generate(size="8x8", seed=seed)
    return p.is_unique(), str(p.explain().difficulty)


def run(threads: int, n: int) -> float:
    """Wall seconds; prints the CPU seconds per wall second the process got (with 2
    threads on a shared machine, below 2 means other processes had the cores)."""
    start, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(job, range(n)))
    took = time.perf_counter() - start
    assert all(u for u, _ in results)
    print(f"  {threads} thread(s): {took:.2f} s wall, {(time.process_time() - cpu) / took:.2f} CPU s per wall s")
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    one, two = [], []
    for _ in range(a.repeat):
        before = os.getloadavg()
        one.append(run(1, a.puzzles))
        two.append(run(2, a.puzzles))
        print(f"1 thread {one[-1]:.2f} s, 2 threads {two[-1]:.2f} s, load average before {before}, after {os.getloadavg()}")
    s1, s2 = statistics.median(one), statistics.median(two)
    print(f"median: 1 thread {s1:.2f} s, 2 threads {s2:.2f} s, speed-up {s1 / s2:.2f}x ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""crossat against nelhage's regexle solver (nelhage/nelhage-sandbox `regexle/`: greenery
DFAs + Z3), whole process, on regexle-style hexagons of sides 3–8 written by
scripts/regexle_gen.py (each with exactly one solution).

The peer is built outside the project:

    fetch github:nelhage/nelhage-sandbox; copy its regexle/ to PEER (e.g. /work/peers/regexle/regexle)
    python3 -m venv PEER/../venv && PEER/../venv/bin/pip install z3-solver greenery cyclopts numpy httpx tqdm

It reads puzzles from `$HOME/.cache/regexle/puzzle_{day}_{side}.json` (its fetch cache),
so the script points HOME at a scratch folder holding the generated puzzles. Each
puzzle is run once by each side untimed (the peer caches its DFAs by pattern there, which
favours it), then ROUNDS times alternately; crossat runs `solve --json`, which proves the
solution unique, the peer finds one solution. Every pair's grids must agree.

    scripts/compare_regexle.py PEER [--crossat target/release/crossat] [--puzzles 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import regexle_gen  # noqa: E402


def wall(cmd: List[str], env: Dict[str, str], cwd: str) -> Tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    took = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return took, out.stdout


def peer_cells(side: int, text: str) -> Dict[Tuple[int, int], str]:
    """The peer's printed hexagon (row y: the cells with x ascending) as cells."""
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith(("Retrieving", "http", "Solving", "Querying", "check()"))]
    rows = rows[-(2 * side - 1) :]
    return {(max(0, y - side + 1) + i, y): c for y, row in enumerate(rows) for i, c in enumerate(row)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("peer", help="the peer's regexle/ folder (with src/regexle); its venv is PEER/../venv")
    ap.add_argument("--crossat", default=str(ROOT / "target" / "release" / "crossat"))
    ap.add_argument("--python", help="the peer's Python (default PEER/../venv/bin/python)")
    ap.add_argument("--puzzles", type=int, default=3, help="puzzles per side")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sides", default="3,4,5,6,7,8")
    a = ap.parse_args()
    peer = Path(a.peer).resolve()
    python = a.python or str(peer.parent / "venv" / "bin" / "python")
    crossat = str(Path(a.crossat).resolve())
    home = Path(tempfile.mkdtemp(prefix="regexle-home-"))
    cache = home / ".cache" / "regexle"
    cache.mkdir(parents=True)
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(peer / "src")}
    print(f"load average {os.getloadavg()}; {a.puzzles} puzzles per side, {a.rounds} rounds each")
    print(f"{'side':>4} {'peer s':>9} {'crossat s':>10} {'ratio':>7}")
    try:
        for side in map(int, a.sides.split(",")):
            peer_t: List[float] = []
            ours_t: List[float] = []
            for seed in range(1, a.puzzles + 1):
                day = 100 * side + seed
                puzzle = regexle_gen.generate(side, seed, crossat, day)
                path = cache / f"puzzle_{day}_{side}.json"
                path.write_text(json.dumps(puzzle))
                peer_cmd = [python, "-m", "regexle.main", "--side", str(side), "--day", str(day), "--no-verbose"]
                ours_cmd = [crossat, "solve", "--json", str(path)]
                for r in range(a.rounds + 1):
                    tp, text = wall(peer_cmd, env, str(home))
                    to, out = wall(ours_cmd, env, str(home))
                    records = [json.loads(line) for line in out.splitlines()]
                    grids = [rec["grid"] for rec in records if rec["type"] == "solution"]
                    if len(grids) != 1 or records[-1].get("unique") is not True:
                        sys.exit(f"side {side} day {day}: crossat did not prove one solution")
                    if peer_cells(side, text) != regexle_gen.cell_of(side, grids[0]):
                        sys.exit(f"side {side} day {day}: the peer's grid differs from crossat's\n{text}\n{grids[0]}")
                    if r > 0:
                        peer_t.append(tp)
                        ours_t.append(to)
            p, o = statistics.median(peer_t), statistics.median(ours_t)
            print(f"{side:>4} {p:9.3f} {o:10.4f} {p / o:6.0f}×", flush=True)
    finally:
        shutil.rmtree(home)
    print(f"load average after {os.getloadavg()}")


if __name__ == "__main__":
    main()
